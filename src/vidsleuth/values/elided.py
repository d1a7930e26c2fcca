"""Values whose unit is left out because it is the one just said: "I set mine to 60%, not 80"."""

from __future__ import annotations

import re

from .quantity import Value, interval_of

# a bare number set against the value before it in its sentence ("I set mine to 60%, not 80", "30 g or 35?",
# "keep it at 60 °C because of legionella, not 49"): the unit is left out because it is the same
_ELIDED = re.compile(r"(?:,|;|—|\s)\s*(?:but\s+|and\s+)?(?:not|or|vs\.?|versus|instead of|rather than)\s+"
                     r"(?:(?:the|my|our|your|their)\s+)?(?:(?:usual|normal|standard|recommended|old|previous|original|"
                     r"stock|default|listed|stated)\s+)?"  # "instead of the usual 30"
                     r"(?P<n>-?\d+(?:\.\d+)?)(?![\d.,:]?\d)(?!\s?[%°$€£¥]|[^\W\d_])", re.I)  # a unit after it is its own (``read_values``)


def elided(values: list[Value], text: str) -> list[Value]:
    """Values whose unit is left out in a contrast with the value before them (``_ELIDED``), in that value's unit,
    when of its scale (a number ten times off is something else: "60 °C, not 2 of them")."""
    out = list(values)
    for m in _ELIDED.finditer(text):
        n = m.start("n")
        prev = [v for v in values if v.end <= n]
        if not prev or any(v.start >= n for v in values if v.start < m.end()):
            continue
        v = prev[-1]
        between = text[v.end:m.start("n")]
        if re.search(r"[.!?。！？]|\d", between) or v.dimension.startswith("count:") or v.unit in ("", "price"):
            continue
        x = float(m.group("n"))
        if not v.stated or not (0.1 * abs(v.stated[-1]) <= abs(x) <= 10 * abs(v.stated[-1])):
            continue
        try:
            lo, hi = interval_of("point", [x], v.unit, None)
        except Exception:  # noqa: BLE001 - not convertible: left out
            continue
        out.append(Value(lo, hi, v.dimension, v.unit, "point", (x,), n, m.end("n"), v.unsaid_scale))
    return sorted(out, key=lambda v: v.start)
