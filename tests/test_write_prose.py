"""The writer (report/write.py, report/wording.py) on hand-made records with known answers:
findings are sentences a person reads (source, value, subject, the video's value; never pipes or a
rationale), each anchor gets a verdict line, the summary answers the request (change, dispute,
keep, not addressed) in the request's language, the timeline drops what a reader cannot use, and
the model path talks real HTTP to a ScriptedServer."""

from __future__ import annotations

import json
from dataclasses import replace

from vidsleuth.report.types import Anchor, Evidence, Moment, Source
from vidsleuth.report.wording import clean_title, in_sentence, readable, source_name, zh_value
from vidsleuth.report.write import (
    VERDICTS,
    notes_of,
    summary_of,
    verdicts_of,
    write_model,
    write_rules,
    write_summary,
)
from vidsleuth.testing import ScriptedServer
from vidsleuth.types import Segment, Timeline

from .conftest import scripted_models


def _anchor(aid, text, heading, value, t, kind="speech"):
    return Anchor(aid, "parameter", text, heading.lower(), value, (Moment(t, t + 2.0, kind, text),), heading=heading)


OVEN = _anchor("A1", "Preheat your oven to 180 degrees celsius.", "Oven temperature", "180°C", 12.0)
SALT = _anchor("A2", "Brine it in 60 grams of salt per litre.", "Salt amount", "60 g", 7.0)
CORE = _anchor("A3", "Core temperature 74 °C", "Core temperature", "74°C", 39.0, "ocr")
REST = _anchor("A4", "Rest it under foil for 15 minutes.", "Resting time", "15 min", 45.0)
SOURCES = {
    "S1": Source("S1", "document", "## Roast Chicken Guide | Kitchen Site", "/d/roast.html", "2023-11-02"),
    "S2": Source("S2", "document", "Brining Basics", "/d/brine.html", "2025-03-01"),
    "S3": Source("S3", "document", "USDA safe temperatures chart", "/d/usda.html", "2024-01-15"),
    "S4": Source("S4", "document", "Re: how long do you rest a chicken?", "/d/forum.html"),
}
EVIDENCE = [
    Evidence("E1", "A1", "S1", "text", "Roast the bird at between 350 and 375 °F.", "supports",
             rationale="inside range: video 180°C, source 350-375 °F"),
    Evidence("E2", "A2", "S2", "text", "We now recommend 50 grams of salt per litre of water.", "updates"),
    Evidence("E3", "A3", "S3", "text", "| Poultry | 165 °F (74 °C) |", "supports",
             context="| Food | Safe minimum internal temperature |"),
    Evidence("E4", "A4", "S1", "text", "Rest the chicken for at least 10 minutes before carving.", "supports"),
    Evidence("E5", "A4", "S4", "text", "You should rest it for 30 minutes, 15 minutes is too short.", "contradicts"),
]
ANCHORS = [SALT, OVEN, CORE, REST]


def test_findings_are_sentences_with_source_value_subject_and_the_videos_value():
    fs = {f.evidence_ids[0]: f for f in write_rules(ANCHORS, EVIDENCE, SOURCES)}
    oven = fs["E1"].text
    assert oven.startswith("“Roast Chicken Guide” (2023-11-02) gives 350–375")  # title without '##' or '| Site'
    assert "for the oven temperature, which the video's 180°C meets." in oven
    assert "rationale" not in oven and "inside range" not in oven
    salt = fs["E2"].text
    assert "“Brining Basics” (2025-03-01) now gives 50 g" in salt and "the video's 60 g is older guidance" in salt
    row = fs["E3"].text  # a table row: its subject from the first cell, its value from the row, no pipes
    assert "for poultry" in row and "which the video's 74°C meets" in row and "165" in row
    for f in fs.values():
        assert "|" not in f.text and f.text.startswith("“") and f.text.endswith((".", "”")), f.text


def test_background_reads_as_a_sentence_and_a_contradiction_names_the_value_that_differs():
    evs = [Evidence("E6", "A1", "S2", "text", "A brine helps the meat hold on to moisture in the oven.", "explains"),
           Evidence("E7", "A2", "S4", "text", "Whoever says 60 grams of salt per litre gets a salt lick; I use 30 grams "
                                              "per litre.", "contradicts")]
    background, salt = (f.text for f in write_rules([OVEN, SALT], evs, SOURCES))
    assert background == ("“Brining Basics” (2025-03-01) gives background on the oven temperature (the video: 180°C): "
                          "“A brine helps the "
                          "meat hold on to moisture in the oven.”")
    assert "gives 30" in salt and "not the video's 60 g." in salt and "gives 60" not in salt


