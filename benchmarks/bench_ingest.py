"""Ingest throughput on a generated 3-minute 1280x720 clip with continuous motion, changing
captions and speech: today's pipeline and the previous one side by side in one run, per stage
and end to end, with quality beside speed, peak memory, and growth with the video's length.

    python benchmarks/bench_ingest.py [--seconds 180] [--growth 60,300,1200] [--rows ...] [--pipelines ...] [--repeat N]

Measured side by side in one run (one after the other in the same process, the 1-minute load
average and the process CPU seconds recorded beside each row, so ratios hold where absolute times
under load do not):
- OCR at 1 fps: every sampled frame read whole unless nothing changed (before), only the regions
  where text can have changed (``ChangeReader``) with onnxruntime's default spinning threads (the
  12:23 code), the same with threads that sleep between calls (14:48), with recognition batches of
  crops padded to the same width (17:15; before, a frame's crops were padded to its widest), that
  with the line gate (a line read twice alike kept while its glyphs' pixels hold), with a track's
  text chosen by votes, with short lines padded to 192 px instead of 320, with votes and the gate
  (19:00), and with all three (now);
- shots: PySceneDetect's own reader (before) against the low-resolution NONREF-skipping decode with
  FFmpeg's default scaler (17:15) and its area scaler (now);
- OCR and shots with a decode each, one after the other, against one shared decode (14:48), that
  with same-width recognition batches (17:15), with the decoder's skip level set per packet and
  the area scaler, with votes and the line gate too (19:00), and with short lines padded to 192 px
  (now);
- ASR (batched; unchanged);
- end to end, each in its own process into a fresh library (model loading not counted, peak RSS
  and CPU seconds of the process reported): before, the 12:23, 14:48, 17:15 and 19:00 code, now
  with one OCR thread, and now; ``--repeat N`` runs them N times interleaved and keeps each one's fastest;
- quality: spoken sections found, word error rate, captions read exactly (spaces included) in span;
- growth: today's end to end on clips of each ``--growth`` length.
Writes ``benchmarks/results/bench_ingest.json`` with the protocol.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
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


# end-to-end pipelines: options, environment and module settings (``_apply``; each run in its own process)
# the 17:15 code: a track's most confident reading, no line gate, the decoder's skip level set from
# the last frame out, FFmpeg's default scaler for the small frames
AT_1715 = {"texttracks.TRACK_TEXT": "best", "ocr.ChangeReader.line_gate": False, "scan.SKIP_BY": "output",
           "scan.SMALL_INTERPOLATION": None, "ocr.REC_BATCH": "same-width"}
FRAME_BATCH = {**AT_1715, "ocr.REC_BATCH": "frame"}  # and a frame's crops in RapidOCR's padded batches (OCR_VERSION 5)
PIPELINES = {
    "before": ({"ocr_changed_only": False, "fast_shots": False, "shared_decode": False}, {"VIDSLEUTH_OCR_SPIN": "1"},
               FRAME_BATCH),
    "12:23 (changed regions, fast shots, ORT spinning, two decodes)": ({"shared_decode": False},
                                                                        {"VIDSLEUTH_OCR_SPIN": "1"}, FRAME_BATCH),
    "14:48 (threads sleep, one decode, padded recognition batches)": ({}, {}, FRAME_BATCH),
    "17:15 (same-width recognition batches)": ({}, {}, AT_1715),
    "19:00 (votes, line gate, packet skip, area scaler; short lines padded to 320)": ({}, {},
                                                                                      {"ocr.REC_BATCH": "same-width"}),
    "now, 1 OCR thread": ({}, {"VIDSLEUTH_OCR_THREADS": "1"}, {}),
    "now": ({}, {}, {}),
}
PREVIOUS = "17:15 (same-width recognition batches)"


def _apply(settings: dict) -> None:
    """Module settings for one pipeline: ``"ocr.REC_BATCH": "frame"`` sets ``perception.ocr.REC_BATCH``;
    keys not given keep today's defaults (``DEFAULTS``)."""
    from vidsleuth.media import scan
    from vidsleuth.perception import ocr, texttracks

    modules = {"ocr": ocr, "texttracks": texttracks, "scan": scan}
    for key, value in {**DEFAULTS, **settings}.items():
        *path, attr = key.split(".")
        target = modules[path[0]]
        for name in path[1:]:
            target = getattr(target, name)
        setattr(target, attr, value)


