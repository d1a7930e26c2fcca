"""Which documents and statements reach an anchor, on generated cases written from the principle
(made-up kettles, lamps, tents and bikes; no development set's text): a document about the video's
own product is kept whatever words follow the product's name, a page about another model of the
same brand is set apart even when the name carries no model number."""

from __future__ import annotations

from vidsleuth.report.relevance import Document, Signals, decide, names_in, proper_names, said_in, signals


class _FlatEmbedder:
    """Every text alike: only the names decide."""

    def embed(self, texts, kind="passage"):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2


def _kept(video: str, docs: list[Document]) -> dict[str, bool]:
    return {s.location: decide(s).keep for s in signals(docs, video, _FlatEmbedder(), video_text=video)}


def test_a_document_kind_after_the_model_is_no_variant():
    # "User Manual" says what the document is; "Pro" says which model
    assert "Lumora K4" in names_in("Lumora K4 User Manual")
    assert said_in("Lumora K4", "Lumora K4 User Manual - page 3")
    assert not said_in("Lumora K4", "Lumora K4 Pro specifications")


def test_the_own_manual_is_kept_when_no_text_writes_user_in_lower_case():
    video = "Lumora K4 lamp after a month\nIs this Lumora K4 review right about the brightness?\nThe K4 gives 800 lumens."
    docs = [Document("/d/manual.pdf", "Lumora K4 User Manual", ("1. Safety",), ("Lumora K4 User Manual - 1",)),
            Document("/d/k6.html", "Lumora K6 specifications", (), ("The K6 gives 1200 lumens.",)),
            Document("/d/shop.html", "Lumora K4 desk lamp", (), ("Brightness 800 lm.",)),
            Document("/d/care.html", "Lamp care", (), ("Dust the shade monthly.",))]
    got = _kept(video, docs)
    assert got["/d/manual.pdf"] and got["/d/shop.html"] and got["/d/care.html"]
    assert not got["/d/k6.html"]


def test_a_name_does_not_run_from_a_title_into_a_numbered_heading():
    doc = Document("/d/guide.pdf", "The Hiker's Tent Pitch & Care Guide", ("1. Safety information", "2. Pitching"),
                   ("Read all instructions first.",))
    assert not names_in(doc.profile("\n"), {"read", "all"})


def test_proper_names_without_digits_come_from_the_users_words():
    got = proper_names("Is this review of the Quillbrook Trek tent right?\nQuillbrook Trek | Pitching · Guying out")
    assert "Quillbrook Trek" in got
    assert not proper_names("Welcome back. Today we pitch a tent.", {"today"})
    assert not proper_names("Gear · Guying out the tent", set(), single=False)  # a caption's one word is no name
    assert not proper_names("the Quillbrook Trek 2 tent")  # the run before a number belongs to the numbered name


def test_a_brands_other_model_without_a_number_is_set_apart():
    video = ("Pitching the Quillbrook Trek\nIs what this camper says about the Quillbrook Trek tent right?\n"
             "The Trek weighs 1.4 kilograms and pitches in five minutes.\nQuillbrook Trek | Weight")
    docs = [Document("/d/trek.html", "Quillbrook Trek tent", (), ("The Quillbrook Trek weighs 1.4 kg.",)),
            Document("/d/dome.html", "Quillbrook Dome 4 P", (), ("| Feature | Dome | | Weight | 6.2 kg |",)),
            Document("/d/summit.html", "Quillbrook Summit tent", (), ("A four-season summit tent: 2.9 kg.",)),
            Document("/d/forum.html", "Tents in wind", (), ("My Quillbrook Trek held in 60 km/h wind.",)),
            Document("/d/guying.html", "Guying out a tent", (), ("Use all guy lines in wind.",))]
    got = _kept(video, docs)
    assert got["/d/trek.html"] and got["/d/forum.html"] and got["/d/guying.html"]
    assert not got["/d/dome.html"]  # "Dome 4 P" is four persons, not a model number: the name is "Quillbrook Dome"
    assert not got["/d/summit.html"]  # a model word the video never says, though the page writes "summit" in lower case


def test_a_camelcase_brand_keeps_its_model_number_and_does_not_keep_another_models_page():
    video = "BrewMaster 300 descaling\nIs the descaling advice for my BrewMaster 300 right?\nThe 300 needs 50 ml."
    docs = [Document("/d/b300.html", "BrewMaster 300 manual", (), ("Use 50 ml of descaler in the BrewMaster 300.",)),
            Document("/d/b500.html", "BrewMaster 500 specifications", (), ("BrewMaster 500: descale with 80 ml.",)),
            Document("/d/shop.html", "Descaler 500 ml", (), ("For every machine.",)),
            Document("/d/scale.html", "Why limescale forms", (), ("Hard water leaves calcium.",))]
    got = _kept(video, docs)
    assert got["/d/b300.html"] and not got["/d/b500.html"]


