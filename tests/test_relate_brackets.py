"""A sentence's upper and lower bound of one kind are the interval between them (``facts.bracketed``),
whether it keeps inside them or warns of both sides. Invented phrasings."""

import pytest

from vidsleuth.report.facts import statement

from .conftest import relation_of


@pytest.mark.parametrize("anchor, excerpt, relation", [
    ("Proof the dough at about 26 degrees.", "Below 22 °C the dough barely rises; above 30 °C it over-proofs.", "supports"),
    ("Proof the dough at about 26 degrees.", "Keep the proofing box above 22 °C and below 30 °C.", "supports"),
    ("Proof the dough at about 35 degrees.", "Below 22 °C the dough barely rises; above 30 °C it over-proofs.", "contradicts"),
    ("Inflate to 30 psi.", "Never ride under 35 psi, and do not go over 60 psi.", "contradicts"),
])
def test_two_bounds_are_the_interval_between_them(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


def test_bounds_of_two_kinds_or_units_stay_apart():
    st = statement("Keep it below 30 °C and above 5 bar.")
    assert sorted(r.value.form for r in st.readings) == ["lower", "upper"]
    (v,) = [r.value for r in statement("Below 22 °C it barely rises; above 30 °C it over-proofs.").readings]
    assert (v.lo, v.hi, v.form) == (22, 30, "range") and v.label() == "22–30°C"
