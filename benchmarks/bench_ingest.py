"""Ingest throughput on a generated 3-minute 1280x720 clip with continuous motion, changing
captions and speech: real-time factor per stage and end to end, with quality beside speed.

    python benchmarks/bench_ingest.py [--seconds 180]

Measured side by side in one run:
- each stage alone (ASR, OCR at 1 fps, shots), and the previous sequential-ASR call
  (``WhisperModel.transcribe`` with VAD, the call vidsleuth used before the batched pipeline);
- end to end with the stages one after another (``parallel_stages=False``) and side by side
  (the default), each into a fresh library;
- quality: the share of spoken sections found in the transcript, its word error rate, and the
  share of captions read exactly (with their spaces) inside their time span.
Writes ``benchmarks/results/bench_ingest.json`` with the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()


def make_clip(path: Path, seconds: int) -> dict:
    from vidsleuth import synth

    fps = 25
    captions, speech = [], []
    for k, t in enumerate(range(0, seconds - 4, 6)):
        captions.append(synth.Caption(t + 0.5, t + 5.5, f"STATION {k + 1} VALUE {(7 * k + 11) % 90 + 10}",
                                      size=40, y="h-text_h-40"))
    for k, t in enumerate(range(1, seconds - 6, 8)):
        speech.append(synth.Speech(float(t), f"Section {k + 1}. The reading is {NUMBERS[(3 * k + 2) % 16]} units."))
    spec = synth.ClipSpec(shots=(synth.Shot(seconds * fps, pattern="testsrc2"),), fps=fps, width=1280, height=720,
                          captions=tuple(captions), speech=tuple(speech), gop=50)
    if not path.exists():
        synth.make_clip(path, spec)
    return {"captions": [(c.start, c.end, c.text) for c in captions], "speech": [(s.start, s.text) for s in speech]}


def sections_heard(text: str, n: int) -> int:
    found = {int(x) for x in re.findall(r"section (\d+)", text.lower())}
    return sum(1 for k in range(1, n + 1) if k in found)


def caption_recall(ocr, captions) -> float:
    hit = 0
    for start, end, text in captions:
        if any(s.text == text and s.start < end and s.end > start for s in ocr):
            hit += 1
    return hit / max(1, len(captions))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=180)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "vidsleuth-bench-ingest")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    clip = args.work / f"clip-{args.seconds}s-720p.mp4"
    truth = make_clip(clip, args.seconds)
    ref = " ".join(t for _, t in truth["speech"])
    n_sections = len(truth["speech"])

    from vidsleuth import __version__
    from vidsleuth.library import IngestOptions, ingest
    from vidsleuth.media import extract_audio
    from vidsleuth.perception import asr
    from vidsleuth.perception.asr import word_error_rate as wer
    from vidsleuth.perception.ocr import read_video_text
    from vidsleuth.perception.shots import detect_shots

    out: dict = {"clip": {"seconds": args.seconds, "size": "1280x720", "fps": 25, "content": "testsrc2 motion, a caption "
                          "change every 6 s, a spoken section every 8 s"}, "stages": {}, "end_to_end": {}}
    asr._load(asr.choose_model("en"))  # model load is not part of a stage's time (it is once per process)
    t = time.perf_counter()
    speech = asr.transcribe(clip)
    s_asr = time.perf_counter() - t
    text = " ".join(s.text for s in speech)
    out["stages"]["asr (batched, now)"] = {"seconds": round(s_asr, 2), "rtf": round(args.seconds / s_asr, 1),
                                           "sections_heard": f"{sections_heard(text, n_sections)}/{n_sections}",
                                           "wer": round(wer(ref, text), 3)}
    samples = extract_audio(clip).samples
    t = time.perf_counter()
    old, _ = asr._load(asr.choose_model("en")).transcribe(samples, language="en", beam_size=5, word_timestamps=True,
                                                           vad_filter=True, condition_on_previous_text=False)
    old_text = " ".join(s.text for s in old)
    s_old = time.perf_counter() - t
    out["stages"]["asr (sequential with VAD, before)"] = {
        "seconds": round(s_old, 2), "rtf": round(args.seconds / s_old, 1),
        "sections_heard": f"{sections_heard(old_text, n_sections)}/{n_sections}", "wer": round(wer(ref, old_text), 3)}
    t = time.perf_counter()
    ocr = read_video_text(clip)
    s_ocr = time.perf_counter() - t
    out["stages"]["ocr (1 fps)"] = {"seconds": round(s_ocr, 2), "rtf": round(args.seconds / s_ocr, 1),
                                    "caption_recall_exact": round(caption_recall(ocr, truth["captions"]), 3)}
    t = time.perf_counter()
    detect_shots(clip)
    s_shots = time.perf_counter() - t
    out["stages"]["shots"] = {"seconds": round(s_shots, 2), "rtf": round(args.seconds / s_shots, 1)}
    for label, parallel in (("sequential stages", False), ("parallel stages (default)", True)):
        lib = args.work / f"lib-{int(time.time() * 1000)}"
        t = time.perf_counter()
        tl = ingest(clip, lib, IngestOptions(parallel_stages=parallel))
        secs = time.perf_counter() - t
        out["end_to_end"][label] = {
            "seconds": round(secs, 2), "rtf": round(args.seconds / secs, 2),
            "sections_heard": f"{sections_heard(' '.join(s.text for s in tl.of_kind('speech')), n_sections)}/{n_sections}",
            "caption_recall_exact": round(caption_recall(tl.of_kind("ocr"), truth["captions"]), 3)}
    seq, par = out["end_to_end"]["sequential stages"], out["end_to_end"]["parallel stages (default)"]
    out["speedup_parallel_vs_sequential"] = round(seq["seconds"] / par["seconds"], 2)
    out["speedup_asr_batched_vs_sequential"] = round(s_old / s_asr, 1)
    out["protocol"] = {"vidsleuth": __version__, "python": sys.version.split()[0], "platform": platform.platform(),
                       "cpus": os.cpu_count(), "asr": "faster-whisper tiny.en int8, BatchedInferencePipeline beam 5 batch 8",
                       "ocr": "RapidOCR PP-OCRv4, line crops scaled to 96 px", "shots": "PySceneDetect content 27"}
    print(f"\n3-minute 1280x720 clip ({args.seconds} s); real-time factor = video seconds / wall seconds")
    print("| part | seconds | x real time | quality |")
    print("|---|---|---|---|")
    for name, r in {**out["stages"], **out["end_to_end"]}.items():
        q = ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("seconds", "rtf"))
        print(f"| {name} | {r['seconds']} | {r['rtf']} | {q} |")
    print(f"parallel vs sequential stages: {out['speedup_parallel_vs_sequential']}x; "
          f"batched vs sequential ASR: {out['speedup_asr_batched_vs_sequential']}x")
    dest = ROOT / "results" / "bench_ingest.json"
    dest.write_text(json.dumps(out, indent=2))
    print(f"written: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
