"""The offline demo: every main job on generated clips whose truth is known, on the embedded
models (Whisper tiny.en, RapidOCR, PySceneDetect, Qwen2.5-Coder 0.5B).

``run_demo`` (``make demo``) is sized to show every job in a few minutes on two cores: timelines
of three clips (the first printed within a minute), a validated report and the rubric
calibration, three browsing questions with Video-Browser, and a small compass run whose frame
manifest is diffed against a cached rerun. ``full=True`` (``make demo-full``) runs the
benchmark-sized browsing demo (12 + 2 questions, Watcher comparison, Video-Browser and ReAct) and
the whole compass demo set. Each job prints its figures as it finishes, with the elapsed time.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import synth
from .files import writes_output
from .library import IngestOptions, Library, ingest
from .progress import task

DEMO_CLIPS: dict[str, synth.ClipSpec] = {
    "lighthouse_tour": synth.ClipSpec(
        title="A tour of the old lighthouse",
        shots=(synth.Shot(100, "0x1a3a6a"), synth.Shot(100, "0xd0c080"), synth.Shot(100, pattern="testsrc2")),
        captions=(
            synth.Caption(0.5, 3.5, "HARBOR POINT LIGHTHOUSE"),
            synth.Caption(4.5, 7.5, "BUILT IN 1887"),
            synth.Caption(8.5, 11.5, "OPEN DAILY 9 TO 5", y="h-text_h-30"),
        ),
        speech=(
            synth.Speech(0.5, "Welcome to Harbor Point. The lighthouse was built in eighteen eighty seven."),
            synth.Speech(6.5, "Its lamp can be seen from thirty kilometers away."),
        ),
    ),
    "market_report_zh": synth.ClipSpec(
        title="城市市场报道",
        shots=(synth.Shot(125, "0x204020"), synth.Shot(125, "0xe0e0e0")),
        captions=(
            synth.Caption(0.5, 4.5, "今日新闻 北京市场", cjk=True),
            synth.Caption(5.5, 9.5, "苹果价格 上涨", cjk=True, color="black"),
        ),
        speech=(synth.Speech(1.0, "Apple prices rose again at the Beijing market this week."),),
    ),
    "cup_final": synth.ClipSpec(
        title="Cup final highlights",
        shots=(synth.Shot(75, pattern="smptebars"), synth.Shot(100, "0x601010"), synth.Shot(75, "0x10a0a0")),
        captions=(synth.Caption(3.5, 6.5, "FINAL SCORE 3-1"), synth.Caption(7.5, 9.8, "PLAYER OF THE MATCH: ODA")),
        speech=(synth.Speech(4.0, "And that is the final whistle. Three goals to one."),),
    ),
}


@dataclass(frozen=True)
class DemoSize:
    """How big each job is: the quick demo and the full (benchmark-sized) one."""

    questions: int
    pairs: int
    train: int
    agents: tuple[str, ...]
    watcher_comparison: bool
    compass_clips: tuple[str, ...]  # demo-set clips the compass run uses ("" = all)
    compass_frames: int


SIZES = {
    "quick": DemoSize(questions=3, pairs=0, train=2, agents=("video-browser",), watcher_comparison=False,
                      compass_clips=("red_square", "blue_square"), compass_frames=4),
    "full": DemoSize(questions=12, pairs=2, train=6, agents=("video-browser", "react"), watcher_comparison=True,
                     compass_clips=(), compass_frames=8),
}


class Clock:
    """Elapsed time since the demo started, printed before each job's figures."""

    def __init__(self, echo: Callable[[str], None]):
        self.t0 = time.perf_counter()
        self.echo = echo
        self.laps: dict[str, float] = {}

    def stamp(self) -> str:
        s = int(time.perf_counter() - self.t0)
        return f"[{s // 60}:{s % 60:02d}]"

    def __call__(self, msg: str) -> None:
        self.echo(msg.replace("\n== ", f"\n{self.stamp()} == ", 1) if msg.startswith("\n== ") else msg)

    def lap(self, name: str) -> None:
        self.laps[name] = round(time.perf_counter() - self.t0, 1)


@writes_output("demo")
def run_demo(out: str | Path = "demo-output", *, echo=print, agent: bool = True, reports: bool = True,
             full: bool = False, compass: bool = True) -> dict:
    """Every main job, quick (default) or benchmark-sized (``full``); writes ``out/demo.json``
    with the seconds at which each job finished."""
    out = Path(out)
    size = SIZES["full" if full else "quick"]
    clock = Clock(echo)
    made = timelines_demo(out, echo=clock)
    clock.lap("timelines")
    if reports:
        report_demo(out / "report", out / "library", echo=clock)
        clock.lap("report and calibration")
    if agent:
        browse_demo(out / "browse", out / "library", echo=clock, n_questions=size.questions, n_pairs=size.pairs,
                    n_train=size.train, agents=size.agents, comparison=size.watcher_comparison)
        clock.lap("browsing")
    if compass:
        compass_demo(out / "compass", echo=clock, clips=size.compass_clips, frames=size.compass_frames)
        clock.lap("compass")
    clock(f"\n{clock.stamp()} demo done ({'full' if full else 'quick'}; `vidsleuth demo --full` for the benchmark-sized one)")
    summary = {"size": "full" if full else "quick", "finished_at_seconds": clock.laps,
               "clips": {k: str(v) for k, v in made.items()}}
    (out / "demo.json").write_text(json.dumps(summary, indent=1))
    return summary


