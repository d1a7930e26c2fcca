"""Timestamped uniform sampling.

Sampling seeks instead of decoding the whole file: for each target time it seeks to the keyframe
before it (only when the target lies farther ahead than a keyframe interval) and decodes forward to
the first frame whose presentation time reaches the target. Returned frames carry their real
presentation times, so a caller can always say exactly which moment it looked at."""

from __future__ import annotations

import math
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import av
from PIL import Image

from ..errors import DecodeWarning, MediaError, VidsleuthError
from ..limits import check
from ..types import Frame
from .probe import check_file, container_duration, open_media

#: A frame whose time is this close below the target counts as "at" the target.
TIME_EPS = 1e-3



DEFAULT_FRAMES = 16  # frames sampled when neither n nor fps is given


def sample_times(
    duration: float,
    n: int | None = None,
    fps: float | None = None,
    start: float | None = None,
    end: float | None = None,
) -> list[float]:
    """Target times: midpoints of ``n`` equal parts of [start, end], or every ``1/fps`` seconds
    at the midpoints of consecutive ``1/fps`` steps. Midpoints keep the first and last frames
    away from fades and black leaders."""
    if n is not None and fps is not None:
        raise VidsleuthError("give either n or fps, not both")
    start, end = check("seconds", start, option="--start"), check("seconds", end, option="--end")  # finite, bounded
    lo = 0.0 if start is None else float(start)
    hi = duration if end is None else min(float(end), duration) if duration > 0 else float(end)
    if lo < 0 or hi <= lo:
        raise VidsleuthError(
            f"empty sampling window [{lo:.3f}, {hi:.3f}] s (video duration {duration:.3f} s)"
        )
    if fps is not None:
        if fps <= 0:
            raise VidsleuthError(f"fps must be positive, got {fps}")
        count = max(1, int(math.floor((hi - lo) * fps + 1e-9)))
        return [lo + (k + 0.5) / fps for k in range(count)]
    n = DEFAULT_FRAMES if n is None else int(n)
    if n <= 0:
        raise VidsleuthError(f"n must be positive, got {n}")
    step = (hi - lo) / n
    return [lo + (i + 0.5) * step for i in range(n)]


def _targets(container, stream, p: Path, n, fps, start, end, max_side) -> list[float]:
    """Checked arguments (documented ranges in ``vidsleuth.limits``) and the target times; a
    request for more frames than the window holds is clamped to what it holds, with a warning."""
    n, fps = check("frames", n, option="-n"), check("fps", fps, option="--fps")
    check("max_side", max_side, option="--max-side")
    span = _video_span(container, stream)
    lo, hi = (start or 0.0), (min(end, span) if end is not None else span)
    if n is not None and hi > lo:  # more targets than frames would decode the same frames again
        rate = float(stream.average_rate or stream.guessed_rate or 0) or 25.0
        holds = max(1, math.ceil(max(0.0, hi - lo) * rate - 1e-6))
        if n > holds:
            warnings.warn(f"{p.name}: {n} frames asked for, the window holds {holds}: sampling {holds}", stacklevel=3)
            n = holds
    return sample_times(span, n=n, fps=fps, start=start, end=end)


def _to_image(frame, max_side: int | None, rotation: int) -> Image.Image:
    w, h = frame.width, frame.height
    if max_side and max(w, h) > max_side:
        scale = max_side / max(w, h)
        w, h = max(1, round(w * scale)), max(1, round(h * scale))
        image = frame.reformat(width=w, height=h, format="rgb24").to_image()
    else:
        image = frame.to_image()
    if rotation:
        image = image.rotate(rotation, expand=True)
    return image


@dataclass
class _Cursor:
    """Where the decoder stands, and what it has learned about keyframe spacing."""

    t: float = -math.inf
    key_gap: float = 2.0
    last_key: float | None = None
    last_frame: object = None
    iterator: Iterator | None = None


