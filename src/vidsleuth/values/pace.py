"""Running paces: time per distance written as a clock ("6:30/km", "8:00 per mile") or in Chinese minutes and
seconds ("每公里6分30秒", "6分30秒/公里"). Read as one value in min/km (pint's time/length), not as a clock time
and a distance."""

from __future__ import annotations

import re

from .quantity import Value, _kind_of, interval_of

_DIST = r"(?P<d>km|kilomet(?:er|re)s?|公里|千米|mi|miles?)"
_CLOCK = re.compile(rf"(?<![\d:.])(?P<m>\d{{1,2}}):(?P<s>[0-5]\d)\s*(?:/|／|per\s+|每\s*)\s*{_DIST}(?![a-z])", re.I)
_ZH_AFTER = re.compile(rf"(?P<m>\d{{1,2}})\s*分\s*(?:(?P<s>\d{{1,2}})\s*秒|(?P<h>半))?\s*(?:/|／|每)\s*{_DIST}")
_ZH_BEFORE = re.compile(rf"每\s*{_DIST}\s*(?:的?配速\s*)?(?:大约|约|是|在)?\s*(?P<m>\d{{1,2}})\s*分\s*(?:(?P<s>\d{{1,2}})\s*秒|(?P<h>半))?"
                        r"(?:\s*(?:到|至|-|–|~)\s*(?P<m2>\d{1,2})\s*分(?:\s*(?P<s2>\d{1,2})\s*秒)?)?")


def read_paces(text: str) -> list[Value]:
    """Every pace ``text`` states (offsets in ``text``)."""
    out = []
    for pattern in (_CLOCK, _ZH_AFTER, _ZH_BEFORE):
        for m in pattern.finditer(text):
            if any(v.start <= m.start() < v.end for v in out):
                continue
            nums = [int(m["m"]) + (int(m["s"]) if m["s"] else 30 if m.groupdict().get("h") else 0) / 60]
            if m.groupdict().get("m2"):  # "每公里6分到7分": a range of paces
                nums.append(int(m["m2"]) + (int(m["s2"]) if m["s2"] else 0) / 60)
            unit = "minute/mile" if m["d"].lower().startswith("mi") else "minute/kilometer"
            form = "range" if len(nums) == 2 else "point"
            lo, hi = interval_of(form, nums, unit, None)
            out.append(Value(lo, hi, _kind_of(unit)[0], unit, form, tuple(round(n, 3) for n in nums), m.start(), m.end()))
    return out
