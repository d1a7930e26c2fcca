"""Where on-screen text can have changed between two OCR samples.

Reading every sampled frame whole made OCR the slowest ingest stage (3.2x real time on the
benchmark clip): text detection ran on the full frame once a second, even when the only change
was motion behind a caption that stayed. Here each sample is read in parts:

- a text map from the detector run on the frame at half size (a quarter of the pixels) says
  where text may be; the lines read in the previous sample are candidates too;
- a candidate region whose pixels did not change since the previous sample keeps its lines
  (no detection, no recognition);
- changed regions are detected at full scale on their crop only, and their lines recognised in
  one batch;
- the whole frame is read when most of it changed (a cut) and every ``refresh`` samples, so text
  the half-size map missed is found within that many samples.
"""

from __future__ import annotations

import numpy as np

SMALL = 2  # the text map is computed on a frame this many times smaller per side
MAP_THRESHOLD = 0.2  # DB probability above which a pixel may be text (the detector binarises at 0.3)
CHANGE_LEVEL = 24  # grey levels: a pixel changed (as ocr._same_picture)
CHANGE_SHARE = 0.002  # share of a region's pixels that must change for it to be read again
CUT_SHARE = 0.5  # share of the frame that changed: read it whole
MARGIN = 12  # px around a candidate region (context for the detector)
STRONG_LEVEL = 128  # grey levels: more than a translucent caption box (opacity >= 0.5) lets a moving background change
STRONG_FLOOR = 32  # grey levels: the least change counted as strong, however faint the text
STRONG_MAX = 2  # pixels changed that much that a text line tolerates and still counts as the same glyphs

Box = tuple[int, int, int, int]  # x1, y1, x2, y2 (pixels, end exclusive)


