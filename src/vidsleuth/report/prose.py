"""A paragraph cut into sentences: a full stop after a lower-case word or a number, ?, !, 。 ends one; the
full stop of an abbreviation ("approx. 5 hours", "Dr. Smith", "vs. 100 g") does not."""

from __future__ import annotations

import re


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph (a full stop after a lower-case word or a number, ?, !, 。)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\u4e00-\u9fff])|(?<=[。！？])", " ".join(str(text or "").split()))
    out: list[str] = []
    for p in (p.strip() for p in parts if p and p.strip()):
        if out and _ABBREVIATION.search(out[-1]):  # "approx. 5 hours", "Dr. Smith", "vs. 100 g": one sentence
            out[-1] = f"{out[-1]} {p}"
        else:
            out.append(p)
    return out


# a full stop that ends an abbreviation, not a sentence
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:approx|vs|ca|cf|e\.g|i\.e|incl|esp|est|avg|dr|mr|mrs|ms|prof|"
                           r"fig|figs|ref|vol|pp)\.$", re.I)
