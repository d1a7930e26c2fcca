"""The relater's principles on real phrasings: compound units, scale, the subject of each value
among several, former / reported / ceiling values, questions, applications, identifiers as
thing-words, section headings, datelines, and numbers ASR cuts across segments."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import find_anchors
from vidsleuth.report.facts import statement, subject_words
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources.dates import page_date
from vidsleuth.report.sources.documents import passages_with_headings
from vidsleuth.report.types import Anchor, Moment
from vidsleuth.types import Segment, Timeline, VideoInfo
from vidsleuth.values import commensurate, read_values


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 3.0, "speech", text),))


@pytest.mark.parametrize("text, label", [
    ("I brine the bird in 60 grams of salt per litre of water.", "60 g/L"),
    ("Brine: 60 g salt / 1 L water", "60 g/L"),
    ("I use 30 g per litre and it's plenty.", "30 g/L"),
    ("Use 125 grams of coarsely ground coffee per litre of water.", "125 g/L"),  # three words after "of"
])
def test_concentrations_are_one_compound_value(text, label):
    (v,) = read_values(text)
    assert v.dimension == "concentration" and v.label() == label


def test_a_rate_per_pound_is_not_a_time():
    assert [v.dimension for v in read_values("Plan on roughly 20 minutes per pound.")] != ["time"]


def test_ocr_label_glued_to_its_value():
    (v,) = read_values("NOZZLE240°℃")
    assert v.dimension == "temperature" and v.lo == 240


@pytest.mark.parametrize("a, b, same_scale", [
    ("about 90 minutes", "keep for up to three days", False),
    ("45 minutes", "under a second", False),
    ("625 Wh", "a 58 kWh battery", False),
    ("0.8 mm", "6 mm", True),
    ("240 °C", "65 °C", True),
])
def test_values_far_apart_are_not_one_quantity(a, b, same_scale):
    assert commensurate(read_values(a)[0], read_values(b)[0]) is same_scale


@pytest.mark.parametrize("video, excerpt, relation", [
    # the subject of each value: salt 6 g, not the narrower 25–30 g of oil in the same sentence
    ("每天食盐不超过6克", "成人每天食盐不超过6克，每天烹调油25～30克。", "supports"),
    ("每周中等强度运动150分钟", "每周至少进行5天中等强度身体活动，累计150分钟以上。", "supports"),
    # the former value is not support: the revision decides
    ("I print the outer walls at 50 millimeters per second.",
     "The default PETG outer-wall speed is now 40 mm/s, lowered from 50 mm/s, to improve surface finish.", "updates"),
    ("For retirement, the 401k limit for 2024 is $23,000.",
     "For 2025, the 401(k) employee contribution limit will increase to $23,500, up from $23,000 in 2024.", "updates"),
    # someone else's value, reported to be rejected
    ("I brine the bird in 60 grams of salt per litre of water.",
     "And whoever says 60 g of salt per litre for an overnight brine is going to get a salt lick — I use 30 g per "
     "litre and it's plenty.", "contradicts"),
    ("keep an emergency fund that covers six months of expenses.",
     "Six months is overkill if you have a stable job.", "contradicts"),
    # the video's figure used on a case of the source's own
    ("Save 20 % of take-home pay",
     "I applied the 20% rule to my $3,000 paycheck: that's an automatic $600 transfer to savings every payday.",
     "applies"),
    ("钠摄入过多会使血压升高", "钠摄入过多会使血压升高，从而增加中风和心脏病的风险。", "explains"),
    ("Preheat your oven to 180 degrees celsius.", "Roast the whole chicken at between 350 and 375 °F.", "supports"),
    # the video's own figure in the sentence is said of the video's thing, whatever else of its kind the sentence names
    ("I dose 18 grams of finely ground coffee into the basket.",
     "A classic starting ratio is 1:2: for an 18 g dose, stop the shot at around 36 g of espresso in the cup.", "supports"),
    ("每周运动150分", "运动我是按每周150分钟来安排的：每天快走30分钟，一周走5天，正好150分钟。", "applies"),  # its own case, twice
    # a range holding the video's figure is no statement of that very figure: the season the video names decides
    ("and every two weeks in winter.", "Water every 2–3 weeks in summer and once a month in winter.", "contradicts"),
    ("Simmer for 18 minutes and no peeking.", "Simmer for 18 minutes and don't lift the lid.", "supports"),  # a new instruction
    # a judgement of the clause before, by a demonstrative; a caution about the figure as advice
    ("My sleeping bag is rated to minus 18 degrees Celsius.", "Re the video's -18 °C bag: that is overkill for most camps.",
     "contradicts"),
    ("keep free chlorine at about two parts per million", 'And careful with "2 ppm free chlorine" advice.', "contradicts"),
])
def test_relations(video, excerpt, relation):
    assert relate_rules(_anchor(video), excerpt)[0] == relation


@pytest.mark.parametrize("video, excerpt", [
    ("rest it under foil for 15 minutes", "Saw a video saying rest the bird 15 minutes. Is that enough?"),
    ("每天6000步", "看到一个视频说每天走六千步就够了，真的吗？"),
    ("BED 80 °C", "Maximum bed temperature: 110 °C."),
    ("A 2 kilo chicken needs about 90 minutes in the oven.", "Keep the meat in the fridge for up to three days."),
    ("Clamp it for 45 minutes.", "Ninja is under a second."),
    ("A cat like this needs about 200 kilocalories a day.", "Video I watched said about 200 kcal a day for a 4 kg cat."),
])
def test_no_stance(video, excerpt):
    assert relate_rules(_anchor(video), excerpt)[0] is None


def test_identifiers_are_thing_words():
    assert {"x9", "401k"} <= subject_words("Trailvolt X9 and the 401(k) plan")
    assert not {"625wh", "24h", "3rd"} & subject_words("a 625Wh pack, 24h later, the 3rd coat")
    assert "x9" in statement("| X9 | 625 | 85 |", "| Model | Battery (Wh) | Motor torque (Nm) |").words


def test_hyphenated_words_meet_their_parts():
    assert {"outer", "wall"} <= subject_words("the outer-wall speed")


def test_section_heading_goes_with_its_paragraph():
    text = "How hot should the oven be?\nMost recipes roast a whole chicken at 350 °F.\nLeftovers\nKeep for 3 days."
    got = passages_with_headings(text, lines=True)
    assert got[0] == ("Most recipes roast a whole chicken at 350 °F.", "", "How hot should the oven be?")
    assert got[1][2] == "Leftovers"


@pytest.mark.parametrize("text, date", [
    ("Contribution limits\nNovember 1, 2023\nThe table below lists the limits.", "2023-11-01"),
    ("401(k) limit rises\nBy Priya Natarajan · November 1, 2024\nFor 2025 …", "2024-11-01"),
    ("PETG Profile Changes\nUpdated March 2025\nRelease notes.", "2025-03"),
    ("Freezer guide\nUpdated March 2024\nPrinted on 2026-11-02 from example.org\nKeep it cold.", "2024-03"),  # not the print day
    ("Freezer guide\nPrinted: 12 November 2026\nKeep it cold.", ""),
])
def test_datelines(text, date):
    assert page_date("", text) == date


def test_a_number_cut_across_speech_segments_is_one_anchor():
    info = VideoInfo("v.mp4", 20.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "abc")
    timeline = Timeline.build(info, [Segment(1.0, 3.0, "speech", "I flatten it with a router, using a 40 mm bit at 18,"),
                                     Segment(3.0, 3.5, "speech", "000 RPM.")])
    anchors = find_anchors(timeline, "check the router speed")
    assert any("18,000 rpm" in a.value for a in anchors)


def test_a_machine_ceiling_is_not_the_setting():
    assert relate_rules(_anchor("BED 80 °C"), "Maximum hotend temperature: up to 300 °C.")[0] is None
    assert relate_rules(_anchor("每天食盐不超过6克"), "食盐的上限是每天不超过6克。")[0] == "supports"


def test_a_pdf_table_whose_columns_were_lost_is_read_by_its_unit_columns():
    from vidsleuth.report.sources.documents import pdf_tables

    text = pdf_tables("Material presets\n\nMaterial Nozzle (°C) Bed (°C) Retraction (mm)\n\nPETG 235–245 80 6\n\nPresets vary.")
    assert "| PETG | 235–245 | 80 | 6 |" in text and "| Material | Nozzle (°C) | Bed (°C) | Retraction (mm) |" in text
    st = statement("| PETG | 235–245 | 80 | 6 |", "| Material | Nozzle (°C) | Bed (°C) | Retraction (mm) |")
    assert [r.value.label() for r in st.readings] == ["235–245°C", "80°C", "6 mm"]


def test_a_table_caption_is_not_its_header():
    text = "| Working properties |  |\n|---|---|\n| Stage | Time (minutes) |\n|---|---|\n| Clamp time | 30–60 |"
    (row,) = [p for p in passages_with_headings(text) if p[1]]
    assert row == ("| Clamp time | 30–60 |", "| Stage | Time (minutes) |", "Working properties")
    assert relate_rules(_anchor("Clamp it for 45 minutes."), row[0], context=row[1])[0] == "supports"


def test_a_table_row_for_another_case_is_not_evidence():
    head = "| Bit diameter (mm) | Maximum speed (rpm) |"
    video = _anchor("I use a 40 millimeter bit at 18,000 RPM.")
    assert relate_rules(video, "| up to 25 | 24,000 |", context=head)[0] is None
    assert relate_rules(video, "| 25–50 | 18,000 |", context=head)[0] == "supports"
    assert relate_rules(video, "| 25–50 | 16,000 |", context=head)[0] == "contradicts"


def test_background_on_a_page_off_the_videos_thing_must_name_the_whole_subject():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    ninja = Source(id="d1", kind="document", title="The Ninja build system", location="/x/manual.html")
    guide = Source(id="d2", kind="document", title="Drying oak for a table", location="/x/guide.html")
    a = Anchor("A1", "parameter", "Moisture content: 8 %", "content moistur", "8%",
               (Moment(1.0, 3.0, "ocr", "Moisture content: 8 %"),))
    said = "However, the list of outputs depends on the content of the file."
    got = rank([a], [Passage(ninja, said, "text"), Passage(guide, "Moisture matters because wet wood shrinks as it dries.",
                                                           "text")], title="Oak table top")
    assert [c.passage.source.id for c in got] == ["d2"]


def test_a_value_equal_to_one_anchor_speaks_of_that_anchor():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title="r/SimpleMoney", location="/x/forum.txt")
    save = Anchor("A1", "parameter", "Save 20 % of take-home pay into a savings account", "", "20%",
                  (Moment(1.0, 3.0, "ocr", "Save 20 % of take-home pay into a savings account"),))
    rate = Anchor("A2", "parameter", "a savings account paying 4.5 percent", "", "4.5%",
                  (Moment(5.0, 7.0, "speech", "a savings account paying 4.5 percent"),))
    text = "I put 20% of my pay into the savings account every payday."
    got = {c.anchor_id for c in rank([save, rate], [Passage(src, text, "text")])}
    assert got == {"A1"}


def test_each_column_of_a_row_is_its_own_subject():
    head = "| Material | Nozzle (°C) | Bed (°C) | Retraction (mm) |"
    assert relate_rules(_anchor("Set the nozzle to 240 degrees."), "| PETG | 235–245 | 80 | 6 |", context=head)[0] == "supports"
    assert relate_rules(_anchor("BED 80 °C"), "| PETG | 235–245 | 80 | 6 |", context=head)[0] == "supports"


def test_a_statement_linked_only_by_the_topic_may_agree_but_not_dispute():
    from vidsleuth.report.branches import Candidate, Decision, select
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title="Safe minimum temperatures", location="/x/chart.html")
    row = Passage(src, "| Ground meats | 160 |", "text", context="| Food | Minimum internal temperature (°F) |")
    cands = [Candidate("A1", row, row.text, 0.6, by_topic=True), Candidate("A2", row, row.text, 0.6, by_topic=True)]
    kept = select([Decision(cands[0], "contradicts", "the source gives 160 °F", 0.85, "rules"),
                   Decision(cands[1], "supports", "equal", 0.9, "rules")], per_anchor=3)
    assert [d.candidate.anchor_id for d in kept] == ["A2"]


def test_a_spec_row_speaks_of_every_kind_it_states():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title="X-Series specifications", location="/x/specs.html")
    head = "| Model | Battery (Wh) | Weight (kg) |"
    battery = Anchor("A1", "parameter", "Battery 625Wh", "", "625 Wh", (Moment(1.0, 3.0, "ocr", "Battery 625Wh"),))
    weight = Anchor("A2", "parameter", "On my scale it weighs 24.5 kilos with pedals", "", "24.5 kg",
                    (Moment(5.0, 7.0, "speech", "On my scale it weighs 24.5 kilos with pedals"),))
    got = rank([battery, weight], [Passage(src, "| X9 | 625 | 23.9 |", "text", context=head)], topic="Trailvolt X9 review")
    assert {c.anchor_id for c in got} == {"A1", "A2"} and not any(c.by_topic for c in got)


def _plain(c, figure: str):
    from vidsleuth.report.branches import Decision

    return Decision(c, "contradicts", f"the source gives {figure} where the video has another", 0.85, "rules")


def test_a_plain_difference_needs_a_statement_that_names_the_anchors_thing():
    """"A refrigerator keeps food safe for about 4 hours" (a power cut) on a page about fridges is not
    against "get leftovers into the fridge within two hours": the statement names nothing of the
    claim's. "Eat leftovers within 2 days" names it, and its plain difference stays a dispute."""
    from vidsleuth.report.branches import Candidate, Decision, rank, select
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title="Leftovers and food safety", location="/x/leftovers.html")
    said = ["A refrigerator keeps food safe for about 4 hours if it is unopened.", "Eat leftovers within 2 days."]
    chill = _anchor("Get the leftovers into the fridge within two hours of cooking.")
    eat = Anchor("A2", "parameter", "And eat the leftovers within four days.", "", "4 day",
                 (Moment(5.0, 7.0, "speech", "And eat the leftovers within four days."),))
    got = rank([chill, eat], [Passage(src, t, "text") for t in said], topic="How long do leftovers keep?")
    unnamed = {(c.anchor_id, c.excerpt): c.unnamed for c in got}
    assert unnamed.get(("A2", said[1])) is False
    fridge = [c for c in got if c.excerpt == said[0]]
    assert fridge and all(c.unnamed for c in fridge)
    agree = Candidate("A1", Passage(src, "Refrigerate leftovers within 2 hours.", "text"), "Refrigerate leftovers within 2 hours.", 0.7)
    kept = select([_plain(c, "≈ 4 h") for c in fridge] + [_plain(c, "2 day") for c in got if c.excerpt == said[1]] + [
        Decision(agree, "supports", "equal", 0.9, "rules")], 3)
    assert sorted((d.candidate.anchor_id, d.relation) for d in kept) == [("A1", "supports"), ("A2", "contradicts")]
    # a statement that says it disputes keeps its difference, named or not
    text = "Two hours is far too long, whatever the old charts say."
    disputed = Candidate("A1", Passage(src, text, "text"), text, 0.5, unnamed=True)
    assert [d.relation for d in select([_plain(disputed, "2 h")], 3)] == ["contradicts"]


