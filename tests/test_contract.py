"""The report contract (docs/report-contract.md): a page another agent wrote in its own layout is
read, checked and scored like ours; one that breaks the contract gets the list of what is missing;
hostile pages are one clear error or a failed check, never a traceback or a pass."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from vidsleuth import synth
from vidsleuth.bench.omnidr import run_omnidr
from vidsleuth.report.check import check_report, load, run_checks
from vidsleuth.report.contract import ReportContractError, read_report
from vidsleuth.rubric.evaluate import evaluate_task, make_judge
from vidsleuth.rubric.schema import SCHEMA

STYLE = "body{font-family:serif;display:flex;flex-direction:column}.obs{color:#333}blockquote{margin:0 1em}"
SCRIPT = ("document.addEventListener('click', function (e) { var a = e.target.closest('a[href^=\"#t=\"]'); if (!a) return;"
          " e.preventDefault(); var v = a.getAttribute('href').slice(3).replace('npt:', '').split(',')[0];"
          " document.querySelector('video').currentTime = parseFloat(v); });")
STATIC = ["contract", "timestamps", "citations", "sources_cited", "claims_cited", "assets", "links", "markup"]


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def page(*, contract: bool = True, csp: str | None = None, timestamps: bool = True, second_cite: str = "#ref-guide",
         extra: str = "") -> str:
    """A report in another agent's layout: sections, blockquotes, a definition list, its own CSS and
    script; only the contract's data attributes and media-fragment links are shared with ours."""
    csp = csp if csp is not None else (f"default-src 'none'; script-src {sha(SCRIPT)}; style-src {sha(STYLE)}; "
                                       "media-src 'self'")
    t1 = '<a href="#t=1.5,3">00:01</a>' if timestamps else "00:01"
    t2 = '<a href="#t=npt:3.2">00:03</a>' if timestamps else "00:03"
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8">
{'<meta name="report-contract" content="1">' if contract else ''}
{f'<meta http-equiv="Content-Security-Policy" content="{csp}">' if csp else ''}
<style>{STYLE}</style><title>Pump check</title></head><body>
<header><h1>Pump pressure check</h1></header>
<section class="player"><video src="clip.mp4" controls></video></section>
<section class="notes"><h2>What the video says</h2>
<div class="obs" id="obs-1" data-observation="A1">{t1} The presenter sets the pressure to 90 psi.</div>
<div class="obs" id="obs-2" data-observation="A2">{t2} The hose is 2 metres long.</div></section>
<section class="research"><h2>What sources say</h2>
<blockquote id="claim-1" data-finding="F1" data-anchor="A1" data-relation="supports">The pump manual also gives 90 psi
for this pump.<sup><a id="c1" data-cite="E1" href="#ref-manual">manual</a></sup></blockquote>
<blockquote id="claim-2" data-finding="F2" data-anchor="A2">The hose guide asks for a 2 metre hose.<sup><a id="c2"
data-cite="E2" href="{second_cite}">guide</a></sup></blockquote></section>{extra}
<footer><h2>References</h2><dl>
<dt id="ref-manual" data-source="S1"><a href="refs/manual.txt">Pump manual</a> <a href="#c1">back</a></dt>
<dt id="ref-guide" data-source="S2"><a href="refs/guide.txt">Hose guide</a> <a href="#c2">back</a></dt>
</dl></footer><script>{SCRIPT}</script></body></html>"""


SIDECAR = {"video": {"file": "clip.mp4", "title": "Pump check"}, "request": "Is the pressure right?",
           "sources": [{"id": "S1", "kind": "document", "title": "Pump manual", "link": "refs/manual.txt"},
                       {"id": "S2", "kind": "document", "title": "Hose guide", "link": "refs/guide.txt"}],
           "evidence": [{"id": "E1", "source_id": "S1", "excerpt": "The recommended pressure is 90 psi.", "anchor_id": "A1"},
                        {"id": "E2", "source_id": "S2", "excerpt": "Use a hose of 2 metres.", "anchor_id": "A2"}]}


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("contract") / "clip.mp4"
    synth.make_clip(path, synth.ClipSpec(shots=(synth.Shot(125),), width=320, height=180, audio=False))
    return path


def folder(root: Path, clip: Path, html: str, sidecar=SIDECAR) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(clip, root / "clip.mp4")
    (root / "refs").mkdir(exist_ok=True)
    (root / "refs" / "manual.txt").write_text("Pump manual\n\nThe recommended pressure is 90 psi.\n")
    (root / "refs" / "guide.txt").write_text("Hose guide\n\nUse a hose of 2 metres.\n")
    (root / "report.html").write_text(html)
    if sidecar is not None:
        (root / "report.json").write_text(sidecar if isinstance(sidecar, str) else json.dumps(sidecar))
    return root


def rubric(tasks: Path, task: str) -> Path:
    (tasks / task).mkdir(parents=True)
    leaf = {"kind": "judge", "material": "findings"}
    tree = {"schema": SCHEMA, "task": task, "dimensions": [
        {"name": "content", "weight": 0.5, "directions": [{"name": "facts", "leaves": [
            {**leaf, "id": "f1", "question": "Does a source give 90 psi?", "fact": {"must": ["90 psi"]}},
            {**leaf, "id": "f2", "question": "Does a source give a 3 metre hose?", "fact": {"must": ["3 metres"]}}]}]},
        {"name": "citation", "weight": 0.3, "directions": [{"name": "integrity", "leaves": [
            {"id": f"m_{c}", "kind": "machine", "check": c} for c in ("contract", "citations", "sources_cited", "markup")]}]},
        {"name": "presentation", "weight": 0.2, "directions": [{"name": "navigation", "leaves": [
            {"id": "m_ts", "kind": "machine", "check": "timestamps"},
            {"id": "m_nts", "kind": "machine", "check": "min_timestamps:2"},
            {"id": "m_nf", "kind": "machine", "check": "min_findings:3"}]}]}]}
    (tasks / task / "rubric.json").write_text(json.dumps(tree))
    return tasks / task / "rubric.json"


def test_a_report_in_another_layout_that_follows_the_contract_is_checked_and_scored(tmp_path, clip):
    reports = tmp_path / "reports"
    good = folder(reports / "pump", clip, page())
    p = read_report(good)
    assert p.missing == () and p.declared and not p.ours and p.duration == pytest.approx(5.0, abs=0.1)
    assert [(t.start, t.end) for t in p.timestamps] == [(1.5, 3.0), (3.2, None)]
    assert [(f.finding_id, [c.evidence_id for c in f.citations]) for f in p.findings] == [("F1", ["E1"]), ("F2", ["E2"])]
    result = check_report(good, browser=False)
    assert result["passed"], result["checks"]
    assert set(result["checks"]) >= set(STATIC) | {"budgets", "citation_support"}
    rubric(tmp_path / "tasks", "pump")
    m = run_omnidr(tmp_path / "tasks", reports, out=tmp_path / "out", echo=lambda *_: None)
    # by hand: content 1/2 yes; citation 4/4; presentation 2/3 -> 100 * (0.5*0.5 + 0.3*1 + 0.2*2/3)
    assert m["per_task"] == {"pump": {"status": "ok", "score": pytest.approx(68.33, abs=0.01)}}
    assert m["contract_missing"] == {}
    row = json.loads((tmp_path / "out" / "tasks.jsonl").read_text())
    assert row["verdicts"]["f1"]["verdict"] == "yes" and "90 psi" in row["verdicts"]["f1"]["rationale"]
    assert row["verdicts"]["m_nf"] == {"verdict": "no", "rationale": "1 failure(s): 2 finding(s), 3 needed"}


def test_the_browser_check_clicks_through_another_agents_page(tmp_path, clip):
    good = folder(tmp_path / "good", clip, page())
    assert run_checks(read_report(good), ["browser"], browser=True) == {"browser": []}
    bad = folder(tmp_path / "bad", clip, page().replace(f"<script>{SCRIPT}</script>", ""))  # nothing seeks the video
    fails = run_checks(read_report(bad), ["browser"], browser=True)["browser"]
    assert [f.where for f in fails] == ["timestamp-0", "timestamp-1"] and "left the video at 0.00 s" in fails[0].message


def test_a_page_that_breaks_the_contract_gets_the_list_of_what_is_missing(tmp_path, clip):
    reports = tmp_path / "reports"
    broken = folder(reports / "pump", clip, page(contract=False, timestamps=False, second_cite="#nowhere"), sidecar=None)
    p = read_report(broken)
    assert len(p.missing) == 3, p.missing
    assert p.missing[0].startswith('report.html: no <meta name="report-contract" content="1">')
    assert p.missing[1].startswith("report.html: no timestamp link")
    assert p.missing[2].startswith("report.json: ") and "no report.json here" in p.missing[2]
    result = check_report(broken, browser=False)
    assert not result["passed"]
    assert [f["where"] for f in result["checks"]["contract"]] == ["report.html", "report.html", "report.json"]
    assert [f["message"] for f in result["checks"]["citations"]] == [
        "citation E1 has no evidence record in report.json", "citation E2 points at #nowhere, which is not a source entry"]
    with pytest.raises(ReportContractError, match="no report.json here"):
        load(broken)
    # bench omnidr scores what is there, and says what is missing (not a silent zero)
    rubric(tmp_path / "tasks", "pump")
    m = run_omnidr(tmp_path / "tasks", reports, out=tmp_path / "out", echo=lambda *_: None)
    assert m["contract_missing"]["pump"] == list(p.missing)
    row = json.loads((tmp_path / "out" / "tasks.jsonl").read_text())
    assert row["status"] == "ok" and row["verdicts"]["m_contract"]["verdict"] == "no"
    assert row["verdicts"]["f1"]["verdict"] == "yes"  # the claims are still judged


@pytest.mark.parametrize("content, message", [
    (b"", "report.html: is empty"), (b"   \n", "report.html: is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "report.html: line 1: not UTF-8 text"),
    ("<p>caf\xe9</p>".encode("latin-1"), "not UTF-8 text")])
def test_an_unreadable_page_is_one_clear_error(tmp_path, clip, content, message):
    f = folder(tmp_path / "r", clip, "")
    (f / "report.html").write_bytes(content)
    with pytest.raises(ReportContractError, match=message) as err:
        check_report(f, browser=False)
    assert "\n" not in str(err.value)
    r = evaluate_task(rubric(tmp_path / "tasks", "r"), f, make_judge("rules"))
    assert r["status"] == "unreadable" and message in r["error"] and r["score"] == 0.0


@pytest.mark.parametrize("sidecar, message", [
    ("[1, 2]", "report.json: must be a JSON object (the video, sources and evidence records), not a list"),
    ({**SIDECAR, "video": 5}, "report.json: video: Input should be a valid dictionary"),
    ({**SIDECAR, "video": {"file": "clip.mp4", "duration": "long"}}, "report.json: video.duration: Input should be"),
    ({k: v for k, v in SIDECAR.items() if k != "evidence"}, "report.json: evidence: Field required"),
    ('{"video": ', "report.json: line 1: not valid JSON"), ("[" * 50_000 + "]" * 50_000, "report.json: nested too deep")])
def test_a_damaged_sidecar_is_a_named_contract_failure(tmp_path, clip, sidecar, message):
    f = folder(tmp_path / "r", clip, page(), sidecar=sidecar)
    result = check_report(f, browser=False)
    assert not result["passed"]
    assert any((x["where"] + ": " + x["message"]).startswith(message) for x in result["checks"]["contract"]), result["checks"]
    with pytest.raises(ReportContractError, match="report.json"):
        load(f)


@pytest.mark.parametrize("change, message", [
    (dict(extra="<script>window.__xss=1</script>"), "a script the page's CSP does not allow"),
    (dict(extra='<img src="x" onerror="alert(1)">'), "<img> has an event handler attribute onerror"),
    (dict(extra='<a href="java&#9;script:alert(1)">x</a>'), "<a href> is a javascript: URL"),
    (dict(extra='<a href=" DATA:text/html,&lt;b&gt;">x</a>'), "<a href> is a data: URL"),
    (dict(extra='<iframe src="refs/manual.txt"></iframe>'), "a <iframe> element has no place in a report"),
    (dict(csp=""), "the page has no Content-Security-Policy <meta>"),
    (dict(csp=f"default-src 'none'; script-src 'unsafe-inline' {sha(SCRIPT)}"), "lets scripts run from 'unsafe-inline'"),
    (dict(csp=f"default-src 'none'; script-src {sha(SCRIPT)}; img-src https:"), "img-src allows loads from outside"),
])
def test_the_markup_check_finds_what_must_never_be_on_a_page_without_a_browser(tmp_path, clip, change, message):
    f = folder(tmp_path / "r", clip, page(**change))
    fails = run_checks(read_report(f), ["markup"], browser=False)["markup"]
    assert any(message in x.message for x in fails), fails


def _ours(root: Path, clip: Path) -> Path:
    """A report rendered by vidsleuth's own template from hand-made records."""
    from vidsleuth.report.render import write_outputs
    from vidsleuth.report.types import Anchor, Evidence, Finding, Moment, Note, ReportData, Source

    root.mkdir(parents=True)
    shutil.copy(clip, root / "clip.mp4")
    (root / "sources").mkdir()
    (root / "sources" / "m.txt").write_text("Manual\n\nThe pressure should be 90 psi.\n")
    data = ReportData(
        video={"file": "clip.mp4", "duration": 5.0, "title": "Pump <b>check</b>"}, request="Is 90 psi right?",
        summary="One source agrees.", notes=(Note(1.0, "speech: set it to 90 psi", "A1"), Note(3.25, "ocr: 90 PSI")),
        anchors=(Anchor("A1", "parameter", "Set it to 90 psi.", "pressure", "90 psi", (Moment(1.0, 2.5, "speech", "Set it to 90 psi."),)),),
        sources=(Source("S1", "document", "Manual", "/elsewhere/m.txt", link="sources/m.txt"),),
        evidence=(Evidence("E1", "A1", "S1", "text", "The pressure should be 90 psi.", relation="supports"),),
        findings=(Finding("F1", "A1", "The manual also gives 90 psi.", ("E1",), "supports"),))
    write_outputs(data, root)
    return root


