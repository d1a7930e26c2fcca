"""The case a claim is made for, apart from the claim. "For a rider of around 75 kilos on 28 mm road tyres, we run
about 80 psi in the rear" claims 80 psi; 75 kg and 28 mm say whom it is for. "A skinny 23 millimetre tyre got 110 psi"
claims 110 psi of a 23 mm tyre. A source that gives another case (40 mm gravel tyres, a 65 kg rider) says nothing
for or against the claim, exactly as a table row for another case does (``facts.Statement.cases``); a source that
states the case and a claim figure is judged on the claim figure."""

from __future__ import annotations

import re

from ..values import normalise
from .facts import agrees, quantities

# a leading condition or case phrase, up to its comma: "For a rider of …,", "On 40mm gravel tires,", "If …,"
LEAD = re.compile(r"^\W*(?:(?:and|so|but|now)\s+)?(?:if|when|whenever|unless|for|on|with|in|under|over|below|above)\b"
                  r"[^,;:—]*[,;:—]", re.I)
# a number with its unit spelled out in the singular before a word: the compound adjective of English
# ("a 23 millimeter tire", "a 12 volt battery"), whose plural ("12 volts at rest") states a value
ATTRIBUTIVE = re.compile(r"[a-z]{4,}(?<!s)\s+[a-z]", re.I)


def split_case(text: str) -> tuple[list, list]:
    """(case, claim) among the values ``text`` states; no case when nothing would be left to claim."""
    norm = normalise(text)
    values = quantities(text)
    lead = LEAD.match(norm) or re.match(r"[^→]*(?:→|->)", norm)  # "0 °F → -60 % strength": the claim at 0 °F
    case = [v for v in values if lead and v.end <= lead.end() or _attributive(norm, v)]
    claim = [v for v in values if v not in case]
    return (case, claim) if case and claim else ([], values)


def _attributive(norm: str, v) -> bool:
    """A value whose unit word, spelled out in the singular, stands before a noun ("23 millimeter tire")."""
    unit = re.search(r"[A-Za-z]+$", norm[v.start:v.end])
    return bool(unit and v.stated and v.stated[0] != 1 and ATTRIBUTIVE.match(norm[unit.start() + v.start:v.end + 3]))


def another_case(case: list, st) -> str:
    """The source's value for another case than the claim's ("For 40 mm tyres" against a 28 mm case, a table row
    keyed "up to 25" mm against a 40 mm bit), or ''. ``st``: the source's ``facts.Statement``."""
    for c in case:
        for v in [r.value for r in st.readings] + list(st.cases):
            if c.comparable(v) and not agrees(v, c) and not agrees(c, v) and not v.contains(c):
                return v.label()
    return ""
