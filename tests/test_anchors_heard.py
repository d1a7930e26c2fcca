"""Anchors as a viewer hears and reads them: a sign said as a word, "half" as a share, 两 before a
unit, a Chinese rate that names its denominator first, a count with an adjective, a number that
names a step, a duration in two units, a price panel whose currency sign the recogniser lost, and a
caption that restates a number the narration says without its unit. Phrasings written here."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts, find_anchors
from vidsleuth.types import Segment
from vidsleuth.values import read_values, same_value

from .conftest import labels_of, timeline_of


@pytest.mark.parametrize("text, labels", [
    ("store the seeds at minus eighteen degrees Celsius", ["-18°C"]),
    ("the gel sets at negative four degrees", ["-4°C"]),
    ("ten minus three is seven", []),  # arithmetic: no sign, no temperature
])
def test_a_sign_said_as_a_word_is_a_sign(text, labels):
    assert labels_of(text) == labels


def test_half_as_a_share_of_a_whole_is_fifty_percent():
    assert labels_of("fill the tank to half before the trip") == ["50%"]
    assert labels_of("keep the pool at about half full") == ["≈ 50%"]
    assert labels_of("cover the pan for the first half, then uncover it") == []
    assert labels_of("simmer for half an hour") == ["0.5 h"]
    assert labels_of("fold in half the sugar") == []


def test_topping_up_to_a_level_is_a_target_not_a_ceiling():
    assert read_values("top it up to 75% before storing")[0].form == "point"
    assert read_values("it holds up to 75 litres")[0].form == "upper"


@pytest.mark.parametrize("text, labels", [
    ("每两周修剪一次", ["2 week"]),  # cn2an leaves 两 before 周
    ("每次喷两遍", ["2 遍"]),
    ("两边对齐", []),  # 两 before a noun is no numeral here
])
def test_liang_before_a_unit_is_two(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text, label", [
    ("每升水加三克小苏打", "3 g/L"),
    ("每小时消耗八十克燃料", "80 g/h"),
    ("每分钟出水一点五升", "1.5 L/min"),
])
def test_a_chinese_rate_names_its_denominator_first(text, label):
    assert label in labels_of(text)


def test_a_count_may_carry_an_adjective_and_a_step_number_counts_nothing():
    assert labels_of("the pads last about 400 short rides.") == ["≈ 400 rides"]
    assert labels_of("brush on 2 thin layers, then wait") == ["2 layers"]
    assert labels_of("Step 4 rinse") == []
    assert labels_of("Tip 2 sharpen") == []
    assert labels_of("add 1 clove") == ["1 clove"]  # one of a thing is singular


def test_a_duration_in_two_units_is_one_value():
    (v,) = read_values("the kettle took 3 min 20 s to boil")
    assert abs(v.lo - 200.0) < 1e-6 and v.hi == v.lo
    (w,) = read_values("roast for 1 hour and 15 minutes")
    assert abs(w.lo - 4500.0) < 1e-6
    assert len(read_values("rest 15 minutes and then bake 1 hour")) == 2
    assert len(read_values("15 minutes and 1 hour")) == 2  # the smaller first: two values


def test_a_price_whose_currency_is_unsaid_meets_any_currency():
    unsaid = read_values("¤24.50")
    assert {v.dimension for v in unsaid} == {"money:usd", "money:eur", "money:gbp", "money:cny"}
    euro = read_values("now €24.50")[0]
    assert any(same_value(u, euro) for u in unsaid)
    assert not any(same_value(u, read_values("€26.00")[0]) for u in unsaid)


def test_a_bare_price_caption_is_a_price_anchor():
    tl = timeline_of(*[
        Segment(0.0, 8.0, "ocr", "Kettle K3", 0.95, "ocr"),
        Segment(0.0, 8.0, "ocr", "39.95", 0.95, "ocr"),
        Segment(0.5, 7.5, "speech", "Here is the kettle I bought last week, and it heats a litre fast.", 1.0, "asr")])
    anchors = find_anchors(tl, "Is the kettle's price right?")
    price = [a for a in anchors if "39.95" in a.value]
    assert len(price) == 1 and price[0].value == "¤39.95" and price[0].heading == "Price"
    labelled = find_anchors(timeline_of(*[Segment(0.0, 8.0, "ocr", "Now only 12.49!", 0.95, "ocr")]), "price?")
    assert [a.value for a in labelled] == ["¤12.49"]
    assert not any("39.95" in a.value for a in find_anchors(timeline_of(*[
        Segment(0.0, 8.0, "ocr", "Model 39.95.2", 0.95, "ocr")]), "price?"))


def test_a_caption_restating_a_spoken_number_is_that_sentences_moment():
    tl = timeline_of(*[
        Segment(10.0, 16.0, "speech", "Mix 200 millilitres of milk into 300 of rye flour.", 1.0, "asr"),
        Segment(10.0, 18.0, "ocr", "300 g rye flour", 0.95, "ocr")])
    drafts = _drafts(tl)
    assert len(drafts) == 1
    assert [m.kind for m in drafts[0]["moments"]] == ["speech", "ocr"]
    # a caption naming another thing stays an anchor of its own
    other = timeline_of(*[
        Segment(10.0, 16.0, "speech", "Mix 200 millilitres of milk into 300 of rye flour.", 1.0, "asr"),
        Segment(10.0, 18.0, "ocr", "300 g sugar", 0.95, "ocr")])
    assert len(_drafts(other)) == 2


def test_a_chinese_caption_of_two_clauses_of_two_kinds_is_two_statements():
    tl = timeline_of(*[Segment(5.0, 12.0, "ocr", "每三天换一次水，每升水放两克盐。", 0.95, "ocr")])
    assert [[v.label() for v in d["q"]] for d in _drafts(tl)] == [["3 day"], ["2 g/L"]]
    one = timeline_of(*[Segment(5.0, 12.0, "ocr", "每三天换一次水，换到瓶口为止。", 0.95, "ocr")])
    assert len(_drafts(one)) == 1


@pytest.mark.parametrize("text, labels", [
    ("it costs nine pounds forty nine", ["£9.49"]),  # cents said after the currency word
    ("I paid thirty dollars fifty for it", ["$30.50"]),
    ("I paid forty pounds for the pump", ["£40"]),  # pounds after a word of paying are money
    ("the sack weighs forty pounds", ["40 lb"]),
    ("a roast of three pounds twelve ounces", ["3.75 lb"]),  # a weight in two units, not £3.12
    ("it sets at eight below zero", ["-8°C"]),
    ("pour in a litre and a half of stock", ["1.5 L"]),
    ("a pint of cold water", ["1 pint"]),
    ("fill 3 gallons", ["3 gallon"]),
])
def test_spoken_prices_signs_and_halves(text, labels):
    assert labels_of(text) == labels


@pytest.mark.parametrize("text", [
    "Want your kettle to last for years?",  # a hook put to the viewer
    "Ever wondered why your rice turns out sticky?",
    "Who doesn't love a crisp pizza base?",
    "Good evening, gardeners! Ready for some tomato talk?",
    "Howdy paddlers, how are we all doing?",
])
def test_hooks_and_greetings_are_no_anchors(text):
    tl = timeline_of(*[Segment(1.0, 4.0, "speech", text, 1.0, "asr")])
    assert _drafts(tl) == []


@pytest.mark.parametrize("text", [
    "So how long does a kayak paddle blade really last?",
    "Should you store a tomato seedling tray in full sun?",
])
def test_a_question_about_the_thing_is_an_open_question(text):
    tl = timeline_of(*[Segment(1.0, 4.0, "speech", text, 1.0, "asr")])
    assert [d["kind"] for d in _drafts(tl)] == ["open_question"]


@pytest.mark.parametrize("text, labels", [
    ("夜间温度不宜低于十二℃", ["≥ 12°C"]),  # advice not to fall below: a lower bound
    ("水温不要超过四十℃", ["≤ 40°C"]),
    ("最低可在零下3℃使用", ["-3°C"]),  # 零下 before digits is a sign, not 0
    ("浸泡两个半小时", ["2.5 h"]),
    ("一包卖二十九块九毛", ["¥29.90"]),  # yuan and jiao
])
def test_chinese_bounds_signs_halves_and_prices(text, labels):
    assert labels_of(text) == labels


def test_a_bare_on_screen_value_is_named_by_the_panel_shown_with_it():
    tl = timeline_of(*[
        Segment(10.0, 20.0, "ocr", "1,800 rpm", 0.95, "ocr"),
        Segment(10.0, 20.0, "ocr", "Spin speed", 0.95, "ocr"),
        Segment(10.0, 20.0, "ocr", "Washer W2", 0.95, "ocr"),  # a model name with a number names no property
        Segment(11.0, 15.0, "speech", "It is plenty for two people and a dog.", 1.0, "asr")])
    (a,) = [a for a in find_anchors(tl, "Is the spin speed right?") if "rpm" in a.value]
    assert "spin" in a.heading.lower() and "people" not in a.heading.lower()


@pytest.mark.parametrize("text, heading", [
    ("秋冬每十天浇一次水。", "秋冬浇水间隔"),  # a frequency measures the interval of the action after it
    ("每三年换一次土。", "换土间隔"),
])
def test_a_chinese_frequency_is_headed_by_its_action(text, heading):
    tl = timeline_of(*[Segment(2.0, 8.0, "ocr", text, 0.95, "ocr")])
    assert [a.heading for a in find_anchors(tl, "浇水和换土的数字对吗？")] == [heading]


def test_a_teen_heard_as_its_tens_takes_the_screens_figure():
    tl = timeline_of(*[
        Segment(20.0, 24.0, "speech", "And the battery lasts up to forty days on one charge.", 1.0, "asr"),
        Segment(20.5, 25.0, "ocr", "14 days per charge", 0.95, "ocr")])
    (d,) = _drafts(tl)  # one statement, said and shown
    assert [v.label() for v in d["q"]] == ["14 day"] and "14 days" in d["text"]
    assert all("40" not in m.text for m in d["moments"])  # no later stage reads the misheard figure
    # a tens figure shown beside another thing's teen, or in another unit, is no mishearing
    apart = timeline_of(*[
        Segment(20.0, 24.0, "speech", "Charge it for forty minutes.", 1.0, "asr"),
        Segment(20.5, 25.0, "ocr", "14 days per charge", 0.95, "ocr")])
    assert sorted(v.label() for d in _drafts(apart) for v in d["q"]) == ["14 day", "40 min"]


def test_a_pronoun_takes_its_thing_from_the_sentence_before():
    tl = timeline_of(*[
        Segment(2.0, 6.0, "speech", "Mould grows when relative humidity stays above 70 percent.", 1.0, "asr"),
        Segment(6.0, 10.0, "speech", "So set the dehumidifier to keep it around 50 percent.", 1.0, "asr"),
        Segment(10.0, 14.0, "speech", "Empty the tank every eight hours.", 1.0, "asr")])
    anchors = {a.value: a for a in find_anchors(tl, "Is the basement humidity advice right?")}
    assert "humid" in anchors["≈ 50%"].subject  # "it" is the humidity, not the dehumidifier alone
    assert "humid" not in anchors["8 h"].subject  # no pronoun: its own words only
