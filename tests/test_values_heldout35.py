"""Readings met on an aquarium, a chainsaw and a toddler-sleep task written by another hand, each with its
expected value: a fraction of a whole said before it is a share, a bare degree measured "to the" plate is an
angle, a label's colon before a figure with its unit is no ratio, and the period a rate is given over is no
duration of its own."""

from __future__ import annotations

import pytest

from .conftest import labels_of


@pytest.mark.parametrize("text, labels", [
    ("Change about a quarter of the water every single week.", ["≈ 25%"]),
    ("Replace two thirds of your tank water.", ["67%"]),
    ("add a quarter of a cup of sugar", ["0.25 cup"]),  # a fraction of a unit stays an amount
    ("Hold the file at 30 degrees to the top plate,", ["30°"]),
    ("Heat the water to 80 degrees.", ["80°C"]),
    ("Screen time, ages 2-5: 1 h/day", ["1 h"]),
    ("Rice to water ratio 1:1.2", ["1:1.2"]),
    ("Recommended amounts of sleep per 24 hours, including naps.", []),
    ("Toddlers need 11 to 14 hours of sleep per 24 hours.", ["11–14 h"]),
    ("take the rakers down to 25,000ths of an inch below the cutter.", ["0.025 inch"]),  # Whisper's "twenty-five thousandths"
    ("twenty-five thousandths of an inch", ["0.025 inch"]),
    ("It was the 100th time", []),
    ("轻松跑配速 6:30／公里", ["6.5 minute/kilometer"]),  # a pace, not a clock time and a distance
    ("我自己是按每公里6分30秒的配速跑轻松跑", ["6.5 minute/kilometer"]),
    ("run at 10:00 per mile", ["10 minute/mile"]),
    ("对多数业余跑者来说，大约是每公里6分到7 分。", ["6–7 minute/kilometer"]),
    ("It starts at 6:30 every morning", []),
])
def test_readings(text, labels):
    assert labels_of(text) == labels
