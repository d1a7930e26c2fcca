from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from vidsleuth import synth


def test_probe_json(cli, main_clip):
    out = json.loads(cli("probe", main_clip[0], "--json", check_rc=0).stdout)
    assert out["width"] == 640 and out["duration"] == pytest.approx(12.0, abs=0.05)
    human = cli("probe", main_clip[0], check_rc=0).stdout
    assert "0:12" in human and "h264 640x360 @ 25 fps" in human


def test_frames_and_grid(cli, main_clip, tmp_path):
    rows = json.loads(cli("frames", main_clip[0], "-n", "5", "--out", tmp_path / "f", "--json", check_rc=0).stdout)
    assert len(rows) == 5 and all(Path(r["file"]).exists() for r in rows)
    assert json.loads((tmp_path / "f" / "frames.json").read_text())["frames"][0]["t"] == rows[0]["t"]
    grids = json.loads(cli("grid", main_clip[0], "--out", tmp_path / "g.jpg", "--grids", "2", "--json", check_rc=0).stdout)
    assert [Path(g["file"]).name for g in grids] == ["g-1.jpg", "g-2.jpg"]
    assert Image.open(grids[0]["file"]).size == (768, 432)


def test_ingest_and_timeline(cli, main_clip, tmp_path):
    lib = tmp_path / "lib"
    out = json.loads(cli("ingest", main_clip[0], "--library", lib, "--ocr-fps", "0.5", "--json", check_rc=0).stdout)
    assert out["videos"][0]["segments"]["shot"] == 3
    text = cli("timeline", main_clip[0], "--library", lib, "--ocr-fps", "0.5", "--kind", "speech", check_rc=0).stdout
    assert text.startswith("[0.") and "speech:" in text
    data = json.loads(cli("timeline", main_clip[0], "--library", lib, "--ocr-fps", "0.5", "--format", "json", check_rc=0).stdout)
    assert data["version"] == 1 and {s["kind"] for s in data["segments"]} == {"speech", "ocr", "shot"}


def _bad_inputs(tmp: Path, main: Path, audio: Path) -> list[tuple[list, str]]:
    (tmp / "notes.mp4").write_text("not a video\n" * 20)
    (tmp / "empty.mp4").touch()
    (tmp / "junk.srt").write_text("nothing useful here\n")
    synth.truncate(main, tmp / "cut.mp4", 0.2)
    return [
        (["probe", tmp / "missing.mp4"], "missing.mp4: file not found"),
        (["frames", tmp / "notes.mp4", "--out", tmp / "o"], "notes.mp4: not a readable media file"),
        (["grid", tmp / "empty.mp4", "--out", tmp / "g.jpg"], "empty.mp4: file is empty"),
        (["frames", tmp / "cut.mp4", "--out", tmp / "o"], "cut.mp4"),
        (["grid", audio, "--out", tmp / "g.jpg"], "has no video stream"),
        (["timeline", main, "--subtitles", tmp / "junk.srt", "--no-ocr", "--no-shots", "--library", tmp / "l"],
         "junk.srt: no subtitle cue could be read"),
        (["frames", main, "--out", tmp / "o", "--start", "50"], "empty sampling window"),
    ]


def test_bad_input_gives_one_line_naming_the_file(cli, main_clip, audio_files, tmp_path):
    for args, expected in _bad_inputs(tmp_path, main_clip[0], audio_files["wav"]):
        proc = cli(*args, check_rc=None)
        assert proc.returncode != 0, args
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("vidsleuth: error: "), proc.stderr
        assert expected in lines[0], (expected, lines[0])
        assert "Traceback" not in proc.stderr


def test_debug_shows_the_traceback(cli, tmp_path):
    proc = cli("--debug", "probe", tmp_path / "missing.mp4", check_rc=None)
    assert proc.returncode != 0 and "Traceback" in proc.stderr and "MediaError" in proc.stderr


def test_damaged_file_warns_with_the_time_and_keeps_earlier_frames(cli, main_clip, tmp_path):
    full = synth.remux(main_clip[0], tmp_path / "full.mkv")
    cut = synth.truncate(full, tmp_path / "cut.mkv", 0.5)
    proc = cli("frames", cut, "-n", "12", "--out", tmp_path / "o", "--json", check_rc=0)
    assert len(json.loads(proc.stdout)) >= 2
    assert "vidsleuth: warning:" in proc.stderr and "cut.mkv" in proc.stderr


def test_no_output_is_lost_on_error(cli, main_clip, tmp_path):
    """A failing ingest leaves a library it did not change."""
    lib = tmp_path / "lib"
    cli("ingest", main_clip[0], "--library", lib, "--no-ocr", "--no-shots", "--no-asr", check_rc=0)
    before = sorted(p.name for p in lib.rglob("*"))
    proc = cli("ingest", tmp_path / "missing.mp4", "--library", lib, check_rc=None)
    assert proc.returncode == 1
    assert sorted(p.name for p in lib.rglob("*") if not p.name.endswith(("-wal", "-shm"))) == [
        b for b in before if not b.endswith(("-wal", "-shm"))]


def test_demo_generates_ingests_and_prints_timelines(cli, tmp_path):
    proc = cli("demo", "--out", tmp_path / "demo", "--skip-agent", "--skip-report", "--skip-compass", check_rc=0)
    assert "== timeline: lighthouse_tour" in proc.stdout and "; timelines " in proc.stdout
    lighthouse = (tmp_path / "demo" / "timelines" / "lighthouse_tour.txt").read_text().lower()
    assert "harbor point" in lighthouse and "1887" in lighthouse
    market = (tmp_path / "demo" / "timelines" / "market_report_zh.txt").read_text()
    assert "北京" in market
    again = cli("demo", "--out", tmp_path / "demo", "--skip-agent", "--skip-report", "--skip-compass", check_rc=0)
    unstamped = lambda out: re.sub(r"(?m)^\[\d+:\d\d\] ", "", out)  # the demo stamps each job with its elapsed time
    assert unstamped(again.stdout) == unstamped(proc.stdout)  # second run: cached, same output


def test_old_option_spellings_still_work_with_a_one_line_warning(cli, tmp_path):
    proc = cli("bench", "omnidr", "--tasks", tmp_path / "none", "--reports", tmp_path / "none", "--out", tmp_path / "o",
               "--concurrency", "2", check_rc=None)
    lines = proc.stderr.strip().splitlines()
    assert "vidsleuth: warning: --concurrency is deprecated; use --workers" in lines
    assert proc.returncode == 1 and lines[-1].startswith("vidsleuth: error: ") and "none" in lines[-1]
    assert "--concurrency" not in cli("bench", "browse", "--help", check_rc=0).stdout  # hidden from --help
