"""The rendered page as a reader and a machine see it (report/render.py and its template): a poster
frame at the first anchor's moment beside the report and on the player, headings that name the
subject, a verdict line per anchor, findings without pipes, timeline marks (visible, and
``data-anchor``/``data-sources`` matching the sidecar), Chinese page words for a Chinese report,
untrusted text escaped — and the page still passes the contract's checks, in Chromium too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import lxml.html
import pytest
from PIL import Image

from vidsleuth import synth
from vidsleuth.report import check_report
from vidsleuth.report.contract import NOTE_SOURCES, read_report
from vidsleuth.report.render import POSTER, write_outputs
from vidsleuth.report.types import Anchor, Evidence, Moment, Note, ReportData, Source
from vidsleuth.report.write import VERDICTS, summary_of, verdicts_of, write_rules

STATIC = ["contract", "timestamps", "citations", "sources_cited", "claims_cited", "assets", "links", "markup", "relations"]
BLUE, YELLOW = (0x10, 0x20, 0x60), (0xE0, 0xD0, 0x40)
EVIL = "<script>window.__xss=1</script><a href=\"javascript:alert(1)\">x</a>"


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    """2 s of blue, then 2 s of yellow: the poster's colour says which moment it shows."""
    path = tmp_path_factory.mktemp("page") / "clip.mp4"
    synth.make_clip(path, synth.ClipSpec(shots=(synth.Shot(50, "0x102060"), synth.Shot(50, "0xe0d040")),
                                         width=320, height=180, audio=False))
    return path


def _data(language: str = "en") -> ReportData:
    oven = Anchor("A1", "parameter", "Preheat the oven to 180 degrees.", "oven", "180°C",
                  (Moment(2.5, 3.5, "ocr", "OVEN 180 °C"), Moment(2.6, 3.6, "speech", "Preheat the oven to 180 degrees.")),
                  heading="Oven temperature")
    rest = Anchor("A2", "parameter", "Rest it for 15 minutes.", "rest", "15 min",
                  (Moment(0.5, 1.5, "speech", "Rest it for 15 minutes."),), heading="Resting time")
    sources = {"S1": Source("S1", "document", f"Roast guide {EVIL}", "/x/roast.txt", "2023-11-02", link="sources/roast.txt"),
               "S2": Source("S2", "document", "Poultry chart | Food Agency", "/x/chart.txt", link="sources/chart.txt")}
    evidence = [Evidence("E1", "A1", "S1", "text", "Roast it in the oven at between 350 and 375 °F.", "supports"),
                Evidence("E2", "A1", "S2", "text", "| Whole chicken | 180 °C |", "supports",
                         context="| Food | Oven temperature |"),
                Evidence("E3", "A2", "S2", "text", "Let the bird rest for at least 10 minutes.", "supports")]
    anchors = [oven, rest]
    verdicts = verdicts_of(anchors, evidence, sources, language)
    return ReportData(
        video={"file": "clip.mp4", "duration": 4.0, "title": f"Roast {EVIL}", "original": ""},
        request=f"Is the roast right? {EVIL}", summary=summary_of("", anchors, evidence, sources, verdicts, language),
        notes=(Note(0.5, "speech: Rest it for 15 minutes.", "A2"), Note(1.0, f"ocr: {EVIL}"),
               Note(2.5, "ocr: OVEN 180 °C", "A1"), Note(2.6, "speech: Preheat the oven to 180 degrees.", "A1")),
        anchors=tuple(anchors), sources=tuple(sources.values()), evidence=tuple(evidence),
        findings=tuple(write_rules(anchors, evidence, sources, language)), verdicts=verdicts, language=language)


def _write(root: Path, clip: Path, data: ReportData) -> Path:
    (root / "sources").mkdir(parents=True)
    shutil.copy(clip, root / "clip.mp4")
    (root / "sources" / "roast.txt").write_text("Roast guide\n\nRoast it in the oven at between 350 and 375 °F.\n")
    (root / "sources" / "chart.txt").write_text("Poultry chart\n\n| Food | Oven temperature |\n|---|---|\n"
                                                "| Whole chicken | 180 °C |\n\nLet the bird rest for at least 10 minutes.\n")
    write_outputs(data, root)
    return root


def test_the_player_shows_a_poster_frame_at_the_first_anchors_moment(tmp_path, clip):
    out = _write(tmp_path / "r", clip, _data())
    tree = lxml.html.fromstring((out / "report.html").read_text())
    (video,) = tree.xpath("//video")
    assert video.get("poster") == POSTER and (out / POSTER).is_file()
    # A1's on-screen moment is 2.5-3.5 s: the yellow shot, not the blue first frame
    pixel = Image.open(out / POSTER).convert("RGB").getpixel((160, 90))
    assert all(abs(a - b) < 40 for a, b in zip(pixel, YELLOW)), pixel
    sidecar = json.loads((out / "report.json").read_text())
    assert sidecar["video"]["poster"] == POSTER and 2.5 <= sidecar["video"]["poster_t"] <= 3.5
    assert f"]({POSTER})" in (out / "report.md").read_text()


