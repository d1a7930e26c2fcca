"""The offline demo: make a few clips with known content, ingest them, print their timelines.

Runs entirely on the embedded models (Whisper tiny.en, RapidOCR, PySceneDetect); later stages of
vidsleuth grow this into question answering and reports over the same clips.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import synth
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


def run_demo(out: str | Path = "demo-output", *, echo=print, agent: bool = True) -> dict[str, Path]:
    """Generate the demo clips under ``out/clips`` (kept when present), ingest them into
    ``out/library`` and write each timeline to ``out/timelines``; then (``agent``) the browsing
    demo: a 36-clip corpus with hard negatives, its index, a Translation Memory from a separate
    training split, the Watcher comparison and the browsing benchmark, all on the embedded models."""
    out = Path(out)
    clips = out / "clips"
    timelines = out / "timelines"
    timelines.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}
    with task("demo clips", total=len(DEMO_CLIPS)) as bar:
        for name, spec in DEMO_CLIPS.items():
            path = clips / f"{name}.mp4"
            if not path.exists() or not path.with_suffix(".truth.json").exists():
                synth.make_clip(path, spec)
            made[name] = path
            bar.advance()
    with Library(out / "library") as lib:
        for name, path in made.items():
            tl = ingest(path, lib, IngestOptions())
            text = tl.to_text()
            (timelines / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
            (timelines / f"{name}.json").write_text(tl.to_json(), encoding="utf-8")
            echo(f"\n== {name} ({tl.video.duration:.1f} s, {len(tl.segments)} segments) ==")
            echo(text)
    echo(f"\nclips:     {clips.resolve()}")
    echo(f"timelines: {timelines.resolve()}")
    echo(f"library:   {(out / 'library').resolve()}")
    (out / "demo.json").write_text(json.dumps({k: str(v) for k, v in made.items()}, indent=1))
    if agent:
        browse_demo(out / "browse", out / "library", echo=echo)
    return made


def browse_demo(folder: Path, library: Path, *, echo=print) -> dict:
    """The main job offline: question -> answer over a generated corpus, with the benchmark outputs."""
    from dataclasses import asdict

    from . import __version__
    from .bench.browse import run_browse, watcher_comparison
    from .browse.agent import VideoBrowser
    from .browse.democorpus import build
    from .browse.videos import BrowseConfig, Videos
    from .models import Models
    from .prompts import prompt_hash
    from .search.corpus import read_corpus
    from .search.index import build_index
    from .search.memory import MemoryBank, build_memory

    echo("\n== video browsing demo (embedded local models) ==")
    world = build(folder)
    index = build_index(world["corpus"], folder / "index")
    records = {r.video_id: r for r in read_corpus(world["corpus"])}
    models = Models(cache=True)
    videos = Videos(records, library=library)
    for vid in records:  # transcripts and on-screen text, cached in the library
        videos.timeline(vid)
    stats = build_memory(world["train"], index, folder / "memory", models)
    echo(f"translation memory: {stats['cards']} cards, {stats['verified']} verified")
    memory = MemoryBank(folder / "memory", models.embedder())
    cfg = BrowseConfig()
    comparison = watcher_comparison(index, models, videos, world["questions"], cfg)
    (folder / "watcher_comparison.json").write_text(json.dumps(comparison, indent=2))
    echo(f"hard negatives, top-1 hit of the answer video over the BM25 top-{cfg.search_k} ({comparison['n']} questions): "
         f"BM25 {comparison['bm25_top1']:.0%}, metadata-only reranker {comparison['metadata_only_top1']:.0%}, "
         f"Watcher {comparison['watcher_top1']:.0%}")
    protocol = {"agent": "video-browser", "models": "local (embedded)", "config": asdict(cfg), "vidsleuth": __version__,
                "prompts": {n: prompt_hash(n) for n in ("planner.j2", "watcher_header.j2", "checker.j2", "analyst_intro.j2")}}
    metrics = run_browse(world["questions"], lambda: VideoBrowser(index, models, videos, memory, cfg), models,
                         folder / "bench", protocol=protocol)
    echo(f"answers: accuracy {metrics['accuracy']:.0%} ({metrics['judge_method']} judge), exact match {metrics['exact_match']:.0%}, "
         f"calibration error {metrics['calibration_error']:.1%}, cumulative recall {metrics['cumulative_recall']:.0%}, "
         f"watched {metrics['watched_rate']:.0%}")
    echo(f"benchmark outputs: {(folder / 'bench').resolve()}  (summary.md, predictions.jsonl, metrics.json, "
         f"reliability.png, genres.png, traces/)")
    echo(f"try: vidsleuth ask \"{json.loads(world['questions'].read_text().splitlines()[0])['question']}\" "
         f"-i {(folder / 'index').resolve()} --memory {(folder / 'memory').resolve()} --library {library.resolve()}")
    return {"comparison": comparison, "metrics": metrics}
