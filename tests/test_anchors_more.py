"""Anchors and values on cases written from general principles (hA): a fraction of a unit said with
an ordinal ("an eighth of an inch"), and the classes added after it in this file."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts, find_anchors  # noqa: F401 - used by later cases
from vidsleuth.types import Segment, Timeline, VideoInfo  # noqa: F401
from vidsleuth.values import read_values

_INFO = VideoInfo("x.mp4", 60.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x")


def _labels(text: str) -> list[str]:
    return [v.label() for v in read_values(text)]


@pytest.mark.parametrize("text, labels", [
    ("leave a gap of an eighth of an inch around the panel", ["0.125 inch"]),
    ("stir in two thirds of a cup of cocoa", ["0.667 cup"]),
    ("plane it down by three sixteenths of an inch", ["0.188 inch"]),
    ("pour one and a third cups of stock", ["1.33 cup"]),
    ("a fifth of a gallon of vinegar", ["0.2 gallon"]),
])
def test_a_fraction_of_a_unit_said_with_an_ordinal_is_its_share(text, labels):
    assert _labels(text) == labels


@pytest.mark.parametrize("text", ["the eighth step is sanding", "the third cup goes in last", "on the fourth of May"])
def test_an_ordinal_that_names_an_item_is_no_fraction(text):
    assert _labels(text) == []
