"""Benchmark runners: bench browse, bench compass, bench omnidr; bench diff (frame manifests)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..bench.browse import run_browse, summary_md
from ..bench.compass import run_compass_sweep
from ..bench.diff import bench_diff
from ..limits import arg, int_list
from ..synth.compass_set import make_demo_set
from . import deprecated, run_errors_status, verb
from .agents import AGENTS, agent_args, agent_spec


def _workers(p, default: int, help: str) -> None:
    p.add_argument("--workers", type=arg("concurrency", "--workers"), default=default, help=help)
    deprecated(p, "--concurrency", "--workers", "workers", type=arg("concurrency", "--concurrency"))


def _browse_args(p):
    p.add_argument("--questions", type=Path, required=True,
                   help="questions JSONL (id, question, answer, level, genre, seed_video_ids)")
    p.add_argument("--agent", choices=AGENTS, default="video-browser")
    agent_args(p)
    p.add_argument("--judge", help="endpoint for the judge role")
    p.add_argument("--judge-with", choices=["auto", "llm", "contains"], default="auto",
                   help="llm: the seed's judge prompt; contains: value containment; auto: contains for text-only endpoints")
    deprecated(p, "--judge-method", "--judge-with", "judge_with", choices=["auto", "llm", "contains"])
    _workers(p, 4, "questions answered at once (default 4)")
    p.add_argument("--retries", type=arg("retries"), default=0, help="retries per question after an endpoint error")
    p.add_argument("--executor", choices=["threads", "local", "ray"], default="threads",
                   help="threads (remote endpoints: the default), local (a process pool: embedded CPU-bound models), ray")
    p.add_argument("--address", help="Ray cluster address (with --executor ray)")
    p.add_argument("--out", type=Path, default=Path("bench-output") / "browse", help="output folder")


@verb("bench browse", "the browsing benchmark: accuracy, calibration, recall, watched rate, tokens (seed 001)",
      args=_browse_args, text=lambda m, a: f"{summary_md(m)}\noutputs: {a.out.resolve()}",
      view=lambda m, a: {k: v for k, v in m.items() if k != "calibration"},
      status=lambda m: run_errors_status(m["run_errors"], m["missing"], "questions"))
def _bench_browse(args):
    spec = {"open": agent_spec(args, args.judge), "agent": args.agent}
    return run_browse(args.questions, None, None, args.out, protocol={}, workers=args.workers,
                      judge_with=args.judge_with, retries=args.retries, executor=args.executor, address=args.address,
                      spec=spec)


def _compass_args(p):
    p.add_argument("--data", type=Path, help="instances JSONL (default: the generated demo set)")
    p.add_argument("--model", default="local", help="endpoint to evaluate (default local)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--track", choices=["VL", "AV"])
    p.add_argument("--frames", type=int_list("frames"),
                   help="frame budget K, or a sweep: 8,16,32,64,128 (default: the seed's table)")
    p.add_argument("--no-timestamps", dest="timestamps", action="store_false",
                   help="frames without their timestamps (ablation)")
    p.add_argument("--modality", choices=["text", "vision", "vision+audio"], help="input modality (ablation)")
    p.add_argument("--box-format", default="auto", choices=["auto", "pixel", "norm1", "norm1000"])
    _workers(p, 4, "instances answered at once (default 4)")
    p.add_argument("--out", type=Path, default=Path("bench-output") / "compass", help="output folder")
    p.add_argument("--no-cache", dest="cache", action="store_false")


def _compass_text(sweep: dict, args) -> str:
    return "\n".join(f"{r['summary']}\noutputs: {Path(r['out']).resolve()}" for r in sweep["results"].values())


@verb("bench compass", "OmniCompass-style TG/SG/QA with Text vs Text+Image pairs and CS scores",
      args=_compass_args, text=_compass_text, view=lambda sweep, a: sweep["results"],
      status=lambda sweep: run_errors_status(sweep["errors"], sweep["missing"], "instance settings"))
def _bench_compass(args):
    return run_compass_sweep(args.data, args.config, args.model, args.out, frames=args.frames, track=args.track,
                             timestamps=args.timestamps, modality=args.modality, workers=args.workers,
                             box_format=args.box_format, cache=args.cache, make_data=make_demo_set)


def _omnidr_args(p):
    p.add_argument("--tasks", type=Path, required=True, help="folder of task folders, each with rubric.json")
    p.add_argument("--reports", type=Path, required=True, help="folder of report folders named by task id")
    p.add_argument("--judge", default="rules", help="`rules` (offline, deterministic) or an endpoint name")
    p.add_argument("--against", type=Path, help="a second system's reports: paired bootstrap interval of the difference")
    p.add_argument("--browser", action="store_true", help="run the Chromium check for machine leaves that name it")
    p.add_argument("--seed", type=arg("seed", "--seed"), default=0, help="bootstrap seed (default 0)")
    _workers(p, 2, "tasks scored at once (default 2)")
    p.add_argument("--config", type=Path, help="config file")
    p.add_argument("--out", type=Path, required=True, help="output folder")


@verb("bench omnidr", "score reports against Omni-ART rubric trees (seed 000): all-task and successful means, bootstrap",
      args=_omnidr_args, text=lambda m, a: f"outputs: {a.out}")
def _bench_omnidr(args):
    from ..bench.omnidr import (
        run_omnidr,  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
    )

    return run_omnidr(args.tasks, args.reports, judge=args.judge, out=args.out, config=args.config,
                      against=args.against, browser=args.browser, workers=args.workers, seed=args.seed,
                      echo=lambda m: print(m, file=sys.stderr if args.json else sys.stdout))


def _diff_args(p):
    p.add_argument("run_a", type=Path, help="a run folder (or its frames.jsonl)")
    p.add_argument("run_b", type=Path, help="another run folder (or its frames.jsonl)")


@verb("bench diff", "did two runs show the models the same frames? (their frames.jsonl, item by item)",
      args=_diff_args, text=lambda d, a: d.summary(), view=lambda d, a: d.to_dict(),
      status=lambda d: (0, "") if d.same else (1, f"frames differ: {len(d.differences)} differences"))
def _bench_diff(args):
    return bench_diff(args.run_a, args.run_b)
