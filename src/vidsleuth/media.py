"""Media: probe, timestamped uniform sampling, frame grids and audio, on PyAV.

Sampling seeks instead of decoding the whole file: for each target time it seeks to the keyframe
before it (only when the target lies farther ahead than a keyframe interval) and decodes forward to
the first frame whose presentation time reaches the target. Returned frames carry their real
presentation times, so a caller can always say exactly which moment it looked at.
"""

from __future__ import annotations

import json
import math
import os
import warnings
import wave
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import av
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .assets import sha256_file
from .errors import DecodeWarning, MediaError, VidsleuthError
from .files import writes_output
from .types import Frame, FrameGrid, VideoInfo

#: A frame whose time is this close below the target counts as "at" the target.
TIME_EPS = 1e-3


def content_id(path: str | Path) -> str:
    """SHA-256 of the file's bytes: the identity under which derived data is cached."""
    return sha256_file(Path(path))


def _check_file(path: str | Path) -> Path:
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
    p = _check_file(path)
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


def _duration(container, path: Path) -> tuple[float, str]:
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


def probe(path: str | Path, *, with_content_id: bool = True) -> VideoInfo:
    """Duration, frame rate, display size, rotation, streams and content id of a media file."""
    p = _check_file(path)
    with open_media(p) as container:
        video = container.streams.video[0] if container.streams.video else None
        audio = container.streams.audio[0] if container.streams.audio else None
        if video is None and audio is None:
            raise MediaError("has neither a video nor an audio stream", path=p)
        duration, source = _duration(container, p)
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
        )


# --------------------------------------------------------------------------- sampling


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
    from .limits import check

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
    from .limits import check

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
    return _duration(container, Path(container.name))[0]


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
    p = _check_file(path)
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
    p = _check_file(path)
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


# --------------------------------------------------------------------------- grids


def _font(size: int) -> ImageFont.ImageFont:
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def format_stamp(t: float) -> str:
    """A cell label: seconds with one decimal, as the seeds write frame times."""
    from .timecode import seconds_label

    return seconds_label(t)


