"""General failure classes found on the third development set, each on phrasings written here:
a bound is not the same value as a point of another scale, list items are statements, a former
value named with words between ("down from its list price of …"), an offset from a reference
("3 °C above the ambient"), a property table whose header names the thing, units that were read
as counts (lumens, decibels) or not at all (per-area rates), and "rated at" as a spec."""

from __future__ import annotations

from vidsleuth.report.anchors import _drafts
from vidsleuth.report.branches import _units
from vidsleuth.report.facts import subject_words
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.scope import other_rows
from vidsleuth.report.sources import Passage
from vidsleuth.report.sources.documents import list_items, passages_with_headings
from vidsleuth.report.types import Anchor, Moment, Source
from vidsleuth.types import Segment, Timeline, VideoInfo
from vidsleuth.values import read_values, same_value


def _anchor(text: str) -> Anchor:
    return Anchor("A1", "parameter", text, "", "", (Moment(1.0, 3.0, "speech", text),))


def test_a_bound_is_not_the_same_value_as_a_point_of_another_scale():
    week, bound = read_values("rest the dough 2 days")[0], read_values("keeps up to 18 months")[0]
    assert bound.contains(week) and not same_value(week, bound)
    assert same_value(read_values("about 45 minutes")[0], read_values("45 min")[0])
    assert same_value(read_values("at least 40 minutes")[0], read_values("45 minutes")[0])


def test_a_caption_with_another_scales_bound_is_its_own_anchor():
    tl = Timeline.build(VideoInfo("x.mp4", 30.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x"), [
        Segment(2.0, 6.0, "speech", "Leave the glue to cure for 2 days before sanding."),
        Segment(8.0, 12.0, "ocr", "Shelf life up to 18 months")])
    drafts = _drafts(tl)
    spoken = next(d for d in drafts if d["moments"][0].kind == "speech")
    assert [m.kind for m in spoken["moments"]] == ["speech"]
    assert any(d["moments"][0].kind == "ocr" and d["q"][0].form == "upper" for d in drafts)


def test_list_items_are_statements_of_their_own():
    notes = "- bed at 60 °C, never hotter than 70\n- first layer: 0.2 mm\n  at 20 mm/s\n- fan off for layer 1"
    assert list_items(notes) == ["bed at 60 °C, never hotter than 70", "first layer: 0.2 mm at 20 mm/s",
                                 "fan off for layer 1"]
    assert list_items("A line of prose\nthat wraps onto a second line.") == ["A line of prose that wraps onto a second line."]
    got = [p for p, _, _ in passages_with_headings("Print notes\n\n1. nozzle 235 °C\n2. bed 75 °C\n")]
    assert got == ["nozzle 235 °C", "bed 75 °C"]


def test_a_former_value_named_with_words_between_is_not_the_sources_figure():
    fee = _anchor("The membership costs $120 a year.")
    rel, why, _ = relate_rules(fee, "From March the club now charges $135, up from the old annual fee of $120.")
    assert rel == "updates" and "135" in why
    rel, _, _ = relate_rules(fee, "Membership is $120 a year.")
    assert rel == "supports"


def test_an_offset_from_a_reference_is_not_a_setting():
    proof = _anchor("Proof the dough at 27 °C.")
    rel, why, _ = relate_rules(proof, "Keep the dough about 5 °C above the room, which is 27 °C in most kitchens.")
    assert rel == "supports" and "27" in why


def test_a_property_table_whose_header_names_the_thing_keeps_its_rows():
    sheet = Source(id="d1", kind="document", title="Orbix R2 spec sheet", location="/x/spec.pdf")
    head = "| Feature | Orbix R2 |"
    rows = ["| Suction | 2,700 Pa |", "| Battery run time | 150 min |", "| Dustbin | 0.4 l |"]
    units = [(Passage(sheet, r, "text", context=head), r) for r in rows]
    assert other_rows(units, "Orbix R2 review: a suction champion?") == set()
    items = "| Robot | Suction (Pa) |"
    units = [(Passage(sheet, r, "text", context=items), r) for r in ("| Orbix R2 | 2,700 |", "| Vexa 9 | 4,000 |")]
    assert other_rows(units, "Orbix R2 review") == {1}


def test_units_that_were_counts_or_missing():
    assert [(v.dimension, v.point) for v in read_values("rated at 3,100 ANSI lumens")] == [("luminous flux", 3100.0)]
    assert [v.label() for v in read_values("a hum of 31 decibels, 34 dB(A) in boost")] == ["31 dB", "34 dB"]
    rate = read_values("spread 25 grams per square metre")[0]
    assert rate.dimension == "mass per area" and rate.contains(read_values("25 g/m²")[0])
    assert read_values("25 g/m²")[0].dimension != read_values("25 g")[0].dimension


def test_rated_at_is_a_spec_not_a_ceiling():
    life = _anchor("The lamp lasts 30,000 hours.")
    assert relate_rules(life, "The lamp is rated for 30,000 hours of use.")[0] == "supports"
    assert relate_rules(life, "Rated up to 30,000 hours under ideal conditions.")[0] is None


def test_a_caption_listing_values_of_several_subjects_is_one_anchor_each():
    tl = Timeline.build(VideoInfo("x.mp4", 30.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x"), [
        Segment(4.0, 9.0, "ocr", "大米300克·清水450毫升")])
    assert [[v.label() for v in d["q"]] for d in _drafts(tl)] == [["300 g"], ["450 ml"]]
    tl = Timeline.build(VideoInfo("x.mp4", 30.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x"), [
        Segment(4.0, 9.0, "ocr", "Saw blade 254 mm at 4,800 rpm")])
    assert len(_drafts(tl)) == 1


def test_a_short_list_line_with_a_value_is_a_statement_and_compounds_name_their_head():
    page = Source(id="d1", kind="document", title="家常米饭", location="/x/rice.html")
    assert any("300" in t for _, t in _units([Passage(page, "粳米 300克", "text")]))
    assert "酵母" in subject_words("干酵母 5克")


def test_a_multiple_of_the_original_is_no_revision():
    rise = _anchor("面团发酵约2小时")
    assert relate_rules(rise, "室温发酵2小时，体积膨胀到原来的3倍即可。")[0] == "supports"
    assert relate_rules(rise, "发酵时间由原来的2小时缩短为1小时。")[0] == "updates"


def test_a_limit_the_video_states_meets_the_sources_maximum():
    speed = _anchor("Descend no faster than 20 metres a minute.")
    assert relate_rules(speed, "descent: max 20 m/min, slower if your ears hurt")[0] == "supports"
    plain = _anchor("The pump moves 20 metres a minute.")
    assert relate_rules(plain, "descent: max 20 m/min, slower if your ears hurt")[0] is None


def test_an_approximate_figure_inside_the_sources_interval_agrees():
    soak = _anchor("Soak the beans for about 8 hours.")
    assert relate_rules(soak, "Soak dried beans for 8 to 12 hours before cooking.")[0] == "supports"
    assert relate_rules(soak, "Soak dried beans for 10 to 12 hours before cooking.")[0] == "contradicts"
