"""Relation labels from the structure of what a page says (``report.relate``, ``report.judge``): which
value it names as the present or the former one, a price that moves, a bound under a negated action,
a worked calculation with units. Generated cases with invented products and phrasings."""

from types import SimpleNamespace

from vidsleuth.report.judge import revised_pages
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.types import Anchor, Moment


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 4.0, "speech", text),))


def _rel(anchor_text: str, excerpt: str, **kw) -> str | None:
    return relate_rules(_anchor(anchor_text), excerpt, **kw)[0]


# the value named as the present one: the others of its kind in the sentence are what it was


def test_the_value_named_as_now_is_the_current_one_and_the_others_former():
    said = "The Brightbox lamp costs $80."
    assert _rel(said, "Price history: launch $80 (May 2024) · holiday sale $65 · now $72.") == "updates"
    assert _rel("这款蒸锅到手价二百五十九元。", "这款蒸锅目前活动价已降至219元，比此前的到手价259元便宜40元。") == "updates"
    assert _rel(said, "Price history: launch $95 · holiday sale $70 · now $80.") == "supports"  # the video has the present one


# a different price is a dispute unless the page is dated after the video or says it revised the price: a second
# reader of dev42 (and its author) called an undated "£1,200 to £1,500" against a video's £999 a contradiction


def test_another_price_updates_only_a_video_it_is_newer_than():
    assert _rel("The Brightbox lamp costs $289.", "Brightbox lamp – $315.00") == "contradicts"
    assert _rel("The Brightbox lamp costs $289.", "Brightbox lamp – $315.00", source_date="2025-02-01",
                video_date="2024-06-01") == "updates"
    assert _rel("The Brightbox lamp costs $289.", "Brightbox lamp – $315.00", source_date="2021-02-01",
                video_date="2024-06-01") == "contradicts"


# a negated action bounded by a figure is a maximum, not a rejection of the figure


def test_a_negated_action_with_more_than_is_a_bound():
    said = "Let the dough rest for up to 40 minutes."
    assert _rel(said, "Never let the dough rest for more than 40 minutes.") == "supports"
    assert _rel(said, "Do not leave it out for longer than 40 minutes.") == "supports"


# the page's own earlier content, told in the past, or a parenthesis after a former method: the former figure


def test_the_page_telling_what_it_used_to_say_names_the_former_figure():
    said = "Soak the beans for 12 hours."
    assert _rel(said, "For years this guide suggested soaking the beans for 12 hours.") == "updates"
    assert _rel(said, "Earlier versions of this page explained how to soak them overnight for about 12 hours.") == "updates"


def test_the_figures_in_a_parenthesis_after_a_former_method_are_former():
    said = "Bake the tart for 25 minutes."
    assert _rel(said, "Readers found the original method (220 °C, 25 minutes) dried the crust out.") == "updates"
    assert _rel("蒸鱼十分钟。", "很多读者说按照以前的做法（大火10分钟）鱼肉偏老。") == "updates"


# a worked calculation with units between the figures, and its result, applies the video's figure


def test_a_calculation_with_units_applies_the_figure():
    said = "The kettle boils in 3 minutes."
    assert _rel(said, "So a 900 W kettle run for 3 minutes uses 0.9 kW × (3/60) h ≈ 0.045 kWh.") == "applies"
    assert _rel("电饭煲煮饭三十分钟。", "比如煮饭30分钟，耗电 0.8千瓦 × 0.5小时 = 0.4度电。") == "applies"


# a page that revises the video's figure somewhere revises it wherever it states it


def _decision(relation: str, rationale: str, source: str = "guide.html", anchor: str = "A1"):
    from vidsleuth.report.branches import Decision

    cand = SimpleNamespace(anchor_id=anchor, passage=SimpleNamespace(source=SimpleNamespace(location=source)))
    return Decision(cand, relation, rationale, 0.8, "rules")


def test_a_page_that_revises_the_figure_updates_its_other_statements_of_it():
    got = revised_pages([_decision("contradicts", "the source gives 200 °C where the video has 230 °C"),
                         _decision("updates", "the source gives 200 °C; stated as a revision (“we now recommend”)"),
                         _decision("contradicts", "the source gives 5 min", source="other.html")])
    assert [d.relation for d in got] == ["updates", "updates", "contradicts"]
    # a support on it turns only where the page names the video's own figure as the former one
    got = revised_pages([_decision("supports", "the video's 18 min is inside"),
                         _decision("updates", "the source gives 20 min; stated as a revision (“new edition”)")])
    assert got[0].relation == "supports"
    got = revised_pages([_decision("supports", "the video's 18 min is inside"),
                         _decision("updates", "the source rejects the video's 18 min; the source names it as a former figure")])
    assert got[0].relation == "updates"


def test_the_judge_mode_applies_the_page_revision_too():
    """The rules' decisions reviewed by a judge still pass through ``revised_pages``: with no
    borderline case the endpoint is never asked, and the page's plain figure becomes its revision."""
    from vidsleuth.report.judge import Relater, decide_candidates

    anchor = _anchor("Add 18 grams of salt to the dough.")
    src = SimpleNamespace(location="guide.html", title="Dough guide", date="")
    cands = [SimpleNamespace(anchor_id="A1", excerpt=t, passage=SimpleNamespace(source=src), context="",
                             by_topic=False)
             for t in ("We now recommend 20 grams of salt for the dough, not 18 grams.",
                       "Use 20 grams of salt for the dough.")]
    rules = [d.relation for d in decide_candidates(Relater("rules"), [anchor], cands, "")]
    judged = decide_candidates(Relater("judge", model=None), [anchor], cands, "")
    assert rules == ["updates", "updates"]
    assert [d.relation for d in judged] == rules and all(d.decided_by == "rules" for d in judged)
