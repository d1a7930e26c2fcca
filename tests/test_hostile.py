"""Hostile input: confined folder reading, bounded reads, credentials that never travel, the
output-folder policy. Each test plants the hostile thing and checks every place it could leak to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vidsleuth import synth
from vidsleuth.errors import DataFileError, VidsleuthError
from vidsleuth.files import MARKER, claim_output, iter_files, read_text

SECRET_TEXT = "PRIVATE-DIARY-7f3a the torque of the secret axle is 99 Nm"


# --------------------------------------------------------------------------- confined reading


def _hostile_folder(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "diary.txt").write_text(SECRET_TEXT + "\n")
    (outside / "sub").mkdir()
    (outside / "sub" / "notes.md").write_text("# notes\n\n" + SECRET_TEXT + "\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.txt").write_text("The torque of the axle nut should be 45 Nm for this bicycle model.\n")
    os.symlink(outside / "diary.txt", docs / "diary.txt")
    os.symlink("/etc/passwd", docs / "passwd.txt")
    os.symlink(outside / "sub", docs / "linked")
    os.symlink(tmp_path / "nowhere.txt", docs / "broken.txt")
    os.mkfifo(docs / "pipe.txt")
    return docs, outside


def test_iter_files_returns_only_regular_files_inside_the_root(tmp_path):
    docs, outside = _hostile_folder(tmp_path)
    (docs / "big.txt").write_bytes(b"x" * 2000)
    files, skipped = iter_files(docs, max_bytes=1000)
    assert [p.name for p in files] == ["manual.txt"]
    reasons = {Path(s.path).name: s.reason for s in skipped}
    assert set(reasons) == {"diary.txt", "passwd.txt", "linked", "broken.txt", "pipe.txt", "big.txt"}
    assert "symbolic link" in reasons["diary.txt"] and "--follow-links" in reasons["passwd.txt"]
    assert "FIFO" in reasons["pipe.txt"] and "over the limit" in reasons["big.txt"]
    # an explicit follow_links reads the links (not the FIFO, not the broken link)
    files, skipped = iter_files(docs, follow_links=True, max_bytes=None)
    assert {p.name for p in files} == {"manual.txt", "diary.txt", "passwd.txt", "notes.md", "big.txt"}
    assert {Path(s.path).name for s in skipped} == {"broken.txt", "pipe.txt"}


def test_a_symlinked_root_is_walked_but_links_inside_it_still_are_not(tmp_path):
    docs, _ = _hostile_folder(tmp_path)
    os.symlink(docs, tmp_path / "alias")
    files, _ = iter_files(tmp_path / "alias")
    assert [p.name for p in files] == ["manual.txt"]


def test_report_never_reads_or_copies_a_linked_private_file(tmp_path):
    from vidsleuth.library import IngestOptions
    from vidsleuth.report import report

    docs, _ = _hostile_folder(tmp_path)
    video = tmp_path / "clip.mp4"
    synth.make_clip(video, synth.ClipSpec(shots=(synth.Shot(100, "0x204060"),), audio=False))
    (tmp_path / "clip.srt").write_text("1\n00:00:01,000 --> 00:00:03,000\nTighten the axle nut to 45 Nm.\n")
    out = tmp_path / "out"
    report(video, "Check the axle nut torque", out=out, docs=docs, library=tmp_path / "lib",
           ingest_options=IngestOptions(ocr=False, shots=False), browser=False)
    written = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.name == "report.html" for p in written)
    for p in written:
        data = p.read_bytes()
        assert b"PRIVATE-DIARY" not in data, p
        assert b"root:x:0:0" not in data, p
    import json

    counts = json.loads((out / "report.json").read_text())
    text = json.dumps(counts)
    assert "passwd.txt" in text and "symbolic link" in text  # the skip is counted with its reason
    assert '"documents_read": 1' in text  # the one real document was read


# --------------------------------------------------------------------------- bounded reads


def test_devices_and_oversized_files_are_refused_before_reading(tmp_path):
    with pytest.raises(DataFileError, match="character device, not a regular file"):
        read_text("/dev/zero", "trajectory file")
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"{}\n" * 1000)
    with pytest.raises(DataFileError, match="over the limit"):
        read_text(big, "corpus", max_bytes=100)
    assert read_text(big, "corpus").count("\n") == 1000


@pytest.mark.parametrize("argv", [["trajectory", "stats", "/dev/zero"], ["rubric", "validate", "/dev/zero"],
                                  ["metrics", "calibration", "--input", "/dev/zero"]])
def test_dev_zero_as_an_input_is_one_line(argv, capsys):
    from vidsleuth.cli import main

    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "/dev/zero" in err[0] and "not a regular file" in err[0], err


# --------------------------------------------------------------------------- output folders


def test_claim_output_refuses_foreign_folders_and_cleans_up_failures(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "video.mp4").write_text("the user's own video")
    with pytest.raises(VidsleuthError, match="not a vidsleuth report output"):
        with claim_output(mine, "report"):
            pass
    assert [p.name for p in mine.iterdir()] == ["video.mp4"]
    new = tmp_path / "new"
    with pytest.raises(RuntimeError):
        with claim_output(new, "frames") as out:
            (out / "frame_0001.jpg").write_text("half")
            raise RuntimeError("decode failed")
    assert not new.exists()  # a failed first run leaves nothing
    with claim_output(new, "frames") as out:
        (out / "a.jpg").write_text("done")
    assert (new / MARKER).is_file()
    with claim_output(new, "frames") as out:  # an earlier output of the same verb: accepted
        pass
    with pytest.raises(VidsleuthError, match="output of vidsleuth frames, not of vidsleuth grid"):
        with claim_output(new, "grid"):
            pass
    with pytest.raises(RuntimeError):
        with claim_output(new, "frames") as out:
            (out / "b.jpg").write_text("half")
            raise RuntimeError("later failure")
    assert sorted(p.name for p in new.iterdir()) == sorted([MARKER, "a.jpg"])  # earlier results kept
    with claim_output(mine, "report", overwrite=True):
        pass
    assert (mine / "video.mp4").read_text() == "the user's own video"  # overwrite never deletes


# --------------------------------------------------------------------------- credentials never travel

KEY = "sk-planted0secret0key0ABCDEFGH1234"
PASSWORD = "hunter2planted"
PLANTED = (KEY, PASSWORD, "planted0secret0key0ABCDEFGH1234")


def _no_secret(where: str, data: bytes | str) -> None:
    raw = data.encode() if isinstance(data, str) else data
    for s in PLANTED:
        assert s.encode() not in raw, f"{s} leaked into {where}"


@pytest.mark.parametrize("section", [
    '[models.x]\nbackend = "openai"\nbase_url = "http://user:{pw}@127.0.0.1:9/v1"\n',
    '[models.x]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\napi_key_env = "{key}"\n',
    '[models.x]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "{key}"\n',
    '[models.x]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\napi_key = "{key}"\n',
    '[models.x]\nbackend = "openai"\nbase_url = "file:///etc/passwd"\n',
    '[rubric]\ntoken = "{key}"\n', '[executor]\naddress = "ray://admin:{pw}@10.0.0.1:10001"\n',
    '[browse]\napi_key = "{key}"\n', '[report]\nweb_search_url = "https://u:{pw}@search.example/search"\n',
    '[report]\nweb_search_url = "file:///etc/passwd"\n', '[roles]\npassword = "{pw}"\n',
])
def test_a_secret_in_any_config_field_is_refused_without_repeating_it(tmp_path, section, capsys):
    from vidsleuth.cli import main

    cfg = tmp_path / "c.toml"
    cfg.write_text(section.format(key=KEY, pw=PASSWORD))
    assert main(["models", "--config", str(cfg)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "c.toml" in err, err
    assert "environment" in err or "http:// or https://" in err, err
    _no_secret("the error", err)


def _echo_key(body, n):
    return {"status": 401, "json": {"error": {"message": f"bad key {KEY} for user"}}}


def test_credentials_never_reach_outputs_streams_or_stores(tmp_path):
    """The key is in the environment (where it belongs); a server that echoes it back in errors;
    every verb's stdout, stderr and every file it writes are searched for it."""
    import json
    import subprocess
    import sys

    from vidsleuth.search.index import build_index
    from vidsleuth.testing import ScriptedServer

    from .test_browse import ANSWER, PLAN, pick, scripted

    clip = tmp_path / "harbor.mp4"
    synth.make_clip(clip, synth.ClipSpec(shots=(synth.Shot(75, "0x203060"),), audio=False,
                                         captions=(synth.Caption(0.2, 2.5, "BUILT IN 1887"),)))
    (tmp_path / "harbor.srt").write_text("1\n00:00:00,500 --> 00:00:02,500\nThe lighthouse was built in 1887.\n")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"video_id": "harbor", "title": "Harbor Point lighthouse tour", "path": str(clip)}) + "\n")
    build_index(corpus, tmp_path / "idx")
    qs = tmp_path / "q.jsonl"
    qs.write_text(json.dumps({"id": "q1", "question": "When was the Harbor Point lighthouse built?", "answer": "1887",
                              "seed_video_ids": ["harbor"]}) + "\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "history.txt").write_text("The Harbor Point lighthouse was built in 1887 by the harbour board.\n")
    script = scripted({"planner": [PLAN], "watcher": [pick("Harbor Point lighthouse tour")],
                       "checker": ['{"decision": "HALT"}'], "analyst": [ANSWER], "judge": ["yes"],
                       "?": ['{"relation": "supports", "rationale": "same year", "confidence": 0.9}']}, [])
    home = tmp_path / "home"
    env = {**__import__("os").environ, "VIDSLEUTH_HOME": str(home), "PLANTED_KEY": KEY}
    with ScriptedServer(script) as good, ScriptedServer(_echo_key, repeat_last=True) as echo, \
            ScriptedServer([f"your key is {KEY}"], repeat_last=True) as parrot:
        cfg = tmp_path / "c.toml"
        cfg.write_text(f'[models.good]\nbackend = "openai"\nbase_url = "{good.base_url}"\nmodel = "vl"\n'
                       f'api_key_env = "PLANTED_KEY"\nmax_retries = 0\n'
                       f'[models.echo]\nbackend = "openai"\nbase_url = "{echo.base_url}"\nmodel = "vl"\n'
                       f'api_key_env = "PLANTED_KEY"\nmax_retries = 0\n'
                       f'[models.parrot]\nbackend = "openai"\nbase_url = "{parrot.base_url}"\nmodel = "vl"\n'
                       f'api_key_env = "PLANTED_KEY"\n[roles]\ndefault = "good"\n')
        out = tmp_path / "out"
        runs = [["models", "--config", cfg], ["models", "--config", cfg, "--json"],
                ["chat", "--config", cfg, "--model", "good", "ping", "--json"],
                ["chat", "--config", cfg, "--model", "parrot", "echo my key", "--json"],
                ["chat", "--config", cfg, "--model", "echo", "ping", "--no-cache"],
                ["bench", "browse", "--questions", qs, "-i", tmp_path / "idx", "--config", cfg, "--model", "good",
                 "--analyst-frames", "4", "--library", tmp_path / "lib", "--out", out / "browse"],
                ["bench", "browse", "--questions", qs, "-i", tmp_path / "idx", "--config", cfg, "--model", "echo",
                 "--analyst-frames", "4", "--library", tmp_path / "lib", "--no-cache", "--out", out / "browse-echo"],
                ["report", clip, "--request", "When was the lighthouse built?", "--docs", docs, "--config", cfg,
                 "--model", "echo", "--library", tmp_path / "lib", "--no-browser", "--out", out / "report"]]
        codes = []
        for argv in runs:
            done = subprocess.run([sys.executable, "-m", "vidsleuth", *map(str, argv)], capture_output=True,
                                  text=True, env=env, timeout=240)
            codes.append(done.returncode)
            _no_secret(f"stdout of {argv[:2]}", done.stdout)
            _no_secret(f"stderr of {argv[:2]}", done.stderr)
        assert good.headers and all(h.get("Authorization") == f"Bearer {KEY}" for h in good.headers)  # it was sent
        assert echo.calls >= 2  # the echoing endpoint was really called (and its error recorded)
    assert codes[:4] == [0, 0, 0, 0] and codes[4] == 1, codes  # the parrot's reply is shown, its key masked
    written = [p for p in [*out.rglob("*"), *home.rglob("*")] if p.is_file()]
    assert any(p.name == "runs.sqlite" for p in written) and any(p.name == "run.json" for p in written)
    for p in written:
        _no_secret(str(p), p.read_bytes())


# --------------------------------------------------------------------------- one output-folder policy


@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "tiny.mp4"
    synth.make_clip(path, synth.ClipSpec(shots=(synth.Shot(50, "0x405060"),), audio=False))
    return path


def _mine(folder: Path, name: str = "video.mp4") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("the user's own file")
    return folder


def _untouched(folder: Path, name: str = "video.mp4") -> None:
    assert sorted(p.name for p in folder.iterdir()) == [name]
    assert (folder / name).read_text() == "the user's own file"


def test_frames_and_grid_never_overwrite_the_users_files(tiny_clip, tmp_path):
    from vidsleuth.media import save_frames, save_grids

    mine = _mine(tmp_path / "mine", "frame_0000_000000.000s.jpg")
    with pytest.raises(VidsleuthError, match="not a vidsleuth frames output"):
        save_frames(tiny_clip, mine, n=2)
    _untouched(mine, "frame_0000_000000.000s.jpg")
    save_frames(tiny_clip, mine, n=2, overwrite=True)  # asked for: written next to the user's file
    assert (mine / "frames.json").is_file() and len(list(mine.glob("*.jpg"))) == 3
    with pytest.raises(VidsleuthError, match="--start must be a finite number"):
        save_frames(tiny_clip, tmp_path / "bad", n=2, start=float("nan"))
    with pytest.raises(VidsleuthError, match="--end must be in 0..360000"):
        save_frames(tiny_clip, tmp_path / "bad", n=2, end=1e300)
    assert not (tmp_path / "bad").exists()  # a refused run creates nothing
    grid = tmp_path / "g.jpg"
    grid.write_text("the user's own picture")
    with pytest.raises(VidsleuthError, match="already exists"):
        save_grids(tiny_clip, grid)
    assert grid.read_text() == "the user's own picture"


def test_report_refuses_a_folder_holding_the_users_video_and_notes(tiny_clip, tmp_path):
    from vidsleuth.report import report

    for name in ("video.mp4", "report.md"):
        mine = _mine(tmp_path / name.replace(".", "_"), name)
        with pytest.raises(VidsleuthError, match="not a vidsleuth report output"):
            report(tiny_clip, "What is shown?", out=mine, library=tmp_path / "lib", browser=False)
        _untouched(mine, name)
    with pytest.raises(VidsleuthError):  # a bad input: the new output folder is not left behind
        report(tmp_path / "missing.mp4", "What is shown?", out=tmp_path / "new", library=tmp_path / "lib")
    assert not (tmp_path / "new").exists()


def test_index_build_leaves_no_hidden_folder_when_it_fails(tmp_path):
    import json

    from vidsleuth.search.index import build_index

    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"video_id": "a", "title": "a lighthouse"}) + "\n")

    class Failing:
        name = "failing"

        def embed(self, texts, kind="passage"):
            raise VidsleuthError("the embedder is down")

    with pytest.raises(VidsleuthError, match="embedder is down"):
        build_index(corpus, tmp_path / "idx", kind="dense", embedder=Failing())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]
    build_index(corpus, tmp_path / "idx")
    build_index(corpus, tmp_path / "idx")  # an earlier index is replaced
    assert (tmp_path / "idx" / MARKER).is_file()


