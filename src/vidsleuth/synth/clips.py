"""Synthetic clips with known ground truth: shots cut at known frames, text burned in at known
times (English and Chinese), espeak-ng speech at known times.

Tests, the demo and the benchmarks all make their fixtures here, so every number they report can
be checked against the truth the clip was built from. Needs the ``ffmpeg`` and ``espeak-ng``
programs (``make setup`` installs both from Debian).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import wave
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ToolMissingError, VidsleuthError
from ..media.ffmpeg import ffmpeg_exe, run_ffmpeg  # noqa: F401  (re-exported: clips are made with it)
from .voices import english_voice, piper  # noqa: F401  (english_voice re-exported for the case builders)

LATIN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"




@dataclass(frozen=True)
class Shot:
    """A shot of ``frames`` frames on a flat background colour, or an ffmpeg test pattern."""

    frames: int
    color: str = "0x203060"
    pattern: str = ""  # e.g. "testsrc2", "smptebars"; overrides colour


@dataclass(frozen=True)
class Caption:
    """Text burned in from ``start`` to ``end`` seconds (end exclusive)."""

    start: float
    end: float
    text: str
    x: str = "(w-text_w)/2"
    y: str = "(h-text_h)/2"
    size: int = 0  # 0: a tenth of the frame height
    cjk: bool = False
    color: str = "white"
    font: str = ""  # a font file; default DejaVu Sans Bold (WenQuanYi Zen Hei for ``cjk``)


@dataclass(frozen=True)
class Overlay:
    """A filled square of ``size`` px moving linearly from ``start_xy`` to ``end_xy`` (top-left
    corner, pixels) while ``start`` <= t < ``end``: ground truth for spatial grounding."""

    start: float
    end: float
    color: str
    size: int
    start_xy: tuple[int, int]
    end_xy: tuple[int, int]

    def box_at(self, t: float) -> list[float]:
        f = min(1.0, max(0.0, (t - self.start) / (self.end - self.start)))
        x = self.start_xy[0] + (self.end_xy[0] - self.start_xy[0]) * f
        y = self.start_xy[1] + (self.end_xy[1] - self.start_xy[1]) * f
        return [x, y, x + self.size, y + self.size]


@dataclass(frozen=True)
class Speech:
    """An utterance spoken by espeak-ng starting at ``start`` seconds (``voice="piper"``: the
    neural Piper en_US "joe" voice of the ``voices`` extra instead)."""

    start: float
    text: str
    voice: str = "en-us"
    speed: int = 150


@dataclass(frozen=True)
class ClipSpec:
    shots: tuple[Shot, ...]
    fps: int = 25
    width: int = 640
    height: int = 360
    captions: tuple[Caption, ...] = ()
    speech: tuple[Speech, ...] = ()
    audio: bool = True
    tone_hz: int = 0  # a quiet tone under the speech when > 0
    gop: int = 50
    title: str = ""
    overlays: tuple[Overlay, ...] = ()
    extra_filters: tuple[str, ...] = field(default_factory=tuple)

    @property
    def duration(self) -> float:
        return sum(s.frames for s in self.shots) / self.fps

    def cut_frames(self) -> list[int]:
        """Frame indices at which a new shot starts."""
        out, acc = [], 0
        for shot in self.shots[:-1]:
            acc += shot.frames
            out.append(acc)
        return out


@dataclass(frozen=True)
class SpokenSpan:
    start: float
    end: float
    text: str


def _escape_path(p: str) -> str:
    return p.replace("\\", "\\\\").replace(":", "\\:").replace("'", "\\'")


def _video_graph(spec: ClipSpec, textdir: Path) -> str:
    parts = []
    for i, shot in enumerate(spec.shots):
        d = shot.frames / spec.fps
        size = f"s={spec.width}x{spec.height}:r={spec.fps}:d={d:.6f}"
        src = f"{shot.pattern}={size}" if shot.pattern else f"color=c={shot.color}:{size}"
        parts.append(f"{src},format=yuv420p,setsar=1[s{i}]")
    concat = "".join(f"[s{i}]" for i in range(len(spec.shots)))
    parts.append(f"{concat}concat=n={len(spec.shots)}:v=1:a=0[base0]")
    base = "base0"
    for k, ov in enumerate(spec.overlays):
        d = ov.end - ov.start
        (x0, y0), (x1, y1) = ov.start_xy, ov.end_xy
        parts.append(f"color=c={ov.color}:s={ov.size}x{ov.size}:r={spec.fps}:d={spec.duration:.6f}[ov{k}]")
        parts.append(
            f"[{base}][ov{k}]overlay=x='{x0}+({x1 - x0})*(t-{ov.start})/{d}':y='{y0}+({y1 - y0})*(t-{ov.start})/{d}'"
            f":eval=frame:enable='gte(t,{ov.start:.4f})*lt(t,{ov.end:.4f})'[base{k + 1}]")
        base = f"base{k + 1}"
    chain = [f"[{base}]null"]
    for j, cap in enumerate(spec.captions):
        tf = textdir / f"caption{j}.txt"
        tf.write_text(cap.text, encoding="utf-8")
        font = cap.font or (CJK_FONT if cap.cjk else LATIN_FONT)
        if not Path(font).exists():
            raise ToolMissingError(f"font {font} not found", hint="run `make setup`")
        size = cap.size or max(12, spec.height // 10)
        chain.append(
            f"drawtext=fontfile='{_escape_path(font)}':textfile='{_escape_path(str(tf))}':expansion=none:"
            f"fontsize={size}:fontcolor={cap.color}:x={cap.x}:y={cap.y}:"
            f"box=1:boxcolor=black@0.6:boxborderw={max(4, size // 5)}:"
            f"enable='gte(t,{cap.start:.4f})*lt(t,{cap.end:.4f})'"
        )
    chain.extend(spec.extra_filters)
    return ";".join(parts) + ";" + ",".join(chain) + "[v]"


def espeak(text: str, voice: str = "en-us", speed: int = 150) -> tuple[np.ndarray, int]:
    """Speak ``text`` with espeak-ng; returns int16 samples and their rate."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise ToolMissingError("espeak-ng not found", hint="run `make setup` (apt-get install espeak-ng)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "speech.wav"
        proc = subprocess.run(
            [exe, "-v", voice, "-s", str(speed), "-w", str(out), text], capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise VidsleuthError(f"espeak-ng failed: {proc.stderr.strip()}")
        with wave.open(str(out), "rb") as wf:
            rate = wf.getframerate()
            data = np.frombuffer(wf.readframes(wf.getnframes()), dtype="<i2").copy()
    return data, rate


def _trim_silence(samples: np.ndarray, threshold: int = 300) -> tuple[np.ndarray, int]:
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > threshold)
    if loud.size == 0:
        return samples[:0], 0
    return samples[loud[0] : loud[-1] + 1], int(loud[0])