def test_each_anchor_gets_a_verdict_line_naming_its_sources():
    v = verdicts_of(ANCHORS + [_anchor("A5", "Carve it.", "Carving", "", 50.0)], EVIDENCE, SOURCES)
    assert {k: x["verdict"] for k, x in v.items()} == {"A2": "newer guidance", "A1": "agrees", "A3": "agrees",
                                                      "A4": "disputed", "A5": "not addressed"}
    assert all(x["verdict"] in VERDICTS and x["text"].startswith("Verdict: ") for x in v.values())
    assert "“Brining Basics” now gives 50 g" in v["A2"]["text"]
    assert v["A4"]["text"] == ("Verdict: disputed — the sources disagree: 1 source agrees; “Re: how long do you rest "
                               "a chicken?” gives 30 min.")
    assert v["A1"]["text"] == "Verdict: agrees — 1 source agrees with the video."


def test_the_summary_answers_the_request_change_dispute_keep_not_addressed():
    anchors = ANCHORS + [_anchor("A5", "It serves 450 kcal per portion.", "Portion energy", "450 kcal", 51.0)]
    v = verdicts_of(anchors, EVIDENCE, SOURCES)
    text = summary_of("What should I change?", anchors, EVIDENCE, SOURCES, v)
    lines = text.splitlines()
    assert lines[0] == ("Of the 5 statements checked against 4 sources: 1 to change, 1 disputed between sources, "
                        "2 to keep, 1 that no source addressed.")
    change = next(line for line in lines if line.startswith("Change:"))
    assert "the salt amount (60 g, at 0:07)" in change and "“Brining Basics” now gives 50 g" in change
    assert "Disputed between sources: the resting time (15 min, at 0:45) — 1 source agrees, “Re: how long do you rest a " \
           "chicken?” gives 30 min." in lines
    assert any(line.startswith("Keep") and "oven temperature (180°C, at 0:12)" in line for line in lines)
    assert any(line.startswith("Not addressed by any source:") and "portion energy" in line for line in lines)
    assert "|" not in text and "What should I change?" not in text  # the page shows the request; this answers it


def test_a_chinese_request_gets_chinese_sentences_values_and_summary():
    salt = Anchor("A1", "parameter", "每天食盐不超过6克", "食盐", "≤ 6 g", (Moment(10.0, 13.0, "ocr", "每天食盐不超过6克"),),
                  heading="食盐")
    src = {"S1": Source("S1", "document", "《中国居民膳食指南（2022）》正式发布", "/d/a.html", "2022-04-26")}
    ev = [Evidence("E1", "A1", "S1", "text", "成年人每天摄入食盐不超过5克，比2016版的6克进一步下调。", "updates")]
    (f,) = write_rules([salt], ev, src, language="zh")
    assert f.text == "“《中国居民膳食指南（2022）》正式发布”（2022-04-26）现在给出的食盐为不超过5克，视频中的不超过6克是旧的建议。"
    v = verdicts_of([salt], ev, src, language="zh")
    assert v["A1"]["verdict"] == "newer guidance" and v["A1"]["text"].startswith("结论：有更新的建议")
    text = summary_of("请核对视频中的数值", [salt], ev, src, v, language="zh")
    assert text.startswith("核对了视频中的1处说法（1个来源）：1处需要更新。")
    assert "需要更新：食盐（不超过6克，0:10）" in text and " g" not in text


def test_wording_cleans_titles_tables_and_values():
    assert clean_title("### 3DPrintBoard › Troubleshooting") == "3DPrintBoard › Troubleshooting"
    assert clean_title("How to roast a chicken | Some Kitchen Blog") == "How to roast a chicken"
    assert source_name("Guide", "2024-01-02") == "“Guide” (2024-01-02)"
    assert source_name("膳食指南", "2022-04-26", zh=True) == "《膳食指南》（2022-04-26）"
    assert readable("| Ground meats | 160 °F (71.1 °C) |", "| Food | Safe minimum |") == "Ground meats — Safe minimum: 160 °F (71.1 °C)"
    assert readable("| PETG | 235–245 | 80 |") == "PETG: 235–245, 80"
    long = readable("word " * 100)
    assert len(long) <= 201 and long.endswith("…")
    assert in_sentence("Oven temperature") == "oven temperature" and in_sentence("IRA limit") == "IRA limit"
    assert zh_value("≤ 6 g") == "不超过6克" and zh_value("1500–1700 ml") == "1500–1700毫升"
    assert zh_value("6000 steps") == "6000步" and zh_value("7–8 h") == "7–8小时" and zh_value("50 mm/s") == "50 mm/s"


