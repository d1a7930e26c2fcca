"""The asked value read from the timeline (browse.extract), the line-level cue signal of the fused
Watcher, multi-video targets with attribution clauses, per-target constraints and prices in the
calculator. Pure functions over small hand-written timelines: no model, no video."""

from __future__ import annotations

import pytest

from vidsleuth.browse import calculator, checker, extract
from vidsleuth.browse.answers import matches
from vidsleuth.browse.constraints import parse as parse_constraints
from vidsleuth.browse.fusion import CandidateText, fuse


def lines(vid: str, *rows: tuple[str, str]) -> list[extract.Line]:
    return [extract.Line(vid, kind, text) for kind, text in rows]


@pytest.mark.parametrize("question,rows,model,truth", [
    # the asked kind is on screen, the model answered with the remark next to it
    ("What time does the ferry to Lindholm leave, according to Coast Hops' video?",
     [("speech", "The ferry leaves from the north pier."), ("ocr", "Departs 07:15"), ("ocr", "00:00:03.520")],
     "from the north pier", "07:15"),
    # a unit the model dropped comes back with the value
    ("What battery capacity does Gadget Desk's Orbit 5 review show?",
     [("speech", "The Orbit 5 lasted two days."), ("ocr", "Battery 3,900 mAh")], "3,900", "3900 mAh"),
    ("How often should the fern be misted, according to Plant Pal?",
     [("speech", "Mist it about once every three days in summer.")], "3", "3 days"),
    ("What tempo does the teacher suggest?", [("ocr", "Bars 1-8"), ("speech", "Begin at 72 beats per minute.")],
     "72", "72 beats per minute"),
    # the line that names the asked thing, from the stated modality, among values of one kind
    ("In Trail Log's video, how long does the narrator say the descent took?",
     [("ocr", "Ascent 2 h 10"), ("speech", "The descent took us one hour and 40 minutes.")], "", "1 hour and 40 minutes"),
    ("How far apart does she plant the beans?",
     [("ocr", "Elevation 300 m"), ("speech", "Plant them 20 cm apart in a sunny bed.")], "300 m", "20 cm"),
    ("What torque does the mechanic say to use on the stem bolts?",
     [("speech", "Tighten the stem bolts to five newton metres.")], "5", "5 newton metres"),
    # a count names its things; a year at a sentence's end; "how long is the trail" is a length
    ("How many stalls does the market have today?",
     [("speech", "The market opened in 1868."), ("speech", "Today there are more than sixty stalls.")], "1868", "60 stalls"),
    ("When was the lighthouse first lit?", [("ocr", "00:00:03.520"), ("speech", "It was first lit in 1859.")], "", "1859"),
    ("How long is the coastal trail?", [("speech", "The trail is 12 km long and takes about four hours.")], "", "12 km"),
])
def test_settle_reads_the_asked_kind_with_its_unit(question, rows, model, truth):
    got = extract.settle(question, model, lines("v", *rows))
    assert got is not None and matches(got[0], truth), got
    assert got[1].startswith("extract: the question asks for a")


def test_prices_read_currency_from_ocr_confusions_and_from_their_own_video():
    q = "What price is shown for the walnut loaf in Crumb Road's video?"
    rows = lines("a", ("ocr", "Country loaf E4.90"), ("ocr", "Walnut loaf 6.80"))
    got = extract.settle(q, "Walnut loaf", rows)
    assert got[0] == "€6.80" and "took its video's '€'" in got[1]
    got = extract.settle("What price does the menu show for the tea?", None, lines("b", ("ocr", "TEA f2.10")))
    assert got[0] == "£2.10" and "read as '£'" in got[1]
    # another video's currency is not this video's: a bare price stays bare
    two = lines("c", ("ocr", "RYE LOAF 4.50")) + lines("d", ("speech", "It costs nine euros."))
    assert [f.text for f in extract.prices(two)] == ["4.50", "9 euros"]
    # "12 euros 50" (as a recogniser writes a spoken price) is one price
    assert extract.prices(lines("e", ("speech", "An adult ticket is twelve euros fifty.")))[0].number == "12.50"


def test_no_kind_no_extraction_and_labelled_captions_answer_names():
    assert extract.asked("What is the name of the red panda?") == []
    assert extract.settle("What is the name of the red panda?", "Miso", lines("v", ("ocr", "NEW ARRIVAL"))) is None
    got = extract.settle("Which architect designed that bridge?", "Anna Berk",
                         lines("v", ("speech", "It was designed by the architect Anna Burke."), ("ocr", "Architect: Anna Berg")))
    assert got[0] == "Anna Berg"
    # a cue sentence before the asking one does not choose the kind
    assert extract.asked("A vlogger says the shop used to be a fire station. What price is shown for the rye loaf?") == [
        "money"]