def _audio_track(spec: ClipSpec, out: Path, rate: int = 22050) -> list[SpokenSpan]:
    total = int(round(spec.duration * rate))
    mix = np.zeros(total, dtype=np.float64)
    if spec.tone_hz:
        t = np.arange(total) / rate
        mix += 800 * np.sin(2 * np.pi * spec.tone_hz * t)
    spans: list[SpokenSpan] = []
    for sp in spec.speech:
        samples, srate = piper(sp.text) if sp.voice == "piper" else espeak(sp.text, sp.voice, sp.speed)
        if srate != rate:
            idx = np.linspace(0, len(samples) - 1, int(len(samples) * rate / srate))
            samples = np.interp(idx, np.arange(len(samples)), samples)
        voiced, _ = _trim_silence(np.asarray(samples))
        at = int(round(sp.start * rate))
        end = min(total, at + len(voiced))
        if end <= at:
            raise VidsleuthError(f"speech at {sp.start}s does not fit a {spec.duration}s clip")
        mix[at:end] += voiced[: end - at]
        spans.append(SpokenSpan(start=sp.start, end=end / rate, text=sp.text))
    pcm = np.clip(mix, -32768, 32767).astype("<i2")
    with wave.open(str(out), "wb") as wf:
        wf.setnchannels(1)
        wf.setsampwidth(2)
        wf.setframerate(rate)
        wf.writeframes(pcm.tobytes())
    return spans