DEFAULTS = {"texttracks.TRACK_TEXT": "votes", "ocr.ChangeReader.line_gate": True, "scan.SKIP_BY": "packet",
            "scan.SMALL_INTERPOLATION": "AREA", "ocr.REC_BATCH": "narrow-192"}


def end_to_end(clip: Path, lib: Path, pipeline: str) -> dict:
    """One ingest in a fresh process: seconds and CPU seconds (models loaded first), peak RSS,
    timeline quality, and the 1-minute load average when it started."""
    load = round(os.getloadavg()[0], 1)
    cmd = [sys.executable, __file__, "--one", str(clip), "--lib", str(lib), "--pipeline", pipeline]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env={**os.environ, **PIPELINES[pipeline][1]})
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"end-to-end run failed: {cmd}")
    r = json.loads(out.strip().splitlines()[-1])
    r["peak_rss_mb"] = round(usage.ru_maxrss / 1024)
    r["load"] = load
    return r


def _one(clip: Path, lib: Path, pipeline: str) -> int:
    from vidsleuth.library import IngestOptions, ingest
    from vidsleuth.perception import asr, ocr

    _apply(PIPELINES[pipeline][2])
    asr._load(asr.choose_model("en"))
    ocr._engine()
    t, cpu = time.perf_counter(), _cpu()
    tl = ingest(clip, lib, IngestOptions(**PIPELINES[pipeline][0]))
    secs, cpu = time.perf_counter() - t, _cpu() - cpu
    print(json.dumps({"seconds": round(secs, 2), "cpu_seconds": round(cpu, 1), "speech": " ".join(s.text for s in tl.of_kind("speech")),
                      "ocr": [[s.start, s.end, s.text] for s in tl.of_kind("ocr")], "shots": len(tl.of_kind("shot"))}))
    return 0


