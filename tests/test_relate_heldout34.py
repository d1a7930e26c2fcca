"""Relations as a development set by another hand wrote them: a sentence that states the video's figure among other
figures of its kind states it (a 12 V battery's resting 12.6–12.8 V holds the video's 12.6 V); a page titled
"… explained" that gives a figure supports or disputes it, where a "Why …" page explains it."""

from __future__ import annotations

from vidsleuth.report.relate import relate_rules
from vidsleuth.report.types import Anchor, Moment


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 4.0, "speech", text),))


def test_the_figure_that_holds_the_videos_decides_among_several():
    a = _anchor("A healthy, fully charged battery reads 12.6 volts at rest.")
    rel, why, _ = relate_rules(a, "A fully charged 12 V lead-acid battery rests at 12.6 V to 12.8 V.")
    assert rel == "supports", why
    rel, why, _ = relate_rules(a, "A fully charged 12 V lead-acid battery rests at 12.9 V.")
    assert rel == "contradicts", why


def test_an_explained_title_is_no_explanation_page_but_a_why_title_is():
    a = _anchor("Mid-size car: 650 CCA")
    excerpt = "Most mid-size cars need between 500 and 700 CCA; check your owner's manual for the minimum."
    assert relate_rules(a, excerpt, title="Cold cranking amps (CCA) explained")[0] == "supports"
    assert relate_rules(a, excerpt, title="Why cold cranking amps matter in winter")[0] == "explains"


def test_a_negation_inside_a_condition_rejects_nothing():
    a = _anchor("And eat them within four days, or freeze them.")
    rel, why, _ = relate_rules(a, "If you won't be able to eat leftovers within four days, freeze them right away.")
    assert rel == "supports", why
    assert relate_rules(a, "Don't keep cooked leftovers for four days.")[0] == "contradicts"  # outside a condition it rejects


def test_the_period_a_rate_is_given_over_is_no_duration():
    a = _anchor("Toddlers need about 12 hours of sleep in every 24.")
    rel, why, _ = relate_rules(a, "Recommended amounts of sleep per 24 hours, including naps, from a consensus statement.")
    assert rel != "contradicts", why
    assert relate_rules(a, "Toddlers need 11 to 14 hours of sleep per 24 hours.")[0] == "supports"


def test_advice_a_page_gave_when_it_first_published_is_its_former_figure():
    a = _anchor("For a rider of around 75 kilos on 28-millimeter road tires, we run about 80 PSI in the rear.")
    rel, why, _ = relate_rules(a, "When we published our first pressure guide in 2019 we suggested that a 75 kg rider on "
                                  "28 mm tyres should pump the rear to 80 psi and the front to 75 psi.")
    assert rel == "updates" and "former" in why