def make_clip(path: str | Path, spec: ClipSpec) -> dict:
    """Encode ``spec`` as H.264 (+AAC) into ``path``; returns its ground truth as a dict and
    writes it next to the clip as ``NAME.truth.json``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        graph = _video_graph(spec, tmpd)
        args = ["-filter_complex", graph]
        spans: list[SpokenSpan] = []
        if spec.audio:
            wav = tmpd / "audio.wav"
            spans = _audio_track(spec, wav)
            args += ["-i", str(wav)]
        args += ["-map", "[v]"]
        if spec.audio:
            args += ["-map", "0:a", "-c:a", "aac", "-b:a", "96k"]
        args += [
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
            "-g", str(spec.gop), "-keyint_min", str(min(spec.gop, 25)),
            "-t", f"{spec.duration:.6f}",
        ]
        if spec.title:
            args += ["-metadata", f"title={spec.title}"]
        tmp_out = tmpd / ("out" + path.suffix)
        run_ffmpeg(*args, str(tmp_out))
        shutil.move(str(tmp_out), path)
    truth = {
        "duration": spec.duration,
        "fps": spec.fps,
        "width": spec.width,
        "height": spec.height,
        "cuts_frames": spec.cut_frames(),
        "cuts_seconds": [f / spec.fps for f in spec.cut_frames()],
        "captions": [asdict(c) for c in spec.captions],
        "speech": [asdict(s) for s in spans],
        "title": spec.title,
        "overlays": [asdict(o) for o in spec.overlays],
    }
    path.with_suffix(".truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=2))
    return truth


# --------------------------------------------------------------------------- damaged and odd files


def truncate(src: str | Path, dst: str | Path, fraction: float) -> Path:
    """Copy the first ``fraction`` of ``src``'s bytes: a download cut short."""
    data = Path(src).read_bytes()
    Path(dst).write_bytes(data[: int(len(data) * fraction)])
    return Path(dst)


def remux(src: str | Path, dst: str | Path, *extra: str) -> Path:
    """Stream-copy ``src`` into ``dst`` with extra ffmpeg output options."""
    run_ffmpeg("-i", str(src), "-c", "copy", *extra, str(dst))
    return Path(dst)


def without_duration(src: str | Path, dst: str | Path) -> Path:
    """Matroska written to a pipe: the muxer cannot seek back, so the header has no duration."""
    dst = Path(dst)
    cmd = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-i", str(src), "-c", "copy",
           "-f", "matroska", "pipe:1"]
    with open(dst, "wb") as fh:
        proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.PIPE, text=False)
    if proc.returncode != 0:
        raise VidsleuthError(f"ffmpeg failed: {proc.stderr.decode(errors='replace')[-500:]}")
    return dst


def rotated(src: str | Path, dst: str | Path, degrees: int) -> Path:
    """Same pixels, with display-matrix rotation metadata (as phones record portrait video)."""
    return remux(src, dst, "-metadata:s:v:0", f"rotate={degrees}")


