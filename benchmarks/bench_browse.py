"""Browsing on a split the demo never builds: the README's held-out figures.

    python benchmarks/bench_browse.py                  # seed 1, Video-Browser and ReAct, the 0.5B model
    python benchmarks/bench_browse.py --seed 2 --model local-1.5b --threads 1
    python benchmarks/bench_browse.py --levels 3 --seed 5 --agents video-browser   # the L1/L2/L3 world

Builds a generated split of the demo's shape with another seed (12 questions, half answered only
on screen and half only in speech, two same-topic hard negatives each, paraphrased questions),
ingests it, builds the BM25 index, and runs the Watcher comparison and both agents end to end on
the embedded models. Prints one table and writes ``benchmarks/results/bench_browse-seedN.json``
with the protocol (models, prompts' hashes, parameters, versions) beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="split seed (the demo uses 0)")
    ap.add_argument("--questions", type=int, default=12)
    ap.add_argument("--pairs", type=int, default=0, help="two-video questions")
    ap.add_argument("--model", default="local", help="endpoint for every role (local or local-1.5b)")
    ap.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: the default)")
    ap.add_argument("--agents", default="video-browser,react")
    ap.add_argument("--out", type=Path, default=Path("bench-output"))
    ap.add_argument("--levels", type=int, default=0,
                    help="build the L1/L2/L3 world (synth/browse_levels.py) with this many questions per level instead")
    args = ap.parse_args()
    if args.threads:
        os.environ["VIDSLEUTH_THREADS"] = str(args.threads)

    from vidsleuth import __version__
    from vidsleuth.bench.browse import run_browse, watcher_comparison
    from vidsleuth.browse.setup import browse_protocol, open_browse
    from vidsleuth.search.index import build_index
    from vidsleuth.synth.browse_levels import build_levels
    from vidsleuth.synth.browse_world import build

    folder = args.out / (f"browse-levels-seed{args.seed}" if args.levels else f"browse-seed{args.seed}")
    t0 = time.perf_counter()
    world = build_levels(folder, seed=args.seed, per_level=args.levels) if args.levels else build(
        folder, seed=args.seed, n_questions=args.questions, n_pairs=args.pairs, n_train=0)
    build_index(world["corpus"], folder / "index")
    setup = open_browse(folder / "index", library=folder / "library", model=args.model)
    for vid in setup.videos.records:
        setup.videos.timeline(vid)
    ingest_s = time.perf_counter() - t0
    cmp = watcher_comparison(setup.index, setup.models, setup.videos, world["questions"], setup.config)
    rows = []
    out: dict = {"seed": args.seed, "model": args.model, "comparison": {k: v for k, v in cmp.items() if k != "rows"},
                 "comparison_rows": cmp["rows"], "agents": {}, "ingest_seconds": round(ingest_s, 1)}
    for name in args.agents.split(","):
        t1 = time.perf_counter()
        m = run_browse(world["questions"], lambda models, name=name: setup.agent(name, models), setup.models,
                       folder / f"bench-{name}-{args.model}", protocol=browse_protocol(setup, name))
        secs = time.perf_counter() - t1
        out["agents"][name] = {k: m[k] for k in ("n", "accuracy", "exact_match", "calibration_error", "cumulative_recall",
                                                 "watched_rate", "questions_with_guards", "videos_unavailable",
                                                 "parse_failures", "missing")}
        out["agents"][name]["seconds_per_question"] = round(secs / max(1, m["n"]), 2)
        out["agents"][name]["protocol"] = browse_protocol(setup, name)
        preds = [json.loads(l) for l in (folder / f"bench-{name}-{args.model}" / "predictions.jsonl").read_text().splitlines()]
        out["agents"][name]["no_video_selected"] = sum(not p["selected"] for p in preds)
        rows.append((name, m, secs / max(1, m["n"])))
    out["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                      "vidsleuth": __version__, "threads": os.environ.get("VIDSLEUTH_THREADS", "default")}
    print(f"\nsplit seed {args.seed}: {cmp['n']} questions, model {args.model}")
    print(f"Watcher top-1 over the BM25 top-{setup.config.search_k} of the question: BM25 {cmp['bm25_top1']:.0%}, "
          f"metadata-only {cmp['metadata_only_top1']:.0%}, seed-style LLM {cmp['watcher_llm_top1']:.0%}, "
          f"fused {cmp['watcher_embed_top1']:.0%} (answer video in the top-k: {cmp['seed_in_top_k']:.0%})")
    print("| agent | accuracy | exact match | cumulative recall | watched | CE | no video selected | s/question |")
    print("|---|---|---|---|---|---|---|---|")
    for name, m, spq in rows:
        print(f"| {name} | {m['accuracy']:.0%} | {m['exact_match']:.0%} | {m['cumulative_recall']:.0%} | "
              f"{m['watched_rate']:.0%} | {m['calibration_error']:.1%} | {out['agents'][name]['no_video_selected']} | {spq:.1f} |")
    kind = "levels-" if args.levels else ""
    dest = ROOT / "results" / f"bench_browse-{kind}seed{args.seed}-{args.model}.json"
    dest.parent.mkdir(exist_ok=True)
    dest.write_text(json.dumps(out, indent=2, default=str))
    print(f"written: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
