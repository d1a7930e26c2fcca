"""Omni-ART rubric trees (seed 000 §3.2, App. A.2): report → dimensions (content, citation,
presentation) → directions → atomic binary leaves, as versioned JSON.

```json
{"schema": "vidsleuth.rubric/1", "task": "bread-0",
 "dimensions": [{"name": "content", "weight": 0.5, "directions": [
   {"name": "fact_coverage", "weight": 0.4, "saturation": 4, "cap": 0.4, "leaves": [
     {"id": "fc1", "kind": "judge", "question": "Does the report say the oven guidance was revised to 250 °C?",
      "material": "findings", "fact": {"text": "...", "must": ["250 °C"], "with": ["updates"]}},
     {"id": "fc2", "kind": "machine", "check": "claims_cited", "gate": true}]}]}]}
```

- a leaf is ``judge`` (a question for the judge, tied to a fact record; ``must`` / ``with``, lists
  of values, let the offline rules judge decide it) or ``machine`` (a deterministic check on the
  report: a spec of ``vidsleuth.report.check.CHECKS``, e.g. ``citations``, ``browser``, or a count
  ``min_cited_sources:N`` / ``min_timestamps:N`` / ``min_findings:N``);
- ``gate: true`` on a leaf: if it fails, its direction scores 0 (only that direction);
- ``saturation: N`` on a direction: N passing leaves give full credit (the evidence budget), more
  give no more; ``cap`` bounds the direction's share of its dimension's weight;
- ``guard: LEAF_ID`` on a citation leaf: an N/A verdict counts as N/A only when that content leaf
  failed (nothing to cite); otherwise N/A is read as No.

``problems`` reports every problem with the node's path (``dimensions[0].directions[2].leaves[1]``):
wrong types and ranges, unknown keys (with the key meant: ``gaet`` -> ``gate``), two dimensions or
two directions of one dimension with the same name, weights that are all 0, a guard that names no
leaf, the leaf itself, or a cycle of guards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataFileError

SCHEMA = "vidsleuth.rubric/1"
DIMENSIONS = ("content", "citation", "presentation")
MATERIALS = ("all", "summary", "observations", "findings", "sources")


@dataclass(frozen=True)
class Leaf:
    id: str
    kind: str  # judge | machine
    question: str = ""
    material: str = "all"
    fact: dict = field(default_factory=dict)
    check: str = ""
    gate: bool = False
    guard: str = ""


@dataclass(frozen=True)
class Direction:
    name: str
    leaves: tuple[Leaf, ...]
    weight: float = 1.0
    saturation: int | None = None
    cap: float | None = None


@dataclass(frozen=True)
class Dimension:
    name: str
    directions: tuple[Direction, ...]
    weight: float = 1.0


@dataclass(frozen=True)
class Rubric:
    task: str
    dimensions: tuple[Dimension, ...]
    schema: str = SCHEMA

    def leaves(self):
        for dim in self.dimensions:
            for d in dim.directions:
                for leaf in d.leaves:
                    yield dim, d, leaf


class RubricError(DataFileError):
    """A rubric file breaks the schema; the message names every bad node by its path."""


def _num(v, lo, hi) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi


KEYS = {"root": ("schema", "task", "dimensions", "description"),
        "dimension": ("name", "weight", "directions", "description"),
        "direction": ("name", "weight", "saturation", "cap", "leaves", "description"),
        "leaf": tuple(Leaf.__dataclass_fields__) + ("description",),
        "fact": ("text", "must", "with", "absent", "id", "source", "sources", "date", "note")}


def _keys(node: dict, kind: str, path: str) -> list[str]:
    """Unknown keys, each with the known key it is closest to."""
    from difflib import get_close_matches

    out = []
    for key in node:
        if key not in KEYS[kind]:
            near = get_close_matches(str(key), KEYS[kind], n=1, cutoff=0.6)
            out.append(f"{path}.{key}: unknown key" + (f" (did you mean {near[0]!r}?)" if near else
                                                       f" (a {kind} has {', '.join(KEYS[kind])})"))
    return out


def _names(items: list, path: str, what: str) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for i, item in enumerate(items):
        name = item.get("name") if isinstance(item, dict) else None
        if isinstance(name, str) and name in seen:
            out.append(f"{path}[{i}].name: {what} {name!r} is already used at {path}[{seen[name]}]")
        elif isinstance(name, str):
            seen[name] = i
    return out


def _weights(items: list, path: str) -> list[str]:
    ws = [item.get("weight", 1.0) for item in items if isinstance(item, dict)]
    if ws and all(_num(w, 0, 1e6) for w in ws) and sum(ws) == 0:
        return [f"{path}: every weight is 0, so nothing here can score"]
    return []


def _strings(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v)


def _fact(fact, r: str) -> list[str]:
    if not isinstance(fact, dict):
        return [f"{r}.fact: must be an object (the fact record the leaf is tied to)"]
    out = _keys(fact, "fact", f"{r}.fact")
    for key in ("must", "with"):
        if key in fact and not _strings(fact[key]):
            out.append(f"{r}.fact.{key}: must be a list of values" + (", not a string (write [\"250 °C\"])"
                                                                       if isinstance(fact[key], str) else ""))
    if "absent" in fact and fact["absent"] != "na":
        out.append(f"{r}.fact.absent: the only value is \"na\"")
    return out


def _leaf(leaf, r: str) -> list[str]:
    from ..report.check import spec_problem

    if not isinstance(leaf, dict):
        return [f"{r}: must be an object"]
    out = _keys(leaf, "leaf", r)
    kind = leaf.get("kind")
    if kind == "judge":
        if not isinstance(leaf.get("question"), str) or not leaf.get("question", "").strip():
            out.append(f"{r}.question: a judge leaf needs a question")
        if leaf.get("material", "all") not in MATERIALS:
            out.append(f"{r}.material: {leaf.get('material')!r} is not one of {', '.join(MATERIALS)}")
        out += _fact(leaf.get("fact", {}), r)
    elif kind == "machine":
        problem = spec_problem(str(leaf.get("check", "")))
        if problem:
            out.append(f"{r}.check: {problem}")
    else:
        out.append(f"{r}.kind: {kind!r} is not judge or machine")
    if "gate" in leaf and not isinstance(leaf["gate"], bool):
        out.append(f"{r}.gate: must be true or false")
    if "guard" in leaf and not isinstance(leaf["guard"], str):
        out.append(f"{r}.guard: must be a leaf id")
    return out


def _direction(d, q: str, ids: dict[str, str], guards: dict[str, tuple[str, str]]) -> list[str]:
    if not isinstance(d, dict):
        return [f"{q}: must be an object"]
    out = _keys(d, "direction", q)
    if not isinstance(d.get("name"), str) or not d.get("name"):
        out.append(f"{q}.name: required")
    if not _num(d.get("weight", 1.0), 0, 1e6):
        out.append(f"{q}.weight: must be a number >= 0")
    if d.get("saturation") is not None and not (isinstance(d["saturation"], int) and not isinstance(d["saturation"], bool)
                                                and d["saturation"] >= 1):
        out.append(f"{q}.saturation: must be an integer >= 1")
    if d.get("cap") is not None and not _num(d["cap"], 0, 1):
        out.append(f"{q}.cap: must be a share between 0 and 1")
    leaves = d.get("leaves")
    if not isinstance(leaves, list) or not leaves:
        return out + [f"{q}.leaves: a non-empty list is required"]
    for k, leaf in enumerate(leaves):
        r = f"{q}.leaves[{k}]"
        out += _leaf(leaf, r)
        lid = leaf.get("id") if isinstance(leaf, dict) else None
        if not isinstance(lid, str) or not lid:
            out.append(f"{r}.id: required")
        elif lid in ids:
            out.append(f"{r}.id: {lid!r} is already used at {ids[lid]}")
        else:
            ids[lid] = r
            if isinstance(leaf.get("guard"), str) and leaf["guard"]:
                guards[lid] = (r, leaf["guard"])
    return out


def _guards(ids: dict[str, str], guards: dict[str, tuple[str, str]]) -> list[str]:
    """A guard names another leaf, and following guards never comes back (no cycle)."""
    out = []
    for lid, (r, g) in guards.items():
        if g == lid:
            out.append(f"{r}.guard: the leaf guards itself")
        elif g not in ids:
            out.append(f"{r}.guard: {g!r} names no leaf")
        else:
            seen, cur = [lid], g
            while cur in guards and cur not in seen:
                seen.append(cur)
                cur = guards[cur][1]
            if cur == lid:
                out.append(f"{r}.guard: a guard cycle ({' -> '.join(seen + [lid])})")
    return out


def problems(data) -> list[str]:
    """Every schema problem of a parsed rubric, each starting with its node path."""
    if not isinstance(data, dict):
        return ["(root): a rubric is a JSON object"]
    out = _keys(data, "root", "(root)")
    if data.get("schema") != SCHEMA:
        out.append(f"schema: {data.get('schema')!r} is not {SCHEMA!r}")
    if not isinstance(data.get("task"), str) or not data.get("task"):
        out.append("task: a non-empty task id is required")
    dims = data.get("dimensions")
    if not isinstance(dims, list) or not dims:
        return out + ["dimensions: a non-empty list is required"]
    out += _names(dims, "dimensions", "dimension") + _weights(dims, "dimensions")
    ids: dict[str, str] = {}
    guards: dict[str, tuple[str, str]] = {}
    for i, dim in enumerate(dims):
        p = f"dimensions[{i}]"
        if not isinstance(dim, dict):
            out.append(f"{p}: must be an object")
            continue
        out += _keys(dim, "dimension", p)
        if dim.get("name") not in DIMENSIONS:
            out.append(f"{p}.name: {dim.get('name')!r} is not one of {', '.join(DIMENSIONS)}")
        if not _num(dim.get("weight", 1.0), 0, 1e6):
            out.append(f"{p}.weight: must be a number >= 0")
        dirs = dim.get("directions")
        if not isinstance(dirs, list) or not dirs:
            out.append(f"{p}.directions: a non-empty list is required")
            continue
        out += _names(dirs, f"{p}.directions", "direction") + _weights(dirs, f"{p}.directions")
        for j, d in enumerate(dirs):
            out += _direction(d, f"{p}.directions[{j}]", ids, guards)
    return out + _guards(ids, guards)


def read_rubric_json(path: str | Path):
    """The parsed JSON of a rubric file (not yet validated); a missing, binary or malformed file
    is one error naming the file and line."""
    from ..files import read_text

    try:
        return json.loads(read_text(path, "rubric"))
    except json.JSONDecodeError as exc:
        raise RubricError(path, exc.lineno, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise RubricError(path, None, "nested too deep to be a rubric tree") from None


def load_rubric(path: str | Path) -> Rubric:
    path = Path(path)
    data = read_rubric_json(path)
    found = problems(data)
    if found:
        raise RubricError(path, None, "; ".join(found[:8]) + (f"; … {len(found) - 8} more" if len(found) > 8 else ""),
                          hint="`vidsleuth rubric validate FILE` lists them all")
    return from_dict(data)


def from_dict(data: dict) -> Rubric:
    return Rubric(task=data["task"], schema=data["schema"], dimensions=tuple(
        Dimension(name=dim["name"], weight=float(dim.get("weight", 1.0)), directions=tuple(
            Direction(name=d["name"], weight=float(d.get("weight", 1.0)), saturation=d.get("saturation"),
                      cap=d.get("cap"), leaves=tuple(Leaf(**{k: v for k, v in leaf.items() if k in Leaf.__dataclass_fields__})
                                                     for leaf in d["leaves"]))
            for d in dim["directions"]))
        for dim in data["dimensions"]))


def validate_rubric(path: str | Path) -> dict:
    """Every problem of a rubric file, each named by its node path, and (when there are none) its
    counts: dimensions, directions, leaves, gates. Unreadable JSON is an error naming the line."""
    data = read_rubric_json(path)
    found = problems(data)
    if found:
        return {"file": str(path), "valid": False, "problems": found}
    rubric = from_dict(data)
    leaves = list(rubric.leaves())
    return {"file": str(path), "valid": True, "problems": [], "dimensions": len(rubric.dimensions),
            "directions": sum(len(d.directions) for d in rubric.dimensions), "leaves": len(leaves),
            "gates": sum(1 for _, _, leaf in leaves if leaf.gate)}
