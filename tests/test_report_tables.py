"""Evidence branches on tables and pages as the second held-out set wrote them: a column header
that names no unit ("Range"), a row label that is itself the unit ("pH"), a table of several
things where one row is the video's, rows keyed by a case the video states (a rider's weight), a
PDF chart whose first column is a value, a page whose title states the anchor's figure, and a
model code the sources do not use."""

from __future__ import annotations

from vidsleuth.report.branches import rank
from vidsleuth.report.facts import statement
from vidsleuth.report.sources import Passage
from vidsleuth.report.sources.documents import pdf_tables
from vidsleuth.report.types import Anchor, Moment, Source


def _anchor(aid: str, text: str, kind: str = "ocr") -> Anchor:
    return Anchor(aid, "parameter", text, "", "", (Moment(1.0, 3.0, kind, text),))


def _row(source: Source, row: str, header: str) -> Passage:
    return Passage(source, row, "text", context=header)


def test_rows_under_a_header_without_a_unit():
    assert [r.value.label() for r in statement("| Temperature (°F) | 72–79 |", "| Parameter | Range |").readings] == [
        "72–79°F"]
    assert [r.value.label() for r in statement("| pH | 6.0–7.5 |", "| Parameter | Range |").readings] == ["pH 6–7.5"]
    assert [r.value.label() for r in statement("| Filter coffee | 250 ml cup | 70–140 |",
                                               "| Drink | Serving | Caffeine (mg) |").readings] == ["250 ml", "70–140 mg"]


def test_a_pdf_chart_whose_first_column_is_a_value():
    layout = "Rider weight (kg) Front (psi) Rear (psi)\n65 72 79\n75 80 87\n"
    assert "| 75 | 80 | 87 |" in pdf_tables(layout)
    st = statement("| 75 | 80 | 87 |", "| Rider weight (kg) | Front (psi) | Rear (psi) |")
    assert [c.label() for c in st.cases] == ["75 kg"]


def test_rows_for_other_cases_and_other_things_are_set_apart():
    chart = Source(id="d1", kind="document", title="Recommended pressures", location="/x/chart.pdf")
    head = "| Rider weight (kg) | Front (psi) | Rear (psi) |"
    front, rider = _anchor("A1", "Front 5.5 bar"), _anchor("A2", "Rider 75 kg")
    got = rank([front, rider], [_row(chart, "| 65 | 72 | 79 |", head), _row(chart, "| 75 | 80 | 87 |", head)],
               title="Road Tyre Pressure")
    assert {c.excerpt for c in got if c.anchor_id == "A1"} == {"| 75 | 80 | 87 |"}
    assert not any(c.beside for c in got)  # rows keyed by a value are cases, not other items
    sheet = Source(id="d2", kind="document", title="常见茶类冲泡参考标准", location="/x/tea.pdf")
    head = "| 茶类 | 水温(°C) | 投茶量(克) |"
    temp = _anchor("A1", "水温 80℃")
    got = rank([temp], [_row(sheet, "| 绿茶 | 80~85 | 3 |", head), _row(sheet, "| 白茶 | 85~90 | 4 |", head)],
               title="绿茶怎么泡才好喝")
    assert [c.excerpt for c in got] == ["| 绿茶 | 80~85 | 3 |"]


def test_a_rows_case_of_another_scale_than_the_videos_value_is_no_other_case():
    """A row keyed by the cat's weight (4 kg) is not "another case" for the video's 60 g of food: one mass is
    the cat's and the other the food's, 66 times apart. The rider's 65 kg row above is another case for a
    75 kg rider, of one scale."""
    guide = Source(id="d1", kind="document", title="Dry food feeding guide", location="/x/guide.html")
    head = "| Cat weight (kg) | Dry food (g/day) | Wet food (pouches) |"
    food = _anchor("A1", "Dry food: 60 g per day")
    got = rank([food], [_row(guide, "| 4 | 50–60 | 2 |", head)], title="How much to feed a cat")
    assert [c.excerpt for c in got] == ["| 4 | 50–60 | 2 |"]


def test_a_title_stating_the_anchors_figure_links_its_statements():
    forum = Source(id="d1", kind="document", title="5.5 bar on 28s — am I crazy?", location="/x/forum.md")
    front = _anchor("A1", "So I run five and a half bar in the front.", "speech")
    got = rank([front], [Passage(forum, "5.5 bar is way too hard for 28s, you'll be bouncing all over the place.",
                                 "text")], title="Road Tyre Pressure")
    assert [c.anchor_id for c in got] == ["A1"] and not got[0].by_topic


def test_a_code_few_sources_name_does_not_set_pages_apart():
    pages = [Source(id=f"d{k}", kind="document", title=t, location=f"/x/{k}.html")
             for k, t in enumerate(["Brewing Targets for Filter Coffee", "Our Pour-Over Recipe", "Extraction basics",
                                        "Is 96 °C too hot for a V60?"])]
    temp = _anchor("A1", "Water 96 °C")
    texts = ["Brewing water should be between 195 and 205 °F where it meets the water.",
             "Heat the water to 94 °C.", "Hotter water extracts faster.", "96 °C water is fine."]
    got = rank([temp], [Passage(p, t, "text") for p, t in zip(pages, texts)], topic="The Only V60 Recipe You Need",
               title="The Only V60 Recipe You Need")
    assert "d0" in {c.passage.source.id for c in got}  # one page in four names the V60


def test_rows_for_other_items_of_a_comparison_table_are_set_beside():
    from vidsleuth.report.branches import Decision, select

    page = Source(id="d1", kind="document", title="Home Batteries Compared", location="/x/compare.html")
    head = "| Model | Usable capacity (kWh) | Continuous power (kW) | Warranty (years) |"
    cap = _anchor("A1", "13.5 kWh usable")
    got = rank([cap], [_row(page, "| Brightcell 10 | 10.0 | 5.0 | 12 |", head)], topic="Helio Vault 13 Home Battery",
               title="Helio Vault 13 Home Battery")
    assert got and got[0].beside
    (d,) = select([Decision(got[0], "contradicts", "the source gives 10 kWh", 0.85, "rules")], 3)
    assert d.relation == "compares"


def test_a_value_goes_to_the_anchor_of_its_own_scale():
    page = Source(id="d1", kind="document", title="Flex Saver: Rates and Terms", location="/x/bank.html")
    share = _anchor("A1", "Save 20 % of your pay")
    rate = _anchor("A2", "a savings account paying about 4.5 percent of interest", "speech")
    got = rank([share, rate], [Passage(page, "The Flex Saver now pays 3.90% APY on all balances, paid monthly.", "text")])
    assert {c.anchor_id for c in got} == {"A2"}


def test_a_bare_number_under_a_counted_header_is_a_count():
    """"2" under "Coats recommended" is 2 coats (dev42: a paint's technical data); a header naming no counted noun
    leaves a bare number alone."""
    from vidsleuth.report.facts import statement

    header = "| Product | Spreading rate (m²/L) | Touch dry (hours) | Coats recommended |"
    st = statement("| Interior Matt Emulsion | 12–14 | 1 | 2 |", header)
    assert [r.value.label() for r in st.readings] == ["12–14 m²/L", "1 h", "2 coats"]
    assert [r.value.label() for r in statement("| Beginner | 3–4 | 12 |", "| Level | Sets | Reps per set |").readings] == [
        "3–4 sets", "12 reps"]
    assert statement("| Model X | 7 |", "| Product | Rating |").readings == ()
