"""Omni-ART rubric trees: hand-built trees with hand-computed scores, judges (rules and a model over
real HTTP, with three-vote gates and a warm cache), the benchmark runner, bootstrap, trajectory
statistics and the calibration ordering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vidsleuth.bench.omnidr import run_omnidr, summarise
from vidsleuth.errors import DataFileError, VidsleuthError
from vidsleuth.rubric.evaluate import evaluate_task, make_judge
from vidsleuth.rubric.judge import ModelJudge, judge_leaf
from vidsleuth.rubric.schema import SCHEMA, Leaf, from_dict, load_rubric, problems
from vidsleuth.rubric.score import capped_shares, score
from vidsleuth.rubric.stats import paired_bootstrap, read_events, trajectory_stats
from vidsleuth.testing import ScriptedServer

from .conftest import scripted_models


def leaf(i, **kw):
    return {"id": i, "kind": "judge", "question": f"q {i}?", "fact": {"must": ["1"]}, **kw}


def tree(content_dirs, citation_dirs=None, presentation_dirs=None):
    dims = [{"name": "content", "weight": 0.5, "directions": content_dirs}]
    if citation_dirs:
        dims.append({"name": "citation", "weight": 0.3, "directions": citation_dirs})
    if presentation_dirs:
        dims.append({"name": "presentation", "weight": 0.2, "directions": presentation_dirs})
    return from_dict({"schema": SCHEMA, "task": "t", "dimensions": dims})


def test_a_failed_gate_zeroes_only_its_direction():
    r = tree([{"name": "faith", "weight": 1, "leaves": [leaf("g", gate=True), leaf("a"), leaf("b")]},
              {"name": "other", "weight": 1, "leaves": [leaf("c"), leaf("d")]}])
    out = score(r, {"g": "no", "a": "yes", "b": "yes", "c": "yes", "d": "no"})
    assert out["dimensions"]["content"]["directions"]["faith"] == {"score": 0.0, "yes": 2, "no": 1, "na": 0, "errors": 0,
                                                                    "gated": True}
    assert out["dimensions"]["content"]["directions"]["other"]["score"] == 50.0
    assert out["score"] == 25.0  # (0 + 0.5) / 2
    assert score(r, {"g": "yes", "a": "yes", "b": "yes", "c": "yes", "d": "no"})["score"] == pytest.approx(
        100 * (0.5 * 1.0 + 0.5 * 0.5))


def test_saturation_counts_the_budget_and_no_more():
    d = {"name": "fact_coverage", "weight": 1, "saturation": 3, "leaves": [leaf(f"f{i}") for i in range(5)]}
    r = tree([d])
    assert score(r, {"f0": "yes", "f1": "yes", "f2": "no", "f3": "no", "f4": "no"})["score"] == pytest.approx(100 * 2 / 3, abs=0.01)
    assert score(r, {"f0": "yes", "f1": "yes", "f2": "yes", "f3": "yes", "f4": "no"})["score"] == 100.0
    # only two applicable leaves (three N/A): the budget shrinks to what could be met
    assert score(r, {"f0": "yes", "f1": "no", "f2": "na", "f3": "na", "f4": "na"})["score"] == 50.0


def test_capped_weights_redistribute_the_excess():
    assert capped_shares([0.8, 0.2], [0.5, None]) == [0.5, 0.5]
    assert capped_shares([5, 1, 1], [0.5, 0.2, None]) == pytest.approx([0.5, 0.2, 0.3])
    r = tree([{"name": "fact_coverage", "weight": 0.8, "cap": 0.5, "leaves": [leaf("a")]},
              {"name": "faith", "weight": 0.2, "leaves": [leaf("b")]}])
    assert score(r, {"a": "yes", "b": "no"})["score"] == 50.0  # uncapped it would be 80


def test_citation_na_is_kept_only_where_the_linked_content_leaf_failed():
    r = tree([{"name": "facts", "leaves": [leaf("f1"), leaf("f2")]}],
             [{"name": "claim_support", "leaves": [leaf("c1", guard="f1"), leaf("c2", guard="f2"), leaf("c3")]}])
    out = score(r, {"f1": "no", "f2": "yes", "c1": "na", "c2": "na", "c3": "yes"})
    # c1 stays N/A (nothing claimed); c2 was claimed, so its N/A reads as No; c3 yes -> 1/2
    assert out["citation_na_read_as_no"] == 1
    assert out["dimensions"]["citation"]["directions"]["claim_support"] == {"score": 50.0, "yes": 1, "no": 1, "na": 1,
                                                                            "errors": 0, "gated": False}
    assert out["score"] == pytest.approx(100 * (0.5 * 0.5 + 0.3 * 0.5) / 0.8, abs=0.01)


def test_evaluator_errors_leave_the_denominator_and_are_counted():
    r = tree([{"name": "facts", "leaves": [leaf("a"), leaf("b"), leaf("c")]}])
    out = score(r, {"a": "yes", "b": "error", "c": "no"})
    assert out["score"] == 50.0 and out["evaluator_errors"] == 1
    assert score(r, {"a": "yes"})["evaluator_errors"] == 2  # a verdict never given is an error, not a No


def test_missing_reports_count_zero_in_the_all_task_mean_only():
    rows = [{"task": "a", "status": "ok", "score": 80.0, "dimensions": {}, "evaluator_errors": 1},
            {"task": "b", "status": "missing", "score": 0.0},
            {"task": "c", "status": "ok", "score": 60.0, "dimensions": {}, "evaluator_errors": 0}]
    m = summarise(rows)
    assert (m["all_task_mean"], m["successful_mean"], m["completion_rate"], m["evaluator_errors"]) == (
        pytest.approx(140 / 3, abs=0.01), 70.0, pytest.approx(2 / 3), 1)


def test_validate_names_the_node_path():
    bad = {"schema": SCHEMA, "task": "t", "dimensions": [
        {"name": "content", "directions": [{"name": "x", "saturation": 0, "leaves": [
            {"id": "a", "kind": "judge"}, {"id": "a", "kind": "machine", "check": "nonsense"},
            {"id": "b", "kind": "machine", "check": "min_timestamps"}, {"id": "c", "kind": "oracle", "guard": "zz"}]}]},
        {"name": "style", "directions": []}]}
    found = problems(bad)
    for expected in ("dimensions[0].directions[0].saturation: must be an integer >= 1",
                     "dimensions[0].directions[0].leaves[0].question: a judge leaf needs a question",
                     "dimensions[0].directions[0].leaves[1].id: 'a' is already used at dimensions[0].directions[0].leaves[0]",
                     "dimensions[0].directions[0].leaves[1].check: 'nonsense' is not a report check",
                     "dimensions[0].directions[0].leaves[2].check: 'min_timestamps' needs a count",
                     "dimensions[0].directions[0].leaves[3].kind: 'oracle' is not judge or machine",
                     "dimensions[0].directions[0].leaves[3].guard: 'zz' names no leaf",
                     "dimensions[1].name: 'style' is not one of content, citation, presentation",
                     "dimensions[1].directions: a non-empty list is required"):
        assert any(f.startswith(expected) for f in found), (expected, found)


def _tree(**dim):
    base = {"name": "content", "directions": [{"name": "x", "leaves": [leaf("a"), leaf("b")]}]}
    return {"schema": SCHEMA, "task": "t", "dimensions": [{**base, **dim}]}


@pytest.mark.parametrize("tree, expected", [
    ({"schema": SCHEMA, "task": "t", "dimensions": [
        {"name": "content", "weight": 0, "directions": [{"name": "x", "leaves": [leaf("a")]}]},
        {"name": "citation", "weight": 0, "directions": [{"name": "y", "leaves": [leaf("b")]}]}]},
     "dimensions: every weight is 0"),
    (_tree(directions=[{"name": "x", "weight": 0, "leaves": [leaf("a")]}, {"name": "y", "weight": 0.0, "leaves": [leaf("b")]}]),
     "dimensions[0].directions: every weight is 0"),
    (_tree(directions=[{"name": "x", "leaves": [leaf("a", guard="b"), leaf("b", guard="c"), leaf("c", guard="a")]}]),
     "dimensions[0].directions[0].leaves[0].guard: a guard cycle (a -> b -> c -> a)"),
    (_tree(directions=[{"name": "x", "leaves": [leaf("a", guard="a")]}]),
     "dimensions[0].directions[0].leaves[0].guard: the leaf guards itself"),
    ({"schema": SCHEMA, "task": "t", "dimensions": [
        {"name": "content", "directions": [{"name": "x", "leaves": [leaf("a")]}]},
        {"name": "content", "directions": [{"name": "y", "leaves": [leaf("b")]}]}]},
     "dimensions[1].name: dimension 'content' is already used at dimensions[0]"),
    (_tree(directions=[{"name": "x", "leaves": [leaf("a")]}, {"name": "x", "leaves": [leaf("b")]}]),
     "dimensions[0].directions[1].name: direction 'x' is already used at dimensions[0].directions[0]"),
    (_tree(directions=[{"name": "x", "leaves": [{**leaf("a"), "gaet": True}]}]),
     "dimensions[0].directions[0].leaves[0].gaet: unknown key (did you mean 'gate'?)"),
    (_tree(directions=[{"name": "x", "wieght": 2, "leaves": [leaf("a")]}]),
     "dimensions[0].directions[0].wieght: unknown key (did you mean 'weight'?)"),
    (_tree(directions=[{"name": "x", "leaves": [leaf("a", fact={"must": "250 °C"})]}]),
     "dimensions[0].directions[0].leaves[0].fact.must: must be a list of values, not a string"),
    (_tree(directions=[{"name": "x", "leaves": [{"id": "m", "kind": "machine", "check": "assets:3"}]}]),
     "dimensions[0].directions[0].leaves[0].check: 'assets:3': assets takes no count"),
])
def test_validate_rejects_trees_that_cannot_score_as_written(tree, expected):
    found = problems(tree)
    assert any(f.startswith(expected) for f in found), (expected, found)
    with pytest.raises(DataFileError):
        from vidsleuth.rubric.evaluate import as_rubric

        as_rubric(tree)


def test_a_string_must_is_never_read_character_by_character(tmp_path):
    """Before, "must": "100" passed validation and the rules judge looked for "1", "0", "0"."""
    good = _tree(directions=[{"name": "x", "leaves": [leaf("a", fact={"must": ["100"]})]}])
    assert problems(good) == []
    bad = _tree(directions=[{"name": "x", "leaves": [leaf("a", fact={"must": "100"})]}])
    f = tmp_path / "r.json"
    f.write_text(json.dumps(bad))
    with pytest.raises(DataFileError, match=r"fact\.must: must be a list of values, not a string"):
        load_rubric(f)
    f.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DataFileError, match="nested too deep"):
        load_rubric(f)


def test_cli_rubric_validate(tmp_path, capsys):
    from vidsleuth.cli import main

    f = tmp_path / "r.json"
    f.write_text(json.dumps({"schema": SCHEMA, "task": "t", "dimensions": [
        {"name": "content", "directions": [{"name": "x", "leaves": [{"id": "a", "kind": "machine", "check": "assets"}]}]}]}))
    assert main(["rubric", "validate", str(f)]) == 0
    assert "valid (1 dimensions, 1 directions, 1 leaves, 0 gates)" in capsys.readouterr().out
    f.write_text('{"schema": "x"')
    assert main(["rubric", "validate", str(f)]) == 1
    assert "line 1: not valid JSON" in capsys.readouterr().err


# --------------------------------------------------------------------------- judges


def test_gates_take_three_votes_and_the_majority_over_real_http():
    votes = iter(["Yes", "No", "Yes", "No", "Yes", "No", "Yes"])
    with ScriptedServer(lambda body, n: json.dumps({"verdict": next(votes), "rationale": "r"})) as srv:
        judge = ModelJudge(scripted_models(srv, "j", max_retries=0).get("j", role="judge"))
        gate = Leaf("g", "judge", question="Is it about the video?", gate=True)
        assert judge_leaf(judge, gate, ["a unit"]) == {"verdict": "yes", "rationale": "r", "votes": ["yes", "no", "yes"]}
        assert judge_leaf(judge, gate, ["a unit"])["verdict"] == "no"  # No, Yes, No
        assert judge_leaf(judge, Leaf("x", "judge", question="q?"), ["u"])["verdict"] == "yes"  # one call
        assert len(srv.requests) == 7
        temps = [r.get("temperature") for r in srv.requests[:3]]
        seeds = [r.get("seed") for r in srv.requests[:3]]
        assert temps == [0.7, 0.7, 0.7] and seeds == [1, 2, 3]  # independent samples
        assert "a unit" in json.dumps(srv.requests[0]["messages"])


def _task(tmp_path: Path) -> tuple[Path, Path]:
    """A two-task benchmark: task a has a report, task b's report is missing."""
    tasks, reports = tmp_path / "tasks", tmp_path / "reports"
    for t in ("a", "b"):
        (tasks / t).mkdir(parents=True)
        (tasks / t / "rubric.json").write_text(json.dumps({"schema": SCHEMA, "task": t, "dimensions": [
            {"name": "content", "directions": [{"name": "facts", "leaves": [
                {"id": "f1", "kind": "judge", "question": "Does it say the torque is 40 Nm?", "material": "all",
                 "fact": {"must": ["40 Nm"]}},
                {"id": "f2", "kind": "judge", "question": "Does it say the pressure is 90 psi?", "material": "all",
                 "fact": {"must": ["90 psi"]}}]}]}]}))
    (reports / "a").mkdir(parents=True)
    (reports / "a" / "report.html").write_text("<html><body><p>The torque is forty newton metres (40 Nm).</p></body></html>")
    return tasks, reports


