"""Recognition batches (``ocr.REC_BATCH``): a frame's line crops are recognised in batches of crops
the recogniser pads to the same width, so each crop reads as it reads alone, whatever else the
frame shows; a frame's crops padded to its widest one (the reader before OCR_VERSION 6) may not."""

from __future__ import annotations

import numpy as np
import pytest

from vidsleuth.perception import ocr

from .ocr_support import line_crop

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _crop(text: str, size: int, fill=(255, 255, 255)) -> np.ndarray:
    """A crop in this file's font on the dark box."""
    return line_crop(text, FONT, size, fg=fill)


@pytest.fixture(scope="module")
def engine():
    return ocr._engine()


@pytest.fixture()
def same_width():
    saved = ocr.REC_BATCH
    ocr.REC_BATCH = "same-width"
    ocr._REC_CACHE.clear()
    yield
    ocr.REC_BATCH = saved
    ocr._REC_CACHE.clear()


def test_groups_are_the_narrow_crops_together_and_each_wide_crop_alone(engine):
    _, h, w = engine.text_rec.rec_image_shape[:3]
    widths = [100, 7 * w, w * 96 // h, 3 * w, 40]  # the third is exactly the recogniser's minimum width
    crops = [np.zeros((96, x, 3), np.uint8) for x in widths]
    groups = ocr._same_width(engine, crops)
    assert groups == [[0, 2, 4], [1], [3]]
    assert sorted(i for g in groups for i in g) == list(range(len(crops)))
    assert ocr._same_width(engine, []) == []
    assert ocr._whole_frame(engine, crops) == [[0, 1, 2, 3, 4]]


def test_each_crop_reads_as_it_reads_alone(engine, same_width):
    """A timecode and a short number beside a wide caption: each reading equals RapidOCR's
    reading of that crop alone, and the texts (spaces normalised, as `_text_boxes` does) are the
    ones drawn."""
    crops = [_crop("00:00:07.520", 14, fill=(255, 140, 0)), _crop("STATION 2 VALUE 28", 30), _crop("188", 14)]
    got = ocr._recognise(engine, crops)
    for crop, (text, score) in zip(crops, got):
        alone_text, alone_score = engine.text_rec([crop])[0][0]
        assert text == alone_text and score == pytest.approx(float(alone_score), abs=1e-4)
    assert [" ".join(t.split()) for t, _ in got] == ["00:00:07.520", "STATION 2 VALUE 28", "188"]


def test_a_crop_seen_again_is_not_recognised_again(engine, same_width):
    crops = [_crop("LAUNCH WINDOW OPEN", 30), _crop("42", 20)]
    first = ocr._recognise(engine, crops)
    calls = []
    rec = engine.text_rec

    class Counting:  # counts the model calls the second pass makes; the model itself still reads
        rec_image_shape = rec.rec_image_shape

        def __call__(self, batch):
            calls.append(len(batch))
            return rec(batch)

    engine.text_rec = Counting()
    try:
        again = ocr._recognise(engine, crops[::-1])
    finally:
        engine.text_rec = rec
    assert again == first[::-1] and calls == []
