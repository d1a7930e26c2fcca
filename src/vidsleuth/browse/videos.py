"""What the agent can see of a corpus video: metadata, preview grids, dense frames, timeline.

A video is read from the record's local ``path``. With ``allow_download`` and a ``url`` it may be
fetched once with yt-dlp (the ``download`` extra) into the cache; never by default. A video that
cannot be read is shown as "(no visual data)", as in the seed.
"""

from __future__ import annotations

from pathlib import Path

from ..config import BrowseConfig, load_browse_config  # noqa: E402,F401  (their home is vidsleuth.config)
from ..errors import VidsleuthError, require
from ..search.corpus import VideoRecord
from ..timecode import seconds_label
from ..types import Timeline


class Videos:
    """The corpus videos as the agent sees them. A video that cannot be found, fetched or
    decoded is never silently blank: the reason is kept in ``problems`` (video id -> message),
    and the agents put it on the step and count it in the metrics ("videos unavailable")."""

    def __init__(self, records: dict[str, VideoRecord], *, library=None, allow_download: bool = False,
                 download_dir: str | Path | None = None):
        self.records = records
        self.library = library
        self.allow_download = allow_download
        self.download_dir = Path(download_dir) if download_dir else None
        self._timelines: dict[str, Timeline] = {}
        self.problems: dict[str, str] = {}

    def record(self, video_id: str) -> VideoRecord:
        try:
            return self.records[video_id]
        except KeyError:
            raise VidsleuthError(f"video id {video_id!r} is not in the corpus") from None

    def _problem(self, video_id: str, message: str) -> None:
        self.problems.setdefault(video_id, message)

    def path(self, video_id: str) -> Path | None:
        rec = self.record(video_id)
        if rec.path and Path(rec.path).exists():
            return Path(rec.path)
        if self.allow_download and rec.url:
            return self._download(rec)
        if rec.path:
            self._problem(video_id, f"video file not found: {rec.path}")
        elif rec.url:
            self._problem(video_id, f"no local path; {rec.url} is fetched only with --allow-download")
        else:
            self._problem(video_id, "the corpus record has neither a path nor a url")
        return None

    def _download(self, rec: VideoRecord) -> Path | None:
        from ..assets import cache_root

        folder = self.download_dir or cache_root() / "downloads"
        folder.mkdir(parents=True, exist_ok=True)
        existing = sorted(folder.glob(f"{rec.video_id}.*"))
        if existing:
            return existing[0]
        yt_dlp = require("yt_dlp", "download")
        opts = {"outtmpl": str(folder / f"{rec.video_id}.%(ext)s"), "quiet": True, "format": "mp4/best"}
        try:
            with yt_dlp.YoutubeDL(opts) as ydl:
                ydl.download([rec.url])
        except Exception as exc:  # yt-dlp raises many types; the agent goes on without visuals
            self._problem(rec.video_id, f"download from {rec.url} failed: {exc}")
            return None
        found = sorted(folder.glob(f"{rec.video_id}.*"))
        if not found:
            self._problem(rec.video_id, f"download from {rec.url} produced no file")
        return found[0] if found else None

    def grids(self, video_id: str, cfg: BrowseConfig) -> list:
        """The Watcher's preview grids, or [] when the video cannot be read (see ``problems``)."""
        from ..media import frame_grids

        p = self.path(video_id)
        if p is None:
            return []
        try:
            return frame_grids(p, n_grids=cfg.n_grids, rows=cfg.grid_rows, cols=cfg.grid_rows, cell=cfg.grid_cell,
                               video_id=video_id)
        except VidsleuthError as exc:
            self._problem(video_id, f"no preview: {exc}")
            return []

    def frames(self, video_id: str, n: int | None = None, fps: float | None = None, max_side: int = 512):
        from ..media import probe, sample_frames

        p = self.path(video_id)
        if p is None:
            return []
        try:
            if fps is not None:  # "128 frames at 1 fps": every second, at most n of them
                duration = probe(p, with_content_id=False).duration
                return sample_frames(p, n=min(n or 10**9, max(1, int(duration * fps))), max_side=max_side)
            return sample_frames(p, n=n, max_side=max_side)
        except VidsleuthError as exc:
            self._problem(video_id, f"no frames: {exc}")
            return []

    def timeline(self, video_id: str, *, ocr: bool = True) -> Timeline:
        """The ingested timeline (cached in the library); an empty one when the video cannot be
        read (the reason is in ``problems``)."""
        key = f"{video_id}|{ocr}"
        if key not in self._timelines:
            from ..library import IngestOptions, ingest

            p = self.path(video_id)
            tl = Timeline.empty(self.record(video_id).path)
            if p is not None:
                try:
                    tl = ingest(p, self.library, IngestOptions(ocr=ocr))
                except VidsleuthError as exc:
                    self._problem(video_id, f"no timeline: {exc}")
            self._timelines[key] = tl
        return self._timelines[key]

    def candidate_text(self, video_id: str, times=None, max_chars: int | None = None):
        """What is known of a candidate for the fused Watcher: its metadata, plus the on-screen
        text at ``times`` and the speech within their span (second before and after); without
        ``times``, the whole video's on-screen text (each distinct reading once) and speech, each
        cut to half of ``max_chars``."""
        from .fusion import CandidateText

        rec = self.record(video_id)
        meta = " ".join(v for v in rec.search_text().values() if v)
        if times is None:
            tl = self.timeline(video_id)
            half = (max_chars // 2) if max_chars else None
            screen = "\n".join(dict.fromkeys(s.text for s in tl.segments if s.kind == "ocr"))  # a caption per line
            speech = "\n".join(s.text for s in tl.segments if s.kind in ("speech", "subtitle"))
            return CandidateText(video_id, meta, screen[:half], speech[:half], rec.title)
        if not times:
            return CandidateText(video_id, meta, title=rec.title)
        return CandidateText(video_id, meta, " ".join(self.text_at(video_id, times, kinds=("ocr",))),
                             " ".join(self.text_at(video_id, [min(times) - 1.0, max(times) + 1.0],
                                                   kinds=("speech", "subtitle"))), rec.title)

    def text_at(self, video_id: str, times, kinds=("ocr",)) -> list[str]:
        """What perception read (``ocr``) or heard (``speech``) at or around the given times,
        without repeats, in time order."""
        tl = self.timeline(video_id)
        lo, hi = (min(times), max(times)) if times else (0.0, 0.0)
        seen: list[str] = []
        for s in tl.segments:
            if s.kind not in kinds:
                continue
            inside = any(s.start <= t <= s.end for t in times) if s.kind == "ocr" else (s.end >= lo and s.start <= hi)
            if inside and s.text not in seen:
                seen.append(s.text)
        return seen

    def cell_notes(self, video_id: str, times, merge: bool = False) -> list[str]:
        """Per grid cell, what perception read at that time (for text-only models); ``merge``
        joins neighbouring cells that read the same ("0.3-5.7s: TEXT"), to keep prompts short."""
        tl = self.timeline(video_id)
        cells = []
        for t in times:
            texts = [s.text for s in tl.segments if s.kind == "ocr" and s.start <= t <= s.end]
            text = " | ".join(texts) if texts else "(no on-screen text)"
            if merge and cells and cells[-1][2] == text:
                cells[-1][1] = t
            else:
                cells.append([t, t, text])
        return [f"{seconds_label(a)}: {x}" if a == b else f"{seconds_label(a)}-{seconds_label(b)}: {x}" for a, b, x in cells]


def clip(text: str, n: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"
