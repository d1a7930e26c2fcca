"""Reading intervals, boxes and option letters out of free-form model answers.

Each parser returns None when it finds nothing it trusts; the caller counts that as unparsed
and scores it 0. Nothing here guesses a default answer.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ModelOutputError
from ..models.jsonout import extract_json

_NUM = r"(\d+(?:\.\d+)?)"
_CLOCK = r"(\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?)"


def clock_to_seconds(text: str) -> float:
    parts = [float(p) for p in text.split(":")]
    seconds = 0.0
    for p in parts:
        seconds = seconds * 60 + p
    return seconds


def _json_interval(value: Any) -> list[float] | None:
    if isinstance(value, dict):
        for a, b in (("start", "end"), ("start_time", "end_time"), ("begin", "end"), ("from", "to")):
            if a in value and b in value:
                try:
                    return [_to_seconds(value[a]), _to_seconds(value[b])]
                except (TypeError, ValueError):
                    return None
        for key in ("interval", "timestamps", "time", "answer", "span"):
            if key in value:
                return _json_interval(value[key])
        return None
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, (int, float, str)) for v in value):
            try:
                return [_to_seconds(value[0]), _to_seconds(value[1])]
            except (TypeError, ValueError):
                return None
        if value and isinstance(value[0], (list, dict)):
            return _json_interval(value[0])
    return None


def _to_seconds(v: Any) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    s = str(v).strip().rstrip("s").strip()
    return clock_to_seconds(s) if ":" in s else float(s)


_PATTERNS = [
    re.compile(rf"{_CLOCK}\s*(?:-|–|—|to|until)\s*{_CLOCK}", re.I),
    re.compile(rf"from\s+{_NUM}\s*(?:s|sec|secs|seconds)?\s*(?:to|until|-|–)\s*{_NUM}", re.I),
    re.compile(rf"between\s+{_NUM}\s*(?:s|sec|secs|seconds)?\s*and\s*{_NUM}", re.I),
    re.compile(rf"{_NUM}\s*(?:s|sec|secs|seconds)?\s*(?:-|–|—|to)\s*{_NUM}\s*(?:s|sec|secs|seconds)?", re.I),
]


def parse_interval(text: str) -> list[float] | None:
    """[start, end] in seconds from JSON ({"start": 12.3, "end": 15}, [12.3, 15]), "from 12.3 to
    15.0 seconds", "12.3-15.0", "between 3 and 7 s" or clock times "01:05 - 01:20"."""
    if not text:
        return None
    try:
        found = _json_interval(extract_json(text))
        if found is not None:
            return found
    except ModelOutputError:
        pass
    for pat in _PATTERNS:
        m = pat.search(text)
        if m:
            a, b = m.group(1), m.group(2)
            return [clock_to_seconds(a) if ":" in a else float(a), clock_to_seconds(b) if ":" in b else float(b)]
    return None


def parse_boxes(text: str, frame_size: tuple[int, int] | None = None, box_format: str = "auto") -> list[list[float]] | None:
    """Two boxes [x1, y1, x2, y2] (start and end) in pixels. ``box_format``: ``pixel``, ``norm1``
    (0-1), ``norm1000`` (0-1000, Qwen3-VL style) or ``auto`` (0-1 values are normalised, larger
    ones pixels)."""
    if not text:
        return None
    boxes: list[list[float]] = []
    try:
        data = extract_json(text)
        if isinstance(data, dict):
            keys = [k for k in ("start_box", "end_box") if k in data] or [k for k in ("start", "end") if k in data]
            boxes = [data[k] for k in keys] if keys else data.get("boxes") or data.get("bbox") or []
        elif isinstance(data, list):
            boxes = data if data and isinstance(data[0], (list, dict)) else []
        boxes = [b.get("bbox") or b.get("box") if isinstance(b, dict) else b for b in boxes]
        boxes = [[float(v) for v in b] for b in boxes if isinstance(b, list) and len(b) == 4]
    except (ModelOutputError, TypeError, ValueError):
        boxes = []
    if len(boxes) < 2:
        groups = re.findall(rf"\[?\(?\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s*,\s*{_NUM}\s*\)?\]?", text)
        boxes = [[float(v) for v in g] for g in groups]
    if len(boxes) < 2:
        return None
    boxes = boxes[:2]
    flat = [v for b in boxes for v in b]
    fmt = box_format
    if fmt == "auto":
        fmt = "norm1" if max(flat) <= 1.0 else "pixel"
    if fmt in ("norm1", "norm1000"):
        if not frame_size:
            return None
        scale = 1.0 if fmt == "norm1" else 1000.0
        w, h = frame_size
        boxes = [[b[0] / scale * w, b[1] / scale * h, b[2] / scale * w, b[3] / scale * h] for b in boxes]
    return [[min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])] for b in boxes]


_PREFIXES = ("the best answer is", "the correct answer is", "the answer is", "the answer", "best answer:",
             "best option:", "the best option is", "the correct option is", "answer:", "option")


def parse_option(text: str, options: list[str] | None = None, letters: str = "ABCDE") -> str | None:
    """An option letter, by priority: JSON {"answer": "C"}; "answer is C" / "Option (c)"; None if
    several different letters stand alone ("A or B"); a letter at the start ("B.", "(B)") or in
    brackets; a lone letter; the text of exactly one option."""
    if not text:
        return None
    s = text.strip()
    try:
        data = extract_json(s)
        if isinstance(data, dict):
            for key in ("answer", "Answer", "option", "choice"):
                v = data.get(key)
                if isinstance(v, str) and v.strip()[:1].upper() in letters and (len(v.strip()) == 1 or v.strip()[1:2] in ".):"):
                    return v.strip()[0].upper()
    except ModelOutputError:
        pass
    cls = f"[{letters}]"
    # "answer is C", "Option: (c)": lower case only in brackets ("the answer is a bit unclear").
    m = re.search(rf"(?i:answer|option)\s*(?i:is|:)?\s*(?:\(([{letters}{letters.lower()}])\)|({cls})\b)", s)
    if m:
        return (m.group(1) or m.group(2)).upper()
    lowered = s.lower()
    for p in _PREFIXES:
        if lowered.startswith(p):
            s = s[len(p):].strip()
            break
    lone = re.findall(rf"(?<![A-Za-z]){cls}(?![A-Za-z])", s)
    if len(set(lone)) > 1:
        return None  # "A or B": ambiguous
    for pat in (rf"^\(?({cls})\)?(?:[.):\s]|$)", rf"[\(\[]({cls})[\)\]]"):
        m = re.search(pat, s)
        if m:
            return m.group(1).upper()
    if lone:
        return lone[0]
    if options:
        hits = [letters[i] for i, opt in enumerate(options) if opt and opt.lower() in lowered]
        if len(hits) == 1:
            return hits[0]
    return None