def _cpu() -> float:
    """CPU seconds of this process so far, all threads (less sensitive to load than wall time)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _quality(r: dict, truth: dict) -> dict:
    from vidsleuth.perception.asr import word_error_rate as wer
    from vidsleuth.types import Segment

    n = len(truth["speech"])
    ocr = [Segment(a, b, "ocr", t) for a, b, t in r["ocr"]]
    return {"sections_heard": f"{sections_heard(r['speech'], n)}/{n}",
            "wer": round(wer(" ".join(t for _, t in truth["speech"]), r["speech"]), 3),
            "caption_recall_exact": round(caption_recall(ocr, truth["captions"]), 3), "shots": r["shots"]}


def _timed(out: dict, label: str, seconds: int, run, only: list[str]) -> None:
    """``run()`` -> quality fields, timed (wall and process CPU seconds) into ``out[label]``
    when ``only`` is empty or names part of the label."""
    if only and not any(o in label for o in only):
        return
    load, t, cpu = round(os.getloadavg()[0], 1), time.perf_counter(), _cpu()
    quality = run()
    secs = time.perf_counter() - t
    out[label] = {"seconds": round(secs, 2), "rtf": round(seconds / secs, 1), "cpu_seconds": round(_cpu() - cpu, 1),
                  **quality, "load": load}
    print(f"{label}: {out[label]}", flush=True)


def stages(clip: Path, seconds: int, truth: dict, only: list[str]) -> dict:
    """Each stage alone in this process, before and now one after the other."""
    from vidsleuth.perception import asr, ocr
    from vidsleuth.perception.asr import word_error_rate as wer
    from vidsleuth.perception.shots import detect_shots

    asr._load(asr.choose_model("en"))
    ocr._engine()
    out: dict = {}
    n = len(truth["speech"])

    def run_asr() -> dict:
        text = " ".join(s.text for s in asr.transcribe(clip))
        return {"sections_heard": f"{sections_heard(text, n)}/{n}",
                "wer": round(wer(" ".join(t for _, t in truth["speech"]), text), 3)}

    _timed(out, "asr (batched)", seconds, run_asr, only)
    engines = _engines()
    ocr_runs = (("ocr 1 fps, every frame whole, ORT spinning (before)", "spin", FRAME_BATCH, {"changed_only": False}),
                ("ocr 1 fps, changed regions, ORT spinning (12:23)", "spin", FRAME_BATCH, {"changed_only": True}),
                ("ocr 1 fps, changed regions, ORT threads sleep (14:48)", "calm", FRAME_BATCH, {"changed_only": True}),
                ("ocr 1 fps, changed regions, threads sleep, same-width recognition batches (17:15)", "calm", AT_1715,
                 {"changed_only": True}),
                ("ocr 1 fps, 17:15 + line gate (evaluated then, off)", "calm",
                 {**AT_1715, "ocr.ChangeReader.line_gate": True}, {"changed_only": True}),
                ("ocr 1 fps, 17:15 + track text by votes", "calm", {**AT_1715, "texttracks.TRACK_TEXT": "votes"},
                 {"changed_only": True}),
                ("ocr 1 fps, 17:15 + short lines padded to 192 px", "calm", {**AT_1715, "ocr.REC_BATCH": "narrow-192"},
                 {"changed_only": True}),
                ("ocr 1 fps, 17:15 + track text by votes + line gate (19:00)", "calm", {"ocr.REC_BATCH": "same-width"},
                 {"changed_only": True}),
                ("ocr 1 fps, votes + line gate + short lines padded to 192 px (now)", "calm", {}, {"changed_only": True}))
    for label, engine, settings, kw in ocr_runs:
        def run_ocr(engine=engine, settings=settings, kw=kw) -> dict:
            _apply(settings)
            ocr._ENGINE = engines[engine]
            ocr._REC_CACHE.clear()
            segs = ocr.read_video_text(clip, **kw)
            return {"caption_recall_exact": round(caption_recall(segs, truth["captions"]), 3), "segments": len(segs)}

        _timed(out, label, seconds, run_ocr, only)
    _apply({})
    ocr._ENGINE = engines["calm"]
    for label, fast, settings in (("shots, PySceneDetect reader (before)", False, AT_1715),
                                  ("shots, low-res NONREF decode, default scaler (17:15)", True, AT_1715),
                                  ("shots, low-res NONREF decode, area scaler (now)", True, {})):
        def run_shots(fast=fast, settings=settings) -> dict:
            _apply(settings)
            return {"shots": len(detect_shots(clip, fast=fast))}

        _timed(out, label, seconds, run_shots, only)
    _one_decode(out, clip, seconds, truth, only)
    return out


def _engines() -> dict:
    """OCR engines with ORT's spinning threads (the 12:23 code) and with sleeping ones (now)."""
    from vidsleuth.perception import ocr

    out = {}
    for name, spin in (("spin", "1"), ("calm", "0")):
        os.environ["VIDSLEUTH_OCR_SPIN"] = spin
        ocr._ENGINE = None
        out[name] = ocr._engine()
    os.environ.pop("VIDSLEUTH_OCR_SPIN")
    return out


