"""Readers that cannot crash: arbitrary bytes and arbitrary JSON (with NaN, deep nesting, wrong
shapes, the real field names filled with wrong values) fed to every reader of a user's file. Each
must return a result or raise the project's own error (one line for the CLI), never another
exception. Bounded examples, so the file runs in well under a minute."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vidsleuth.errors import VidsleuthError

KEYS = ["id", "row_id", "qid", "video_id", "title", "question", "answer", "seed_video_ids", "duration", "gt",
        "relevant_windows", "timestamps", "sentences", "pred", "pred_relevant_windows", "type", "tokens_in",
        "seconds", "steps", "role", "task", "dimensions", "directions", "leaves", "kind", "weight", "video",
        "text", "interval", "boxes", "frame_size", "options", "confidence", "correct", "contents", "version",
        "analyzer", "ids", "titles", "index_text", "status", "anchors", "query", "docid", "rel", "tags", "path"]
SCALARS = (st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=12) | st.sampled_from(["TG", "SG", "QA", "search", "write", "judge", "ok", "A", "1:30"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=6), max_leaves=20)
RECORD = st.dictionaries(st.sampled_from(KEYS), JSON, max_size=8)
LINE = RECORD | JSON
SETTINGS = settings(max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _payloads():
    """Bytes: random, a JSONL of records, one JSON value, deep nesting, NaN tokens."""
    jsonl = st.lists(LINE, min_size=0, max_size=4).map(lambda rows: "\n".join(json.dumps(r) for r in rows).encode())
    one = (RECORD | JSON).map(lambda v: json.dumps(v).encode())
    deep = st.integers(60, 5000).map(lambda n: ("[" * n + "]" * n).encode())
    return st.binary(max_size=200) | jsonl | one | deep | st.sampled_from(
        [b"", b"\xff\xfe\x00", b'{"a": NaN}\n', b"[1e400]", b'{"id": {"x": 1}, "question": "q", "answer": "a"}\n'])


def _readers() -> dict[str, tuple[str, Callable[[Path], object]]]:
    """name -> (file name, reader of that file)."""
    from vidsleuth.bench import datasets
    from vidsleuth.bench.browse import read_calibration_rows, read_questions
    from vidsleuth.browse.trace import load_trace
    from vidsleuth.models.config import load_config
    from vidsleuth.rubric.schema import load_rubric
    from vidsleuth.rubric.stats import events_of
    from vidsleuth.search.corpus import read_corpus, read_generic
    from vidsleuth.search.evaluate import read_qrels, read_queries, read_run

    readers = {
        "corpus": ("c.jsonl", read_corpus),
        "generic corpus": ("g.jsonl", lambda p: read_generic(p, "id", ["contents"])),
        "questions": ("q.jsonl", read_questions),
        "calibration rows": ("cal.jsonl", read_calibration_rows),
        "compass instances": ("i.jsonl", datasets.read_instances),
        "trajectory": ("t.jsonl", events_of),
        "browse trace": ("t.json", events_of),
        "trace": ("trace.json", load_trace),
        "rubric": ("rubric.json", load_rubric),
        "qrels": ("qrels.txt", read_qrels),
        "trec run": ("run.txt", read_run),
        "queries": ("queries.jsonl", read_queries),
        "config": ("c.toml", load_config),
    }
    for fmt in ("native", "qvhighlights", "charades", "activitynet"):
        readers[f"ground truth {fmt}"] = (f"gt-{fmt}.txt", lambda p, f=fmt: datasets.load_gt(p, f))
        readers[f"predictions {fmt}"] = (f"pred-{fmt}.jsonl", lambda p, f=fmt: datasets.load_predictions(p, f))
    return readers


READERS = _readers()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _feed(scratch: Path, name: str, data: bytes, reader) -> None:
    path = scratch / f"{uuid.uuid4().hex[:8]}-{name}"
    path.write_bytes(data)
    try:
        reader(path)
    except VidsleuthError as exc:
        text = str(exc)
        assert text and "\n" not in text.strip(), f"not one line: {text!r}"
    finally:
        path.unlink(missing_ok=True)


@pytest.mark.parametrize("name", sorted(READERS))
@SETTINGS
@given(data=_payloads())
def test_every_reader_returns_or_raises_its_own_error(scratch, name, data):
    file_name, reader = READERS[name]
    _feed(scratch, file_name, data, reader)


@SETTINGS
@given(meta=_payloads(), docs=_payloads())
def test_a_damaged_search_index_is_one_error(scratch, meta, docs):
    from vidsleuth.search.index import SearchIndex

    folder = scratch / f"idx-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    (folder / "meta.json").write_bytes(meta)
    (folder / "docs.json").write_bytes(docs)
    try:
        SearchIndex.load(folder)
    except VidsleuthError:
        pass
    finally:
        shutil.rmtree(folder)


@SETTINGS
@given(cards=_payloads(), meta=_payloads())
def test_a_damaged_memory_bank_is_one_error(scratch, cards, meta):
    import numpy as np

    from vidsleuth.search.memory import MemoryBank

    folder = scratch / f"mem-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    (folder / "cards.jsonl").write_bytes(cards)
    (folder / "meta.json").write_bytes(meta)
    np.save(folder / "embeddings.npy", np.zeros((1, 4), dtype=np.float32))
    try:
        MemoryBank(folder)
    except VidsleuthError:
        pass
    finally:
        shutil.rmtree(folder)


def test_hundred_thousand_levels_and_nan_are_refused_by_name(scratch):
    """The two cases the issue saw crash, stated exactly: every JSON reader names them."""
    deep = scratch / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    from vidsleuth.browse.trace import load_trace
    from vidsleuth.rubric.stats import events_of

    for reader in (load_trace, events_of):
        with pytest.raises(VidsleuthError, match="nested more than 64 levels"):
            reader(deep)
    nan = scratch / "nan.jsonl"
    nan.write_text('{"video_id": "a", "title": "t", "duration": NaN}\n')
    from vidsleuth.search.corpus import read_corpus

    with pytest.raises(VidsleuthError, match="line 1: duration: NaN is not a number"):
        read_corpus(nan)
