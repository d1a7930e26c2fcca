"""Score prediction files against ground-truth files: what the ``metrics`` verbs (and MCP tools)
do, one function per verb. Predictions that cannot be read as an answer count as unparsed (0),
never dropped; ground truth that cannot be read is an error naming its line."""

from __future__ import annotations

from pathlib import Path

from ..errors import DataFileError
from ..search.corpus import iter_jsonl
from .browse import calibration, read_calibration_rows
from .compass import SETTINGS, parse_prediction, score
from .datasets import (
    box_pair_problem,
    load_gt,
    load_predictions,
    option_letter_problem,
    read_instances,
    read_pairs,
)
from .grounding import score_boxes, score_grounding, score_qa
from .parse import parse_option


def grounding_metrics(gt: str | Path, pred: str | Path, *, format: str = "native", durations: str | Path | None = None,
                      clip: bool = False) -> dict:
    """R1@0.3/0.5/0.7 and mIoU of ranked windows (native, QVHighlights, Charades-STA, ActivityNet
    files), plus how many ground-truth ids have no prediction and how many predictions no truth."""
    truth = load_gt(gt, format, durations)
    preds, _ = load_predictions(pred, format)
    items = [{"gt": g["gt"], "pred": preds.get(k), "duration": g.get("duration")} for k, g in truth.items()]
    m = score_grounding(items, clip=clip).metrics()
    m["missing"] = sum(k not in preds for k in truth)
    m["extra"] = sum(k not in truth for k in preds)
    return m


def boxes_metrics(gt: str | Path, pred: str | Path) -> dict:
    """AP@0.5 and mIoU over start/end boxes; a prediction that is not two boxes is unparsed."""
    truth = read_pairs(gt, "gt", box_pair_problem)
    preds = {k: (v if not box_pair_problem(v) else None) for k, v in read_pairs(pred, "pred").items()}
    return score_boxes([{"gt": g, "pred": preds.get(k)} for k, g in truth.items()])


def qa_metrics(gt: str | Path, pred: str | Path) -> dict:
    """Multiple-choice accuracy; predictions are free text parsed by the seed's priority rules
    (a non-string such as ``["A"]`` or 42 is unparsed)."""
    truth = {k: v.strip().upper() for k, v in read_pairs(gt, "answer", option_letter_problem).items()}
    preds = {k: (parse_option(v) if isinstance(v, str) else None) for k, v in read_pairs(pred, "pred").items()}
    return score_qa([{"gt": g, "pred": preds.get(k)} for k, g in truth.items()])


def score_file(data: str | Path, predictions: str | Path, box_format: str = "auto") -> dict:
    """Score raw predictions of both settings: lines {"id", "setting", "prediction"}."""
    instances = read_instances(data)
    by_id = {i.id: i for i in instances}
    parsed, seen = {}, set()
    for n, d in iter_jsonl(predictions, finite=False):  # a NaN in a prediction: unparsed, scored 0
        if not isinstance(d, dict) or d.get("setting") not in SETTINGS or "id" not in d:
            raise DataFileError(predictions, n, 'expected {"id", "setting": "text"|"text+image", "prediction"}')
        inst = by_id.get(str(d["id"]))
        if inst is None:
            raise DataFileError(predictions, n, f"id {d['id']!r} is not in the data")
        seen.add((inst.id, d["setting"]))
        parsed[(inst.id, d["setting"])] = parse_prediction(inst, d.get("prediction"), box_format)
    missing = {(i.id, s) for i in instances for s in SETTINGS if (s == "text" or i.paired) and (i.id, s) not in seen}
    return score(instances, parsed, missing)


def compass_metrics(data: str | Path, pred: str | Path, *, box_format: str = "auto") -> dict:
    """OmniCompass scores of a predictions file, flat: the CS scores, each setting's Average,
    ``SETTING.TASK.METRIC`` values, the consistency pairs, counts and breakdowns."""
    m = score_file(data, pred, box_format)
    flat = {f"{s}.{task}.{k}": v for s, tasks in m["settings"].items() for task, vals in tasks.items()
            if isinstance(vals, dict) for k, v in vals.items()}
    average = {s: tasks.get("Average") for s, tasks in m["settings"].items()}
    return {**m["consistency"], "Average": average, **flat, "consistency_pairs": m["consistency_pairs"],
            "counts": m["counts"], "breakdowns": m["breakdowns"]}


def calibration_metrics(path: str | Path, *, bins: int = 5) -> dict:
    """Calibration error (seed 001 App. A.6.2) of JSONL lines ``{"correct", "confidence"}``."""
    return calibration(read_calibration_rows(path), bins=bins)
