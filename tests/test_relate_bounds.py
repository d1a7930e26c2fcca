"""A bound the video states against a source that says the same bound among other figures, an
approximation at the bound's limit, and a negated comparative ("must not be steeper than 1:12")
that sets a limit instead of disparaging the figure."""

from vidsleuth.report.relate import relate_rules
from vidsleuth.report.types import Anchor, Moment


def _rel(anchor_text: str, excerpt: str) -> str | None:
    anchor = Anchor("A1", "parameter", anchor_text, "", "", (Moment(1.0, 4.0, "speech", anchor_text),))
    return relate_rules(anchor, excerpt)[0]


def test_the_sources_bound_of_the_same_side_meets_the_videos():
    said = "The door should be at least 7 feet tall."
    assert _rel(said, "Headroom is best between 8 and 9 feet, but they should never be lower than 7 feet.") == "supports"
    assert _rel(said, "Headroom is best between 8 and 9 feet, but they should never be lower than 9 feet.") == "contradicts"


def test_an_approximation_at_a_bounds_limit_agrees_with_it():
    said = "Let it rest at least 30 minutes."
    assert _rel(said, "Rest the dough about 30 minutes before shaping.") == "supports"
    assert _rel(said, "Rest the dough about 10 minutes before shaping.") == "contradicts"


def test_a_negated_comparative_is_a_limit_not_a_warning():
    said = "The ramp slope must not be steeper than 1:12."
    assert _rel(said, "Codes require a maximum slope of 1:12 for ramps.") == "supports"
    assert _rel("Keep the water at 38 degrees.", "The bath should never be hotter than 38 degrees.") == "supports"


def test_a_sources_ceiling_meets_a_video_that_states_a_limit_too():
    said = "keep it to no more than one hour a day,"  # the video's own figure is a ceiling
    assert _rel(said, "For children ages 2 to 5 years, limit screen use to 1 hour per day.") == "supports"
    assert _rel(said, "For children ages 2 to 5 years, limit screen use to 2 hours per day.") == "contradicts"


def test_two_limits_of_one_side_agree_at_one_threshold_only():
    said = "Space mesh nodes no more than eight meters apart."
    assert _rel(said, "Keep satellites no more than 8 m from each other.") == "supports"
    # a raised ceiling is another limit, not room for the video's: with a revision cue it updates it
    assert _rel(said, "We now recommend placing each satellite up to 12 m from the main router.") == "updates"
    assert _rel(said, "Satellites work fine up to 12 m from the main router.") == "contradicts"
    assert _rel("Walk at least 20 minutes a day.", "Aim for at least 30 minutes of walking a day.") == "contradicts"
    assert _rel("Keep the fridge below 40 °F.", "Keep your fridge at or below 4 °C.") == "supports"  # one threshold, rounded


def test_a_height_above_a_place_is_no_difference():
    said = "put it about 1.5 meters off the floor,"
    assert _rel(said, "Place yours 1 to 2 metres above the floor, on a shelf or wall mount.") == "supports"
    assert _rel("Keep the heater at 26 °C.", "Set the heater 2 °C above the room temperature.") is None  # a difference


def test_a_previous_guidance_figure_is_the_former_one():
    said = "Space mesh nodes no more than eight meters apart."
    assert _rel(said, "The previous guidance of 8 m between nodes applies only to our older dual-band models.") == "updates"
    assert _rel("Use 30 grams of coffee.", "The old limit of 30 grams no longer applies; use 35 grams.") == "updates"


def test_a_prohibitions_time_is_a_wait_where_the_video_tells_to_wait():
    said = "Wait a full 24 hours before you plane,"
    assert _rel(said, "Full cure: do not stress the joint or machine the assembly for 24 hours.") == "supports"
    assert _rel(said, "Full cure: do not stress the joint or machine the assembly for 48 hours.") == "contradicts"
    assert _rel(said, "There's no need to wait a full day before planing a glued panel.") == "contradicts"
    assert _rel("Cook it for 2 hours.", "Don't cook it for 2 hours.") == "contradicts"  # no wait: a rejection


def test_advice_said_in_the_first_person_negated_is_advice_not_a_case():
    said = "Don't leave it in longer than 4 hours,"
    assert _rel(said, "Go much beyond 4 hours and the texture starts to turn mealy, so I don't recommend leaving "
                      "steaks in the bath longer than that.") == "supports"


def test_a_prohibition_the_video_states_too_is_the_same_rule():
    said = "so never open the hive when it is colder than about 59 degrees Fahrenheit."
    assert _rel(said, "As a rule, do not open a colony when the air temperature is below about 15 °C (59 °F).") == "supports"
    wait = "Wait until the soil is at least 16 degrees celsius,"
    assert _rel(wait, "Do not transplant until the soil at 10 cm depth has reached 16 °C (60 °F).") == "supports"
    # a judgement still rejects: "too cold" is no restatement of the rule
    assert _rel(said, "Opening a colony at 59 °F is far too cold for the brood.") == "contradicts"