def test_a_code_glued_to_chinese_text_is_a_model_name():
    assert "QF-30" in names_in("安和QF-30电热水器")
    assert "QF-50" in names_in("安和QF-50 50升电热水器")


def test_a_plain_proper_name_does_not_make_the_product_known():
    video = "Your first cider\nI want to make the cider with the Orchardly kit.\nPress the apples."
    docs = [Document("/d/kit.pdf", "Orchardly cider kit instructions", (), ("Orchardly kit: add 5 g yeast.",)),
            Document("/d/kit2.html", "Orchardly kit FAQ", (), ("The Orchardly kit makes 10 L.",)),
            Document("/d/calc.html", "Carbonation calculator", (), ("CO2 volumes: 2.5 for cider.",)),
            Document("/d/press.html", "Pressing apples", (), ("Press slowly.",))]
    got = {s.location: s for s in signals(docs, video, _FlatEmbedder(), video_text=video)}
    assert not got["/d/calc.html"].product_known and decide(got["/d/calc.html"]).keep
    assert isinstance(got["/d/kit.pdf"], Signals) and decide(got["/d/kit.pdf"]).keep


def _a(aid: str, text: str):
    from vidsleuth.report.types import Anchor, Moment

    return Anchor(aid, "parameter", text, "", "", (Moment(1.0, 3.0, "speech", text),))


def _page(title: str, *texts: str):
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title=title, location="/x/page.html")
    return [Passage(src, t, "text") for t in texts]


def test_a_data_sheets_unit_column_gives_each_row_its_unit():
    from vidsleuth.report.facts import statement
    from vidsleuth.report.sources.documents import passages_with_headings

    text = ("Data sheet for the lamp.\n\n| Property | Unit | Value |\n|---|---|---|\n| Luminous flux | lm | 780–820 |\n"
            "| Colour | – | warm white |\n\n| 项目 | 单位 | 数值 |\n|---|---|---|\n| 功率 | W | 9 |\n")
    rows = [(p, c) for p, c, _ in passages_with_headings(text) if p.startswith("|")]
    assert rows[0] == ("| Luminous flux | lm | 780–820 |", "| Property | Unit | Value (lm) |")  # the row as written
    assert rows[1] == ("| Colour | – | warm white |", "| Property | Unit | Value |")  # no unit to add
    assert statement(*rows[2]).readings[0].value.dimension == statement("| 功率 | 9 W |").readings[0].value.dimension
    flux = statement(*rows[0]).readings[0].value
    assert (flux.lo, flux.hi) == (780, 820) and flux.form == "range"


def test_a_year_is_no_model_number_and_a_variant_of_the_videos_model_is_a_sibling():
    assert not names_in("Posted 2024 by the editors")
    video = "Voltaro R4 review\nIs this Voltaro R4 review right?\nThe R4 rides 40 km."
    docs = [Document("/d/r4.html", "Voltaro R4 scooter", (), ("The R4 rides 40 km.",)),
            Document("/d/r4max.html", "R4 Max", (), ("| Spec | R4 Max | | Range | 65 km |",)),
            Document("/d/rules.html", "Scooter rules", (), ("Posted 2024. Scooters are limited to 25 km/h.",)),
            Document("/d/tyres.html", "Tyre pressure for scooters", (), ("Inflate to 50 psi.",))]
    got = {s.location: s for s in signals(docs, video, _FlatEmbedder(), video_text=video)}
    assert got["/d/r4max.html"].siblings == ("R4 Max",) and not decide(got["/d/r4max.html"]).keep
    assert not got["/d/rules.html"].other_names and decide(got["/d/rules.html"]).keep


def test_a_unit_column_does_not_make_a_data_sheet_a_comparison_table():
    from vidsleuth.report.scope import other_items
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    src = Source(id="d1", kind="document", title="Lamp data sheet", location="/x/sheet.pdf")
    sheet = [(Passage(src, "| Luminous flux | lm | 800 |", "text", context="| Property | Unit | LX-4 (lm) |"),
              "| Luminous flux | lm | 800 |")]
    table = [(Passage(src, "| Brightlite 7 | 800 | 9 |", "text", context="| Lamp | Flux (lm) | Power (W) |"),
              "| Brightlite 7 | 800 | 9 |")]
    assert other_items(sheet, {"lamp"}) == set()  # one value column beside its unit
    assert other_items(table, {"lamp"}) == {0}  # another item's row in a comparison