def frame_grid(
    frames: Sequence[Frame],
    rows: int = 3,
    cols: int = 3,
    cell: int = 256,
    labels: bool = True,
    video_id: str = "",
) -> FrameGrid:
    """Tile up to ``rows*cols`` frames into one image, long edge of each cell ``cell`` px, each
    cell labelled with its timestamp (the Watcher's preview format). Empty cells stay black."""
    from .limits import check

    rows, cols, cell = check("rows", rows), check("cols", cols), check("cell", cell)
    if not frames:
        raise VidsleuthError("frame_grid needs at least one frame")
    if len(frames) > rows * cols:
        raise VidsleuthError(
            f"{len(frames)} frames do not fit a {rows}x{cols} grid",
            hint="use frame_grids() to split them over several grids",
        )
    if cell < 16:
        raise VidsleuthError(f"cell size {cell} px is too small (16 px at least)")
    w0, h0 = frames[0].image.size
    if w0 >= h0:
        cw, ch = cell, max(1, round(cell * h0 / w0))
    else:
        cw, ch = max(1, round(cell * w0 / h0)), cell
    canvas = Image.new("RGB", (cw * cols, ch * rows), (0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    font = _font(max(10, ch // 9))
    for i, frame in enumerate(frames):
        img = frame.image.convert("RGB")
        if img.size != (cw, ch):  # fit inside the cell, up or down, keeping the aspect ratio
            scale = min(cw / img.width, ch / img.height)
            size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
            img = img.resize(size, Image.Resampling.BILINEAR)
        x0, y0 = (i % cols) * cw, (i // cols) * ch
        canvas.paste(img, (x0 + (cw - img.width) // 2, y0 + (ch - img.height) // 2))
        if labels:
            text = format_stamp(frame.t)
            box = draw.textbbox((0, 0), text, font=font)
            pad = max(2, ch // 40)
            draw.rectangle(
                (x0, y0, x0 + box[2] - box[0] + 2 * pad, y0 + box[3] - box[1] + 2 * pad),
                fill=(0, 0, 0),
            )
            draw.text((x0 + pad - box[0], y0 + pad - box[1]), text, fill=(255, 255, 0), font=font)
    return FrameGrid(
        image=canvas, times=tuple(f.t for f in frames), video_id=video_id, rows=rows, cols=cols
    )


def frame_grids(
    path: str | Path,
    n_grids: int = 2,
    rows: int = 3,
    cols: int = 3,
    cell: int = 256,
    video_id: str = "",
) -> list[FrameGrid]:
    """The Watcher's preview: ``n_grids`` grids of uniformly sampled frames in temporal order."""
    from .limits import check

    n_grids, rows, cols, cell = check("grids", n_grids), check("rows", rows), check("cols", cols), check("cell", cell)
    per = rows * cols
    frames = sample_frames(path, n=n_grids * per, max_side=cell)
    return [
        frame_grid(frames[k : k + per], rows=rows, cols=cols, cell=cell, video_id=video_id)
        for k in range(0, len(frames), per)
    ]


# --------------------------------------------------------------------------- audio


@dataclass(frozen=True, eq=False)
class Audio:
    """Decoded audio as float32 samples in [-1, 1]: shape (n,) when mono, else (n, channels)."""

    samples: np.ndarray
    sample_rate: int

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate


def extract_audio(
    path: str | Path,
    sample_rate: int = 16000,
    mono: bool = True,
    out: str | Path | None = None,
) -> Audio:
    """Decode the first audio stream, resampled; optionally also write a 16-bit WAV to ``out``."""
    p = _check_file(path)
    chunks: list[np.ndarray] = []
    channels = 1
    with open_media(p) as container:
        if not container.streams.audio:
            raise MediaError("has no audio stream", path=p)
        stream = container.streams.audio[0]
        channels = 1 if mono else (stream.codec_context.channels or 2)
        layout = "mono" if channels == 1 else ("stereo" if channels == 2 else None)
        if layout is None:
            layout = stream.codec_context.layout.name
        resampler = av.AudioResampler(format="s16", layout=layout, rate=sample_rate)

        def take(frames) -> None:
            for rf in frames:
                arr = rf.to_ndarray()  # packed s16: shape (1, samples * channels)
                chunks.append(arr.reshape(-1))

        decoded_until = 0.0
        try:
            for frame in container.decode(stream):
                if frame.time is not None:
                    decoded_until = float(frame.time)
                take(resampler.resample(frame))
        except av.error.FFmpegError as exc:
            warnings.warn(
                DecodeWarning(f"{p}: audio decoding failed at {decoded_until:.3f} s ({exc})"),
                stacklevel=2,
            )
        take(resampler.resample(None))
    pcm = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
    if not mono:  # (samples, channels) even for a one-channel source
        pcm = pcm[: len(pcm) - len(pcm) % channels].reshape(-1, channels)
    if out is not None:
        _write_wav(Path(out), pcm, sample_rate, channels)
    return Audio(samples=(pcm.astype(np.float32) / 32768.0), sample_rate=sample_rate)


def _write_wav(out: Path, pcm: np.ndarray, sample_rate: int, channels: int) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    with wave.open(str(tmp), "wb") as wf:
        wf.setnchannels(channels)
        wf.setsampwidth(2)
        wf.setframerate(sample_rate)
        wf.writeframes(np.ascontiguousarray(pcm, dtype="<i2").tobytes())
    os.replace(tmp, out)


__all__ = [
    "Audio",
    "content_id",
    "extract_audio",
    "format_stamp",
    "frame_grid",
    "frame_grids",
    "iter_frames",
    "open_media",
    "probe",
    "sample_frames",
    "sample_times",
]



# --------------------------------------------------------------------------- saving


@writes_output("frames")
def save_frames(path: str | Path, out: str | Path, *, n: int | None = None, fps: float | None = None,
                start: float | None = None, end: float | None = None, max_side: int | None = None,
                quality: int = 90) -> dict:
    """Save sampled frames as JPEG files named by index and time, plus ``frames.json`` (video and
    each frame's index, time and file). The input is checked before the output folder exists."""
    from .files import write_atomic
    from .progress import task

    probe(path, with_content_id=False)
    n = n if n is not None or fps is not None else DEFAULT_FRAMES
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with task("frames", total=n if fps is None else None) as bar:
        for k, frame in enumerate(iter_frames(path, n=n, fps=fps, start=start, end=end, max_side=max_side)):
            name = f"frame_{k:04d}_{frame.t:010.3f}s.jpg"
            frame.image.save(out / name, quality=quality)
            rows.append({"index": k, "t": frame.t, "file": str(out / name)})
            bar.advance()
    manifest = {"video": str(path), "frames": rows}
    write_atomic(out / "frames.json", json.dumps(manifest, indent=1))
    return {**manifest, "manifest": str(out / "frames.json")}


def save_grids(path: str | Path, out: str | Path, *, n_grids: int = 1, rows: int | None = None,
               cols: int | None = None, cell: int | None = None, overwrite: bool | None = None) -> list[dict]:
    """Save ``frame_grids`` as images: ``out`` itself for one grid, ``NAME-1.EXT``, ``NAME-2.EXT``
    … for several. ``out`` must end in an image suffix PIL writes (checked before any work)."""
    out = Path(out)
    Image.init()
    if out.suffix.lower() not in Image.EXTENSION:
        raise VidsleuthError(f"--out {out}: '{out.suffix or '(no suffix)'}' is not an image format",
                             hint="end the name with .jpg or .png")
    from .files import check_output_file

    for target in [out] + [out.with_name(f"{out.stem}-{k}{out.suffix}") for k in range(1, n_grids + 1) if n_grids > 1]:
        check_output_file(target, overwrite=overwrite)  # the user's files are never overwritten (unless asked)
    kw = {k: v for k, v in (("rows", rows), ("cols", cols), ("cell", cell)) if v is not None}
    grids = frame_grids(path, n_grids=n_grids, **kw)
    saved = []
    for k, grid in enumerate(grids, 1):
        target = out if len(grids) == 1 else out.with_name(f"{out.stem}-{k}{out.suffix}")
        target.parent.mkdir(parents=True, exist_ok=True)
        grid.image.save(target)
        saved.append({"file": str(target), "times": list(grid.times), "size": list(grid.image.size)})
    return saved
