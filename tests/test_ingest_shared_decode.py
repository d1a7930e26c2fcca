"""One decode for OCR and shots (``media.scan``, ``perception.visual``): the samples are exactly
the frames ``iter_frames`` returns, and the segments those of the two separate stages."""

from __future__ import annotations

import numpy as np
import pytest

from vidsleuth.library import IngestOptions, ingest
from vidsleuth.media import iter_frames
from vidsleuth.media.scan import scan
from vidsleuth.perception.shots import small_size


@pytest.mark.parametrize("fps", [1.0, 3.0])
def test_scan_samples_are_the_frames_iter_frames_returns(pattern_clip, fps):
    """testsrc2 with three B-frames between references: the skipped frames are never samples."""
    seen = list(scan(pattern_clip, fps=fps, max_side=160, small_size=small_size))
    samples = [s for f in seen for s in f.samples]
    expected = list(iter_frames(pattern_clip, fps=fps, max_side=160))
    assert [s.t for s in samples] == [e.t for e in expected]
    for s, e in zip(samples, expected):
        assert np.array_equal(np.asarray(s.image), np.asarray(e.image)), s.t
    times = [f.t for f in seen]
    assert times == sorted(times) and 0 < len(seen) < 20 * 30  # non-reference frames were skipped
    assert seen[0].small.shape[1] == small_size(320, 240)[0]


def test_ingest_with_one_decode_equals_separate_stages(main_clip, tmp_path):
    """The same timeline as OCR (``read_video_text``) and shots (``detect_shots``) run apart."""
    path, truth = main_clip
    shared = ingest(path, tmp_path / "a", IngestOptions(ocr_fps=0.5))
    separate = ingest(path, tmp_path / "b", IngestOptions(ocr_fps=0.5, shared_decode=False))
    assert shared.segments == separate.segments
    assert len(shared.of_kind("shot")) == len(truth["cuts_seconds"]) + 1 and shared.of_kind("ocr")
    names = sorted(p.name.split("-")[0] for p in (tmp_path / "a" / "stages").rglob("*.json"))
    assert names == ["ocr", "shots", "transcript"]  # each stage cached on its own


def _reference_frames(path) -> int:
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        stream.codec_context.skip_frame = "NONREF"
        return sum(1 for _ in container.decode(stream))


@pytest.mark.parametrize("fps", [1.0, 3.0])
def test_packet_rule_decodes_only_the_frames_next_to_samples(pattern_clip, fps, monkeypatch):
    """Skipping decided per packet from its own time: besides the reference frames only the frames
    within one interval of a sample are decoded (the rule from the last frame out decoded the
    8 before each), every sample still the frame ``iter_frames`` returns, none fetched by a seek."""
    import vidsleuth.media.scan as scan_module

    seeks: list[float] = []
    real_exact = scan_module._exact
    monkeypatch.setattr(scan_module, "_exact", lambda p, t, m: seeks.append(t) or real_exact(p, t, m))
    counts = {}
    for rule in ("output", "packet"):
        monkeypatch.setattr(scan_module, "SKIP_BY", rule)
        seen = list(scan(pattern_clip, fps=fps, max_side=160, small_size=small_size))
        samples = [s for f in seen for s in f.samples]
        expected = list(iter_frames(pattern_clip, fps=fps, max_side=160))
        assert [s.t for s in samples] == [e.t for e in expected]
        assert all(np.array_equal(np.asarray(s.image), np.asarray(e.image)) for s, e in zip(samples, expected))
        counts[rule] = len(seen)
    assert seeks == []
    refs = _reference_frames(pattern_clip)
    assert refs < counts["packet"] <= refs + 3 * len(samples) < counts["output"]