def test_vidsleuth_pages_are_written_to_the_same_contract(tmp_path, clip):
    out = _ours(tmp_path / "ours", clip)
    p = read_report(out)
    assert p.missing == () and p.declared and p.ours
    assert [t.href for t in p.timestamps] == ["#t=1", "#t=3.25", "#t=1", "#t=1"]  # notes, moment, anchor: one rounding
    assert [(f.where, f.anchor_id, f.relation, [c.evidence_id for c in f.citations]) for f in p.findings] == [
        ("finding-F1", "A1", "supports", ["E1"])]
    assert [(s.el_id, s.source_id) for s in p.sources] == [("src-S1", "S1")] and p.observations[0][0] == "A1"
    result = check_report(out, browser=False, only=STATIC)
    assert result["passed"], result["checks"]


def test_our_own_script_extended_or_replaced_fails_even_with_a_matching_csp(tmp_path, clip):
    import re

    out = _ours(tmp_path / "ours", clip)
    html = (out / "report.html").read_text()
    js = re.search(r"<script>(.*)</script>", html, re.S).group(1)
    (out / "report.html").write_text(html.replace(js, js + "window.__x = 1;"))
    fails = run_checks(read_report(out), ["markup"], browser=False)["markup"]
    assert [f.message for f in fails] == [f"a script the page's CSP does not allow ({sha(js + 'window.__x = 1;')}): "
                                          "injected or altered"]
    (out / "report.html").write_text(html.replace(js, js + "window.__x = 1;").replace(sha(js)[1:-1], sha(js + "window.__x = 1;")[1:-1]))
    fails = run_checks(read_report(out), ["markup"], browser=False)["markup"]
    assert [f.message for f in fails] == ["the page says vidsleuth wrote it, but this script is not vidsleuth's report.js "
                                          "(altered or added)"]


