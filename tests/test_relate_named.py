"""Phrasings a development set by another hand wrote that the rules misread: a figure used as the name of
a piece of advice ("the 20% rule") takes a stance only where the sentence says one; the same negated
bound on both sides agrees; advice an earlier edition "prescribed" is the former figure; a decade
("the 2000s") is no time; how often is a frequency whatever occasions it counts; and of one source's
records for an anchor, the one that states the video's figure is kept."""

from collections import Counter

import pytest

from vidsleuth.report.branches import Candidate, Decision, select
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Source

from .conftest import relation_of


@pytest.mark.parametrize("anchor, excerpt, relation", [
    ("Try not to let it drop below 20%.", "The 20% rule is overblown.", "contradicts"),
    ("Try not to let it drop below 20%.", "The 20% rule works well.", "supports"),
    ("Start with a 16 kilogram bell.", "The 16 kg advice is from the 2000s.", None),
    ("Set a charge limit of 80%.", 'That is the chemistry behind every "80% limit" toggle.', None),
    ("Try not to let it drop below 20%.", "Try not to let the battery drop below 20% on a regular basis.", "supports"),
    ("Try not to let it drop below 20%.", "Try not to let the battery drop below 40%.", "contradicts"),
    ("Do this five days a week and take the weekends off.",
     "In earlier editions of this programme we prescribed 100 swings on five days every week.", "updates"),
    ("Do this five days a week and take the weekends off.",
     "Ballistic kettlebell work such as swings: 2 to 3 sessions per week, with at least 48 hours between sessions.",
     "contradicts"),
    ("In a warm kitchen, it should double in about six hours.",  # a time it takes, not a difference
     "A healthy starter at room temperature should roughly double in volume within 4 to 8 hours.", "supports"),
    ("About one ounce of water per pound of body weight,",
     "We previously repeated the common rule of thumb that a dog needs about one ounce of water per pound each day.",
     "updates"),
    ("and drain and refill the whole tub every three months.",
     "Previously our owner's guide said to drain and refill every 3 months.", "updates"),
    ("Before any of that, harden them off outside for 10 days.",
     "We used to tell readers that seven to ten days of hardening off was enough.", "updates"),
    ("On the road, try not to let it drop below 20%.", "A lithium-ion cell charged to 100% sits at about 4.2 volts.", None),
    ("On the road, try not to let it drop below 20%.", "Letting it drop to 10% now and then is fine.", "contradicts"),
    ("The water should be about 78 degrees Fahrenheit,",  # the room's temperature, not the water's
     "A healthy starter kept at room temperature (around 70–75°F) should roughly double within 4 to 8 hours.", None),
    ("Aim for bath water of about 37 degrees Celsius,", "Water close to body temperature, around 37 °C, is right.",
     "supports"),
    ("Preheat the oven to 240 degrees.", "Revised guidance: the baking temperature for a country loaf is 250 °C.",
     "updates"),  # an activity's temperature is the oven's setting for it
])
def test_named_figures_negated_bounds_past_editions_and_frequencies(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


def test_of_one_sources_records_the_one_stating_the_videos_figure_is_kept():
    page = Source(id="d1", kind="document", title="Lithium batteries and air travel", location="/x/air.html")
    said = Candidate("A1", Passage(page, "Passengers may carry batteries rated up to 100 Wh in carry-on baggage.", "text"),
                     "Passengers may carry batteries rated up to 100 Wh in carry-on baggage.", 0.66, own=True)
    other = Candidate("A1", Passage(page, "With approval, two spare larger batteries (101–160 Wh).", "text"),
                      "With approval, two spare larger batteries (101–160 Wh).", 1.08)
    decided = [Decision(other, "contradicts", "the source gives 101–160 Wh", 0.85, "rules"),
               Decision(said, "supports", "the video's 100 Wh is inside the source's ≤ 100 Wh", 0.9, "rules")]
    (kept,) = select(decided, 3, Counter())
    assert kept.relation == "supports"


def test_a_page_telling_how_the_figure_worked_for_the_writer_applies_it():
    page = Source(id="d1", kind="document", title="My 80 percent experiment", location="/x/exp.html")
    case = "I capped my laptop at 80% for 18 months."
    figure = "After 18 months at 80%, full-charge capacity went from 56.0 Wh to 53.8 Wh."
    decided = [Decision(Candidate("A1", Passage(page, figure, "text"), figure, 0.59, own=True), "supports",
                        "the video's 80% is equal to the source's 80%", 0.9, "rules"),
               Decision(Candidate("A1", Passage(page, case, "text"), case, 0.57, own=True), "applies",
                        "tells of the writer's own case at 80%", 0.7, "rules")]
    (kept,) = select(decided, 3, Counter())
    assert kept.relation == "applies"


@pytest.mark.parametrize("title, relation", [
    ("Why pH matters more than you think", "explains"), ("The science of rest between sets", "explains"),
    ("Why 90 degrees? The elbow angle explained", "explains"), ("为什么一斤的鱼蒸8分钟就够了？", "explains"),
    ("Why I quit the 20% rule", "supports"), ("Hot tub chemistry basics", "supports")])
def test_on_a_page_that_explains_why_the_agreeing_figure_is_explained(title, relation):
    assert relation_of("Keep the pH at 7.4.", "At a pH of about 7.4 chlorine works well and the water feels soft.",
                       title=title) == relation


def test_a_dispute_keeps_its_slot_within_the_budget():
    def one(k, relation, score):
        page = Source(id=f"d{k}", kind="document", title=f"Page {k}", location=f"/x/{k}.html")
        text = f"Statement {k} about free chlorine."
        return Decision(Candidate("A1", Passage(page, text, "text"), text, score), relation, "values", 0.85, "rules")
    decided = [one(1, "supports", 1.2), one(2, "supports", 1.1), one(3, "supports", 1.0), one(4, "supports", 0.9),
               one(5, "contradicts", 0.5)]
    kept = select(decided, 3, Counter())
    assert [d.relation for d in kept].count("contradicts") == 1 and len(kept) == 3


@pytest.mark.parametrize("anchor, step", [
    ("Your chair seat should be around 45 centimeters off the floor.",
     "Use the lumbar support; it should sit in the small of your back."),
    ("Keep bath time short, 10 minutes at the very most.", "Empty the bath straight after use."),
    ("And in a warm kitchen, it should double in about six hours.", "Wait until it has at least doubled and domed."),
])
def test_a_step_doing_something_else_than_the_video_tells_applies_nothing(anchor, step):
    assert relation_of(anchor, step) is None
