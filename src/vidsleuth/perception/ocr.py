"""On-screen text: OCR on sampled frames, merged over time into segments with start and end.

RapidOCR (PP-OCRv4, English and Chinese, weights inside its wheel) reads frames sampled every
``1/fps`` seconds. Detection runs on the frame; recognition runs on each detected line cropped
with a margin and scaled to ``REC_HEIGHT`` px: the recogniser squeezes its input to 48 px, and
small glyphs read in place lose the gaps between words ("HARBORPOINTLIGHTHOUSE"); the scaled crop
keeps them (measured on generated captions in three fonts at 16, 22 and 40 px: see
``tests/test_perception.py`` and ``benchmarks/bench_ocr.py``). Frames that look the same as the previous one reuse its result, so static
overlays cost one OCR call, not one per sample. The same text seen in consecutive samples becomes
one segment from half a step before its first sighting to half a step after its last.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
from PIL import Image

from ..errors import require
from ..media import iter_frames, probe
from ..progress import task
from ..types import Frame, Segment
from . import calm_session, quiet_onnxruntime
from .texttracks import _follow, _segment, _Track, counters, normalise  # noqa: F401  (normalise: public here too)

_ENGINE = None
# part of the ingest cache key: bump when what this module reads changes. 7: track text by votes
# (``texttracks.TRACK_TEXT``) with the line gate on (6 had meant the gate once, then same-width
# batches); 8: short lines padded to 192 px, not 320 (``REC_BATCH``); 9: running counters and clocks
# dropped (``texttracks.counters``)
OCR_VERSION = 9
DET_MIN_SIDE = 540  # px: smaller frames are upscaled before detection (small captions merge words otherwise)
REC_HEIGHT = 96  # px: the height a text line's crop (with its margin) is scaled to before recognition
MARGIN = 0.3  # of the line height, added around each detected box before recognition


def _engine():
    global _ENGINE
    if _ENGINE is None:
        module = require("rapidocr_onnxruntime", "perception")
        quiet_onnxruntime()
        # detection at a 540-px short side (RapidOCR upscales to 736 by default): 15% less time per
        # frame, and on the generated captions one error fewer (tests/test_perception.py)
        engine = module.RapidOCR(det_limit_side_len=DET_MIN_SIDE)
        if os.environ.get("VIDSLEUTH_OCR_SPIN") != "1":  # "1": ORT's spinning threads (the bench's before)
            calm_session(engine.text_det.infer, ocr_threads())
            calm_session(engine.text_rec.session, ocr_threads())
        _ENGINE = engine
    return _ENGINE


def ocr_threads() -> int:
    """onnxruntime threads per OCR call: ``$VIDSLEUTH_OCR_THREADS``, else ``$VIDSLEUTH_THREADS``,
    else the machine's cores."""
    env = os.environ.get("VIDSLEUTH_OCR_THREADS") or os.environ.get("VIDSLEUTH_THREADS")
    return int(env) if env else (os.cpu_count() or 1)


@dataclass(frozen=True)
class TextBox:
    text: str
    score: float
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the read image


def read_image(image: Image.Image, min_score: float = 0.5, rec_height: int = REC_HEIGHT) -> list[TextBox]:
    """Text lines in one image, best first by position (top to bottom, left to right).
    ``rec_height=0`` recognises the detector's tight crops in place (the old, spaceless way)."""
    rgb = image.convert("RGB")
    scale = 1.0
    if rec_height and min(rgb.size) < DET_MIN_SIDE:
        scale = DET_MIN_SIDE / min(rgb.size)
        rgb = rgb.resize((round(rgb.width * scale), round(rgb.height * scale)), Image.Resampling.BICUBIC)
    arr = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])  # RapidOCR expects OpenCV's BGR order
    engine = _engine()
    if not rec_height:
        result, _ = engine(arr)
        found = [(quad, text, score) for quad, text, score in (result or [])]
    else:
        quads, _ = engine(arr, use_cls=False, use_rec=False)
        found = _recognise_lines(engine, rgb, quads or [], rec_height)
    return join_lines(_text_boxes(found, scale, min_score))


