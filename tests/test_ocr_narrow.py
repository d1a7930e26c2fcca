"""Short lines padded to 192 px at the recogniser's height (``ocr.REC_BATCH = "narrow-192"``)
instead of RapidOCR's 320: narrower crops in one batch, each wider crop alone at its own width,
every crop reading as it reads alone, and generated short lines read at least as well as before."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vidsleuth.perception import ocr

from .ocr_support import line_crop

FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
         "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf"]
LINES = ["GO 42", "NO ENTRY", "EXIT 3", "ROOM 101", "GATE B7", "Day 3", "00:00:07.520", "188"]


@pytest.fixture(scope="module")
def engine():
    return ocr._engine()


def test_groups_at_192_px(engine):
    h = engine.text_rec.rec_image_shape[1]
    widths = [100, 192 * 96 // h, 200 * 96 // h, 320 * 96 // h, 40]  # px at 96 high: 50, 192, 200, 320, 20 at 48
    crops = [np.zeros((96, x, 3), np.uint8) for x in widths]
    assert ocr._same_width(engine, crops, 192) == [[0, 1, 4], [2], [3]]
    assert ocr._same_width(engine, crops) == [[0, 1, 2, 3, 4]]  # RapidOCR's 320: all of them narrow


def test_the_320_path_is_rapidocrs_own_call(engine):
    crops = [line_crop(t, FONTS[0], 22) for t in LINES[:4]]
    ours = ocr._rec_call(engine, crops, 320)
    theirs = engine.text_rec(crops)[0]
    assert [t for t, _ in ours] == [t for t, _ in theirs]
    assert [s for _, s in ours] == pytest.approx([float(s) for _, s in theirs], abs=1e-4)


def test_a_narrow_crop_reads_in_its_batch_as_alone(engine):
    crops = [line_crop(t, FONTS[1], 20) for t in ("42", "EXIT 3", "Day 3")]
    assert all(c.shape[1] * 48 <= 192 * c.shape[0] for c in crops)
    together = ocr._rec_call(engine, crops, 192)
    alone = [ocr._rec_call(engine, [c], 192)[0] for c in crops]
    assert [t for t, _ in together] == [t for t, _ in alone]
    assert [s for _, s in together] == pytest.approx([s for _, s in alone], abs=1e-4)


def test_short_lines_read_at_least_as_well_padded_to_192(engine):
    """Generated short lines in three fonts, two sizes, light on dark and dark on light."""
    exact = {192: 0, 320: 0}
    cases = list(itertools.product(LINES, FONTS, (14, 30), (((255, 255, 255), (20, 24, 30)), ((10, 10, 10), (235, 235, 220)))))
    for text, font, size, (fg, bg) in cases:
        crop = line_crop(text, font, size, fg, bg)
        for width in exact:
            got = ocr._rec_call(engine, [crop], width)[0][0]
            exact[width] += " ".join(got.split()) == text
    assert exact[192] >= exact[320] and exact[192] >= 0.75 * len(cases), exact