# --------------------------------------------------------------------------- standards exports


def test_the_timeline_notes_are_a_webvtt_file_a_player_can_load(tmp_path, clip):
    import re

    import webvtt

    out = _ours(tmp_path / "ours", clip)
    text = (out / "report.vtt").read_text()
    lines = text.splitlines()
    assert lines[0] == "WEBVTT" and lines[1] == ""
    timing = re.compile(r"^(\d{2}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2}):(\d{2}):(\d{2})\.(\d{3})$")
    cues = [i for i, line in enumerate(lines) if "-->" in line]
    assert len(cues) == 2 and all(timing.match(lines[i]) for i in cues)  # "-->" appears only on timing lines
    vtt = webvtt.read(out / "report.vtt")
    got = [(c.identifier, c.start, c.end, c.text) for c in vtt.captions]
    # a note runs until the next one, the last to the end of the video (5.0 s)
    assert got == [("anchor-A1", "00:00:01.000", "00:00:03.250", "speech: set it to 90 psi"),
                   ("note-2", "00:00:03.250", "00:00:05.000", "ocr: 90 PSI")]


def test_cue_text_from_the_video_is_escaped_and_cannot_break_the_cue_syntax():
    import webvtt

    from vidsleuth.report.exports import to_webvtt
    from vidsleuth.report.types import Note, ReportData

    data = ReportData(video={"file": "v.mp4", "duration": 9.0, "title": "T"}, request="r", summary="",
                      notes=(Note(0.5, "a --> b <c.x>hi</c> & \n\n2"), Note(0.5, "same time")), anchors=(), sources=(),
                      evidence=(), findings=())
    text = to_webvtt(data)
    (cue1, cue2) = webvtt.from_string(text).captions
    assert cue1.raw_text == "a --&gt; b &lt;c.x&gt;hi&lt;/c&gt; &amp; 2" and "<c.x>" not in text
    assert (cue1.start, cue1.end) == ("00:00:00.500", "00:00:09.000")  # no later note: runs to the end
    assert (cue2.start, cue2.end) == ("00:00:00.500", "00:00:09.000")


