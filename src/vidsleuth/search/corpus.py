"""The video corpus: ``corpus.jsonl``, one video per line, validated with line numbers.

Fields: ``video_id`` and ``title`` (required), ``description``, ``channel``, ``tags`` (list or
comma-separated string), ``duration`` (seconds), ``url``, ``path`` (a local copy), ``published``
(ISO date; yt-dlp's ``upload_date`` YYYYMMDD is read too). Any JSONL corpus can be indexed too,
naming its id and text fields.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

from ..errors import CorpusError, VidsleuthError  # noqa: F401  (CorpusError is re-exported)
from ..files import write_atomic
from ..media import content_id, probe


@dataclass(frozen=True)
class VideoRecord:
    video_id: str
    title: str
    description: str = ""
    channel: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    duration: float | None = None
    url: str = ""
    path: str = ""
    published: str = ""  # ISO date (YYYY-MM-DD), when the corpus says

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tags"] = list(self.tags)
        return {k: v for k, v in d.items() if v not in ("", None, [])} | {"video_id": self.video_id, "title": self.title}

    def search_text(self) -> dict[str, str]:
        return {"title": self.title, "description": self.description, "channel": self.channel,
                "tags": " ".join(self.tags)}


_TYPES = {"video_id": str, "title": str, "description": str, "channel": str, "url": str, "path": str, "published": str}
_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d(?:[T ][\d:.+Z-]*)?")


def iter_jsonl(path: str | Path, *, finite: bool = True) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-empty line; a bad line raises with its number.
    Through the one reader layer (``vidsleuth.schemas``): the file is read bounded, each line is
    depth-checked before parsing, and NaN/Infinity are refused (unless ``finite=False``: predictions,
    where a NaN is an unparsed answer, scored 0)."""
    from ..schemas.read import iter_json_lines

    yield from iter_json_lines(Path(path), what="JSONL file", finite=finite)


def _record(obj: Any, n: int, problems: list[str]) -> VideoRecord | None:
    if not isinstance(obj, dict):
        problems.append(f"line {n}: not a JSON object")
        return None
    bad = False
    for key in ("video_id", "title"):
        if not obj.get(key) or not isinstance(obj.get(key), str):
            problems.append(f"line {n}: field '{key}' is missing or not a non-empty string")
            bad = True
    for key, typ in _TYPES.items():
        if key in obj and obj[key] is not None and not isinstance(obj[key], typ):
            problems.append(f"line {n}: field '{key}' must be a string")
            bad = True
    tags = obj.get("tags") or []
    if isinstance(tags, str):
        tags = [t.strip() for t in tags.split(",") if t.strip()]
    elif not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
        problems.append(f"line {n}: field 'tags' must be a list of strings or a comma-separated string")
        bad = True
    duration = obj.get("duration")
    if duration is not None and (isinstance(duration, bool) or not isinstance(duration, (int, float)) or duration < 0):
        problems.append(f"line {n}: field 'duration' must be a non-negative number of seconds")
        bad = True
    published = obj.get("published") or obj.get("upload_date") or ""  # upload_date: yt-dlp's YYYYMMDD
    if isinstance(published, str) and re.fullmatch(r"\d{8}", published.strip()):
        published = f"{published[:4]}-{published[4:6]}-{published[6:8]}"
    if published and not (isinstance(published, str) and _ISO_DATE.fullmatch(published.strip())):
        problems.append(f"line {n}: field 'published' must be an ISO date (YYYY-MM-DD)")
        bad = True
    if bad:
        return None
    return VideoRecord(video_id=obj["video_id"], title=obj["title"], description=obj.get("description") or "",
                       channel=obj.get("channel") or "", tags=tuple(tags),
                       duration=float(duration) if duration is not None else None,
                       url=obj.get("url") or "", path=obj.get("path") or "",
                       published=published.strip())


