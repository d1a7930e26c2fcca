"""Audio extraction to 16-bit PCM WAV (what ASR and omni models read)."""

from __future__ import annotations

import os
import warnings
import wave
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from ..errors import DecodeWarning, MediaError
from .probe import check_file, open_media


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
    p = check_file(path)
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
