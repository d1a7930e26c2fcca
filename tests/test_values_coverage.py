"""Readings met on a painting, a desk-setup and a kitchen task written by another hand: an amount said
to cover another is one rate ("One litre covers about 10 square metres" is ≈ 10 m²/L), a two-word unit
before "per" keeps both words, "a second coat" is the ordinal, a degree measured from a line of sight
is an angle, "cover" and "thunder" hold no bound word, and bare figures shown together (a chart behind
the presenter) are no anchor."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts
from vidsleuth.types import Segment
from vidsleuth.values import read_values, same_value

from .conftest import labels_of, timeline_of


@pytest.mark.parametrize("text, labels", [
    ("One liter covers about 10 square meters per coat.", ["≈ 10 m²/L"]),
    ("A 20 kg bag treats 400 m² of lawn.", ["20 m²/kg"]),
    ("1 kg of seed is enough for 35 m2", ["35 m²/kg"]),
    ("spreads at 10 square metres per litre", ["10 m²/L"]),
    ("Two coats cover the wall.", ["2 coats"]),  # a count of coats, no rate
    ("2 coats cover 10 m2", ["2 coats", "10 m²"]),  # "cover" is no "over": no bound
])
def test_an_amount_that_covers_another_is_one_rate(text, labels):
    assert labels_of(text) == labels


def test_a_coverage_rate_meets_a_spreading_rate_as_one_quantity():
    said = read_values("One litre covers about 10 square metres.")[0]
    assert same_value(said, read_values("at 10 m² per litre")[0])
    assert not same_value(said, read_values("Spreading rate 12–14 m²/L")[0])  # ≈ 9–11 lies outside 12–14


@pytest.mark.parametrize("text, labels", [
    ("Ever wondered why a second coat sometimes peels off?", []),
    ("one second layer of varnish", []),
    ("wait a second", ["1 s"]),
    ("hold it for a second, then release", ["1 s"]),
    ("a second later it beeps", ["1 s"]),
    ("Never leave a baby in the bath, not even for a second.", []),  # a manner of speaking, no length of time
    ("just a minute, that's not right", []),
])
def test_second_before_a_noun_is_the_ordinal(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, dimension", [
    ("The center of the screen should sit about 15 degrees below your eye line.", "angle"),
    ("15° below eye level", "angle"),
    ("located 15 to 20 degrees below horizontal eye level", "angle"),
    ("set the mast 5 degrees off vertical", "angle"),
    ("it was 5 degrees below zero", "temperature"),
    ("bake at 180 degrees", "temperature"),
])
def test_a_degree_from_a_line_of_sight_is_an_angle(text, dimension):
    (v,) = read_values(text)
    assert v.dimension == dimension


def test_bare_figures_shown_together_are_a_chart_not_an_anchor():
    speech = Segment(12.0, 17.9, "speech", "For the size and resolution, sit about 80 cm away.", 1.0, "asr")
    chart = [Segment(9.0, 19.0, "ocr", t, 0.9, "ocr") for t in ("32", "128", "512", "250000-", "chunkLen")]
    drafts = _drafts(timeline_of(speech, *chart))
    assert [d["moments"][0].kind for d in drafts] == ["speech"]
    # one number shown alone is still the screen's value for what is said meanwhile
    alone = _drafts(timeline_of(Segment(20.0, 26.0, "ocr", "180", 0.95, "ocr"),
                                Segment(20.1, 24.0, "speech", "Now weigh each portion of the mince to this.", 1.0, "asr")))
    assert any(d.get("label") == "180" for d in alone)


@pytest.mark.parametrize("text, labels", [
    ("Test your smoke alarm every week by pressing the button.", ["1 week"]),
    ("water it every other day", ["2 day"]), ("clean it every second week", ["2 week"]), ("beep every second", ["1 s"]),
    ("Clean the tank every third day with vinegar.", ["3 day"]), ("rotate them every fifth month", ["5 month"]),
    ("Every day I dose it to 2 ppm.", ["2 ppm"]),  # a habit that opens the sentence is not the figure
    ("do 2 sessions every week", ["2×/week"]), ("Check it every few weeks", []),
])
def test_a_period_said_without_a_number_is_one_of_it(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, labels", [
    ("Give it a full hour to rise.", ["1 h"]), ("We ended up at half an hour a day rather than the full hour.",
                                                   ["0.5 h", "1 h"]),
    ("Leave it the whole day.", ["1 day"]), ("That is the full story.", []),
])
def test_an_article_and_a_word_of_extent_make_one_unit(text, labels):
    assert labels_of(text) == labels


def test_every_week_contradicts_once_a_month():
    week, month = read_values("Test it every week.")[0], read_values("Press the button once a month.")[0]
    assert week.dimension == month.dimension and not same_value(week, month)


@pytest.mark.parametrize("text, form", [
    # bound words are whole words: "cover" holds no "over", "thunder" no "under"
    ("thunder 5 km away", "point"), ("under 5 km", "upper"), ("温度超过30度", "lower"), ("水温低于5度", "upper"),
    # a limit said as a place not to pass, or closed with "no longer" / "no more", is an upper bound
    ("don't go past four hours or the texture turns mushy.", "upper"),
    ("never leave it beyond 4 hours", "upper"),
    ("Sear for 60 seconds per side, no longer.", "upper"),
    ("4 hours, no more.", "upper"),
    ("it went past 4 hours", "point"),
    ("cook 4 hours, no longer needed here", "point"),
])
def test_a_bound_is_read_as_it_is_said(text, form):
    (v,) = read_values(text)
    assert v.form == form


@pytest.mark.parametrize("text, labels", [
    ("Do this five days a week and take the weekends off.", ["5×/week"]),
    ("Train each major muscle group on 2 to 3 days per week.", ["2–3×/week"]),
    ("Ballistic work: 2 to 3 sessions per week, with at least 48 hours between sessions.", ["2–3×/week", "≥ 48 h"]),
    ("In earlier editions we prescribed 100 swings on five days every week.", ["100 swings", "5×/week"]),
])
def test_occasions_per_period_are_a_frequency(text, labels):
    assert labels_of(text) == labels


def test_a_frequency_of_days_meets_one_of_sessions():
    five, two_three = read_values("five days a week")[0], read_values("2 to 3 sessions per week")[0]
    assert five.comparable(two_three) and not two_three.contains(five)
    assert not five.comparable(read_values("at least 48 hours")[0])  # how often is not how long
