"""A table's minimum and maximum columns as one interval per row.

"| 1 | 1:00 | 4 |" under "| Thickness | Minimum time (h:mm) | Maximum (hours) |" gives the 1-inch steak a
window of one to four hours: a figure inside it (the video's "about an hour and a half") agrees with the
row, though it equals neither cell. Each cell stays a value of its own as well (the ceiling "4 hours").
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..values import Value

LOW = re.compile(r"\b(?:min(?:imum)?|lowest|low|from|at least|earliest|shortest)\b|最[少低短]|至少", re.I)
HIGH = re.compile(r"\b(?:max(?:imum)?|highest|high|up to|at most|latest|longest)\b|最[多高长]|至多|不超过", re.I)


def spans(columns: list[tuple[str, list[Value]]]) -> list[tuple[Value, str]]:
    """Per pair of a minimum column and the maximum column after it holding one value each of one kind:
    the interval from the one to the other, with both headers (what it is the interval of)."""
    out = []
    for k, (head, vals) in enumerate(columns):
        if len(vals) != 1 or not LOW.search(head) or HIGH.search(head):
            continue
        top = next(((h, vs) for h, vs in columns[k + 1:] if HIGH.search(h) and not LOW.search(h)), None)
        if top is None or len(top[1]) != 1:
            continue
        lo, hi = vals[0], top[1][0]
        if lo.comparable(hi) and lo.lo < hi.hi and lo.form == hi.form == "point":
            out.append((replace(lo, hi=hi.hi, form="range", stated=(lo.stated[0], hi.stated[0])), f"{head} {top[0]}"))
    return out
