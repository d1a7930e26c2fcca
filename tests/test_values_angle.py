"""A bare "°" or "degrees" is an angle where its clause speaks of one, a temperature otherwise."""

from __future__ import annotations

import pytest

from vidsleuth.values import read_values


@pytest.mark.parametrize("text, lo, hi, unit, shown", [
    ("For a German knife, hold the blade at 20 degrees on each side.", 20, 20, "angle_degree", "20°"),
    ("German: 20° per side", 20, 20, "angle_degree", "20°"),
    ("A Japanese knife takes a finer edge, about 15 degrees.", 13.5, 16.5, "angle_degree", "≈ 15°"),
    ("Tilt the panels to between 30 and 35 degrees.", 30, 35, "angle_degree", "30–35°"),
    ("a roof pitch of 30°", 30, 30, "angle_degree", "30°"),
    ("太阳能板倾角30度", 30, 30, "angle_degree", "30°"),
    ("preheat the oven to 180 degrees", 180, 180, "degC", "180°C"),
    ("keep the water at 20 degrees", 20, 20, "degC", "20°C"),
    ("水温80度左右", 72, 88, "degC", "≈ 80°C"),
    ("It was 20 degrees outside, so we angled the hose down.", 20, 20, "degC", "20°C"),  # heat is said: a temperature
])
def test_bare_degrees_take_their_clause_s_kind(text, lo, hi, unit, shown):
    v = read_values(text)[0]
    assert (round(v.lo, 3), round(v.hi, 3), v.unit) == (lo, hi, unit)
    assert v.label() == shown


def test_an_angle_never_meets_a_temperature_whose_scale_is_said():
    from vidsleuth.values import commensurate

    angle = read_values("hold the blade at 20 degrees on each side")[0]
    heat = read_values("keep the water at 20 °C")[0]
    assert angle.dimension == "angle" != heat.dimension and not commensurate(angle, heat)


def test_a_bare_degree_under_an_angle_column_or_beside_an_angle_is_an_angle():
    from vidsleuth.report.facts import agrees, read_row

    (tilt,) = read_row("| 40° N | 35 |", "| Latitude | Tilt (°) |").readings
    assert tilt.value.dimension == "angle" and tilt.value.label() == "35°"
    (water,) = read_row("| Espresso | 93 |", "| Drink | Water (°) |").readings
    assert water.value.dimension == "temperature"
    video = read_values("Tilt the panels to 35 degrees.")[0]
    assert agrees(read_values("35 °")[0], video) and not agrees(read_values("35 °C")[0], video)
