"""Core data types shared by every stage.

Frozen dataclasses; times are seconds (float) everywhere. Types that are stored on disk serialise
to plain JSON with a ``version`` field so older files are recognised instead of misread.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from .errors import LibraryError

SCHEMA_VERSION = 1
SEGMENT_KINDS = ("speech", "subtitle", "ocr", "shot")  # what a timeline segment can be


@dataclass(frozen=True)
class VideoInfo:
    """What ``probe`` learns about a media file. ``width``/``height`` are display size (after
    rotation); they are 0 for audio-only files."""

    path: str
    duration: float
    fps: float
    width: int
    height: int
    rotation: int
    has_audio: bool
    has_video: bool
    codec: str
    audio_codec: str
    content_id: str
    duration_source: str = "container"  # container | stream | packets
    subtitle_streams: int = 0
    # The container's tags (title, creation_time, …), read once by ``probe`` so no caller opens
    # the file again for them; bounded in count and length.
    tags: dict[str, str] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "VideoInfo":
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass(frozen=True, eq=False)
class Frame:
    """A decoded frame and its real presentation time in seconds."""

    t: float
    image: Any  # PIL.Image.Image


@dataclass(frozen=True, eq=False)
class FrameGrid:
    """Several frames tiled into one image, each cell labelled with its time."""

    image: Any  # PIL.Image.Image
    times: tuple[float, ...]
    video_id: str = ""
    rows: int = 3
    cols: int = 3

    @property
    def span(self) -> tuple[float, float]:
        return (self.times[0], self.times[-1]) if self.times else (0.0, 0.0)


@dataclass(frozen=True)
class Segment:
    """A stretch of a video that one perception stage found something in."""

    start: float
    end: float
    kind: str  # speech | subtitle | ocr | shot
    text: str
    confidence: float = 1.0
    source: str = ""  # e.g. "sidecar:talk.srt", "asr:whisper-tiny.en", "ocr:rapidocr"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        """The seeds' transcript line format: ``[12.0s - 15.5s] kind: text``."""
        from .timecode import span_label

        return f"{span_label(self.start, self.end)} {self.kind}: {self.text}"


@dataclass(frozen=True)
class Timeline:
    """Every segment found in one video, ordered by start time."""

    video: VideoInfo
    segments: tuple[Segment, ...] = field(default_factory=tuple)
    version: int = SCHEMA_VERSION

    @classmethod
    def build(cls, video: VideoInfo, segments: Iterable[Segment]) -> "Timeline":
        ordered = sorted(segments, key=lambda s: (s.start, s.end, s.kind, s.text))
        return cls(video=video, segments=tuple(ordered))

    @classmethod
    def empty(cls, path: str = "") -> "Timeline":
        """What is known of a video that could not be read: nothing (callers need no None checks)."""
        return cls(video=VideoInfo(path=str(path), duration=0.0, fps=0.0, width=0, height=0, rotation=0,
                                   has_audio=False, has_video=False, codec="", audio_codec="", content_id=""))

    def of_kind(self, *kinds: str) -> list[Segment]:
        return [s for s in self.segments if s.kind in kinds]

    def to_text(self, max_chars: int = 25_000, kinds: Iterable[str] | None = None) -> str:
        """Lines ``[12.0s - 15.5s] speech: …``, cut at whole lines to at most ``max_chars``
        characters (the seeds cap transcripts at 25,000), with a note saying how much was cut."""
        from .limits import check, choice

        max_chars = check("max_chars", max_chars, option="max_chars")
        for kind in kinds or ():
            choice(kind, SEGMENT_KINDS, option="--kind", what="segment kind")  # nosuchkind: one line, not nothing
        wanted = set(kinds) if kinds is not None else None
        lines = [s.line() for s in self.segments if wanted is None or s.kind in wanted]
        full = "\n".join(lines)
        if len(full) <= max_chars:
            return full
        budget = max_chars - len(f"\n[... {len(lines)} more lines cut at {max_chars} characters]")
        kept: list[str] = []
        used = -1  # no newline before the first line
        for line in lines:
            if used + 1 + len(line) > budget:
                break
            kept.append(line)
            used += 1 + len(line)
        kept.append(f"[... {len(lines) - len(kept)} more lines cut at {max_chars} characters]")
        return "\n".join(kept)[:max_chars]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "video": self.video.to_dict(),
            "segments": [s.to_dict() for s in self.segments],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Timeline":
        version = data.get("version")
        if version != SCHEMA_VERSION:
            raise LibraryError(
                f"timeline schema version {version!r} is not the supported {SCHEMA_VERSION}",
                hint="re-ingest the video to rebuild it",
            )
        return cls(
            video=VideoInfo.from_dict(data["video"]),
            segments=tuple(Segment(**s) for s in data["segments"]),
            version=version,
        )
