"""A content index: what is said and shown in every video of a corpus, searchable.

The seed's search stack indexes metadata only (title, description, channel, tags), as an open-web
platform does; a Level-2 question names its video only by what is said or shown in it. For a
user's own collection the ingested timelines are at hand, so ``build_content_index`` indexes each
record's metadata *and* its whole speech and on-screen text (each distinct reading once) from the
library (ingesting what is missing), BM25 + e5 hybrid by default. The index records the corpus
it came from (so ``ask -i`` finds the records and their paths) and ``meta["content"]`` says what
was indexed; the browse benchmark keeps the metadata-only index unless given this one, and its
protocol records which it used.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from ..errors import VidsleuthError
from .corpus import read_corpus

FIELDS = ("title", "description", "channel", "tags", "speech", "screen")


def content_rows(corpus: str | Path, library: str | Path, *, on_missing: str = "ingest") -> list[dict]:
    """One row per record: its metadata and its timeline's speech and on-screen text.
    ``on_missing``: ``ingest`` (the default) ingests a video the library lacks; ``skip`` indexes its
    metadata only."""
    from ..library import IngestOptions, ingest

    rows = []
    for rec in read_corpus(corpus):
        speech = screen = ""
        if rec.path and Path(rec.path).exists() and on_missing == "ingest":
            tl = ingest(rec.path, library, IngestOptions())
            speech = " ".join(s.text for s in tl.segments if s.kind in ("speech", "subtitle"))
            screen = " ".join(dict.fromkeys(s.text for s in tl.segments if s.kind == "ocr"))
        rows.append({"video_id": rec.video_id, **rec.search_text(), "speech": speech, "screen": screen})
    return rows


def build_content_index(corpus: str | Path, library: str | Path, out: str | Path, *, kind: str = "hybrid",
                        embedder=None, method: str = "lucene"):
    """Index metadata + speech + on-screen text of every corpus video (see the module docstring).
    ``method`` lucene: a word every transcript shares keeps a positive idf."""
    from .index import build_index

    if library is None or not Path(library).is_dir():
        raise VidsleuthError(f"library folder {library} does not exist", hint="ingest the videos first: "
                             "`vidsleuth ingest DIR --library LIB`, then `index build CORPUS --content LIB`")
    rows = content_rows(corpus, library)
    with tempfile.TemporaryDirectory(prefix="vidsleuth-content-") as tmp:
        docs = Path(tmp) / "content.jsonl"
        docs.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        index = build_index(docs, out, kind=kind, method=method, id_field="video_id", text_fields=list(FIELDS),
                            embedder=embedder)
    meta = {**index.meta, "corpus": str(Path(corpus).resolve()),
            "content": {"library": str(Path(library).resolve()), "fields": list(FIELDS),
                        "with_content": sum(bool(r["speech"] or r["screen"]) for r in rows)}}
    (Path(out) / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
    index.meta = meta
    return index
