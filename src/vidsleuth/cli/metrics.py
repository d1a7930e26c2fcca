"""Verbs that score files: metrics grounding, boxes, qa, compass, calibration."""

from __future__ import annotations

from pathlib import Path

from ..bench.score import boxes_metrics, calibration_metrics, compass_metrics, grounding_metrics, qa_metrics
from ..limits import arg
from . import verb


def _files_args(p, gt: bool = True):
    p.add_argument("--pred", type=Path, required=True, help="predictions file")
    if gt:
        p.add_argument("--gt", type=Path, required=True, help="ground truth file")


def metrics_text(m: dict, args=None) -> str:
    lines = []
    for key, v in m.items():
        if key == "Average":
            v = " / ".join(f"{s} {x:.4f}" for s, x in v.items() if x is not None)
        if not isinstance(v, dict):
            lines.append(f"{key:32s} {v:.4f}" if isinstance(v, float) else f"{key:32s} {v}")
    return "\n".join(lines)


def _grounding_args(p):
    _files_args(p)
    p.add_argument("--format", default="native", choices=["native", "qvhighlights", "charades", "activitynet"],
                   help="grounding file format (default native)")
    p.add_argument("--durations", type=Path, help="Charades_v1_test.csv-style video lengths (charades, for --clip)")
    p.add_argument("--clip", action="store_true", help="clip intervals to [0, duration] (official scripts do not)")


@verb("metrics grounding", "temporal grounding: R1@0.3/0.5/0.7 and mIoU (native, QVHighlights, Charades-STA, ActivityNet)",
      args=_grounding_args, text=metrics_text)
def _metrics_grounding(args):
    return grounding_metrics(args.gt, args.pred, format=args.format, durations=args.durations, clip=args.clip)


@verb("metrics boxes", "spatial grounding: AP@0.5 and mIoU over start/end boxes", args=_files_args, text=metrics_text)
def _metrics_boxes(args):
    return boxes_metrics(args.gt, args.pred)


@verb("metrics qa", "multiple-choice accuracy (answers parsed by the seed's priority rules)", args=_files_args,
      text=metrics_text)
def _metrics_qa(args):
    return qa_metrics(args.gt, args.pred)


def _compass_args(p):
    _files_args(p, gt=False)
    p.add_argument("--data", type=Path, required=True, help="instances JSONL")
    p.add_argument("--box-format", default="auto", choices=["auto", "pixel", "norm1", "norm1000"])


@verb("metrics compass", "OmniCompass scores of a predictions file: per setting, CS_TG/SG/QA, CS_Avg, Average",
      args=_compass_args, text=metrics_text)
def _metrics_compass(args):
    return compass_metrics(args.data, args.pred, box_format=args.box_format)


def _calibration_args(p):
    p.add_argument("--input", type=Path, required=True, help='JSONL lines {"correct": bool, "confidence": number|null}')
    p.add_argument("--bins", type=arg("bins"), default=5)


@verb("metrics calibration", "calibration error (seed 001 App. A.6.2) of a file of answers", args=_calibration_args,
      text=lambda m, a: f"n {m['n']}  accuracy {m['accuracy']:.4f}  calibration error {m['calibration_error']:.4f}")
def _metrics_calibration(args):
    return calibration_metrics(args.input, bins=args.bins)
