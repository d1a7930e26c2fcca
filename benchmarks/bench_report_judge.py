"""The relaters side by side on held-out report task sets: the rules, a model alone, and the rules
with a model judging their borderline cases (``vidsleuth report --relater rules|model|judge``).

    nice -n 10 python benchmarks/bench_report_judge.py --sets /work/heldout2/report /work/heldout/report \
        --relaters rules,judge:local-1.5b,model:local-1.5b --out /tmp/judge/bench --no-browser

Each task folder (``video.mp4``, ``request.txt``, ``docs/``, ``truth.json``) goes through the
report's own two halves in ``report.pipeline``: ``before_relations`` (ingest, anchors, reading and
ranking the documents; they do not depend on the relater) once per task, shared by the relaters
(kept in ``OUT/stages``, so a later invocation reuses them), then per relater ``after_relations``
(the relater, numbering, writing, rendering, checks, the protocol): what ``vidsleuth report
--relater …`` runs. A relater's
seconds per report are those shared seconds plus its own. Every report is scored by its set's
scorer (``SET/../score_report.py REPORT TRUTH --json``): strict relation accuracy over the known
(document, anchor) pairs, spurious links, anchors found. Model calls answered from the response
cache are counted apart. Writes ``benchmarks/results/bench_report-judge.json`` (or ``--results``)
after every report, with the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def shared_stages(task: Path, out: Path, library: Path, browser: bool):
    """(setup, groundwork, seconds): ``pipeline.before_relations`` once per task, kept on disk."""
    from vidsleuth.report import pipeline as P

    keep = out / "stages" / f"{task.parent.parent.name}-{task.name}.pickle"
    request = (task / "request.txt").read_text(encoding="utf-8").strip()
    setup = P.prepare(task / "video.mp4", request, out=out / "unused", docs=task / "docs", library=library,
                      browser=browser)
    if keep.is_file():
        return (setup, *pickle.loads(keep.read_bytes()))
    t0 = time.perf_counter()
    got = (P.before_relations(setup), round(time.perf_counter() - t0, 1))
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.write_bytes(pickle.dumps(got))
    return (setup, *got)


def one_report(task: Path, relater: str, out: Path, library: Path, browser: bool) -> dict:
    from vidsleuth.report import pipeline as P
    from vidsleuth.report.judge import configure

    base, groundwork, shared = shared_stages(task, out, library, browser)
    mode, _, endpoint = relater.partition(":")
    dst = out / task.parent.parent.name / relater.replace(":", "-") / task.name
    if dst.exists():
        shutil.rmtree(dst)
    setup = replace(base, out=dst, relater=configure(mode, endpoint=endpoint or None))
    t0 = time.perf_counter()
    res = P.after_relations(setup, groundwork)  # the relater and every stage after it, as ``vidsleuth report`` runs them
    own = round(time.perf_counter() - t0, 1)
    scorer = task.parent.parent / "score_report.py"
    cmd = [sys.executable, str(scorer), str(dst / "report.json"), str(task / "truth.json"), "--json"]
    s = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)["tasks"][0]
    proto = setup.relater.protocol()
    return {"seconds": round(shared + own, 1), "shared_seconds": shared, "relater_seconds": own,
            "load": round(os.getloadavg()[0], 1), "evidence": res["evidence"], "passed": res["passed"],
            **{k: s[k] for k in ("anchors_found", "anchors_total", "pairs_correct", "pairs_total", "pairs_linked",
                                 "spurious", "unscored_links")},
            **{k: v for k, v in proto.items() if k.startswith(("model_", "borderline", "judge_"))},
            "wrong": [f"{p['doc']}~{p['anchor']}: {p['truth']} -> {p['got'] or '-'}" for p in s["pairs"] if not p["correct"]],
            "spurious_links": s["spurious_links"]}


def summary(rows: dict) -> dict:
    n = max(1, len(rows))
    tot = {k: sum(r.get(k, 0) for r in rows.values()) for k in
           ("pairs_correct", "pairs_total", "spurious", "anchors_found", "anchors_total", "seconds", "model_answers",
            "model_answers_cached", "model_seconds", "borderline", "judge_changed", "model_replies_unusable")}
    uncached = tot["model_answers"] - tot["model_answers_cached"]
    per_call = tot["model_seconds"] / uncached if uncached > 0 else 0.0
    return {"tasks": len(rows), "strict_relation_accuracy": round(tot["pairs_correct"] / max(1, tot["pairs_total"]), 3),
            "pairs_correct": tot["pairs_correct"], "pairs_total": tot["pairs_total"],
            "spurious_per_task": round(tot["spurious"] / n, 2), "anchors": f"{tot['anchors_found']}/{tot['anchors_total']}",
            "seconds_per_report": round(tot["seconds"] / n, 1), "model_calls_per_report": round(tot["model_answers"] / n, 1),
            "model_calls_cached": tot["model_answers_cached"], "seconds_per_uncached_call": round(per_call, 2),
            "cold_seconds_per_report_estimate": round((tot["seconds"] + tot["model_answers_cached"] * per_call) / n, 1),
            "borderline_per_report": round(tot["borderline"] / n, 1), "judge_changed": tot["judge_changed"],
            "replies_unusable": tot["model_replies_unusable"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=Path, nargs="+", required=True, help="task-set folders (each beside its scorer)")
    ap.add_argument("--relaters", default="rules,judge:local-1.5b,model:local-1.5b")
    ap.add_argument("--out", type=Path, default=Path("bench-output/report-judge"))
    ap.add_argument("--results", type=Path, default=ROOT / "results" / "bench_report-judge.json")
    ap.add_argument("--only", nargs="*", default=[], help="only these task names")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    from vidsleuth import __version__
    from vidsleuth.prompts import prompt_hash
    from vidsleuth.report.judge import FIRM, PROMPT

    results = json.loads(args.results.read_text()) if args.results.is_file() else {}
    sets = results.setdefault("sets", {})
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout
    for tasks in args.sets:
        name = tasks.resolve().parent.name
        for task in sorted(p for p in tasks.iterdir() if (p / "truth.json").is_file()):
            if args.only and task.name not in args.only:
                continue
            for rel in [r.strip() for r in args.relaters.split(",") if r.strip()]:
                row = one_report(task, rel, args.out, args.out / f"library-{name}", not args.no_browser)
                entry = sets.setdefault(name, {}).setdefault(rel, {"tasks": {}})
                entry["tasks"][task.name] = row
                entry["summary"] = summary(entry["tasks"])
                print(f"{name}/{task.name} {rel}: {row['pairs_correct']}/{row['pairs_total']} strict, spurious "
                      f"{row['spurious']}, anchors {row['anchors_found']}/{row['anchors_total']}, {row['seconds']} s "
                      f"(own {row['relater_seconds']} s), calls {row.get('model_answers', 0)}", flush=True)
                results["protocol"] = {
                    "vidsleuth": __version__, "commit": commit.strip(), "python": sys.version.split()[0],
                    "machine": platform.machine(), "cores": os.cpu_count(), "prompt": PROMPT,
                    "prompt_hash": prompt_hash(PROMPT), "firm_confidence": FIRM,
                    "threads": os.environ.get("VIDSLEUTH_THREADS", "default (cores - 1)"), "browser": not args.no_browser,
                    "command": " ".join(sys.argv), "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "shared": "ingest, anchors, reading and ranking run once per task and are shared by the relaters"}
                args.results.parent.mkdir(parents=True, exist_ok=True)
                args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
