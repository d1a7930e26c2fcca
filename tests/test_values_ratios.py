"""Ratios as one dimensionless value (values/ratios.py): each phrasing with its expected quotient,
the orientation fixed by the two things named, and clock times that must stay times."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vidsleuth.values import read_values


def _ratios(text):
    return [(v.label(), round(v.lo, 4)) for v in read_values(text) if v.dimension == "proportion"]


@pytest.mark.parametrize("text, expected", [
    ("Use a 1:1.25 rice to water ratio.", [("1:1.25", 0.8)]),
    ("A water to rice ratio of 1.25:1 works.", [("1:1.25", 0.8)]),  # turned: rice first, as above
    ("use a one to one and a quarter ratio of rice to water", [("1:1.25", 0.8)]),  # spoken
    ("a two-to-one sugar to water ratio", [("2:1", 2.0)]),
    ("Mix one part vinegar to three parts water.", [("1:3", 0.3333)]),
    ("Use 1.5 cups of water for every cup of rice.", [("1:1.5", 0.6667)]),
    ("In spring feed 1:1 syrup.", [("1:1", 1.0)]),  # a single-digit second number is no clock
    ("米和水的比例是1:1.2", [("1:1.2", 0.8333)]),
    ("水和米按一比一点二的比例", [("1:1.2", 0.8333)]),
])
def test_ratio_phrasings(text, expected):
    assert _ratios(text) == expected


@pytest.mark.parametrize("text", [
    "The class starts at 2:15 and ends at 3:45.",
    "Hold a 2:15 split for the whole piece.",
    "We talked it over one to one.",
    "Add 3 to 4 parts water to the concentrate.",  # a range of parts
    "Dissolve 2 tablespoons of salt per cup of water.",  # different units: an amount, not 2:16
    "Add 3 cups of flour to the bowl.",
])
def test_not_ratios(text):
    assert _ratios(text) == []


def test_ratio_meets_ratio_not_percent():
    (r,) = [v for v in read_values("a 1:4 ratio") if v.dimension == "proportion"]
    (p,) = read_values("25 percent")
    assert not r.comparable(p)  # a share of a whole and a quotient of two parts are not one quantity


@given(st.integers(1, 9), st.integers(1, 9))
def test_any_digit_ratio_reads_its_quotient(a, b):
    (v,) = [v for v in read_values(f"Keep the ratio at {a}:{b} by weight.") if v.dimension == "proportion"]
    assert v.stated == (a, b) and v.lo == v.hi == pytest.approx(a / b)


@given(st.integers(1, 12), st.integers(10, 59))
def test_clock_times_are_never_ratios(h, m):
    assert _ratios(f"The shop opens at {h}:{m:02d} on weekdays.") == []


@given(st.integers(5, 40), st.integers(1, 20))
def test_a_range_of_ratios_on_its_first_term_is_one_interval(a, d):
    c = a + d
    (v,) = [v for v in read_values(f"Aim for a C:N ratio of {a}–{c}:1.") if v.dimension == "proportion"]
    assert v.form == "range" and (v.lo, v.hi) == (pytest.approx(a), pytest.approx(c)) and v.label() == f"{a}–{c}:1"


def test_a_clock_range_is_no_ratio():
    assert _ratios("The shop is open 10–11:30 on Sundays.") == []


def test_a_range_of_ratios_turned_to_the_named_order_labels_what_it_holds():
    (v,) = [v for v in read_values("a water to rice ratio of 2–3:1") if v.dimension == "proportion"]
    assert (v.lo, v.hi) == (pytest.approx(1 / 3), pytest.approx(1 / 2)) and v.label() == "0.3333–0.5:1"
