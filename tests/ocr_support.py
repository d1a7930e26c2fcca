"""Line crops drawn the way ``ocr._recognise_lines`` makes them, shared by the OCR tests."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vidsleuth.perception import ocr


def line_crop(text: str, font: str, size: int, fg=(255, 255, 255), bg=(20, 24, 30)) -> np.ndarray:
    """A line crop as ``_recognise_lines`` makes it: text on a box with a margin, scaled to
    ``REC_HEIGHT`` px, in BGR."""
    f = ImageFont.truetype(font, size)
    left, top, right, bottom = f.getbbox(text)
    m = round((bottom - top) * ocr.MARGIN) + 2
    im = Image.new("RGB", (right - left + 2 * m, bottom - top + 2 * m), bg)
    ImageDraw.Draw(im).text((m - left, m - top), text, font=f, fill=fg)
    s = ocr.REC_HEIGHT / im.height
    im = im.resize((round(im.width * s), ocr.REC_HEIGHT), Image.Resampling.BICUBIC)
    return np.ascontiguousarray(np.asarray(im)[:, :, ::-1])
