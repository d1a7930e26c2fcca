from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from vidsleuth import synth
from vidsleuth.bench.browse import calibration, exact_match, run_browse
from vidsleuth.browse.agent import ReAct, VideoBrowser
from vidsleuth.browse.trace import load_trace, parse_confidence, render
from vidsleuth.browse.videos import BrowseConfig, Videos
from vidsleuth.models import Models
from vidsleuth.search.corpus import read_corpus
from vidsleuth.search.index import build_index
from vidsleuth.store import RunStore
from vidsleuth.testing import ScriptedServer

from .conftest import scripted_models

CFG = BrowseConfig(analyst_frames=12, n_grids=1)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("browse")
    clips = {
        "harbor": ("Harbor Point lighthouse tour", "BUILT IN 1887"),
        "harbor_neg": ("Harbor Point lighthouse history", "OPEN DAILY"),
        "cup": ("Cup final highlights", "FINAL SCORE 3-1"),
    }
    rows = []
    for vid, (title, caption) in clips.items():
        path = root / f"{vid}.mp4"
        synth.make_clip(path, synth.ClipSpec(shots=(synth.Shot(100, "0x203060"),), audio=False,
                                             captions=(synth.Caption(0.5, 3.5, caption),)))
        rows.append({"video_id": vid, "title": title, "description": "a video", "channel": "Demo", "path": str(path)})
    rows.append({"video_id": "broken", "title": "Harbor Point lighthouse drone", "path": str(root / "gone.mp4")})
    rows.append({"video_id": "remote", "title": "Harbor Point lighthouse night", "url": "https://example.invalid/v"})
    corpus = root / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    index = build_index(corpus, root / "idx", method="lucene")  # 4 of 5 titles share words: Okapi idf would be 0
    records = {r.video_id: r for r in read_corpus(corpus)}
    return {"root": root, "corpus": corpus, "index": index, "records": records}


def role_of(body: dict) -> str:
    text = json.dumps(body["messages"])
    for role, marker in (("planner", "You are the Planner"), ("watcher", "You are screening video search results"),
                         ("checker", "You are the Checker"), ("analyst", "Analyze the following video content"),
                         ("judge", "Evaluate if the Prediction matches"), ("react", "You are a video research agent")):
        if marker in text:
            return role
    return "?"


def scripted(answers: dict, log: list):
    """Answer per role from lists (each consumed in order; the last one repeats)."""
    def step(body, n):
        role = role_of(body)
        log.append((role, body))
        seq = answers[role]
        k = sum(1 for r, _ in log if r == role) - 1
        out = seq[min(k, len(seq) - 1)]
        return out(body) if callable(out) else out
    return step


def models_for(srv, tmp_path, **kw) -> Models:
    store = RunStore(tmp_path / "runs.sqlite")
    return scripted_models(srv, model="vl", roles={"default": "fake"}, store=store, run_id=store.start_run("t"), **kw)


PLAN = json.dumps({"thought": "search the lighthouse", "search_queries": ["harbor point lighthouse"]})
ANSWER = json.dumps({"Explanation": "the caption says built in 1887", "Answer": "1887", "Confidence": "85%"})


def run_llm_watcher(world: dict, answers: dict, tmp_path, question: str):
    """The agent with the LLM Watcher over a generated world, each role answered from ``answers``
    through a ScriptedServer; the answer and the log of (role, request body)."""
    log: list = []
    with ScriptedServer(scripted(answers, log)) as srv:
        agent = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"], library=world["lib"]),
                             config=replace(CFG, watcher="llm"))
        return agent.run(question), log


def pick(title: str):
    """A Watcher that picks the candidate with this title, wherever the search ranked it."""
    def answer(body):
        for part in body["messages"][0]["content"]:
            text = part.get("text", "") if isinstance(part, dict) else ""
            if text.startswith("[Cand ") and f"Title: {title} |" in text:
                return f"[{text.split(']')[0][6:]}]"
        return "[]"
    return answer


def test_halt_after_one_loop(world, tmp_path):
    log = []
    script = scripted({"planner": [PLAN], "watcher": [pick("Harbor Point lighthouse tour")],
                       "checker": ['{"decision": "HALT", "feedback": ""}'], "analyst": [ANSWER]}, log)
    with ScriptedServer(script) as srv:
        agent = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"], library=tmp_path / "lib"), config=CFG)
        ans = agent.run("In which year was the Harbor Point lighthouse built?")
    assert [r for r, _ in log] == ["planner", "watcher", "checker", "analyst"]
    watcher_body = log[1][1]["messages"][0]["content"]
    texts = [p.get("text", "") for p in watcher_body]
    assert texts[0].startswith("You are screening video search results.")
    assert sum(p["type"] == "image_url" for p in watcher_body) == 2  # 2 readable lighthouse videos x 1 grid
    assert sum("(no visual data)" in t for t in texts) == 2  # the broken file and the url-only record
    assert any(t.startswith("[Cand 0] Title: Harbor Point lighthouse") for t in texts)
    assert ans.selected == ("harbor",)
    assert ans.answer == "1887" and ans.confidence == 0.85
    analyst_text = json.dumps(log[3][1]["messages"], ensure_ascii=False)
    assert "=== Video: " in analyst_text and "[Frame at " in analyst_text and "Based on the video frames" in analyst_text
    assert ans.evidence and ans.evidence[0][0] == "harbor" and "1887" in ans.evidence[0][3]
    assert ans.evidence[0][1] == pytest.approx(0.0, abs=1.0) and ans.evidence[0][2] == pytest.approx(3.5, abs=1.0)
    assert ans.tokens()["browse"] > 0 and ans.tokens()["verify"] > 0
    path = ans.save(tmp_path / "trace.json")
    again = load_trace(path)
    assert again == ans
    assert "Answer: 1887  (confidence 85%)" in render(again)


