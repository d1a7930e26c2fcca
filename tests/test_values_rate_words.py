""""a"/"an" makes a rate only between a measure and its period ("30 km an hour"), not across a
clause to an ordinal ("four hours before applying a second coat" holds no hours per second); "in"
is an inch before its metric equivalent in brackets."""

import pytest

from vidsleuth.values import read_values


def _read(text):
    return [(v.dimension, v.unit, v.form) for v in read_values(text)]


@pytest.mark.parametrize("text, expected", [
    ("Wait at least four hours before applying a second coat.", [("time", "hour", "lower")]),
    ("Leave 4 hours and a second coat can go on.", [("time", "hour", "point")]),
    ("Drive at 30 km an hour.", [("speed", "(km)/(hour)", "point")]),
    ("It falls 3 metres a second.", [("speed", "(m)/(second)", "point")]),
    ("It pumps 2 litres a minute.", [("[length] ** 3 / [time]", "(l)/(minute)", "point")]),
    ("Print at 50 mm/s.", [("speed", "(mm)/(second)", "point")]),
])
def test_rates_said_with_a(text, expected):
    assert _read(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Set depth gauges to 0.030 in (0.8 mm).", ["0.03 inch", "0.8 mm"]),  # an inch with its metric equivalent
    ("a 12 in (30 cm) pan", ["12 inch", "30 cm"]),
    ("Put 2 in (one per side) the box.", []),  # "in" before words in brackets is the preposition
])
def test_inches_before_a_bracketed_equivalent(text, expected):
    assert [v.label() for v in read_values(text)] == expected


@pytest.mark.parametrize("text, expected", [
    ("Once 100 daily swings feel easy, move on.", [("100 swings/day", "count:swing/day")]),
    ("She books 3 weekly sessions with a coach.", [("3 sessions/week", "count:session/week")]),
    ("We planted 4 young trees today", []),  # an adjective that names no period counts nothing by itself mid-clause
])
def test_a_count_with_a_periodic_adjective_is_per_that_period(text, expected):
    assert [(v.label(), v.dimension) for v in read_values(text)] == expected


@pytest.mark.parametrize("text, expected", [
    ("That's usually about eight feeds in 24 hours.", [("count:feed/day", "count:feed/day", "approx")]),
    ("Offer 6–8 feeds per 24 hours.", [("count:feed/day", "count:feed/day", "range")]),
    ("Most babies take 8 feeds a day.", [("count:feed/day", "count:feed/day", "point")]),
    ("Recoat two coats 24 hours apart.", [("count:coat", "count:coat", "point"), ("time", "hour", "point")]),
])
def test_a_count_in_24_hours_is_a_days(text, expected):
    assert _read(text) == expected