def test_benchmarks_refuse_foreign_folders_before_any_work(tmp_path):
    from vidsleuth.bench.omnidr import run_omnidr

    mine = _mine(tmp_path / "mine", "notes.txt")
    with pytest.raises(VidsleuthError, match="not a vidsleuth bench omnidr output"):
        run_omnidr(tmp_path / "tasks", tmp_path / "reports", out=mine)
    _untouched(mine, "notes.txt")
    with pytest.raises(VidsleuthError, match="tasks folder does not exist"):
        run_omnidr(tmp_path / "tasks", tmp_path / "reports", out=tmp_path / "fresh")
    assert not (tmp_path / "fresh").exists()


def test_ingest_checks_language_and_subtitles_before_creating_the_library(tiny_clip, tmp_path):
    from vidsleuth.library import IngestOptions, ingest

    with pytest.raises(VidsleuthError, match="--language: unknown language 'xx'.*choose .*en"):
        ingest(tiny_clip, tmp_path / "lib", IngestOptions(language="xx"))
    with pytest.raises(VidsleuthError, match="subtitle file not found"):
        ingest(tiny_clip, tmp_path / "lib", IngestOptions(subtitles=str(tmp_path / "nope.srt")))
    assert not (tmp_path / "lib").exists()


# --------------------------------------------------------------------------- numbers, dates, choices, empties


