"""An English sentence of two instructions with a figure each is two anchors (``report.clauses``), as development
sets by other hands said them; a join inside a value or one that leaves a clause without a figure keeps it whole."""

import pytest

from vidsleuth.report.clauses import clauses


@pytest.mark.parametrize("sentence, parts", [
    ("If you put the laptop away for a while, store it at about half charge, and keep it under 35 degrees Celsius.",
     ["If you put the laptop away for a while, store it at about half charge", "keep it under 35 degrees Celsius."]),
    ("space the plants about 60 cm apart and leave about a meter between the rows so you can walk and pick",
     ["space the plants about 60 cm apart", "leave about a meter between the rows so you can walk and pick"]),
    ("Bake between 350 and 375 °F, then rest it for 10 minutes.", ["Bake between 350 and 375 °F", "rest it for 10 minutes."]),
    ("and drain and refill the whole tub every three months.", ["and drain and refill the whole tub every three months."]),
    ("Do this five days a week and take the weekends off.", ["Do this five days a week and take the weekends off."]),
])
def test_two_instructions_with_a_figure_each_are_two_clauses(sentence, parts):
    got = clauses(sentence, 10.0, 16.0, "speech")
    assert [c[0] for c in got] == parts
    assert got[0][1] == 10.0 and got[-1][2] == 16.0 and all(a[2] <= b[1] for a, b in zip(got, got[1:]))
