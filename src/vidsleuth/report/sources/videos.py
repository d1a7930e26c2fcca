"""Related videos: the search stack's index over a video corpus. Each anchor's subject is searched;
the hits' timelines (ingested through the library, cached) give passages with their own moments,
so a finding can cite "another video at 1:12"."""

from __future__ import annotations

from pathlib import Path

from ..types import Source
from . import Gathered, Passage


class VideoSource:
    name = "videos"

    def __init__(self, index: str | Path, *, library=None, exclude: str = "", per_anchor: int = 2):
        self.index, self.library, self.exclude, self.per_anchor = Path(index), library, exclude, per_anchor

    def gather(self, anchors=(), **_) -> Gathered:
        from ...browse.videos import Videos
        from ...search.corpus import read_corpus
        from ...search.index import SearchIndex

        got = Gathered(counts={"related_videos": 0})
        idx = SearchIndex.load(self.index)
        records = {r.video_id: r for r in read_corpus(idx.meta["corpus"])}
        videos = Videos(records, library=self.library)
        seen: set[str] = set()
        for anchor in anchors:
            query = " ".join([anchor.text] + [m.text for m in anchor.moments if m.kind == "ocr"])
            for hit in idx.search(query, k=self.per_anchor + 1):
                rec = records.get(hit.video_id)
                if rec is None or hit.video_id in seen or (rec.path and str(Path(rec.path).resolve()) == self.exclude):
                    continue
                seen.add(hit.video_id)
                timeline = videos.timeline(hit.video_id)
                if not timeline.segments:
                    got.skipped.append(f"{hit.video_id}: {videos.problems.get(hit.video_id, 'no timeline')}")
                    continue
                got.counts["related_videos"] += 1
                src = Source(id=f"vid:{hit.video_id}", kind="video", title=rec.title or hit.video_id,
                             location=str(rec.path or rec.url or hit.video_id), date=getattr(rec, "date", "") or "")
                for seg in timeline.of_kind("speech", "subtitle", "ocr"):
                    got.passages.append(Passage(src, seg.text, "video", moment=round(seg.start, 2)))
        return got


def reopen_video(location: str, library=None) -> str:
    """A related video's timeline text, read again through the ingest library (the timeline the
    branch cited from is cached there), so its citations are verified like a document's."""
    from ...errors import VidsleuthError
    from ...library import IngestOptions, ingest

    path = Path(location)
    if not path.is_file():
        raise VidsleuthError("the related video is no longer where it was cited from", path=path)
    timeline = ingest(path, library, IngestOptions())
    return "\n".join(s.text for s in timeline.of_kind("speech", "subtitle", "ocr"))
