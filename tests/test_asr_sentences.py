"""One sentence is one speech line, and the punctuating opening Whisper is given is never heard.

Whisper tiny.en sometimes writes a whole 30-s window without a full stop; a line then held three
claims and an anchor's moment was the window's 30 s (``asr.STYLE_PROMPT``, ``split_at_pauses``)."""

from __future__ import annotations

import pytest

from vidsleuth import synth
from vidsleuth.perception.asr import STYLE_PROMPT, split_at_pauses, transcribe
from vidsleuth.synth.voices import english_voice

SENTENCES = ("First, rinse the filter under cold water for about two minutes.",
             "Then set the pump to forty litres per hour.",
             "Check the seal on the lid every three weeks.",
             "That is all for today.")


def _narration(tmp_path, gap: float = 0.35):
    """The sentences back to back, ``gap`` seconds apart (shorter than the 1-s pause that splits)."""
    voice = english_voice()
    starts, t = [], 0.5
    for s in SENTENCES:
        samples, rate = synth.piper(s) if voice == "piper" else synth.espeak(s, voice)
        starts.append(t)
        t += len(samples) / rate + gap  # the voice's own length (with its edges' silence, trimmed in the clip)
    spec = synth.ClipSpec(shots=(synth.Shot(int((t + 2) * 10), "0x203060"),), fps=10, width=320, height=180,
                          speech=tuple(synth.Speech(a, s, voice=voice) for a, s in zip(starts, SENTENCES)))
    path = tmp_path / "narration.wav"
    spans = synth.audio_only(spec, path)
    assert all(a.end + 0.1 < b.start for a, b in zip(spans, spans[1:])), spans  # apart, never mixed
    return path, spans


def test_each_sentence_is_its_own_line_with_its_own_moment(tmp_path):
    path, spans = _narration(tmp_path)
    segs = transcribe(path, language="en")
    assert len(segs) >= len(SENTENCES), [s.text for s in segs]
    for seg in segs:  # no line runs across two sentences' spoken times
        inside = [sp for sp in spans if sp.start < seg.end - 0.2 and sp.end > seg.start + 0.2]
        assert len(inside) <= 1, (seg.text, [(sp.start, sp.end) for sp in spans])
    pump = [s for s in segs if "pump" in s.text.lower()]
    assert pump and pump[0].end - pump[0].start < 6, pump


def test_the_opening_given_to_whisper_is_not_heard(tmp_path):
    path, _ = _narration(tmp_path)
    text = " ".join(s.text for s in transcribe(path, language="en")).lower()
    assert "welcome" not in text and "begin" not in text, text
    assert not any(ch.isdigit() for ch in STYLE_PROMPT["en"] + STYLE_PROMPT["zh"])  # nothing a report could take for a value


class _W:
    def __init__(self, word, start, end):
        self.word, self.start, self.end = word, start, end


@pytest.mark.parametrize("words, runs", [
    ([("Soak", 0, .3), (" it.", .3, .6), (" Then", .7, 1), (" rinse.", 1, 1.4)], [["Soak", " it."], [" Then", " rinse."]]),
    ([("浸泡", 0, .3), ("十分钟。", .3, .9), ("然后", 1, 1.2), ("冲洗", 1.2, 1.5)], [["浸泡", "十分钟。"], ["然后", "冲洗"]]),
    ([("Wait", 0, .3), (" 2.5", .3, .6), (" hours", .6, 1), (" then", 2.5, 2.8)], [["Wait", " 2.5", " hours"], [" then"]]),
])
def test_lines_break_at_sentence_ends_and_long_pauses(words, runs):
    got = split_at_pauses([_W(*w) for w in words], pause=1.0)
    assert [[w.word for w in r] for r in got] == runs


def test_a_word_whisper_could_not_align_stays_with_its_sentence():
    words = [_W("Add", 11.2, 11.5), _W(" 18", 11.5, 11.9), _W(" grams", 11.9, 12.4), _W(" of", 12.4, 12.8),
             _W(" salt.", 17.83, 17.83), _W(" Preheat", 18.2, 18.6)]
    got = split_at_pauses(words, pause=1.0)
    assert [" ".join(w.word.strip() for w in r) for r in got] == ["Add 18 grams of salt.", "Preheat"]
