"""Sentences with a number that are no claim (``report.premise``), as development sets by other hands said
them: the case the video sets up, a count of its own parts, a hook put to the viewer; beside claims that
look like them and stay anchors."""

import pytest

from vidsleuth.report.anchors import _kind


@pytest.mark.parametrize("sentence", [
    "For a 65 pound adult dog,",
    "we're doing a full oil change on a compact sedan with a two liter engine.",
    "Today's screen is a 27-inch 1440p panel.",
    "Here are the five numbers I check every single week.",
    "Today I'm planting out six varieties that started life on my windowsill.",
    "Want a stronger back and better conditioning in 10 minutes a day?",
    "Let's talk about a typical 4 kilo indoor cat.",  # adjectives between the article and the figure
    "Take a typical 30 kg dog.",
    "Say you have an average 70 kg adult.",
    "I've had my Keoniro EV for a year now,",  # how long the narrator has had it: the review's scene
    "We finally have a full year of numbers from our house.",
    "And here's roughly what one cup gives you.",  # the one portion a figure to come is of
    "我们来看看，一杯绿茶里有多少咖啡因。",
    "Meet Biscuit, our 10-week-old Labrador.",
])
def test_a_setup_a_count_of_parts_or_a_hook_is_no_anchor(sentence):
    assert _kind(sentence) == "aside"


@pytest.mark.parametrize("sentence", [
    "If you're a beginner, start with a 16 kilogram bell.",
    "For a 10-inch pizza, bake at 250 degrees.",
    "Today we bake at 230 degrees.",
    "This is a 625 Wh battery.",  # a review's claim about its product
    "I use a 40 mm bit at 18,000 rpm.",
    "Your goal is 100 swings a day.",
    "Check these three numbers: 7.4, 3 ppm and 100 °F.",
    "For an average 70 kg adult, drink 2 litres a day.",  # advice for the case
    "I have used it for 3 years and it still holds 80 percent.",  # a claim beside the span
    "What you want is one cup of coffee per day.",
    "Drink one cup a day.",
])
def test_claims_that_look_like_them_stay(sentence):
    assert _kind(sentence) == "parameter"
