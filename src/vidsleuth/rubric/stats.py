"""Statistics for report evaluation (seed 000 App. F.1, F.5, F.7).

- ``paired_bootstrap``: the 95 % interval of the mean difference between two systems over the same
  tasks, resampling tasks with replacement (reproducible under a seed).
- ``trajectory_stats``: steps, tool errors, tokens, time, and F.7's interleaving rule — at least 30 %
  of searches after the first write and at least four write blocks — over a trajectory: this
  project's report and browse runs, or any agent's JSONL events (one object per line)::

      {"type": "search" | "read" | "write" | "tool" | "model" | "check", "error": false,
       "tokens_in": 0, "tokens_out": 0, "seconds": 0.0}

  ``type`` is required; the rest default to 0/false. A *write block* is a maximal run of
  consecutive ``write`` events.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import DataFileError

INTERLEAVE_SHARE = 0.30
INTERLEAVE_BLOCKS = 4
EVENT_TYPES = ("search", "read", "write", "tool", "model", "check")


def paired_bootstrap(a: list[float], b: list[float], *, n: int = 10_000, seed: int = 0, level: float = 0.95) -> dict:
    """Mean of ``a - b`` over paired tasks and its bootstrap interval."""
    if len(a) != len(b) or not a:
        raise ValueError("paired scores need the same, non-zero number of tasks")
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(d), size=(n, len(d)))
    means = d[idx].mean(axis=1)
    lo, hi = np.percentile(means, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return {"difference": round(float(d.mean()), 4), "low": round(float(lo), 4), "high": round(float(hi), 4),
            "level": level, "resamples": n, "seed": seed, "tasks": len(d),
            "wins": int((d > 0).sum()), "losses": int((d < 0).sum()), "ties": int((d == 0).sum())}


def read_events(path: str | Path) -> list[dict]:
    """Events of a JSONL trajectory, each line checked (the file and line are named)."""
    from ..schemas import TrajectoryEvent, iter_json_lines, validate

    events = []
    for n, e in iter_json_lines(path, what="trajectory"):  # bounded, depth-checked, finite numbers only
        if not isinstance(e, dict) or e.get("type") not in EVENT_TYPES:
            raise DataFileError(path, n, f"type must be one of {', '.join(EVENT_TYPES)}")
        validate(TrajectoryEvent, e, path, n)  # tokens_in: "abc", seconds: -1 … named by field
        events.append(e)
    if not events:
        raise DataFileError(path, None, "holds no event: nothing to summarise")
    return events


def trajectory_stats(events: list[dict]) -> dict:
    types = [e["type"] for e in events]
    first_write = next((i for i, t in enumerate(types) if t == "write"), None)
    searches = [i for i, t in enumerate(types) if t == "search"]
    after = sum(1 for i in searches if first_write is not None and i > first_write)
    blocks = sum(1 for i, t in enumerate(types) if t == "write" and (i == 0 or types[i - 1] != "write"))
    share = after / len(searches) if searches else 0.0
    return {"steps": len(events), "searches": len(searches), "writes": types.count("write"),
            "tool_errors": sum(1 for e in events if e.get("error")),
            "tokens_in": sum(int(e.get("tokens_in", 0)) for e in events),
            "tokens_out": sum(int(e.get("tokens_out", 0)) for e in events),
            "seconds": round(sum(float(e.get("seconds", 0.0)) for e in events), 3),
            "searches_after_first_write": round(share, 3), "write_blocks": blocks,
            "interleaved": share >= INTERLEAVE_SHARE and blocks >= INTERLEAVE_BLOCKS}


def events_of(path: str | Path) -> list[dict]:
    """Events from a JSONL file, a report folder (its ``trajectory.jsonl``) or a browse trace (JSON)."""
    p = Path(path)
    if p.is_dir():
        if (p / "trajectory.jsonl").is_file():
            return read_events(p / "trajectory.jsonl")
        raise DataFileError(p, None, "no trajectory.jsonl in this folder", hint="give a report folder or a JSONL file")
    if p.suffix == ".json":
        from ..schemas import BrowseTrace, read_json, validate

        data = read_json(p, what="trace")
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
            raise DataFileError(p, None, "not a browse trace (no steps)", hint="give a trace from a bench browse traces/ folder")
        validate(BrowseTrace, data, p)
        steps = data["steps"]
        kind = {"searcher": "search", "react-browse": "search", "watcher": "read", "react-watch": "read", "analyst": "write"}
        return [{"type": kind.get(str(s.get("role", "")), "model"),
                 "error": any(w in str(s.get("note", "")).lower() for w in ("error", "failed", "unparseable", "invalid")),
                 "tokens_in": s.get("tokens_in", 0), "tokens_out": s.get("tokens_out", 0),
                 "seconds": s.get("seconds", 0.0)} for s in steps]
    return read_events(p)
