"""Shot boundaries with PySceneDetect's content detector, read through PyAV."""

from __future__ import annotations

from pathlib import Path

from ..errors import MediaError, require
from ..media import probe
from ..types import Segment


def detect_shots(path: str | Path, *, threshold: float = 27.0, min_shot: float = 0.5) -> list[Segment]:
    """One ``shot`` segment per shot (start of first frame to start of the next shot)."""
    info = probe(path, with_content_id=False)
    if not info.has_video:
        return []
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
