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


def run_demo(out: str | Path = "demo-output", *, echo=print) -> dict[str, Path]:
    """Generate the demo clips under ``out/clips`` (kept when present), ingest them into
    ``out/library`` and write each timeline to ``out/timelines``."""
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
    return made
