"""Whisper with and without the punctuated opening (``asr.STYLE_PROMPT``), side by side in one run.

tiny.en sometimes writes a whole 30-s window without a full stop or a capital, and the timeline then
holds one line for three claims (an anchor's moment became the window's 30 s). Given a short
punctuated opening with no number or topic in it, Whisper writes in its style. Measured on generated
narrations with known text (Piper's "joe" voice where the ``voices`` extra is installed, else
espeak-ng), sentences 0.3-0.6 s apart (under the 1-s pause that splits lines), and on a clip with no
speech (chords and noise) where an echoed opening would show:

- before (no opening, lines split at long pauses only), none (split at sentence ends too), style (both);
- word error rate (jiwer, on lower-cased words without punctuation);
- lines that span two sentences' spoken times, and the longest line in seconds;
- words heard on the no-speech clip; seconds per narration.

    python benchmarks/bench_asr_prompt.py [--narrations 4] [--out benchmarks/results/bench_asr_prompt.json]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

SENTENCES = [
    "First, soak the stone in water for about ten minutes.", "Then set the pump to forty litres per hour.",
    "Check the seal on the lid every three weeks.", "The red kayak weighs fourteen and a half kilograms.",
    "Let the dough rest for forty minutes before you shape it.", "Keep the room between forty and fifty percent humidity.",
    "Tighten the axle nut to ninety four newton metres.", "The night train leaves from platform eleven at nine fifteen.",
    "Water the lawn with about one inch each week.", "Hold the blade at twenty degrees on each side.",
    "A good edge should last about three months.", "Replace the filter after six hundred hours of use.",
    "Our guide today is called Marta, and she grew up in Kelso.", "Tickets for the Saturday concert cost sixty dollars.",
    "Smoke the brisket at two hundred and twenty five degrees Fahrenheit.", "Reapply every two hours, and after swimming.",
]


def _narration(path: Path, sentences: list[str], rng: random.Random):
    from vidsleuth import synth
    from vidsleuth.synth.voices import english_voice

    voice = english_voice()
    starts, t = [], 0.5
    for s in sentences:
        samples, rate = synth.piper(s) if voice == "piper" else synth.espeak(s, voice)
        starts.append(t)
        t += len(samples) / rate + rng.uniform(0.3, 0.6)
    spec = synth.ClipSpec(shots=(synth.Shot(int((t + 2) * 10), "0x203060"),), fps=10, width=320, height=180,
                          speech=tuple(synth.Speech(a, s, voice=voice) for a, s in zip(starts, sentences)))
    return synth.audio_only(spec, path), voice


def _no_speech(path: Path, seconds: float = 20.0, rate: int = 16000):
    """Chords that change every two seconds under soft noise: music-like sound with no words."""
    rng = np.random.default_rng(0)
    t = np.arange(int(seconds * rate)) / rate
    sig = np.zeros_like(t)
    for k in range(int(seconds // 2)):
        part = (t >= 2 * k) & (t < 2 * k + 2)
        for f in rng.choice([220, 262, 330, 392, 440, 523], 3, replace=False):
            sig[part] += 0.15 * np.sin(2 * np.pi * f * t[part])
    sig += 0.02 * rng.standard_normal(t.size)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        w.writeframes((np.clip(sig, -1, 1) * 32767).astype("<i2").tobytes())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--narrations", type=int, default=4)
    ap.add_argument("--out", default="benchmarks/results/bench_asr_prompt.json")
    args = ap.parse_args(argv)
    import jiwer

    from vidsleuth.perception import asr
    from vidsleuth.perception.asr import STYLE_PROMPT, transcribe

    rng = random.Random(7)
    rows = {"before": [], "none": [], "style": []}  # before: no opening, lines split at pauses only
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.narrations):
            said = rng.sample(SENTENCES, 8)
            path = Path(tmp) / f"n{i}.wav"
            spans, voice = _narration(path, said, rng)
            for name, prompt in (("before", None), ("none", None), ("style", "style")):
                ends, asr.SENTENCE_END = asr.SENTENCE_END, (() if name == "before" else asr.SENTENCE_END)
                t0 = time.perf_counter()
                try:
                    segs = transcribe(path, language="en", prompt=prompt)
                finally:
                    asr.SENTENCE_END = ends
                secs = time.perf_counter() - t0
                norm = lambda s: " ".join("".join(c for c in s.lower() if c.isalnum() or c.isspace()).split())  # noqa: E731
                wer = jiwer.wer(norm(" ".join(said)), norm(" ".join(s.text for s in segs)))
                across = sum(1 for g in segs if len([p for p in spans if p.start < g.end - 0.2 and p.end > g.start + 0.2]) > 1)
                rows[name].append({"wer": round(wer, 4), "lines": len(segs), "lines_across_sentences": across,
                                   "longest_s": round(max(g.end - g.start for g in segs), 2), "seconds": round(secs, 2)})
        quiet = Path(tmp) / "chords.wav"
        _no_speech(quiet)
        echoed = {name: " ".join(s.text for s in transcribe(quiet, language="en", prompt=p))
                  for name, p in (("before", None), ("none", None), ("style", "style"))}
    print(f"{'prompt':8} {'WER':>6} {'lines across sentences':>23} {'longest line s':>15} {'s/narration':>12}  no-speech clip heard")
    summary = {}
    for name, got in rows.items():
        s = {"wer": round(float(np.mean([r["wer"] for r in got])), 4),
             "lines_across_sentences": sum(r["lines_across_sentences"] for r in got),
             "longest_s": max(r["longest_s"] for r in got),
             "seconds": round(float(np.mean([r["seconds"] for r in got])), 2), "no_speech_heard": echoed[name]}
        summary[name] = s
        print(f"{name:8} {s['wer']:6.3f} {s['lines_across_sentences']:23d} {s['longest_s']:15.1f} {s['seconds']:12.2f}  {echoed[name]!r}")
    out = {"protocol": {"voice": voice, "narrations": args.narrations, "sentences_each": 8, "gaps_s": [0.3, 0.6],
                        "model": "tiny.en", "style_prompt": STYLE_PROMPT["en"], "seed": 7},
           "summary": summary, "rows": rows}
    Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