def test_the_findings_are_w3c_web_annotations_with_media_fragment_selectors(tmp_path, clip):
    from vidsleuth.timecode import parse_fragment

    out = _ours(tmp_path / "ours", clip)
    doc = json.loads((out / "annotations.jsonld").read_text())
    assert doc["@context"] == "http://www.w3.org/ns/anno.jsonld" and doc["type"] == "AnnotationCollection"
    (anno,) = doc["first"]["items"]
    assert doc["total"] == 1 and anno["type"] == "Annotation" and anno["id"] == "report.html#finding-F1"
    (target,) = anno["target"]
    sel = target["selector"]
    assert target["source"] == "clip.mp4" and sel["type"] == "FragmentSelector"
    assert sel["conformsTo"] == "http://www.w3.org/TR/media-frags/" and sel["value"] == "t=1,2.5"
    assert parse_fragment(sel["value"]) == (1.0, 2.5)  # the anchor's moment, read back by the Media Fragments grammar
    bodies = {b["purpose"]: b for b in anno["body"]}
    assert bodies["commenting"]["value"] == "The manual also gives 90 psi." and bodies["tagging"]["value"] == "supports"
    assert bodies["linking"]["source"] == "sources/m.txt"
    assert (out / "report.html").read_text().count('id="finding-F1"') == 1  # the annotation's id resolves on the page


