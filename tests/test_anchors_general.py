"""Anchors and values as an experienced viewer reads them, on cases written from the principle:
an extent said with an article and an adjective ("a good quarter of an hour", "a full day"), an
article after a bound or an approximation ("about a metre"), a frequency of once per period
("once a week"), a Chinese half (半年, 一年半), an ordinal (第三步) that counts nothing, plural
nouns as a reader writes them, a number shown alone on screen (a price whose currency sign was
lost when the narration speaks of the price, else a value whose unit the screen left unstated, and
never a year), and one value said twice in one sentence, which is one anchor."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts, find_anchors
from vidsleuth.types import Segment

from .conftest import labels_of, timeline_of


@pytest.mark.parametrize("text, labels", [
    ("let the glue cure for a good quarter of an hour", ["0.25 h"]),
    ("simmer three quarters of an hour", ["0.75 h"]),
    ("rest the brisket for a full day before slicing", ["1 day"]),
    ("cure it for a whole week", ["1 week"]),
    ("mix for one good minute", ["1 min"]),
])
def test_an_extent_said_with_an_article_and_an_adjective_is_one_unit(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, labels", [
    ("leave about a metre between the posts", ["≈ 1 m"]),
    ("the shelf stands under a metre tall", ["≤ 1 m"]),
    ("keep at least a litre in reserve", ["≥ 1 L"]),
    ("pour a litre into the bucket", []),  # an article alone before a unit that is not a time stays a word
    ("grab a cup like this one", []),
])
def test_an_article_after_a_bound_or_approximation_is_one(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, labels", [
    ("descale the boiler once a month", ["1 month"]),
    ("service it once per year", ["1 year"]),
    ("it happens once in a while", []),
    ("brush twice a day", ["2×/day"]),  # a frequency (values.frequency), compared with a period as the one it implies
])
def test_once_a_period_states_the_period_as_its_interval(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, labels", [
    ("每半年清洗一次滤网", ["0.5 year"]),
    ("保修一年半", ["1.5 year"]),
    ("发酵三天半", ["3.5 day"]),
    ("大约一个半月", ["≈ 1.5 month"]),
    ("连续两个礼拜", ["2 week"]),
    ("大半年没用过", []),  # 大半 is "most of", no half of a unit
])
def test_a_chinese_half_is_half_a_unit(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, labels", [
    ("第三步·打磨", []),
    ("从第5天开始浇水", []),
    ("每天走八千步", ["8000 steps"]),  # steps walked are a count
])
def test_an_ordinal_counts_nothing(text, labels):
    assert labels_of(text) == labels


def test_plural_nouns_are_written_as_a_reader_writes_them():
    assert labels_of("pack 3 batteries,") == ["3 batteries"]
    assert labels_of("ship 2 boxes.") == ["2 boxes"]
    assert labels_of("apply 4 coats.") == ["4 coats"]


def test_a_number_shown_alone_while_its_price_is_spoken_of_is_a_price():
    tl = timeline_of(Segment(10.0, 18.0, "ocr", "1,249", 0.95, "ocr"),
                     Segment(10.2, 14.0, "speech", "So how much does the Orbit grill cost? This is what I paid.", 1.0, "asr"))
    price = [d for d in _drafts(tl) if d.get("price")]
    assert [d["text"] for d in price] == ["¤1249"]
    assert "$1249" in [v.label() for v in price[0]["q"]]


def test_a_number_shown_alone_with_no_unit_is_a_value_named_by_what_is_said():
    tl = timeline_of(Segment(20.0, 26.0, "ocr", "180", 0.95, "ocr"), Segment(20.0, 26.0, "ocr", "Portion size", 0.95, "ocr"),
                     Segment(20.1, 24.0, "speech", "Now weigh each portion of the mince to this.", 1.0, "asr"))
    got = find_anchors(tl, "Check the portion size and the cooking time.")
    shown = [a for a in got if a.moments[0].kind == "ocr" and a.value == "180"]
    assert shown and not any(a.value.startswith("¤") for a in shown)
    assert "portion" in shown[0].heading.lower()


@pytest.mark.parametrize("caption", ["2024", "7", "00", "07"])
def test_a_year_or_a_counter_shown_alone_is_no_anchor(caption):
    tl = timeline_of(Segment(0.0, 6.0, "ocr", caption, 0.95, "ocr"),
                     Segment(0.2, 5.0, "speech", "Here is the price of the new model.", 1.0, "asr"))
    assert not [d for d in _drafts(tl) if d["moments"][0].kind == "ocr"]


def test_one_value_said_twice_in_one_sentence_is_one_anchor():
    said = ("Now leave the resin alone for a good quarter of an hour, that is about 15 minutes, "
            "so that it can set hard.")
    tl = timeline_of(Segment(30.0, 38.0, "speech", said, 1.0, "asr"))
    valued = [d for d in _drafts(tl) if d["q"]]
    assert len(valued) == 1 and len(valued[0]["moments"]) == 2


@pytest.mark.parametrize("text, labels", [
    ("the fan moves 250 m³/h on its top setting", ["250 m³/h"]),
    ("order a 6 cubic metre skip", ["6 m³"]),
    ("fix the bracket with four M3 bolts", []),  # a metric screw size, not a volume
])
def test_a_cubic_metre_is_a_volume(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, label", [
    ("每一公斤面粉，用二十克盐", "20 g/kg"),  # the "one" of the denominator is no amount of its own
    ("每一升水加五克糖", "5 g/L"),
])
def test_a_chinese_rate_per_one_unit_is_a_rate(text, label):
    assert labels_of(text) == [label]


@pytest.mark.parametrize("text, labels", [
    ("I keep it at 7 to 3% moisture", []),  # a range runs upwards: downwards is a misheard number, no value
    ("keep it at 3 to 7% moisture", ["3–7%"]),
])
def test_a_range_runs_upwards(text, labels):
    assert labels_of(text) == labels
    assert labels_of("the price fell from 9 to 7 dollars")  # a change said with "from" is still read


def test_a_caption_joining_a_sentence_lends_it_the_words_shown_with_it():
    tl = timeline_of(Segment(40.0, 48.0, "ocr", "190 °C", 0.95, "ocr"), Segment(40.0, 48.0, "ocr", "Oven setting", 0.95, "ocr"),
                     Segment(40.5, 44.0, "speech", "Mine runs at 190 degrees with the fan on.", 1.0, "asr"))
    said = [d for d in _drafts(tl) if d["moments"][0].kind == "speech" and d["q"]]
    assert len(said) == 1 and len(said[0]["moments"]) == 2 and "Oven setting" in said[0]["about"]


@pytest.mark.parametrize("text, labels", [
    ("the membrane has 0.2 µm pores", ["0.2 µm"]),
    ("pores of 0.5 microns.", ["0.5 µm"]),
    ("每天耗电一点二千瓦时", ["1.2 kWh"]),  # 千瓦时 is energy, not the power 千瓦
    ("额定功率两千瓦", ["2 kW"]),
    ("service it every 20\u202f000 km", ["20,000 km"]),  # a thin space between digit groups is a thousands separator
])
def test_micrometres_kilowatt_hours_and_spaced_thousands(text, labels):
    assert labels_of(text) == labels


def test_the_model_the_request_names_is_no_anchor_of_its_own():
    tl = timeline_of(Segment(0.0, 6.0, "ocr", "Brightway KX-450 使用说明", 0.95, "ocr"),
                     Segment(10.0, 16.0, "ocr", "滤芯 FT-22", 0.95, "ocr"))
    got = {a.value for a in find_anchors(tl, "我买的是Brightway KX-450净水器，视频里的滤芯型号对吗？")}
    assert "KX-450" not in got and "FT-22" in got  # the product itself is the subject; a part it names is a claim


def test_a_leading_condition_stays_with_the_claim_it_qualifies():
    said = "Hey folks, quick one today. When the dough is left at room temperature, it doubles in about four hours."
    tl = timeline_of(Segment(2.0, 9.0, "speech", said, 1.0, "asr"))
    texts = [d["text"] for d in _drafts(tl) if d["q"]]
    assert texts == ["When the dough is left at room temperature, it doubles in about four hours."]
    # an instruction after a value's own clause is still a clause of its own
    tl = timeline_of(Segment(2.0, 9.0, "speech", "Set the oven to 220 degrees, then bake the loaf for about forty minutes.", 1.0, "asr"))
    assert len([d for d in _drafts(tl) if d["q"]]) == 2


def test_a_test_patterns_clock_and_frame_count_are_no_anchors():
    """testsrc2 behind a shot shows a running clock ("9:06.920") and a frame count ("173"): neither is a claim
    (fresh52, our own output: both had become anchors)."""
    tl = timeline_of(Segment(26.0, 27.0, "ocr", "9:06.920", 0.95, "ocr"), Segment(26.0, 27.0, "ocr", "173", 0.95, "ocr"),
                     Segment(26.0, 30.0, "ocr", "No flying for 18 h after repetitive dives", 0.95, "ocr"))
    got = find_anchors(tl, "Are these dive rules right?")
    assert [a.value for a in got] == ["18 h"]
