"""Ratios: "a 1:1.25 rice to water ratio", "2:1 sugar to water", "one part vinegar to three parts
water", "a rice-to-water ratio of 1 to 1.2", "1.5 cups of water per cup of rice", "米水比例1:1.2", "1比1.2".

A ratio is one dimensionless quantity (``dimension == "proportion"``, ``lo == hi == a / b``), so
"1:1" of syrup meets "2:1" as a contradiction, not as two unrelated counts. A colon pair is a
ratio where the clause says so (the word ratio, parts, "by weight", 比例, or the two things
named "X to Y") or where its second number cannot be a clock's minutes ("feed 1:1 syrup"): "2:15"
alone is a time. Where the two things are named, the ratio is turned to
put them in alphabetical order, so "water to rice 1.25:1" and "1:1.25 rice to water" are one value.
"""

from __future__ import annotations

import re

from .quantity import UNITS, Value

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "a half": 0.5, "half": 0.5, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_N = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a half|half)"
_THING = r"[a-z]+|[\u4e00-\u9fff]{1,4}"
_NAMED_AFTER = re.compile(rf"^\s*(?:ratio\s+)?(?:of\s+)?(?P<x>{_THING})[\s-]+to[\s-]+(?P<y>{_THING})\b", re.I)
_NAMED_BEFORE = re.compile(r"\b(?P<x>[a-z]+)[\s-]+to[\s-]+(?P<y>[a-z]+)\s+(?:ratio|proportion|mix)\s*"
                           r"(?:of|is|at|should be|=|:)?\s*(?:about\s+|around\s+|roughly\s+)?$", re.I)
_RATIO_WORD = re.compile(r"\b(?:ratios?|proportions?)\b|比例|配比", re.I)
_CUE = re.compile(r"\b(?:ratios?|proportions?|parts?|by (?:weight|volume|mass))\b|比例|配比", re.I)
# a rise over a run: "Max slope 1:12", "a 4:12 pitch", "a slope of 1 in 12" (rise 1 per run 12)
_SLOPE = re.compile(r"\b(?:slopes?|sloped|pitch(?:es|ed)?|grades?|gradients?|inclines?|fall|rise)\b|坡度", re.I)
_IN = re.compile(rf"(?<![\d.:/A-Za-z])(?P<a>{_N})\s+in\s+(?P<b>{_N})(?![\d:]|\.\d)", re.I)
_PAIR = re.compile(rf"(?<![\d.:/A-Za-z])(?P<a>{_N})\s?(?P<sep>:|∶|比|[\s-]+to[\s-]+)\s?(?P<b>{_N})(?![\d:])", re.I)
# a range of ratios written on its first term: "a C:N ratio of 25–30:1", "20 to 30:1"
_RANGE = re.compile(rf"(?<![\d.:/A-Za-z])(?P<a>{_N})\s?(?:-|–|—|to)\s?(?P<c>{_N})(?::|∶)(?P<b>{_N})(?![\d:])", re.I)  # not "ages 2-5: 1 h"
_PARTS = re.compile(rf"(?<![\d.])(?P<a>{_N})\s+parts?\s+(?:of\s+)?(?P<x>[a-z]+)\s*(?:to|with|and|,|:)\s*"
                    rf"(?P<b>{_N})\s+parts?\s+(?:of\s+)?(?P<y>[a-z]+)", re.I)
# "1:1 syrup", "3:1.5": a clock's minutes have two digits ("2:15"), and a leading zero is a timer's ("9:06.920")
_NOT_CLOCK = re.compile(r"\d|(?!0\d)\d+\.\d+")
_AT = re.compile(r"\b(?:at|from|until|till|by)\s*$", re.I)
_MEASURE = r"(?:cups?|parts?|tablespoons?|tbsp|teaspoons?|tsp|scoops?|ml|millilit(?:er|re)s?|l|lit(?:er|re)s?|g|grams?|kg|oz|ounces?|lbs?|pounds?)"
_PER_SAME = re.compile(rf"(?<![\d.])(?P<a>{_N})\s?(?P<ua>{_MEASURE})\s+(?:of\s+)?(?P<x>[a-z]+)\s+(?:per|for every|for each|to every|to each|to)\s+"
                       rf"(?:(?P<b>{_N})\s?)?(?:an?\s+)?(?P<ub>{_MEASURE})\s+(?:of\s+)?(?P<y>[a-z]+)", re.I)
_CLAUSE = re.compile(r"[.;!?。；！？\n]")
# a ratio given as one quotient: "keep the water to cement ratio at 0.45", "Water : cement = 0.45", "a ratio of 0.5"
_QUOTIENT = re.compile(r"(?:\b(?P<x>[a-z]+)[\s-]+(?:to|:)[\s-]+(?P<y>[a-z]+)[\s-]+)?(?:\bratio|\bproportion|比例|配比)\s*"
                       r"(?:(?:of|is|at|should be|must be|=|:)\s*)?(?:about\s+|around\s+|roughly\s+)?(?P<a>\d*\.\d+|\d+)"
                       r"(?!\d|\.\d|\s?(?::|∶|to\b|比)\s?\d)"
                       r"|\b(?P<x2>[a-z]+)\s?:\s?(?P<y2>[a-z]+)\s?=\s?(?P<a2>\d*\.\d+|\d+)(?![\d.:])", re.I)


def _number(s: str) -> float:
    s = s.strip().lower()
    return float(_WORDS[s]) if s in _WORDS else float(s)


