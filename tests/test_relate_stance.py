"""The relater's principles on phrasings of our own: a former value named by what replaced it, a
writer's own case, the reason for a figure, a negated change, a difference stated as an
approximation, an advertised figure, a limit, a strike-through price, and each value's qualifier."""

from __future__ import annotations

import pytest

from vidsleuth.report.cues import own_case
from vidsleuth.report.facts import statement
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.types import Anchor, Moment

from .conftest import relation_of


def _anchor(*texts: str) -> Anchor:
    return Anchor("A1", "parameter", texts[0], "", "", tuple(Moment(1.0, 3.0, "speech", t) for t in texts))


def _rel(video: str, excerpt: str, date: str = "") -> str | None:
    return relate_rules(_anchor(video), excerpt, date, "2024-01-01")[0]


@pytest.mark.parametrize("video, excerpt", [
    # the value a revision replaced is the former one, named before it or after it
    ("Flush the radiator every three years.",
     "Our guide now says to flush it every five years, replacing the three-year schedule."),
    ("Flush the radiator every three years.",
     "We now advise five years between flushes; the three years we recommended before was too cautious for modern coolant."),
    ("每三年更换一次冷却液。", "已更新：现在建议每五年更换一次冷却液，而不再是过去推荐的每三年一次。"),
])
def test_a_value_named_as_replaced_is_the_former_one(video, excerpt):
    assert _rel(video, excerpt) == "updates"


@pytest.mark.parametrize("video, excerpt", [
    ("Water the tomatoes with two litres a day.", "I give mine two litres a day and they have never split."),
    ("Water the tomatoes with two litres a day.", "Tried the two litres a day on my balcony plants, still fine in August."),
])
def test_a_writers_own_case_applies_the_claim(video, excerpt):
    assert _rel(video, excerpt) == "applies"


@pytest.mark.parametrize("video, excerpt", [
    ("Store the tyres at 15 °C.", "Kept my spare set in the garage at about 8 °C over the winter."),
    ("Proof the dough at 26 °C.", "I proof mine at 30 °C in the oven with the light on, 26 is far too cool."),
])
def test_a_writers_own_case_at_another_figure_tells_against_the_claim(video, excerpt):
    assert _rel(video, excerpt) == "contradicts"


@pytest.mark.parametrize("video, excerpt, relation", [
    # advice in the first person is a stance, not a case
    ("Water the tomatoes with two litres a day.", "I recommend two litres a day in a hot spell.", "supports"),
    # a rule stated beside one's own case: the rule decides
    ("Let the glue cure for 24 hours.", "24 hours is the minimum cure, mine got 30.", "supports"),
    # a case measured against the claim disputes it
    ("The lamp runs for 10 hours on a charge.", "In my test it only managed 6 hours, well short of the claim.", "contradicts"),
])
def test_first_person_advice_rules_and_measurements_are_not_cases(video, excerpt, relation):
    assert _rel(video, excerpt) == relation


def test_own_case_needs_a_first_person_account():
    assert own_case("I run mine at 3 bar.") and own_case("Fitted my new chain at 2,000 km.")
    assert not own_case("Run it at 3 bar.") and not own_case("How do I set 3 bar?") and not own_case("I recommend 3 bar.")


def test_the_reason_for_a_figure_explains_it():
    video = "Keep the fridge at 4 °C."
    assert _rel(video, "Bacteria multiply slowly in the cold, which is why food agencies settle on 4 °C for a fridge.") == "explains"
    assert _rel(video, "Set the fridge to 4 °C.") == "supports"


def test_a_negated_change_keeps_the_value():
    video = "Inflate the tyres to 2.5 bar."
    assert _rel(video, "2.5 bar is correct for this tyre — do not lower it.") == "supports"
    assert _rel(video, "2.5 bar is too hard for this tyre.") == "contradicts"


def test_a_difference_stated_as_an_approximation_is_no_setting():
    assert _rel("Set the soldering iron to 350 °C.", "Lead-free solder raises the needed tip temperature by roughly 30 °C.") is None


def test_an_advertised_figure_is_the_makers_not_the_sources():
    assert _rel("It has a 2000 W motor.", "Brands like this one advertise a 2000 W motor.") is None


def test_a_limit_on_another_quantity_is_no_stance():
    assert _rel("The pump makes 12 bar.", "A regulator limits what reaches the nozzle to around 4 bar.") is None


def test_a_strike_through_price_is_the_former_one():
    assert _rel("It costs $49.99.", "$39.99 was $49.99 · Price updated last week", "2024-06-01") == "updates"