def test_bench_omnidr_rules_judge_missing_report_and_outputs(tmp_path):
    tasks, reports = _task(tmp_path)
    m = run_omnidr(tasks, reports, judge="rules", out=tmp_path / "out", echo=lambda *_: None)
    assert m["per_task"] == {"a": {"status": "ok", "score": 50.0}, "b": {"status": "missing", "score": 0.0}}
    assert (m["all_task_mean"], m["successful_mean"], m["completion_rate"]) == (25.0, 50.0, 0.5)
    for name in ("metrics.json", "summary.md", "tasks.jsonl", "heatmap.png", "run.json"):
        assert (tmp_path / "out" / name).is_file(), name
    rows = [json.loads(x) for x in (tmp_path / "out" / "tasks.jsonl").read_text().splitlines()]
    assert rows[0]["verdicts"]["f1"]["verdict"] == "yes" and rows[0]["verdicts"]["f2"]["verdict"] == "no"
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert set(run) == {"version", "benchmark", "vidsleuth", "created", "seconds", "protocol", "outputs"}
    assert run["benchmark"] == "omnidr" and run["vidsleuth"]
    proto = run["protocol"]
    assert proto["judge"] == "rules" and proto["evaluator"] and len(proto["prompts"]["rubric_judge.j2"]) == 16
    assert run["outputs"] == {n: "written" for n in ("heatmap.png", "metrics.json", "summary.md", "tasks.jsonl")}


