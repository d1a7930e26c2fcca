"""One way to write and read a time. Times are float seconds everywhere inside vidsleuth; these
helpers turn them into what people and prompts read, and back.

- ``seconds_label(12.34)`` -> ``"12.3s"``: frame labels, grid cells, prompts (the seeds' format)
- ``span_label(1.0, 4.5)`` -> ``"[1.0s - 4.5s]"``: timeline lines (the seeds' transcript format)
- ``clock(75.2)`` -> ``"1:15"``; ``clock(3725)`` -> ``"1:02:05"``: for people (reports, tables)
- ``fragment(12.34)`` -> ``"#t=12.34"``: a Media Fragments link that seeks a player
- ``parse("1:15")`` / ``parse("12.3s")`` / ``parse("01:02:05.5")`` -> seconds
"""

from __future__ import annotations

import math
import re

from .errors import VidsleuthError


def seconds_label(t: float, digits: int = 1) -> str:
    return f"{t:.{digits}f}s"


def span_label(start: float, end: float) -> str:
    return f"[{seconds_label(start)} - {seconds_label(end)}]"


def clock(t: float) -> str:
    """``m:ss`` under an hour, else ``h:mm:ss`` (whole seconds, rounded down)."""
    if not math.isfinite(t) or t < 0:
        raise VidsleuthError(f"not a time: {t!r}")
    whole = int(t)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def fragment(t: float) -> str:
    """A W3C Media Fragments time (``#t=SECONDS``), two decimals."""
    if not math.isfinite(t) or t < 0:
        raise VidsleuthError(f"not a time: {t!r}")
    return f"#t={t:.2f}"


_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:[.,]\d+)?)$")
_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:s|sec|secs|seconds)?$", re.I)


def parse(text: str) -> float:
    """Seconds from ``12.3``, ``12.3s``, ``1:15``, ``01:02:05.5`` or ``#t=12.3``."""
    t = str(text).strip()
    if t.startswith("#t="):
        t = t[3:].split(",")[0]
    m = _SECONDS.match(t)
    if m:
        return float(m.group(1))
    m = _CLOCK.match(t)
    if m:
        h, mnt, sec = m.groups()
        return int(h or 0) * 3600 + int(mnt) * 60 + float(sec.replace(",", "."))
    raise VidsleuthError(f"not a time: {text!r}", hint="write seconds (12.3), m:ss (1:15) or h:mm:ss")