def test_each_value_keeps_the_words_that_follow_it():
    st = statement("Feed every 2 weeks in summer and every 6 weeks in winter.")
    first, second = st.readings
    assert "summer" in first.near and "winter" not in first.near and "winter" in second.near
    # a following phrase that introduces the next value is not the first one's
    st = statement("Bake between 200 and 220 °C with the fan at 30 to 40 %.")
    assert "fan" not in st.readings[0].near
    # the first value keeps the words before it, commas and all
    assert "hand" in statement("By hand, whisk for 4–6 minutes; a mixer takes 2 minutes.").readings[0].near
    assert _rel("Feed it every 2 weeks in summer.", "Feed every 2 weeks in summer and every 6 weeks in winter.") == "supports"


def test_a_claim_of_two_quantities_needs_both():
    video = "A good pump keeps 90% of its flow after 2,000 hours."
    assert _rel(video, "It keeps 90% of its flow after 2,000 hours.") == "supports"
    assert _rel(video, "It keeps 90% of its flow after 3,000 hours.") == "contradicts"
    # one quantity of the claim and none of the other is weaker support than a statement of both
    claim = _anchor("It boiled two litres of water in about six minutes.")
    partial = relate_rules(claim, "We boiled two litres of water in each pot.")
    assert partial[0] == "supports" and partial[2] < relate_rules(claim, "Two litres boiled in six minutes.")[2]


def test_a_prohibition_beyond_a_limit_is_the_limit():
    video = "It works down to minus ten degrees Celsius."
    assert _rel(video, "Do not operate below −10 °C.") == "supports"
    # a colon closes the clause a negation belongs to
    assert _rel("Keep the tank at about 30% when stored.", "For storage, do not fill or empty it: keep it near 30%.") == "supports"
    # a bound the writer keeps is a rule, not a case of their own
    assert _rel("Brew at 96 °C.", "I never go above 90 °C for tea.") == "contradicts"


def test_a_chinese_byline_outside_the_main_text_dates_the_page():
    from vidsleuth.report.sources.dates import page_date

    raw = ("<html><head><title>2019年版多肉养护</title></head><body><nav>首页 › 百科</nav>"
           "<div class='by'>作者：小李 · 更新于2024年3月</div><article><p>多肉植物每月浇一次水。</p></article></body></html>")
    assert page_date(raw, "多肉植物每月浇一次水。", title="2019年版多肉养护", html=True) == "2024-03"
    # a title's year is no date, and a date without a cue far from the top is not the page's
    assert page_date("<html><head><title>2019年5月的指南</title></head><body><p>正文</p></body></html>", "正文",
                     title="2019年5月的指南", html=True) == ""


@pytest.mark.parametrize("excerpt", [
    "我照着视频说的每天浇两次水，一直长得很好。",
    "I rested mine for 30 minutes as the video says and it came out fine.",
])
def test_a_figure_the_writer_followed_is_their_own_case(excerpt):
    video = "每天浇两次水。" if "浇" in excerpt else "Rest the dough for 30 minutes."
    assert _rel(video, excerpt) == "applies"
    # reported without being followed, it stays someone else's figure
    assert _rel("Rest the dough for 30 minutes.", "Whoever says 30 minutes has never baked a loaf.") != "applies"


def test_an_own_case_told_after_a_colon_and_a_claim_stated_twice():
    # the anchor says its figure twice (speech and caption); the writer's case is one figure
    anchor = Anchor("A1", "parameter", "I proof the dough at 26 °C.", "", "",
                    (Moment(1.0, 3.0, "speech", "I proof the dough at 26 °C."), Moment(1.0, 3.0, "ocr", "Proof 26 °C")))
    assert relate_rules(anchor, "Followed the clip exactly: 26 °C proof, still flat.")[0] == "applies"


def test_only_an_amount_acted_on_is_weaker_support():
    # two claims heard as one sentence are each supported in full by a statement of one of them
    merged = _anchor("Replace the belt at 2% stretch it usually lasts around 5,000 km.")
    assert relate_rules(merged, "Belt stretch limit: 2%.")[2] >= 0.9


def test_a_claim_labelled_a_myth_is_rejected():
    anchor = "Put it on about 15 minutes before you go outside."
    assert relation_of(anchor, "Myth 2: You have to wait 15 minutes before going outside.") == "contradicts"
    assert relation_of(anchor, "误区：出门前必须等15分钟。") == "contradicts"
    assert relation_of(anchor, "Wait 15 minutes before going outside.") == "supports"


def test_a_minimum_against_another_minimum_disagrees():
    anchor = "Min. night temp 10 °C"
    assert relation_of(anchor, "Bring them in whenever nights drop below 55 °F.") == "contradicts"
    assert relation_of(anchor, "Do not expose them to temperatures below 50 °F (10 °C).") == "supports"
