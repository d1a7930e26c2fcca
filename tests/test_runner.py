"""The runner: resume, retries, failures, executors (threads, a local process pool, a local Ray
instance) and per-endpoint limits that hold across all of them."""

from __future__ import annotations

import time

import pytest

from vidsleuth import synth
from vidsleuth.errors import ArgumentError, VidsleuthError
from vidsleuth.runner import map_items
from vidsleuth.store import RunStore
from vidsleuth.testing import ScriptedServer, call_endpoint


def _square(x: int) -> dict:
    if x < 0:
        raise VidsleuthError(f"negative: {x}")
    return {"sq": x * x}


def test_resume_retries_and_failures(tmp_path):
    store = RunStore(tmp_path / "r.sqlite")
    run = store.start_run("t")
    calls = []

    def flaky(x):
        calls.append(x)
        if x == 3 and calls.count(3) < 2:
            raise VidsleuthError("transient")
        return _square(x)

    r = map_items(flaky, [(str(i), i) for i in (1, 2, 3, -4)], store=store, run_id=run, workers=2, retries=1)
    assert {k: v["sq"] for k, v in r.done.items()} == {"1": 1, "2": 4, "3": 9}
    assert [(f.item_id, f.attempts) for f in r.failures] == [("-4", 2)] and "negative" in r.failures[0].error
    calls.clear()
    again = map_items(flaky, [(str(i), i) for i in (1, 2, 3, 4)], store=store, run_id=run, workers=2)
    assert calls == [4] and again.computed == 1 and len(again.done) == 4  # finished items are not repeated
    with pytest.raises(ArgumentError, match="appears twice"):
        map_items(flaky, [("a", 1), ("a", 2)], store=store, run_id=run)
    with pytest.raises(ArgumentError, match="did you mean 'local'"):
        map_items(flaky, [("a", 1)], store=store, run_id=run, executor="locl")


@pytest.mark.parametrize("executor", ["threads", "local", "ray"])
def test_max_concurrency_one_holds_under_every_executor(tmp_path, executor, monkeypatch):
    monkeypatch.setenv("VIDSLEUTH_LIMITS", str(tmp_path / "limits"))
    slow = lambda body, n: (time.sleep(0.05), "ok")[1]
    with ScriptedServer(slow) as srv:
        store = RunStore(tmp_path / "r.sqlite")
        r = map_items(call_endpoint, [(str(i), (srv.base_url, 1, f"hi {i}")) for i in range(8)], store=store,
                      run_id=store.start_run("t"), workers=4, executor=executor)
        assert len(r.done) == 8 and not r.failures, r.errors()
        assert srv.max_in_flight == 1 and srv.calls == 8
    with ScriptedServer(slow) as srv:  # and a limit of 3 lets 3 through, no more
        store = RunStore(tmp_path / "r2.sqlite")
        map_items(call_endpoint, [(str(i), (srv.base_url, 3, f"hi {i}")) for i in range(9)], store=store,
                  run_id=store.start_run("t"), workers=4, executor="threads" if executor == "ray" else executor)
        assert 1 <= srv.max_in_flight <= 3


def test_collection_ingest_is_the_same_locally_and_on_ray(tmp_path):
    """Three short clips ingested by a local process pool and by a local Ray instance (2 CPUs)
    give identical timelines, each file stored once; a rerun finds everything done."""
    from vidsleuth.library import IngestOptions, collect_media, ingest_many

    folder = tmp_path / "collection" / "sub"
    folder.mkdir(parents=True)
    for k, text in enumerate(("FIRST CLIP", "SECOND CLIP", "THIRD CLIP")):
        synth.make_clip(folder / f"c{k}.mp4", synth.ClipSpec(shots=(synth.Shot(25, "0x203060"),), audio=False,
                                                             captions=(synth.Caption(0.1, 0.9, text),)))
    (folder / "notes.txt").write_text("not media")
    files = collect_media([tmp_path / "collection"], recursive=True)
    assert [f.name for f in files] == ["c0.mp4", "c1.mp4", "c2.mp4"]
    with pytest.raises(ArgumentError, match="no media files"):
        collect_media([tmp_path / "collection"])  # not recursive: the top folder has none
    opts = IngestOptions(asr=False)
    local = ingest_many(files, tmp_path / "lib-local", opts, executor="local", workers=2)
    ray_run = ingest_many(files, tmp_path / "lib-ray", opts, executor="ray", workers=2)
    assert not local.failures and not ray_run.failures
    strip = lambda d: {k: v for k, v in d.items() if k != "path"}
    assert {k: strip(v) for k, v in local.done.items()} == {k: strip(v) for k, v in ray_run.done.items()}
    assert all(v["segments"].get("ocr") == 1 for v in local.done.values())
    again = ingest_many(files, tmp_path / "lib-local", opts, executor="local", workers=2)
    assert again.computed == 0 and len(again.done) == 3
    import sqlite3

    with sqlite3.connect(tmp_path / "lib-local" / "runs.sqlite") as db:  # each file stored once
        assert db.execute("SELECT count(*), count(DISTINCT item_id) FROM items").fetchone() == (3, 3)
