"""Invented phrasings of three classes the rules misread: advice told in the past before its figure is the
former figure (the current one then updates the video's), a multi-digit bound's "than" is no comparison,
and "quicker than an unseeded cycle" compares two things while "longer than a week" is a bound."""

import pytest

from .conftest import relation_of


@pytest.mark.parametrize("anchor, excerpt, relation", [
    ("Cook it for two and a half hours.",
     "We previously suggested 2½ hours for every steak; we now recommend 1 to 2 hours for thin steaks.", "updates"),
    ("Dissolve 60 grams of salt per litre.",
     "We used to recommend 60 g of salt per litre, but 50 g is plenty.", "updates"),
    ("盐水浓度大约百分之五", "我们以前建议盐水浓度5%，现在建议提高到6%至8%。", "updates"),
    ("Rest the dough for one hour.", "Our earlier edition said 1 hour; this one agrees: rest it for 1 hour.", "supports"),
    ("Replace the filter every three months.",
     "Our printed care card previously said that the cartridge in the jug should be replaced every 3 months.", "updates"),
    ("Water the seedlings every two days.",
     "For many years the nursery staff told buyers to water new seedlings every 2 days in summer.", "updates"),
    ("Water the seedlings every two days.", "For years I have watered my seedlings every 2 days.", "applies"),
    ("I keep the water around 82 degrees Fahrenheit.",
     "Keep the tank no warmer than 75 °F (24 °C); warmer water holds less oxygen.", "contradicts"),
    ("Keep the room at 18 degrees.", "Keep the room no colder than 16 °C.", "supports"),
    ("It takes about four to six weeks to cycle.",
     "With seeded media, a new tank can cycle in about 10 days, far quicker than an unseeded cycle.", "compares"),
    ("Leave it for ten days.", "Leave it for longer than a week before you open it.", "supports"),
])
def test_past_advice_bounds_and_comparisons(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


@pytest.mark.parametrize("anchor, excerpt, relation", [
    ("Wait about half an hour,", "Begin the first sponge pass 15 to 20 minutes after grouting; if you wait half an hour "
     "or more the haze sets hard and needs a chemical remover.", "contradicts"),  # the warned-of case is not its figure
    ("Rest the steak for 5 minutes.", "Rest it 5 minutes; if you rest it 10 minutes or longer it goes cold.", "supports"),
    ("If the seat moves, keep it to less than one inch of play.", "If the seat moves more than 1 inch, tighten it.", "supports"),
])
def test_a_value_in_an_if_clause_after_the_sources_figure_is_a_warned_case(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


@pytest.mark.parametrize("anchor, excerpt, relation", [
    # the figure before "instead of" is the one the source prefers; the one after it is set aside
    ("Cold proof the dough in the fridge for 24 hours.",
     "We now recommend a 48-hour cold ferment instead of the 24 hours.", "updates"),
    ("Cold proof the dough in the fridge for 24 hours.", "Proof it for 24 hours rather than 48 hours.", "supports"),
    ("Cold proof the dough in the fridge for 24 hours.", "Use 48 hours instead of 24 hours.", "contradicts"),
])
def test_a_figure_set_in_place_of_another_is_the_preferred_one(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


def test_the_videos_figure_set_beside_another_things_is_a_comparison():
    anchor = "For the Milky Way, set ISO 3200."
    moon = ("Unlike a Milky Way frame at ISO 3200, the Moon is sunlit rock and needs daylight settings: ISO 100, f/8 "
            "and around 1/250 s.")
    assert relation_of(anchor, moon) == "compares"
    assert relation_of(anchor, "Shoot the Milky Way at ISO 3200.") == "supports"


def test_a_comparison_whose_figures_all_agree_with_the_videos_supports_it():
    both = "Both countries cap recreational flights at roughly the same height: 120 metres in the UK, 400 feet in the US."
    assert relation_of("In the UK you can fly up to 120 metres.", both) == "supports"
    assert relation_of("In the UK you can fly up to 120 metres.",
                       "The UK caps flights at 120 metres, whereas France allows only 50 metres near towns.") == "compares"


@pytest.mark.parametrize("anchor, excerpt, relation", [
    # a former figure after 由原来的 and a period word, and 由 … 调整为 as 从 … 调整为 (found by an agent harness on fresh61)
    ("50岁以上的老人每天需要1000毫克钙。", "2023版标准将钙推荐摄入量由原来的每天1000毫克调整为每天800毫克。", "updates"),
    ("50岁以上的老人每天需要1000毫克钙。", "推荐摄入量由每天1000毫克调整为每天800毫克。", "updates"),
    ("50岁以上的老人每天需要1000毫克钙。", "每天1000毫克的钙是推荐量。", "supports"),
    # "X is why …" and 之所以 give the reason for the figure
    ("Cycle the tank for at least four weeks before adding fish.",
     "That slow growth is why cycling is given at least four weeks before the first fish go in.", "explains"),
    ("测量前先静坐五分钟。", "之所以要静坐5分钟，是因为活动后血压会暂时升高。", "explains"),
])
def test_chinese_revisions_and_reasons(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


@pytest.mark.parametrize("anchor, excerpt, relation", [
    # a figure told as the past's is no stance of its own
    ("I'm running 28 millimetre tyres.", "Ten years ago a 23 mm tyre was standard on a road bike.", None),
    ("Use a 25 mm tyre.", "Back in 2015 most racers rode 23 mm tyres; today 28 mm is the norm.", "contradicts"),
    # ...and one an earlier production was rated to, with a parenthesis between, is the former figure
    ("Pump them to about 110 psi.",
     "Earlier production (before 2024) was rated to 110 psi; the new lighter casing is rated lower.", "updates"),
    # a worked example at the video's figure applies it; "for example" in a list of cases does not
    ("Heat the water to 26 degrees Celsius.",
     "Worked example: a 60-litre tank held at 26 °C in a room at 20 °C has a 6 °C difference to cover.", "applies"),
    ("Heat the water to 26 degrees Celsius.", "For example, tetras and rasboras do well at 24–26 °C.", "supports"),
])
def test_past_figures_and_worked_examples(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation


@pytest.mark.parametrize("anchor, excerpt, relation", [
    # a revision that sets the video's own figure aside updates it, even where its new figure is a limit holding it
    ("For exercise, use the five-minute rule.", "Our new guidance: a three-month-old can manage up to 15 minutes at a "
     "time, twice a day, rather than the 5 minutes per month of age.", "updates"),
    ("Give it a 24 hour cold ferment.", "We now recommend a 48-hour cold ferment instead of the 24 hours.", "updates"),
    ("Give it a 24 hour cold ferment.", "I prefer a 48-hour cold ferment instead of 24 hours.", "contradicts"),  # no revision
    ("Off-peak rate: 9p per kWh", "Our guide previously quoted 9p per kWh for overnight EV charging.", "updates"),
])
def test_a_revision_that_sets_the_videos_figure_aside(anchor, excerpt, relation):
    assert relation_of(anchor, excerpt) == relation
