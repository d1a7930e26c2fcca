"""Number words to digits inside running text, before values are read (``vidsleuth.values``).

- **text2num** (``alpha2digit``) turns English number words into digits. Compared on real
  phrasings with numerizer and number-parser (``/tmp`` trial, Nov 2026): all three read "one
  hundred and twenty kilometres" and "six hundred and twenty five watt hours"; numerizer and
  number-parser also turn "no one knows" into "no 1 knows" and numerizer "about half an hour" into
  "about/2 an hour", while text2num leaves words that are not quantities alone. What it leaves
  undone is added here as small rules: fractions ("half an hour", "two and a half"), "a dozen",
  and Whisper's split numbers ("100 and 20 kilometers" = 120, "600 and 25" = 625).
- **cn2an** turns Chinese numerals into digits ("一千五百毫升", "百分之二十", "半小时").
OCR habits are folded too: "240°℃" is 240 °C, "NOZZLE240°C" a label glued to its value.
Imports nothing of vidsleuth.
"""

from __future__ import annotations

import json
import re
import unicodedata
from importlib.resources import files

# the unit spellings (``data/units.json``): "one" before a unit is a number, elsewhere a word
_TABLE = json.loads(files("vidsleuth").joinpath("data", "units.json").read_text(encoding="utf-8"))
UNITS = {s for group in ("units", "torque") for spellings in _TABLE[group].values() for s in spellings}
_FRACTIONS = [
    (r"\b(?:an|one) hour and a half\b", "1.5 hours"), (r"\bhalf an? (?=\w)", "0.5 "), (r"\bhalf of an? (?=\w)", "0.5 "),
    (r"\ba quarter of an? (?=\w)", "0.25 "), (r"\bthree quarters of an? (?=\w)", "0.75 "),
    (r"\b(?:a|one) dozen\b", "12"), (r"\bhalf a dozen\b", "6"), (r"\b(\d+) dozen\b", lambda m: str(12 * int(m.group(1)))),
    (r"\b(\d+) and a half\b", lambda m: f"{int(m.group(1)) + 0.5:g}"), (r"\b(\d+) and a quarter\b",
                                                                        lambda m: f"{int(m.group(1)) + 0.25:g}"),
    (r"\b(\d+) \((\d+)\)", r"\1"),  # "five (5) minutes" after digits: one number
]
_SMALL_VALUE = {"zero": "0", "one": "1", "two": "2", "a": "1", "an": "1"}
_SMALL = re.compile(r"\b(zero|one|two|an?)(?=\s+(?:and an? (?:half|quarter)\b|(?:{})\b))".format(
    "|".join(s for s in sorted(UNITS, key=len, reverse=True) if len(s) > 2 and s.isascii() and s.isalpha())), re.I)
_WHISPER = re.compile(r"\b(\d+)(000|00) and (\d{1,3})\b")  # "100 and 20", "600 and 25", "3000 and 499"
_ZH_UNIT_GUARD = {"千卡": "kcal", "千克": "kg", "千米": "km", "千瓦": "kW", "千焦": "kJ", "千帕": "kPa"}


def _small(m: re.Match) -> str:
    """"an hour" is one hour, but "60 km an hour" is a rate: an article after a unit stays."""
    before = m.string[max(0, m.start() - 12):m.start()].split()
    if m.group(1).lower() in ("a", "an") and before and before[-1].lower() in UNITS:
        return m.group(1)
    return _SMALL_VALUE[m.group(1).lower()]


def _english(text: str) -> str:
    from text_to_num import alpha2digit

    t = alpha2digit(text, "en")  # leaves "one", "two" alone (its threshold: "no one knows")
    for step in range(2):  # "half an hour" first; then "two and a half" once "two" is 2
        for pattern, repl in _FRACTIONS:
            t = re.sub(pattern, repl, t, flags=re.I)
        if step == 0:  # … except before a unit or fraction
            t = _SMALL.sub(_small, t)
    t = re.sub(r"\b(\d+)\s+(\d+)/(\d+)\b", lambda m: f"{int(m.group(1)) + int(m.group(2)) / max(1, int(m.group(3))):g}", t)
    t = re.sub(r"(?<![\d/.])(\d+)/(\d+)(?=\s*[a-z\"])", lambda m: f"{int(m.group(1)) / max(1, int(m.group(2))):g}"
               if int(m.group(2)) and int(m.group(1)) < int(m.group(2)) else m.group(0), t)
    return _WHISPER.sub(lambda m: str(int(m.group(1) + m.group(2)) + int(m.group(3)))
                        if int(m.group(3)) < 10 ** len(m.group(2)) else m.group(0), t)


def _chinese(text: str) -> str:
    import logging
    import warnings

    import cn2an

    for word, unit in _ZH_UNIT_GUARD.items():  # "两千千卡": the unit's 千 is not a numeral
        text = text.replace(word, f" {unit} ")
    text = re.sub(r"([一二两三四五六七八九十\d]+)个半小时", lambda m: f"{m.group(1)}.5小时", text)
    logging.getLogger("cn2an").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return cn2an.transform(text, "cn2an")
        except (ValueError, KeyError, IndexError):  # a run cn2an cannot read stays as written
            return text


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in str(text or ""))


_BRACKET_UNIT = re.compile(r"\((?P<u>[^()\d]{1,8})\)\s+(?P<n>\d+(?:\.\d+)?(?:\s?[–-]\s?\d+(?:\.\d+)?)?)(?=\s*(?:$|[|,;]))")


def _unit_after(m: re.Match) -> str:
    unit = m.group("u").strip()
    if not all(part.strip().lower() in UNITS for part in unit.split("/")):
        return m.group(0)
    return f"({m.group('u')}) {m.group('n')} {unit}"


def normalise(text: str, language: str = "auto") -> str:
    """Digits for number words in ``text`` (English, and Chinese numerals where the text has any),
    thousands separators removed, Unicode forms folded (NFKC keeps °, ℃ becomes °C)."""
    t = unicodedata.normalize("NFKC", str(text or "")).replace("−", "-")
    t = re.sub(r"°\s*°", "°", t)  # "240°℃" as OCR reads a caption (℃ folds to °C)
    t = re.sub(r"(?<=[A-Za-z]{3})(?=\d+(?:\.\d+)?\s?(?:°|%))", " ", t)  # "NOZZLE240°C": a label glued to its value
    t = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", t)  # 3,499 -> 3499 (and 23,500)
    t = _BRACKET_UNIT.sub(_unit_after, t)  # "Nozzle temperature (°C) 230–250": the label's unit is the number's
    if language in ("zh", "auto") and has_cjk(t):
        t = _chinese(t)
    if language in ("en", "auto"):
        t = _english(t)
    return t


