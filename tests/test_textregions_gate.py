"""The line gate (``textregions.line_unchanged``): a caption on a translucent box over moving
video keeps its glyphs' pixels; a changed digit, or faint small text that changed, does not."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vidsleuth.perception import textregions as tr

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _frame(text: str, phase: int, size: int = 30, fill=(255, 255, 255), box_alpha: float = 0.6) -> np.ndarray:
    """Grey 960x540 frame: moving colour bars and a ramp (shifted by ``phase``) under ``text`` on a
    black box of opacity ``box_alpha``; returns (grey, text box)."""
    x = (np.arange(960)[None, :] + 37 * phase) % 960
    y = np.arange(540)[:, None]
    bg = np.stack([(x * 7) % 256 + 0 * y, (x // 120 * 90) % 256 + 0 * y, (y * 3 + phase * 50) % 256 + 0 * x], -1)
    im = Image.fromarray(bg.astype(np.uint8))
    d = ImageDraw.Draw(im, "RGBA")
    f = ImageFont.truetype(FONT, size)
    left, top, right, bottom = d.textbbox((300, 470), text, font=f)
    d.rectangle((left - 8, top - 8, right + 8, bottom + 8), fill=(0, 0, 0, round(255 * box_alpha)))
    d.text((300, 470), text, font=f, fill=fill)
    return np.asarray(im.convert("L")), (left, top, right, bottom)


def test_a_caption_over_moving_video_is_unchanged():
    for phase in (1, 3, 7):
        ref, box = _frame("STATION 8 VALUE 21", 0)
        now, _ = _frame("STATION 8 VALUE 21", phase)
        assert not np.array_equal(ref, now)  # the video behind the box moved
        assert tr.line_unchanged(tr.crop(ref, box), now, box)


def test_a_changed_digit_is_a_change():
    for old, new in (("STATION 8 VALUE 21", "STATION 3 VALUE 21"), ("STATION 8 VALUE 21", "STATION 8 VALUE 27"),
                     ("STATION 8 VALUE 21", "STATION 8 VALUE 21.")):
        ref, box = _frame(old, 0)
        now, box2 = _frame(new, 2)
        union = (min(box[0], box2[0]), min(box[1], box2[1]), max(box[2], box2[2]), max(box[3], box2[3]))
        assert not tr.line_unchanged(tr.crop(ref, union), now, union), (old, new)


def test_faint_small_text_that_changed_is_a_change():
    """A 12-px orange timecode on an opaque box: its contrast is well under the default level."""
    ref, box = _frame("00:00:05.520", 0, size=12, fill=(255, 128, 0), box_alpha=1.0)
    now, _ = _frame("00:00:06.520", 0, size=12, fill=(255, 128, 0), box_alpha=1.0)
    assert not tr.line_unchanged(tr.crop(ref, box), now, box)
    assert tr.line_unchanged(tr.crop(ref, box), ref, box)


def test_no_reference_or_another_size_is_a_change():
    ref, box = _frame("STATION 8 VALUE 21", 0)
    assert not tr.line_unchanged(None, ref, box)
    assert not tr.line_unchanged(tr.crop(ref, box)[:, :-3], ref, box)
