"""Pages and phrasings met on a development set written by another hand (dev34: a nursery, tyre pressures,
espresso, a running plan in Chinese): a forum thread's replies are read, not only its first post; a
hard-wrapped paragraph is one paragraph; a remark in a column header's brackets is no unit; a range whose
end reaches a limit meets it; a household's practice is the writer's own case; a number set against the one
before it keeps that one's unit; a difference ("20 to 40% more") meets only a difference."""

from __future__ import annotations

import pytest

from vidsleuth.report.facts import read_row
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources.documents import html_text, read_document
from vidsleuth.report.types import Anchor

from .conftest import labels_of

THREAD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Dry air in nursery | Parents Forum</title></head>
<body><header><nav><ul><li><a href="/forums/">Forums</a></li><li><a href="/search/">Search</a></li></ul></nav></header>
<main><article><h1>Dry air in nursery - what humidity do you keep?</h1>
<p class="crumbs">Home › Baby › Sleep</p>
<div class="post" id="p1"><div class="postauthor"><b>sleepless</b><br><span>Posts: 20</span></div>
<div class="postbody"><div class="postdate">14 Dec 2024, 21:03</div><div class="content">Our little one keeps waking with a
stuffy nose. What humidity do you all aim for?</div></div></div>
<div class="post" id="p2"><div class="postauthor"><b>mum_of_twins</b><br><span>Posts: 37</span></div>
<div class="postbody"><div class="postdate">14 Dec 2024, 21:40</div><div class="content">We keep ours at 50% with a
cool-mist humidifier all winter and the stuffy noses stopped.</div></div></div>
<div class="post" id="p3"><div class="postauthor"><b>DadOfThree</b><br><span>Posts: 54</span></div>
<div class="postbody"><div class="postdate">15 Dec 2024, 08:12</div><div class="content">One thing: 20 degrees is too warm
for a baby's room in my opinion, we keep it at 17.</div></div></div>
</article></main><footer><p>Powered by phpBB · Parents Forum</p></footer></body></html>"""


def test_thread_replies_are_read(tmp_path):
    page = tmp_path / "forum-dry-nursery.html"
    page.write_text(THREAD, encoding="utf-8")
    _, date, text = read_document(page)
    lines = text.splitlines()
    # each reply is one line, whole: the source's line breaks inside a post are whitespace
    assert "We keep ours at 50% with a cool-mist humidifier all winter and the stuffy noses stopped." in lines
    assert "One thing: 20 degrees is too warm for a baby's room in my opinion, we keep it at 17." in lines
    assert date == "2024-12-14"


# a thread whose posts hold their text in a "post-body": trafilatura's recall mode takes the first post as the page
BODIES = """<!DOCTYPE html><html><head><title>My 24h cold proof schedule | Pizza Forum</title></head><body>
<header><nav><a href="/forums/">Forums</a></nav></header><main><article><h1>My 24h cold proof schedule (with photos)</h1>
<div class="meta"> </div>
<div class="thread"><div class="post"><div class="post-author">dough_daddy</div><div class="post-date">March 2, 2024</div>
<div class="post-body"><p>A few people asked how I fit a 24 hour cold proof around work, so here is my schedule. Friday 7 pm:
mix, knead, ball and straight into the fridge at 4 °C. Saturday 7 pm: take the balls out and let them warm up for about
3 hours. Saturday 10 pm: bake. 24 hours in the fridge exactly, and the crust blistered beautifully.</p></div></div>
<div class="post"><div class="post-author">neapolitan_nina</div><div class="post-date">March 2, 2024</div>
<div class="post-body"><p>I proof mine for 48 hours and the flavour is much better than at 24.</p></div></div>
<div class="post"><div class="post-author">dough_daddy</div><div class="post-date">March 3, 2024</div>
<div class="post-body"><p>Ball immediately, it is easier when the dough is cold.</p></div></div></div>
</article></main><footer><p>Pizza Forum</p></footer></body></html>"""


def test_a_reply_in_a_post_body_is_read(tmp_path):
    page = tmp_path / "forum-cold-proof.html"
    page.write_text(BODIES, encoding="utf-8")
    assert "I proof mine for 48 hours and the flavour is much better than at 24." in read_document(page)[2]


def test_the_check_finds_an_excerpt_anywhere_on_the_page_a_reader_sees(tmp_path):
    from vidsleuth.report.check import _norm, quoted, reopen
    from vidsleuth.report.types import Source

    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "page.html").write_text(BODIES.replace("<footer><p>Pizza Forum</p>", "<aside><p>Moderator "
                                                    "note: keep dough below 5 °C while it proofs.</p></aside><footer>"))
    text = _norm(reopen(Source("S1", "document", "t", "page.html", link="sources/page.html"), tmp_path))
    assert quoted("Moderator note: keep dough below 5 °C while it proofs.", text)


def test_preformatted_lines_stay():
    text = html_text("<html><body><article><h1>Setting the limit</h1><p>Run the tool once to set the\ncharge limit for the "
                     "battery of the laptop, then reboot it and check the value again in the settings.</p>"
                     "<pre>limit=80\nmode=conservative</pre></article></body></html>")
    assert "Run the tool once to set the charge limit" in text
    assert "limit=80\nmode=conservative" in text


@pytest.mark.parametrize("header, row, label", [
    ("| Age group | Age | Hours per 24 h (incl. naps) |", "| Toddler | 1–2 years | 11–14 |", "11–14 h"),
    ("| Property | Motor torque (Nm) |", "| Trailvolt | 85 |", "85 N·m"),
])
def test_header_remark_is_no_unit(header, row, label):
    assert label in [r.value.label() for r in read_row(row, header).readings]


def _relation(anchor_text: str, excerpt: str, context: str = "") -> str | None:
    return relate_rules(Anchor(id="A1", kind="parameter", text=anchor_text, subject=""), excerpt, context=context)[0]


YEAST = "| 面粉（克） | 干酵母（克） | 一次发酵（分钟） |"


@pytest.mark.parametrize("row, relation", [
    ("| 500 | 5 | 60–90 |", "supports"),  # the row keyed by the flour states the claim's 5 g of yeast
    ("| 1000 | 8–10 | 60–90 |", None),  # another case: more flour
])
def test_a_row_keyed_by_another_quantity(row, relation):
    assert _relation("酵母 5克", row, YEAST) == relation


@pytest.mark.parametrize("claim, excerpt, relation", [
    ("每周跑量≤20公里", "新手每周跑量控制在15到20公里之间，分3次完成；", "supports"),  # the range's end is the limit
    ("no more than 20 km a week", "Keep it between 15 and 20 km a week.", "supports"),
    ("no more than 20 km a week", "Most beginners run 5-10 km a week.", None),  # well inside the limit: no stance
    ("Keep the nursery at around 50% relative humidity,",
     "We keep ours at 50% with a cool-mist humidifier all winter and the stuffy noses stopped.", "applies"),
    ("Keep the nursery at around 50% relative humidity,", "We recommend 50% for nurseries.", "supports"),
    ("Set the charge limit to 80%.", "I set mine to 60%, not 80.", "contradicts"),
    # a difference is no figure: "20 to 40% more" is no share of calories, "ten psi lower" no pressure
    ("Treats should be no more than 10% of those calories.", "Working dogs and very active breeds may need 20 to 40% more.",
     None),
    ("Keep treats to no more than 10% of the calories.", "Keep treats to 10% or more.", "contradicts"),  # a bound, not a difference
    # a former edition's figure, told in the past, is the one the page has since changed (dev35, dev33)
    ("Lay the depth gauge tool on the chain and file to 0.025 in",
     "Earlier editions of this manual listed a depth gauge setting of 0.025 in (0.65 mm) for all low-profile chain.", "updates"),
    ("焖2分钟", "以前我们建议鱼蒸好后关火再焖2分钟（即“虚蒸”）。", "updates"),
    ("Wait 4 h between coats",
     "Revision 3 gave a recoat time of 4 hours; the reformulated product in Revision 4 can be recoated after 2 hours.", "updates"),
    # dev36 (cats, a deck): a share of "your cat's daily calories" is one of the daily calories; a count per day is a
    # frequency; the air a job is done in owns no temperature of its own
    ("and keep treats under 10% of the daily calories.",
     "Treats should make up no more than 10% of your cat's daily calories.", "supports"),
    ("Feed adult cats twice a day, morning and evening.", "Adult cats do well on two meals a day.", "supports"),
    ("Feed adult cats twice a day, morning and evening.", "Feed three meals a day.", "contradicts"),
    ("Feed adult cats twice a day, morning and evening.", "Our two cats took to it within a day.", None),  # a duration
    ("Only stain when it's at least 50 degrees Fahrenheit outside,",
     "Apply only when air and surface temperatures are between 50°F and 90°F (10–32°C).", "supports"),
    ("A chain lasts about 3,000 kilometers.", "The old rule of thumb said a chain lasts about 3,000 km.", "updates"),
    ("A chain lasts about 3,000 kilometers.", "The old chain lasted 3,000 km.", "supports"),
    # a figure the page reports from charts or a box is theirs, not the page's stance
    ("And the average indoor cat needs about 200 calories a day,",
     "Every feeding chart tells you an indoor cat needs about 200 calories a day.", None),
    ("A thermal fleece liner adds up to eight degrees", "The box says it adds up to 8 °C.", None),
    # a case worked from the stated rate (dev36)
    ("Coverage: 250 sq ft per gallon",
     "At a spread rate of 250 sq ft per gallon, one coat takes just over one gallon, so buy two gallons.", "applies"),
    ("lube your chain every 200 km or after any wet ride",
     "At the common interval of one lubrication every 200 km, that rider lubricates once a week.", "applies"),
    ("Coverage: 250 sq ft per gallon", "One gallon covers 250 to 350 sq ft.", "supports"),
    ("set it about 10 cm higher than your sitting desk",
     "A treadmill desk ends up at around 120 cm, roughly 10 cm higher than a plain standing desk.", "supports"),
])
def test_relations(claim, excerpt, relation):
    assert _relation(claim, excerpt) == relation


@pytest.mark.parametrize("text, labels", [
    ("I set mine to 60%, not 80. If it is docked", ["60%", "80%"]),
    ("keep the cylinder at 60 °C minimum because of legionella, not 49 like the American sites say", ["≥ 60°C", "49°C"]),
    ("It costs $30, not 40", ["$30", "$40"]),
    ("run 5.5 bar rather than the recommended 6.5", ["5.5 bar", "6.5 bar"]),  # a word of the figure's standing between
    ("I drop to 25 mm instead of the usual 30 for frozen wood", ["25 mm", "30 mm"]),
    ("Bake at 180 °C, not 2 trays at once", ["180°C", "2 trays"]),  # a count of its own
    ("Keep 5 mm, not 2024", ["5 mm"]),  # a year is not of the figure's scale
    ("Set 25 psi, not 30psi", ["25 psi", "30 psi"]),
    ("adult cats do well on two meals a day.", ["2 meals/day"]),  # a small count per period is a number
    ("give one scoop a day", ["1 scoop/day"]),
    ("on two wheels", ["2 wheels"]),  # a count as "three wheels" is; whether it is a claim is the anchors' call
    ("the two of them", []),
    # a rate whose quantity is named between its unit and its period (dev36: heaters)
    ("Allow around 100 watts of heat for every square metre of floor", ["≈ 100 W/m²"]),
    ("about 10 watts of heating power per square foot of floor area", ["≈ 10 W/ft²"]),
    ("Add 10 g of sugar for every litre", ["10 g/L"]),
    ("Coverage: 250 sq ft per gallon", ["250 ft²/gallon"]),
])
def test_elided_unit(text, labels):
    assert labels_of(text) == labels


def test_a_title_card_is_no_anchor():
    from vidsleuth.report.anchors import find_anchors
    from vidsleuth.types import Segment

    from .conftest import timeline_of

    tl = timeline_of(Segment(0.0, 4.0, "ocr", "CHAIN CARE IN 5 MINUTES", 0.95, "ocr"),
                     Segment(6.0, 10.0, "speech", "Let the lube soak in for about 10 minutes before you wipe it off.", 1.0, "asr"))
    request = "Is the chain care advice in this video right?"
    assert [a.text for a in find_anchors(tl, request, title="Chain Care in Five Minutes")] == [
        "Let the lube soak in for about 10 minutes before you wipe it off."]
    assert len(find_anchors(tl, request)) == 2  # without the title, the card's figure is a claim like any other


TABLE_PAGE = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>各类茶冲泡参数一览表 | 茶百科</title></head><body>
<header><div class="logo">茶百科</div><nav><ul><li><a href="/a">首页</a></li><li><a href="/b">茶知识</a></li></ul></nav></header>
<main><article><h1>各类茶冲泡参数一览表</h1><p>常见茶类冲泡参数参考（家庭冲泡）。</p>
<table><thead><tr><th>茶类</th><th>水温（℃）</th><th>浸泡时间（分钟）</th></tr></thead>
<tbody><tr><td>绿茶</td><td>75–85</td><td>2–3</td></tr>
<tr><td>白茶</td><td>85–90</td><td>3–5</td></tr>
<tr><td>红茶</td><td>90–95</td><td>2–3</td></tr></tbody></table>
</article><aside class="related"><h3>相关文章</h3><ul><li><a href="/a/1">更多内容</a></li></ul></aside></main>
<footer>© 茶百科</footer></body></html>"""