def test_rescoring_with_a_warm_cache_makes_no_model_call(tmp_path):
    import uuid

    tasks, reports = _task(tmp_path)
    model = uuid.uuid4().hex  # the model name is in the cache key: no earlier run's answers
    with ScriptedServer(lambda body, n: json.dumps({"verdict": "Yes", "rationale": "stated"})) as srv:
        cfg = tmp_path / "c.toml"
        cfg.write_text(f'[models.j]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "{model}"\nmax_retries = 0\n')
        m1 = run_omnidr(tasks, reports, judge="j", config=cfg, out=tmp_path / "o1", echo=lambda *_: None)
        first = len(srv.requests)
        m2 = run_omnidr(tasks, reports, judge="j", config=cfg, out=tmp_path / "o2", echo=lambda *_: None)
        assert first == 2 and len(srv.requests) == first  # two judge leaves of the one report; none again
    assert m1["per_task"] == m2["per_task"] == {"a": {"status": "ok", "score": 100.0}, "b": {"status": "missing", "score": 0.0}}


def test_an_unreachable_judge_is_an_evaluator_error_not_a_zero(tmp_path):
    tasks, reports = _task(tmp_path)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[models.down]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\nmax_retries = 0\n'
                   "timeout = 2\n")
    row = evaluate_task(tasks / "a" / "rubric.json", reports / "a", make_judge("down", cfg))
    assert row["evaluator_errors"] == 2 and row["verdicts"]["f1"]["verdict"] == "error"
    assert "127.0.0.1:9" in row["verdicts"]["f1"]["rationale"]
    assert (row["judge_leaves"], row["judge_errors"]) == (2, 2)
    # a run in which every judge call failed has no score: an error naming the endpoint, nothing left behind
    with pytest.raises(VidsleuthError, match=r"every judge call .* failed \(2 leaves\).*127\.0\.0\.1:9"):
        run_omnidr(tasks, reports, judge="down", config=cfg, out=tmp_path / "o", echo=lambda *_: None)
    assert not (tmp_path / "o").exists()


