"""A slope written as rise to run ("Max slope 1:12", "a slope of 1 in 12", "4:12 pitch") is a ratio,
and "in" after a number is an inch where a measure's end follows ("Clear width: 36 in min.",
"| 34 in |"), never where it is the preposition ("put 2 in the bowl", "$23,500 in 2025")."""

from __future__ import annotations

import pytest

from vidsleuth.values import read_values


@pytest.mark.parametrize("text, labels", [
    ("Max slope 1:12", ["1:12"]),
    ("The maximum slope is 1 in 12.", ["1:12"]),
    ("Asphalt shingles need a 4:12 pitch.", ["4:12"]),
    ("Low slope 2:12 - 4:12", ["2:12", "4:12"]),
    ("1 in 10 people get it", []),  # no slope said: a share of people, not a rise over a run
    ("start at 2:15 in the afternoon", []),
])
def test_a_rise_over_a_run_is_a_ratio(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_slope_ratio_is_one_proportion():
    (v,) = read_values("a slope of 1 in 12")
    assert v.dimension == "proportion" and abs(v.point - 1 / 12) < 1e-9


@pytest.mark.parametrize("text, inches", [
    ("Clear width: 36 in min.", 36), ("| Handrail height | 34 in |", 34), ("the ramp is 30 in wide", 30),
    ("Space studs 16 in on center.", 16), ("Exposure: 5 5/8 in", 5.625),
])
def test_in_after_a_number_is_an_inch_where_a_measure_ends(text, inches):
    (v,) = read_values(text)
    assert v.dimension == "length" and v.unit == "inch" and v.stated[0] == inches


@pytest.mark.parametrize("text, labels", [
    ("put 2 in the bowl and stir", []),
    ("The limit will increase to $23,500 in 2025.", ["$23,500"]),
    ("it costs $20 in total", ["$20"]),
])
def test_in_as_a_preposition_is_no_unit(text, labels):
    assert [v.label() for v in read_values(text)] == labels


@pytest.mark.parametrize("text, form", [
    # "min"/"max" after a measure's unit is its bound, not a second unit ("36 in min." is no minute)
    ("Clear width: 36 in min.", "lower"), ("Landing 60 in. min", "lower"), ("Rest 20 min minimum", "lower"),
    ("Clear width: 36 in max", "upper"),
    ("Rest 10 min.", "point"), ("Max runtime 40 min", "point"),  # a spec sheet's rated figure stays a point
])
def test_min_after_a_unit_is_a_lower_bound(text, form):
    (v,) = read_values(text)
    assert v.form == form