def test_the_timeline_keeps_anchor_moments_and_drops_timer_digits_and_fragments():
    segs = [Segment(0.0, 2.0, "speech", "Welcome back to the shop."), Segment(26.0, 31.0, "speech",
            "I flatten the joints with a router sled, using a 40 millimeter bit."),
            Segment(29.0, 31.0, "speech", "using a 40 millimeter bit"), Segment(35.0, 36.0, "ocr", "00:00:01.000"),
            Segment(36.0, 37.0, "ocr", "25"), Segment(35.0, 38.0, "ocr", "Final grit: 180")]
    timeline = replace(Timeline.empty(), segments=tuple(segs))
    grit = _anchor("A1", "Final grit: 180", "Final grit", "180 grits", 35.0, "ocr")
    notes = notes_of(timeline, [grit])
    assert [(n.t, n.text, n.anchor_id) for n in notes] == [
        (0.0, "speech: Welcome back to the shop.", ""),
        (26.0, "speech: I flatten the joints with a router sled, using a 40 millimeter bit.", ""),
        (35.0, "ocr: Final grit: 180", "A1")]


def test_the_writer_model_writes_prose_over_real_http_and_the_rules_stand_in_when_it_fails():
    para = {"text": "Brining Basics now recommends 50 g of salt per litre, less than the video's 60 g.",
            "cites": ["E2", "E99"]}
    summary = {"text": "Change the brine to 50 g of salt per litre; keep the oven at 180 °C."}
    with ScriptedServer([json.dumps(para), json.dumps(summary), "not json", "still not json"]) as srv:
        m = scripted_models(srv, max_retries=0).get("fake", role="writer")
        problems: list[str] = []
        (f,) = write_model(m, [SALT], EVIDENCE, SOURCES, problems=problems, language="zh")
        assert f.text == para["text"] and f.evidence_ids == ("E2",) and f.relation == "updates"  # E99 is no record
        prompt = str(srv.requests[0]["messages"][-1]["content"])
        assert "Brine it in 60 grams" in prompt and "Salt amount = 60 g" in prompt and "stating 50 g" in prompt
        assert "Simplified Chinese" in prompt and "|" not in prompt.split("Evidence records")[1].split("Write")[0]
        v = verdicts_of([SALT, OVEN], EVIDENCE, SOURCES)
        text = write_summary(m, "What should I change?", [SALT, OVEN], EVIDENCE, SOURCES, v, problems=problems)
        assert text == summary["text"] and not problems
        asked = str(srv.requests[1]["messages"][-1]["content"])
        assert "What should I change?" in asked and "now gives 50 g" in asked
        fallback = write_summary(m, "What should I change?", [SALT, OVEN], EVIDENCE, SOURCES, v, problems=problems)
        assert fallback == summary_of("What should I change?", [SALT, OVEN], EVIDENCE, SOURCES, v)
        assert len(problems) == 1 and "summary" in problems[0]


def test_a_source_that_only_rejects_the_videos_figure_gives_no_figure_of_its_own():
    evs = [Evidence("E8", "A2", "S2", "text", "The old rule of 60 grams of salt per litre is no longer advised.", "updates")]
    (f,) = write_rules([SALT], evs, SOURCES)
    assert "now gives 60" not in f.text and "gives newer guidance" in f.text  # it never "gives" the video's own value


def test_an_anchor_without_a_heading_is_quoted_and_a_harness_anchor_gets_one():
    from vidsleuth.report.steps import anchor_of

    bare = replace(REST, heading="")
    line = summary_of("Is the resting time right?", [bare], EVIDENCE[3:4], SOURCES, verdicts_of([bare], EVIDENCE[3:4], SOURCES))
    assert "the Rest it" not in line and "“Rest it under foil for 15 minutes.”" in line
    harness = anchor_of({"text": "Rest it under foil for 15 minutes.", "moments": [{"start": 1, "end": 2}]})
    assert harness.heading == "Rest time" and harness.subject != harness.heading  # shown words, not stemmed ones
