"""Subtitles: sidecar SRT/VTT files and embedded subtitle streams, as timed segments.

The parser is tolerant of the defects real files have (a BOM, CRLF, an index starting at 0 or
missing, ``00:00:5,000``, ``.`` instead of ``,``, VTT cue settings and tags, GBK encoding) but a
file in which no cue can be read is an error naming the file, never an empty transcript.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import av

from ..errors import SubtitleError
from ..media import open_media
from ..types import Segment

SUBTITLE_SUFFIXES = (".srt", ".vtt")

_TIME = r"(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?"
_CUE = re.compile(rf"^\s*{_TIME}\s*-->\s*{_TIME}(?:\s+.*)?$")
_TAG = re.compile(r"<[^>]+>|\{\\[^}]*\}")


def _seconds(h: str | None, m: str, s: str, frac: str | None) -> float:
    ms = int((frac or "0").ljust(3, "0")[:3])
    return int(h or 0) * 3600 + int(m) * 60 + int(s) + ms / 1000.0


def _decode(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SubtitleError(f"cannot read subtitle file: {exc.strerror}", path=path) from exc
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    if b"\x00" in raw[:4096]:
        raise SubtitleError("is a binary file, not SRT or WebVTT text", path=path)
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    raise SubtitleError("is neither UTF-8 nor GB18030 text", path=path, hint="re-save it as UTF-8")


def clean_text(text: str) -> str:
    """Drop markup (``<i>``, ``<c.color>``, ASS ``{\\an8}``) and collapse whitespace."""
    text = _TAG.sub("", text)
    text = html.unescape(text)
    return " ".join(text.split())


def parse_subtitles(text: str, *, source: str = "", path: Path | None = None) -> list[Segment]:
    """Parse SRT or WebVTT text into ``subtitle`` segments."""
    segments: list[Segment] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i = 0
    bad_cue_line = None
    while i < len(lines):
        match = _CUE.match(lines[i])
        if not match:
            if "-->" in lines[i] and bad_cue_line is None:
                bad_cue_line = i + 1
            i += 1
            continue
        g = match.groups()
        start, end = _seconds(*g[0:4]), _seconds(*g[4:8])
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].strip() and not _CUE.match(lines[i]):
            body.append(lines[i])
            i += 1
        # A bare number right before the next cue line is that cue's index, not text.
        if body and i < len(lines) and _CUE.match(lines[i]) and body[-1].strip().isdigit():
            body.pop()
        content = clean_text(" ".join(body))
        if end < start:
            start, end = end, start
        if content:
            segments.append(Segment(start=start, end=end, kind="subtitle", text=content, source=source))
    if not segments:
        where = f" (first unreadable timing on line {bad_cue_line})" if bad_cue_line else ""
        raise SubtitleError(
            f"no subtitle cue could be read{where}",
            path=path,
            hint="expected SRT or WebVTT lines like '00:00:01,000 --> 00:00:02,500'",
        )
    return segments


def read_subtitles(path: str | Path) -> list[Segment]:
    """Read a sidecar ``.srt`` or ``.vtt`` file."""
    p = Path(path)
    if not p.exists():
        raise SubtitleError("subtitle file not found", path=p)
    return parse_subtitles(_decode(p), source=f"sidecar:{p.name}", path=p)


def find_sidecar(video: str | Path) -> Path | None:
    """``NAME.srt`` / ``NAME.vtt`` (also ``NAME.LANG.srt``) next to the video, if any."""
    v = Path(video)
    for suffix in SUBTITLE_SUFFIXES:
        exact = v.with_suffix(suffix)
        if exact.exists():
            return exact
    for suffix in SUBTITLE_SUFFIXES:
        matches = sorted(v.parent.glob(f"{glob_escape(v.stem)}.*{suffix}"))
        if matches:
            return matches[0]
    return None


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _ass_text(ass: str) -> str:
    # "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Text" or the decoder's "0,0,Default,,0,0,0,,Text"
    body = ass.split(":", 1)[1] if ass.startswith("Dialogue:") else ass
    parts = body.split(",", 8)
    return (parts[8] if len(parts) == 9 else body).replace("\\N", " ").replace("\\n", " ")


def _rect_text(rect) -> str:
    for attr in ("dialogue", "ass", "text"):
        raw = getattr(rect, attr, None)
        if raw:
            raw = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
            return _ass_text(raw) if attr == "ass" else raw.replace("\\N", " ")
    return ""


def read_embedded_subtitles(path: str | Path, stream_index: int = 0) -> list[Segment]:
    """Text subtitle cues from the video's own subtitle stream; [] when it has none."""
    segments: list[Segment] = []
    with open_media(path) as container:
        if len(container.streams.subtitles) <= stream_index:
            return []
        stream = container.streams.subtitles[stream_index]
        lang = stream.language or ""
        zero = container.start_time / av.time_base if container.start_time else 0.0
        try:
            for packet in container.demux(stream):
                if packet.pts is None or packet.size == 0:
                    continue
                start = float(packet.pts * packet.time_base) - zero
                end = start + float((packet.duration or 0) * packet.time_base)
                for sub in packet.decode():
                    # PyAV >= 14 yields the cues themselves; older versions a SubtitleSet of rects.
                    rects = list(sub) if hasattr(sub, "__iter__") else [sub]
                    texts = [_rect_text(rect) for rect in rects]
                    content = clean_text(" ".join(texts))
                    if content:
                        segments.append(
                            Segment(start=start, end=max(end, start), kind="subtitle", text=content,
                                    source=f"embedded:{stream.codec_context.name}{':' + lang if lang else ''}")
                        )
        except av.error.FFmpegError as exc:
            raise SubtitleError(f"cannot read the embedded subtitle stream: {exc}", path=path) from exc
    return segments
