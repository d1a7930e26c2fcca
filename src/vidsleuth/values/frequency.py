"""Frequencies said as a count of times per period: "twice a year", "3 times per week", "每周3次".

A frequency is its own kind (per time, pint's ``1/year``), held as an interval like any value; against
a period ("every 6 months", "once a year", which the number words make "every 1 year") it is compared
as the period it implies (``quantity.aligned``, ``quantity.as_period``): twice a year meets every six
months and disputes once a year."""

from __future__ import annotations

import re
from typing import Callable

from .quantity import Value, _kind_of, convert

_PERIODS = {"second": "second", "minute": "minute", "hour": "hour", "day": "day", "night": "day", "week": "week",
            "fortnight": "fortnight", "month": "month", "year": "year",
            "秒": "second", "分钟": "minute", "小时": "hour", "天": "day", "日": "day", "周": "week", "星期": "week",
            "月": "month", "个月": "month", "年": "year"}
# occasions counted per a longer period: "3 times a week", "five days a week", "2 to 3 sessions per week"
_OCCASIONS = r"(?:times|days|nights|sessions|workouts)"
_EN = re.compile(r"\b(?:(?:(?P<lo>\d+(?:\.\d+)?)\s*(?:to|–|-|or)\s*)?(?P<n>\d+(?:\.\d+)?)\s*" + _OCCASIONS +
                 r"|(?P<w>twice|thrice))\s+(?:a|an|per|each|every(?:\s+1)?|1)\s+"
                 r"(?P<p>second|minute|hour|day|night|week|fortnight|month|year)\b", re.I)
_ZH = re.compile(r"(?:每|1)\s?(?P<p>个月|小时|分钟|星期|天|日|周|月|年|秒)\s?(?P<n>\d+(?:\.\d+)?)\s?次")
_WORDS = {"twice": 2.0, "thrice": 3.0}


def read_frequencies(text: str, form_of: Callable[[str, str], tuple[str, float | None]]) -> list[Value]:
    """The frequencies ``text`` (already normalised) states; ``form_of(before, after)`` tells a bound
    or an approximation ("at least twice a year" is at least 2 per year)."""
    out = []
    for m in [*_EN.finditer(text), *_ZH.finditer(text)]:
        n = float(m.group("n")) if m.group("n") else _WORDS[m.group("w").lower()]
        unit = f"1/{_PERIODS[m.group('p').lower()]}"
        if m.groupdict().get("lo") and float(m.group("lo")) < n:  # "2 to 3 sessions per week": a range of frequencies
            lo, hi = (convert(float(m.group("lo")), unit, _kind_of(unit)[1]), convert(n, unit, _kind_of(unit)[1]))
            out.append(Value(lo, hi, "frequency", unit, "range", (float(m.group("lo")), n), m.start(), m.end()))
            continue
        form, _ = form_of(text[max(0, m.start() - 60):m.start()], text[m.end():m.end() + 16])
        form = form if form in ("lower", "upper", "approx") else "point"
        f = convert(n, unit, _kind_of(unit)[1])
        lo, hi = {"lower": (f, float("inf")), "upper": (float("-inf"), f), "approx": (f * 0.9, f * 1.1)}.get(form, (f, f))
        out.append(Value(lo, hi, "frequency", unit, form, (n,), m.start(), m.end()))
    return out
