"""Typed schemas of every data file, and the one reader layer that applies them.

Why pydantic v2 and not msgspec. Both validate typed records fast enough for these files (the
largest is a corpus of some 10^5 lines). What decided it:

* **error messages**: pydantic reports *every* problem of a record with its field path
  (``dimensions.0.directions.2.leaves.1.check``) and a type tag (``extra_forbidden``) that lets
  us add the "did you mean"; msgspec stops at the first problem (``at `$.tokens_in```).
* **JSON Schema export**: ``Model.model_json_schema()`` is what the MCP SDK (itself built on
  pydantic) publishes for tools; msgspec's schema would be a second, parallel definition.
* **NaN/inf**: ``allow_inf_nan=False`` per model or field; msgspec's JSON decoder already rejects
  ``NaN`` literals, but we parse before validating anyway (depth and size limits come first), and
  our parser rejects them for every reader, schema or not.
* **extra="forbid"**: both have it; pydantic's error names the key so the reader suggests the
  closest field.
* **dependencies**: pydantic is installed (the MCP SDK needs it); msgspec would be one more.

msgspec's speed (5-10x) does not matter here: parsing is bounded by reading the file.
"""

from __future__ import annotations

from .data import (
    ActivityNetEntry,
    BrowseTrace,
    CompassInstance,
    ConfigFile,
    CorpusRecord,
    EndpointConfig,
    GroundingPrediction,
    GroundTruthRow,
    IndexDocs,
    IndexMeta,
    MemoryCardRow,
    MemoryMeta,
    Question,
    QVHighlightsRow,
    ReportShape,
    RubricTree,
    TrajectoryEvent,
)
from .read import MAX_DEPTH, depth, explain, iter_json_lines, loads, read_json, read_jsonl, validate

SCHEMAS = {"corpus": CorpusRecord, "question": Question, "ground_truth": GroundTruthRow,
           "qvhighlights": QVHighlightsRow, "activitynet": ActivityNetEntry, "prediction": GroundingPrediction,
           "compass_instance": CompassInstance, "trajectory_event": TrajectoryEvent, "browse_trace": BrowseTrace,
           "index_meta": IndexMeta, "index_docs": IndexDocs, "memory_card": MemoryCardRow, "memory_meta": MemoryMeta,
           "rubric": RubricTree, "report": ReportShape, "config": ConfigFile, "endpoint": EndpointConfig}


def json_schema(name: str) -> dict:
    """The JSON Schema of one data format (for the MCP tools and the docs)."""
    return SCHEMAS[name].model_json_schema(by_alias=True)


__all__ = ["MAX_DEPTH", "SCHEMAS", "depth", "explain", "iter_json_lines", "json_schema", "loads", "read_json",
           "read_jsonl", "validate", *sorted(m.__name__ for m in SCHEMAS.values())]
