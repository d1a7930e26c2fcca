"""Probe: open a media file with errors that name it, and read its duration, frame rate,
display size, rotation, streams, container tags and content id (no decoding beyond one frame)."""

from __future__ import annotations

from pathlib import Path

import av

from ..assets import sha256_file
from ..errors import MediaError
from ..types import VideoInfo


def content_id(path: str | Path) -> str:
    """SHA-256 of the file's bytes: the identity under which derived data is cached."""
    return sha256_file(Path(path))


def check_file(path: str | Path) -> Path:
    p = Path(path)
    if not p.exists():
        raise MediaError("file not found", path=p, hint="check the path")
    if p.is_dir():
        raise MediaError("is a folder, not a media file", path=p)
    if p.stat().st_size == 0:
        raise MediaError("file is empty (0 bytes)", path=p, hint="re-copy or re-download it")
    return p


def open_media(path: str | Path) -> "av.container.InputContainer":
    """Open a media file with errors that name the file and the problem."""
    p = check_file(path)
    try:
        return av.open(str(p), mode="r", metadata_errors="ignore")
    except av.error.InvalidDataError as exc:
        raise MediaError(
            "not a readable media file (no known container format, or the header is damaged)",
            path=p,
            hint="check that it is a video or audio file and that it was copied completely",
        ) from exc
    except PermissionError as exc:
        raise MediaError("permission denied", path=p) from exc
    except av.error.FFmpegError as exc:
        raise MediaError(f"cannot open: {exc}", path=p) from exc


def container_duration(container, path: Path) -> tuple[float, str]:
    if container.duration is not None and container.duration > 0:
        return container.duration / av.time_base, "container"
    spans = [
        float(s.duration * s.time_base)
        for s in container.streams
        if s.duration is not None and s.time_base is not None and s.duration > 0
    ]
    if spans:
        return max(spans), "stream"
    return _duration_from_packets(container, path), "packets"


def _duration_from_packets(container, path: Path) -> float:
    """When no header states a duration, read the packets (no decoding) and take the last end."""
    end = 0.0
    streams = [s for s in container.streams if s.type in ("video", "audio")]
    try:
        for packet in container.demux(streams):
            if packet.pts is None or packet.time_base is None:
                continue
            stop = packet.pts + (packet.duration or 0)
            end = max(end, float(stop * packet.time_base))
    except av.error.FFmpegError:
        pass  # a damaged tail still leaves the end of what was readable
    try:
        container.seek(0)
    except av.error.FFmpegError:
        pass
    start = container.start_time / av.time_base if container.start_time else 0.0
    if end <= 0:
        raise MediaError("cannot determine the duration: no timed packets", path=path)
    return max(0.0, end - start)


def _stream_rotation(container, stream) -> int:
    """Display rotation (degrees counter-clockwise, 0/90/180/270) from the first frame's matrix."""
    try:
        for frame in container.decode(stream):
            rot = int(round(getattr(frame, "rotation", 0) or 0)) % 360
            return rot
    except av.error.FFmpegError:
        return 0
    finally:
        try:
            container.seek(0)
        except av.error.FFmpegError:
            pass
    return 0


MAX_TAGS = 64  # container tags kept per file, each value cut at MAX_TAG_CHARS (tags are untrusted)
MAX_TAG_CHARS = 1000


def container_tags(container) -> dict[str, str]:
    """The container's metadata tags (title, creation_time, …) as bounded strings."""
    tags = {}
    for key, value in list(dict(container.metadata or {}).items())[:MAX_TAGS]:
        tags[str(key)[:100]] = str(value)[:MAX_TAG_CHARS]
    return tags


def probe(path: str | Path, *, with_content_id: bool = True) -> VideoInfo:
    """Duration, frame rate, display size, rotation, streams, container tags and content id of a
    media file (the tags are read here once, so callers need not open the file again)."""
    p = check_file(path)
    with open_media(p) as container:
        video = container.streams.video[0] if container.streams.video else None
        audio = container.streams.audio[0] if container.streams.audio else None
        if video is None and audio is None:
            raise MediaError("has neither a video nor an audio stream", path=p)
        duration, source = container_duration(container, p)
        fps = 0.0
        width = height = rotation = 0
        codec = ""
        if video is not None:
            rate = video.average_rate or video.guessed_rate or video.base_rate
            fps = float(rate) if rate else 0.0
            codec = video.codec_context.name
            rotation = _stream_rotation(container, video)
            width, height = video.codec_context.width, video.codec_context.height
            if rotation in (90, 270):
                width, height = height, width
        return VideoInfo(
            path=str(p),
            duration=round(duration, 6),
            fps=round(fps, 6),
            width=width,
            height=height,
            rotation=rotation,
            has_audio=audio is not None,
            has_video=video is not None,
            codec=codec,
            audio_codec=audio.codec_context.name if audio is not None else "",
            content_id=content_id(p) if with_content_id else "",
            duration_source=source,
            subtitle_streams=len(container.streams.subtitles),
            tags=container_tags(container),
        )