def timelines_demo(out: Path, *, echo=print) -> dict[str, Path]:
    """Generate the demo clips under ``out/clips`` (kept when present), ingest them into
    ``out/library`` and write each timeline to ``out/timelines``, printing each as it is done."""
    clips = out / "clips"
    timelines = out / "timelines"
    timelines.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}
    with Library(out / "library") as lib:
        for name, spec in DEMO_CLIPS.items():
            path = clips / f"{name}.mp4"
            if not path.exists() or not path.with_suffix(".truth.json").exists():
                synth.make_clip(path, spec)
            made[name] = path
            tl = ingest(path, lib, IngestOptions())
            text = tl.to_text()
            (timelines / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
            (timelines / f"{name}.json").write_text(tl.to_json(), encoding="utf-8")
            echo(f"\n== timeline: {name} ({tl.video.duration:.1f} s, {len(tl.segments)} segments) ==")
            echo(text)
    echo(f"clips {clips.resolve()}; timelines {timelines.resolve()}; library {(out / 'library').resolve()}")
    return made


def compass_demo(folder: Path, *, echo=print, clips: tuple[str, ...] = (), frames: int = 4) -> dict:
    """A small OmniCompass-style run (TG, SG, QA; Text and Text+Image) on the embedded model,
    then the same run again from the response cache and ``bench diff`` of their frame manifests."""
    from .bench.compass import run_compass
    from .bench.diff import bench_diff
    from .models import Models
    from .models.config import load_config
    from .synth.compass_set import make_demo_set

    echo(f"\n== compass: temporal, spatial and QA grounding (embedded model, {frames} frames) ==")
    data = make_demo_set(folder / "data")
    if clips:
        subset = folder / "data" / "demo-subset.jsonl"
        subset.write_text("".join(line + "\n" for line in data.read_text().splitlines()
                                  if any(f'"{c}' in line for c in clips)))
        data = subset
    models = Models(load_config(None), cache=True)
    runs = []
    for name in ("run-a", "run-b"):  # run-b is answered from the response cache: same frames, no model time
        target = folder / name
        if target.exists():
            import shutil

            shutil.rmtree(target)
        runs.append((target, run_compass(data, models, "local", target, frames=frames, workers=1)))
    m = runs[0][1]
    avg = m["settings"]
    echo(f"instances {m['counts']['instances']} ({m['counts']['paired']} paired); Average text "
         f"{avg['text']['Average']:.0%}, text+image {avg.get('text+image', {}).get('Average', 0):.0%}; "
         f"CS_Avg {m['consistency'].get('CS_Avg', 0):.0%}; unparsed {m['counts']['unparsed']}")
    diff = bench_diff(runs[0][0], runs[1][0])
    echo(f"frame manifest: {diff.images[0]} images in {diff.items[0]} model inputs ({runs[0][0] / 'frames.jsonl'}); "
         f"bench diff run-a run-b: {'same frames' if diff.same else f'{len(diff.differences)} differences'}")
    echo(f"outputs: {runs[0][0].resolve()} (summary.md, predictions.jsonl, frames.jsonl, metrics.json, plots/)")
    return {"metrics": m, "diff": diff.to_dict()}


def report_demo(folder: Path, library: Path, *, echo=print, seed: int = 0, browser: bool = True) -> dict:
    """A research report written offline on a generated case whose relations are known (seed 0;
    ``benchmarks/bench_report.py`` measures other seeds): prints relation accuracy, anchors found,
    checks passed, seconds taken and the report's path."""
    import shutil
    import time

    from .report import report
    from .synth import report_cases
    from .synth.clips import english_voice

    voice = english_voice()  # the neural voice where installed (make setup does): espeak measures espeak
    echo(f"\n== research report demo (embedded, rules relater, case seed {seed}, voice {voice}) ==")
    case = folder / "case"
    if case.exists():
        shutil.rmtree(case)
    truth = report_cases.build(case, seed=seed, voice=voice)
    out = folder / "report"
    if out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    result = report(case / "video.mp4", truth["request"], out=out, docs=case / "docs", library=library,
                    browser=browser, echo=lambda m: echo(f"  {m}"))
    seconds = time.perf_counter() - t0
    scored = report_cases.score(json.loads((out / "report.json").read_text()), truth)
    failed = sorted(k for k, v in result["checks"].items() if v)
    echo(f"request: {truth['request']}")
    echo(f"anchors found {scored['anchors_found']}/{scored['anchors_truth']}; evidence pairs found "
         f"{scored['found']}/{scored['pairs']}; relation accuracy {scored['relation_accuracy']:.0%} "
         f"({scored['correct']}/{scored['pairs']}; {scored['relation_accuracy_found']:.0%} of those found); "
         f"spurious links {scored['spurious']}")
    echo(f"checks {'passed (browser included)' if result['passed'] else 'FAILED: ' + ', '.join(failed)}; "
         f"{seconds:.1f} s; documents skipped {result['skipped'] and len(result['skipped'])}")
    echo(f"report: {result['report']}")
    summary = {"seed": seed, "seconds": round(seconds, 1), "passed": result["passed"],
               **{k: v for k, v in scored.items() if k != "rows"}, "rows": scored["rows"]}
    (folder / "report_demo.json").write_text(json.dumps(summary, indent=1))
    from .rubric.calibration import calibrate

    echo("\n== report evaluation: Omni-ART rubric calibration (rules judge) ==")
    summary["calibration"] = calibrate(folder / "calibration", seed=seed, library=library, browser=browser, echo=echo)
    echo(f"score them yourself: vidsleuth bench omnidr --tasks {(folder / 'calibration' / 'tasks').resolve()} "
         f"--reports {(folder / 'calibration' / 'reports' / 'R2').resolve()} --out omnidr-out")
    (folder / "report_demo.json").write_text(json.dumps(summary, indent=1))
    return summary


def browse_demo(folder: Path, library: Path, *, echo=print, seed: int = 0, n_questions: int = 12, n_pairs: int = 2,
                n_train: int = 6, agents: tuple[str, ...] = ("video-browser", "react"), comparison: bool = True) -> dict:
    """The main job offline on a generated split (seed 0; the README's held-out figures use seed 1
    through ``benchmarks/bench_browse.py``): the Watcher comparison (``comparison``), then
    question -> answer with each agent and the benchmark outputs, all on the embedded models."""
    from .bench.browse import run_browse
    from .browse.setup import browse_protocol, open_browse
    from .search.index import build_index
    from .search.memory import MemoryBank, build_memory
    from .synth.browse_world import build

    echo(f"\n== video browsing: {n_questions + n_pairs} questions, {', '.join(agents)} "
         f"(embedded local models, split seed {seed}) ==")
    world = build(folder, seed=seed, n_questions=n_questions, n_pairs=n_pairs, n_train=n_train)
    build_index(world["corpus"], folder / "index")
    setup = open_browse(folder / "index", library=library)
    with task("transcripts and on-screen text", total=len(setup.videos.records)) as bar:
        for vid in setup.videos.records:  # cached in the library
            setup.videos.timeline(vid)
            bar.advance()
    stats = build_memory(world["train"], setup.index, folder / "memory", setup.models)
    echo(f"translation memory: {stats['cards']} cards, {stats['verified']} verified")
    setup = dataclasses.replace(setup, memory=MemoryBank(folder / "memory", setup.models.embedder()))
    results = {"comparison": _watcher_comparison(setup, world, folder, echo)} if comparison else {}
    for name in agents:
        out = folder / f"bench-{name}"
        m = run_browse(world["questions"], lambda models, name=name: setup.agent(name, models), setup.models, out,
                       protocol=browse_protocol(setup, name), warn=lambda msg: echo(f"warning: {msg}"))
        results[name] = m
        echo(f"{name}: accuracy {m['accuracy']:.0%} ({m['judge_method']} judge), exact match {m['exact_match']:.0%}, "
             f"calibration error {m['calibration_error']:.1%}, cumulative recall {m['cumulative_recall']:.0%}, "
             f"watched {m['watched_rate']:.0%}, questions where a guard fired {m['questions_with_guards']}, "
             f"videos unavailable {m['videos_unavailable']}")
        echo(f"  outputs: {out.resolve()}  (summary.md, predictions.jsonl, metrics.json, reliability.png, traces/)")
    first = json.loads(world["questions"].read_text().splitlines()[0])["question"]
    echo(f"try: vidsleuth ask \"{first}\" -i {(folder / 'index').resolve()} --memory {(folder / 'memory').resolve()} "
         f"--library {library.resolve()}")
    return results


def _watcher_comparison(setup, world: dict, folder: Path, echo) -> dict:
    from .bench.browse import watcher_comparison

    comparison = watcher_comparison(setup.index, setup.models, setup.videos, world["questions"], setup.config)
    (folder / "watcher_comparison.json").write_text(json.dumps(comparison, indent=2))
    echo(f"answer video ranked first among the BM25 top-{setup.config.search_k} of the question "
         f"({comparison['n']} questions, answer video in the top-{setup.config.search_k}: {comparison['seed_in_top_k']:.0%}):")
    echo(f"  BM25 {comparison['bm25_top1']:.0%} | metadata-only {comparison['metadata_only_top1']:.0%} | "
         f"seed-style Watcher (LLM over grid notes) {comparison['watcher_llm_top1']:.0%} | "
         f"fused Watcher {comparison['watcher_embed_top1']:.0%}")
    return comparison