def test_numeric_options_must_be_finite_and_in_range():
    from vidsleuth.limits import check
    from vidsleuth.models.endpoints import chat

    with pytest.raises(VidsleuthError, match="--temperature must be a finite number"):
        chat("x", temperature=float("nan"))
    with pytest.raises(VidsleuthError, match="--temperature must be in 0..2"):
        chat("x", temperature=-1.0)
    with pytest.raises(VidsleuthError, match="--seed must be in 0..2147483647"):
        chat("x", seed=10**20)
    with pytest.raises(VidsleuthError, match="-k must be an integer"):
        check("k", 2.5, option="-k")
    assert check("seconds", 12) == 12.0


@pytest.mark.parametrize("text, message", [("2024-13-45", "not a calendar date"), ("yesterday", "YYYY-MM-DD"),
                                           ("2024-02-30", "not a calendar date"), ("15/03/2024", "YYYY-MM-DD")])
def test_dates_are_strict_iso(text, message):
    from vidsleuth.limits import iso_date

    with pytest.raises(VidsleuthError, match=message):
        iso_date(text)
    assert iso_date("2024-02-29") == "2024-02-29"


def test_report_refuses_a_bad_date_before_any_work(tiny_clip, tmp_path):
    from vidsleuth.report import report

    with pytest.raises(VidsleuthError, match="--date 2024-13-45: not a calendar date"):
        report(tiny_clip, "What is shown?", out=tmp_path / "out", date="2024-13-45", library=tmp_path / "lib")
    assert not (tmp_path / "out").exists() and not (tmp_path / "lib").exists()


