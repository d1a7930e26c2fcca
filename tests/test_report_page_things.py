"""Statements about their own page's thing, which the video never names (``scope.page_things``): on a
sibling page (a varnish page beside a wall-paint video) they are no evidence; on a page that compares it
with the video's thing (a limewash-or-emulsion page) they are set beside the video's value. Invented pages."""

from vidsleuth.report.branches import Decision, rank, select
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Anchor, Moment, Source

TITLE = "Painting a bedroom wall"
REQUEST = "Is the drying time between coats in this wall-paint video right?"
HEARD = "Let each coat of emulsion dry for four hours before the next. Emulsion, 4 h between coats"


def _anchor() -> Anchor:
    text = "Let each coat of emulsion dry for four hours before the next."
    return Anchor("A1", "parameter", text, "", "", (Moment(3.0, 7.0, "speech", text),))


def _page(loc: str, title: str, *texts: str) -> list[Passage]:
    src = Source(id=loc, kind="document", title=title, location=f"/docs/{loc}.html")
    return [Passage(src, t, "text") for t in texts]


PAGES = (_page("guide", "Emulsion drying times between coats", "Leave emulsion to dry for 2 to 4 hours between coats.")
         + _page("varnish", "Floor varnish basics", "Floor varnish needs 8 hours between coats.",
                 "Sand the varnish lightly before each coat.")
         + _page("limewash", "Limewash or emulsion? Choosing a wall finish",
                 "Limewash needs 24 hours between coats, far longer than emulsion.",
                 "Emulsion covers in two coats on a sound wall.")
         + _page("prep", "Preparing a wall for emulsion", "Fill cracks and let the filler set overnight."))


def _records(heard: str) -> dict[str, str]:
    anchor = _anchor()
    cands = rank([anchor], PAGES, topic=f"{TITLE} {REQUEST}", title=TITLE, heard=heard)
    decided = [Decision(c, *relate_rules(anchor, c.excerpt, "", "", c.context, c.passage.source.title), "rules")
               for c in cands]
    return {d.candidate.passage.source.id: d.relation for d in select(decided, per_anchor=3)}


def test_a_sibling_pages_own_thing_is_no_evidence_and_a_comparison_pages_is_set_beside():
    got = _records(HEARD)
    assert got.get("guide") == "supports"
    assert "varnish" not in got  # 8 hours for floor varnish says nothing of the emulsion's 4 hours
    assert got.get("limewash") == "compares"  # the page names emulsion too: limewash is set beside it


def test_too_few_pages_tell_nothing_of_what_only_one_page_says():
    anchor = _anchor()
    few = [p for p in PAGES if p.source.id in ("guide", "varnish", "limewash")]
    cands = rank([anchor], few, topic=f"{TITLE} {REQUEST}", title=TITLE, heard=HEARD)
    assert "varnish" in {c.passage.source.id for c in cands}


def test_a_thing_the_video_names_is_its_own():
    # a video that shows the varnish too: the varnish page's 8 hours are about something it names, so the page
    # is not set apart as a sibling's; judged as a whole it still agrees nowhere and only differs plainly, so
    # ``coherence`` drops it from the report
    anchor = _anchor()
    cands = rank([anchor], PAGES, topic=f"{TITLE} {REQUEST}", title=TITLE,
                 heard=HEARD + " Then a coat of floor varnish on the skirting.")
    decided = {c.passage.source.id: relate_rules(anchor, c.excerpt, "", "", c.context, c.passage.source.title)[0]
               for c in cands if not c.beside}
    assert decided.get("varnish") == "contradicts"
    assert "varnish" not in _records(HEARD + " Then a coat of floor varnish on the skirting.")


def test_a_titles_activity_is_no_thing_of_its_own():
    # "Recoating" is what the page is about doing, not another thing: its emulsion figure stays for or against
    pages = [p for p in PAGES if p.source.id != "guide"] + _page(
        "recoat", "Recoating tired walls: our advice changed", "When recoating, leave emulsion 4 hours between coats.")
    anchor = _anchor()
    cands = rank([anchor], pages, topic=f"{TITLE} {REQUEST}", title=TITLE, heard=HEARD)
    decided = [Decision(c, *relate_rules(anchor, c.excerpt, "", "", c.context, c.passage.source.title), "rules")
               for c in cands]
    got = {d.candidate.passage.source.id: d.relation for d in select(decided, per_anchor=3)}
    assert got.get("recoat") == "supports"


