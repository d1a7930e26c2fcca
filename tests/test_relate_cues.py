"""Relation cues the second held-out set showed the rules missing, on real phrasings: a source's
own earlier edition, a rejection that a later date does not turn into a revision, "too <adjective>",
negated bounds, differences that are not settings, Chinese former values and rejections, reasons
given as purposes, and page dates in a byline outside the main text."""

from __future__ import annotations

import pytest

from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources.dates import page_date
from vidsleuth.report.types import Anchor, Moment


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 3.0, "speech", text),))


@pytest.mark.parametrize("video, excerpt, source_date, relation", [
    # a figure the source gives for its own earlier edition is a revision
    ("Nitrate < 40 ppm", "Earlier editions of this handbook gave 40 ppm (mg/L) as the ceiling for nitrate.", "", "updates"),
    ("Nitrate < 40 ppm", "We now advise keeping nitrate below 20 ppm in community tanks.", "", "updates"),
    ("Put 40 ml of sealant in each tyre.", "Earlier versions of this FAQ said 40 to 60 ml, but that was written for "
     "wider gravel tyres.", "", "updates"),
    ("Our previous advice was 60 g per hour.", "Our previous advice was 60 g per hour.", "", "updates"),
    # rejecting the video's figure on a later date is a dispute, not a revision
    ("Every week, change 25 % of the water.", "25% a week is overkill for a planted tank.", "2024-03-02", "contradicts"),
    ("Front 5.5 bar", "5.5 bar is way too hard for 28s, you'll be bouncing all over the place.", "", "contradicts"),
    # a bound stated as "is the minimum" holds the video's "at least"
    ("Run the filter for at least four weeks before you add any fish.",
     "Four weeks is the minimum before fish go in, mine took six.", "2024-03-02", "supports"),
    # a negated comparative is a bound the video's value breaks
    ("Heat your water to 96 degrees.", "I never go above 92 °C for anything.", "", "contradicts"),
    ("Never increase your weekly distance by more than 10%.",
     "Keep weekly mileage increases under about 10 percent.", "", "supports"),
    # Chinese: the former figure revises, a rejected one does not support
    ("保质期18个月", "新标准建议，预包装绿茶的保质期由原来的18个月缩短为12个月。", "2024-12-10", "updates"),
    ("水温80℃", "绿茶必须用100℃的开水冲，八十度根本泡不开，香气出不来。", "2024-05", "contradicts"),
])
def test_value_relations(video, excerpt, source_date, relation):
    rel, why, _ = relate_rules(_anchor(video), excerpt, source_date, "2023-11-18")
    assert rel == relation, why


@pytest.mark.parametrize("video, excerpt", [
    ("Set the heater to 25 degrees Celsius.", "Always match the temperature of the new water to the tank within "
     "1–2 °C."),  # a difference, not a setting
    ("Front 5.5 bar", "Reduce by 0.3 bar in the wet."),
    ("Round trip 90 %", "Customer asked me about the 90% round trip from a YouTube review."),  # someone else's figure
])
def test_no_stance_from_differences_and_reported_figures(video, excerpt):
    rel, why, _ = relate_rules(_anchor(video), excerpt)
    assert rel is None, why


def test_a_purpose_is_a_reason():
    rel, _, _ = relate_rules(_anchor("Every week, change 25 % of the water."),
                             "Regular partial water changes exist mainly to dilute it.")
    assert rel == "explains"
    rel, _, _ = relate_rules(_anchor("The whole brew should take about 3.5 minutes."),
                             "That is why a recipe's total brew time is really a check on the grind.")
    assert rel == "explains"


def test_a_byline_date_outside_the_main_text_is_the_page_date():
    raw = ('<html><head><title>Fuel guide</title></head><body><p class="byline"><span class="updated">'
           'Updated June 2024</span></p><article><p>Aim for 80 g an hour.</p></article></body></html>')
    assert page_date(raw, "Aim for 80 g an hour.", title="Fuel guide", html=True) == "2024-06"


def test_a_dismissal_rejects_the_figure_it_names():
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.types import Anchor

    decant = Anchor("A1", "parameter", "give it about an hour before dinner.", "", "")
    assert relate_rules(decant, "Honestly one hour does nothing for a young Barolo.")[0] == "contradicts"
    tread = Anchor("A2", "parameter", "Replace your tires at three millimeters.", "", "")
    assert relate_rules(tread, "On tread: changing at 3 mm is a tyre-shop sales line.")[0] == "contradicts"
    cap = Anchor("A3", "parameter", "cap the charge at 80% when it lives on the desk.", "", "")
    assert relate_rules(cap, "For most people there is no need to cap the charge at 80 percent.")[0] == "contradicts"