def test_machine_leaves_cannot_turn_failed_judge_calls_into_a_full_score(tmp_path):
    tasks, reports = _task(tmp_path)
    rubric = json.loads((tasks / "a" / "rubric.json").read_text())
    rubric["dimensions"].append({"name": "presentation", "directions": [{"name": "structure", "leaves": [
        {"id": "m1", "kind": "machine", "check": "claims_cited"}]}]})
    (tasks / "a" / "rubric.json").write_text(json.dumps(rubric))
    cfg = tmp_path / "c.toml"
    cfg.write_text('[models.down]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\nmax_retries = 0\n'
                   "timeout = 2\n")
    row = evaluate_task(tasks / "a" / "rubric.json", reports / "a", make_judge("down", cfg))
    assert row["score"] == 100.0 and row["evaluator_errors"] == 2  # errors leave the denominator (§3.3)…
    with pytest.raises(VidsleuthError, match="every judge call"):  # …but a run of only failed judge calls is no score
        run_omnidr(tasks, reports, judge="down", config=cfg, out=tmp_path / "o", echo=lambda *_: None)


def test_bench_omnidr_refuses_no_completed_task_a_missing_against_and_a_bad_tree(tmp_path):
    tasks, reports = _task(tmp_path)
    (reports / "a" / "report.html").unlink()
    with pytest.raises(VidsleuthError, match="no task of system .* completed.*a: missing"):
        run_omnidr(tasks, reports, out=tmp_path / "o1", echo=lambda *_: None)
    tasks, reports = _task(tmp_path / "x")
    with pytest.raises(DataFileError, match="--against reports folder does not exist"):
        run_omnidr(tasks, reports, against=tmp_path / "nope", out=tmp_path / "o2", echo=lambda *_: None)
    with pytest.raises(VidsleuthError, match="--seed -1"):
        run_omnidr(tasks, reports, seed=-1, out=tmp_path / "o3", echo=lambda *_: None)
    (tasks / "b" / "rubric.json").write_text(json.dumps({"schema": SCHEMA, "task": "b", "dimensions": []}))
    with pytest.raises(DataFileError, match=r"b/rubric.json: dimensions: a non-empty list"):
        run_omnidr(tasks, reports, out=tmp_path / "o4", echo=lambda *_: None)
    for o in ("o1", "o2", "o3", "o4"):
        assert not (tmp_path / o).exists()


