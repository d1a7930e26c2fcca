"""Unit kinds and phrasings the second held-out set showed the quantity layer missing: a unit
written before its number (pH), parts per million and heart rates, bound symbols, negated
comparatives, hedged bounds, "is the minimum", small numbers opening a range, Chinese measure
words and adjacent numerals, and numbers that count nothing (a model name, a participle)."""

from __future__ import annotations

import math

import pytest

from vidsleuth.values import normalise, read_values

INF = math.inf


@pytest.mark.parametrize("text, dimension, form, lo, hi", [
    ("pH 7.0", "acidity", "point", 7, 7),
    ("Aim for a pH of about 7, neutral water", "acidity", "approx", 6.3, 7.7),
    ("Keep the pH between 6.0 and 7.5", "acidity", "range", 6.0, 7.5),
    ("Nitrate < 40 ppm", "concentration", "upper", -INF, 0.04),
    ("keep nitrate below 20 ppm", "concentration", "upper", -INF, 0.02),
    ("Easy runs ≈ 140 bpm", "frequency", "approx", 126 / 60, 154 / 60),
    ("Never increase your weekly distance by more than 10%.", "ratio", "upper", -INF, 0.10),
    ("I never go above 92 °C for anything", "temperature", "upper", -INF, 92),
    ("Don't let it drop below 18 °C.", "temperature", "lower", 18, INF),
    ("no more than 2 hours", "time", "upper", -INF, 7200),
    ("Keep weekly mileage increases under about 10 percent", "ratio", "upper", -INF, 0.10),
    ("Four weeks is the minimum before fish go in", "time", "lower", 4 * 604800, INF),
    ("Check it every two to three months", "time", "range", 2 * 2629746, 3 * 2629746),
    ("可冲泡 3 次", "count:次", "point", 3, 3),
    ("好的绿茶泡五六次都还有味道", "count:次", "range", 5, 6),
])
def test_a_stated_value_is_an_interval(text, dimension, form, lo, hi):
    (v,) = [x for x in read_values(text) if x.dimension == dimension]
    assert v.form == form, (text, v)
    for got, want in ((v.lo, lo), (v.hi, hi)):
        assert got == want if math.isinf(want) else got == pytest.approx(want, rel=2e-3), (text, v)


def test_labels_of_the_new_kinds():
    assert read_values("pH 7.0")[0].label() == "pH 7"
    assert read_values("40 ppm")[0].label() == "40 ppm"
    assert read_values("140 bpm")[0].label() == "140 bpm"
    assert read_values("冲泡3次")[0].label() == "3 次"


@pytest.mark.parametrize("text", [
    "this is the Helio Vault 13 home battery",  # a number in a name counts no homes
    "8,900 installed",  # a participle is not a counted noun
    "A cup like this has roughly the caffeine of a strong espresso.",  # "a cup" without "of" is no volume
])
def test_what_counts_nothing_is_not_a_value(text):
    assert read_values(text) == [], (text, read_values(text))


def test_counts_and_articles_that_are_values():
    assert [v.label() for v in read_values("Apply 3 coats, then wait an hour, then add a cup of flour")] == [
        "3 coats", "1 h", "1 cup"]
    assert "1 hour" in normalise("rest it for an hour")


def test_a_number_joined_to_its_unit_as_an_adjective():
    assert [v.label() for v in read_values("a three-week taper is too long")] == ["3 week"]
    assert [v.label() for v in read_values("it comes with a ten-year warranty")] == ["10 year"]
    assert read_values("a one-off: a tubeless-ready road tyre, 28-622.") == []
