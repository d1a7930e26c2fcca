"""The document relevance gate (``report.relevance``) calibrated leave-one-set-out.

    python benchmarks/bench_relevance.py /work/heldout /work/heldout2 /work/heldout3 /work/heldout4 \\
        --libraries L1 L2 L3 L4

Each set is a folder ``SET/report/TASK/`` with ``video.mp4``, ``request.txt``, ``docs/`` and a
``truth.json`` that lists the task's ``irrelevant_docs`` and its known (document, anchor) ``pairs``.
Every task is read as ``vidsleuth report`` reads it (the video's timeline through the library, the
documents through the documents source) and each document's signals are measured once. Then, for
each set in turn, the gate's thresholds are fitted on the OTHER sets' labels (the most documents
dropped with no relevant document lost; ties go to the strictest thresholds) and measured on the
held-out set: precision and recall of "irrelevant", and the known pairs the dropped relevant
documents would cost. The last line measures the shipped default ``Gate()`` on every set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from pathlib import Path

GRID = {"outlier": (-99.0, -8.0, -6.0, -5.0, -4.5, -4.0, -3.5, -3.0),
        "foreign": (-99.0, -3.0, -2.0, -1.0, -0.5, 0.0, 1.0, 99.0),
        "software": (0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 9.0),
        "software_outlier": (-99.0, -4.0, -3.0, -2.5, -2.0, -1.5, -1.0, 0.0)}


def measure(sets: list[Path], libraries: list[Path]) -> list[dict]:
    """One row per document: its set, task, label, known pairs and signals."""
    from vidsleuth.models.embed import LocalEmbedder
    from vidsleuth.report.pipeline import prepare, read_timeline
    from vidsleuth.report.relevance import documents_of, signals, video_subject
    from vidsleuth.report.sources.documents import DocumentSource

    embedder, rows = LocalEmbedder(), []
    for root, library in zip(sets, libraries):
        for task in sorted(p for p in (root / "report").iterdir() if (p / "truth.json").is_file()):
            truth = json.loads((task / "truth.json").read_text(encoding="utf-8"))
            request = (task / "request.txt").read_text(encoding="utf-8").strip()
            with tempfile.TemporaryDirectory() as tmp:
                setup = prepare(task / "video.mp4", request, out=Path(tmp) / "r", docs=task / "docs", library=library,
                                browser=False)
            timeline = read_timeline(setup)
            docs = documents_of(DocumentSource(task / "docs").gather().passages)
            subject, text = video_subject(setup.title, request, timeline)
            pairs: dict[str, int] = {}
            for p in truth["pairs"]:
                pairs[p["doc"]] = pairs.get(p["doc"], 0) + 1
            for s in signals(docs, subject, embedder, video_text=text):
                name = Path(s.location).name
                rows.append({"set": root.name, "task": task.name, "doc": name, "irrelevant": name in truth["irrelevant_docs"],
                             "pairs": pairs.get(name, 0), "signals": s})
            print(f"{root.name}/{task.name}: {len(docs)} documents", file=sys.stderr, flush=True)
    return rows


def score(rows: list[dict], gate) -> dict:
    from vidsleuth.report.relevance import decide

    dropped = [r for r in rows if not decide(r["signals"], gate).keep]
    tp = sum(r["irrelevant"] for r in dropped)
    return {"dropped": len(dropped), "tp": tp, "fp": len(dropped) - tp, "irrelevant": sum(r["irrelevant"] for r in rows),
            "lost_pairs": sum(r["pairs"] for r in dropped if not r["irrelevant"]),
            "wrong": [f"{r['task']}/{r['doc']}" for r in dropped if not r["irrelevant"]]}


def fit(rows: list[dict]):
    """The thresholds that drop the most irrelevant documents of ``rows`` losing no relevant one;
    among those, the strictest (lowest standings, highest software share)."""
    from vidsleuth.report.relevance import Gate

    best, key = Gate(outlier=-99, foreign=-99, software=9, software_outlier=-99), (-1, 0.0)
    for values in itertools.product(*GRID.values()):
        gate = Gate(**dict(zip(GRID, values)))
        s = score(rows, gate)
        if s["fp"]:
            continue
        k = (s["tp"], -(gate.outlier + gate.foreign + gate.software_outlier) + gate.software)
        if k > key:
            best, key = gate, k
    return best


def line(name: str, s: dict) -> str:
    precision = s["tp"] / s["dropped"] if s["dropped"] else 1.0
    recall = s["tp"] / s["irrelevant"] if s["irrelevant"] else 1.0
    return (f"{name:<12} dropped {s['dropped']:>2}  irrelevant {s['tp']:>2}/{s['irrelevant']:<2}  precision {precision:4.0%}  "
            f"recall {recall:4.0%}  relevant dropped {s['fp']}  known pairs lost {s['lost_pairs']}"
            + (f"  ({', '.join(s['wrong'])})" if s["wrong"] else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", type=Path, nargs="+", help="development sets, each with report/TASK/truth.json")
    ap.add_argument("--libraries", type=Path, nargs="*", default=[],
                    help="one vidsleuth library per set (cached timelines); default: a new one per set under --out")
    ap.add_argument("--out", type=Path, default=Path("bench-output/relevance"))
    args = ap.parse_args()
    from vidsleuth.report.relevance import Gate

    libraries = args.libraries or [args.out / f"library-{s.name}" for s in args.sets]
    if len(libraries) != len(args.sets):
        ap.error("give one --libraries folder per set")
    rows = measure(args.sets, libraries)
    names = [s.name for s in args.sets]
    total = {"dropped": 0, "tp": 0, "fp": 0, "irrelevant": 0, "lost_pairs": 0, "wrong": []}
    for held in names:
        gate = fit([r for r in rows if r["set"] != held])
        s = score([r for r in rows if r["set"] == held], gate)
        print(f"fold {held}: fitted on the others {gate}")
        print("  " + line(held, s))
        for k in total:
            total[k] += s[k]
    print(line("all folds", total))
    for held in names:
        print("default " + line(held, score([r for r in rows if r["set"] == held], Gate())))
    print("default " + line("all", score(rows, Gate())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