def test_continue_to_t_max_passes_feedback(world, tmp_path):
    log = []
    script = scripted({"planner": [PLAN, json.dumps({"thought": "t", "search_queries": ["cup final score"]}), PLAN],
                       "watcher": ["[0]"], "checker": ['{"decision": "CONTINUE", "feedback": "need the build year"}'],
                       "analyst": [ANSWER]}, log)
    with ScriptedServer(script) as srv:
        ans = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=CFG).run(
            "When was the Harbor Point lighthouse built, and what was the cup final score?")
    roles = [r for r, _ in log]
    # loop 3 selected the same video as loop 1: no new evidence, so no Checker call, a recorded HALT
    assert roles.count("planner") == 3 and roles.count("checker") == 2 and roles[-1] == "analyst"
    second_planner = [b for r, b in log if r == "planner"][1]
    human = second_planner["messages"][1]["content"]
    assert "Checker feedback: need the build year" in human and 'searched "harbor point lighthouse"' in human
    assert len(ans.selected) == 2
    last = [s for s in ans.steps if s.role == "checker"][-1]
    assert last.loop == 3 and last.note.startswith("guard: the loop selected no new video")


def test_watcher_fallback_on_bad_json_and_empty_list(world, tmp_path):
    log = []
    script = scripted({"planner": [PLAN], "watcher": ["the second one looks good", "still no json", "[]"],
                       "checker": ['{"decision": "CONTINUE", "feedback": "x"}', '{"decision": "HALT"}'],
                       "analyst": [ANSWER]}, log)
    with ScriptedServer(script) as srv:
        ans = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=CFG).run(
            "In which year was the Harbor Point lighthouse built?")
    first = world["index"].search("harbor point lighthouse", k=10)[0].video_id
    watcher_steps = [s for s in ans.steps if s.role == "watcher"]
    assert watcher_steps[0].note == "unparseable: first top-k candidates"
    assert watcher_steps[1].note.startswith("empty or invalid list")
    assert ans.selected == (first,) and ans.parse_failures >= 1


def test_no_download_without_allow_download(world, monkeypatch):
    monkeypatch.delitem(sys.modules, "yt_dlp", raising=False)
    videos = Videos(world["records"])
    assert videos.path("remote") is None and videos.grids("remote", CFG) == []
    assert "--allow-download" in videos.problems["remote"]
    assert videos.timeline("broken").segments == () and "gone.mp4" in videos.problems["broken"]
    assert "yt_dlp" not in sys.modules
    with pytest.raises(Exception, match=r"vidsleuth\[download\]"):
        Videos(world["records"], allow_download=True, download_dir=world["root"] / "dl").path("remote")


def test_react_baseline(world, tmp_path):
    log = []
    turns = [json.dumps({"thought": "search", "tool": "search_videos", "query": "harbor point lighthouse"}),
             json.dumps({"thought": "look", "tool": "watch", "video_id": "harbor"}),
             ANSWER]
    with ScriptedServer(scripted({"react": turns}, log)) as srv:
        ans = ReAct(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=replace(CFG, react_frames=8)).run(
            "In which year was the Harbor Point lighthouse built?")
    assert ans.answer == "1887" and ans.selected == ("harbor",) and "harbor" in ans.candidates
    watch_turn = log[2][1]["messages"][-1]["content"]
    assert any(p.get("text", "").startswith("watch(harbor)") for p in watch_turn)
    assert sum(p["type"] == "image_url" for p in watch_turn) == 4  # a 4-s clip at 1 fps (cap 8)


def test_react_tool_budget(world, tmp_path):
    log = []
    turns = [json.dumps({"tool": "search_videos", "query": "lighthouse"})] * 7 + ["no more", ANSWER]
    with ScriptedServer(scripted({"react": turns}, log)) as srv:
        ans = ReAct(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=CFG).run(
            "In which year was the Harbor Point lighthouse built?")
    assert len(log) == 8  # 7 tool calls, then one final turn, which fails to parse: no answer
    assert "No tool calls are left" in json.dumps(log[-1][1]["messages"][-1])
    assert ans.answer is None and ans.parse_failures >= 1 and ans.candidates


# --------------------------------------------------------------------------- metrics and the runner


def test_calibration_bins_and_edges():
    rows = [{"correct": True, "confidence": 0.0}, {"correct": False, "confidence": 0.2},
            {"correct": True, "confidence": 1.0}, {"correct": True, "confidence": 0.9}]
    m = calibration(rows)
    assert [b["n"] for b in m["bins"]] == [1, 1, 0, 0, 2]  # 0.2 opens bin 2; 1.0 falls in the last bin
    # bin1: acc 1, conf 0 -> 1; bin2: acc 0, conf .2 -> .2; bin5: acc 1, conf .95 -> .05
    assert m["calibration_error"] == pytest.approx((1 * 1 + 1 * 0.2 + 2 * 0.05) / 4)
    assert m["accuracy"] == 0.75 and m["n"] == 4


def test_contains_judge():
    from vidsleuth.bench.browse import contains_match

    assert contains_match("The final score was 3-1.", "3-1") and contains_match("It is 12°C on Friday", "12C")
    assert not contains_match("It costs $1.50", "4 EUR") and not contains_match("1887 or 1888", "188")
    assert contains_match("苹果 5元 一斤", "5元") and not contains_match("100", "5元")


def test_confidence_and_exact_match_parsing():
    assert parse_confidence("85%") == 0.85 and parse_confidence(0.3) == 0.3 and parse_confidence("90") == 0.9
    assert parse_confidence("high") is None and parse_confidence(None) is None
    assert exact_match("The Eiffel Tower.", "eiffel tower") and not exact_match("1886", "1887")
    assert exact_match("8pm", "8 PM") and exact_match("twenty eight degrees", "28 °C") and not exact_match("28", "2.8")


