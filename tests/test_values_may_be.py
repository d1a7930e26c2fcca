"""A value whose words leave its quantity open (a bare degree, an ounce, a frequency) reaches the
anchors of every quantity it may be: the branches ask ``kinds_of`` before they compare values, so
they filter as ``values.aligned`` compares."""

from __future__ import annotations

import pytest

from vidsleuth.report.branches import rank
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Anchor, Moment, Source
from vidsleuth.values import kinds_of, read_values


@pytest.mark.parametrize("text, expected", [
    ("Panels at 35° run hotter in summer", {"temperature", "angle"}),  # heat words, yet no scale said
    ("bake at 180 °C", {"temperature"}),
    ("tilt the panels to 35 degrees", {"angle"}),
    ("about 1 oz of sunscreen", {"mass", "volume"}),
    ("250 g of flour", {"mass"}),
    ("clean them twice a year", {"frequency", "time"}),
    ("every 6 months", {"time"}),
])
def test_kinds_a_value_may_be(text, expected):
    assert kinds_of(read_values(text)[0]) == expected


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 3.0, "speech", text),))


def _page(title: str, *sentences: str) -> list[Passage]:
    source = Source(id="d1", kind="document", title=title, location=f"/x/{title[:5]}.html")
    return [Passage(source, s, "text") for s in sentences]


def test_a_bare_degree_beside_heat_words_still_reaches_an_angle_anchor():
    tilt = _anchor("Tilt the solar panels to 35 degrees.")
    got = rank([tilt], _page("Solar panel tilt guide", "Panels at 35° run hotter in summer, so some owners lower them."),
               title="Solar panel tilt")
    assert [c.excerpt for c in got] == ["Panels at 35° run hotter in summer, so some owners lower them."]


def test_an_ounce_reaches_a_volume_anchor_and_a_scaled_temperature_does_not_reach_an_angle():
    dose = _anchor("Use 30 ml of sunscreen for the whole body.")
    got = rank([dose], _page("Sunscreen amount", "Dermatologists say an adult needs about 1 oz of sunscreen for the body."),
               title="Sunscreen")
    assert len(got) == 1
    tilt = _anchor("Tilt the solar panels to 35 degrees.")
    assert not rank([tilt], _page("Solar panel heat", "Panels reach 35 °C on a spring day."), title="Solar panel tilt")