def variable_frame_rate(dst: str | Path, switch_frame: int = 25, fps_a: int = 25, fps_b: int = 5,
                        frames: int = 50, width: int = 320, height: int = 240) -> list[float]:
    """A clip whose frame interval changes at ``switch_frame``; returns every frame's true time."""
    times = [i / fps_a if i < switch_frame else switch_frame / fps_a + (i - switch_frame) / fps_b
             for i in range(frames)]
    expr = (f"if(lt(N\\,{switch_frame})\\,N/{fps_a}\\,{switch_frame}/{fps_a}+(N-{switch_frame})/{fps_b})/TB")
    run_ffmpeg(
        "-f", "lavfi", "-i", f"testsrc2=s={width}x{height}:r={fps_a}",
        "-vf", f"setpts='{expr}'", "-frames:v", str(frames), "-fps_mode", "passthrough",
        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-video_track_timescale", "1000",
        str(dst),
    )
    return times


def tiny_clip(dst: str | Path, seconds: float = 2.0, fps: int = 10) -> Path:
    """1x1-pixel frames (lossless, since 4:2:0 cannot hold a single pixel)."""
    run_ffmpeg("-f", "lavfi", "-i", f"color=c=red:s=16x16:r={fps}:d={seconds},scale=1:1",
               "-c:v", "ffv1", "-pix_fmt", "yuv444p", str(dst))
    return Path(dst)


def audio_only(src_wav_spec: ClipSpec, dst: str | Path, codec_args: tuple[str, ...] = ()) -> list[SpokenSpan]:
    """Speech of ``spec`` written as an audio-only file (format from the extension)."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "a.wav"
        spans = _audio_track(src_wav_spec, wav)
        run_ffmpeg("-i", str(wav), *codec_args, str(dst))
    return spans


def with_subtitles(src: str | Path, srt: str | Path, dst: str | Path) -> Path:
    """Mux an SRT file into ``dst`` as a subtitle stream (mov_text in MP4, SRT in Matroska)."""
    codec = "mov_text" if Path(dst).suffix.lower() in (".mp4", ".mov", ".m4v") else "srt"
    run_ffmpeg("-i", str(src), "-i", str(srt), "-map", "0", "-map", "1", "-c", "copy",
               "-c:s", codec, str(dst))
    return Path(dst)


__all__ = [
    "Caption", "ClipSpec", "Shot", "Speech", "SpokenSpan", "audio_only", "english_voice", "espeak", "ffmpeg_exe",
    "make_clip", "remux", "rotated", "run_ffmpeg", "tiny_clip", "truncate", "variable_frame_rate",
    "with_subtitles", "without_duration",
]



# --------------------------------------------------------------------------- documents


def write_pdf(path: str | Path, title: str, paragraphs: list[str], *, width_chars: int = 88,
              meta_title: str | None = None) -> Path:
    """A small real PDF (Helvetica, WinAnsi text, one page per ~45 lines) whose text pypdf can
    extract: evidence fixtures for the report workflow without a PDF library. ``meta_title``: the
    document information's title when it is not the printed one (a printer's file name)."""
    import textwrap

    def esc(line: str) -> str:
        out = []
        for ch in line:
            code = ord(ch) if ord(ch) < 128 else (ch.encode("cp1252", errors="replace")[0])
            out.append(f"\\{code:03o}" if code > 126 or ch in "()\\" else ch)
        return "".join(out)

    lines = [title, ""]
    for p in paragraphs:
        lines += textwrap.wrap(p, width_chars) + [""]
    pages = [lines[i:i + 45] for i in range(0, len(lines), 45)] or [[]]
    objs: list[bytes] = []
    n_pages = len(pages)
    kids = " ".join(f"{3 + 2 * k} 0 R" for k in range(n_pages))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    font_obj = 3 + 2 * n_pages
    for k, page in enumerate(pages):
        body = "BT /F1 11 Tf 50 790 Td 14 TL " + " ".join(f"({esc(line)}) Tj T*" for line in page) + " ET"
        stream = body.encode("latin-1")
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 {font_obj} 0 R >> >> "
                    f"/Contents {4 + 2 * k} 0 R >>".encode())
        objs.append(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    info = len(objs) + 1
    objs.append(f"<< /Title ({esc(title if meta_title is None else meta_title)}) >>".encode("latin-1"))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info {info} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(bytes(out))
    return p