def _tensor(bgr: np.ndarray) -> np.ndarray:
    """The detector's input at the image's own scale: padded to a multiple of 32, normalised."""
    h, w = bgr.shape[:2]
    ph, pw = -(-h // 32) * 32, -(-w // 32) * 32
    padded = np.zeros((ph, pw, 3), np.float32)
    padded[:h, :w] = bgr
    return ((padded / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None].astype(np.float32)


def aligned(box: Box, w: int, h: int) -> Box:
    """``box`` grown to sides that are multiples of 32 (the detector's stride), shifted to stay
    inside the frame, so its crop is detected without resizing or padding."""
    x1, y1, x2, y2 = box
    out = []
    for lo, hi, size in ((x1, x2, w), (y1, y2, h)):
        side = min(-(-(hi - lo) // 32) * 32, size)
        lo = max(0, min(lo - (side - (hi - lo)) // 2, size - side))
        out.append((lo, lo + side))
    return (out[0][0], out[1][0], out[0][1], out[1][1])


def detect(engine, bgr: np.ndarray, boxes: list[Box] | None = None) -> list[np.ndarray]:
    """Text line quads (frame pixels) in ``boxes`` of the frame ``bgr``; without ``boxes``, the
    whole frame. Regions are cut from the frame as the detector's preprocessing resizes it (to
    sides that are multiples of 32), so a region sees the pixels the whole-frame pass would."""
    import cv2

    det = engine.text_det
    if boxes is None:
        quads, _ = det(bgr)
        return [] if quads is None else list(quads)
    h, w = bgr.shape[:2]
    rh, rw = max(32, round(h / 32) * 32), max(32, round(w / 32) * 32)
    frame = bgr if (rh, rw) == (h, w) else cv2.resize(bgr, (rw, rh))
    sy, sx = rh / h, rw / w
    out = []
    for x1, y1, x2, y2 in boxes:
        a = aligned((int(x1 * sx), int(y1 * sy), int(np.ceil(x2 * sx)), int(np.ceil(y2 * sy))), rw, rh)
        crop = frame[a[1]:a[3], a[0]:a[2]]
        x = _tensor(crop)
        found, _ = det.postprocess_op(det.infer(x)[0], x.shape[2:])
        if found is None or len(found) == 0:
            continue
        for q in det.filter_tag_det_res(found, crop.shape[:2]):
            out.append((q + np.array([a[0], a[1]], dtype=np.float32)) / np.array([sx, sy], dtype=np.float32))
    return out


def text_map_regions(engine, bgr: np.ndarray, margin: float = MARGIN) -> list[Box]:
    """Regions where the half-size text map says text may be (full-size pixels, with ``margin``)."""
    import cv2

    h, w = bgr.shape[:2]
    small = cv2.resize(bgr, (max(32, w // SMALL), max(32, h // SMALL)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    prob = engine.text_det.infer(_tensor(small))[0][0, 0, :sh, :sw]
    mask = cv2.dilate((prob > MAP_THRESHOLD).astype(np.uint8), np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    fx, fy = w / sw, h / sh
    out = []
    for x, y, bw, bh, _area in stats[1:n]:
        out.append(grow((int(x * fx), int(y * fy), int(np.ceil((x + bw) * fx)), int(np.ceil((y + bh) * fy))), margin, w, h))
    return out


def grow(box, margin: float, w: int, h: int) -> Box:
    x1, y1, x2, y2 = box
    return (max(0, int(x1 - margin)), max(0, int(y1 - margin)), min(w, int(np.ceil(x2 + margin))),
            min(h, int(np.ceil(y2 + margin))))


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def merge(boxes: list[Box]) -> list[Box]:
    """Overlapping boxes joined into their union until none overlap."""
    out = list(boxes)
    changed = True
    while changed:
        changed = False
        merged: list[Box] = []
        for b in out:
            for k, m in enumerate(merged):
                if overlap(b, m):
                    merged[k] = (min(b[0], m[0]), min(b[1], m[1]), max(b[2], m[2]), max(b[3], m[3]))
                    changed = True
                    break
            else:
                merged.append(b)
        out = merged
    return out


def changed_share(a: np.ndarray, b: np.ndarray) -> float:
    """Share of pixels whose grey level moved by more than ``CHANGE_LEVEL``."""
    return float((np.abs(a.astype(np.int16) - b.astype(np.int16)) > CHANGE_LEVEL).mean()) if a.size else 0.0


def region_changed(prev_grey: np.ndarray, grey: np.ndarray, box: Box) -> bool:
    x1, y1, x2, y2 = box
    return changed_share(prev_grey[y1:y2, x1:x2], grey[y1:y2, x1:x2]) > CHANGE_SHARE


def inside(centre: tuple[float, float], box: Box) -> bool:
    return box[0] <= centre[0] < box[2] and box[1] <= centre[1] < box[3]



def crop(grey: np.ndarray, box) -> np.ndarray:
    """The pixels of ``box`` (float pixel coordinates) in ``grey``."""
    h, w = grey.shape
    x1, y1, x2, y2 = max(0, int(box[0])), max(0, int(box[1])), min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    return grey[y1:max(y1, y2), x1:max(x1, x2)]


def line_unchanged(ref: np.ndarray | None, grey: np.ndarray, box) -> bool:
    """True when no glyph of the text line ``box`` can have changed since it was read (``ref``:
    its pixels then): no more than ``STRONG_MAX`` pixels moved by more than ``STRONG_LEVEL`` grey
    levels. A caption on a translucent box over moving video changes every pixel of the box a
    little (the video shows through) and none by that much; a glyph that appears, goes or
    changes moves its strokes' pixels by the text's contrast with the box. Compared with the
    pixels at reading time, not the previous sample, so a slow cross-fade adds up."""
    now = crop(grey, box)
    if ref is None or ref.shape != now.shape or now.size == 0:
        return False
    lo, hi = np.percentile(ref, (2, 98))
    level = min(STRONG_LEVEL, max(STRONG_FLOOR, (hi - lo) / 2))  # half the line's own contrast
    return int((np.abs(ref.astype(np.int16) - now.astype(np.int16)) > level).sum()) <= STRONG_MAX


def covered(region: Box, line, tolerance: float) -> bool:
    """``region`` lies within the text line box ``line`` grown by ``tolerance`` px on each side."""
    return (region[0] >= line[0] - tolerance and region[1] >= line[1] - tolerance
            and region[2] <= line[2] + tolerance and region[3] <= line[3] + tolerance)
