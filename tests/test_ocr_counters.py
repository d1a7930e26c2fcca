"""A running counter or clock on screen is the picture ticking, not a value the video states
(``texttracks.counters``): read from a real encoded clip, the fixed panel stays and the ticking
numbers go; the rule's edges on tracks (a slideshow of numbered steps is not a counter)."""

from __future__ import annotations

import subprocess

import pytest

from vidsleuth.perception import ocr
from vidsleuth.perception.texttracks import _Track, counters

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _track(key: str, first: float, last: float) -> _Track:
    return _Track(key, key, first, last)


def test_a_chain_of_one_sample_numbers_is_a_counter():
    tracks = [_track("86", 1, 1), _track("111", 2, 2), _track("136", 3, 3), _track("161", 4, 4),
              _track("max25bar", 1, 6), _track("25", 8, 12)]
    assert counters(tracks, 1.0) == {0, 1, 2, 3}


@pytest.mark.parametrize("tracks", [
    [_track("step1", 0, 4), _track("step2", 5, 9), _track("step3", 10, 14)],  # each shown for seconds
    [_track("4", 20, 20), _track("5", 30, 30), _track("6", 40, 40)],  # far apart: three captions
    [_track("12", 1, 1), _track("12", 2, 2), _track("12", 3, 3)],  # the same number: one caption flickering
])
def test_what_is_no_counter(tracks):
    assert counters(tracks, 1.0) == set()


def test_a_clip_with_a_frame_counter_keeps_only_its_panel(tmp_path):
    clip = tmp_path / "counter.mp4"
    draw = (f"drawtext=fontfile={FONT}:text='%{{frame_num}}':x=80:y=80:fontsize=64:fontcolor=white,"
            f"drawtext=fontfile={FONT}:text='MAX 2.5 BAR':x=80:y=400:fontsize=56:fontcolor=yellow")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=0x202830:s=960x540:r=25:d=8",
                    "-vf", draw, "-c:v", "libx264", "-pix_fmt", "yuv420p", str(clip)], check=True)
    texts = [s.text for s in ocr.read_video_text(clip, fps=1.0)]
    assert any("2.5" in t and "BAR" in t.upper() for t in texts), texts
    assert not [t for t in texts if t.strip().isdigit()], texts  # no frame number survives as a value
