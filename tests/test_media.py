from __future__ import annotations

import hashlib
import wave

import av
import numpy as np
import pytest
from PIL import Image

from vidsleuth import synth
from vidsleuth.errors import DecodeWarning, MediaError, VidsleuthError
from vidsleuth.media import extract_audio, frame_grid, frame_grids, probe, sample_frames, sample_times

from .conftest import COLORS


def test_probe_reports_what_the_clip_was_built_with(main_clip):
    path, truth = main_clip
    info = probe(path)
    assert info.duration == pytest.approx(truth["duration"], abs=0.05)
    assert info.duration_source == "container"
    assert (info.fps, info.width, info.height, info.rotation) == (25.0, 640, 360, 0)
    assert info.has_audio and info.has_video
    assert (info.codec, info.audio_codec) == ("h264", "aac")
    assert info.content_id == hashlib.sha256(path.read_bytes()).hexdigest()


def test_sample_times_are_midpoints_of_equal_parts():
    assert sample_times(10.0, n=4) == [1.25, 3.75, 6.25, 8.75]
    assert sample_times(10.0, n=2, start=2.0, end=4.0) == [2.5, 3.5]
    assert sample_times(3.0, fps=1.0) == [0.5, 1.5, 2.5]
    with pytest.raises(VidsleuthError, match="either n or fps"):
        sample_times(3.0, n=2, fps=1.0)
    with pytest.raises(VidsleuthError, match="empty sampling window"):
        sample_times(3.0, n=2, start=5.0)


def test_sampled_frames_carry_times_within_one_frame_of_target(main_clip):
    path, truth = main_clip
    frames = sample_frames(path, n=16)
    targets = sample_times(truth["duration"], n=16)
    assert len(frames) == 16
    for f, target in zip(frames, targets):
        assert target - 1e-3 <= f.t < target + 1 / truth["fps"] + 1e-6
    assert frames[0].image.size == (640, 360)


def test_sampled_frames_show_the_content_at_their_time(main_clip):
    """The corner colour says which shot a frame came from: seeking landed where it claims."""
    path, truth = main_clip
    cuts = truth["cuts_seconds"]
    for f in sample_frames(path, n=24):
        shot = sum(f.t >= c for c in cuts)
        got = f.image.getpixel((8, 8))
        assert np.abs(np.array(got) - np.array(COLORS[shot])).max() < 12, (f.t, got)


def test_seek_sampling_equals_sequential_decoding(pattern_clip):
    """Every sampled frame is pixel-identical to the sequentially decoded frame with its pts,
    in the single-decoder path (12 frames) and the parallel, non-reference-skipping one (40)."""
    frames = sample_frames(pattern_clip, n=12) + sample_frames(pattern_clip, n=40)
    by_time = {}
    with av.open(str(pattern_clip)) as c:
        for fr in c.decode(video=0):
            by_time[round(float(fr.time), 6)] = np.asarray(fr.to_image())
    for f in frames:
        assert np.array_equal(np.asarray(f.image), by_time[f.t]), f.t


def test_fps_sampling_window_and_max_side(main_clip):
    path, _ = main_clip
    frames = sample_frames(path, fps=2.0, start=3.0, end=5.0, max_side=160)
    assert [round(f.t, 2) for f in frames] == [3.28, 3.76, 4.28, 4.76]
    assert frames[0].image.size == (160, 90)


def test_frame_grid_tiles_and_labels(main_clip):
    path, _ = main_clip
    frames = sample_frames(path, n=9, max_side=256)
    grid = frame_grid(frames, rows=3, cols=3, cell=256)
    assert grid.image.size == (768, 432)
    assert grid.times == tuple(f.t for f in frames)
    # A label is drawn in yellow on black at the top-left of each cell; the frame itself has none.
    cell = np.asarray(grid.image.crop((0, 0, 80, 30)))
    assert ((cell[..., 0] > 200) & (cell[..., 1] > 200) & (cell[..., 2] < 80)).sum() > 20
    plain = np.asarray(frame_grid(frames, labels=False).image.crop((0, 0, 80, 30)))
    assert ((plain[..., 0] > 200) & (plain[..., 1] > 200) & (plain[..., 2] < 80)).sum() == 0


def test_frame_grid_labels_read_back_with_ocr(main_clip):
    from vidsleuth.perception.ocr import read_image

    path, _ = main_clip
    grid = frame_grid(sample_frames(path, n=4, max_side=256), rows=2, cols=2, cell=256)
    labels = {b.text for b in read_image(grid.image) if b.text.endswith("s")}
    assert labels == {f"{t:.1f}s" for t in grid.times}


def test_watcher_previews_are_two_grids_in_temporal_order(main_clip):
    path, _ = main_clip
    grids = frame_grids(path, n_grids=2, rows=3, cols=3, cell=256)
    assert len(grids) == 2 and all(len(g.times) == 9 for g in grids)
    times = grids[0].times + grids[1].times
    assert list(times) == sorted(times) and grids[0].span[1] < grids[1].span[0]


def test_grid_errors():
    with pytest.raises(VidsleuthError, match="at least one frame"):
        frame_grid([])


def test_extract_audio_places_speech_where_it_was_spoken(main_clip, tmp_path):
    path, truth = main_clip
    out = tmp_path / "a.wav"
    audio = extract_audio(path, sample_rate=16000, out=out)
    assert audio.sample_rate == 16000 and audio.samples.ndim == 1
    assert audio.duration == pytest.approx(truth["duration"], abs=0.1)
    with wave.open(str(out)) as wf:
        assert (wf.getframerate(), wf.getnchannels(), wf.getsampwidth()) == (16000, 1, 2)
    s = audio.samples
    speech = truth["speech"][0]
    loud = np.abs(s[int(speech["start"] * 16000) + 1600 : int(speech["end"] * 16000) - 1600]).mean()
    quiet = np.abs(s[int(4.6 * 16000) : int(5.8 * 16000)]).mean()
    assert loud > 20 * max(quiet, 1e-5)


