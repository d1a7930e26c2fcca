"""Documented ranges for every count and size a user can give, checked once at the boundary.

The CLI's argument types and the library's public functions use the same table, so
``vidsleuth frames -n 99999999999`` and ``sample_frames(path, n=99999999999)`` fail the same way,
before any work: one line naming the option, its range and what was given.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from .errors import ArgumentError, did_you_mean


@dataclass(frozen=True)
class Range:
    lo: float
    hi: float
    kind: type = int
    what: str = ""

    def describe(self) -> str:
        return f"{int(self.lo)}..{int(self.hi)}" if self.kind is int else f"{self.lo:g}..{self.hi:g}"


RANGES: dict[str, Range] = {
    "frames": Range(1, 4096, int, "frames to sample (a request beyond the video's frames is clamped to them)"),
    "fps": Range(0.001, 240, float, "frames per second"),
    "max_side": Range(16, 8192, int, "longest image side in pixels"),
    "grids": Range(1, 16, int, "preview grids"),
    "rows": Range(1, 10, int, "grid rows"),
    "cols": Range(1, 10, int, "grid columns"),
    "cell": Range(16, 1024, int, "grid cell size in pixels"),
    "max_chars": Range(100, 10_000_000, int, "characters of a rendered timeline"),
    "ocr_fps": Range(0.01, 30, float, "on-screen text samples per second"),
    "k": Range(1, 100_000, int, "results to return"),
    "k1": Range(0.0, 10.0, float, "BM25 term-frequency saturation"),
    "b": Range(0.0, 1.0, float, "BM25 length normalisation"),
    "t_max": Range(1, 20, int, "browsing loops"),
    "search_k": Range(1, 1000, int, "candidates per search"),
    "analyst_frames": Range(1, 1024, int, "frames per selected video"),
    "bins": Range(1, 100, int, "calibration bins"),
    "concurrency": Range(1, 256, int, "items in flight"),
    "retries": Range(0, 100, int, "retries"),
    "threshold": Range(0.0, 255.0, float, "shot-detection threshold"),
    "timeout": Range(0.001, 86400, float, "seconds per attempt"),
    "anchors": Range(1, 100, int, "research anchors"),
    "per_anchor": Range(1, 100, int, "evidence records per anchor"),
    "budget": Range(0, 10_000, int, "a report budget or round count"),
    "branches": Range(1, 100, int, "evidence branches run side by side"),
    # endpoint keys of the config file ([models.NAME])
    "max_concurrency": Range(1, 1024, int, "requests in flight per endpoint"),
    "max_retries": Range(0, 100, int, "retries after a failed attempt"),
    "image_max_side": Range(16, 8192, int, "longest side of an image sent"),
    "image_quality": Range(1, 100, int, "JPEG quality of an image sent"),
    "price_in": Range(0, 1e6, float, "price per million input tokens"),
    "price_out": Range(0, 1e6, float, "price per million output tokens"),
    "threads": Range(0, 512, int, "llama.cpp threads (0: the default)"),
    "max_tokens": Range(1, 1_000_000, int, "tokens to generate"),
    "temperature": Range(0.0, 2.0, float, "sampling temperature"),
    "seed": Range(0, 2**31 - 1, int, "random seed"),
    "seconds": Range(0.0, 360_000.0, float, "a time in the video, in seconds"),
    "calls": Range(0, 1_000_000_000, int, "calls (0: no limit)"),
    "session_seconds": Range(0.0, 10_000_000.0, float, "seconds (0: no limit)"),
    "session_tokens": Range(0, 1_000_000_000_000, int, "tokens (0: no limit)"),
}


def check(name: str, value, *, option: str | None = None):
    """``value`` when it lies in ``name``'s documented range, else an ArgumentError."""
    r = RANGES[name]
    label = option or f"--{name.replace('_', '-')}"
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (r.kind is int and not float(value).is_integer()):
        raise ArgumentError(f"{label} must be {'an integer' if r.kind is int else 'a number'} in {r.describe()}, "
                            f"not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ArgumentError(f"{label} must be a finite number in {r.describe()}, not {value!r}")
    if not r.lo <= value <= r.hi:
        raise ArgumentError(f"{label} must be in {r.describe()} ({r.what}), not {value:g}"
                            if isinstance(value, float) else f"{label} must be in {r.describe()} ({r.what}), not {value}")
    return r.kind(value)


def arg(name: str, option: str | None = None):
    """An argparse ``type=`` that parses and range-checks with the same message as ``check``."""
    r = RANGES[name]

    def parse(text: str):
        try:
            value = r.kind(text) if r.kind is int else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {'an integer' if r.kind is int else 'a number'} in "
                                             f"{r.describe()}, not {text!r}") from None
        try:
            return check(name, value, option=option)
        except ArgumentError as exc:
            raise argparse.ArgumentTypeError(str(exc).split(" must ", 1)[-1].join(("must ", ""))) from None

    parse.__name__ = name
    return parse


def int_list(name: str):
    """``8,16,32``: each checked against ``name``'s range."""
    one = arg(name)

    def parse(text: str) -> list[int]:
        parts = [p for p in text.split(",") if p.strip()]
        if not parts:
            raise argparse.ArgumentTypeError("expected numbers such as 8,16,32")
        return [one(p.strip()) for p in parts]

    parse.__name__ = f"{name} list"
    return parse


def choice(value, choices, *, option: str, what: str = "value"):
    """``value`` when it is one of ``choices``, else one ArgumentError listing them (with a "did
    you mean"); used for every enumerated option (languages, timeline kinds, text fields)."""
    if value in choices:
        return value
    names = sorted(map(str, choices))
    shown = ", ".join(names) if len(names) <= 30 else ", ".join(names[:30]) + f", … ({len(names)} in all)"
    raise ArgumentError(f"{option}: unknown {what} {value!r}" + did_you_mean(str(value), names), hint=f"choose {shown}")


def whisper_languages() -> tuple[str, ...]:
    """The language codes the speech recogniser knows ('auto' detects the language)."""
    try:
        from faster_whisper.tokenizer import _LANGUAGE_CODES
    except ImportError:  # pragma: no cover - ASR not installed: nothing to check against
        return ()
    return ("auto", *sorted(_LANGUAGE_CODES))


def iso_date(text: str | None, *, option: str = "--date") -> str | None:
    """``YYYY-MM-DD`` checked as a real calendar date, or an ArgumentError. Strict on purpose:
    relative words (``yesterday``) and guessed formats (dateparser's) would make a report depend
    on the day it was written and on the locale; ``datetime.date.fromisoformat`` after a format
    check refuses ``2024-13-45`` and accepts nothing ambiguous."""
    import datetime
    import re

    if text is None:
        return None
    value = str(text).strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError as exc:
            raise ArgumentError(f"{option} {value}: not a calendar date ({exc})", hint="give YYYY-MM-DD") from None
    raise ArgumentError(f"{option} {value!r}: not a date in the form YYYY-MM-DD", hint="e.g. 2024-03-15")


def nonempty(text: str | None, *, option: str, what: str = "text") -> str:
    """``text`` when it holds something other than white space, else an ArgumentError: an empty
    query or question is a mistake to say, never a run with zero results."""
    if text is None or not str(text).strip():
        raise ArgumentError(f"{option}: the {what} is empty", hint=f"give the {what} to use")
    return str(text)
