"""Training questions (seed 001 App. A.3) -> Translation Memory -> does it raise recall?

    nice -n 10 python benchmarks/bench_memory.py                       # 12 seed videos, both held-out sets
    nice -n 10 python benchmarks/bench_memory.py --seed-videos 12 --sets levels

1. The training collection is the generated demo world of the levels' shape
   (``synth/browse_levels.py``, seed 0: 27 three-scene clips); its clips are ingested into a library.
2. ``questions build`` draws ``--seed-videos`` of them (L1/L2 alternating) and keeps a question
   only if (i) the answer re-derived under the paraphrase matches and (ii) one proposed BM25
   query finds the seed video in the top 3. The candidate and kept counts per filter are printed.
3. ``memory build`` distils the kept questions into a Translation Memory.
4. On each held-out set the retrieval half of Video-Browser (its own Planner and Searcher, the
   seed's metadata-only BM25 top-k) runs twice, the same run except for the memory block in the
   Planner's prompt: "recall@k, loop 1" is the answer video in the first loop's Searcher top-k,
   "cumulative recall" among the top-k of every loop (``--loops``, each Planner seeing its earlier
   queries). The Watcher, Checker and Analyst are left out: the memory acts only on the Planner,
   and on 2 shared cores a full agent run per condition does not fit.

Held-out sets: ``levels`` is the project's held-out levels split (``bench_browse.py --levels 3
--seed 5``), ``heldout`` the set another hand wrote (``/work/heldout/browse``, its index and library
copied, never written to in place). Writes ``benchmarks/results/bench_memory.json`` with the
protocol (models, prompts' hashes, seeds) beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PROMPTS = ("question_build.j2", "question_reanswer.j2", "memory_distill.j2", "memory_feedback.txt", "planner.j2", "planner_state.j2",
           "watcher_header.j2", "checker.j2", "analyst_intro.j2", "analyst_outro.j2")


def _copy(src: Path, dest: Path) -> Path:
    """A private copy of someone else's index or library (the original is never written)."""
    if not dest.exists():
        shutil.copytree(src, dest)
    return dest


def build_training(out: Path, n: int, seed: int) -> dict:
    """The training world, its questions and its memory; returns their statistics."""
    from vidsleuth.browse.questions import build_questions
    from vidsleuth.models import Models
    from vidsleuth.search.index import SearchIndex, build_index
    from vidsleuth.search.memory import build_memory
    from vidsleuth.synth.browse_levels import build_levels

    world = build_levels(out / "train-world", seed=seed, per_level=3)
    if not (out / "train-world" / "index" / "meta.json").exists():
        build_index(world["corpus"], out / "train-world" / "index")
    models = Models()  # questions build ingests each drawn video into the library as it reaches it
    t0 = time.perf_counter()
    qs = build_questions(world["corpus"], out / "library", models, out / "qs", n=n, seed=seed)
    qs_s = time.perf_counter() - t0
    filters = {**qs["filters"], "kept_by_level": qs["kept_by_level"], "dropped": qs["dropped"]}
    t0 = time.perf_counter()
    mem = build_memory(out / "qs" / "questions.jsonl", SearchIndex.load(out / "qs" / "index"), out / "memory", models,
                       corpus=world["corpus"]) if qs["kept"] else {"cards": 0, "verified": 0}
    return {"world": {"generator": "synth.browse_levels.build_levels", "seed": seed, "per_level": 3},
            "questions": filters, "memory": mem, "seconds": {"questions_build_with_ingest": round(qs_s, 1),
                                                             "memory_build": round(time.perf_counter() - t0, 1)}}


def _retrieve(agent, question: str, memory_block: str, loops: int) -> list[list[str]]:
    """The retrieval half of Video-Browser, as its own methods run it: per loop the Planner (with
    the memory block or without, its earlier queries in the history) and the Searcher (the
    Planner's query and the question's words, constraint-ranked). The Watcher, Checker and Analyst
    are left out: the memory acts on the Planner, and every question runs ``loops`` loops."""
    from vidsleuth.browse.constraints import parse
    from vidsleuth.browse.searcher import search

    constraints, steps, history, found = parse(question), [], [], []
    for loop in range(1, loops + 1):
        planned = agent._plan(question, history, [], "", memory_block, loop, steps)
        own = [h.video_id for h in agent.index.search(planned, k=agent.cfg.search_k)] if planned else []
        searched = search(agent.index, planned, question, agent.cfg.search_k, constraints, agent.videos.records)
        history.append({"loop": loop, "query": searched.query, "selected": ""})
        found.append({"planner_query": planned, "planner_hits": own, "hits": [h.video_id for h in searched.hits]})
    return found