def test_a_table_keeps_its_rows():
    """Recall mode took this page's table apart cell by cell (dev32); the reading that keeps the rows wins."""
    lines = html_text(TABLE_PAGE).splitlines()
    assert any(line.replace(" ", "").startswith("|绿茶|75–85|2–3|") for line in lines)


def test_a_reading_time_is_no_value():
    assert labels_of("By Hannah Okafor, RN · · 6 min read") == []
    assert labels_of("Read the label, then rest 6 min.") == ["6 min"]


def test_a_figure_said_again_in_another_unit_is_one_anchor():
    """"…the fridge at 37 degrees Fahrenheit. That's about three Celsius." is one claim said twice; a
    next sentence that names its own thing at another figure stays an anchor of its own."""
    from vidsleuth.report.anchors import find_anchors
    from vidsleuth.types import Segment

    from .conftest import timeline_of

    tl = timeline_of(Segment(5.0, 8.0, "speech", "You want the fridge at 37 degrees Fahrenheit."),
                     Segment(8.2, 10.0, "speech", "That's about three Celsius."),
                     Segment(10.2, 13.0, "speech", "And the freezer at zero Fahrenheit."))
    got = [(a.value, len(a.moments)) for a in find_anchors(tl, "Are the fridge temperatures right?")]
    assert got == [("37°F", 2), ("0°F", 1)]


def test_gather_evidence_names_the_anchors_it_found_nothing_for(tmp_path):
    """An anchor with no candidate is said, not left to be noticed: a harness then reads the pages for it."""
    from vidsleuth.report.steps import gather_evidence

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bake.html").write_text("<html><body><article><h1>Baking bread</h1><p>Bake the loaf at 230 °C for "
                                    "40 minutes.</p><p>Let the loaf cool for an hour before slicing.</p></article></body></html>")
    anchors = [{"id": "A1", "text": "Bake the loaf at 230 degrees.", "moments": [{"start": 1.0, "end": 3.0}]},
               {"id": "A2", "text": "The mixer has a 5 litre bowl.", "moments": [{"start": 5.0, "end": 7.0}]}]
    got = gather_evidence(anchors, docs=docs)
    assert got["without_candidates"] == ["A2"] and {c["anchor_id"] for c in got["candidates"]} == {"A1"}