def test_unknown_choices_are_one_line_with_the_choices(tiny_clip, tmp_path):
    import json

    from vidsleuth.library import IngestOptions, ingest
    from vidsleuth.search.index import build_index

    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"id": "a", "contents": "a lighthouse", "title": "x"}) + "\n")
    with pytest.raises(VidsleuthError, match="--text-field nosuchfield: no line has this field"):
        build_index(corpus, tmp_path / "idx", id_field="id", text_fields=["nosuchfield"])
    assert not (tmp_path / "idx").exists()
    tl = ingest(tiny_clip, tmp_path / "lib", IngestOptions(asr=False, ocr=False))
    assert tl.to_text(kinds=["shot"]).strip()
    with pytest.raises(VidsleuthError, match="--kind: unknown segment kind 'nosuchkind'.*choose ocr, shot, speech"):
        tl.to_text(kinds=["nosuchkind"])


def test_empty_inputs_are_errors_not_zero_results(tmp_path):
    from vidsleuth.bench.datasets import load_gt
    from vidsleuth.search.evaluate import read_qrels, read_run

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(VidsleuthError, match="holds no ground truth"):
        load_gt(empty, "native")
    with pytest.raises(VidsleuthError, match="holds no judgements"):
        read_qrels(empty)
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 nan tag\n")
    with pytest.raises(VidsleuthError, match="line 1: score 'nan' is not a finite number"):
        read_run(run)