def test_a_comparison_in_words_sets_no_value_beside_the_videos():
    """The contract's *compares* sets another item's value beside the video's: "small compared with an electric
    car" sets none beside a charge time of 8 hours, so it takes no stance (dev42: an e-bike page)."""
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.types import Anchor

    timed = Anchor("A1", "parameter", "A full charge takes about 8 hours.", "full charge time", "≈ 8 h")
    rel, why, _ = relate_rules(timed, "E-bike batteries are small compared with an electric car, so charging is quick.")
    assert rel is None and "no value" in why
    told = Anchor("A2", "procedure", "Charge the car overnight at home.", "home charging", "")
    assert relate_rules(told, "Charging at home is cheaper than charging at a public station.")[0] == "compares"


def test_a_page_that_asks_why_explains_in_its_words():
    """On "Why Is 7.4 the Magic pH for Pools?" a sentence that names the pH and gives no figure is the page's reasoning
    for the figure (which anchor it is for is ``coherence.titled_background``'s: the one its title is about)."""
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.types import Anchor

    ph = Anchor("A3", "parameter", "pH 7.4", "", "pH 7.4")
    said = "It is also a good compromise for chlorine, which loses strength as pH rises."
    assert relate_rules(ph, said, title="Why Is 7.4 the Magic pH for Pools?")[0] == "explains"
    assert relate_rules(ph, said, title="Pool care basics")[0] is None


