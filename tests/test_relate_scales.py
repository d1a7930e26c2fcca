"""Relations that hinge on what a figure is: a temperature said without its scale, a share of a named
whole, a setting changed by an amount, a source's figure inside the video's range, a bound restated in
brackets in another unit, and 'applying' a substance (a step, not a rule applied). Invented cases."""

from __future__ import annotations

import pytest

from vidsleuth.report import relate_excerpts


def _anchor(text: str) -> dict:
    return {"id": "A1", "text": text, "moments": [{"start": 1.0, "end": 3.0, "kind": "speech", "text": text}]}


def _relation(anchor: str, excerpt: str):
    return relate_excerpts(_anchor(anchor), [{"excerpt": excerpt, "source_title": "page"}])[0]["relation"]


@pytest.mark.parametrize("anchor, excerpt, want", [
    # "degrees" with no scale is read in the scale the source writes
    ("Keep your fridge at thirty-seven degrees.", "Keep the refrigerator at or below 40 °F (4 °C).", "supports"),
    ("Keep your fridge at thirty-seven degrees.", "Keep the fridge between 35 °F and 38 °F.", "supports"),
    ("Heat your water to ninety-six degrees.", "Never go above 92 °C for anything.", "contradicts"),
    ("Set the thermostat to sixty-eight degrees while you're awake.", "The DOE suggests 68 °F while you're awake.", "supports"),
    ("Set the thermostat to sixty-eight degrees while you're awake.", "Keep the thermostat at 75 °F while awake.", "contradicts"),
    # a source's figure inside the video's range agrees with it
    ("Ferment the kombucha for seven to ten days.", "Taste the kombucha after a week of fermenting.", "supports"),
    ("Ferment the kombucha for seven to ten days.", "Ferment the kombucha for three weeks.", "contradicts"),
    # one threshold stated from the failing side, as a condition with its remedy
    ("The seat should move less than one inch at the belt path.",
     "If the seat moves more than 1 inch side to side, tighten it.", "supports"),
    # a revision that narrows the video's range to one figure updates it
    ("滤芯建议每六到十二个月更换一次。", "2024年新版说明书将更换周期调整为12个月。", "updates"),
    ("滤芯建议每六到十二个月更换一次。", "厂家说明书：滤芯更换周期为6～12个月。", "supports"),
    # an imperative that ends like a past tense is no diary of the writer's own case
    ("Cook the steak for two minutes a side.", "Cook the steak for 3 minutes a side.", "contradicts"),
    ("Brew the tea for five minutes.", "Brew the tea for 5 minutes.", "supports"),
    # a share of another whole is another quantity
    ("Zone two is fifty-six to seventy-five percent of your FTP.", "Zone 2 is 60–70% of max heart rate.", None),
    ("Zone two is fifty-six to seventy-five percent of your FTP.", "Zone 2 spans 56–75% of FTP.", "supports"),
    # a change of a setting by an amount states no setting
    ("Set the thermostat to 68 °F while you're awake.", "Setting it back 7–10 °F for 8 hours a day saves energy.", None),
    ("空调夏天设置在26℃最省电。", "空调每调高1℃，可节电约7%。", None),
    # applying a substance is a step of the procedure
    ("Wait 48 hours after washing the deck before you stain it.",
     "Let the deck dry for at least 48 hours after cleaning before applying stain.", "supports"),
])
def test_what_the_figure_is_decides_the_relation(anchor, excerpt, want):
    assert _relation(anchor, excerpt) == want