def test_ask_with_an_empty_question_is_refused(tmp_path):
    from vidsleuth.browse.ask import ask

    with pytest.raises(VidsleuthError, match="the question is empty"):
        ask("   ", tmp_path / "no-index")


# --------------------------------------------------------------------------- connections time out


def test_a_dead_ray_address_fails_in_one_line_without_hanging(tmp_path):
    from vidsleuth.runner import map_items
    from vidsleuth.store import RunStore

    store = RunStore(tmp_path / "runs.sqlite")
    run_id = store.start_run("t")
    with pytest.raises(VidsleuthError, match="--address 127.0.0.1:9: nothing answers there"):
        map_items(str, [("a", 1)], store=store, run_id=run_id, executor="ray", address="127.0.0.1:9")
    with pytest.raises(VidsleuthError, match="--address 10.0.0.1:6379 needs --executor ray"):
        map_items(str, [("a", 1)], store=store, run_id=run_id, executor="local", address="10.0.0.1:6379")
    assert store.items(run_id) == {}


def test_every_http_client_has_a_bounded_timeout():
    """Source check that stands for a hang we cannot wait for: every httpx call or client in the
    package passes a timeout (httpx's default would be 5 s, but None would wait forever)."""
    import re

    root = Path(__file__).resolve().parents[1] / "src" / "vidsleuth"
    calls = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"httpx\.(get|post|Client|AsyncClient|stream)\(([^)]*)\)", text):
            calls.append((path.name, m.group(0)))
    assert calls, "no httpx call found: the check would be vacuous"
    for name, call in calls:
        assert "timeout=" in call and "timeout=None" not in call, f"{name}: {call}"


