from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from vidsleuth.library import IngestOptions, Library, ingest

FAST = IngestOptions(ocr_fps=0.5)


def test_ingest_merges_every_stage(main_clip, tmp_path):
    path, truth = main_clip
    tl = ingest(path, tmp_path / "lib", FAST)
    kinds = {s.kind for s in tl.segments}
    assert kinds == {"speech", "ocr", "shot"}
    assert [s.start for s in tl.segments] == sorted(s.start for s in tl.segments)
    assert tl.video.content_id and tl.video.duration == pytest.approx(truth["duration"], abs=0.05)
    assert "speech: The rocket launched" in tl.to_text() or "speech: the rocket launched" in tl.to_text().lower()
    with sqlite3.connect(tmp_path / "lib" / "catalog.sqlite") as db:
        assert db.execute("SELECT count(*) FROM videos").fetchone()[0] == 1


def test_reingest_unchanged_is_a_lookup_and_changed_is_redone(main_clip, tmp_path, copy_of):
    video = copy_of(main_clip[0], "clip.mp4")
    lib = tmp_path / "lib"
    first = ingest(video, lib, FAST)
    assert sorted((lib / "stages").rglob("*.json"))  # each stage's result was cached
    # With the stage results gone, an unchanged file is still answered from the catalog: the
    # same timeline, and no stage runs again (it would write its result back).
    shutil.rmtree(lib / "stages")
    again = ingest(video, lib, FAST)
    assert again == first
    assert not (lib / "stages").exists()  # nothing recomputed
    # Change the file: new bytes, new content id, new ingest.
    with open(video, "ab") as fh:
        fh.write(b"\0" * 16)
    os.utime(video, ns=(time.time_ns(), time.time_ns() + 10**9))
    changed = ingest(video, lib, FAST)
    assert changed.video.content_id != first.video.content_id


def test_a_byte_identical_copy_reports_its_own_path(main_clip, tmp_path, copy_of):
    first = copy_of(main_clip[0], "first.mp4")
    second = copy_of(main_clip[0], "second.mp4")
    lib = tmp_path / "lib"
    a = ingest(first, lib, FAST)
    b = ingest(second, lib, FAST)  # the same content: a lookup, reported under the path asked about
    assert a.video.content_id == b.video.content_id
    assert Path(a.video.path).name == "first.mp4" and Path(b.video.path).name == "second.mp4"


def test_killed_ingest_resumes_from_finished_stages(main_clip, tmp_path, copy_of):
    """A first run that only got through the transcript (as if killed during OCR) leaves that
    stage on disk; the full run reuses it instead of running ASR again."""
    video = copy_of(main_clip[0], "resume.mp4")
    lib = tmp_path / "lib"
    ingest(video, lib, IngestOptions(ocr=False, shots=False))
    transcript_files = list((lib / "stages").rglob("transcript-*.json"))
    assert len(transcript_files) == 1
    stamp = transcript_files[0].stat().st_mtime_ns
    full = ingest(video, lib, FAST)
    assert transcript_files[0].stat().st_mtime_ns == stamp
    assert {s.kind for s in full.segments} == {"speech", "ocr", "shot"}


def test_sidecar_subtitles_win_over_asr(main_clip, tmp_path, copy_of):
    video = copy_of(main_clip[0], "talk.mp4")
    (tmp_path / "talk.srt").write_text("1\n00:00:00,500 --> 00:00:03,000\nfrom the sidecar\n")
    tl = ingest(video, tmp_path / "lib", IngestOptions(ocr=False, shots=False))
    assert [(s.kind, s.text) for s in tl.segments] == [("subtitle", "from the sidecar")]
    # Editing the sidecar changes the cache key.
    (tmp_path / "talk.srt").write_text("1\n00:00:00,500 --> 00:00:03,000\nedited line\n")
    tl2 = ingest(video, tmp_path / "lib", IngestOptions(ocr=False, shots=False))
    assert tl2.segments[0].text == "edited line"
    other = tmp_path / "other.vtt"
    other.write_text("WEBVTT\n\n00:01.000 --> 00:02.000\nexplicit file\n")
    tl3 = ingest(video, tmp_path / "lib", IngestOptions(subtitles=str(other), ocr=False, shots=False))
    assert tl3.segments[0].text == "explicit file"


def test_silent_video_has_an_empty_transcript(silent_clip, tmp_path):
    tl = ingest(silent_clip, tmp_path / "lib", FAST)
    assert not tl.of_kind("speech")
    assert any("NO SOUND" in s.text for s in tl.of_kind("ocr"))


def test_audio_only_file_gets_a_transcript(audio_files, tmp_path):
    tl = ingest(audio_files["mp3"], tmp_path / "lib", FAST)
    assert {s.kind for s in tl.segments} == {"speech"}
    assert "notebook" in tl.to_text().lower()


def test_damaged_catalog_is_a_clear_error(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "catalog.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(Exception, match="catalog"):
        Library(lib)
