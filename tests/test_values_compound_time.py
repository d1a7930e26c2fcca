"""One time said in two units ("3 min 30 s", "1 hour 15 minutes") is one value, also as a range's end;
"minus" before a number is a sign only where a level is being said, not after a term it subtracts from."""

from __future__ import annotations

import pytest

from vidsleuth.values import read_values


@pytest.mark.parametrize("text, seconds", [
    ("Rest it 3 min 30 s.", 210), ("It takes 1 hour 15 minutes.", 4500),
    ("Knead for 2 minutes and 30 seconds.", 150), ("Bake 1 hr 10 min", 4200),
])
def test_a_time_in_two_units_is_one_value(text, seconds):
    (v,) = read_values(text)
    assert v.dimension == "time" and abs(v.point - seconds) < 1


def test_a_range_of_two_unit_times_keeps_both_ends():
    (v,) = read_values("Boil for 2 minutes 50 seconds to 4 minutes 30 seconds.")
    assert v.dimension == "time" and abs(v.lo - 170) < 1 and abs(v.hi - 270) < 1


@pytest.mark.parametrize("text", ["2 hours and 90 minutes", "5 minutes 90 seconds"])
def test_a_second_part_past_sixty_is_not_folded_in(text):
    assert len(read_values(text)) == 2


@pytest.mark.parametrize("text, point", [
    ("It was minus 10 degrees outside.", -10), ("Set it to minus 4 degrees.", -4), ("Minus 5 degrees at night.", -5),
])
def test_minus_where_a_level_is_said_is_a_sign(text, point):
    (v,) = read_values(text)
    assert v.point == point


def test_minus_after_a_term_subtracts_from_it():
    (v,) = read_values("Tilt the panel to your latitude minus 10 degrees.")
    assert v.point == 10  # an offset from the latitude, not a tilt of -10°


def test_a_vulgar_fraction_keeps_its_eighths():
    (v,) = read_values("Exposure: 5⅝ inches")
    assert v.stated[0] == 5.625