# --------------------------------------------------------------------------- statistics


def test_paired_bootstrap_is_reproducible_under_a_seed():
    a = [70, 65, 80, 55, 90, 62, 71, 68]
    b = [60, 66, 70, 50, 85, 60, 64, 70]
    one, two = paired_bootstrap(a, b, seed=7), paired_bootstrap(a, b, seed=7)
    assert one == two and one["difference"] == pytest.approx(sum(x - y for x, y in zip(a, b)) / 8)
    assert one["low"] < one["difference"] < one["high"]
    assert paired_bootstrap(a, b, seed=8) != one
    assert (one["wins"], one["losses"], one["ties"]) == (6, 2, 0)


def test_trajectory_stats_and_the_interleaving_rule(tmp_path):
    seq = ["search", "write", "search", "write", "read", "search", "write", "search", "write", "search"]
    events = [{"type": t, "tokens_in": 10, "tokens_out": 2, "seconds": 0.5, "error": t == "read"} for t in seq]
    s = trajectory_stats(events)
    assert (s["steps"], s["searches"], s["write_blocks"], s["tool_errors"], s["tokens_in"], s["seconds"]) == (10, 5, 4, 1, 100, 5.0)
    assert s["searches_after_first_write"] == 0.8 and s["interleaved"] is True
    late = trajectory_stats([{"type": t} for t in ["search"] * 8 + ["write", "search", "write", "write"]])
    assert late["write_blocks"] == 2 and late["interleaved"] is False
    f = tmp_path / "t.jsonl"
    f.write_text('{"type": "search"}\n{"type": "teleport"}\n')
    with pytest.raises(DataFileError, match="line 2: type must be one of"):
        read_events(f)


