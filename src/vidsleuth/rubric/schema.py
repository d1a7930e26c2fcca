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

- a leaf is ``judge`` (a question for the judge, tied to a fact record; ``must`` / ``with`` let the
  offline rules judge decide it) or ``machine`` (a deterministic check on the report: a name of
  ``vidsleuth.report.check.CHECKS``, ``browser``, or a count ``min_cited_sources:N`` /
  ``min_timestamps:N`` / ``min_findings:N``);
- ``gate: true`` on a leaf: if it fails, its direction scores 0 (only that direction);
- ``saturation: N`` on a direction: N passing leaves give full credit (the evidence budget), more
  give no more; ``cap`` bounds the direction's share of its dimension's weight;
- ``guard: LEAF_ID`` on a citation leaf: an N/A verdict counts as N/A only when that content leaf
  failed (nothing to cite); otherwise N/A is read as No.

``validate`` reports every problem with the node's path (``dimensions[0].directions[2].leaves[1]``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataFileError

SCHEMA = "vidsleuth.rubric/1"
DIMENSIONS = ("content", "citation", "presentation")
MATERIALS = ("all", "summary", "observations", "findings", "sources")
COUNT_CHECKS = ("min_cited_sources", "min_timestamps", "min_findings")


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


def problems(data) -> list[str]:
    """Every schema problem of a parsed rubric, each starting with its node path."""
    from ..report.check import CHECKS

    out: list[str] = []
    if not isinstance(data, dict):
        return ["(root): a rubric is a JSON object"]
    if data.get("schema") != SCHEMA:
        out.append(f"schema: {data.get('schema')!r} is not {SCHEMA!r}")
    if not isinstance(data.get("task"), str) or not data.get("task"):
        out.append("task: a non-empty task id is required")
    dims = data.get("dimensions")
    if not isinstance(dims, list) or not dims:
        return out + ["dimensions: a non-empty list is required"]
    ids: dict[str, str] = {}
    guards: list[tuple[str, str]] = []
    for i, dim in enumerate(dims):
        p = f"dimensions[{i}]"
        if not isinstance(dim, dict):
            out.append(f"{p}: must be an object")
            continue
        if dim.get("name") not in DIMENSIONS:
            out.append(f"{p}.name: {dim.get('name')!r} is not one of {', '.join(DIMENSIONS)}")
        if not _num(dim.get("weight", 1.0), 0, 1e6):
            out.append(f"{p}.weight: must be a number >= 0")
        dirs = dim.get("directions")
        if not isinstance(dirs, list) or not dirs:
            out.append(f"{p}.directions: a non-empty list is required")
            continue
        for j, d in enumerate(dirs):
            q = f"{p}.directions[{j}]"
            if not isinstance(d, dict):
                out.append(f"{q}: must be an object")
                continue
            if not isinstance(d.get("name"), str) or not d.get("name"):
                out.append(f"{q}.name: required")
            if not _num(d.get("weight", 1.0), 0, 1e6):
                out.append(f"{q}.weight: must be a number >= 0")
            if d.get("saturation") is not None and not (isinstance(d["saturation"], int) and d["saturation"] >= 1):
                out.append(f"{q}.saturation: must be an integer >= 1")
            if d.get("cap") is not None and not _num(d["cap"], 0, 1):
                out.append(f"{q}.cap: must be a share between 0 and 1")
            leaves = d.get("leaves")
            if not isinstance(leaves, list) or not leaves:
                out.append(f"{q}.leaves: a non-empty list is required")
                continue
            for k, leaf in enumerate(leaves):
                r = f"{q}.leaves[{k}]"
                if not isinstance(leaf, dict):
                    out.append(f"{r}: must be an object")
                    continue
                lid = leaf.get("id")
                if not isinstance(lid, str) or not lid:
                    out.append(f"{r}.id: required")
                elif lid in ids:
                    out.append(f"{r}.id: {lid!r} is already used at {ids[lid]}")
                else:
                    ids[lid] = r
                kind = leaf.get("kind")
                if kind == "judge":
                    if not isinstance(leaf.get("question"), str) or not leaf.get("question", "").strip():
                        out.append(f"{r}.question: a judge leaf needs a question")
                    if leaf.get("material", "all") not in MATERIALS:
                        out.append(f"{r}.material: {leaf.get('material')!r} is not one of {', '.join(MATERIALS)}")
                    if not isinstance(leaf.get("fact", {}), dict):
                        out.append(f"{r}.fact: must be an object (the fact record the leaf is tied to)")
                elif kind == "machine":
                    chk = str(leaf.get("check", ""))
                    name, _, n = chk.partition(":")
                    if name in COUNT_CHECKS:
                        if not n.isdigit():
                            out.append(f"{r}.check: {chk!r} needs a count, e.g. {name}:3")
                    elif chk not in CHECKS and chk != "browser":
                        out.append(f"{r}.check: {chk!r} is not a report check "
                                   f"({', '.join(list(CHECKS) + ['browser'] + [c + ':N' for c in COUNT_CHECKS])})")
                else:
                    out.append(f"{r}.kind: {kind!r} is not judge or machine")
                if "gate" in leaf and not isinstance(leaf["gate"], bool):
                    out.append(f"{r}.gate: must be true or false")
                if leaf.get("guard"):
                    guards.append((r, leaf["guard"]))
    for r, g in guards:
        if g not in ids:
            out.append(f"{r}.guard: {g!r} names no leaf")
    return out


def read_rubric_json(path: str | Path):
    """The parsed JSON of a rubric file (not yet validated); a missing, binary or malformed file
    is one error naming the file and line."""
    from ..files import read_text

    try:
        return json.loads(read_text(path, "rubric"))
    except json.JSONDecodeError as exc:
        raise RubricError(path, exc.lineno, f"not valid JSON ({exc.msg} at column {exc.colno})") from None


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