def _video_span(container, stream) -> float:
    if stream.duration is not None and stream.duration > 0:
        return float(stream.duration * stream.time_base)
    return container_duration(container, Path(container.name))[0]


def _video_stream(container, path: Path):
    if not container.streams.video:
        raise MediaError(
            "has no video stream, so frames cannot be sampled",
            path=path,
            hint="audio-only files work with extract_audio and transcripts",
        )
    return container.streams.video[0]


def _frame_interval(stream) -> float:
    rate = stream.average_rate or stream.guessed_rate
    return 1.0 / float(rate) if rate else 0.04


def _workers(n_targets: int) -> int:
    env = os.environ.get("VIDSLEUTH_THREADS")
    cores = int(env) if env else (os.cpu_count() or 1)
    return max(1, min(cores, 4, n_targets // 8))


def sample_frames(
    path: str | Path,
    n: int | None = None,
    fps: float | None = None,
    start: float | None = None,
    end: float | None = None,
    max_side: int | None = None,
) -> list[Frame]:
    """Uniformly sampled frames with their real presentation times (seconds).

    Seek-based: memory and work grow with the number of frames asked for, not with the video's
    length. Many frames are decoded by several single-threaded decoders in parallel, each over a
    contiguous share of the targets, skipping non-reference frames far from a target (exactness
    is checked per frame). A damaged file gives the frames before the damage and a
    ``DecodeWarning`` naming the time where decoding failed.
    """
    p = check_file(path)
    with open_media(p) as container:
        stream = _video_stream(container, p)
        targets = _targets(container, stream, p, n, fps, start, end, max_side)
    workers = _workers(len(targets))
    if workers == 1:
        return list(iter_frames(p, max_side=max_side, times=targets))
    size = math.ceil(len(targets) / workers)
    chunks = [targets[k : k + size] for k in range(0, len(targets), size)]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        jobs = [(chunk, k * size, len(targets)) for k, chunk in enumerate(chunks)]
        results = list(pool.map(lambda job: _decode_chunk(p, *job, max_side), jobs))
    frames: list[Frame] = []
    for chunk, (got, error) in zip(chunks, results):
        frames.extend(got)
        if error is not None or len(got) < len(chunk):
            if error is not None and not frames:
                raise error
            if error is not None:
                warnings.warn(DecodeWarning(f"{error}; returned {len(frames)} of {len(targets)} frames"), stacklevel=2)
            break  # frames after the damage are not returned out of order
    return frames


def _decode_chunk(path: Path, targets: list[float], offset: int, total: int, max_side: int | None):
    """One worker: its own container and a single-threaded decoder (PyAV releases the GIL)."""
    frames: list[Frame] = []
    try:
        with open_media(path) as container:
            stream = container.streams.video[0]
            stream.codec_context.thread_count = 1
            interval = _frame_interval(stream)
            frames.extend(_decode_at(container, stream, path, targets, interval, max_side, skip_nonref=True,
                                     offset=offset, total=total))
    except MediaError as exc:
        return frames, exc
    return frames, None


def iter_frames(
    path: str | Path,
    n: int | None = None,
    fps: float | None = None,
    start: float | None = None,
    end: float | None = None,
    max_side: int | None = None,
    times: Sequence[float] | None = None,
) -> Iterator[Frame]:
    """Like ``sample_frames`` but one frame at a time with bounded memory (for OCR over long
    videos), or at the explicit ``times`` when given."""
    p = check_file(path)
    with open_media(p) as container:
        stream = _video_stream(container, p)
        stream.thread_type = "AUTO"
        if times is None:
            targets = _targets(container, stream, p, n, fps, start, end, max_side)
        else:
            targets = sorted(float(t) for t in times)
        interval = _frame_interval(stream)
        yield from _decode_at(container, stream, p, targets, interval, max_side)


def _decode_at(
    container, stream, path: Path, targets, interval, max_side,
    skip_nonref: bool = False, offset: int = 0, total: int | None = None,
) -> Iterator[Frame]:
    """Decode the frame at each target; ``offset``/``total`` place these targets in a larger
    request so warnings count frames the way the caller asked for them."""
    cur = _Cursor()
    returned = offset
    total = len(targets) if total is None else total
    tb = stream.time_base
    rotation = 0
    # One clock for every stream: seconds since the container's start (what players show).
    start_time = container.start_time / av.time_base if container.start_time else 0.0
    for i, target in enumerate(targets):
        abs_target = target + start_time
        try:
            found = _frame_at(container, stream, cur, abs_target, interval, skip_nonref)
            if found is None:
                warnings.warn(
                    DecodeWarning(
                        f"{path}: no frame at {target:.3f} s: the stream ends at "
                        f"{max(0.0, cur.t - start_time):.3f} s; returned {returned} of {total} frames"
                    ),
                    stacklevel=3,
                )
                break
        except av.error.FFmpegError as exc:
            if returned == offset:
                raise MediaError(
                    f"cannot decode video near {target:.3f} s: {exc}", path=path, hint="the file may be corrupt"
                ) from exc
            warnings.warn(
                DecodeWarning(
                    f"{path}: decoding failed at {max(0.0, cur.t - start_time):.3f} s ({exc}); "
                    f"returned {returned} of {total} frames"
                ),
                stacklevel=3,
            )
            break
        if i == 0:  # the display matrix travels with every frame; read it once
            rotation = int(round(getattr(found, "rotation", 0) or 0)) % 360
        t = float(found.pts * tb) - start_time if found.pts is not None else target
        returned += 1
        yield Frame(t=round(t, 6), image=_to_image(found, max_side, rotation))


def _frame_at(container, stream, cur: _Cursor, target: float, interval: float, skip_nonref: bool):
    """The first frame at or after ``target``: decode on when it is near, else seek first."""
    far = target - cur.t > max(cur.key_gap, 4 * interval)
    if cur.iterator is None or far or target < cur.t - TIME_EPS:
        _seek(container, stream, target, cur)
    margin = max(0.3, 8 * interval)
    found = _advance(cur, target, stream.codec_context if skip_nonref else None, margin)
    if found is not None and skip_nonref and found.time - target > interval + TIME_EPS:
        # The target frame was a skipped non-reference frame: decode that stretch again in full.
        _seek(container, stream, target, cur)
        found = _advance(cur, target, None, margin)
    if found is None and cur.last_frame is not None and cur.iterator is None:
        # End of stream: the last frame stands for targets within two frame intervals.
        if target - cur.t <= 2 * interval:
            found = cur.last_frame
    return found


def _seek(container, stream, target: float, cur: _Cursor) -> None:
    offset = int(max(0.0, target) / stream.time_base)
    container.seek(offset, stream=stream, backward=True, any_frame=False)
    cur.iterator = container.decode(stream)
    cur.t = -math.inf
    cur.last_key = None


def _advance(cur: _Cursor, target: float, codec=None, margin: float = 0.3):
    """Decode forward to the first frame at or after ``target``; None at end of stream. With
    ``codec``, non-reference frames are skipped until the decoder is within ``margin``."""
    assert cur.iterator is not None
    if codec is not None and target - cur.t > margin:
        codec.skip_frame = "NONREF"
    try:
        for frame in cur.iterator:
            if frame.pts is None:
                continue
            t = float(frame.time)
            if codec is not None and t >= target - margin:
                codec.skip_frame = "DEFAULT"
            if frame.key_frame:
                if cur.last_key is not None and t - cur.last_key > 0:
                    cur.key_gap = t - cur.last_key
                cur.last_key = t
            cur.t = t
            cur.last_frame = frame
            if t >= target - TIME_EPS:
                return frame
    finally:
        if codec is not None:
            codec.skip_frame = "DEFAULT"
    cur.iterator = None
    return None