def _one_decode(out: dict, clip: Path, seconds: int, truth: dict, only: list[str]) -> None:
    """OCR then shots, each with its own decode, against both from one decode (threads sleep),
    with RapidOCR's padded recognition batches and with same-width ones."""
    from vidsleuth.perception import ocr
    from vidsleuth.perception.shots import detect_shots
    from vidsleuth.perception.visual import read_visual

    runs = (("ocr + shots, two decodes one after the other", FRAME_BATCH,
             lambda: (ocr.read_video_text(clip), detect_shots(clip))),
            ("ocr + shots, one shared decode, padded recognition batches (14:48)", FRAME_BATCH, lambda: read_visual(clip)),
            ("ocr + shots, one shared decode, same-width recognition batches (17:15)", AT_1715,
             lambda: read_visual(clip)),
            ("ocr + shots, 17:15 + decoder skip level per packet, area scaler", {**AT_1715, "scan.SKIP_BY": "packet",
             "scan.SMALL_INTERPOLATION": "AREA"}, lambda: read_visual(clip)),
            ("ocr + shots, one shared decode, packet skip, votes, line gate (19:00)", {"ocr.REC_BATCH": "same-width"},
             lambda: read_visual(clip)),
            ("ocr + shots, 19:00 + short lines padded to 192 px (now)", {}, lambda: read_visual(clip)))
    for label, settings, run in runs:
        def both(settings=settings, run=run) -> dict:
            _apply(settings)
            ocr._REC_CACHE.clear()
            segs, shots = run()
            return {"caption_recall_exact": round(caption_recall(segs, truth["captions"]), 3), "segments": len(segs),
                    "shots": len(shots)}

        _timed(out, label, seconds, both, only)
    _apply({})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=180)
    ap.add_argument("--growth", default="60,300,1200", help="clip lengths (s) for the growth table; '' for none")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "vidsleuth-bench-ingest")
    ap.add_argument("--parts", default="stages,e2e,growth", help="what to measure (clips: only generate the clips)")
    ap.add_argument("--rows", default="", help="stage rows to run: comma-separated parts of their labels ('' all)")
    ap.add_argument("--pipelines", default="", help="end-to-end pipelines to run: comma-separated short names "
                    "(before, 12:23, 14:48, 'now, 1 OCR thread', now; '' all)")
    ap.add_argument("--repeat", type=int, default=1, help="end-to-end runs per pipeline, interleaved")
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--lib", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--pipeline", default="now", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        return _one(args.one, args.lib, args.pipeline)
    args.work.mkdir(parents=True, exist_ok=True)
    clip = args.work / f"clip-{args.seconds}s-720p.mp4"
    truth = make_clip(clip, args.seconds)
    parts = args.parts.split(",")
    growth = [int(x) for x in args.growth.split(",") if x.strip()] if "growth" in parts or "clips" in parts else []
    if "clips" in parts:
        for secs in growth:
            make_clip(args.work / f"clip-{secs}s-720p.mp4", secs)
        return 0
    out: dict = {"clip": {"seconds": args.seconds, "size": "1280x720", "fps": 25, "content": "testsrc2 motion, a caption "
                          "change every 6 s, a spoken section every 8 s"}, "load_before": os.getloadavg()}
    rows = [r for r in args.rows.split(",") if r]
    out["stages"] = stages(clip, args.seconds, truth, rows) if "stages" in parts else {}
    out["end_to_end"] = _end_to_ends(clip, args, truth) if "e2e" in parts else {}
    e = out["end_to_end"]
    for name, key in (("before", "speedup_end_to_end"), (list(PIPELINES)[1], "speedup_end_to_end_vs_1223"),
                      (list(PIPELINES)[2], "speedup_end_to_end_vs_1448"), (PREVIOUS, "speedup_end_to_end_vs_1715")):
        if name in e and "now" in e:
            out[key] = round(e[name]["seconds"] / e["now"]["seconds"], 2)
    out["growth"] = {}
    save(out, args.seconds)
    for secs in growth:  # saved after each length
        c = args.work / f"clip-{secs}s-720p.mp4"
        t = make_clip(c, secs)
        r = end_to_end(c, args.work / f"lib-growth-{secs}-{int(time.time() * 1000)}", "now")
        out["growth"][secs] = {"seconds": r["seconds"], "rtf": round(secs / r["seconds"], 2),
                               "cpu_seconds": r["cpu_seconds"], "load": r["load"], "peak_rss_mb": r["peak_rss_mb"],
                               **_quality(r, t)}
        save(out, args.seconds)
    return 0


