"""Getting JSON out of model text: tolerant extraction, then strict validation.

Models wrap JSON in code fences, put prose around it, leave trailing commas or use single
quotes. Extraction forgives those; validation against the caller's JSON schema does not, and its
message is what the repair turn shows the model.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from ..errors import ModelOutputError

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _candidates(text: str) -> list[str]:
    out = [m.group(1) for m in _FENCE.finditer(text)]
    # Balanced spans starting at each { or [, outermost first.
    for opener, closer in (("{", "}"), ("[", "]")):
        start = text.find(opener)
        while start != -1:
            depth, in_str, quote, esc = 0, False, "", False
            for i in range(start, len(text)):
                ch = text[i]
                if in_str:
                    if esc:
                        esc = False
                    elif ch == "\\":
                        esc = True
                    elif ch == quote:
                        in_str = False
                elif ch in "\"'":
                    in_str, quote = True, ch
                elif ch == opener:
                    depth += 1
                elif ch == closer:
                    depth -= 1
                    if depth == 0:
                        out.append(text[start : i + 1])
                        break
            start = text.find(opener, start + 1)
    out.append(text)
    return out


def _loads(candidate: str) -> Any:
    s = candidate.strip()
    try:
        return json.loads(s)
    except ValueError:
        pass
    fixed = _TRAILING_COMMA.sub(r"\1", s)
    try:
        return json.loads(fixed)
    except ValueError:
        pass
    # Single quotes, True/False/None: a Python literal is the usual culprit.
    py = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", fixed)))
    value = ast.literal_eval(py)
    json.dumps(value)  # must be JSON-representable
    return value


def extract_json(text: str) -> Any:
    """The first JSON value found in ``text``; raises ModelOutputError when there is none."""
    for candidate in _candidates(text or ""):
        try:
            return _loads(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    raise ModelOutputError("no JSON value found in the model's answer", raw=text)


def validate(data: Any, schema: dict) -> None:
    """Raise ModelOutputError with a readable message when ``data`` breaks ``schema``."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    if errors:
        msgs = []
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.path) or "(top level)"
            msgs.append(f"{where}: {e.message}")
        raise ModelOutputError("the answer does not match the schema: " + "; ".join(msgs))


def parse(text: str, schema: dict | None) -> Any:
    data = extract_json(text)
    if schema is not None:
        try:
            validate(data, schema)
        except ModelOutputError as exc:
            exc.raw = text
            raise
    return data


def repair_prompt(error: ModelOutputError, schema: dict | None) -> str:
    shape = f"\nThe JSON schema is:\n{json.dumps(schema, ensure_ascii=False)}" if schema else ""
    return (f"Your previous answer could not be used: {error}. Reply again with ONLY a valid JSON value, "
            f"no code fences and no commentary.{shape}")