def test_fused_watcher_prefers_the_candidate_that_says_the_cue_in_one_sentence():
    q = ("In a coastal cycling video, the rider says the group stopped for lunch at a cafe next to a lighthouse. "
         "How far did they ride in total?")
    right = CandidateText("right", "Coastal ride | Two Wheels", "", "The wind was behind us.\nWe stopped for lunch at a "
                          "little cafe right next to the lighthouse.\nIn total, we rode 84 kilometers.")
    wrong = CandidateText("wrong", "Coastal ride with the group | Saddle", "", "We rolled out with a small group.\nWe "
                          "stopped for lunch at a vineyard.\nThe lighthouse road was closed, next time.\n62 kilometers in "
                          "total and a happy group riding home.")
    ranked = fuse(q, [wrong, right])
    assert ranked[0].video_id == "right" and ranked[0].signals["lex_line"] > ranked[1].signals["lex_line"]


def test_targets_keep_attribution_clauses_and_constraints_are_scoped_per_target():
    q = ("How many years passed between the opening of Marlow Street Market, as told by Market Stories, and the "
         "opening of the Fenwick Arcade in City Rambles' video?")
    t = checker.targets(q)
    assert [x.phrase for x in t] == ["opening of Marlow Street Market", "opening of the Fenwick Arcade"]
    cons = parse_constraints(q)
    assert {c.value for c in cons.items} == {"Market Stories", "City Rambles"}
    clauses = [x.clause for x in t]
    assert [c.value for c in cons.scoped(t[0].clause, clauses).items] == ["Market Stories"]
    assert [c.value for c in cons.scoped(None, clauses).items] == []
    q2 = "Which bike is lighter: the Arrow 2 in Velo Notes' road bike review, or the Kestrel SL in Climb Lab's video?"
    assert [x.phrase for x in checker.targets(q2)][1] == "Kestrel SL"


def test_a_money_difference_takes_bare_prices_and_the_other_targets_currency():
    q = "How much more does an adult ticket cost at Aurora Rink than at Lakeside Rink?"
    t = checker.targets(q)
    op = calculator.operation(q)
    assert op.dimension is None and extract.dimension(q) == "money"
    a = calculator.price_value(t[0], q, extract.prices(lines("a", ("ocr", "Adult ticket 12.50"),
                                                             ("speech", "An adult ticket cost 12 years 50."))))
    b = calculator.price_value(t[1], q, extract.prices(lines("b", ("ocr", "Adult ticket 9.00"),
                                                             ("speech", "An adult ticket is nine euros."))))
    values = calculator.same_currency({t[0].phrase: a, t[1].phrase: b})
    answer = calculator.compute(op, values)[0]
    assert answer == "3.50 EUR" and matches(answer, "3.50 euros")


def test_prices_in_currencies_named_by_a_word():
    """A price in a currency the money reader has no symbol for ("pesos", "yen") is read whole."""
    from vidsleuth.browse.extract import Line, settle

    lines = [Line("v", "ocr", "Stall 1 · carnitas · 18 pesos each"), Line("v", "ocr", "Stall 2 · 25 pesos"),
             Line("v", "speech", "We started at the first stall near the fountain.")]
    got = settle("What price per taco is shown on screen for the first stall?", "the first stall", lines)
    assert got and got[0] == "18 pesos"
    said = [Line("w", "speech", "A bowl of soba costs 900 yen here, the tempura 400 yen.")]
    assert settle("How much does a bowl of soba cost?", "soba", said)[0] == "900 yen"


def test_an_ordinal_in_the_question_picks_the_line_numbering_that_thing():
    """"the second stop" agrees with "Stop 2" and not with "Stop 1", even where the Stop-2 line
    lost its label in the reading and another line shares more words."""
    from vidsleuth.browse.extract import Line, settle

    lines = [Line("v", "ocr", "Stop 1 · harbour · 3.20 euros"), Line("v", "ocr", "market · 4.10 euros"),
             Line("v", "ocr", "Stop 3 · castle · 5.00 euros")]
    q = "What fare is shown on screen for the second stop?"
    assert settle(q, None, lines + [Line("v", "ocr", "Stop 2 · market · 4.10 euros")])[0] == "4.10 euros"
    got = settle(q, "4.10", lines)  # no line says "Stop 2": the numbered others lose, the model's value decides
    assert got and got[0] == "4.10 euros"


@pytest.mark.parametrize("prediction,truth,same", [
    # one quantity each side, equal after conversion: the rule judge accepts it
    ("100 minutes", "1 hour and 40 minutes", True),
    ("90 min", "1.5 hours", True),
    ("1.5 km", "1500 m", True),
    ("180 °C", "356 °F", True),
    # another amount, or no unit to convert, is no match
    ("100 minutes", "1 hour 30 minutes", False),
    ("19", "1.9", False),
    ("4 coats", "3 coats", False),
    ("$5", "5 EUR", False),
    ("between 90 and 100 minutes", "1 hour and 40 minutes", False),
])
def test_the_rule_judge_compares_one_quantity_after_conversion(prediction, truth, same):
    assert matches(prediction, truth) is same
