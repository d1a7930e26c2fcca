"""One reader layer for every JSON and JSONL file vidsleuth reads.

Before anything is parsed, a file is read bounded (``vidsleuth.files.read_bytes``: no device, no
file over the size limit) and its nesting depth is counted without recursion, so 100,000 nested
brackets are one line, not a ``RecursionError``. ``NaN``, ``Infinity`` and numbers that overflow to
infinity (``1e400``) are refused: Python's json accepts them, and they poison every mean. A schema
(a pydantic model) then names the file, the line and the field path of each problem, with a "did
you mean" for a misspelt key.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from pathlib import Path
from typing import Any, Iterator, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import DataFileError
from ..files import MAX_TEXT_BYTES, decode_text, read_bytes

MAX_DEPTH = 64  # nesting levels of one JSON value (the deepest real file is a rubric: about 8)
MAX_LINE_BYTES = 16 * 1024 * 1024  # one JSONL line
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
M = TypeVar("M", bound=BaseModel)


class _Refused(ValueError):
    pass


def _constant(name: str):
    raise _Refused(f"{name} is not a number vidsleuth accepts (only finite numbers)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{text} overflows to infinity (only finite numbers)")
    return value


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of a JSON text, counted without recursion (strings skipped); stops
    counting once past ``limit``."""
    if text.count("[") + text.count("{") <= limit:
        return 0  # cannot be deeper than the limit: no scan needed
    level = deepest = 0
    for m in _TOKENS.finditer(text):
        c = m.group(0)[0]
        if c in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif c in "]}":
            level -= 1
    return deepest


_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*(-?Infinity|NaN|-?[0-9][0-9.eE+-]*)')


def _key_of_non_finite(text: str) -> str:
    """The key whose value is NaN, Infinity or overflows (to name the field in the message)."""
    for m in _PAIR.finditer(text):
        try:
            if not math.isfinite(float(m.group(2).replace("Infinity", "inf"))):
                return m.group(1)
        except ValueError:
            continue
    return ""


def loads(text: str, path: str | Path, line: int | None = None, *, max_depth: int = MAX_DEPTH,
          finite: bool = True) -> Any:
    """A JSON value from ``text`` or a DataFileError naming the file and line: not JSON, too deep,
    or (``finite``) holding NaN/Infinity. Predictions are read with ``finite=False``: a NaN there
    is a prediction that did not parse, counted as such, not a broken file."""
    if depth(text, max_depth) > max_depth:
        raise DataFileError(path, line, f"nested more than {max_depth} levels deep: refused before parsing",
                            hint="is this the right file?")
    try:
        if not finite:
            return json.loads(text)
        return json.loads(text, parse_constant=_constant, parse_float=_float)
    except _Refused as exc:
        key = _key_of_non_finite(text)
        raise DataFileError(path, line, f"{key}: {exc}" if key else str(exc)) from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if line is None else f"column {exc.colno}"
        raise DataFileError(path, line, f"not valid JSON ({exc.msg} at {where})",
                            hint="each line must be one JSON object" if line else None) from None
    except RecursionError:  # pragma: no cover - the depth check runs first
        raise DataFileError(path, line, "nested too deeply") from None


def _field_names(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names (and aliases) of the model at ``loc`` inside ``model``, for "did you mean"."""
    import typing

    current: Any = model
    for part in loc:
        if isinstance(part, int) or not (isinstance(current, type) and issubclass(current, BaseModel)):
            args = [a for a in typing.get_args(current) if isinstance(a, type) and issubclass(a, BaseModel)]
            current = args[0] if args else current
            if isinstance(part, int):
                continue
        fields = getattr(current, "model_fields", {})
        if part not in fields:
            by_alias = {f.alias: f for f in fields.values() if f.alias}
            if part not in by_alias:
                return []
            info = by_alias[part]
        else:
            info = fields[part]
        current = info.annotation
        args = [a for a in typing.get_args(current) if isinstance(a, type) and issubclass(a, BaseModel)]
        if args:
            current = args[0]
    fields = getattr(current, "model_fields", {}) if isinstance(current, type) else {}
    return [n for n in fields] + [f.alias for f in fields.values() if f.alias]


def explain(exc: ValidationError, model: type[BaseModel], limit: int = 5) -> str:
    """Pydantic's errors as ``field.path: problem`` (with "did you mean" for unknown keys)."""
    parts = []
    for err in exc.errors()[:limit]:
        loc = tuple(err["loc"])
        where = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in loc).replace(".[", "[") or "(top)"
        if err["type"] == "extra_forbidden":
            names = _field_names(model, loc[:-1])
            close = difflib.get_close_matches(str(loc[-1]), names, n=1, cutoff=0.6)
            parts.append(f"{where}: unknown key" + (f"; did you mean '{close[0]}'?" if close else ""))
        else:
            parts.append(f"{where}: {err['msg']}")
    more = len(exc.errors()) - limit
    return "; ".join(parts) + (f"; … {more} more" if more > 0 else "")


def validate(model: type[M], value: Any, path: str | Path, line: int | None = None, *, where: str = "") -> M:
    """``value`` checked against ``model``, or a DataFileError naming file, line and field
    (``where`` names the record inside the file, e.g. a video id)."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise DataFileError(path, line, (f"{where}: " if where else "") + explain(exc, model)) from None


def read_json(path: str | Path, model: type[M] | None = None, *, what: str = "JSON file",
              max_bytes: int = MAX_TEXT_BYTES, max_depth: int = MAX_DEPTH):
    """One JSON file: bounded, depth-checked, finite numbers only, then (with ``model``) checked."""
    text = decode_text(read_bytes(path, what, max_bytes=max_bytes), path, what)
    if not text.strip():
        raise DataFileError(path, None, f"the {what} is empty")
    value = loads(text, path, max_depth=max_depth)
    return validate(model, value, path) if model is not None else value


def iter_json_lines(path: str | Path, *, what: str = "JSONL file", max_bytes: int = MAX_TEXT_BYTES,
                    max_depth: int = MAX_DEPTH, finite: bool = True) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-empty line of a JSONL file, each line bounded and checked."""
    text = decode_text(read_bytes(path, what, max_bytes=max_bytes), path, what)
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_BYTES:
            raise DataFileError(path, n, f"a line of more than {MAX_LINE_BYTES // (1024 * 1024)} MB")
        yield n, loads(line, path, n, max_depth=max_depth, finite=finite)


def read_jsonl(path: str | Path, model: type[M] | None = None, *, what: str = "JSONL file",
               allow_empty: bool = False) -> list[tuple[int, Any]]:
    """(line number, value or model) of every line; an empty file is an error unless ``allow_empty``."""
    rows = [(n, validate(model, v, path, n) if model is not None else v) for n, v in iter_json_lines(path, what=what)]
    if not rows and not allow_empty:
        raise DataFileError(path, None, f"the {what} holds no line: nothing to read")
    return rows