def _recall(rows: list[dict], loop: int | None, key: str = "hits") -> float:
    """Share of questions with an answer video in loop ``loop``'s top-k (None: any loop's);
    ``key`` ``planner_hits``: the Planner's query searched alone."""
    hit = [any(v in sum([x[key] for x in (r["loops"] if loop is None else r["loops"][loop - 1:loop])], [])
               for v in r["seed_video_ids"]) for r in rows]
    return sum(hit) / len(hit) if hit else 0.0


def evaluate(name: str, questions: Path, index: Path, library: Path, memory: Path | None, out: Path,
             loops: int, conditions: str = "none,memory") -> dict:
    """Recall on one held-out set without and with the memory (nothing else differs)."""
    from vidsleuth.bench.browse import read_questions
    from vidsleuth.browse.setup import open_browse
    from vidsleuth.search.memory import MemoryBank

    setup = open_browse(index, library=library)
    bank = MemoryBank(memory, setup.models.embedder()) if memory else None
    cfg = setup.config
    result: dict = {"questions": str(questions), "index": str(index), "library": str(library), "loops": loops,
                    "search_k": cfg.search_k}
    qs = read_questions(questions)
    for label, use in (("no memory", False), ("memory", True)):
        if (use and bank is None) or ("memory" if use else "none") not in conditions.split(","):
            continue
        t0, rows = time.perf_counter(), []
        agent = setup.agent("video-browser")
        for q in qs:
            picked = bank.query(q["question"], cfg.memory_top, cfg.memory_pool) if use else []
            block = bank.block(q["question"], cfg.memory_top, cfg.memory_pool) if use else ""
            rows.append({"id": q["id"], "level": q["level"], "seed_video_ids": q["seed_video_ids"],
                         "loops": _retrieve(agent, q["question"], block, loops),
                         "cards": [[c.row_id, round(s, 3)] for c, s in picked]})
            print(f"  {name} / {label}: {q['id']} loop-1 hit {_recall(rows[-1:], 1):.0%}", flush=True)
        levels = sorted({r["level"] for r in rows})
        result[label] = {"n": len(rows), "recall_at_k_loop1": _recall(rows, 1), "cumulative_recall": _recall(rows, None),
                         "planner_query_recall_loop1": _recall(rows, 1, "planner_hits"),
                         "planner_query_cumulative": _recall(rows, None, "planner_hits"),
                         "planner_queries_guarded": sum(not x["planner_query"] for r in rows for x in r["loops"]),
                         "by_level": {lv: {"n": sum(r["level"] == lv for r in rows),
                                           "loop1": _recall([r for r in rows if r["level"] == lv], 1),
                                           "cumulative": _recall([r for r in rows if r["level"] == lv], None)}
                                      for lv in levels},
                         "questions_with_cards": sum(bool(r["cards"]) for r in rows),
                         "seconds": round(time.perf_counter() - t0, 1), "rows": rows}
        (out / f"eval-{name}.json").write_text(json.dumps(result, indent=1, default=str))
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed-videos", type=int, default=12, help="seed videos drawn for questions build")
    ap.add_argument("--seed", type=int, default=0, help="training world and draw seed (the demo's 0)")
    ap.add_argument("--levels-seed", type=int, default=5, help="the held-out levels split (bench_browse --levels 3)")
    ap.add_argument("--sets", default="levels,heldout")
    ap.add_argument("--heldout", type=Path, default=Path("/work/heldout/browse"))
    ap.add_argument("--heldout-index", type=Path, default=Path("/tmp/browse/idx_browse"))
    ap.add_argument("--heldout-library", type=Path, default=Path("/tmp/browse/lib_heldout"))
    ap.add_argument("--out", type=Path, default=Path("/tmp/memory"))
    ap.add_argument("--conditions", default="none,memory", help="none (no memory), memory, or both")
    ap.add_argument("--loops", type=int, default=2, help="Planner+Searcher loops per question (the agent's t_max is 3)")
    args = ap.parse_args()

    from vidsleuth import __version__
    from vidsleuth.models import Models
    from vidsleuth.prompts import prompt_hash
    from vidsleuth.search.index import build_index
    from vidsleuth.synth.browse_levels import build_levels

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    train = build_training(out, args.seed_videos, args.seed) if "memory" in args.conditions else {
        "questions": {}, "memory": {}}
    q = train["questions"]
    if q:
        print(f"\nquestions build: {q['candidates']} candidates from {args.seed_videos} seed videos; parsed "
              f"{q['parsed']}; passing each filter alone: answer in the video's text {q['passed_grounded']}, no answer "
              f"in the question {q['passed_no_leak']}, answer re-derived under the paraphrase {q['passed_paraphrase']}, "
              f"a proposed query re-retrieves the seed video (top 3) {q['passed_bm25']}; kept (all) {q['kept']} "
              f"(L1 {q['kept_by_level']['L1']}, L2 {q['kept_by_level']['L2']}); first failed filter: "
              f"{q['dropped'] or 'none'}")
        print(f"memory build: {train['memory'].get('cards', 0)} cards, {train['memory'].get('verified', 0)} verified")
    memory = out / "memory" if train["memory"].get("cards") else None
    sets = {}
    if "levels" in args.sets:
        folder = out / f"levels-seed{args.levels_seed}"
        world = build_levels(folder, seed=args.levels_seed, per_level=3, clips=False)  # retrieval needs no clips
        if not (folder / "index" / "meta.json").exists():
            build_index(world["corpus"], folder / "index")
        sets["levels"] = (world["questions"], folder / "index", out / "library")
    if "heldout" in args.sets:
        sets["heldout"] = (args.heldout / "questions.jsonl", _copy(args.heldout_index, out / "idx_heldout"),
                           _copy(args.heldout_library, out / "lib_heldout"))
    results = {}
    for name, (questions, index, library) in sets.items():
        results[name] = evaluate(name, questions, index, library, memory, out, args.loops, args.conditions)
    models = Models()
    report = {"training": train, "evaluation": results,
              "protocol": {"seeds": {"training_world": args.seed, "draw": args.seed, "levels_split": args.levels_seed},
                           "seed_videos": args.seed_videos, "agent": "video-browser (its Planner and Searcher only)",
                           "loops": args.loops,
                           "models": {r: models.endpoint_for(r).describe() for r in ("questions", "memory", "planner",
                                                                                     "checker", "analyst")},
                           "embedder": models.embedder().name, "prompts": {p: prompt_hash(p) for p in PROMPTS},
                           "vidsleuth": __version__, "python": sys.version.split()[0], "platform": platform.platform(),
                           "cpus": os.cpu_count(), "threads": os.environ.get("VIDSLEUTH_THREADS", "default")}}
    print(f"\n| held-out set | n | recall@{results and next(iter(results.values()))['search_k']} loop 1: "
          f"no memory / memory | cumulative recall ({args.loops} loops): no memory / memory | "
          "the Planner's query alone, loop 1 / cumulative: no memory / memory |")
    print("|---|---|---|---|---|")
    for name, r in results.items():
        a, b = r.get("no memory", {}), r.get("memory", {})
        if not a:
            continue
        cell = lambda k: f"{a[k]:.0%} / " + (f"{b[k]:.0%}" if b else "n/a")  # noqa: E731
        print(f"| {name} | {a['n']} | {cell('recall_at_k_loop1')} | {cell('cumulative_recall')} | "
              f"{cell('planner_query_recall_loop1')}; {cell('planner_query_cumulative')} |")
    dest = ROOT / "results" / "bench_memory.json"
    dest.parent.mkdir(exist_ok=True)
    dest.write_text(json.dumps(report, indent=2, default=str))
    print(f"written: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
