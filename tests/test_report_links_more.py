"""Links and relevance, more general cases: which pages about other named things are about another
product, and which are about the video's own (unnamed or barely named) thing. Cases of our own
(floor varnish, kettles, horses), not any development set's text."""

from __future__ import annotations

from vidsleuth.report.relevance import Document, decide, signals


class _FlatEmbedder:
    """Every text alike: only the names decide."""

    def embed(self, texts, kind="passage"):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2


def _kept(video: str, docs: list[Document]) -> dict[str, bool]:
    return {s.location: decide(s).keep for s in signals(docs, video, _FlatEmbedder(), video_text=video)}


def test_what_the_videos_product_is_comes_from_the_words_after_its_name():
    from vidsleuth.report.relevance import kind_words

    assert kind_words({"BrightSeal"}, ["BrightSeal Matt Floor Varnish, 1 L", "BrightSeal varnish | $30"]) == {"varnish"}
    assert kind_words({"BrightSeal"}, ["BrightSeal Review: a year on"]) == set()  # a genre, not a kind
    assert kind_words({"BrightSeal"}, ["so the BrightSeal goes on thin and dries fast."]) == set()  # speech, not a name
    assert kind_words({"Kettlo"}, ["| $40 | Kettlo K"]) == set()  # a model letter is no kind


def test_a_page_about_a_named_thing_of_another_kind_than_the_videos_product_is_kept():
    # the video names its varnish, not the floor filler it uses: the filler's data sheet is about the video's
    # filler; a rival varnish's sheet competes with the video's product
    video = ("Filling and varnishing an oak floor\nAre the filling, drying and varnish price in this video right?\n"
             "We fill the gaps first, wait two hours, then varnish.\nFill gaps | Dry 2 h | BrightSeal varnish, 1 L: $30")
    docs = [Document("/d/bs.html", "BrightSeal Matt Floor Varnish, 1 L", (), ("BrightSeal: $30.",)),
            Document("/d/bs2.html", "BrightSeal Matt Floor Varnish, 1 L (mirror)", (), ("BrightSeal: $30.",)),
            Document("/d/filler.pdf", "Gapmaster 20 Wood Filler - Data Sheet", ("Mixing",), ("Dry 1 to 2 hours.",)),
            Document("/d/rival.pdf", "Glossmax 40 - Data Sheet", ("Floor varnish",), ("A clear varnish: $24.",)),
            Document("/d/how.html", "How to fill floor gaps", (), ("Fill, then let it dry two hours.",))]
    got = _kept(video, docs)
    assert got["/d/bs.html"] and got["/d/how.html"] and got["/d/filler.pdf"]
    assert not got["/d/rival.pdf"]


def test_a_name_the_video_only_says_bare_is_not_a_brand_of_other_models():
    video = ("How far should I ride my Haflinger?\nIs this plan right for my adult Haflinger: its distance and feed?\n"
             "This is Pepper, our Haflinger, and she rides 12 km a day.\nPepper Haflinger · 12 km")
    docs = [Document("/d/breed.html", "Haflinger Pony: Breed Profile", (), ("Haflinger Pony adults weigh 450 kg.",)),
            Document("/d/feed.html", "Feeding a riding horse", (), ("Give 2 kg of hay per 100 kg.",)),
            Document("/d/dist.html", "How far can a horse ride?", (), ("A fit horse rides 20 km a day.",)),
            Document("/d/shoe.html", "Hoof care", (), ("Trim every 6 weeks.",))]
    assert _kept(video, docs)["/d/breed.html"]
    # said with a word of its own, the name is a brand: another model of it is another product
    video2 = ("Riding the Kestrel Volt\nIs what this rider says of the Kestrel Volt right?\nThe Kestrel Volt rides 40 km.")
    docs2 = [Document("/d/volt.html", "Kestrel Volt", (), ("The Kestrel Volt rides 40 km.",)),
             Document("/d/breeze.html", "Kestrel Breeze review", (), ("The Kestrel Breeze rides 60 km.",)),
             Document("/d/tyres.html", "Tyre pressure", (), ("Pump to 3 bar.",)),
             Document("/d/care.html", "Battery care", (), ("Store at half charge.",))]
    assert not _kept(video2, docs2)["/d/breeze.html"]


def test_a_glued_code_of_the_videos_letters_is_another_model_of_its_line():
    video = ("测评 KT30 电水壶\n请核对这个视频里的容量和价格。\n这台 KT30 烧一升水要三分钟。\n轻壶KT30电水壶测评 | 1.5L | 到手价199元")
    docs = [Document("/d/kt30.html", "轻壶 KT30 电水壶 1.5L", (), ("KT30 容量 1.5L，价格 199 元。",)),
            Document("/d/kt30b.html", "KT30 用户说明", (), ("KT30 额定功率 1800W。",)),
            Document("/d/kt45.html", "轻壶 KT45B 大容量电水壶 2L", (), ("KT45B 容量 2L，价格 259 元。",)),
            Document("/d/tea.html", "泡茶水温", (), ("绿茶用 80 度的水。",))]
    got = {s.location: s for s in signals(docs, video, _FlatEmbedder(), video_text=video)}
    assert all(decide(got[loc]).keep for loc in ("/d/kt30.html", "/d/kt30b.html", "/d/tea.html"))
    assert got["/d/kt45.html"].siblings == ("KT45B",)  # the letters of the video's KT30, another number
    assert "another model" in decide(got["/d/kt45.html"]).reason


def test_the_brand_alone_does_not_keep_a_page_about_the_brands_other_numbered_model():
    video = ("Kettlo KE-300 review\nAre the capacity and price of the Kettlo KE-300 right?\nThe KE-300 holds 1.5 litres.\n"
             "Kettlo KE-300 | 1.5 L | $40")
    docs = [Document("/d/ke300.html", "Kettlo KE-300 Electric Kettle", (), ("The Kettlo KE-300 holds 1.5 L.",)),
            Document("/d/ke300m.pdf", "Kettlo KE-300 manual", (), ("Fill the KE-300 to 1.5 L.",)),
            Document("/d/ke500.html", "Kettlo KE-500 Electric Kettle", (), ("The Kettlo KE-500 holds 2.2 L.",)),
            Document("/d/descale.html", "Descaling a kettle", (), ("Use 50 ml of vinegar.",))]
    got = _kept(video, docs)
    assert got["/d/ke300.html"] and got["/d/ke300m.pdf"] and got["/d/descale.html"]
    assert not got["/d/ke500.html"]  # it names the brand the video names, but as the KE-500's