def test_an_explaining_pages_background_goes_to_the_anchor_its_title_is_about():
    """"Why wider road tyres are faster": its sentence on pressure explains the width, not the video's pressure."""
    from vidsleuth.models.registry import embedder_for
    from vidsleuth.report.branches import Candidate, Decision
    from vidsleuth.report.coherence import titled_background
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Anchor, Source

    width = Anchor("A1", "parameter", "I'm running 28 millimetre tyres with inner tubes.", "tyre width", "28 mm",
                   heading="Tyre width")
    pressure = Anchor("A2", "parameter", "For tubes, I pump the rear to 80 psi.", "tyre pressure", "80 psi",
                      heading="Rear tyre pressure")
    page = Source("S1", "document", "Why wider road tyres are faster", "/docs/why-wider.html")
    said = "That lower pressure also lets the tyre soak up vibration instead of passing it into the rider."
    passage = Passage(page, said, "text")
    decided = [Decision(Candidate(a.id, passage, said, 1.0), *relate_rules(a, said, title=page.title), "rules")
               for a in (width, pressure)]
    assert [d.relation for d in decided] == ["explains", "explains"]  # the page's reading alone links both
    kept = titled_background(decided, [width, pressure], embedder_for(None))
    assert [d.relation for d in kept] == ["explains", None]
    assert [d.relation for d in titled_background(decided, [width, pressure], None)] == [None, None]  # no e5: none


@pytest.mark.parametrize("text, n", [
    ("Thaw approx. 5 hours per lb. in the fridge.", 1),  # an abbreviation's full stop ends no sentence
    ("Dr. Smith says 2 min. is enough.", 1),
    ("Feed 120 g/day vs. 100 g for bantams.", 1),
    ("Keep it cold. Then wait.", 2),
    ("See Fig. 3 for the chart. It shows 5 kg.", 2),
])
def test_sentences_and_abbreviations(text, n):
    from vidsleuth.report.facts import sentences

    assert len(sentences(text)) == n
