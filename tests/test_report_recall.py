"""Recall classes of the relation stage: a statement whose value is an anchor's own figure speaks of
that anchor even when it names another anchor's thing; of two anchors of one kind the one of the
statement's scale competes for it; an approximation is as specific as a point. Phrasings written
here, each with the relation or link it must give."""

from __future__ import annotations

from vidsleuth.report.branches import rank
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Anchor, Moment, Source


def _a(aid: str, text: str, value: str = "") -> Anchor:
    return Anchor(aid, "parameter", text, "", value, (Moment(1.0, 3.0, "speech", text),))


def _page(title: str, *texts: str, context: str = "") -> list[Passage]:
    src = Source(id="d1", kind="document", title=title, location=f"/x/{title.split()[0].lower()}.html")
    return [Passage(src, t, "text", context=context) for t in texts]


def test_a_value_equal_to_an_anchors_speaks_of_it_beside_another_anchors_thing():
    cure = _a("A1", "The coating needs to cure for about three days.")
    wax = _a("A2", "Then polish with 5 grams of wax per square metre.")
    page = _page("Resin river table notes", "Demould the river table after about three days, then rub in 5 g/m² of wax with a soft cloth.",
                 "Stir the coating slowly so that no bubbles form.")
    got = {(c.anchor_id, c.excerpt[:4]) for c in rank([cure, wax], page, title="Resin river table", topic="Resin river table")}
    assert ("A1", "Demo") in got and ("A2", "Demo") in got


def test_a_coincident_value_on_a_page_that_never_names_the_thing_is_not_linked():
    cure = _a("A1", "The coating needs to cure for about three days.")
    wax = _a("A2", "Then polish with 5 grams of wax per square metre.")
    page = _page("Resin river table notes", "Demould the river table after about three days, then rub in 5 g/m² of wax with a soft cloth.",
                 "Stir the epoxy slowly so that no bubbles form.")
    got = {c.anchor_id for c in rank([cure, wax], page, title="Resin river table", topic="Resin river table")}
    assert "A1" not in got


def test_a_wide_range_or_a_bound_does_not_say_whose_value_it_is():
    cure = _a("A1", "The coating needs to cure for about three days.")
    wax = _a("A2", "Then polish with 5 grams of wax per square metre.")
    page = _page("Resin river table notes", "Demould the river table after 1 to 10 days, then rub in 5 g/m² of wax.",
                 "Stir the coating slowly so that no bubbles form.")
    got = {(c.anchor_id, c.excerpt[:4]) for c in rank([cure, wax], page, title="Resin river table", topic="Resin river table")}
    assert ("A1", "Demo") not in got and ("A2", "Demo") in got


def test_of_two_anchors_of_one_kind_the_one_of_the_rows_scale_competes_for_it():
    gap = _a("A1", "Leave about 3 mm of gap between hardwood boards.", "3 mm")
    run = _a("A2", "Let hardwood boards dry 24 hours, on runs of up to 400 m.", "24 h")
    head = "| Board | Gap (mm) | Drying time (h) |"
    rows = _page("Decking board gap guide", "| Hardwood boards | 3 | 24 |", context=head)
    got = {c.anchor_id for c in rank([gap, run], rows, title="Deck build")}
    assert "A1" in got


def test_an_approximation_is_as_specific_as_a_point():
    cure = _a("A1", "The resin needs to harden for about two weeks.")
    said = "Demould after about two weeks, then leave the slab flat for three weeks."
    assert relate_rules(cure, said)[0] == "supports"
    assert relate_rules(cure, "Demould after five weeks, then leave the slab flat for three weeks more.")[0] == "contradicts"


def test_prefixed_si_units_are_quantities():
    from vidsleuth.values import read_values

    got = [(v.label(), v.dimension) for t in ("the lag dropped to 18 ms", "it came in at 32 milliseconds", "a 2.4 GHz link",
                                               "draws 500 mA", "1013 hPa at sea level", "about 300 lux on the desk")
           for v in read_values(t)]
    assert got == [("18 ms", "time"), ("32 ms", "time"), ("2.4 GHz", "frequency"), ("500 mA", "current"),
                   ("1013 hPa", "pressure"), ("≈ 300 lux", "illuminance")]
    lag = _a("A1", "Input lag in game mode came in at 32 milliseconds.")
    assert relate_rules(lag, "Input lag is 32 ms in game mode.")[0] == "supports"
    assert relate_rules(lag, "In game mode the input lag measured 0.032 s.")[0] == "supports"


def test_a_maximum_that_is_the_videos_own_figure_is_the_spec_it_quotes():
    claim = _a("A1", "The claimed flight time is 34 minutes.")
    assert relate_rules(claim, "Maximum flight time 34 minutes per battery (windless, constant speed).")[0] == "supports"
    setting = _a("A1", "Set the bed to 60 degrees.")
    assert relate_rules(setting, "Maximum bed temperature: 110 °C.")[0] is None  # a ceiling beside a setting: no stance


def test_a_step_of_a_procedure_without_a_value_applies_the_subject():
    rest = _a("A1", "Rest the brisket for 45 minutes before slicing.")
    for step in ("Slice the brisket against the grain once it has rested.", "Wrap it in butcher paper for the rest.",
                 "1. Look up the resting time for your cut in the chart."):
        assert relate_rules(rest, step)[0] == "applies", step
    for said in ("Resting brisket is something most pitmasters swear by.", "Resting matters because the juices settle.",
                 "Cutting it too early spills the juice.", "Pitmasters rest the brisket in a cooler.",
                 "Brisket for the smoker is sold by the kilo."):
        assert relate_rules(rest, said)[0] != "applies", said


def test_a_bare_number_beside_a_note_with_its_own_unit_takes_the_headers_unit():
    from vidsleuth.report.facts import read_row

    got = [r.value.label() for r in read_row("| Charging time (min) | 70 (65 W charger) |", "| Item | Value |").readings]
    assert got == ["70 min", "65 W"]
    assert [r.value.label() for r in read_row("| Fast charger | 90 (with 30 W) |", "| Charger | Time (min) |").readings] == [
        "90 min", "30 W"]
    charge = _a("A1", "A full charge takes 70 minutes on the 65 watt charger.")
    assert relate_rules(charge, "| Charging time (min) | 70 (65 W charger) |", context="| Item | Value |")[0] == "supports"


def test_a_comparison_row_the_video_names_is_its_own_item_not_another():
    bath = _a("A1", "For medium rare, set the bath to 129 degrees Fahrenheit.")
    head = "| Doneness | Temperature (°F) | Temperature (°C) |"
    rows = _page("Sous-vide steak temperature chart", "| Well-done | 145–155 | 63–68 |", "| Medium-rare | 129–134 | 54–57 |",
                 context=head)
    got = {c.excerpt.split("|")[1].strip(): c.beside for c in rank([bath], rows, title="Steak", topic="Sous-vide steak")}
    assert got.get("Medium-rare") is False  # the video's own doneness: for or against it, not set beside it
    assert got.get("Well-done", True) is True  # another doneness, if linked at all, is set beside the video's value