class ChangeReader:
    """Reads the frames of one video in order, reading again only the regions where text can
    have changed since the previous frame (``textregions``); the whole frame is read first, on a
    cut and every ``refresh`` frames. Same lines as ``read_image`` where text changed."""

    # keep lines whose glyphs cannot have changed (``textregions.line_unchanged``) without detection
    # or recognition. Off while a track showed its most confident reading: a reading kept is not
    # read again, and on the 5-minute bench clip 4 more captions of 50 were then not read exactly
    # (0.86 against 0.94). With a track's text chosen by votes (``texttracks``) the kept, confirmed
    # reading outvotes a confident misreading: captions exact 1.0 on the 3- and 5-minute clips
    line_gate = True

    def __init__(self, min_score: float = 0.5, refresh: int = 10):
        self.min_score, self.refresh = min_score, max(1, refresh)
        self.prev_grey: np.ndarray | None = None
        self.prev: list[TextBox] = []  # in the read image's pixels
        self.refs: dict[TextBox, np.ndarray] = {}  # each line's pixels when it was read
        self.n = 0
        self.stats = {"frames": 0, "whole": 0, "regions_read": 0, "regions_kept": 0}

    def _plan(self, engine, arr: np.ndarray, grey: np.ndarray) -> tuple[list[TextBox], list[tuple]]:
        """(lines kept from the previous frame, regions to read)."""
        from . import textregions as tr

        h, w = grey.shape
        if (self.prev_grey is None or self.n % self.refresh == 0 or self.prev_grey.shape != grey.shape
                or tr.changed_share(self.prev_grey, grey) > tr.CUT_SHARE):
            self.stats["whole"] += 1
            return [], [(0, 0, w, h)]
        # lines whose glyphs cannot have changed are kept without a model (``line_gate``)
        steady = [b for b in self.prev if self.line_gate and b in self.refs and tr.line_unchanged(self.refs[b], grey, b.box)]
        moving = [b for b in self.prev if b not in steady]
        known = [tr.grow(b.box, (b.box[3] - b.box[1]) * MARGIN + tr.MARGIN, w, h) for b in moving]
        maps = [tr.grow(m, tr.MARGIN, w, h) for m in tr.text_map_regions(engine, arr, margin=0)
                if not any(tr.covered(m, b.box, 0.5 * (b.box[3] - b.box[1])) for b in steady)]
        keep, todo = [], []
        for box in tr.merge(maps + known):
            if tr.region_changed(self.prev_grey, grey, box):
                todo.append(box)
            else:  # nothing moved here: the lines read here last time are still there
                keep += [b for b in moving if tr.inside(_centre(b), box)]
        keep += [b for b in steady if not any(tr.inside(_centre(b), box) for box in todo)]
        self.stats["regions_read"] += len(todo)
        self.stats["regions_kept"] += len(keep)
        return keep, todo

    def read(self, image: Image.Image) -> list[TextBox]:
        import cv2

        from . import textregions as tr

        rgb, scale = _read_size(image)
        arr = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
        grey = cv2.cvtColor(arr, cv2.COLOR_BGR2GRAY)
        engine = _engine()
        keep, todo = self._plan(engine, arr, grey)
        whole = todo == [(0, 0, arr.shape[1], arr.shape[0])]
        quads = tr.detect(engine, arr, None if whole else todo)
        lines = join_lines(keep + _text_boxes(_recognise_lines(engine, rgb, quads), 1.0, self.min_score))
        self.refs = self._confirmed(lines, set(keep), grey)
        self.prev_grey, self.prev = grey, lines
        self.n += 1
        self.stats["frames"] += 1
        return [TextBox(b.text, b.score, tuple(v / scale for v in b.box)) for b in lines]

    def _confirmed(self, lines: list[TextBox], kept: set, grey: np.ndarray) -> dict:
        """The lines the gate may keep next time, with their pixels when read: those kept now, and
        those read now as they were read before at that place (one misreading is not kept)."""
        from . import textregions as tr

        out = {}
        for b in lines:
            if b in kept:
                if b in self.refs:
                    out[b] = self.refs[b]
            elif any(p.text == b.text and tr.overlap(p.box, b.box) for p in self.prev):
                out[b] = tr.crop(grey, b.box)
        return out


