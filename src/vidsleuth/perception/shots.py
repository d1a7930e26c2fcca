"""Shot boundaries with PySceneDetect's content detector, read through PyAV.

The fast path (default) feeds the detector from one low-resolution, frame-skipping decode:
non-reference frames are not decoded (an encoder starts a new shot on a reference frame, usually
a keyframe) and each frame is scaled by FFmpeg (its area scaler) straight to the detector's working width
(about 256 px, PySceneDetect's own downscale), instead of being converted to a full-size image first.
``fast=False`` is PySceneDetect's own reader (every frame, full size, then downscaled).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import MediaError, require
from ..media import probe
from ..types import Segment

SHOTS_VERSION = 3  # part of the ingest cache key: 2 = the low-resolution frame-skipping decode, 3 = area scaling


def detect_shots(path: str | Path, *, threshold: float = 27.0, min_shot: float = 0.5, fast: bool = True) -> list[Segment]:
    """One ``shot`` segment per shot (start of first frame to start of the next shot)."""
    info = probe(path, with_content_id=False)
    if not info.has_video:
        return []
    if fast:
        return _segments(_fast_cuts(path, threshold, min_shot), info.duration)
    sd = require("scenedetect", "perception")
    try:
        video = sd.open_video(str(path), backend="pyav")
    except Exception as exc:
        raise MediaError(f"shot detection cannot open the video: {exc}", path=path) from exc
    fps = video.frame_rate or 25.0
    manager = sd.SceneManager()
    manager.auto_downscale = True
    manager.add_detector(sd.ContentDetector(threshold=threshold, min_scene_len=max(1, int(min_shot * fps))))
    manager.detect_scenes(video, show_progress=False)
    scenes = manager.get_scene_list(start_in_scene=True)
    if not scenes:
        return [Segment(0.0, info.duration, "shot", "shot 1 of 1", source="shots:scenedetect-content")]
    total = len(scenes)
    return [
        Segment(
            start=round(start.seconds, 3),
            end=round(end.seconds, 3),
            kind="shot",
            text=f"shot {k} of {total}",
            source="shots:scenedetect-content",
        )
        for k, (start, end) in enumerate(scenes, 1)
    ]


class CutFinder:
    """PySceneDetect's ContentDetector fed frame by frame (time in seconds, small BGR array):
    the fast path's own decode and the shared decode (``visual``) both feed it."""

    def __init__(self, fps: float, threshold: float = 27.0, min_shot: float = 0.5):
        self.sd = require("scenedetect", "perception")
        self.fps = fps
        self.detector = self.sd.ContentDetector(threshold=threshold, min_scene_len=max(1, int(min_shot * fps)))
        self.cuts: list[float] = []
        self.last = None

    def feed(self, t: float, bgr) -> None:
        self.last = self.sd.FrameTimecode(max(0, round(t * self.fps)), fps=self.fps)
        self.cuts += [c.seconds for c in self.detector.process_frame(self.last, bgr)]

    def finish(self) -> list[float]:
        """Cut times (seconds, after 0), sorted."""
        if self.last is not None:
            self.cuts += [c.seconds for c in self.detector.post_process(self.last)]
            self.last = None
        return sorted(c for c in self.cuts if c > 0)


def small_size(width: int, height: int) -> tuple[int, int]:
    """The even size PySceneDetect's own reader downscales a ``width`` x ``height`` frame to."""
    from scenedetect.scene_manager import compute_downscale_factor

    factor = max(1.0, float(compute_downscale_factor(width)))
    return max(16, int(width / factor)) // 2 * 2, max(16, int(height / factor)) // 2 * 2


def _fast_cuts(path: str | Path, threshold: float, min_shot: float) -> list[float]:
    """Cut times (seconds) from ContentDetector over a NONREF-skipping, small-frame decode."""
    from ..media import open_media
    from ..media.scan import small_bgr

    with open_media(path) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        stream.codec_context.skip_frame = "NONREF"
        fps = float(stream.average_rate or stream.guessed_rate or 25.0)
        w, h = stream.codec_context.width, stream.codec_context.height
        size = small_size(w, h)
        finder = CutFinder(fps, threshold, min_shot)
        try:
            for frame in container.decode(stream):
                if frame.pts is None:
                    continue
                finder.feed(float(frame.pts * stream.time_base),
                            small_bgr(frame, size))
        except Exception as exc:  # FFmpeg errors on damaged files: the cuts before the damage stand
            if finder.last is None:
                raise MediaError(f"shot detection cannot decode the video: {exc}", path=path) from exc
        return finder.finish()


def _segments(cuts: list[float], duration: float) -> list[Segment]:
    bounds = [0.0] + cuts + [duration]
    total = len(bounds) - 1
    return [Segment(start=round(a, 3), end=round(b, 3), kind="shot", text=f"shot {k} of {total}",
                    source="shots:scenedetect-content") for k, (a, b) in enumerate(zip(bounds, bounds[1:]), 1)]