def read_corpus(path: str | Path, *, resolve_paths: bool = True) -> list[VideoRecord]:
    """All records, or a CorpusError listing every bad line (and duplicate ids) by number.
    A relative ``path`` is resolved against the corpus file's folder (as benchmark instances
    are), so a corpus works from any working directory."""
    base = Path(path).resolve().parent
    problems: list[str] = []
    records: list[VideoRecord] = []
    first_seen: dict[str, int] = {}
    for n, obj in iter_jsonl(path):
        rec = _record(obj, n, problems)
        if rec is None:
            continue
        if rec.video_id in first_seen:
            problems.append(f"line {n}: duplicate video_id '{rec.video_id}' (first on line {first_seen[rec.video_id]})")
            continue
        first_seen[rec.video_id] = n
        if resolve_paths and rec.path and not Path(rec.path).is_absolute():
            rec = replace(rec, path=str(base / rec.path))
        records.append(rec)
    if problems:
        shown = "; ".join(problems[:20]) + (f"; … {len(problems) - 20} more" if len(problems) > 20 else "")
        raise CorpusError(f"{len(problems)} bad line(s): {shown}", path=path)
    if not records:
        raise CorpusError("holds no records", path=path)
    return records


def read_generic(path: str | Path, id_field: str, text_fields: list[str]) -> list[tuple[str, dict[str, str]]]:
    """(id, {field: text}) from any JSONL file."""
    problems, out, seen = [], [], set()
    present: set[str] = set()
    seen_keys: set[str] = set()
    for n, obj in iter_jsonl(path):
        if isinstance(obj, dict):
            seen_keys.update(map(str, obj))
        if not isinstance(obj, dict) or id_field not in obj:
            problems.append(f"line {n}: no '{id_field}' field")
            continue
        if isinstance(obj[id_field], (dict, list)) or obj[id_field] in (None, ""):
            problems.append(f"line {n}: '{id_field}' must be a string or a number")
            continue
        doc_id = str(obj[id_field])
        if doc_id in seen:
            problems.append(f"line {n}: duplicate id '{doc_id}'")
            continue
        seen.add(doc_id)
        texts = {}
        for f in text_fields:
            v = obj.get(f, "")
            texts[f] = " ".join(map(str, v)) if isinstance(v, list) else ("" if v is None else str(v))
        out.append((doc_id, texts))
        present.update(k for k in text_fields if k in obj)
    if problems:
        raise CorpusError(f"{len(problems)} bad line(s): " + "; ".join(problems[:20]), path=path)
    if not out:
        raise CorpusError("holds no records", path=path)
    missing = [f for f in text_fields if f not in present]
    if missing:
        from ..config import did_you_mean

        raise CorpusError(f"--text-field {missing[0]}: no line has this field" + did_you_mean(missing[0], seen_keys),
                          path=path, hint=f"fields in the file: {', '.join(sorted(seen_keys)[:20])}")
    return out


def write_corpus(path: str | Path, records: list[VideoRecord]) -> None:
    """Atomic rewrite: the old file stays whole until the new one is complete."""
    write_atomic(path, "".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records))


def slug(text: str) -> str:
    return re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-") or "video"


def corpus_add(videos: list[str | Path], corpus: str | Path) -> list[VideoRecord]:
    """Append records for local video files (title from container metadata or the file name,
    duration from probe); files already in the corpus are skipped. Returns the new records."""
    p = Path(corpus)
    records = read_corpus(p, resolve_paths=False) if p.exists() and p.stat().st_size else []
    ids = {r.video_id for r in records}
    paths = {r.path for r in records if r.path}
    added = []
    for v in videos:
        v = Path(v).resolve()
        info = probe(v, with_content_id=False)
        if str(v) in paths:
            continue
        title = info.tags.get("title") or v.stem.replace("_", " ")  # probe read the container's tags
        vid = slug(v.stem)
        if vid in ids:
            vid = f"{vid}-{content_id(v)[:8]}"
        rec = VideoRecord(video_id=vid, title=title, duration=round(info.duration, 3), path=str(v))
        records.append(rec)
        added.append(rec)
        ids.add(vid)
        paths.add(str(v))
    write_corpus(p, records)
    return added
