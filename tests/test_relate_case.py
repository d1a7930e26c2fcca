"""The case a claim is made for is not the claim (``report.case``): "For a rider of around 75 kilos on 28 mm road
tyres, we run about 80 psi in the rear" claims 80 psi for that rider. A source about another case (40 mm gravel
tyres) takes no stance on it; one about the same case is judged on the claim's figure, not on the case's."""

from __future__ import annotations

import pytest

from vidsleuth.report.case import split_case
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.types import Anchor, Moment

RIDER = "For a rider of around 75 kilos on 28-millimeter road tires, we run about 80 PSI in the rear."


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 4.0, "speech", text),))


@pytest.mark.parametrize("text, case, claim", [
    (RIDER, ["≈ 75 kg", "28 mm"], ["≈ 80 psi"]),
    ("a skinny 23-millimeter tire got 110 PSI,", ["23 mm"], ["110 psi"]),
    ("On 40mm gravel tires, 35 PSI is a good place to start.", ["40 mm"], ["35 psi"]),
    ("A healthy, fully charged battery reads 12.6 volts at rest.", [], ["12.6 V"]),
    ("Bake at 250 degrees for 20 minutes.", [], ["250°C", "20 min"]),
    ("Use a 16 kilogram bell.", [], ["16 kg"]),
    ("0 °F → -60 % strength", ["0°F"], ["-60%"]),  # a case alone is the claim: nothing else is claimed
])
def test_case_and_claim(text, case, claim):
    got_case, got_claim = split_case(text)
    assert [v.label() for v in got_case] == case
    assert [v.label() for v in got_claim] == claim


def test_another_case_takes_no_stance_and_the_same_case_is_judged_on_the_claim():
    a = _anchor(RIDER)
    rel, why, _ = relate_rules(a, "For 40 mm tyres, most riders land somewhere between 30 and 40 psi.")
    assert rel is None and "another case" in why
    assert relate_rules(a, "A 75 kg rider on 28 mm tyres should run about 80 psi in the rear.")[0] == "supports"
    rel, why, _ = relate_rules(a, "A 75 kg rider on 28 mm tyres needs no more than 70 psi at the rear.")
    assert rel == "contradicts" and "psi" in why


def test_a_statement_for_another_case_goes_to_the_anchor_whose_case_it_is():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    anchors = [Anchor("A1", "parameter", RIDER, "", "", (Moment(12.0, 19.0, "speech", RIDER),)),
               Anchor("A2", "parameter", "On 40mm gravel tires, 35 PSI is a good place to start.", "", "",
                      (Moment(34.0, 38.0, "speech", "On 40mm gravel tires, 35 PSI is a good place to start."),))]
    page = Source(id="d1", kind="document", title="Gravel tyre pressure", location="/x/gravel.html")
    text = "For 40 mm tyres, most riders land somewhere between 30 and 40 psi."
    got = rank(anchors, [Passage(page, text, "text")], topic="road and gravel tyre pressure")
    assert {c.anchor_id for c in got} == {"A2"}