def test_cli_overwrite_flag_and_empty_query(tiny_clip, tmp_path, capsys):
    from vidsleuth.cli import main

    mine = _mine(tmp_path / "mine", "notes.txt")
    assert main(["frames", str(tiny_clip), "--out", str(mine), "-n", "2"]) == 1
    err = capsys.readouterr().err
    assert "not a vidsleuth frames output" in err and "--overwrite" in err and len(err.strip().splitlines()) == 1
    _untouched(mine, "notes.txt")
    assert main(["frames", str(tiny_clip), "--out", str(mine), "-n", "2", "--overwrite"]) == 0
    assert (mine / "notes.txt").read_text() == "the user's own file" and (mine / "frames.json").is_file()
    assert main(["frames", str(tiny_clip), "--out", str(mine), "-n", "2"]) == 0  # now an earlier frames output
    capsys.readouterr()
    assert main(["search", "  ", "-i", str(tmp_path / "idx")]) == 1
    assert "the query is empty" in capsys.readouterr().err


def test_log_records_are_redacted_whatever_the_logger(caplog):
    import logging

    import vidsleuth.errors  # noqa: F401  (installs the redaction)

    with caplog.at_level(logging.INFO):
        logging.getLogger("httpx").info("POST http://user:%s@host/v1 Authorization: Bearer %s", PASSWORD, KEY)
        logging.getLogger("vidsleuth.mcp").warning("tool failed: api_key=%s", KEY)
    text = caplog.text
    assert "POST http://***@host/v1" in text and "tool failed" in text
    _no_secret("the log", text)


def test_a_linked_task_folder_is_not_read(tmp_path):
    from vidsleuth.bench.omnidr import find_tasks

    outside = tmp_path / "outside" / "t1"
    outside.mkdir(parents=True)
    (outside / "rubric.json").write_text("{}")
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    os.symlink(outside, tasks / "t1")
    with pytest.raises(VidsleuthError, match="holds no task folder with a rubric.json"):
        find_tasks(tasks)


def test_an_address_that_answers_but_is_not_ray_fails_at_the_deadline():
    """ray.init blocks in C++ there; the probe runs in a child process killed at the deadline."""
    import socket
    import threading

    from vidsleuth.runner import probe_ray

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    threading.Thread(target=lambda: [server.accept() for _ in range(8)], daemon=True).start()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    with pytest.raises(VidsleuthError, match=f"--address {address}: Ray did not connect within 4 s"):
        probe_ray(address, timeout=4)
    server.close()