def _end_to_ends(clip: Path, args, truth: dict) -> dict:
    """The chosen pipelines, each ``--repeat`` times, interleaved (A B A B: load drifts hit both);
    each pipeline's row is its fastest run, with every run's seconds and CPU seconds beside it."""
    chosen = [p for p in PIPELINES if not args.pipelines or p.split(" (")[0] in args.pipelines.split(",")]
    runs: dict[str, list] = {p: [] for p in chosen}
    for _ in range(max(1, args.repeat)):
        for pipeline in chosen:
            r = end_to_end(clip, args.work / f"lib-{pipeline}-{int(time.time() * 1000)}", pipeline)
            runs[pipeline].append(r)
            print(f"end to end, {pipeline}: {r['seconds']} s, {r['cpu_seconds']} CPU-s, load {r['load']}", flush=True)
    out = {}
    for pipeline, rs in runs.items():
        r = min(rs, key=lambda x: x["seconds"])
        out[pipeline] = {"seconds": r["seconds"], "rtf": round(args.seconds / r["seconds"], 2),
                         "cpu_seconds": r["cpu_seconds"], "load": r["load"], "peak_rss_mb": r["peak_rss_mb"],
                         **_quality(r, truth), "runs": [[x["seconds"], x["cpu_seconds"], x["load"]] for x in rs]}
    return out


def save(out: dict, seconds: int) -> None:
    from vidsleuth import __version__

    out["load_after"] = os.getloadavg()
    out["command"] = " ".join(["python", *sys.argv])
    out["protocol"] = {"vidsleuth": __version__, "python": sys.version.split()[0], "platform": platform.platform(),
                       "cpus": os.cpu_count(), "asr": "faster-whisper tiny.en int8, BatchedInferencePipeline beam 5 batch 8",
                       "ocr": "RapidOCR PP-OCRv4, line crops scaled to 96 px; ChangeReader (refresh 10); onnxruntime "
                              "threads sleep between calls (allow_spinning 0); recognition batches of crops padded "
                              "to the same width (before 14:48: a frame's crops in one padded batch); now: short "
                              "lines padded to 192 px (before: 320), line gate on, a track's text by votes",
                       "shots": "PySceneDetect content 27; NONREF-skipping decode at ~256 px; one decode shared with "
                                "OCR (media.scan); now: skip level per packet, FFmpeg's area scaler"}
    report(out, seconds)
    dest = ROOT / "results" / "bench_ingest.json"
    dest.write_text(json.dumps(out, indent=2))
    print(f"written: {dest}", flush=True)


def report(out: dict, seconds: int) -> None:
    print(f"\n{seconds}-s 1280x720 clip; x real time = video seconds / wall seconds; load {out['load_before']}")
    print("| part | seconds | x real time | CPU seconds | quality |")
    print("|---|---|---|---|---|")
    rows = {**out["stages"], **{f"end to end, {k}": v for k, v in out["end_to_end"].items()}}
    for name, r in rows.items():
        q = ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("seconds", "rtf", "cpu_seconds"))
        print(f"| {name} | {r['seconds']} | {r['rtf']} | {r.get('cpu_seconds', '')} | {q} |")
    for key in ("speedup_end_to_end", "speedup_end_to_end_vs_1223", "speedup_end_to_end_vs_1448",
                "speedup_end_to_end_vs_1715"):
        if key in out:
            print(f"{key}: {out[key]}x")
    if out["growth"]:
        print("\n| video | seconds | x real time | peak RSS MB | quality |\n|---|---|---|---|---|")
        for secs, r in out["growth"].items():
            q = ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("seconds", "rtf", "peak_rss_mb"))
            print(f"| {secs // 60} min | {r['seconds']} | {r['rtf']} | {r['peak_rss_mb']} | {q} |")


if __name__ == "__main__":
    sys.exit(main())
