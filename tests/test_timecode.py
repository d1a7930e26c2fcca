"""timecode: the one way a time is written and read back (labels, clocks, W3C media fragments)."""

from __future__ import annotations

import math

import pytest

from vidsleuth.errors import VidsleuthError
from vidsleuth.timecode import clock, fragment, parse, parse_fragment, quantize, seconds_label, span_label


def test_labels_and_spans_in_the_seeds_format():
    assert seconds_label(12.34) == "12.3s" and seconds_label(3, digits=2) == "3.00s"
    assert span_label(1.0, 4.5) == "[1.0s - 4.5s]"


@pytest.mark.parametrize("t, text", [(0, "0:00"), (59.4, "0:59"), (75.2, "1:15"), (3599.99, "59:59"),
                                     (3725, "1:02:05"), (36000, "10:00:00"), (59.996, "1:00")])
def test_clock_reads_whole_seconds_of_the_quantized_time(t, text):
    assert clock(t) == text


def test_a_time_is_rounded_once_so_link_and_clock_agree():
    t = 59.996  # rounds to 60.00: the link says 60 and so does the clock, not 0:59
    assert fragment(t) == "#t=60" and clock(t) == "1:00" and quantize(t) == 60.0
    assert parse_fragment(fragment(12.345678)) == (quantize(12.345678), None)


@pytest.mark.parametrize("start, end, text", [(12.34, None, "#t=12.34"), (12.3, None, "#t=12.3"), (12.0, None, "#t=12"),
                                              (12.3, 15.0, "#t=12.3,15"), (0, 0.5, "#t=0,0.5")])
def test_fragment_writes_npt_seconds(start, end, text):
    assert fragment(start, end) == text
    assert parse_fragment(text) == (start, end)


@pytest.mark.parametrize("text, expected", [
    ("#t=10", (10.0, None)), ("t=10,20", (10.0, 20.0)), ("#t=npt:10,20", (10.0, 20.0)), ("#t=,20", (0.0, 20.0)),
    ("video.mp4#t=0:02:00", (120.0, None)), ("#t=01:05.5", (65.5, None)), ("#xywh=1,2,3,4&t=3.5", (3.5, None)),
    ("#t=1:00:00,1:00:01.25", (3600.0, 3601.25))])
def test_parse_fragment_follows_the_media_fragments_grammar(text, expected):
    assert parse_fragment(text) == expected


@pytest.mark.parametrize("bad", ["#t=", "#t=abc", "#t=10,5", "#t=5,5", "#t=1:75", "#t=-3", "#t=smpte:00:00:01",
                                 "#x=3", "#t=1&t=2", "#t=10,", "#t=nan", "#t=1e3"])
def test_parse_fragment_refuses_what_the_grammar_does_not_allow(bad):
    with pytest.raises(VidsleuthError, match="media-fragment|temporal"):
        parse_fragment(bad)


@pytest.mark.parametrize("bad", [-1, math.nan, math.inf, True, "12"])
def test_no_time_is_written_from_a_value_that_is_not_one(bad):
    for fn in (clock, fragment, quantize):
        with pytest.raises(VidsleuthError, match="not a time"):
            fn(bad)
    with pytest.raises(VidsleuthError, match="time span"):
        fragment(5.0, 5.0)


@pytest.mark.parametrize("text, seconds", [("12.3", 12.3), ("12.3s", 12.3), ("1:15", 75.0), ("01:02:05.5", 3725.5),
                                           ("#t=12.3", 12.3), ("#t=12.3,15", 12.3), ("0:01,5", 1.5)])
def test_parse_reads_the_forms_people_write(text, seconds):
    assert parse(text) == pytest.approx(seconds)


def test_parse_refuses_garbage():
    with pytest.raises(VidsleuthError, match="not a time"):
        parse("soon")
