"""The relater choice (``report.judge``): rules, model, or the rules judged by a model on their
borderline cases. Model paths talk real HTTP to a ScriptedServer that plays the endpoint."""

from __future__ import annotations

import json

from vidsleuth import synth
from vidsleuth.library import IngestOptions
from vidsleuth.prompts import prompt_hash
from vidsleuth.report import relate_excerpts, report
from vidsleuth.report.judge import PROMPT, Case, borderline, labels
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.steps import anchor_of
from vidsleuth.testing import ScriptedServer

from .conftest import scripted_models

SALT = {"id": "A1", "text": "Add 18 grams of salt to the dough.",
        "moments": [{"start": 1.0, "end": 3.0, "kind": "speech", "text": "Add 18 grams of salt to the dough."}]}
FIRM = "The bakery manual gives 18 grams of salt for this dough."  # the value inside the source's: supports, firm
REASON = "The salt in the dough matters because it tightens the gluten."  # a reason: explains, low confidence
MENTION = "Salt for the dough is sold in every shop."  # names the subject, no stance


def _excerpts(*texts: str) -> list[dict]:
    return [{"excerpt": t, "source_title": f"doc {k}"} for k, t in enumerate(texts)]


def _label(table: dict[str, str]):
    """A scripted endpoint answering by the excerpt in the case message (the last one)."""
    def reply(body, n):
        case = body["messages"][-1]["content"]
        return next((json.dumps({"relation": rel}) for text, rel in table.items() if text in case), "{}")
    return reply


def test_the_rules_own_outputs_decide_what_is_borderline():
    a = anchor_of(SALT)
    cases = [Case(a, t, src) for t, src in ((FIRM, "manual"), (REASON, "guide"), (MENTION, "shop"),
                                            ("Use 15 grams of salt for the dough.", "forum"),
                                            ("18 grams of salt for the dough is right.", "forum"))]
    decided = [relate_rules(a, c.excerpt) for c in cases]
    assert [d[0] for d in decided[:3]] == ["supports", "explains", None]
    assert decided[3][0] == "contradicts" and decided[4][0] == "supports"
    doubt = borderline(cases, decided)
    assert 0 not in doubt  # a firm value compare stays with the rules
    assert doubt[1] == "a stance without a value compared"
    assert doubt[2] == "no stance from an excerpt on the subject"
    assert doubt[3] == doubt[4] == "a source that both supports and disputes the anchor"
    # a mention linked only through the video's topic is not worth a model call
    assert 2 not in borderline([*cases[:2], Case(a, MENTION, "shop", by_topic=True)], decided[:3])


def test_the_judge_is_asked_only_about_borderline_cases_and_its_none_drops_a_link():
    with ScriptedServer(_label({REASON: "none", MENTION: "applies", FIRM: "contradicts"})) as srv:
        model = scripted_models(srv, max_retries=0).get("fake", role="writer")
        got = relate_excerpts(SALT, _excerpts(FIRM, REASON, MENTION), relater="judge", model=model)
    asked = [r["messages"][-1]["content"] for r in srv.requests]
    assert len(asked) == 2 and not any(FIRM in q for q in asked)  # the firm support never reached the model
    assert "Thing:" in asked[0] and "18 g" in asked[0]  # the case names the anchor's subject and value
    assert srv.requests[0]["messages"][0]["role"] == "system"  # fixed instructions first: a cacheable prefix
    assert [(r["relation"], r["decided_by"]) for r in got] == [("supports", "rules"), (None, "fake"), ("applies", "fake")]
    assert got[1]["rationale"].startswith("not evidence by fake") and "rules said explains" in got[1]["rationale"]


def test_model_asks_for_every_excerpt_and_rules_for_none():
    with ScriptedServer(_label({FIRM: "supports", REASON: "explains", MENTION: "none"})) as srv:
        model = scripted_models(srv, max_retries=0).get("fake", role="writer")
        got = relate_excerpts(SALT, _excerpts(FIRM, REASON, MENTION), relater="model", model=model)
        rules = relate_excerpts(SALT, _excerpts(FIRM, REASON, MENTION), relater="rules", model=model)
    assert srv.calls == 3 and [r["relation"] for r in got] == ["supports", "explains", None]
    assert {r["decided_by"] for r in rules} == {"rules"} and [r["relation"] for r in rules] == ["supports", "explains", None]


def test_a_value_relation_without_a_value_is_refused():
    """The anchor states 18 g and the excerpt no value: supports, contradicts and updates are not
    among the labels offered (the schema's enum), so such an answer is unusable and the rules stand."""
    assert labels(Case(anchor_of(SALT), MENTION, "shop")) == ["explains", "compares", "applies", "none"]
    assert "supports" in labels(Case(anchor_of(SALT), FIRM, "manual"))
    with ScriptedServer(_label({MENTION: "supports"})) as srv:
        model = scripted_models(srv, max_retries=0).get("fake", role="writer")
        (got,) = relate_excerpts(SALT, _excerpts(MENTION), relater="model", model=model)
    assert srv.calls == 2 and (got["relation"], got["decided_by"]) == (None, "rules")


def test_a_malformed_reply_leaves_the_rules_decision_and_says_so():
    with ScriptedServer(["not json at all", '{"relation": "maybe"}'], repeat_last=True) as srv:
        model = scripted_models(srv, max_retries=0).get("fake", role="writer")
        (got,) = relate_excerpts(SALT, _excerpts(REASON), relater="judge", model=model)
    assert srv.calls == 2  # the model layer's one repair turn, then the rules
    assert (got["relation"], got["decided_by"]) == ("explains", "rules")
    assert got["rationale"].startswith("fake reply unusable; rules:")


def test_a_report_records_its_relater_and_the_judge_drops_what_it_calls_none(tmp_path):
    video = tmp_path / "clip.mp4"
    synth.make_clip(video, synth.ClipSpec(shots=(synth.Shot(150, "0x305070"),), audio=True, title="Bread dough"))
    (tmp_path / "clip.srt").write_text("1\n00:00:01,000 --> 00:00:04,000\nAdd 18 grams of salt to the dough.\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.txt").write_text(f"Bread dough basics\n\n{FIRM}\n")
    # a source that both supports and disputes the anchor: borderline, whatever the confidence
    (docs / "forum.txt").write_text("Salt in bread dough\n\n18 grams of salt for the dough is right.\n\n"
                                    "Use 15 grams of salt for the dough.\n")
    with ScriptedServer(lambda body, n: json.dumps({"relation": "none"})) as srv:
        cfg = tmp_path / "config.toml"
        cfg.write_text(f'[models.fake]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "m"\nmax_retries = 0\n'
                       "[report]\nmin_sources = 1\n")
        report(video, "Is the salt right for this dough?", out=tmp_path / "out", docs=docs, config=cfg,
               relater="judge", relater_model="fake", library=tmp_path / "lib",
               ingest_options=IngestOptions(ocr=False, shots=False), browser=False)
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    proto = run["relater_protocol"]
    assert run["relater"].startswith("rules, borderline cases judged by fake")
    assert proto["mode"] == "judge" and proto["prompt"] == PROMPT and proto["prompt_hash"] == prompt_hash(PROMPT)
    assert proto["endpoint"]["name"] == "fake" and proto["borderline"] == srv.calls == proto["model_answers"] >= 1
    assert run["writer"] == "rules"  # --relater-model changes who relates, not who writes
    assert [(e["relation"], e["decided_by"]) for e in data["evidence"]] == [("supports", "rules")]
    assert data["counts"]["dropped"].get("not evidence by fake", 0) >= 1
