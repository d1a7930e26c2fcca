"""The one way a benchmark writes its outputs: every file atomically (``files.write_atomic``:
never half a file, credentials masked), then ``run.json`` in one shape for every benchmark:

``{"version", "benchmark", "vidsleuth", "created", "seconds", "protocol", "outputs"}``

``protocol`` is what the number depends on (data, models, prompts' hashes, budgets, seed);
``outputs`` names every file of the run and, for each figure, ``"written"`` or why it is not
(a figure is never skipped silently)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from .. import __version__
from ..files import write_atomic

RUN_VERSION = 1
WRITTEN = "written"


def jsonl(rows) -> str:
    """JSON Lines text of ``rows`` (dicts, or objects with ``to_dict``)."""
    return "".join(json.dumps(r.to_dict() if hasattr(r, "to_dict") else r, ensure_ascii=False) + "\n" for r in rows)


def run_record(benchmark: str, protocol: dict, *, seconds: float | None = None,
               outputs: dict[str, str] | None = None) -> dict:
    """The ``run.json`` of a run (see the module docstring)."""
    return {"version": RUN_VERSION, "benchmark": benchmark, "vidsleuth": __version__,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "seconds": None if seconds is None else round(seconds, 2),
            "protocol": protocol, "outputs": dict(sorted((outputs or {}).items()))}


def write_run(out: str | Path, benchmark: str, protocol: dict, *, files: dict[str, str], seconds: float | None = None,
              figures: dict[str, str] | None = None) -> dict:
    """Write ``files`` (name -> text) under ``out``, then ``run.json``, which lists them and the
    ``figures`` (name -> ``WRITTEN`` or the reason none was drawn). Returns the run record."""
    out = Path(out)
    for name, text in files.items():
        write_atomic(out / name, text)
    record = run_record(benchmark, protocol, seconds=seconds,
                        outputs={**{name: WRITTEN for name in files}, **(figures or {})})
    write_atomic(out / "run.json", json.dumps(record, indent=2, ensure_ascii=False, default=str))
    return record
