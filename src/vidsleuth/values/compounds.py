"""One quantity said in two parts: a time or length in two units ("4 min 10 s", "5 ft 6 in") and an
amount said to cover another ("One litre covers about 10 square metres" is ≈ 10 m²/L)."""

from __future__ import annotations

import re

from .quantity import Value, _kind_of, convert, interval_of


def compounds(values: list[Value], text: str) -> list[Value]:
    """One quantity written in two units, the larger first: "4 min 10 s" is 250 s, "1 h 20 min",
    "2 hours and 30 minutes", "5 ft 6 in", "1 lb 4 oz" (pint converts the smaller part into the
    larger unit); "10 minutes and 2 hours" are two values."""
    out: list[Value] = []
    for v in values:
        a = out[-1] if out else None
        if (a is not None and a.form in ("point", "approx") and v.form == "point" and a.dimension == v.dimension
                and not a.dimension.startswith(("count:", "money:")) and a.dimension != "temperature" and a.unit != v.unit
                and len(a.stated) == len(v.stated) == 1 and re.fullmatch(r"\s*(?:and\s+)?", text[a.end:v.start])):
            try:
                part = convert(v.stated[0], v.unit, a.unit)
                whole = convert(1, a.unit, v.unit)
            except Exception:  # noqa: BLE001 - units pint cannot relate stay two values
                part, whole = 0.0, 0.0
            if 0 < part < 1 and v.stated[0] < whole:
                num = a.stated[0] + part
                lo, hi = interval_of(a.form, [num], a.unit, None)
                out[-1] = Value(lo, hi, a.dimension, a.unit, a.form, (round(num, 2),), a.start, v.end)
                continue
        out.append(v)
    return out


# an amount said to cover, treat or serve another: "One litre covers about 10 square metres", "a 20 kg bag
# treats 400 m²", "1 kg of seed is enough for 35 m²" state one rate (10 m²/L)
_COVERS = re.compile(r"^\s*(?:(?:of|bag|tin|can|pot|tub|bottle|pack)\s+[a-z\s]{0,20})?(?:will |should |typically |usually )?"
                     r"(?:covers?|covering|treats?|treating|spreads? over|is enough for|does|coats?)\s*"
                     r"(?:about|around|roughly|approximately|up to|some)?\s*$", re.I)


def coverage(values: list[Value], text: str) -> list[Value]:
    """Two amounts joined by "covers" (see ``_COVERS``) as the one rate they state, the covered per the
    covering: its number is the covered amount over the covering one, its form the covered amount's."""
    out: list[Value] = []
    for v in values:
        a = out[-1] if out else None
        if (a is not None and a.form == "point" and len(a.stated) == 1 and a.stated[0] > 0 and a.dimension != v.dimension
                and ":" not in a.dimension + v.dimension and _COVERS.match(text[a.end:v.start])):
            unit = f"({v.unit})/({a.unit})"
            nums = [x / a.stated[0] for x in v.stated]
            try:
                lo, hi = interval_of(v.form, nums, unit, None)
                dim = _kind_of(unit)[0]
            except Exception:  # noqa: BLE001 - units pint cannot divide stay two values
                out.append(v)
                continue
            out[-1] = Value(lo, hi, dim, unit, v.form, tuple(round(x, 4) for x in nums), a.start, v.end)
            continue
        out.append(v)
    return out
