"""A spoken sentence cut into the clauses an anchor is made of: a Chinese sentence stating values of several
kinds, one clause per comma; an English sentence of two instructions with a figure each, one clause per
instruction. Times are shared by length."""

from __future__ import annotations

import re

from ..values import has_cjk
from .facts import heading_of, kind_word, objects, quantities, subject_words


def clauses(text: str, start: float, end: float, kind: str) -> list[tuple[str, float, float, str]]:
    """The clauses of one sentence. English: ``_en_clauses``. Chinese stating values of several kinds, one clause
    each ("滤网建议六个月换一次，一张八十九元" is the filter's interval and the filter's price): cut at its commas, and
    a clause naming no thing of its own is prefixed with the thing the sentence opened with."""
    kinds = {v.dimension for v in quantities(text) if not v.dimension.startswith("count:")}
    if not has_cjk(text):
        return _en_clauses(text, start, end, kind)
    parts = [p for p in re.split(r"(?<=[，；,;])", text) if p.strip()]
    if len(kinds) < 2 or len(parts) < 2:
        return [(text, start, end, kind)]
    first = heading_of(parts[0]) if quantities(parts[0]) else ""
    out, t, span = [], start, max(0.0, end - start)
    for k, p in enumerate(parts):
        dt = span * len(p) / len(text)
        own = objects(subject_words(p)) - {kind_word(v.dimension) for v in quantities(p)}  # "一张": a count, no thing
        clause = p if k == 0 or own or not first else f"{first}{p}"
        out.append((clause, round(t, 2), round(t + dt, 2), kind))
        t += dt
    return out


# a second instruction joined to the first ("store it at about half charge, and keep it under 35 degrees"; "space the
# plants 60 cm apart and leave about a meter between the rows"): a figure each, for two things
_EN_JOIN = re.compile(r",\s+and\s+|;\s+|,\s+then\s+|\s+and\s+(?=(?:leave|keep|set|store|use|add|wait|let|give|put|space|"
                      r"cook|bake|rest|check|replace|change|aim|allow|plant|water|feed|test)\b)", re.I)


def _en_clauses(text: str, start: float, end: float, kind: str) -> list[tuple[str, float, float, str]]:
    """An English sentence of two instructions with a figure each, one clause each (times shared by length);
    a sentence whose join falls inside a value ("between 350 and 375 °F") or leaves a clause without one stays whole."""
    values = quantities(text)
    cuts = [m for m in _EN_JOIN.finditer(text) if not any(v.start < m.end() and m.start() < v.end for v in values)]
    bounds = [0] + [x for m in cuts for x in (m.start(), m.end())] + [len(text)]
    parts = [text[bounds[k]:bounds[k + 1]] for k in range(0, len(bounds), 2)]
    if len(parts) < 2 or not all(quantities(p) for p in parts):
        return [(text, start, end, kind)]
    span, out = max(0.0, end - start), []
    for k, p in enumerate(parts):
        a, b = bounds[2 * k], bounds[2 * k + 1]
        out.append((p.strip(), round(start + span * a / len(text), 2), round(start + span * b / len(text), 2), kind))
    return out
