"""Anchors as a development set by another hand said them (a tyre-pressure, an espresso and a car-battery video):
a question that holds a number asserts nothing; a leading case ("For a rider of around 75 kilos on 28 mm tyres,")
stays with the claim it qualifies; a spoken value joins the caption that shows it, not the caption beside it
whose value is merely close."""

from __future__ import annotations

from vidsleuth.report.anchors import _drafts, _kind
from vidsleuth.types import Segment

from .conftest import timeline_of


def test_a_question_holding_a_number_is_no_claim():
    assert _kind("Why does your espresso taste sour one day and bitter the next?") == "aside"
    assert _kind("Your espresso tastes sour after one day.") == "parameter"


def test_a_leading_case_stays_with_the_claim_it_qualifies():
    said = "For a rider of around 75 kilos on 28-millimeter road tires, we run about 80 PSI in the rear."
    drafts = _drafts(timeline_of(Segment(12.0, 19.0, "speech", said, 1.0, "asr")))
    assert [d["text"] for d in drafts] == [said]
    assert "psi" in {str(v.unit) for v in drafts[0]["q"]}


def test_a_spoken_value_joins_the_caption_that_shows_it():
    tl = timeline_of(Segment(12.0, 20.0, "ocr", "FRONT 75 psi", 0.95, "ocr"),
                     Segment(12.0, 20.0, "ocr", "REAR 80 psi", 0.95, "ocr"),
                     Segment(15.0, 18.0, "speech", "We run about 80 PSI in the rear.", 1.0, "asr"))
    spoken = next(d for d in _drafts(tl) if d["moments"][0].kind == "speech")
    assert [v.stated[0] for v in spoken["q"]] == [80.0]
    assert [m.text for m in spoken["moments"] if m.kind == "ocr"] == ["REAR 80 psi"]


def test_a_leading_case_joins_one_clause_only():
    said = "With full synthetic oil, I change it every 5,000 miles, or every six months, whichever comes first."
    drafts = _drafts(timeline_of(Segment(11.0, 18.0, "speech", said, 1.0, "asr")))
    assert [[v.label() for v in d["q"]] for d in drafts if d["q"]] == [["5000 mile"], ["6 month"]]
