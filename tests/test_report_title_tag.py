"""A container title that is a file name or a placeholder is no title: the request stands in for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vidsleuth.report.pipeline import file_name_like, video_tags


@pytest.mark.parametrize("title, name_like", [
    ("larou_zh", True), ("knife_angle", True), ("VID_20240312_101500", True), ("GX010203", True),
    ("knife-angle-v2", True), ("video", True), ("clip", True), ("", True),
    ("Steam milk like a barista", False), ("清蒸鲈鱼的做法", False), ("Espresso", False), ("Trailvolt X9 review", False),
])
def test_file_names_and_placeholders_are_not_titles(title, name_like):
    assert file_name_like(title, Path("/videos/upload.mp4")) is name_like


@pytest.mark.parametrize("tag, read", [("pump check", ""), ("pump_check_v2", ""), ("Pump check at the lake", "Pump check at the lake")])
def test_the_container_title_is_read_only_when_it_is_a_title(tmp_path, tag, read):
    from vidsleuth import synth

    plain, clip = tmp_path / "plain.mp4", tmp_path / "pump check.mp4"
    synth.make_clip(plain, synth.ClipSpec(shots=(synth.Shot(10, "0x203060"),), fps=10, width=160, height=90))
    synth.run_ffmpeg("-i", str(plain), "-c", "copy", "-metadata", f"title={tag}", str(clip))
    assert video_tags(clip)[0] == read