def test_headings_verdicts_findings_and_timeline_marks_read_as_a_report(tmp_path, clip):
    out = _write(tmp_path / "r", clip, _data())
    tree = lxml.html.fromstring((out / "report.html").read_text())
    heads = [" ".join(h.text_content().split()) for h in tree.xpath("//h3[@class='anchor-heading']")]
    assert heads == ["Oven temperature — 180°C, at 0:02", "Resting time — 15 min, at 0:00"]
    verdicts = {p.get("data-verdict-of"): p.get("data-verdict") for p in tree.xpath("//p[@data-verdict]")}
    assert verdicts == {"A1": "agrees", "A2": "agrees"} and set(verdicts.values()) <= set(VERDICTS)
    findings = [" ".join(p.text_content().split()) for p in tree.xpath("//*[@data-finding]")]
    assert len(findings) == 3 and not any("|" in f for f in findings)
    assert any("“Poultry chart” gives 180°C for whole chicken, which the video's 180°C meets." in f for f in findings)
    # the timeline: which lines are anchors, which sources cite them, as marks and as attributes
    lines = tree.xpath("//ul[@class='notes']/li")
    marked = [(li.get("data-anchor"), li.get(NOTE_SOURCES)) for li in lines if li.get("data-anchor")]
    assert marked == [("A2", "S2"), ("A1", "S1 S2"), ("A1", "S1 S2")]
    first_a1 = next(li for li in lines if li.get("data-anchor") == "A1")
    mark = " ".join(first_a1.xpath(".//span[@class='mark']")[0].text_content().split())
    assert [li.xpath(".//span[@class='mark more']//a/@href") for li in lines if li.get("data-anchor")][2] == ["#about-A1"]
    assert mark == "◆ Oven temperature · agrees [1] [2]"
    assert [a.get("href") for a in first_a1.xpath(".//span[@class='mark']//a")] == ["#about-A1", "#src-S1", "#src-S2"]
    assert tree.xpath("//*[@id='about-A1']") and tree.xpath("//*[@id='src-S2']")
    summary = tree.xpath("//*[@data-summary]")[0]
    assert [p.text_content() for p in summary.xpath("p")][0].startswith("Of the 2 statements checked against 2 sources")
    page = read_report(out)
    assert page.missing == () and len(page.findings) == 3
    result = check_report(out, browser=False, only=STATIC)
    assert result["passed"], result["checks"]


def test_untrusted_text_is_escaped_and_no_javascript_url_survives(tmp_path, clip):
    out = _write(tmp_path / "r", clip, _data())
    html = (out / "report.html").read_text()
    tree = lxml.html.fromstring(html)
    assert len(tree.xpath("//script")) == 1 and "window.__xss" not in tree.xpath("//script")[0].text
    assert not [a for a in tree.xpath("//@href | //@src | //@poster") if "javascript:" in a.lower()]
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in html


def test_a_chinese_report_gets_chinese_page_words_and_values(tmp_path, clip):
    out = _write(tmp_path / "r", clip, _data("zh"))
    tree = lxml.html.fromstring((out / "report.html").read_text())
    assert tree.get("lang") == "zh"
    assert [h.text_content() for h in tree.xpath("//h2")][:3] == ["时间线", "摘要", "视频中的说法"]
    heads = [" ".join(h.text_content().split()) for h in tree.xpath("//h3[@class='anchor-heading']")]
    assert heads == ["Oven temperature — 180°C，位于 0:02", "Resting time — 15分钟，位于 0:00"]
    assert tree.xpath("//p[@data-verdict-of='A1']")[0].text_content().startswith("结论：相符")


def test_the_page_with_its_poster_and_marks_passes_in_chromium(tmp_path, clip):
    out = _write(tmp_path / "r", clip, _data())
    result = check_report(out, browser=True, only=["browser"])
    assert result["passed"], result["checks"]  # no console error: the CSP lets the poster load
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto((out / "report.html").resolve().as_uri())
        size = page.evaluate("""() => new Promise(done => { const i = new Image();
            i.onload = () => done(i.naturalWidth); i.onerror = () => done(0); i.src = document.querySelector('video').poster; })""")
        browser.close()
    assert size == 320