def test_metrics_calibration_cli(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"correct": true, "confidence": "100%"}\n{"correct": false, "confidence": 0.1}\n')
    out = subprocess.run([sys.executable, "-m", "vidsleuth", "metrics", "calibration", "--input", f, "--json"],
                         capture_output=True, text=True)
    m = json.loads(out.stdout)
    assert m["n"] == 2 and m["calibration_error"] == pytest.approx(0.05) and len(m["bins"]) == 5
    f.write_text('{"correct": "yes", "confidence": 1}\n')
    bad = subprocess.run([sys.executable, "-m", "vidsleuth", "metrics", "calibration", "--input", f],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "c.jsonl: line 1" in bad.stderr


def test_bench_browse_resumes_after_a_crash(world, tmp_path):
    qs = tmp_path / "q.jsonl"
    qs.write_text("".join(json.dumps({"id": f"q{i}", "question": f"When was the Harbor Point lighthouse built? ({i})", "answer": "1887",
                                      "level": "L1", "genre": "Documentary", "seed_video_ids": ["harbor"]}) + "\n"
                          for i in range(3)))
    answers = {"planner": [PLAN], "watcher": ["[0]"], "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER],
               "judge": ['{"is_correct": true}']}
    log: list = []
    dying = scripted(answers, log)
    crash = lambda body, n: dying(body, n) if n < 6 else {"status": 400, "json": {"error": "down"}}
    out = tmp_path / "out"
    with ScriptedServer(crash) as srv:
        models = models_for(srv, tmp_path, max_retries=0)
        factory = lambda m: VideoBrowser(world["index"], m, Videos(world["records"]), config=CFG)
        first = run_browse(qs, factory, models, out, protocol={"agent": "video-browser"})
    assert first["n"] == 1 and first["missing"] == 2
    log2: list = []
    with ScriptedServer(scripted(answers, log2)) as srv2:
        models = models_for(srv2, tmp_path, max_retries=0)
        factory = lambda m: VideoBrowser(world["index"], m, Videos(world["records"]), config=CFG)
        m = run_browse(qs, factory, models, out, protocol={"agent": "video-browser"})
    assert m["n"] == 3 and m["missing"] == 0 and [r for r, _ in log2].count("analyst") == 2
    assert m["accuracy"] == 1.0 and m["exact_match"] == 1.0 and m["judge_exact_disagreements"] == 0
    assert m["cumulative_recall"] == 1.0
    assert m["by_genre"]["Documentary"]["n"] == 3 and m["tokens_per_question"]["verify"] > 0
    for name in ("predictions.jsonl", "metrics.json", "summary.md", "run.json", "reliability.png", "genres.png"):
        assert (out / name).exists(), name
    assert len(list((out / "traces").glob("*.json"))) == 3


# --------------------------------------------------------------------------- the demo world


def test_world_is_not_decided_by_construction(tmp_path):
    """The generated world: negatives share the topic words and carry other values, the answer
    clip's caption never repeats the question, half the answers are only spoken, seeds differ."""
    from vidsleuth.browse.answers import value_tokens
    from vidsleuth.browse.guards import content_words
    from vidsleuth.synth.browse_world import build

    a = build(tmp_path / "a", seed=3, n_questions=4, n_train=1)
    b = build(tmp_path / "b", seed=4, n_questions=4, n_train=1)
    qa = [json.loads(l) for l in a["questions"].read_text().splitlines()]
    qb = [json.loads(l) for l in b["questions"].read_text().splitlines()]
    assert [q["question"] for q in qa] != [q["question"] for q in qb]
    assert [q["modality"] for q in qa] == ["screen", "speech", "screen", "speech"]
    rows = {r["video_id"]: r for r in map(json.loads, a["corpus"].read_text().splitlines())}
    assert all(not __import__("pathlib").Path(r["path"]).is_absolute() for r in rows.values())  # relative to the file
    for q in qa:
        truth = json.loads((tmp_path / "a" / rows[q["seed_video_ids"][0]]["path"]).with_suffix(".truth.json").read_text())
        shown = " ".join(c["text"] for c in truth["captions"])
        said = " ".join(s["text"] for s in truth["speech"])
        where = shown if q["modality"] == "screen" else said
        other = said if q["modality"] == "screen" else shown
        assert set(value_tokens(q["answer"])) <= set(value_tokens(where)) and not set(value_tokens(q["answer"])) <= set(
            value_tokens(other))
        assert not set(content_words(q["question"])) <= set(content_words(shown))  # the caption is no copy
        for neg in q["hard_negative_ids"]:
            nt = json.loads((tmp_path / "a" / rows[neg]["path"]).with_suffix(".truth.json").read_text())
            nshown = " ".join(c["text"] for c in nt["captions"]) + " " + " ".join(s["text"] for s in nt["speech"])
            assert set(content_words(q["question"])) & set(content_words(rows[neg]["title"] + " " + nshown))
            assert not set(value_tokens(q["answer"])) <= set(value_tokens(nshown))


def test_fused_watcher_beats_metadata_on_hard_negatives(tmp_path):
    """Real OCR, ASR, embedder and BM25 over a generated split: the fused Watcher ranks the answer
    video first where the metadata alone cannot tell the hard negatives apart."""
    from vidsleuth.bench.browse import watcher_comparison
    from vidsleuth.synth.browse_world import build

    world = build(tmp_path / "w", seed=5, n_questions=4, n_train=0)
    index = build_index(world["corpus"], tmp_path / "idx")
    records = {r.video_id: r for r in read_corpus(world["corpus"])}
    models = Models(cache=False)  # roles default to the local model; the embedded Watcher needs no LLM
    cmp = watcher_comparison(index, models, Videos(records, library=tmp_path / "lib"), world["questions"], CFG,
                             watchers=("embed",))
    assert cmp["n"] == 4 and cmp["seed_in_top_k"] == 1.0
    assert cmp["watcher_embed_top1"] >= max(cmp["bm25_top1"], cmp["metadata_only_top1"])
    assert cmp["watcher_embed_top1"] >= 0.75


def test_ask_and_trace_cli(world, tmp_path):
    script = scripted({"planner": [PLAN], "watcher": [pick("Harbor Point lighthouse tour")],
                       "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER]}, [])
    with ScriptedServer(script) as srv:
        cfg = tmp_path / "m.toml"
        cfg.write_text(f'[models.fake]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "vl"\n')
        run = lambda *a: subprocess.run([sys.executable, "-m", "vidsleuth", *map(str, a)], capture_output=True, text=True)
        out = run("ask", "When was the Harbor Point lighthouse built?", "-i", world["root"] / "idx", "--config", cfg,
                  "--model", "fake", "--no-cache", "--analyst-frames", "8", "--trace", tmp_path / "t.json",
                  "--library", tmp_path / "lib", "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["answer"] == "1887" and data["selected"] == ["harbor"] and data["cost"]["model_calls"] == 4
    shown = run("trace", tmp_path / "t.json")
    assert shown.returncode == 0 and "watcher" in shown.stdout and "Answer: 1887" in shown.stdout
    missing = run("trace", tmp_path / "nope.json")
    assert missing.returncode == 1 and "trace file not found" in missing.stderr


def test_browse_config_from_file_and_cli(tmp_path):
    from vidsleuth.browse.videos import load_browse_config
    from vidsleuth.errors import ConfigError

    cfg_file = tmp_path / "c.toml"
    cfg_file.write_text("[browse]\nt_max = 5\nsearch_k = 20\n")
    cfg = load_browse_config(cfg_file, t_max=2, search_k=None)
    assert (cfg.t_max, cfg.search_k, cfg.analyst_frames) == (2, 20, 128)
    cfg_file.write_text("[browse]\nt_maxx = 5\n")
    with pytest.raises(ConfigError, match="unknown keys: t_maxx"):
        load_browse_config(cfg_file)


def test_bench_browse_unreachable_endpoint_exits_nonzero(world, tmp_path):
    qs = tmp_path / "q.jsonl"
    qs.write_text(json.dumps({"id": "q1", "question": "When was the lighthouse built?", "answer": "1887", "seed_video_ids": ["harbor"]}) + "\n")
    cfg = tmp_path / "down.toml"
    cfg.write_text('[models.down]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "x"\nmax_retries = 0\n')
    out = subprocess.run([sys.executable, "-m", "vidsleuth", "bench", "browse", "--questions", str(qs), "-i",
                          str(world["root"] / "idx"), "--config", str(cfg), "--model", "down", "--no-cache",
                          "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert out.returncode == 1 and "1 questions got no answer" in out.stderr and "127.0.0.1:9" in out.stderr
    assert "rerun the same command to resume" in out.stderr and (tmp_path / "out" / "summary.md").exists()


def test_a_failing_judge_is_a_per_question_failure_and_resumes(world, tmp_path):
    """A 500 from the judge endpoint: the question is counted missing with its error, the
    outputs are still written, and a rerun judges only that question again."""
    qs = tmp_path / "q.jsonl"
    qs.write_text("".join(json.dumps({"id": i, "question": "When was the Harbor Point lighthouse built?", "answer": "1887",
                                      "genre": "Films | TV\n# injected <b>x</b>", "seed_video_ids": ["harbor"]}) + "\n"
                          for i in ("a/b", "a_b")))
    base = {"planner": [PLAN], "watcher": [pick("Harbor Point lighthouse tour")], "checker": ['{"decision": "HALT"}'],
            "analyst": [ANSWER]}
    log: list = []
    judge_down = scripted({**base, "judge": [lambda body: {"status": 500, "json": {"error": "judge down"}}]}, log)
    out = tmp_path / "out"
    with ScriptedServer(judge_down) as srv:
        models = models_for(srv, tmp_path, max_retries=0)
        m = run_browse(qs, lambda mm: VideoBrowser(world["index"], mm, Videos(world["records"]), config=CFG), models, out,
                       protocol={"agent": "video-browser"}, judge_with="llm")
    assert m["missing"] == 2 and "judge down" in m["run_errors"][0]["error"]
    assert (out / "metrics.json").exists() and (out / "summary.md").exists()
    log2: list = []
    with ScriptedServer(scripted({**base, "judge": ['{"is_correct": true}']}, log2)) as srv:
        models = models_for(srv, tmp_path, max_retries=0)
        m = run_browse(qs, lambda mm: VideoBrowser(world["index"], mm, Videos(world["records"]), config=CFG), models, out,
                       protocol={"agent": "video-browser"}, judge_with="llm")
    assert m["missing"] == 0 and m["accuracy"] == 1.0 and [r for r, _ in log2].count("judge") == 2
    # ids "a/b" and "a_b" keep two traces; the genre's pipe, newline and HTML stay inside one cell
    assert len(list((out / "traces").glob("*.json"))) == 2
    summary = (out / "summary.md").read_text()
    assert not any(line.startswith("# injected") for line in summary.splitlines())
    row = next(line for line in summary.splitlines() if "Films" in line)
    assert row.count(" | ") == 4 and "&lt;b&gt;" in row


def test_planner_and_checker_guards_fire_and_are_recorded(world, tmp_path):
    """A placeholder query is replaced by the question's words; a HALT with nothing selected
    becomes CONTINUE; both are on the steps, and the trace shows them."""
    log: list = []
    script = scripted({"planner": [json.dumps({"thought": "t", "search_queries": ["query1", "query2"]})],
                       "watcher": [pick("Harbor Point lighthouse tour")],
                       "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER]}, log)
    with ScriptedServer(script) as srv:
        ans = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=CFG).run(
            "In which year was the Harbor Point lighthouse built?")
    searcher = [s for s in ans.steps if s.role == "searcher"][0]
    assert "harbor" in searcher.inputs and "query1" not in searcher.inputs
    assert any("placeholder query 'query1'" in g for g in ans.guards())
    assert ans.selected == ("harbor",) and ans.answer == "1887"
    # nothing selected (the watcher got no hits: a query that finds nothing falls back, the
    # checker's HALT on an empty selection is overridden)
    log2: list = []
    script2 = scripted({"planner": [json.dumps({"search_queries": ["zzzz qqqq"]})], "watcher": ["[0]"],
                        "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER]}, log2)
    with ScriptedServer(script2) as srv:
        ans2 = VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=CFG).run(
            "zzzz qqqq?")
    assert [r for r, _ in log2].count("checker") == CFG.t_max and not ans2.selected
    assert sum("HALT with no video selected" in g for g in ans2.guards()) == CFG.t_max
    assert "guard:" in render(ans2)


def test_react_guards_turn_invalid_calls_into_progress(world, tmp_path):
    log: list = []
    turns = ["not json at all", json.dumps({"tool": "watch", "video_id": "nope"}), ANSWER]
    with ScriptedServer(scripted({"react": turns}, log)) as srv:
        ans = ReAct(world["index"], models_for(srv, tmp_path), Videos(world["records"]), config=replace(CFG, react_frames=4)).run(
            "In which year was the Harbor Point lighthouse built?")
    notes = ans.guards()
    assert any("unparseable turn; searching the question's words" in g for g in notes)
    assert any("invalid tool call" in g and "watching the next search result" in g for g in notes)
    assert ans.answer == "1887" and ans.selected


@pytest.mark.parametrize("prediction,truth,ok", [
    ("28 degrees", "28 °C", True), ("It will be 28°C", "28 C", True), ("1.9 kilograms", "1.9 kg", True),
    ("eight p m", "8 PM", True), ("The score was three to one", "3-1", True), ("eighteen eighty seven", "1887", True),
    ("four euros", "4 EUR", True), ("C T forty seven", "CT-47", True), ("30", "30 minutes", True),
    ("29 degrees", "28 °C", False), ("19 kilograms", "1.9 kg", False), ("1-3", "3-1", False),
    ("30 seconds", "30 minutes", False), ("14 EUR", "4 EUR", False), ("1888", "1887", False), ("", "1887", False)])
def test_rule_judge_reads_values_with_units(prediction, truth, ok):
    from vidsleuth.bench.browse import contains_match

    assert contains_match(prediction, truth) is ok


@pytest.mark.parametrize("answer,question,lines,expected", [
    ("Durand chain saw model number RX-12", "Which model number does the Durand chain saw have?", ["CHAIN SAW MODEL RX-12"], "RX-12"),
    ("Saturday concert starts at 8pm", "At what time does the Halvard Quartet's Saturday concert begin?",
     ["The Saturday concert begins at 8pm."], "8pm"),
    ("245 C", "What was the winning lily at the Ashgrove flower show?", ["BEST LILY SILVER MOTH"], "SILVER MOTH"),
    ("the Silver Merth", "What was the winning lily?", ["BESTLILYSILVERMOTH"], "SILVERMOTH"),
    ("walnut", "Which costs more at Rossi Bakery, the walnut loaf or the rye loaf?", ["WALNUT LOAF 8 EUR"], "walnut"),
    ("The walnut loaf costs 8 EUR", "Which costs more at Rossi Bakery, the walnut loaf or the rye loaf?",
     ["WALNUT LOAF 8 EUR"], "walnut"),
    ("1887", "When was the lighthouse built?", ["BUILT IN 1887"], "1887"),
])
def test_grounding_guard(answer, question, lines, expected):
    from vidsleuth.browse.answers import ground_answer

    assert ground_answer(answer, question, lines)[0] == expected


def test_or_inside_a_question_is_not_always_a_choice():
    from vidsleuth.browse.answers import ground_answer

    q = "For how many minutes does the Sami glaze simmer or rest?"
    assert ground_answer("25 minutes", q, ["Leave the glaze for 25 minutes."])[0] == "25 minutes"


def test_calibration_counts_every_question():
    """App. A.6.2: N is all samples; a question without a confidence counts at confidence 0
    (leaving it out, as before, gave CE 0.0 for this agent that fails silently)."""
    rows = [{"correct": True, "confidence": 1.0}, {"correct": False, "confidence": None}, {"correct": True, "confidence": None}]
    m = calibration(rows)
    assert m["n"] == 3 and m["without_confidence"] == 2
    # bin 1 holds the two unconfident rows (accuracy 0.5, confidence 0): |0.5 - 0| * 2/3
    assert m["calibration_error"] == pytest.approx(0.5 * 2 / 3)


def test_watcher_grids_go_at_their_native_size(world, tmp_path):
    """Seed B.3: 3x3 cells of 256 px; the endpoint's 512-px image limit must not shrink them."""
    import base64
    import io

    from PIL import Image

    log: list = []
    script = scripted({"planner": [PLAN], "watcher": [pick("Harbor Point lighthouse tour")],
                       "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER]}, log)
    with ScriptedServer(script) as srv:
        VideoBrowser(world["index"], models_for(srv, tmp_path), Videos(world["records"], library=tmp_path / "lib"),
                     config=CFG).run("In which year was the Harbor Point lighthouse built?")
    body = next(b for r, b in log if r == "watcher")
    urls = [p["image_url"]["url"] for p in body["messages"][0]["content"] if p.get("type") == "image_url"]
    sizes = {Image.open(io.BytesIO(base64.b64decode(u.split(",", 1)[1]))).size for u in urls}
    assert sizes and all(w == 3 * 256 for w, _ in sizes), sizes


def test_bench_browse_gives_the_same_metrics_on_threads_a_process_pool_and_ray(world, tmp_path):
    """The benchmark's questions run in worker processes (local) or Ray tasks, each rebuilding the
    set-up from plain data; the metrics are those of the threads run, and the per-endpoint limit
    holds across them."""
    from vidsleuth.browse.setup import open_browse

    qs = tmp_path / "q.jsonl"
    qs.write_text("".join(json.dumps({"id": f"q{i}", "question": f"When was the Harbor Point lighthouse built? ({i})",
                                      "answer": "1887", "level": "L1", "genre": "Documentary",
                                      "seed_video_ids": ["harbor"]}) + "\n" for i in range(4)))
    answers = {"planner": [PLAN], "watcher": ["[0]"], "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER],
               "judge": ['{"is_correct": true}']}
    keep = ("n", "accuracy", "exact_match", "calibration_error", "cumulative_recall", "watched_rate", "missing",
            "tokens_per_question", "parse_failures")
    results = {}
    with ScriptedServer(scripted(answers, [])) as srv:
        cfg = tmp_path / "c.toml"
        cfg.write_text(f'[models.fake]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "vl"\n'
                       "max_retries = 0\nmax_concurrency = 1\nvision = true\n")
        spec = {"open": {"index": str(world["root"] / "idx"), "config": str(cfg), "model": "fake", "judge": "fake",
                         "cache": False, "t_max": 1}, "agent": "video-browser"}
        setup = open_browse(**spec["open"])
        for executor in ("threads", "local", "ray"):
            m = run_browse(qs, lambda mm: setup.agent("video-browser", mm), setup.models, tmp_path / executor,
                           protocol={"agent": "video-browser", "executor": executor}, workers=2,
                           judge_with="llm", executor=executor, spec=spec, warn=lambda *_: None)
            results[executor] = {k: m[k] for k in keep}
        assert srv.max_in_flight == 1  # max_concurrency = 1 held across threads, processes and Ray workers
    assert results["threads"]["n"] == 4 and results["threads"]["accuracy"] == 1.0
    assert results["local"] == results["threads"] == results["ray"]
    assert len(list((tmp_path / "ray" / "traces").glob("*.json"))) == 4


# --------------------------------------------------------------------------- levels: constraints, targets, calculator


from vidsleuth.bench.browse import read_questions  # noqa: E402
from vidsleuth.browse import calculator, checker  # noqa: E402
from vidsleuth.browse.answers import ground_answer  # noqa: E402
from vidsleuth.browse.constraints import parse as parse_constraints  # noqa: E402
from vidsleuth.search.corpus import VideoRecord  # noqa: E402


def test_constraints_parsed_from_explicit_phrasings_and_checked_on_records():
    c = parse_constraints("In Kessler Tools' video about chain saw basics, published in 2023, what model is shown?")
    assert [(x.kind, x.value) for x in c.items] == [("channel", "Kessler Tools"), ("title", "chain saw basics"),
                                                    ("published", "in 2023")]
    right = VideoRecord("a", "Chain saw basics", channel="Kessler Tools", published="2023-04-02")
    other_channel = VideoRecord("b", "Chain saw basics", channel="Brandt Workshop", published="2023-05-01")
    other_title = VideoRecord("c", "Mitre saw tricks", channel="Kessler Tools", published="2022-12-30")
    assert c.report(right)["violated"] == [] and len(c.report(right)["met"]) == 3
    assert any("channel" in v for v in c.report(other_channel)["violated"])
    assert len(c.report(other_title)["violated"]) == 2  # title words and the year
    records = {"a": right, "b": other_channel, "c": other_title}
    assert c.rank(["b", "c", "a"], records) == ["a", "b", "c"]
    undated = VideoRecord("d", "Chain saw basics", channel="Kessler Tools")
    assert c.report(undated)["unknown"] and not c.report(undated)["violated"]  # no date: unknown, not violated
    d = parse_constraints('On the Local Lens channel, in a clip under 2 minutes titled "Harbor walk", which year is shown?')
    assert {(x.kind, x.value) for x in d.items} == {("channel", "Local Lens"), ("duration", "max 2 minutes"),
                                                    ("title", "Harbor walk")}
    assert not parse_constraints("Which model number does the Brandt chain saw have?")  # topic words are no constraint
    assert not parse_constraints("In the game, who scored first?")


def test_corpus_published_and_public_question_field_names(tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"video_id": "a", "title": "t", "published": "2021-03-04"}) + "\n"
                      + json.dumps({"video_id": "b", "title": "t", "upload_date": "20190512"}) + "\n")
    assert [r.published for r in read_corpus(corpus)] == ["2021-03-04", "2019-05-12"]
    corpus.write_text(json.dumps({"video_id": "a", "title": "t", "published": "last spring"}) + "\n")
    with pytest.raises(Exception, match="line 1: field 'published'"):
        read_corpus(corpus)
    qs = tmp_path / "q.jsonl"
    qs.write_text(json.dumps({"row_id": 7, "question": "q?", "answer": "x", "level": 2, "seed_video_ids": ["a"]}) + "\n")
    assert read_questions(qs) == [{"id": "7", "question": "q?", "answer": "x", "level": "L2", "genre": "",
                                   "seed_video_ids": ["a"]}]


def test_targets_and_calculator_on_real_phrasings():
    q = "Which is lighter, the red kayak or the blue kayak?"
    t = checker.targets(q)
    assert [x.phrase for x in t] == ["red kayak", "blue kayak"]
    op = calculator.operation(q)
    red = calculator.target_value(op, t[0], q, ["Welcome back", "The red kayak weighs 14.5 kilograms."])
    blue = calculator.target_value(op, t[1], q, ["Our blue kayak comes in at 900 grams under that: 13.6 kg"])
    assert calculator.compute(op, {"red kayak": red, "blue kayak": blue})[0] == "blue kayak"
    q2 = "How many years passed between the completion of the Vell bridge and the Ostra tower?"
    t2 = checker.targets(q2)
    op2 = calculator.operation(q2)
    a = calculator.target_value(op2, t2[0], q2, ["The Vell bridge was completed in eighteen eighty seven."])
    b = calculator.target_value(op2, t2[1], q2, ["The Ostra tower was finished in 1923."])
    assert calculator.compute(op2, {t2[0].phrase: a, t2[1].phrase: b})[0] == "36 years"
    q3 = "What is the difference in price between the rye loaf and the walnut loaf at Rossi Bakery?"
    t3 = checker.targets(q3)
    assert [x.phrase for x in t3] == ["rye loaf", "walnut loaf"]
    op3 = calculator.operation(q3)
    v = {x.phrase: calculator.target_value(op3, x, q3, [line]) for x, line in
         zip(t3, ["Our rye loaf costs 4.50 EUR today.", "WALNUT LOAF 6 EUR"])}
    assert calculator.compute(op3, v)[0] == "1.50 EUR"
    assert checker.targets("In which year was the Harbor Point lighthouse built?") == ()


def test_checker_decision_overrides():
    t = checker.targets("Which is lighter, the red kayak or the blue kayak?")
    one = {"r": "Red kayak review. RED KAYAK 14.5 KG"}
    d = checker.decide(True, "", t, one)
    assert not d.halt and "blue kayak" in d.feedback and d.note.startswith("guard: HALT but no selected video covers")
    both = {**one, "b": "Blue kayak review. BLUE KAYAK 12 KG"}
    assert checker.decide(True, "", t, both).halt and checker.decide(True, "", t, both).covered == {
        "red kayak": "r", "blue kayak": "b"}
    said = checker.decide(True, "The evidence does not provide enough information to determine the weight.", (), one)
    assert not said.halt and "own feedback says evidence is missing" in said.note
    assert checker.decide(True, "", (), one).halt and not checker.decide(True, "", (), {}).halt


def test_grounding_keeps_names_whole_and_spans_inside_one_sentence():
    # a two-word name whose first word the question also says is not cut to its last word
    assert ground_answer("Lake Bled", "Which lake does the narrator say they swam in?",
                         ["We swam in Lake Bled this morning. The water was cold."])[0] == "Lake Bled"
    assert ground_answer("Maple Street", "On which street is the bakery the host visits?",
                         ["The bakery is on Maple Street, next to the station."])[0] == "Maple Street"
    # a restatement is still trimmed to its value
    assert ground_answer("Durand chain saw model number RX-12", "Which model number does the Durand chain saw have?",
                         ["The chain saw is model RX-12."])[0] == "RX-12"
    # with no usable answer, the value comes from one sentence, never running into the next one
    assert ground_answer(None, "What does a ferry ticket cost?",
                         ["The ferry leaves at noon from the old pier. Tickets cost fourteen euros."])[0] == "fourteen euros"
    assert ground_answer(None, "Which town does the narrator mention visiting after the museum?",
                         ["After the museum we drove north. Our next stop was the town of Kelso, famous for its bridge."]
                         )[0] == "Kelso"


def caption_world(root, clips: dict, **fields) -> dict:
    """A searchable world of silent one-shot clips, each showing one caption: ``clips`` maps a video id to
    (title, channel, caption); ``fields`` go into every corpus row. The index, records and library the
    agent tests run over."""
    rows = []
    for vid, (title, channel, caption) in clips.items():
        path = root / f"{vid}.mp4"
        synth.make_clip(path, synth.ClipSpec(shots=(synth.Shot(75, "0x203060"),), audio=False,
                                             captions=(synth.Caption(0.2, 2.8, caption, size=30),)))
        rows.append({"video_id": vid, "title": title, "channel": channel, **fields, "path": str(path)})
    corpus = root / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return {"index": build_index(corpus, root / "idx", method="lucene"),
            "records": {r.video_id: r for r in read_corpus(corpus)}, "lib": root / "lib"}


@pytest.fixture(scope="module")
def levels(tmp_path_factory):
    """Kayaks of two channels (an L1 channel negative) and two colours (an L3 comparison)."""
    clips = {"red": ("Red kayak review", "Paddle Lab", "RED KAYAK 14.5 KG"),
             "red_copy": ("Red kayak review", "Cheap Boats", "RED KAYAK 19 KG"),
             "blue": ("Blue kayak review", "Paddle Lab", "BLUE KAYAK 12 KG")}
    return caption_world(tmp_path_factory.mktemp("levels"), clips, description="kayak weight", published="2024-06-01")


def pick_channel(channel: str):
    def answer(body):
        for part in body["messages"][0]["content"]:
            text = part.get("text", "") if isinstance(part, dict) else ""
            if text.startswith("[Cand ") and f"| Channel: {channel}" in text:
                return f"[{text.split(']')[0][6:]}]"
        return "[]"
    return answer


def test_channel_constraint_outranks_the_watchers_pick(levels, tmp_path):
    answers = {"planner": [json.dumps({"search_queries": ["query1", "red kayak weight"]})],
               "watcher": [pick_channel("Cheap Boats")], "checker": ['{"decision": "HALT", "feedback": ""}'],
               "analyst": [json.dumps({"Answer": "14.5 kg", "Confidence": "80%"})]}
    # the scripted Watcher picks the other channel's copy: the stated channel outranks its pick
    ans, _ = run_llm_watcher(levels, answers, tmp_path,
                             "In Paddle Lab's video about the red kayak, how much does the kayak weigh?")
    question = next(s for s in ans.steps if s.role == "question")
    assert question.output["constraints"][0].startswith("channel 'Paddle Lab'")
    searcher = next(s for s in ans.steps if s.role == "searcher")
    assert "query1" not in searcher.inputs and "red kayak weight" in searcher.inputs  # the placeholder never searched
    watcher = next(s for s in ans.steps if s.role == "watcher")
    reports = watcher.output["constraints"]
    assert reports["red_copy"]["violated"] and not reports["red"]["violated"]
    assert "constraints: red_copy violates 1 stated constraint(s); red ranked first instead" in watcher.note
    assert ans.selected == ("red",)


def test_two_video_question_overrides_halt_and_calculates(levels, tmp_path):
    answers = {"planner": [json.dumps({"search_queries": ["kayak weight"]})],
               "watcher": [pick("Red kayak review"), pick("Blue kayak review")],
               "checker": ['{"decision": "HALT", "feedback": "does not provide enough information to determine '
                           'which is lighter"}', '{"decision": "HALT", "feedback": ""}'],
               "analyst": [json.dumps({"Answer": "red kayak", "Confidence": "60%"})]}
    ans, log = run_llm_watcher(levels, answers, tmp_path, "Which is lighter, the red kayak or the blue kayak?")
    checks = [s for s in ans.steps if s.role == "checker"]
    assert len(checks) == 2 and checks[0].note.startswith("guard: HALT") and checks[0].output["decision"] == "CONTINUE"
    assert checks[1].output["covered"] == {"red kayak": "red", "blue kayak": "blue"}
    analyst_text = json.dumps(next(b for r, b in log if r == "analyst")["messages"])
    assert "video 1 of 2: red" in analyst_text and "video 2 of 2: blue" in analyst_text
    calc = next(s for s in ans.steps if s.role == "calculator")
    assert calc.output["values"]["red kayak"]["value"] == "14.5 kg" and calc.output["values"]["blue kayak"]["value"] == "12 kg"
    assert ans.answer == "blue kayak" and "min(" in ans.explanation


def test_content_index_finds_a_video_by_what_it_shows(levels, tmp_path):
    from vidsleuth.search.content import build_content_index
    from vidsleuth.search.index import SearchIndex

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps({"video_id": v, "title": "Kayak review", "path": r.path}) + "\n"
                              for v, r in levels["records"].items()))
    levels["lib"].mkdir(exist_ok=True)
    idx = build_content_index(corpus, levels["lib"], tmp_path / "ci", kind="bm25")
    again = SearchIndex.load(tmp_path / "ci")
    assert again.meta["corpus"] == str(corpus.resolve()) and again.meta["content"]["with_content"] == 3
    assert idx.search("19 kg", k=1)[0].video_id == "red_copy"  # only its on-screen text says 19
    assert [h.video_id for h in again.search("blue", k=1)] == ["blue"]


def test_levels_world_has_the_levels_shape(tmp_path):
    from vidsleuth.synth.browse_levels import build_levels

    out = build_levels(tmp_path / "w", seed=3, per_level=1, clips=False)  # the corpus and questions; no clips
    corpus = {r.video_id: r for r in read_corpus(out["corpus"])}
    qs = {q["level"]: q for q in read_questions(out["questions"])}
    assert set(qs) == {"L1", "L2", "L3"} and all(r.published and r.channel for r in corpus.values())
    l1 = qs["L1"]
    answer = corpus[l1["seed_video_ids"][0]]
    c = parse_constraints(l1["question"])
    assert {x.kind for x in c.items} >= {"channel", "title"}
    negatives = [r for v, r in corpus.items() if v.startswith(l1["id"]) and v != answer.video_id]
    assert not c.report(answer)["violated"] and all(c.report(r)["violated"] for r in negatives)
    assert {r.channel == answer.channel for r in negatives} == {True, False}  # one differs in channel, one in title
    l2 = qs["L2"]
    cue = l2["question"].split("says ", 1)[1].split(",")[0]
    assert all(cue not in " ".join(r.search_text().values()) for r in corpus.values())  # the cue is in no metadata
    assert len(qs["L3"]["seed_video_ids"]) == 2 and len(checker.targets(qs["L3"]["question"])) == 2


def test_questions_build_keeps_only_verified_questions(levels, tmp_path):
    from vidsleuth.browse.questions import build_questions

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps({"video_id": v, "title": r.title, "channel": r.channel, "path": r.path}) + "\n"
                              for v, r in levels["records"].items()))

    def step(body, n):
        text = json.dumps(body["messages"])
        if "You write one training question" in text:
            good = "Title: Blue kayak review" in text  # the blue video's question verifies; the others' do not
            return json.dumps({"highlights": ["a kayak"], "entities": ["kayak"],
                               "question": "How much does the kayak in Paddle Lab's review weigh?", "answer": "12 kg",
                               "paraphrase": "What is the weight of the kayak?",
                               "queries": ["blue kayak review" if good else "mountain bike trail"]})
        return json.dumps({"Answer": "12 kilograms"})

    with ScriptedServer(step) as srv:
        m = build_questions(corpus, levels["lib"], models_for(srv, tmp_path), tmp_path / "qs")
        calls = srv.calls
        again = build_questions(corpus, levels["lib"], models_for(srv, tmp_path), tmp_path / "qs")
        assert srv.calls == calls  # resumed: nothing asked twice
    assert m["drawn"] == 3 and m["kept"] == 1 and again["kept"] == 1
    kept = [json.loads(x) for x in (tmp_path / "qs" / "questions.jsonl").read_text().splitlines()]
    assert kept[0]["seed_video_id"] == "blue" and kept[0]["answer"] == "12 kg" and kept[0]["query_ranks"][0] == 1
    # the red videos' text does not state 12 kg, and their query misses: each filter counted on its own
    assert set(m["dropped"]) == {"the answer is not in the video's text"}
    assert m["filters"]["passed_bm25"] == 1 and m["filters"]["passed_paraphrase"] == 3
