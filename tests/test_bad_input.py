"""Every verb fed bad input answers with one line naming the file or option and the problem,
exits 1, and leaves nothing behind (issue 11's catalogue, one test per kind)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vidsleuth import synth
from vidsleuth.cli import main

BINARY = bytes(range(256)) * 4  # not UTF-8 from byte 128 on


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad")
    clip = root / "clip.mp4"
    synth.make_clip(clip, synth.ClipSpec(shots=(synth.Shot(50, "0x203060"),), audio=False,
                                         captions=(synth.Caption(0.2, 1.8, "HELLO"),)))
    corpus = root / "corpus.jsonl"
    corpus.write_text(json.dumps({"video_id": "a", "title": "harbor lighthouse tour", "path": "clip.mp4"}) + "\n"
                      + json.dumps({"video_id": "b", "title": "cup final goals"}) + "\n")
    assert main(["--no-progress", "index", "build", str(corpus), "-o", str(root / "idx"), "--method", "lucene"]) == 0
    binary = root / "garbage.bin"
    binary.write_bytes(BINARY)
    empty = root / "empty.jsonl"
    empty.write_text("")
    return {"root": root, "clip": clip, "corpus": corpus, "idx": root / "idx", "binary": binary, "empty": empty}


LAST_OUT: list[str] = [""]


def run(capsys, *argv) -> tuple[int, str]:
    """The CLI in-process: (exit status, stderr); stdout is kept in ``LAST_OUT``."""
    try:
        rc = main(["--no-progress", *map(str, argv)])
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code
    captured = capsys.readouterr()
    LAST_OUT[0] = captured.out
    return rc, captured.err


def one_line(err: str) -> str:
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("vidsleuth: warning")]
    assert len(lines) == 1, err
    assert lines[0].startswith("vidsleuth: error: "), err
    return lines[0]


# --------------------------------------------------------------------------- 1. unbounded sizes


def test_huge_frame_count_is_refused_before_any_work(env, capsys, tmp_path):
    rc, err = run(capsys, "frames", env["clip"], "-n", "99999999999", "--out", tmp_path / "f")
    assert rc == 1 and "-n" in one_line(err) and "1..4096" in err
    assert not (tmp_path / "f").exists()


def test_huge_grid_is_refused(env, capsys, tmp_path):
    rc, err = run(capsys, "grid", env["clip"], "--cell", "100000", "--rows", "50", "--cols", "50", "--out", tmp_path / "g.jpg")
    assert rc == 1 and "--cell" in one_line(err) and "16..1024" in err and not (tmp_path / "g.jpg").exists()


def test_more_frames_than_the_clip_holds_are_clamped_with_a_message(env, capsys, tmp_path):
    rc, err = run(capsys, "frames", env["clip"], "-n", "4000", "--out", tmp_path / "f", "--json")
    assert rc == 0 and "4000 frames asked for" in err
    frames = json.loads((tmp_path / "f" / "frames.json").read_text())["frames"]
    assert len(frames) == 50  # a 2-s clip at 25 fps holds 50 frames


# --------------------------------------------------------------------------- 2. binary and non-UTF-8 text


@pytest.mark.parametrize("argv", [
    ["index", "build", "{bin}", "-o", "{tmp}/i"],
    ["bench", "browse", "--questions", "{bin}", "-i", "{idx}", "--out", "{tmp}/o"],
    ["bench", "compass", "--data", "{bin}", "--out", "{tmp}/o"],
    ["search", "eval", "-i", "{idx}", "--queries", "{bin}"],
    ["models", "--config", "{bin}"],
    ["ask", "where is the harbor lighthouse?", "-i", "{idx}", "--corpus", "{bin}"],
    ["memory", "build", "{bin}", "-i", "{idx}", "-m", "{tmp}/m"],
    ["metrics", "grounding", "--gt", "{bin}", "--pred", "{bin}"],
    ["metrics", "boxes", "--gt", "{bin}", "--pred", "{bin}"],
    ["metrics", "qa", "--gt", "{bin}", "--pred", "{bin}"],
    ["metrics", "compass", "--data", "{bin}", "--pred", "{bin}"],
    ["metrics", "calibration", "--input", "{bin}"],
])
def test_binary_text_inputs_name_the_file_and_byte(env, capsys, tmp_path, argv):
    argv = [a.format(bin=env["binary"], idx=env["idx"], tmp=tmp_path) for a in argv]
    rc, err = run(capsys, *argv)
    line = one_line(err)
    assert rc == 1 and "garbage.bin" in line and "not UTF-8 text (byte 128" in line
    assert list(tmp_path.iterdir()) == []  # nothing created


# --------------------------------------------------------------------------- 3. former tracebacks


def test_grid_out_with_an_unknown_image_suffix(env, capsys, tmp_path):
    rc, err = run(capsys, "grid", env["clip"], "--out", tmp_path / "g.notanimage")
    assert rc == 1 and "not an image format" in one_line(err) and list(tmp_path.iterdir()) == []


def test_bench_compass_frames_not_a_number(capsys, tmp_path):
    rc, err = run(capsys, "bench", "compass", "--frames", "abc", "--out", tmp_path / "o")
    assert rc == 1 and "--frames" in one_line(err) and not (tmp_path / "o").exists()


def test_metrics_boxes_wrong_schema_names_the_line(capsys, tmp_path):
    gt, pred = tmp_path / "gt.jsonl", tmp_path / "p.jsonl"
    gt.write_text(json.dumps({"id": "1", "gt": [[0, 0, 10, 10], [0, 0, 10, 10]]}) + "\n" + json.dumps({"id": "2", "gt": [1, 2]}) + "\n")
    pred.write_text(json.dumps({"id": "1", "pred": [[0, 0, 10]]}) + "\n")
    rc, err = run(capsys, "metrics", "boxes", "--gt", gt, "--pred", pred)
    assert rc == 1 and "gt.jsonl: line 2: gt: expected [[x1, y1, x2, y2]" in one_line(err)
    gt.write_text(json.dumps({"id": "1", "gt": [[0, 0, 10, 10], [0, 0, 10, 10]]}) + "\n")
    rc, err = run(capsys, "metrics", "boxes", "--gt", gt, "--pred", pred, "--json")
    assert rc == 0 and json.loads(LAST_OUT[0])["unparsed"] == 1  # a malformed prediction is unparsed, not a crash


@pytest.mark.parametrize("line,message", [('timeout = "x"', "timeout = 'x': must be a number"),
                                          ("max_concurrency = -1", "max_concurrency = -1: must be between 1")])
def test_config_values_are_checked_when_loaded(capsys, tmp_path, line, message):
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[models.x]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n{line}\n')
    for argv in (["models", "--config", cfg], ["chat", "hi", "--model", "x", "--config", cfg]):
        rc, err = run(capsys, *argv)
        assert rc == 1 and message in one_line(err) and "c.toml" in err


# --------------------------------------------------------------------------- 5. silently wrong values


@pytest.mark.parametrize("argv,option", [
    (["frames", "{clip}", "--max-side", "-5", "--out", "{tmp}/f"], "--max-side"),
    (["search", "harbor", "-i", "{idx}", "-k", "-3"], "-k"),
    (["search", "eval", "-i", "{idx}", "--queries", "{corpus}", "-k", "-1"], "-k"),
    (["index", "build", "{corpus}", "-o", "{tmp}/i", "--k1", "-5"], "--k1"),
    (["index", "build", "{corpus}", "-o", "{tmp}/i", "--b", "7"], "--b"),
    (["timeline", "{clip}", "--max-chars", "-5"], "--max-chars"),
    (["ask", "harbor lighthouse?", "-i", "{idx}", "--t-max", "-1"], "--t-max"),
    (["ask", "harbor lighthouse?", "-i", "{idx}", "--analyst-frames", "-4"], "--analyst-frames"),
    (["metrics", "calibration", "--input", "{corpus}", "--bins", "0"], "--bins"),
    (["chat", "hi", "--retries", "-2"], "--retries"),
])
def test_out_of_range_values_are_refused(env, capsys, tmp_path, argv, option):
    argv = [a.format(clip=env["clip"], idx=env["idx"], corpus=env["corpus"], tmp=tmp_path) for a in argv]
    rc, err = run(capsys, *argv)
    assert rc == 1 and option in one_line(err) and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["1e308", "-5", "NaN", "Infinity"])
def test_implausible_confidences_are_errors(capsys, tmp_path, value):
    f = tmp_path / "c.jsonl"
    f.write_text('{"correct": true, "confidence": 0.5}\n{"correct": true, "confidence": %s}\n' % value)
    rc, err = run(capsys, "metrics", "calibration", "--input", f)
    assert rc == 1 and "c.jsonl: line 2: confidence" in one_line(err)


@pytest.mark.parametrize("row", [{"id": "1", "gt": [[0, float("nan")]]}, {"id": "1", "gt": [[0, float("inf")]]},
                                 {"id": "1", "gt": [[0, 5]], "duration": -3}, {"id": "1", "gt": [[-2, 5]]}])
def test_non_finite_or_negative_grounding_values(capsys, tmp_path, row):
    gt, pred = tmp_path / "gt.jsonl", tmp_path / "p.jsonl"
    gt.write_text(json.dumps(row) + "\n")
    pred.write_text(json.dumps({"id": "1", "pred": [[0, 5]]}) + "\n")
    rc, err = run(capsys, "metrics", "grounding", "--gt", gt, "--pred", pred)
    assert rc == 1 and "gt.jsonl: line 1:" in one_line(err)


def test_nan_predictions_and_list_answers_are_unparsed_not_wrong(capsys, tmp_path):
    gt, pred = tmp_path / "gt.jsonl", tmp_path / "p.jsonl"
    gt.write_text(json.dumps({"id": "1", "gt": [[0, 5]]}) + "\n")
    pred.write_text('{"id": "1", "pred": [[NaN, 5]]}\n')
    rc, _ = run(capsys, "metrics", "grounding", "--gt", gt, "--pred", pred, "--json")
    m = json.loads(LAST_OUT[0])
    gt.write_text(json.dumps({"id": "1", "answer": "A"}) + "\n")
    pred.write_text(json.dumps({"id": "1", "pred": ["A"]}) + "\n")
    rc2, _ = run(capsys, "metrics", "qa", "--gt", gt, "--pred", pred, "--json")
    q = json.loads(LAST_OUT[0])
    assert rc == 0 and rc2 == 0 and m["unparsed"] == 1 and m["mIoU"] == 0.0
    assert q["unparsed"] == 1 and q["accuracy"] == 0.0


@pytest.mark.parametrize("argv", [
    ["metrics", "calibration", "--input", "{empty}"],
    ["search", "eval", "-i", "{idx}", "--queries", "{empty}"],
    ["search", "eval", "--run", "{empty}", "--qrels", "{empty}"],
    ["bench", "browse", "--questions", "{empty}", "-i", "{idx}", "--out", "{tmp}/o"],
    ["metrics", "qa", "--gt", "{empty}", "--pred", "{empty}"],
])
def test_empty_inputs_are_errors_not_reports_of_nothing(env, capsys, tmp_path, argv):
    argv = [a.format(empty=env["empty"], idx=env["idx"], tmp=tmp_path) for a in argv]
    rc, err = run(capsys, *argv)
    assert rc == 1 and "empty.jsonl" in one_line(err) and list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- 7-9. outputs


def test_markdown_cells_are_escaped(tmp_path):
    from vidsleuth.markdown import cell, table

    assert cell("a|b\n# Heading <script>x</script>") == "a\\|b \\# Heading &lt;script&gt;x&lt;/script&gt;"
    lines = table(["genre", "n"], [["Films | TV\n# injected", 1]])
    assert len(lines) == 3 and lines[2].count(" | ") == 1 and not any(l.startswith("#") for l in lines)


def test_file_names_from_ids_are_injective():
    from vidsleuth.files import safe_filename

    names = {safe_filename(i, ".json") for i in ("a/b", "a_b", "a b", "../a_b", "A_b")}
    assert len(names) == 5 and all("/" not in n and not n.startswith(".") for n in names)


def test_memory_build_leaves_nothing_on_bad_input(env, capsys, tmp_path):
    bad = tmp_path / "train.jsonl"
    bad.write_text('{"id": "t1"}\n')  # no question
    rc, err = run(capsys, "memory", "build", bad, "-i", env["idx"], "-m", tmp_path / "mem")
    assert rc == 1 and "train.jsonl: line 1" in one_line(err) and not (tmp_path / "mem").exists()


def test_bench_compass_leaves_nothing_on_bad_data(capsys, tmp_path):
    data = tmp_path / "d.jsonl"
    data.write_text('{"id": "1", "task": "XX"}\n')
    rc, err = run(capsys, "bench", "compass", "--data", data, "--out", tmp_path / "o")
    assert rc == 1 and "d.jsonl" in one_line(err) and not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- 10. telemetry


def test_onnxruntime_writes_nothing_outside_our_folders(tmp_path):
    """OCR in a fresh process with HOME pointed at an empty folder: onnxruntime's telemetry
    folder (~/.cache/Microsoft/DeveloperTools) must not appear."""
    code = ("from PIL import Image, ImageDraw; from vidsleuth.perception.ocr import read_image; "
            "im = Image.new('RGB', (320, 120), 'white'); ImageDraw.Draw(im).text((10, 50), 'HELLO', fill='black'); "
            "read_image(im)")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert not (home / ".cache" / "Microsoft").exists()