def test_stereo_extraction(main_clip):
    audio = extract_audio(main_clip[0], mono=False, sample_rate=8000)
    assert audio.samples.ndim == 2 and audio.samples.shape[1] in (1, 2)


# --------------------------------------------------------------------------- odd and bad inputs


def test_audio_only_files_work_for_audio_and_refuse_frames(audio_files):
    for ext, path in audio_files.items():
        info = probe(path)
        assert info.has_audio and not info.has_video and info.width == 0, ext
        assert extract_audio(path).duration == pytest.approx(8.0, abs=0.1), ext
        with pytest.raises(MediaError, match="no video stream") as err:
            sample_frames(path, n=2)
        assert str(path) in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(MediaError, match="file not found") as err:
        probe(tmp_path / "nope.mp4")
    assert "nope.mp4" in str(err.value)


def test_not_a_media_file(tmp_path):
    bad = tmp_path / "notes.mp4"
    bad.write_text("these are my notes, not a video\n" * 50)
    with pytest.raises(MediaError, match="not a readable media file"):
        probe(bad)
    with pytest.raises(MediaError, match="not a readable media file"):
        sample_frames(bad, n=2)


def test_empty_file(tmp_path):
    empty = tmp_path / "empty.mp4"
    empty.touch()
    with pytest.raises(MediaError, match="empty"):
        sample_frames(empty, n=2)


def test_truncated_file_returns_frames_before_the_damage(main_clip, tmp_path):
    path, truth = main_clip
    cut = tmp_path / "cut.mkv"
    synth.remux(path, tmp_path / "full.mkv")
    synth.truncate(tmp_path / "full.mkv", cut, 0.5)
    with pytest.warns(DecodeWarning, match=r"cut\.mkv.*(ends at|failed at) \d+\.\d+ s") as rec:
        frames = sample_frames(cut, n=12)
    assert 2 <= len(frames) < 12
    assert all(b.t > a.t for a, b in zip(frames, frames[1:]))
    assert "returned" in str(rec[0].message)


def test_truncated_mp4_without_index_is_a_clear_error(main_clip, tmp_path):
    cut = synth.truncate(main_clip[0], tmp_path / "cut.mp4", 0.3)
    with pytest.raises(MediaError, match="cut.mp4"):
        sample_frames(cut, n=4)


def test_no_audio_stream(silent_clip):
    info = probe(silent_clip)
    assert info.has_video and not info.has_audio
    with pytest.raises(MediaError, match="no audio stream"):
        extract_audio(silent_clip)


def test_header_without_duration(main_clip, tmp_path):
    path, truth = main_clip
    nodur = synth.without_duration(path, tmp_path / "nodur.mkv")
    with av.open(str(nodur)) as c:
        assert c.duration is None  # the fixture really lacks it
    info = probe(nodur)
    assert info.duration_source == "packets"
    assert info.duration == pytest.approx(truth["duration"], abs=0.1)
    frames = sample_frames(nodur, n=6)
    assert len(frames) == 6 and frames[-1].t > 10.0


def test_rotated_video_is_returned_upright(main_clip, tmp_path):
    path, _ = main_clip
    rot = synth.rotated(path, tmp_path / "rot.mp4", 90)
    info = probe(rot)
    assert (info.rotation, info.width, info.height) == (90, 360, 640)
    frame = sample_frames(rot, n=1)[0]
    assert frame.image.size == (360, 640)
    # ffmpeg's own autorotation is the reference for which way is up.
    ref = tmp_path / "ref.png"
    synth.run_ffmpeg("-ss", str(frame.t), "-i", str(rot), "-frames:v", "1", str(ref))
    diff = np.abs(np.asarray(frame.image, dtype=int) - np.asarray(Image.open(ref).convert("RGB"), dtype=int))
    assert diff.mean() < 8


def test_variable_frame_rate_times_are_real(tmp_path):
    path = tmp_path / "vfr.mp4"
    true_times = synth.variable_frame_rate(path)
    frames = sample_frames(path, n=10)
    for f in frames:
        assert any(abs(f.t - t) < 1e-3 for t in true_times), f.t
    # targets in the slow part land on the next real frame, at most one (long) interval later
    targets = sample_times(probe(path).duration, n=10)
    for f, target in zip(frames, targets):
        interval = 0.2 if target > 1.0 else 0.04
        assert target - 1e-3 <= f.t <= target + interval + 1e-6


def test_one_pixel_video(tmp_path):
    path = synth.tiny_clip(tmp_path / "tiny.mkv")
    info = probe(path)
    assert (info.width, info.height) == (1, 1)
    frames = sample_frames(path, n=3)
    assert [f.image.size for f in frames] == [(1, 1)] * 3
    assert frames[0].image.getpixel((0, 0))[0] > 200  # red
    grid = frame_grid(frames, rows=1, cols=3, cell=64)
    assert grid.image.size == (192, 64)


def test_probe_reads_the_container_tags_once(main_clip, tmp_path):
    tagged = synth.remux(main_clip[0], tmp_path / "tagged.mp4", "-metadata", "title=Harbor <b>tour</b>",
                         "-metadata", "creation_time=2021-05-04T12:00:00Z")
    tags = probe(tagged, with_content_id=False).tags
    assert tags["title"] == "Harbor <b>tour</b>" and tags["creation_time"].startswith("2021-05-04T12:00:00")
    plain = probe(main_clip[0], with_content_id=False).tags  # synth writes the spec's title, no date
    assert plain["title"] == "Fixture main clip" and "creation_time" not in plain