def test_chinese_character_pairs_are_no_page_things():
    from vidsleuth.report.scope import page_things

    pages = [_page(f"p{k}", t, x) for k, (t, x) in enumerate([
        ("绿萝施肥的正确方法", "很多人施肥太勤：每两周一次就够了。"), ("绿萝怎么养", "每两周施一次薄肥。"),
        ("盆栽浇水", "见干见湿。"), ("花肥用量表", "每升水兑1克复合肥。")])]
    units = [(p, p.text) for page in pages for p in page]
    assert page_things(units, heard=set(), own={"绿萝"}) == (set(), set())


def test_a_sibling_page_that_names_the_videos_thing_in_passing_is_still_no_evidence():
    # "adult" is a word of the video's thing ("adult dog"), and the cat page says it too: its cat figures stay apart
    anchor = Anchor("A1", "parameter", "Treats should be no more than 10% of those calories.", "", "",
                    (Moment(3.0, 7.0, "speech", "Treats should be no more than 10% of those calories."),))
    pages = (_page("dogs", "Feeding your adult dog", "Treats should make up no more than 10% of a dog's calories.")
             + _page("cat", "Cat feeding guide", "Treats should stay under 10% of a cat's daily calories.",
                     "An adult cat of about 10 lb needs roughly 200 kcal a day.")
             + _page("water", "How much water does a dog need?", "About one ounce per pound of body weight.")
             + _page("meals", "Why two meals a day", "Most adult dogs do best on two meals a day."))
    cands = rank([anchor], pages, topic="Feeding an adult dog How much should my adult dog eat?",
                 title="Feeding an adult dog", heard="Treats should be no more than 10% of those calories. adult dog kibble")
    got = {c.passage.source.id for c in cands}
    assert "dogs" in got and "cat" not in got


def test_a_statement_naming_both_things_sets_one_beside_the_other():
    anchor = Anchor("A1", "parameter", "Sitting, set the desk at about 73 centimeters.", "", "",
                    (Moment(3.0, 7.0, "speech", "Sitting, set the desk at about 73 centimeters."),))
    said = "For an average adult a treadmill desk ends up at around 120 cm, about 10 cm higher than a plain standing desk."
    pages = (_page("chart", "Desk and chair height chart", "For an average adult, set the desk at 72 to 76 cm.")
             + _page("treadmill", "Treadmill desk setup", said, "A treadmill deck lifts you about 10 cm off the floor.")
             + _page("chair", "Office chair buying guide", "The seat should sit 48 to 53 cm from the floor.")
             + _page("forum", "Sit-stand routine?", "I switch every 30 minutes."))
    cands = rank([anchor], pages, topic="Setting up a standing desk Are the desk heights right?",
                 title="Setting up a standing desk", heard="Sitting, set the desk at about 73 centimeters. standing desk chair")
    assert [c.beside for c in cands if c.passage.source.id == "treadmill"] == [True]


def test_a_siblings_statement_is_set_beside_only_where_it_compares():
    from vidsleuth.report.scope import own_thing, page_things

    pages = [p for p in PAGES if p.source.id != "limewash"] + _page(
        "lime", "Limewash basics", "Limewash on a bedroom wall needs 24 hours between coats.",
        "Limewash on a wall takes far longer to dry than emulsion paint.")
    units = [(p, p.text) for p in pages]
    from vidsleuth.report.facts import subject_words
    beside, apart = page_things(units, subject_words(HEARD), own_thing(TITLE, REQUEST))
    lime = {p.text: i for i, (p, _) in enumerate(units) if p.source.id == "lime"}
    assert lime["Limewash on a bedroom wall needs 24 hours between coats."] in apart  # names the wall, compares nothing
    assert lime["Limewash on a wall takes far longer to dry than emulsion paint."] in beside
