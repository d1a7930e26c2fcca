"""Benchmark data: OmniCompass-style instances (validated, line-numbered errors) and loaders
for the public temporal-grounding formats (QVHighlights, Charades-STA, ActivityNet Captions)."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataFileError
from ..files import read_text
from ..search.corpus import iter_jsonl

TASKS = ("TG", "SG", "QA")
TRACKS = ("VL", "AV")
LETTERS = "ABCDE"


@dataclass(frozen=True)
class Instance:
    """One OmniCompass instance: the same target under a Text and a Text+Image specification."""

    id: str
    video: str
    task: str
    track: str
    text: str
    text_prime: str = ""
    ref_image: str = ""
    domain: str = ""
    category: str = ""
    duration: float = 0.0
    interval: tuple[float, float] | None = None  # TG truth, or the SG interval
    boxes: tuple[tuple[float, ...], ...] | None = None  # SG truth at start and end
    frame_size: tuple[int, int] | None = None
    options: tuple[str, ...] = field(default_factory=tuple)
    answer: str = ""

    @property
    def paired(self) -> bool:
        return bool(self.text_prime and self.ref_image)


def _fail(problems: list[str], n: int, msg: str) -> None:
    problems.append(f"line {n}: {msg}")


def _finite(x: Any, minimum: float = 0.0) -> bool:
    """A real number (not a bool, NaN or Infinity, which Python's json accepts) of at least ``minimum``."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= minimum


def _num_pair(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and len(v) == 2 and all(_finite(x) for x in v)


def read_instances(path: str | Path) -> list[Instance]:
    """Instances JSONL; every bad line is reported by number and field."""
    base = Path(path).parent
    problems: list[str] = []
    out: list[Instance] = []
    seen: set[str] = set()
    for n, d in iter_jsonl(path):
        if not isinstance(d, dict):
            _fail(problems, n, "not a JSON object")
            continue
        before = len(problems)
        for key in ("id", "video", "task", "text"):
            if not isinstance(d.get(key), str) or not d.get(key):
                _fail(problems, n, f"field '{key}' is missing or not a non-empty string")
        task, track = d.get("task"), d.get("track", "VL")
        if task not in TASKS:
            _fail(problems, n, f"field 'task' must be one of {', '.join(TASKS)}")
        if track not in TRACKS:
            _fail(problems, n, "field 'track' must be VL or AV")
        if not isinstance(d.get("duration"), (int, float)) or d.get("duration", 0) <= 0:
            _fail(problems, n, "field 'duration' must be a positive number of seconds")
        if bool(d.get("text_prime")) != bool(d.get("ref_image")):
            _fail(problems, n, "'text_prime' and 'ref_image' go together (the Text+Image setting)")
        if task in ("TG", "SG") and not _num_pair(d.get("interval")):
            _fail(problems, n, "field 'interval' must be [start, end] in seconds")
        if task == "SG":
            boxes = d.get("boxes")
            if not (isinstance(boxes, list) and len(boxes) == 2 and all(isinstance(b, list) and len(b) == 4 for b in boxes)):
                _fail(problems, n, "field 'boxes' must be two boxes [x1, y1, x2, y2] (start, end) in pixels")
            if not _num_pair(d.get("frame_size")):
                _fail(problems, n, "field 'frame_size' must be [width, height]")
        if task == "QA":
            opts = d.get("options")
            if not (isinstance(opts, list) and len(opts) == 5 and all(isinstance(o, str) for o in opts)):
                _fail(problems, n, "field 'options' must be five strings")
            if d.get("answer") not in tuple(LETTERS):
                _fail(problems, n, "field 'answer' must be a letter A-E")
        if isinstance(d.get("id"), str) and d["id"] in seen:
            _fail(problems, n, f"duplicate id '{d.get('id')}'")
        if len(problems) > before:
            continue
        seen.add(d["id"])
        ref = d.get("ref_image") or ""
        out.append(Instance(
            id=d["id"], video=str((base / d["video"]) if not Path(d["video"]).is_absolute() else d["video"]),
            task=task, track=track, text=d["text"], text_prime=d.get("text_prime") or "",
            ref_image=str(base / ref) if ref and not Path(ref).is_absolute() else ref,
            domain=d.get("domain") or "", category=d.get("category") or "", duration=float(d["duration"]),
            interval=tuple(d["interval"]) if d.get("interval") else None,
            boxes=tuple(tuple(b) for b in d["boxes"]) if d.get("boxes") else None,
            frame_size=tuple(d["frame_size"]) if d.get("frame_size") else None,
            options=tuple(d.get("options") or ()), answer=d.get("answer") or ""))
    if problems:
        raise DataFileError(path, None, f"{len(problems)} bad line(s): " + "; ".join(problems[:20]))
    return out


# --------------------------------------------------------------------------- public TG formats

GroundTruth = dict[str, dict]  # id -> {"gt": [[s, e], …], "duration": float | None}
Predictions = dict[str, list[list[float]]]  # id -> ranked windows


def load_gt(path: str | Path, fmt: str, durations: str | Path | None = None) -> GroundTruth:
    """Ground truth by id; an empty file is an error (never a report of n = 0)."""
    if fmt not in GT_LOADERS:
        from ..limits import choice

        choice(fmt, GT_LOADERS, option="--format", what="ground-truth format")
    gt = GT_LOADERS[fmt](Path(path), durations)
    if not gt:
        raise DataFileError(path, None, "holds no ground truth: nothing to score")
    return gt


def _native_gt(path: Path, _durations) -> GroundTruth:
    out = {}
    for n, d in iter_jsonl(path):
        if not isinstance(d, dict) or "id" not in d or not isinstance(d.get("gt"), list) or not d["gt"] \
                or not all(_num_pair(w) for w in d["gt"]):
            raise DataFileError(path, n, 'expected {"id", "gt": [[s, e], …], "duration"} with finite times >= 0')
        if d.get("duration") is not None and not (_finite(d["duration"]) and d["duration"] > 0):
            raise DataFileError(path, n, f"duration {d['duration']!r} is not a positive finite number of seconds")
        out[str(d["id"])] = {"gt": d["gt"], "duration": d.get("duration")}
    return out


def _qvh_gt(path: Path, _durations) -> GroundTruth:
    out = {}
    for n, d in iter_jsonl(path):
        if not isinstance(d, dict) or "qid" not in d or "relevant_windows" not in d:
            raise DataFileError(path, n, "a QVHighlights line needs 'qid' and 'relevant_windows'")
        if not isinstance(d["relevant_windows"], list) or not all(_num_pair(w) for w in d["relevant_windows"]):
            raise DataFileError(path, n, "relevant_windows must be [[start, end], …] with finite times >= 0")
        out[str(d["qid"])] = {"gt": d["relevant_windows"], "duration": d.get("duration")}
    return out


def _charades_durations(path) -> dict[str, float]:
    if not path:
        return {}
    out = {}
    with io.StringIO(read_text(path, "CSV file"), newline="") as fh:
        reader = csv.DictReader(fh)
        if not reader.fieldnames or "id" not in reader.fieldnames or "length" not in reader.fieldnames:
            raise DataFileError(path, 1, f"needs the columns 'id' and 'length' (has {', '.join(reader.fieldnames or [])})",
                                hint="give Charades_v1_*.csv")
        for row in reader:
            if not row.get("length"):
                continue
            try:
                length = float(row["length"])
            except ValueError:
                length = math.nan
            if not (math.isfinite(length) and length > 0):
                raise DataFileError(path, reader.line_num, f"length {row['length']!r} is not a positive number of seconds")
            out[row["id"]] = length
    return out


def _charades_gt(path: Path, durations) -> GroundTruth:
    lengths = _charades_durations(durations)
    out = {}
    with io.StringIO(read_text(path, "Charades-STA file")) as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            head, _, sentence = line.partition("##")
            parts = head.split()
            if len(parts) != 3 or not sentence.strip():
                raise DataFileError(path, n, "expected 'VID start end##sentence'")
            try:
                s, e = float(parts[1]), float(parts[2])
            except ValueError:
                raise DataFileError(path, n, "start/end are not numbers") from None
            if not _num_pair([s, e]):
                raise DataFileError(path, n, "start/end must be finite times >= 0")
            # Ids are the 0-based line index among annotation lines, as most Charades-STA code uses.
            out[str(len(out))] = {"gt": [[s, e]], "duration": lengths.get(parts[0]), "video": parts[0],
                                  "sentence": sentence.strip()}
    return out


def _activitynet_gt(path: Path, _durations) -> GroundTruth:
    from ..schemas import ActivityNetEntry, read_json, validate

    data = read_json(path, what="ActivityNet Captions file")
    if not isinstance(data, dict):
        raise DataFileError(path, None, "expected a JSON object of video id -> {duration, timestamps, sentences}")
    out = {}
    for vid, d in data.items():
        validate(ActivityNetEntry, d, path, where=f"video {vid!r}")  # a list, NaN or text times: named, not a traceback
        if not isinstance(d, dict):  # pragma: no cover - validate refuses it
            continue
        for i, (window, sentence) in enumerate(zip(d.get("timestamps", []), d.get("sentences", []))):
            out[f"{vid}#{i}"] = {"gt": [window], "duration": d.get("duration"), "sentence": sentence.strip()}
    return out


GT_LOADERS = {"native": _native_gt, "qvhighlights": _qvh_gt, "charades": _charades_gt, "activitynet": _activitynet_gt}


def load_predictions(path: str | Path, fmt: str) -> tuple[Predictions, int]:
    """Ranked windows per id, and how many lines had none (unparsed)."""
    out: Predictions = {}
    empty = 0
    for n, d in iter_jsonl(path, finite=False):  # a NaN window is an unparsed prediction
        if not isinstance(d, dict):
            raise DataFileError(path, n, "not a JSON object")
        key = "qid" if fmt == "qvhighlights" else "id"
        windows = d.get("pred_relevant_windows") if fmt == "qvhighlights" else d.get("pred")
        if key not in d:
            raise DataFileError(path, n, f"no '{key}'")
        # a window that is not two finite numbers is not a prediction (NaN, Infinity, text): unparsed
        wins = [w[:2] for w in (windows if isinstance(windows, list) else []) if isinstance(w, list) and len(w) >= 2
                and _num_pair(w[:2])]
        if not wins:
            empty += 1
        out[str(d[key])] = wins
    return out, empty


# --------------------------------------------------------------------------- id -> value files


def read_pairs(path: str | Path, key: str, check=None) -> dict[str, Any]:
    """id -> the value of ``key`` for each JSONL line (``metrics boxes`` / ``metrics qa`` files).
    ``check(value)`` returns a problem ('' when fine), which is an error naming the line (ground
    truth); without ``check`` every value is kept for the caller to parse (predictions)."""
    out = {}
    for n, d in iter_jsonl(path, finite=check is not None):  # predictions: NaN is unparsed, not an error
        if not isinstance(d, dict) or "id" not in d:
            raise DataFileError(path, n, "needs 'id'")
        value = d.get(key)
        if check is not None:
            problem = check(value)
            if problem:
                raise DataFileError(path, n, f"{key}: {problem}")
        out[str(d["id"])] = value
    if not out:
        raise DataFileError(path, None, "holds no rows: nothing to score")
    return out


def box_pair_problem(v: Any) -> str:
    """'' for ``[[x1, y1, x2, y2] at the start, [x1, y1, x2, y2] at the end]`` of finite numbers."""
    ok = (isinstance(v, list) and len(v) == 2 and all(isinstance(b, list) and len(b) == 4 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in b) for b in v))
    return "" if ok else "expected [[x1, y1, x2, y2] at the start, [x1, y1, x2, y2] at the end] of finite numbers"


def option_letter_problem(v: Any) -> str:
    """'' for one option letter A..J (any case, surrounding spaces allowed)."""
    ok = isinstance(v, str) and len(v.strip()) == 1 and v.strip().upper() in "ABCDEFGHIJ"
    return "" if ok else "expected one option letter"
