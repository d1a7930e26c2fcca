"""On-screen text and shots from one decode of the video.

OCR sampled the video with its own decode and shot detection decoded it again: two full decodes
of a 720p file were, after the models, the largest share of an ingest's CPU time. Here one decode
(``media.scan``) feeds both: every decoded frame, small, to the shot detector in the decoding
thread, and the 1-fps samples, at reading size, through a short queue to OCR in the calling
thread, so decoding and the OCR models run side by side (PyAV and onnxruntime release the GIL).
The samples are the frames ``iter_frames`` returns and the shot detector sees the frames its own
fast path sees (plus those decoded near the samples), so both stages' segments keep their meaning.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Iterator

from ..media import open_media, probe
from ..media.scan import scan
from ..types import Frame, Segment
from .ocr import read_frames_text
from .shots import CutFinder, _segments, small_size

_END = object()


def read_visual(path: str | Path, *, fps: float = 1.0, max_side: int = 960, changed_only: bool = True,
                threshold: float = 27.0, min_shot: float = 0.5) -> tuple[list[Segment], list[Segment]]:
    """(``ocr`` segments, ``shot`` segments) from one decode; ([], []) without a video stream.
    The same segments ``read_video_text(path, fps=fps)`` and ``detect_shots(path)`` give."""
    info = probe(path, with_content_id=False)
    if not info.has_video:
        return [], []
    with open_media(path) as container:  # the frame rate the fast shot path counts frames with
        stream = container.streams.video[0]
        rate = float(stream.average_rate or stream.guessed_rate or 25.0)
    finder = CutFinder(rate, threshold, min_shot)
    samples: queue.Queue = queue.Queue(maxsize=8)
    stop = threading.Event()
    failure: list[BaseException] = []

    def decode() -> None:
        try:
            for f in scan(path, fps=fps, max_side=max_side, small_size=small_size):
                finder.feed(f.t, f.small)
                for s in f.samples:
                    _put(samples, s, stop)
        except BaseException as exc:  # handed to the reading thread, raised there
            failure.append(exc)
        finally:
            _put(samples, _END, stop)

    worker = threading.Thread(target=decode, name="vidsleuth-visual-decode", daemon=True)
    worker.start()
    try:
        ocr = read_frames_text(_drain(samples), info.duration, fps=fps, changed_only=changed_only)
    finally:
        stop.set()
        worker.join()
    if failure:
        raise failure[0]
    return ocr, _segments(finder.finish(), info.duration)


def _put(q: queue.Queue, item: object, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            q.put(item, timeout=0.2)
            return
        except queue.Full:
            continue


def _drain(q: queue.Queue) -> Iterator[Frame]:
    while (item := q.get()) is not _END:
        yield item
