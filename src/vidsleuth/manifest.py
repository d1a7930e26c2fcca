"""The frame manifest: exactly which images each model call carried.

A run that records only its frame budget cannot show that two runs gave the models the same
frames (harnesses have moved scores by points through silent frame-count and resize
differences). Every model call that carries images records, per image, the video, the
presentation time, the frame's index in its sample, the size sent (w×h, bytes) and the sha256 of
the bytes sent. The call pipeline (``models.base``) makes the records; callers collect them from
``Reply.extra["frames"]`` or, around code they do not control, with ``recording()``. Benchmarks
write them to ``frames.jsonl`` beside ``predictions.jsonl``; agents keep them in the trace's steps.
"""

from __future__ import annotations

import contextvars
import hashlib
import io
import json
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

MANIFEST_FILE = "frames.jsonl"
_SINK: contextvars.ContextVar[list | None] = contextvars.ContextVar("vidsleuth_frames", default=None)


@dataclass(frozen=True)
class FrameRecord:
    """One image as one model call received it."""

    video: str  # the video's file name ("" for an image that is not a video frame)
    t: float | None  # presentation time in seconds (a grid: its first cell)
    index: int | None  # position in the frame sample it came from
    width: int  # pixels sent (0 when a text-only backend was shown a description instead)
    height: int
    bytes: int  # length of what was sent
    sha256: str  # of exactly the bytes sent
    sent: str = "jpeg"  # jpeg | text (a text-only backend's description of the image)
    role: str = ""
    model: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _size(data: bytes, sent: str) -> tuple[int, int]:
    if sent == "text":
        return 0, 0
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:  # reads the header only
            return im.size
    except OSError:
        return 0, 0


def image_record(part: Any, data: bytes, sent: str, role: str = "", model: str = "") -> FrameRecord:
    """The record of one image part (``models.types.ImagePart``) sent as ``data``."""
    video = getattr(part, "video", "") or ""
    t = getattr(part, "t", None)
    w, h = _size(data, sent)
    return FrameRecord(video=Path(video).name if video else "", t=None if t is None else round(float(t), 6),
                       index=getattr(part, "index", None), width=w, height=h, bytes=len(data),
                       sha256=hashlib.sha256(data).hexdigest(), sent=sent, role=role, model=model)


def note(records: Iterable[FrameRecord]) -> None:
    """Hand records to the innermost active ``recording()`` (none active: nothing happens)."""
    sink = _SINK.get()
    if sink is not None:
        sink.extend(records)


@contextmanager
def recording() -> Iterator[list[FrameRecord]]:
    """Collect the frame records of every model call made inside the block (this thread and the
    tasks it starts; ``ChatModel.chat`` carries the context onto the models' event loop)."""
    sink: list[FrameRecord] = []
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def manifest_rows(item: str, records: Iterable[FrameRecord | dict]) -> list[dict]:
    """frames.jsonl rows for one item: its calls' images numbered in the order they were sent."""
    rows = []
    for n, r in enumerate(records):
        d = r.to_dict() if isinstance(r, FrameRecord) else dict(r)
        rows.append({"item": item, "image": n, **d})
    return rows


def write_manifest(path: str | Path, rows: Iterable[dict]) -> Path:
    """Write frames.jsonl (one row per image sent; items in the order given)."""
    from .files import write_atomic

    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    return write_atomic(path, text)


def read_manifest(path: str | Path) -> list[dict]:
    """Rows of a frames.jsonl, or of ``RUN/frames.jsonl`` when given a run folder."""
    from .errors import DataFileError, VidsleuthError
    from .files import read_text

    p = Path(path)
    if p.is_dir():
        p = p / MANIFEST_FILE
    if not p.exists():
        raise VidsleuthError("no frame manifest here", path=p,
                             hint="a run made before frame manifests existed has none: run it again")
    rows = []
    for n, line in enumerate(read_text(p, "frame manifest").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except ValueError as exc:
            raise DataFileError(p, n, f"not JSON ({exc.msg})") from None
        if not isinstance(d, dict) or "item" not in d or "sha256" not in d:
            raise DataFileError(p, n, 'expected {"item", "image", "sha256", ...}')
        rows.append(d)
    return rows