def test_a_check_registered_from_another_module_runs_like_the_built_in_ones(tmp_path, clip):
    from vidsleuth.report.check import CHECKS, check
    from vidsleuth.report.types import Failure
    from vidsleuth.rubric.schema import problems

    def every_finding_has_a_relation(ctx):
        return [Failure("relations", f.where, "no relation") for f in ctx.page.findings if not f.relation]

    check("relations_demo")(every_finding_has_a_relation)
    try:
        f = folder(tmp_path / "r", clip, page())
        result = check_report(f, browser=False)
        assert result["checks"]["relations_demo"] == [{"check": "relations", "where": "claim-2", "message": "no relation"}]
        assert "browser" not in result["checks"]  # needs the browser, which this call did not enable
        tree = {"schema": SCHEMA, "task": "t", "dimensions": [{"name": "content", "directions": [{"name": "x", "leaves": [
            {"id": "m", "kind": "machine", "check": "relations_demo"}]}]}]}
        assert problems(tree) == []
    finally:
        del CHECKS["relations_demo"]
    assert any("is not a report check" in p for p in problems(tree))


def test_read_report_never_crashes_on_arbitrary_pages_and_sidecars(tmp_path_factory):
    """Whatever bytes sit in report.html and whatever JSON in report.json: a ReportPage (with what
    is missing) or nothing to read, never another exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    json_values = st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=20),
                               lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                               max_leaves=20)
    sidecars = json_values | st.fixed_dictionaries({"video": json_values, "sources": json_values, "evidence": json_values})
    html_bits = st.lists(st.sampled_from(["<a data-cite href='#x'>", "<a href='#t=", "1e9", ",", "nan'>", "<video src='",
                                          "../../etc/passwd'>", "<p data-finding>", "<li id='x' data-source>", "</p>",
                                          "<meta name='report-contract' content='1'>", "\x00", "é", "<script>"]), max_size=12)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(page_bytes=st.binary(max_size=200) | html_bits.map(lambda xs: "".join(xs).encode()), sidecar=sidecars)
    def run(page_bytes, sidecar):
        f = tmp_path_factory.mktemp("h")
        (f / "report.html").write_bytes(page_bytes)
        (f / "report.json").write_text(json.dumps(sidecar))
        p = read_report(f)
        assert p.tree is not None or len(p.missing) == 1
        if p.tree is not None:
            run_checks(p, STATIC + ["budgets", "min_findings:1"], browser=False)

    run()
