"""Grounding and QA metrics: temporal IoU, box IoU, recall at thresholds, and OmniCompass's
cross-specification consistency scores (seed 002 §3.1).

Conventions, stated once:
- Temporal IoU uses the hull as the union (max end - min start), as the official QVHighlights /
  Moment-DETR evaluator does; it is 0 when the hull is 0 (two identical zero-length intervals).
- Ground truth is used as given (not clipped to the video length), like the official scripts;
  ``clip=True`` clips both prediction and ground truth to [0, duration].
- A reversed prediction (end < start) is swapped, and counted.
- With several ground-truth windows (QVHighlights), the top-1 prediction is scored against the
  window it overlaps best.
- Box IoU is in continuous coordinates: (x2 - x1) * (y2 - y1), no +1 pixel.
- An unparseable answer scores 0 and is counted, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

Interval = Sequence[float]
Box = Sequence[float]
THRESHOLDS = (0.3, 0.5, 0.7)


def tiou(a: Interval, b: Interval) -> float:
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    hull = max(a[1], b[1]) - min(a[0], b[0])
    return inter / hull if hull > 0 else 0.0


def box_iou(a: Box, b: Box) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def best_window_iou(pred: Interval, gts: Iterable[Interval]) -> float:
    return max((tiou(pred, g) for g in gts), default=0.0)


def normalise_interval(pred: Interval, duration: float | None = None, clip: bool = False) -> tuple[tuple[float, float], bool]:
    """(interval, was_reversed)."""
    s, e = float(pred[0]), float(pred[1])
    swapped = e < s
    if swapped:
        s, e = e, s
    if clip and duration:
        s, e = min(max(s, 0.0), duration), min(max(e, 0.0), duration)
    return (s, e), swapped


@dataclass(frozen=True)
class GroundingResult:
    ious: list[float]
    unparsed: int
    reversed: int

    def metrics(self) -> dict:
        arr = np.array(self.ious, dtype=float)
        n = len(arr)
        out = {f"R1@{t}": float((arr >= t).mean()) if n else 0.0 for t in THRESHOLDS}
        out.update({"mIoU": float(arr.mean()) if n else 0.0, "n": n, "unparsed": self.unparsed,
                    "reversed": self.reversed})
        return out


def score_grounding(items: list[dict], *, clip: bool = False) -> GroundingResult:
    """``items``: {"gt": [[s, e], …], "pred": [[s, e], …] ranked best first, or None, "duration"}."""
    ious, unparsed, rev = [], 0, 0
    for it in items:
        preds = it.get("pred") or []
        if not preds:
            ious.append(0.0)
            unparsed += 1
            continue
        pred, swapped = normalise_interval(preds[0], it.get("duration"), clip)
        rev += swapped
        gts = [normalise_interval(g, it.get("duration"), clip)[0] for g in it["gt"]]
        ious.append(best_window_iou(pred, gts))
    return GroundingResult(ious, unparsed, rev)


def score_boxes(items: list[dict]) -> dict:
    """``items``: {"gt": [box_start, box_end], "pred": [box_start, box_end] or None}. AP@0.5 is the
    share of endpoint boxes with IoU >= 0.5; mIoU averages both endpoints."""
    ious, unparsed = [], 0
    for it in items:
        pred = it.get("pred")
        if not pred or len(pred) != 2:
            ious.extend([0.0, 0.0])
            unparsed += 1
            continue
        ious.extend(box_iou(p, g) for p, g in zip(pred, it["gt"]))
    arr = np.array(ious, dtype=float)
    return {"AP@0.5": float((arr >= 0.5).mean()) if len(arr) else 0.0, "mIoU": float(arr.mean()) if len(arr) else 0.0,
            "n": len(items), "unparsed": unparsed}


def score_qa(items: list[dict]) -> dict:
    correct = [it.get("pred") is not None and it["pred"] == it["gt"] for it in items]
    return {"accuracy": float(np.mean(correct)) if correct else 0.0, "n": len(items),
            "unparsed": sum(it.get("pred") is None for it in items)}


# --------------------------------------------------------------------------- consistency


def cs_tg(pairs: list[tuple[Interval | None, Interval | None, Interval]]) -> float:
    """mean_i min(g_T, g_TI, a): tIoU of each prediction with the truth and of the two predictions."""
    vals = []
    for p_t, p_ti, gt in pairs:
        if p_t is None or p_ti is None:
            vals.append(0.0)
            continue
        a, _ = normalise_interval(p_t)
        b, _ = normalise_interval(p_ti)
        vals.append(min(tiou(a, gt), tiou(b, gt), tiou(a, b)))
    return float(np.mean(vals)) if vals else 0.0


def cs_sg(pairs: list[tuple[list | None, list | None, list]]) -> float:
    """(1 / 2N) sum_i sum_{k in start, end} min(g_T,k, g_TI,k, a_k)."""
    vals = []
    for p_t, p_ti, gt in pairs:
        for k in (0, 1):
            if not p_t or not p_ti or len(p_t) != 2 or len(p_ti) != 2:
                vals.append(0.0)
                continue
            vals.append(min(box_iou(p_t[k], gt[k]), box_iou(p_ti[k], gt[k]), box_iou(p_t[k], p_ti[k])))
    return float(np.mean(vals)) if vals else 0.0


def cs_qa(pairs: list[tuple[str | None, str | None, str]]) -> float:
    vals = [p_t is not None and p_t == p_ti == gt for p_t, p_ti, gt in pairs]
    return float(np.mean(vals)) if vals else 0.0