def test_load_rubric_refuses_a_bad_tree_naming_paths(tmp_path):
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"schema": SCHEMA, "task": "t", "dimensions": [{"name": "content", "directions": [
        {"name": "x", "cap": 2, "leaves": [{"id": "a", "kind": "machine", "check": "assets"}]}]}]}))
    with pytest.raises(DataFileError, match=r"dimensions\[0\]\.directions\[0\]\.cap"):
        load_rubric(f)


# --------------------------------------------------------------------------- calibration on the demo task


def test_calibration_orders_video_only_research_and_fact_library(tmp_path):
    from vidsleuth.rubric.calibration import MARGIN, calibrate

    out = calibrate(tmp_path, seed=0, library=tmp_path / "lib", browser=False, echo=lambda *_: None)
    r1, r2, r3 = out["scores"].values()
    assert r1 < r2 < r3 and r3 - r1 > MARGIN and out["ordered"]
    assert out["directions"]["content/fact_coverage"][0] == 0.0  # video-only: no external fact
    assert out["directions"]["citation/claim_support"][0] is None  # nothing claimed, nothing to cite: guarded N/A


def test_the_rules_judge_reads_no_figure_in_a_citation_mark():
    from vidsleuth.rubric.judge import RulesJudge

    leaf = Leaf("f", "judge", question="Is the proof time explained?", material="findings",
                fact={"text": "…", "must": ["5 hours"], "with": ["explains"]})
    cited = "explains “Dough notes” gives background on the proof time: “Too long a proof tears the crumb.” [5]"
    assert RulesJudge().verdict(leaf, [cited])[0] == "no"  # "[5]" points to a source; it is no 5 hours
    assert RulesJudge().verdict(leaf, [cited.replace("proof time:", "proof time (the video: 5 h):")])[0] == "yes"
    marked = Leaf("c", "judge", question="Cited?", fact={"text": "…", "must": ["5 hours"], "with": ["["]})
    assert RulesJudge().verdict(marked, ["It proofs for 5 hours [2]"])[0] == "yes"  # the mark still counts as a citation
