"""Anchors and values on cases written from general principles (hA): a fraction of a unit said with
an ordinal ("an eighth of an inch"), and the classes added after it in this file."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts, find_anchors  # noqa: F401 - used by later cases
from vidsleuth.types import Segment, Timeline

from .conftest import labels_of, timeline_of


@pytest.mark.parametrize("text, labels", [
    ("leave a gap of an eighth of an inch around the panel", ["0.125 inch"]),
    ("stir in two thirds of a cup of cocoa", ["0.667 cup"]),
    ("plane it down by three sixteenths of an inch", ["0.188 inch"]),
    ("pour one and a third cups of stock", ["1.33 cup"]),
    ("a fifth of a gallon of vinegar", ["0.2 gallon"]),
])
def test_a_fraction_of_a_unit_said_with_an_ordinal_is_its_share(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text", ["the eighth step is sanding", "the third cup goes in last", "on the fourth of May"])
def test_an_ordinal_that_names_an_item_is_no_fraction(text):
    assert labels_of(text) == []


def _values(tl: Timeline, request: str) -> list[str]:
    return [a.value for a in find_anchors(tl, request)]


def test_degrees_said_without_a_scale_are_the_scale_the_screen_shows():
    tl = timeline_of(Segment(10.0, 15.0, "speech", "Take the ham out when the probe reads 150 degrees.", 1.0, "asr"),
                     Segment(10.5, 15.0, "ocr", "CORE 150°F", 0.95, "ocr"))
    assert _values(tl, "Is the core temperature for this ham right?") == ["150°F"]


def test_a_value_said_roughly_is_the_exact_figure_the_screen_shows():
    tl = timeline_of(Segment(10.0, 15.0, "speech", "The kettle weighs a little over three kilos when it is full.", 1.0, "asr"),
                     Segment(10.5, 15.0, "ocr", "3.2 kg", 0.95, "ocr"))
    assert _values(tl, "Is the kettle's weight right?") == ["3.2 kg"]


def test_a_scale_said_differently_from_the_screen_stays_two_statements():
    tl = timeline_of(Segment(10.0, 15.0, "speech", "Some guides say 150 degrees Celsius for this ham.", 1.0, "asr"),
                     Segment(10.5, 15.0, "ocr", "CORE 150°F", 0.95, "ocr"))
    assert sorted(_values(tl, "Is the core temperature for this ham right?")) == ["150°C", "150°F"]


def test_a_caption_that_is_only_a_range_is_the_band_the_panel_names():
    tl = timeline_of(Segment(20.0, 26.0, "ocr", "40–60", 0.95, "ocr"), Segment(20.0, 26.0, "ocr", "Belt tension", 0.95, "ocr"),
                     Segment(20.2, 25.0, "speech", "Set the belt so the gauge reads inside the band on screen.", 1.0, "asr"))
    got = [a for a in find_anchors(tl, "Is the belt tension setting on this bandsaw right?") if a.value == "40–60"]
    assert got and "tension" in got[0].heading.lower()


@pytest.mark.parametrize("caption", ["2024-03", "10-4", "07-09"])
def test_a_date_or_code_with_a_dash_is_no_band(caption):
    tl = timeline_of(Segment(20.0, 26.0, "ocr", caption, 0.95, "ocr"),
                     Segment(20.2, 25.0, "speech", "Set the belt so the gauge reads inside the band on screen.", 1.0, "asr"))
    assert all(a.value != caption.replace("-", "–") for a in find_anchors(tl, "Is the belt tension right?"))


def test_a_panel_line_that_opens_with_per_finishes_the_line_above():
    tl = timeline_of(Segment(30.0, 36.0, "ocr", "2 tablets", 0.95, "ocr"), Segment(30.0, 36.0, "ocr", "per 5 L of water", 0.95, "ocr"),
                     Segment(30.2, 35.0, "speech", "Drop the tablets into the tank and wait.", 1.0, "asr"))
    got = find_anchors(tl, "Is the tablet dose for this water tank right?")
    assert [a.text for a in got if "5 L" in a.text] == ["2 tablets per 5 L of water"]


def test_a_line_shown_at_another_time_is_not_joined():
    tl = timeline_of(Segment(30.0, 36.0, "ocr", "2 tablets", 0.95, "ocr"), Segment(40.0, 46.0, "ocr", "per 5 L of water", 0.95, "ocr"))
    assert "per 5 L of water" in [a.text for a in find_anchors(tl, "Is the tablet dose for this water tank right?")]


@pytest.mark.parametrize("text, labels", [
    ("keep the cadence at 85 pedal strokes per minute", ["85 strokes/min"]),
    ("most puppies need 3 meals a day", ["3 meals/day"]),
    ("do 2 sessions every week", ["2×/week"]),  # occasions per period: a frequency
    ("space the seedlings 3 rows a week apart", ["3 rows", "1 week"]),  # a spacing in time, no rate
    ("apply 4 coats, then wait", ["4 coats"]),
])
def test_a_count_per_period_is_a_rate(text, labels):
    assert labels_of(text) == labels


def test_a_rate_written_by_its_initials_is_the_rate_said():
    tl = timeline_of(Segment(20.0, 26.0, "ocr", "Cadence: 90 rpm", 0.95, "ocr"),
                     Segment(20.5, 25.0, "speech", "Hold 90 revs per minute on the climb.", 1.0, "asr"),
                     Segment(30.0, 36.0, "ocr", "Pace 40 bpm", 0.95, "ocr"),
                     Segment(40.0, 46.0, "ocr", "Cadence: 18 spm", 0.95, "ocr"),
                     Segment(40.5, 45.0, "speech", "Keep it at 18 strokes per minute.", 1.0, "asr"))
    got = [a for a in find_anchors(tl, "Is the cadence and stroke rate right?") if "18" in a.value]
    assert len(got) == 1 and got[0].value == "18 strokes/min" and len(got[0].moments) == 2


def test_a_unit_misheard_as_a_counted_thing_is_the_unit_the_screen_shows():
    tl = timeline_of(Segment(24.8, 26.6, "speech", "Inflate the tire to 80 signs.", 1.0, "asr"),
                     Segment(25.0, 30.0, "ocr", "TYRE 80 PSI", 0.95, "ocr"))
    assert _values(tl, "Are the tyre settings right?") == ["80 psi"]
    apart = timeline_of(Segment(4.0, 6.0, "speech", "Fit 80 spokes to the wheel.", 1.0, "asr"),  # said long before it is shown
                        Segment(25.0, 30.0, "ocr", "TYRE 80 PSI", 0.95, "ocr"))
    assert sorted(_values(apart, "Are the wheel settings right?")) == ["80 psi", "80 spokes"]


def test_a_caption_restating_its_figure_in_another_unit_is_one_anchor():
    # "Fridge: 37 °F / 3 °C": 3 °C is 37 °F rounded, no second claim beside the one said
    tl = timeline_of(Segment(11.0, 17.0, "ocr", "Fridge: 37 °F / 3 °C", 0.95, "ocr"),
                     Segment(11.5, 13.7, "speech", "You want the fridge at 37 degrees Fahrenheit.", 1.0, "asr"))
    anchors = find_anchors(tl, "Is this fridge temperature right?")
    assert len(anchors) == 1 and "37°F" in anchors[0].value
    # two figures of one kind for two things stay two anchors
    tl = timeline_of(Segment(11.0, 17.0, "ocr", "Bath 37 °C / Room 24 °C", 0.95, "ocr"))
    assert len(find_anchors(tl, "Is this baby bath advice right?")) == 2
