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