def _clause(text: str, start: int, end: int) -> tuple[str, str]:
    """The text before and after a match inside its sentence (at most 50 characters each way)."""
    before = _CLAUSE.split(text[max(0, start - 50):start])[-1]
    after = _CLAUSE.split(text[end:end + 50])[0]
    return before, after


def _slope_said(before: str, after: str) -> bool:
    """Whether the clause around a number pair speaks of a slope (a rise over a run)."""
    return bool(_SLOPE.search(before[-40:]) or _SLOPE.search(after[:30]))


def _value(a: float, b: float, names: tuple[str, str] | None, start: int, end: int) -> Value | None:
    if a <= 0 or b <= 0:
        return None
    if names and names[0].lower() > names[1].lower():  # one orientation for the two things named
        a, b = b, a
    return Value(a / b, a / b, "proportion", "ratio", "point", (a, b), start, end)


def _per_same(m: re.Match) -> Value | None:
    """"1.5 cups of water per cup of rice": an amount per an amount in the same unit is a ratio
    ("2 tablespoons per cup" stays an amount: as a ratio it would read 2:16)."""
    def unit(s: str) -> str | None:
        s = s.lower()
        return "part" if s.startswith("part") else UNITS.get(s) or UNITS.get(s.rstrip("s"))
    ua, ub = unit(m["ua"]), unit(m["ub"])
    if ua is None or ua != ub:
        return None
    return _value(_number(m["a"]), _number(m["b"]) if m["b"] else 1.0, (m["x"], m["y"]), m.start(), m.end())


def _range(m: re.Match, text: str) -> Value | None:
    """"25–30:1" as the interval of ratios 25:1 to 30:1 (a clock's "10–11:30" is none: its minutes have two digits)."""
    a, c, b = _number(m["a"]), _number(m["c"]), _number(m["b"])
    before, after = _clause(text, m.start(), m.end())
    if not (_NOT_CLOCK.fullmatch(m["b"]) or _CUE.search(before[-30:] + " " + after[:30])) or min(a, b, c) <= 0 or c <= a:
        return None
    named = _NAMED_AFTER.match(after) or _NAMED_BEFORE.search(before)
    if named and named["x"].lower() > named["y"].lower():  # one orientation for the two things named, said per one
        lo, hi = b / c, b / a
        return Value(lo, hi, "proportion", "ratio", "range", (round(lo, 4), round(hi, 4), 1.0), m.start(), m.end())
    return Value(a / b, c / b, "proportion", "ratio", "range", (a, c, b), m.start(), m.end())


def read_ratios(text: str) -> list[Value]:
    """Every ratio ``text`` states, in order, with offsets into ``text``."""
    out: list[Value] = []
    taken: list[tuple[int, int]] = []
    for m in _RANGE.finditer(text):
        if (v := _range(m, text)) is not None:
            out.append(v)
            taken.append((m.start(), m.end()))
    for m in [*_PARTS.finditer(text), *_PER_SAME.finditer(text)]:
        if any(s <= m.start() < e for s, e in taken):
            continue
        v = (_value(_number(m["a"]), _number(m["b"]), (m["x"], m["y"]), m.start(), m.end())
             if m.re is _PARTS else _per_same(m))
        if v is not None:
            out.append(v)
            taken.append((m.start(), m.end()))
    for m in _PAIR.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        before, after = _clause(text, m.start(), m.end())
        spelled = not re.fullmatch(r"[\d.]+", m["a"]) or not re.fullmatch(r"[\d.]+", m["b"])
        worded = m["sep"].strip(" -").lower() == "to"
        named = _NAMED_AFTER.match(after) or _NAMED_BEFORE.search(before)
        cued = (_CUE.search(before[-30:]) or _CUE.search(after[:30]) or m["sep"] == "比"
                or m["sep"] in (":", "∶") and _slope_said(before, after)
                or (not worded and not spelled and _NOT_CLOCK.fullmatch(m["b"]) and not _AT.search(before)))
        if not (cued or (named and not worded)):
            continue  # "2:15" is a time
        if m["sep"] in (":", "∶") and text[m.end("sep"):m.end("sep") + 1] == " " and text[m.start("sep") - 1] != " " \
                and re.match(r"\s?[A-Za-z%]", after):
            continue  # "ages 2-5: 1 h/day": a label's colon before a figure with its unit, no ratio
        if worded and (not _RATIO_WORD.search(before[-30:] + " " + after[:30]) or re.match(rf"\s*{_MEASURE}\b", after, re.I)):
            continue  # "one to one" without a ratio said is a conversation, "3 to 4 parts water" a range
        if spelled and not worded and m["sep"] != "比":
            continue
        names = (named["x"], named["y"]) if named else None
        v = _value(_number(m["a"]), _number(m["b"]), names, m.start(), m.end())
        if v is not None:
            out.append(v)
    for m in _QUOTIENT.finditer(text):  # one number for the quotient: the first thing per one of the second
        if not any(s <= m.start("a" if m["a"] else "a2") < e for s, e in taken + [(v.start, v.end) for v in out]):
            x, y = (m["x"], m["y"]) if m["x"] else (m["x2"], m["y2"])
            if (v := _value(float(m["a"] or m["a2"]), 1.0, (x, y) if x else None, m.start(), m.end())) is not None:
                out.append(v)
    for m in _IN.finditer(text):
        before, after = _clause(text, m.start(), m.end())
        if not any(s <= m.start() < e for s, e in taken) and _slope_said(before, after):
            if (v := _value(_number(m["a"]), _number(m["b"]), None, m.start(), m.end())) is not None:
                out.append(v)
    return sorted(out, key=lambda v: v.start)
