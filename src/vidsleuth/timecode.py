"""One way to write and read a time. Times are float seconds everywhere inside vidsleuth; these
helpers turn them into what people and prompts read, and back.

- ``seconds_label(12.34)`` -> ``"12.3s"``: frame labels, grid cells, prompts (the seeds' format)
- ``span_label(1.0, 4.5)`` -> ``"[1.0s - 4.5s]"``: timeline lines (the seeds' transcript format)
- ``clock(75.2)`` -> ``"1:15"``; ``clock(3725)`` -> ``"1:02:05"``: for people (reports, tables)
- ``fragment(12.34)`` -> ``"#t=12.34"``, ``fragment(12.3, 15)`` -> ``"#t=12.3,15"``: a W3C Media
  Fragments temporal link (https://www.w3.org/TR/media-frags/) that seeks a player
- ``parse_fragment("#t=npt:12.3,15")`` -> ``(12.3, 15.0)``: the same grammar read back
- ``parse("1:15")`` / ``parse("12.3s")`` / ``parse("01:02:05.5")`` -> seconds

A report's time is rounded once, by ``quantize`` (to the centisecond a fragment carries): the
link, the clock a reader sees and the check that tests the link all start from the same value.
"""

from __future__ import annotations

import math
import numbers
import re

from .errors import VidsleuthError

DECIMALS = 2  # a fragment's precision: finer than any frame rate people click at


def _finite(t: float) -> float:
    if isinstance(t, bool) or not isinstance(t, numbers.Real) or not math.isfinite(t) or t < 0:
        raise VidsleuthError(f"not a time: {t!r}", hint="a time is a finite number of seconds >= 0")
    return float(t)


def quantize(t: float) -> float:
    """``t`` rounded to the precision every written time carries."""
    return round(_finite(t), DECIMALS)


def seconds_label(t: float, digits: int = 1) -> str:
    return f"{t:.{digits}f}s"


def span_label(start: float, end: float) -> str:
    return f"[{seconds_label(start)} - {seconds_label(end)}]"


def clock(t: float) -> str:
    """``m:ss`` under an hour, else ``h:mm:ss`` (whole seconds of the quantized time, rounded down)."""
    whole = int(quantize(t))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _npt(t: float) -> str:
    return f"{quantize(t):.{DECIMALS}f}".rstrip("0").rstrip(".")


def fragment(start: float, end: float | None = None) -> str:
    """A Media Fragments temporal link: ``#t=START`` or ``#t=START,END`` (NPT seconds)."""
    if end is None:
        return f"#t={_npt(start)}"
    if quantize(end) <= quantize(start):
        raise VidsleuthError(f"not a time span: {start!r} to {end!r}", hint="the end must come after the start")
    return f"#t={_npt(start)},{_npt(end)}"


# RFC-style NPT of the Media Fragments spec §4.2.1: seconds, mm:ss or hh:mm:ss, fractions allowed
_NPT = re.compile(r"^(?:(?:(\d+):)?([0-5]\d):)?(\d+(?:\.\d*)?)$")


def _npt_seconds(text: str, whole: str) -> float:
    m = _NPT.match(text)
    if not m or (m.group(2) is not None and float(m.group(3)) >= 60):
        raise VidsleuthError(f"not a media-fragment time: {whole!r}",
                             hint="write #t=12.3, #t=12.3,15 or #t=npt:0:01:02.5 (https://www.w3.org/TR/media-frags/)")
    h, mm, s = m.groups()
    return int(h or 0) * 3600 + int(mm or 0) * 60 + float(s)


def parse_fragment(text: str) -> tuple[float, float | None]:
    """(start, end or None) of the temporal dimension of a URL fragment (``#t=…``, possibly among
    other dimensions joined by ``&``). A missing start (``#t=,15``) is 0."""
    whole = str(text)
    frag = whole.split("#", 1)[1] if "#" in whole else whole
    parts = [p for p in frag.split("&") if p.startswith("t=")]
    if len(parts) != 1:
        raise VidsleuthError(f"no temporal media fragment (t=…) in {whole!r}", hint="write #t=12.3 or #t=12.3,15")
    value = parts[0][2:]
    value = value[4:] if value.startswith("npt:") else value
    start_text, sep, end_text = value.partition(",")
    if not start_text and not sep:
        raise VidsleuthError(f"not a media-fragment time: {whole!r}", hint="write #t=12.3 or #t=12.3,15")
    start = _npt_seconds(start_text, whole) if start_text else 0.0
    end = _npt_seconds(end_text, whole) if sep else None
    if end is not None and end <= start:
        raise VidsleuthError(f"not a media-fragment time span: {whole!r}", hint="the end must come after the start")
    return start, end


_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:[.,]\d+)?)$")
_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:s|sec|secs|seconds)?$", re.I)


def parse(text: str) -> float:
    """Seconds from ``12.3``, ``12.3s``, ``1:15``, ``01:02:05.5`` or ``#t=12.3``."""
    t = str(text).strip()
    if t.startswith("#t="):
        return parse_fragment(t)[0]
    m = _SECONDS.match(t)
    if m:
        return float(m.group(1))
    m = _CLOCK.match(t)
    if m:
        h, mnt, sec = m.groups()
        return int(h or 0) * 3600 + int(mnt) * 60 + float(sec.replace(",", "."))
    raise VidsleuthError(f"not a time: {text!r}", hint="write seconds (12.3), m:ss (1:15) or h:mm:ss")
