"""What OCR reads over time: a track's text is the reading it got most often (``texttracks``), and
with the line gate a caption whose glyphs hold is kept without being read again while one that
changes is read again (``ocr.ChangeReader``)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vidsleuth.perception import ocr, texttracks
from vidsleuth.perception.ocr import TextBox

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _segments(readings: list[tuple[str, float]]) -> list:
    done: list = []
    open_tracks: list = []
    for k, (text, score) in enumerate(readings):
        open_tracks = texttracks._follow(open_tracks, [TextBox(text, score, (300, 470, 660, 505))], k + 0.5, 0.8, 1,
                                         done)
    return [texttracks._segment(t, 1.0, len(readings)) for t in done + open_tracks]


@pytest.fixture()
def track_text():
    saved = texttracks.TRACK_TEXT
    yield lambda rule: setattr(texttracks, "TRACK_TEXT", rule)
    texttracks.TRACK_TEXT = saved


def test_a_track_shows_its_most_frequent_reading(track_text):
    """Three exact readings and one confident misreading (the bench clip's "STATION 22VALUE78")."""
    readings = [("STATION 22 VALUE 78", 0.93), ("STATION 22VALUE78", 0.96), ("STATION 22 VALUE 78", 0.94),
                ("STATION 22 VALUE 78", 0.92)]
    track_text("votes")
    assert [s.text for s in _segments(readings)] == ["STATION 22 VALUE 78"]
    track_text("best")  # the rule before OCR_VERSION 7: the single most confident reading
    assert [s.text for s in _segments(readings)] == ["STATION 22VALUE78"]


def test_a_tie_goes_to_the_more_confident_reading(track_text):
    track_text("votes")
    assert [s.text for s in _segments([("LAUNCH WlNDOW OPEN", 0.71), ("LAUNCH WINDOW OPEN", 0.88)])] == \
        ["LAUNCH WINDOW OPEN"]
    assert [s.text for s in _segments([("LAUNCH WINDOW OPEN", 0.88), ("LAUNCH WlNDOW OPEN", 0.71)])] == \
        ["LAUNCH WINDOW OPEN"]


def _frame(text: str, phase: int) -> Image.Image:
    """960x540: a smooth gradient that moves with ``phase`` under ``text`` on a translucent box."""
    x = (np.arange(960)[None, :] + 29 * phase) % 960
    y = np.arange(540)[:, None]
    bg = np.stack([x * 255 // 960 + 0 * y, 60 + 0 * x + y // 6, (x // 3 + 40) % 256 + 0 * y], -1).astype(np.uint8)
    im = Image.fromarray(bg)
    d = ImageDraw.Draw(im, "RGBA")
    font = ImageFont.truetype(FONT, 32)
    left, top, right, bottom = d.textbbox((290, 460), text, font=font)
    d.rectangle((left - 10, top - 10, right + 10, bottom + 10), fill=(0, 0, 0, 150))
    d.text((290, 460), text, font=font, fill=(255, 255, 255))
    return im


class _Counting:
    """The recogniser's model session, counting the crops of each batch (the model still reads)."""

    def __init__(self, session):
        self.session, self.crops = session, []

    def __call__(self, batch):
        self.crops.append(len(batch))
        return self.session(batch)

    def __getattr__(self, name):
        return getattr(self.session, name)


@pytest.mark.parametrize("gate", [True, False])
def test_a_steady_caption_is_kept_and_a_changed_one_read_again(gate, monkeypatch):
    engine = ocr._engine()
    counting = _Counting(engine.text_rec.session)
    monkeypatch.setattr(engine.text_rec, "session", counting)
    monkeypatch.setattr(ocr.ChangeReader, "line_gate", gate)
    ocr._REC_CACHE.clear()
    reader = ocr.ChangeReader()
    texts = ["STATION 8 VALUE 21"] * 5 + ["STATION 8 VALUE 27"] * 2
    read, crops = [], []
    for k, text in enumerate(texts):
        before = sum(counting.crops)
        read.append([ocr.normalise(b.text) for b in reader.read(_frame(text, k))])
        crops.append(sum(counting.crops) - before)
    ocr._REC_CACHE.clear()
    assert read == [[ocr.normalise(t)] for t in texts], crops  # every frame's caption (spaces aside)
    if gate:  # read whole, read again alike (confirmed), then kept while its glyphs hold
        assert crops[0] >= 1 and crops[1] >= 1 and crops[2:5] == [0, 0, 0]
        assert crops[5] >= 1  # the changed digit is read
        assert reader.stats["regions_kept"] >= 3
    else:  # the video behind the box moves: the caption's region is read again every frame
        assert all(c >= 1 for c in crops)
