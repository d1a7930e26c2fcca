"""``vidsleuth bench omnidr``: score reports against Omni-ART rubric trees (seed 000 §3.3).

``--tasks DIR`` holds one folder per task with ``rubric.json`` (and optionally ``task.json``: video,
request); ``--reports DIR`` one folder per task id with the system's ``report.html`` (and, for a
``report.json`` sidecar, both read by the report contract: docs/report-contract.md). Each rubric
is validated before any work; scoring one report is ``rubric.evaluate.evaluate_task``; this module
only runs the tasks, refuses hollow results and writes the outputs. Each task is one item of
the runner: results are stored as they finish, a killed run resumes, judge calls go through the
model layer's response cache (a rescore with a warm cache makes no model call).

Outputs: ``tasks.jsonl`` (every leaf's verdict and rationale), ``metrics.json`` (all-task mean —
missing or unreadable reports count 0 —, successful-report mean, completion rate, evaluator errors,
per-dimension and per-direction means, and with ``--against`` the paired bootstrap interval of the
difference), ``summary.md`` (per-task and per-direction tables), ``heatmap.png`` (tasks ×
directions) and ``run.json`` (``bench.output``'s one shape; its ``protocol``: judge, prompts' hashes,
evaluator version, bootstrap seed, model calls). A run where no task
completed, or where every judge call failed, raises instead of reporting a score.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from ..errors import DataFileError, VidsleuthError
from ..files import writes_output

EVALUATOR_VERSION = "omni-art-2"  # 2: pages read by the report contract; checks from report.check.CHECKS


def find_tasks(tasks: Path) -> list[tuple[str, Path]]:
    """(task id, rubric file) of every task folder, each rubric validated before any work."""
    from ..rubric.schema import load_rubric

    if not tasks.is_dir():
        raise DataFileError(tasks, None, "the tasks folder does not exist", hint="give --tasks DIR with one folder per task")
    from ..files import iter_files

    # confined to --tasks: a linked task folder or rubric (to a file outside) is skipped, never read
    files, _ = iter_files(tasks, suffixes={".json"}, max_bytes=16 * 1024 * 1024)
    found = sorted((p.parent.name, p) for p in files if p.name == "rubric.json" and p.parent.parent == tasks)
    if not found:
        raise DataFileError(tasks, None, "holds no task folder with a rubric.json: nothing to score")
    for _, rubric in found:
        load_rubric(rubric)  # a broken tree is one error naming its file, not a run of evaluator failures
    return found


def _check_inputs(reports: Path, against, seed) -> None:
    from ..errors import ArgumentError

    if not reports.is_dir():
        raise DataFileError(reports, None, "the reports folder does not exist", hint="give --reports DIR with one folder per task id")
    if against is not None and not Path(against).is_dir():
        raise DataFileError(against, None, "the --against reports folder does not exist",
                            hint="give the second system's reports folder, or leave --against out")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ArgumentError(f"--seed {seed!r} is not an integer from 0 to 2**32 - 1")


def _score_system(found, folder: Path, j, *, store, protocol: dict, browser: bool, workers: int, label: str) -> list[dict]:
    from ..rubric.evaluate import evaluate_task
    from ..runner import map_items

    run_id = store.find_or_start("omnidr", protocol)
    items = [(tid, (rubric, folder / tid)) for tid, rubric in found]
    res = map_items(lambda x: evaluate_task(x[0], x[1], j, browser=browser), items, store=store, run_id=run_id,
                    workers=workers, label=f"omnidr {label}", retry_on=(VidsleuthError,))
    return [res.done[tid] if tid in res.done else {"task": tid, "status": "evaluator-failed", "score": 0.0, "verdicts": {},
                                                   "error": next(f.error for f in res.failures if f.item_id == tid)}
            for tid, _ in found]


def _refuse_hollow(label: str, rows: list[dict]) -> None:
    """No completed task, or not one judge call answered: there is no score to report."""
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        why = "; ".join(f"{r['task']}: {r['status']}" + (f" ({r['error']})" if r.get("error") else "") for r in rows[:3])
        raise VidsleuthError(f"no task of {label} completed, so there is no score ({why})",
                             hint="check the --reports folder names match the task ids")
    asked = sum(r.get("judge_leaves", 0) for r in ok)
    if asked and sum(r.get("judge_errors", 0) for r in ok) == asked:
        first = next(v["rationale"] for r in ok for v in r["verdicts"].values() if v["verdict"] == "error")
        raise VidsleuthError(f"every judge call for {label} failed ({asked} leaves), so there is no score: {first}",
                             hint="check the judge endpoint, or use --judge rules")


@writes_output("bench omnidr")
def run_omnidr(tasks: str | Path, reports: str | Path, *, judge: str = "rules", out: str | Path, config=None,
               against: str | Path | None = None, browser: bool = False, workers: int = 2, seed: int = 0,
               echo=print) -> dict:
    """Score every task's report (and ``against``'s) and write the outputs; raises when the
    inputs are wrong, no task completed or every judge call failed (never a score from failures)."""
    from ..rubric.evaluate import make_judge
    from ..rubric.stats import paired_bootstrap
    from ..store import RunStore

    started = time.monotonic()
    tasks, reports, out = Path(tasks), Path(reports), Path(out)
    found = find_tasks(tasks)
    _check_inputs(reports, against, seed)
    j = make_judge(judge, config)  # an unknown endpoint fails here, before any work
    out.mkdir(parents=True, exist_ok=True)
    store = RunStore(out / "runs.sqlite")
    systems = {"system": reports} | ({"against": Path(against)} if against else {})
    per_system = {}
    for label, folder in systems.items():
        protocol = {"tasks": str(tasks.resolve()), "reports": str(folder.resolve()), "judge": judge,
                    "evaluator": EVALUATOR_VERSION, "browser": browser}
        per_system[label] = _score_system(found, folder, j, store=store, protocol=protocol, browser=browser,
                                          workers=workers, label=label)
        _refuse_hollow(f"{label} ({folder})", per_system[label])
    rows = per_system["system"]
    metrics = summarise(rows)
    if against:
        metrics["against"] = summarise(per_system["against"])
        metrics["paired_bootstrap"] = paired_bootstrap([r["score"] for r in rows], [r["score"] for r in per_system["against"]],
                                                       seed=seed)
    _write(out, rows, metrics, j, judge=judge, tasks=tasks, reports=reports, against=against, browser=browser,
           seed=seed, calls=store.summary()["total"], seconds=time.monotonic() - started)
    echo(f"all-task mean {metrics['all_task_mean']:.1f}, successful-report mean {metrics['successful_mean']:.1f}, "
         f"completion {metrics['completion_rate']:.0%}, evaluator errors {metrics['evaluator_errors']}")
    if against:
        bt = metrics["paired_bootstrap"]
        echo(f"difference vs --against: {bt['difference']:+.1f} (95% CI {bt['low']:+.1f} to {bt['high']:+.1f}, "
             f"{bt['wins']} wins / {bt['losses']} losses)")
    return metrics


def _write(out: Path, rows, metrics, j, *, judge, tasks, reports, against, browser, seed, calls, seconds) -> None:
    from ..prompts import prompt_hash
    from .output import WRITTEN, write_run

    metrics["heatmap"] = heatmap(rows, out / "heatmap.png")
    judge_desc = "rules" if judge == "rules" else j.model.endpoint.describe()
    protocol = {"evaluator": EVALUATOR_VERSION, "judge": judge_desc, "gate_votes": 3,
                "prompts": {"rubric_judge.j2": prompt_hash("rubric_judge.j2")}, "tasks": str(tasks.resolve()),
                "reports": str(reports.resolve()), "against": str(Path(against).resolve()) if against else None,
                "browser": browser, "bootstrap_seed": seed, "model_calls": calls}
    write_run(out, "omnidr", protocol, seconds=seconds, files={
        "tasks.jsonl": "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
        "metrics.json": json.dumps(metrics, indent=1), "summary.md": summary_md(rows, metrics)},
        figures={"heatmap.png": WRITTEN if metrics["heatmap"] == "heatmap.png" else metrics["heatmap"]})


def summarise(rows: list[dict]) -> dict:
    ok = [r for r in rows if r["status"] == "ok"]
    directions: dict[str, list[float]] = {}
    dims: dict[str, list[float]] = {}
    for r in ok:
        for dname, d in r["dimensions"].items():
            if d["score"] is not None:
                dims.setdefault(dname, []).append(d["score"])
            for name, dr in d["directions"].items():
                if dr["score"] is not None:
                    directions.setdefault(f"{dname}/{name}", []).append(dr["score"])
    mean = lambda xs: round(sum(xs) / len(xs), 2) if xs else 0.0  # noqa: E731
    return {"tasks": len(rows), "completed": len(ok), "completion_rate": len(ok) / len(rows) if rows else 0.0,
            "all_task_mean": mean([r["score"] if r["status"] == "ok" else 0.0 for r in rows]),
            "successful_mean": mean([r["score"] for r in ok]),
            "evaluator_errors": sum(r.get("evaluator_errors", 0) for r in ok),
            "dimensions": {k: mean(v) for k, v in dims.items()}, "directions": {k: mean(v) for k, v in directions.items()},
            "per_task": {r["task"]: {"status": r["status"], "score": r["score"]} for r in rows},
            "contract_missing": {r["task"]: r["contract_missing"] for r in rows if r.get("contract_missing")}}


def summary_md(rows: list[dict], m: dict) -> str:
    from ..markdown import table

    lines = ["# OmniDR-style report evaluation", "",
             f"All-task mean **{m['all_task_mean']:.1f}** (missing or unreadable reports count 0); successful-report "
             f"mean {m['successful_mean']:.1f}; completion {m['completion_rate']:.0%}; evaluator errors "
             f"{m['evaluator_errors']} (left out of their denominators).", "", "## Per task", ""]
    dims = sorted({d for r in rows if r["status"] == "ok" for d in r["dimensions"]})
    lines += table(["task", "status", "score"] + dims,
                   [[r["task"], r["status"], f"{r['score']:.1f}"] + [
                       "" if r["status"] != "ok" or r["dimensions"].get(d, {}).get("score") is None
                       else f"{r['dimensions'][d]['score']:.1f}" for d in dims] for r in rows])
    lines += ["", "## Per direction (mean over completed tasks)", ""]
    lines += table(["direction", "score"], [[k, f"{v:.1f}"] for k, v in m["directions"].items()])
    if "paired_bootstrap" in m:
        bt = m["paired_bootstrap"]
        lines += ["", f"Difference against the other system: {bt['difference']:+.2f} (95% paired bootstrap interval "
                      f"{bt['low']:+.2f} to {bt['high']:+.2f}, {bt['resamples']} resamples, seed {bt['seed']})."]
    return "\n".join(lines) + "\n"


def heatmap(rows: list[dict], path: Path) -> str:
    """Draw tasks × directions; returns what was written, or why nothing was (recorded in run.json)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    ok = [r for r in rows if r["status"] == "ok"]
    cols = sorted({f"{d}/{n}" for r in ok for d, dd in r["dimensions"].items() for n in dd["directions"]})
    if not ok or not cols:
        return "not drawn: no completed task has a direction score"
    grid = np.full((len(ok), len(cols)), np.nan)
    for i, r in enumerate(ok):
        for j, c in enumerate(cols):
            d, n = c.split("/", 1)
            s = r["dimensions"].get(d, {}).get("directions", {}).get(n, {}).get("score")
            if s is not None:
                grid[i, j] = s
    fig, ax = plt.subplots(figsize=(2 + 0.6 * len(cols), 3 + 0.4 * len(ok)))
    im = ax.imshow(grid, vmin=0, vmax=100, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(ok)), [r["task"] for r in ok], fontsize=8)
    fig.colorbar(im, ax=ax, label="direction score")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


__all__ = ["run_omnidr", "summarise"]