def test_the_title_is_the_containers_title_tag_else_the_request(tmp_path, clip):
    from vidsleuth.report.steps import render_report

    titled = tmp_path / "titled.mp4"
    synth.make_clip(titled, synth.ClipSpec(shots=(synth.Shot(25),), width=160, height=90, audio=False,
                                           title="Sunday Roast <i>Chicken</i>"))
    request = ("Check the roasting settings in this roast chicken video against cooking and food-safety guidance, "
               "and tell me what to change")
    records = {"request": request, "anchors": [{"text": "Preheat to 180 degrees.", "moments": [{"start": 0.2, "end": 0.8}]}]}
    render_report(records, titled, out=tmp_path / "a")
    h1 = lxml.html.fromstring((tmp_path / "a" / "report.html").read_text()).xpath("//h1")[0]
    assert h1.text_content() == "Sunday Roast <i>Chicken</i>" and not h1.xpath(".//i")
    render_report(records, clip, out=tmp_path / "b")
    title = lxml.html.fromstring((tmp_path / "b" / "report.html").read_text()).xpath("//h1")[0].text_content()
    assert title.endswith("…") and request.startswith(title[:-1]) and len(title) <= 91 and title[-2] != " "


def test_harness_records_with_a_chinese_request_get_a_chinese_page(tmp_path, clip):
    """A harness need not say the language: the request's tells it, as for ``vidsleuth report``."""
    from vidsleuth.report.steps import render_report

    anchor = {"text": "每天食盐不超过6克", "moments": [{"start": 0.2, "end": 0.8, "kind": "ocr", "text": "每天食盐不超过6克"}]}
    render_report({"request": "视频里的饮食建议对吗？", "anchors": [anchor]}, clip, out=tmp_path / "zh")
    render_report({"request": "Is the diet advice right?", "anchors": [anchor]}, clip, out=tmp_path / "en")
    render_report({"request": "视频里的饮食建议对吗？", "anchors": [anchor], "language": "en"}, clip, out=tmp_path / "given")
    langs = [json.loads((tmp_path / n / "report.json").read_text())["language"] for n in ("zh", "en", "given")]
    assert langs == ["zh", "en", "en"]
    assert "没有来源" in (tmp_path / "zh" / "report.html").read_text()  # the page's own words in Chinese
    assert "## 摘要" in (tmp_path / "zh" / "report.md").read_text()  # and the Markdown's headings
    assert "## Summary" in (tmp_path / "en" / "report.md").read_text()


def test_rendering_again_drops_copies_of_sources_no_longer_cited(tmp_path, clip):
    """A harness that drops a source in a repair round and renders again leaves no copy of it behind; a file of
    its own in ``sources/`` stays."""
    from vidsleuth.report.steps import render_report

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a", "b"):
        (docs / f"{name}.html").write_text(f"<html><body><p>Bake it at 180 °C ({name}).</p></body></html>")
    anchor = {"id": "A1", "text": "Bake at 180 degrees.", "moments": [{"start": 0.2, "end": 0.8}]}

    def records(names):
        return {"request": "Is the baking advice right?", "anchors": [anchor],
                "sources": [{"id": f"S{k}", "kind": "document", "title": n, "location": str(docs / f"{n}.html")}
                            for k, n in enumerate(names, 1)],
                "evidence": [{"id": f"E{k}", "anchor_id": "A1", "source_id": f"S{k}", "relation": "supports",
                              "excerpt": f"Bake it at 180 °C ({n})."} for k, n in enumerate(names, 1)],
                "findings": [{"id": f"F{k}", "anchor_id": "A1", "evidence_ids": [f"E{k}"], "relation": "supports",
                              "text": f"{n} agrees."} for k, n in enumerate(names, 1)]}

    out = tmp_path / "report"
    render_report(records(["a", "b"]), clip, out=out)
    (out / "sources" / "my-notes.txt").write_text("mine")
    render_report(records(["a"]), clip, out=out)
    names = sorted(p.name for p in (out / "sources").iterdir())
    assert len(names) == 2 and "my-notes.txt" in names and any(n.startswith("a-") for n in names)


def test_a_harness_verdict_line_says_its_verdict(tmp_path, clip):
    """A harness's own verdict text keeps the verdict word on the page ("Sources differ" alone hid "disputed")."""
    from vidsleuth.report.steps import render_report

    anchor = {"id": "A1", "text": "Bake at 180 degrees.", "moments": [{"start": 0.2, "end": 0.8}]}
    base = {"request": "Is the baking advice right?", "anchors": [anchor]}
    render_report({**base, "verdicts": {"A1": {"verdict": "disputed", "text": "Sources differ on this."}}}, clip,
                  out=tmp_path / "a")
    render_report({**base, "verdicts": {"A1": {"verdict": "disputed", "text": "Disputed: two guides differ."}}}, clip,
                  out=tmp_path / "b")
    texts = [json.loads((tmp_path / n / "report.json").read_text())["verdicts"]["A1"]["text"] for n in ("a", "b")]
    assert texts == ["Verdict: disputed. Sources differ on this.", "Disputed: two guides differ."]