def _centre(b: TextBox) -> tuple[float, float]:
    return (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2


def _read_size(image: Image.Image) -> tuple[Image.Image, float]:
    """The image at the size text is read at (short side at least ``DET_MIN_SIDE``) and its scale."""
    rgb = image.convert("RGB")
    if min(rgb.size) >= DET_MIN_SIDE:
        return rgb, 1.0
    scale = DET_MIN_SIDE / min(rgb.size)
    return rgb.resize((round(rgb.width * scale), round(rgb.height * scale)), Image.Resampling.BICUBIC), scale


def _text_boxes(found, scale: float, min_score: float) -> list[TextBox]:
    boxes = []
    for quad, text, score in found:
        text = " ".join(str(text).split())
        if not text or float(score) < min_score:
            continue
        xs, ys = [p[0] / scale for p in quad], [p[1] / scale for p in quad]
        boxes.append(TextBox(text, float(score), (min(xs), min(ys), max(xs), max(ys))))
    return boxes


def _recognise_lines(engine, rgb: Image.Image, quads, rec_height: int = REC_HEIGHT) -> list:
    """(quad, text, score) for the lines the detector's ``quads`` make: words on one line are
    joined first (a crop with a margin around one word would catch a neighbour's glyph:
    "SECOND" | "D42"), each line is cropped with a margin, scaled and recognised in batches of
    crops padded to the same width (``REC_BATCH``)."""
    lines = join_lines([TextBox("", 1.0, _bounds(q)) for q in quads])
    crops, kept = [], []
    for line in lines:
        x1, y1, x2, y2 = line.box
        m = (y2 - y1) * MARGIN
        box = (max(0, int(x1 - m)), max(0, int(y1 - m)), min(rgb.width, int(np.ceil(x2 + m))),
               min(rgb.height, int(np.ceil(y2 + m))))
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            continue
        crop = rgb.crop(box)
        if crop.height < rec_height:
            s = rec_height / crop.height
            crop = crop.resize((max(1, round(crop.width * s)), rec_height), Image.Resampling.BICUBIC)
        crops.append(np.ascontiguousarray(np.asarray(crop)[:, :, ::-1]))
        kept.append([(x1, y1), (x2, y1), (x2, y2), (x1, y2)])
    texts = _recognise(engine, crops) if crops else []
    return [(quad, text, score) for quad, (text, score) in zip(kept, texts)]


_REC_CACHE: dict[bytes, tuple[str, float]] = {}
_REC_CACHE_MAX = 4096


def _crop_key(crop: np.ndarray) -> bytes:
    """A crop's identity up to noise: 24 px high, grey, 16 levels (a caption that stays on screen
    over moving video gives the same key frame after frame)."""
    h, w = crop.shape[:2]
    small = Image.fromarray(crop[:, :, ::-1]).convert("L").resize((max(1, round(w * 24 / h)), 24),
                                                                 Image.Resampling.BILINEAR)
    return bytes([w & 255, h & 255]) + (np.asarray(small) // 16).astype(np.uint8).tobytes()


def _recognise(engine, crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """Recognition of line crops, reusing the result of an identical crop seen before."""
    keys = [_crop_key(c) for c in crops]
    found = {k: _REC_CACHE[k] for k in keys if k in _REC_CACHE}
    todo = [i for i, k in enumerate(keys) if k not in found]
    batching, min_width = REC_BATCHING[REC_BATCH]
    for group in batching(engine, [crops[i] for i in todo], min_width):
        texts = _rec_call(engine, [crops[todo[j]] for j in group], min_width)
        for j, (text, score) in zip(group, texts):
            found[keys[todo[j]]] = (text, float(score))
    if len(_REC_CACHE) > _REC_CACHE_MAX:
        _REC_CACHE.clear()
    _REC_CACHE.update(found)
    return [found[k] for k in keys]


def _same_width(engine, crops: list[np.ndarray], min_width: int | None = None) -> list[list[int]]:
    """Batches of crops the recogniser pads to the same width: all crops narrower than its
    minimum input (``min_width``, else RapidOCR's 320 px, at 48 px high) together, each wider
    crop alone. RapidOCR pads a batch to its widest crop: a frame's timecode and short numbers
    padded to its caption's width cost that width's compute (29 % of the recognition CPU on the
    bench clip) and read differently from the same crop alone (3 of 196 readings, all timecodes)."""
    _, height, width = engine.text_rec.rec_image_shape[:3]
    width = min_width or width
    narrow = [i for i, c in enumerate(crops) if c.shape[1] * height <= width * c.shape[0]]
    return ([narrow] if narrow else []) + [[i] for i in range(len(crops)) if i not in narrow]


def _whole_frame(engine, crops: list[np.ndarray], min_width: int | None = None) -> list[list[int]]:
    """All of a frame's crops in RapidOCR's padded batches (OCR_VERSION 5)."""
    return [list(range(len(crops)))] if crops else []


def _rec_call(engine, batch: list[np.ndarray], min_width: int | None) -> list[tuple[str, float]]:
    """(text, score) per crop of one batch, padded to its widest crop and at least ``min_width``
    px at the recogniser's height (None: RapidOCR's own call, at least 320 px)."""
    rec = engine.text_rec
    if min_width is None:
        return rec(batch)[0]
    height = rec.rec_image_shape[1]
    ratio = max([min_width / height] + [c.shape[1] / c.shape[0] for c in batch])
    preds = rec.session(np.concatenate([rec.resize_norm_img(c, ratio)[None] for c in batch]).astype(np.float32))[0]
    return [(str(text), float(score)) for text, score in rec.postprocess_op(preds)]


# batching and the least width a crop is padded to (px at 48 px high). Short lines padded to 192 px
# instead of RapidOCR's 320 (OCR_VERSION 8) cost 45 % of the narrow crops' recognition CPU and read
# more of them exactly: the bench clip's 60-s timecodes and frame counters 113 against 108 of 128,
# 1,259 against 1,204 of 1,440 generated short lines (8 fonts, 3 sizes, 3 colourings)
REC_BATCHING = {"narrow-192": (_same_width, 192), "same-width": (_same_width, None), "frame": (_whole_frame, None)}
REC_BATCH = "narrow-192"  # the bench sets "same-width" (OCR_VERSION 6-7) and "frame" (before 6)


def _bounds(quad) -> tuple[float, float, float, float]:
    q = np.asarray(quad, dtype=np.float32)
    return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def join_lines(boxes: list[TextBox]) -> list[TextBox]:
    """Join boxes that sit on one line with a gap under 1.5 text heights: the detector splits
    captions at wide spaces ("LAUNCH" | "WINDOW OPEN"), readers see one line."""
    ordered = sorted(boxes, key=lambda b: (b.box[1] + b.box[3]) / 2)
    lines: list[list[TextBox]] = []
    for b in ordered:
        cy, h = (b.box[1] + b.box[3]) / 2, b.box[3] - b.box[1]
        for line in lines:
            ref = line[-1]
            rcy, rh = (ref.box[1] + ref.box[3]) / 2, ref.box[3] - ref.box[1]
            if abs(cy - rcy) < 0.5 * max(h, rh):
                line.append(b)
                break
        else:
            lines.append([b])
    out: list[TextBox] = []
    for line in lines:
        line.sort(key=lambda b: b.box[0])
        group = [line[0]]
        for b in line[1:]:
            prev = group[-1]
            height = max(prev.box[3] - prev.box[1], b.box[3] - b.box[1])
            if b.box[0] - prev.box[2] < 1.5 * height:
                group.append(b)
            else:
                out.append(_merge(group))
                group = [b]
        out.append(_merge(group))
    return sorted(out, key=lambda b: (round(b.box[1] / 10), b.box[0]))


def _merge(group: list[TextBox]) -> TextBox:
    if len(group) == 1:
        return group[0]
    return TextBox(
        text=" ".join(b.text for b in group),
        score=min(b.score for b in group),
        box=(min(b.box[0] for b in group), min(b.box[1] for b in group),
             max(b.box[2] for b in group), max(b.box[3] for b in group)),
    )


def _signature(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L").resize((192, 108), Image.Resampling.BILINEAR), dtype=np.float32)


def _same_picture(a: np.ndarray | None, b: np.ndarray) -> bool:
    """True when no region changed: small text appearing changes few pixels, but strongly."""
    if a is None:
        return False
    return float((np.abs(a - b) > 24).mean()) < 0.0005


def read_video_text(
    path: str | Path,
    *,
    fps: float = 1.0,
    max_side: int = 960,
    min_score: float = 0.5,
    similarity: float = 0.8,
    max_gap: int = 1,
    changed_only: bool = True,
) -> list[Segment]:
    """``ocr`` segments for the text shown in a video; [] for audio-only files. ``changed_only``
    reads each frame where text can have changed (``ChangeReader``); False reads every frame
    whole unless the picture did not change at all (the reader before OCR_VERSION 5)."""
    info = probe(path, with_content_id=False)
    if not info.has_video:
        return []
    frames = iter_frames(path, fps=fps, max_side=max_side)
    return read_frames_text(frames, info.duration, fps=fps, min_score=min_score, similarity=similarity,
                            max_gap=max_gap, changed_only=changed_only)


def read_frames_text(frames: Iterable[Frame], duration: float, *, fps: float = 1.0, min_score: float = 0.5,
                     similarity: float = 0.8, max_gap: int = 1, changed_only: bool = True) -> list[Segment]:
    """``ocr`` segments from frames sampled every ``1/fps`` seconds of a video of ``duration``
    seconds (``read_video_text`` on its own decode, ``visual.read_visual`` on the shared one)."""
    step = 1.0 / fps
    open_tracks: list[_Track] = []
    done: list[_Track] = []
    previous_sig: np.ndarray | None = None
    previous_boxes: list[TextBox] = []
    reader = ChangeReader(min_score) if changed_only else None
    with task("on-screen text", total=max(1, int(duration * fps))) as bar:
        for frame in frames:
            if reader is not None:
                boxes = reader.read(frame.image)
            else:
                sig = _signature(frame.image)
                boxes = previous_boxes if _same_picture(previous_sig, sig) else read_image(frame.image, min_score)
                previous_sig, previous_boxes = sig, boxes
            open_tracks = _follow(open_tracks, boxes, frame.t, similarity, max_gap, done)
            bar.advance()
    done.extend(open_tracks)
    ticking = counters(done, step)  # a frame counter or a running clock: the picture ticking, not text it states
    segments = [_segment(tr, step, duration) for k, tr in enumerate(done) if k not in ticking]
    return sorted(segments, key=lambda s: (s.start, s.text))
