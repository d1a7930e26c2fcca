"""Per-page subject checks of the report's evidence: a page about a sibling model of the video's
product (same brand or same model line, another model) is not evidence for the video's figures.
Generated cases of our own (kettles, e-scooters, blenders), not any development set's text."""

from __future__ import annotations

from vidsleuth.report.relevance import (
    Signals,
    decide,
    model_of,
    names_in,
    said_in,
    same_model,
)


def test_a_model_is_told_by_its_number_and_variant_not_by_its_brand():
    assert model_of("Kestrel Volt 7") == ("volt", "7")
    assert model_of("Kestrel K7 Max") == ("k7", "max")
    assert model_of("Kestrel Breeze") == ("breeze",)  # a brand and a model word
    assert same_model("Kestrel Volt 7", "Kestral Volt 7")  # a speech-recognition slip of the brand
    assert not same_model("Kestrel Volt 7", "Kestrel Volt 8")
    assert not same_model("Kestrel K7", "Kestrel K7 Max")


def test_a_page_names_the_model_only_as_that_model():
    common = {"the", "kettle", "guide", "user"}
    assert said_in("Volt 7", "The Volt 7 boils a litre in 3 minutes.", common)
    assert not said_in("Volt 7", "The Volt 8 boils a litre in 2 minutes; the 7.5 cup jug is bigger.", common)
    assert not said_in("Kestrel K7", "Kestrel K7 Max specifications: the K7 Max holds 1.8 L.", common)
    assert said_in("Kestrel K7", "Kestrel K7 User guide. Fill the K7 to the line.", common)  # 'user' is a word
    assert not said_in("Kestrel Breeze", "Kestrel machines are sold worldwide.", common)  # the brand alone


def test_names_keep_a_variant_word_and_find_a_brands_other_model():
    common = {"guide", "the", "battery"}
    got = names_in("Kestrel K7 Max review. Kestrel K7 Guide", common)
    assert "Kestrel K7 Max" in got and "Kestrel K7" in got and "Kestrel K7 Guide" not in got
    assert "Rapido Storm" in names_in("Rapido Storm review: the Storm runs 60 km", common, brands={"rapido"})
    assert not names_in("Rapido battery care", common | {"battery"}, brands={"rapido"})


def test_a_sibling_model_page_is_dropped_whatever_its_standing():
    sib = Signals("/d/k8.html", "Kestrel Volt 8 review", similarity=0.92, standing=1.5, software=0.0,
                  other_names=("Volt 8",), siblings=("Volt 8",))
    got = decide(sib)
    assert not got.keep and "Volt 8" in got.reason and "another model" in got.reason
    both = Signals("/d/cmp.html", "Volt 7 vs Volt 8", similarity=0.92, standing=1.5, software=0.0,
                   shared_names=("Volt 7",), other_names=("Volt 8",), siblings=("Volt 8",))
    assert decide(both).keep  # a comparison naming the video's model stays


class _FlatEmbedder:
    """Every text alike: only the names decide."""

    def embed(self, texts, kind="passage"):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2


def test_signals_mark_the_brands_other_model_and_keep_the_videos_pages():
    from vidsleuth.report.relevance import Document, signals

    video = "Rapido Dash 3 after a month\nIs the range of my Rapido Dash 3 right?\nThe Dash 3 does 35 km on a charge."
    docs = [Document("/d/spec.html", "Rapido Dash 3 specifications", (), ("Range 35 km. Weight 14 kg.",)),
            Document("/d/storm.html", "Rapido Storm review", (), ("The Storm weighs 22 kg and runs 60 km.",)),
            Document("/d/dash4.html", "Rapido Dash 4 first look", (), ("The Dash 4 runs 45 km.",)),
            Document("/d/shop.html", "Rapido charger", (), ("A charger for Rapido scooters, 42 V.",)),
            Document("/d/care.html", "Scooter battery care", (), ("Store the battery at half charge.",))]
    got = {s.location: s for s in signals(docs, video, _FlatEmbedder(), video_text=video)}
    assert got["/d/spec.html"].shared_names and not got["/d/spec.html"].siblings
    assert got["/d/storm.html"].siblings == ("Rapido Storm",)
    assert got["/d/dash4.html"].siblings and not got["/d/dash4.html"].shared_names
    assert not got["/d/shop.html"].siblings and not got["/d/care.html"].siblings
    assert [loc for loc, s in got.items() if not decide(s).keep] == ["/d/storm.html", "/d/dash4.html"]


def test_the_videos_own_thing_is_what_title_and_request_both_name():
    from vidsleuth.report.scope import own_thing

    assert own_thing("Keep your kettle going", "Is the descaling advice for my kettle right?") == {"kettl"}
    assert own_thing("Kettle tips", "Check the numbers.") == {"kettl", "tip"}  # the request names none: the title's


def test_a_page_that_never_names_the_videos_thing_gives_no_background_by_a_verb():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Anchor, Moment, Source

    said = "Stop filling at 1.2 litres and turn it on."
    anchor = Anchor(id="A1", kind="claim", text=said, subject="stop filling turn", value="1.2 L",
                    moments=(Moment(3.0, 6.0, "speech", said),))
    manual = Source(id="d1", kind="document", title="Codec internals", location="/d/codec.txt")
    guide = Source(id="d2", kind="document", title="Kettle care guide", location="/d/guide.html")
    passages = [Passage(manual, "In turn, the decoder must be able to stop before the buffer is full.", "text"),
                Passage(guide, "A kettle filled past its line can spit boiling water, so stop filling at the mark.",
                        "text")]
    got = rank([anchor], passages, topic="Keep your kettle going Is the descaling advice for my kettle right?",
               title="Keep your kettle going")
    assert [c.passage.source.location for c in got] == ["/d/guide.html"]


def _anchor(aid: str, said: str, value: str, start: float = 3.0, subject: str | None = None):
    from vidsleuth.report.facts import subject_words
    from vidsleuth.report.types import Anchor, Moment

    return Anchor(id=aid, kind="claim", text=said, subject=subject or " ".join(sorted(subject_words(said))), value=value,
                  moments=(Moment(start, start + 3.0, "speech" if " " in said else "ocr", said),))


def test_background_must_name_the_anchor_itself_not_only_its_section_heading():
    from vidsleuth.report.branches import _score
    from vidsleuth.report.facts import statement, subject_words

    view = [{"kettl", "store", "fill"}]
    heading = subject_words("Kettle user guide Storing your kettle")
    bare = statement("Write the serial number on the warranty card and keep the receipt.")
    named = statement("Storing a kettle with some water in it keeps the element from drying out.")
    background = view[0] | {"percent"}
    assert _score(view, {"ratio"}, bare, heading, {"kettl"}, lambda w: 1.0, 0.0, background=background)[0] == 0.0
    assert _score(view, {"ratio"}, named, heading, {"kettl"}, lambda w: 1.0, 0.0, background=background)[0] > 0.2


def test_an_on_screen_figure_takes_background_about_the_videos_thing_not_any_request_word():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.sources import Passage
    from vidsleuth.report.types import Source

    price = _anchor("A1", "£39.99", "£39.99")
    manual = Source(id="d1", kind="document", title="Kettle owner's manual", location="/d/manual.pdf")
    passages = [Passage(manual, "Keep the date of purchase and your receipt for the warranty claim.", "text"),
                Passage(manual, "The kettle's price includes a spare filter and a descaling kit.", "text")]
    got = rank([price], passages, topic="Kettle review Is the kettle's price right, or out of date?",
               title="Kettle review")
    assert [c.excerpt for c in got] == ["The kettle's price includes a spare filter and a descaling kit."]
