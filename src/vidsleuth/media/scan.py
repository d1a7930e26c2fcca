"""One decode of a video for several readers: every decoded frame small (for shot detection), and
the frames at uniform sample times at reading size (for OCR), from a single pass.

Shot detection decoded the whole video and OCR decoded it again to sample it: on a 720p clip the
two decodes were most of the ingest's CPU time outside the models. Here one sequential decode
skips non-reference frames (as shot detection did alone) except next to each sample time, where
every frame is decoded so that the sampled frame is exactly the one ``iter_frames`` returns (the
first frame at or after the target). The skip level is set per packet from the packet's own
presentation time before it is sent to the decoder (``SKIP_BY = "packet"``), so only the frames
within ``margin`` of a sample are decoded in full. The decoder takes a packet's level when the
packet is sent, and packets arrive in decode order, several frames ahead of the frames coming
out: the rule before (``"output"``) set the level from the last frame out and so needed 8 frames
of margin before each sample (and decoded them all: 45 % more frames on the bench clip). A target
frame the skipping missed anyway is fetched with ``iter_frames`` itself, so sampled frames never
differ from a separate pass.
"""

from __future__ import annotations

import bisect
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import av
import numpy as np

from ..errors import DecodeWarning, MediaError
from ..types import Frame
from .probe import check_file, open_media
from .sample import TIME_EPS, _frame_interval, _targets, _to_image, _video_stream, iter_frames

SKIP_BY = "packet"  # "output": the skip level set from the last decoded frame (before; the bench's 17:15 row)
# FFmpeg's area scaler for the small frames: 1.6 against 2.0-2.4 ms a 720p frame with the default
# bilinear one, 1.5 grey levels apart on average (None: the default, as before SHOTS_VERSION 3)
SMALL_INTERPOLATION: str | None = "AREA"


def small_bgr(frame, size: tuple[int, int]) -> np.ndarray:
    """A decoded frame scaled to ``size`` (width, height) in BGR, as the shot detector reads it."""
    return frame.reformat(width=size[0], height=size[1], format="bgr24",
                          interpolation=SMALL_INTERPOLATION).to_ndarray()


@dataclass(frozen=True, eq=False)
class ScanFrame:
    """One decoded frame: its time (seconds from the container's start, as ``Frame.t``), the
    frame at ``small`` size in BGR, and, when it is a sample, the sample (``Frame``)."""

    t: float
    small: np.ndarray
    samples: tuple[Frame, ...] = ()


def scan(path: str | Path, *, fps: float, max_side: int | None, small_size: Callable[[int, int], tuple[int, int]],
         margin: float | None = None) -> Iterator[ScanFrame]:
    """Every decoded frame of the first video stream, small, with the samples every ``1/fps``
    seconds attached to the frame ``iter_frames(path, fps=fps, max_side=max_side)`` returns for
    them. ``small_size(width, height)`` is the small frames' size. Non-reference frames are
    skipped except within ``margin`` seconds of a sample (default: one frame interval either side
    with ``SKIP_BY = "packet"``, 8 intervals before it with ``"output"``)."""
    p = check_file(path)
    with open_media(p) as container:
        stream = _video_stream(container, p)
        targets = _targets(container, stream, p, None, fps, None, None, max_side)
        stream.thread_type = "AUTO"
        codec = stream.codec_context
        interval = _frame_interval(stream)
        if margin is None:
            margin = interval if SKIP_BY == "packet" else max(0.3, 8 * interval)
        start = container.start_time / av.time_base if container.start_time else 0.0
        size = small_size(codec.width, codec.height)
        yield from _scan(container, stream, p, targets, start, size, max_side, interval, margin)


def _scan(container, stream, p: Path, targets: list[float], start: float, size: tuple[int, int],
          max_side: int | None, interval: float, margin: float) -> Iterator[ScanFrame]:
    codec, tb = stream.codec_context, stream.time_base
    k, rotation, prev_t, pending = 0, 0, None, None
    codec.skip_frame = "NONREF" if targets and targets[0] - margin > 0 else "DEFAULT"
    try:
        for frame in _decode(container, stream, targets, start, margin):
            if pending is None:
                rotation = int(round(getattr(frame, "rotation", 0) or 0)) % 360
            t = float(frame.pts * tb) - start
            # frames were skipped just before this one: one of them may be the sample's frame, unless
            # every frame from the target to this one was sent in full (packet rule, within ``margin``)
            gap = prev_t is not None and t - prev_t > 1.5 * interval
            samples = []
            while k < len(targets) and t >= targets[k] - TIME_EPS:
                exact = gap and t - targets[k] > (margin if SKIP_BY == "packet" else TIME_EPS)
                samples.append(_exact(p, targets[k], max_side) if exact else
                               Frame(t=round(t, 6), image=_to_image(frame, max_side, rotation)))
                k += 1
            if SKIP_BY == "output":
                codec.skip_frame = "NONREF" if k < len(targets) and targets[k] - t > margin else "DEFAULT"
            small = small_bgr(frame, size)
            if pending is not None:
                yield pending[0]
            pending, prev_t = (ScanFrame(round(t, 6), small, tuple(samples)), frame), t
    except av.error.FFmpegError as exc:
        if pending is None:
            raise MediaError(f"cannot decode the video: {exc}", path=p, hint="the file may be corrupt") from exc
        yield pending[0]
        warnings.warn(DecodeWarning(f"{p}: decoding failed at {prev_t:.3f} s ({exc}); returned {k} of "
                                    f"{len(targets)} samples"), stacklevel=3)
        return
    if pending is None:
        return
    # End of stream: the last frame stands for targets within two frame intervals (as iter_frames).
    last, frame = pending
    tail = []
    while k < len(targets) and targets[k] - last.t <= 2 * interval:
        tail.append(Frame(t=last.t, image=_to_image(frame, max_side, rotation)))
        k += 1
    yield ScanFrame(last.t, last.small, last.samples + tuple(tail))
    if k < len(targets):
        warnings.warn(DecodeWarning(f"{p}: no frame at {targets[k]:.3f} s: the stream ends at {last.t:.3f} s; "
                                    f"returned {k} of {len(targets)} samples"), stacklevel=3)


def _decode(container, stream, targets: list[float], start: float, margin: float) -> Iterator:
    """The stream's decoded frames (with a time). With ``SKIP_BY = "packet"`` each packet is sent
    with non-reference skipping on unless its presentation time lies within ``margin`` of a target
    (a packet without a time is decoded in full); reference frames are always decoded."""
    codec, tb = stream.codec_context, stream.time_base
    for packet in container.demux(stream):
        if SKIP_BY == "packet":
            codec.skip_frame = "DEFAULT" if packet.pts is None or _near(targets, float(packet.pts * tb) - start,
                                                                        margin) else "NONREF"
        for frame in packet.decode():
            if frame.pts is not None:
                yield frame


def _near(targets: list[float], t: float, margin: float) -> bool:
    """Some target lies within ``margin`` seconds of ``t`` (``targets`` sorted)."""
    i = bisect.bisect_left(targets, t - margin - TIME_EPS)
    return i < len(targets) and targets[i] <= t + margin + TIME_EPS


def _exact(p: Path, target: float, max_side: int | None) -> Frame:
    """The sample at ``target`` from its own seek (the shared decode may have skipped its frame)."""
    frames = list(iter_frames(p, max_side=max_side, times=[target]))
    if not frames:
        raise MediaError(f"cannot decode the frame at {target:.3f} s", path=p)
    return frames[0]
