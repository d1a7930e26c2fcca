"""On-screen text over time: the lines OCR read in consecutive samples followed as tracks (the same
text, allowing a misread character but not another number), each track one ``ocr`` segment from
half a sampling step before its first sighting to half a step after its last.

A track's text is the reading it was given most often, ties going to the more confident reading
(``TRACK_TEXT = "votes"``). The single most confident reading (``"best"``, before OCR_VERSION 7)
lost captions whose one misreading scored highest: on the 3-minute bench clip 111 of 120 caption
readings were exact, yet "STATION 22VALUE78" (0.96) won over three exact readings."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..types import Segment


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"[\s\W_]+", "", text)


@dataclass
class _Track:
    key: str
    text: str
    first: float
    last: float
    scores: list[float] = field(default_factory=list)
    missed: int = 0
    votes: Counter = field(default_factory=Counter)  # reading -> times read
    best: dict[str, float] = field(default_factory=dict)  # reading -> its highest score

    def add(self, text: str, score: float) -> None:
        """One more reading of this track's text: the text shown is chosen by ``TRACK_TEXT``."""
        self.votes[text] += 1
        self.best[text] = max(score, self.best.get(text, score))
        if TRACK_TEXT == "best":
            if score >= max(self.scores, default=score):
                self.text = text
        else:
            self.text = max(self.votes, key=lambda t: (self.votes[t], self.best[t]))
        self.scores.append(score)


TRACK_TEXT = "votes"  # "best": the single most confident reading (the bench's pipelines before 18:40)


def _similar(a: str, b: str, threshold: float) -> bool:
    """The same text read twice: alike, and with the same numbers (``STATION 12 VALUE 98`` and
    ``STATION 13 VALUE 15`` are two captions, not one read badly)."""
    if a == b:
        return True
    if re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return False
    return difflib.SequenceMatcher(None, a, b).ratio() >= threshold


def _follow(open_tracks: list[_Track], boxes: list, t: float, similarity: float, max_gap: int,
            done: list[_Track]) -> list[_Track]:
    """One frame's boxes extend the tracks they match or open new ones; a track missed more than
    ``max_gap`` frames in a row moves to ``done``. Returns the tracks still open."""
    seen: set[int] = set()
    for b in boxes:
        key = normalise(b.text)
        if not key:
            continue
        match = next(
            (k for k, tr in enumerate(open_tracks) if k not in seen and _similar(tr.key, key, similarity)),
            None,
        )
        if match is None:
            track = _Track(key, b.text, t, t)
            track.add(b.text, b.score)
            open_tracks.append(track)
            seen.add(len(open_tracks) - 1)
        else:
            tr = open_tracks[match]
            tr.last, tr.missed = t, 0
            tr.add(b.text, b.score)
            seen.add(match)
    still: list[_Track] = []
    for k, tr in enumerate(open_tracks):
        if k not in seen:
            tr.missed += 1
        (done if tr.missed > max_gap else still).append(tr)
    return still


COUNTER_RUN = 3  # this many short tracks in a row of one shape, each another number: a running counter


def counters(tracks: list[_Track], step: float) -> set[int]:
    """Indexes of the tracks that are a running counter or clock: one shape of text (its digits aside)
    read as another number at every sample, in a chain of ``COUNTER_RUN`` or more short tracks ("86",
    "111", "136"…; "00:12", "00:13"…). Such a number is the picture ticking, not a value the video
    states; a panel that shows "Max 2.5 bar" for seconds is one long track and never part of a run."""
    shape = lambda tr: re.sub(r"\d+", "#", tr.key)  # noqa: E731
    out: set[int] = set()
    by_shape: dict[str, list[int]] = {}
    for k, tr in enumerate(tracks):
        if re.search(r"\d", tr.key) and tr.last - tr.first <= 2 * step + 1e-6:
            by_shape.setdefault(shape(tr), []).append(k)
    for ks in by_shape.values():
        ks.sort(key=lambda k: tracks[k].first)
        run = ks[:1]
        for k in [*ks[1:], None]:
            if k is not None and tracks[k].first - tracks[run[-1]].last <= 1.5 * step + 1e-6:
                run.append(k)
                continue
            if len(run) >= COUNTER_RUN and len({tracks[j].key for j in run}) >= COUNTER_RUN:
                out.update(run)
            run = [k]
    return out


def _segment(tr: _Track, step: float, duration: float) -> Segment:
    """A track as an ``ocr`` segment spanning half a sampling step either side of its frames."""
    return Segment(
        start=round(max(0.0, tr.first - step / 2), 3),
        end=round(min(duration, tr.last + step / 2), 3),
        kind="ocr",
        text=tr.text,
        confidence=round(float(np.mean(tr.scores)), 4),
        source="ocr:rapidocr-ppocrv4",
    )
