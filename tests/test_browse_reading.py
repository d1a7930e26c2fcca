"""Reading values and picking videos for the embedded Video-Browser: money read once (values.read_money)
and used by browse.extract, compound durations in the calculator, captions labelled with a derivation
of the asked verb, the Watcher's title-fit signal and possessive channels before hyphenated words.
Pure functions over small hand-written lines: no model, no video."""

from __future__ import annotations

import pytest

from vidsleuth.browse import calculator, checker, extract
from vidsleuth.browse.answers import matches
from vidsleuth.browse.constraints import parse as parse_constraints
from vidsleuth.browse.fusion import CandidateText, fuse
from vidsleuth.values import normalise, read_money


@pytest.mark.parametrize("text,amount,code,shown", [
    ("The tart is €4.50 today", 4.5, "eur", "€4.50"),
    ("Tart 4,50 €", 4.5, "eur", "4,50 €"),
    ("A slice costs four euros fifty.", 4.5, "eur", "4 euros 50"),
    ("Tea £3.20", 3.2, "gbp", "£3.20"),
    ("It was 3.20 pounds at the stall.", 3.2, "gbp", "3.20 pounds"),
    ("Dumplings cost twelve yuan.", 12.0, "cny", "12 yuan"),
    ("A ride is $5", 5.0, "usd", "$5"),
])
def test_read_money_reads_each_written_and_spoken_form_once(text, amount, code, shown):
    got = read_money(text)
    assert len(got) == 1, got
    v = got[0]
    assert v.stated[0] == pytest.approx(amount) and code in v.unit
    assert normalise(text)[v.start:v.end].strip() == shown  # offsets refer to the normalised text


def test_read_money_leaves_weights_and_plain_numbers_alone():
    assert read_money("The loaf weighs 800 grams and costs nothing extra at 8 am.") == []
    assert [v.unit for v in read_money("Cheddar 18 euros per kg")] and "eur" in read_money("Cheddar 18 euros per kg")[0].unit


def lines(vid: str, *rows: tuple[str, str]) -> list[extract.Line]:
    return [extract.Line(vid, kind, text) for kind, text in rows]


def test_extract_prices_come_from_the_one_money_reading():
    found = extract.prices(lines("a", ("speech", "The scones are two pounds eighty."), ("ocr", "Jam 3,10 €"),
                                 ("ocr", "Honey 9/kg")))
    assert [(f.number, f.currency) for f in found][:2] == [("2.80", "£"), ("3.10", "€")]
    # a unit price shown without a currency is a price of its video (which states two currencies here)
    assert found[2].text == "9/kg" and found[2].currency == ""
    one = extract.prices(lines("b", ("ocr", "Plums 4/kg"), ("speech", "Pears are six euros.")))
    assert one[0].text == "€4/kg" and "took its video's" in one[0].note


def test_calculator_reads_a_duration_in_two_units_as_one():
    q = "How much longer did the North Rim hike take than the Cedar Creek hike?"
    t = checker.targets(q)
    op = calculator.operation(q)
    a = calculator.target_value(op, t[0], q, ["Welcome back.", "North Rim · 3h25 min"])
    b = calculator.target_value(op, t[1], q, ["Cedar Creek: 2 hours and 50 minutes"])
    assert a.compound and a.base == 3 * 3600 + 25 * 60 and b.base == 2 * 3600 + 50 * 60
    # a label glued to its value by a colon ("Loop :1h 55 min") is no clock time
    assert [s for _a, _b, s in extract.durations("Cedar Creek :1h 55 min")] == [3600 + 55 * 60]
    answer, calc = calculator.compute(op, {t[0].phrase: a, t[1].phrase: b})
    assert answer == "35 min" and matches(answer, "35 minutes") and "3 h 25 min - 2 h 50 min" in calc
    # two plain times in different units are shown in hours and minutes, not as a fraction of an hour
    c = calculator.target_value(op, t[0], q, ["The North Rim took 2 hours."])
    d = calculator.target_value(op, t[1], q, ["Cedar Creek took 55 minutes."])
    assert calculator.compute(op, {t[0].phrase: c, t[1].phrase: d})[0] == "1 h 5 min"


def test_a_caption_labelled_with_a_derivation_of_the_asked_word_answers():
    rows = lines("v", ("speech", "The film was directed by Mara Lindquest."), ("ocr", "Director: Mara Lindqvist"))
    got = extract.settle("Who directed the short film in Reel Talk's video?", "Mara Lindquest", rows)
    assert got[0] == "Mara Lindqvist" and "labelled" in got[1]
    # a value the question asks for by a noun no kind names ("battery life"), from its labelled caption
    rows = lines("w", ("speech", "I have worn them for three weeks."), ("ocr", "Battery: 9 h (ANC off)"))
    got = extract.settle("What battery life is shown in the review of the Vento earbuds?", "three weeks", rows)
    assert got[0] == "9 h (ANC off)" and matches(got[0], "9 h")
    # a label that names something else is not an answer
    assert extract.labelled("Who directed the film?", lines("x", ("ocr", "Camera: Ode Fahl"))) is None


def test_title_fit_prefers_the_title_the_question_names_over_a_longer_same_topic_title():
    q = "When did the Harbor Ferry start running, according to Port Tales?"
    named = CandidateText("named", "The Harbor Ferry | Port Tales", "", "The harbor ferry started running in 1911.",
                          "The Harbor Ferry")
    longer = CandidateText("longer", "The Harbor Ferry Night Service | Port Tales history", "",
                           "The harbor ferry night service started running in 1958. More ferry history soon.",
                           "The Harbor Ferry Night Service")
    ranked = fuse(q, [longer, named])
    assert ranked[0].video_id == "named" and ranked[0].signals["title"] == 1.0 > ranked[1].signals["title"]


def test_a_possessive_channel_before_a_hyphenated_word_is_a_constraint():
    cons = parse_constraints("How long did the ride take in Lane Notes' cross-town video?")
    assert [c.value for c in cons.items if c.kind == "channel"] == ["Lane Notes"]
    cons = parse_constraints("What is shown in Harbor Lens's behind-the-scenes clip of the regatta?")
    assert [c.value for c in cons.items if c.kind == "channel"] == ["Harbor Lens"]


def test_reviewed_by_is_an_attribution_of_its_target_and_a_channel_constraint():
    q = "Which tent is lighter: the Dome 2 reviewed by Trail Gear, or the Ridge Tarp reviewed by Camp Lab?"
    t = checker.targets(q)
    assert [x.phrase for x in t] == ["Dome 2", "Ridge Tarp"]
    cons = parse_constraints(q)
    assert {c.value for c in cons.items if c.kind == "channel"} == {"Trail Gear", "Camp Lab"}
    assert [c.value for c in cons.scoped(t[1].clause, [x.clause for x in t]).items] == ["Camp Lab"]
