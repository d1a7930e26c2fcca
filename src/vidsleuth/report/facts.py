"""Quantities and subjects in a sentence: what the deterministic relater compares.

A *statement* is a sentence read as (subject words, quantities, codes). "Bake at two hundred and
thirty degrees" and "an oven temperature of 446 °F" both state a temperature; after unit
conversion they agree. Values are read with the rule judge's normaliser (number words as digits,
unit spellings merged), then converted to one base unit per dimension so that 446 °F = 230 °C,
1.5 h = 90 min and 1.2 kg = 1200 g compare equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..browse.answers import value_tokens
from ..browse.guards import STOPWORDS

# unit -> (dimension, to-base function). Units the answer normaliser does not merge are added here.
_EXTRA_UNITS = {
    "degc": "c", "degf": "f", "nm": "nm", "newton": "nm", "psi": "psi", "bar": "bar", "rpm": "rpm",
    "mm": "mm", "millimeter": "mm", "millimeters": "mm", "millimetre": "mm", "millimetres": "mm",
    "cm": "cm", "centimeter": "cm", "centimeters": "cm", "ml": "ml", "milliliter": "ml", "milliliters": "ml",
    "millilitre": "ml", "millilitres": "ml", "l": "l", "liter": "l", "liters": "l", "litre": "l", "litres": "l",
    "w": "w", "watt": "w", "watts": "w", "v": "v", "volt": "v", "volts": "v", "days": "d", "day": "d", "d": "d",
    "weeks": "wk", "week": "wk", "months": "mo", "month": "mo", "years": "yr", "year": "yr",
    "oz": "oz", "ounce": "oz", "ounces": "oz", "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb",
    "inch": "inch", "inches": "inch", "cup": "cup", "cups": "cup", "tbsp": "tbsp", "tablespoon": "tbsp",
    "tablespoons": "tbsp", "tsp": "tsp", "teaspoon": "tsp", "teaspoons": "tsp", "kpa": "kpa", "kw": "kw",
    "kilowatt": "kw", "kilowatts": "kw", "hz": "hz", "hertz": "hz", "kph": "kmh", "mph": "mph",
}
_BASE = {
    "c": ("temperature", lambda v: v), "f": ("temperature", lambda v: (v - 32) * 5 / 9),
    "s": ("time", lambda v: v / 60), "min": ("time", lambda v: v), "h": ("time", lambda v: v * 60),
    "d": ("time", lambda v: v * 1440), "wk": ("time", lambda v: v * 10080),
    "mo": ("duration-long", lambda v: v), "yr": ("duration-long", lambda v: v * 12),
    "g": ("mass", lambda v: v), "kg": ("mass", lambda v: v * 1000),
    "mm": ("length", lambda v: v), "cm": ("length", lambda v: v * 10), "m": ("length", lambda v: v * 1000),
    "km": ("length", lambda v: v * 1e6), "ml": ("volume", lambda v: v), "l": ("volume", lambda v: v * 1000),
    "%": ("percent", lambda v: v), "nm": ("torque", lambda v: v), "psi": ("pressure", lambda v: v * 0.0689476),
    "bar": ("pressure", lambda v: v), "rpm": ("speed", lambda v: v), "w": ("power", lambda v: v),
    "v": ("voltage", lambda v: v), "eur": ("money-eur", lambda v: v), "usd": ("money-usd", lambda v: v),
    "oz": ("mass", lambda v: v * 28.3495), "lb": ("mass", lambda v: v * 453.592), "inch": ("length", lambda v: v * 25.4),
    "cup": ("volume", lambda v: v * 240), "tbsp": ("volume", lambda v: v * 15), "tsp": ("volume", lambda v: v * 5),
    "kpa": ("pressure", lambda v: v / 100), "kw": ("power", lambda v: v * 1000), "hz": ("frequency", lambda v: v),
    "kmh": ("speed-road", lambda v: v), "mph": ("speed-road", lambda v: v * 1.60934),
}
_CODE = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\b[A-Z]{2,}\d{2,}[A-Z]?\b")
try:
    import Stemmer as _pystemmer

    _STEMMER = _pystemmer.Stemmer("english")
except ImportError:  # the search extra is not installed
    _STEMMER = None
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_CUE_WORDS = {"degrees", "degree", "minutes", "minute", "hours", "hour", "seconds", "grams", "percent", "celsius",
              "fahrenheit", "kilograms", "millimeters", "millimetres", "liters", "litres", "newton", "metres", "meters"}


@dataclass(frozen=True)
class Quantity:
    value: float  # in the dimension's base unit (°C, minutes, grams, mm, ml, %, N·m, bar)
    dimension: str
    unit: str  # as stated (canonical spelling)
    stated: float  # the number as stated
    position: int  # token index, to pair a quantity with the nearest subject words

    def label(self) -> str:
        shown = {"c": "°C", "f": "°F", "%": "%", "nm": " N·m"}.get(self.unit, " " + self.unit)
        return f"{self.stated:g}{shown}"

    def same_as(self, other: "Quantity", tolerance: float = 0.02) -> bool:
        if self.dimension != other.dimension:
            return False
        scale = max(abs(self.value), abs(other.value), 1e-9)
        return abs(self.value - other.value) / scale <= tolerance


def _tokens(text: str) -> list[str]:
    text = re.sub(r"\bN\s*[·.\-]?\s*m\b", " nm ", str(text or ""))  # 25 N·m, 25 N-m, 25 N.m
    text = re.sub(r"\b(\d+)\s*/\s*(\d+)\b", lambda m: f"{int(m.group(1)) / int(m.group(2)):g}"
                  if int(m.group(2)) else m.group(0), text)  # 1/4 inch -> 0.25 inch
    words = value_tokens(text)
    return [_EXTRA_UNITS.get(w, w) if not _NUMBER.match(w) else w for w in words]


def quantities(text: str) -> list[Quantity]:
    """Every number followed by a known unit (``230 °C``, ``forty minutes``, ``75 percent``)."""
    words = _tokens(text)
    out = []
    for i, w in enumerate(words[:-1]):
        if not _NUMBER.match(w):
            continue
        unit = words[i + 1]
        if unit == "°":
            unit = "c"
        elif unit in ("°c", "°f"):
            unit = unit[1]
        if unit not in _BASE:
            continue
        dim, to_base = _BASE[unit]
        stated = float(w)
        out.append(Quantity(round(to_base(stated), 4), dim, unit, stated, i))
    return out


def codes(text: str) -> list[str]:
    """Part numbers and model codes as written, in capitals (``PN-4471-B``, ``M8-125``, ``XR200``);
    "10-style" or "4-speed" in running text are words, not codes."""
    return sorted({m.group(0) for m in _CODE.finditer(str(text or ""))
                   if not re.fullmatch(r"\d+(?:-\d+)*", m.group(0))})


def stem(word: str) -> str:
    """English Snowball stem (PyStemmer, as the search index uses) so that 'inflation'/'inflate'
    and 'temperatures'/'temperature' meet; a light suffix rule where PyStemmer is not installed."""
    w = word.lower()
    if _STEMMER is not None:
        return _STEMMER.stemWord(w)
    for suffix in ("ations", "ation", "ings", "ing", "ies", "es", "ed", "s", "e"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


_NUMBER_WORDS = set("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
                    "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand "
                    "point half".split())
# what a stated quantity is about, as a word: "bake at 230 °C" is about a temperature even when
# the word is never said, so it meets "the baking temperature"
DIMENSION_WORDS = {"temperature": "temperature", "time": "time", "mass": "weight", "length": "length",
                   "volume": "volume", "torque": "torque", "pressure": "pressure", "speed": "speed", "power": "power",
                   "voltage": "voltage", "duration-long": "time"}


def subject_words(text: str) -> set[str]:
    """Content words (stemmed), without numbers, number words, units and stop words, plus the
    dimension of each stated quantity: what a statement is about."""
    # OCR reads O as 0 and I as 1 inside words ("HYDRATI0N"): inside letters they are letters
    text = re.sub(r"(?<=[A-Za-z])0(?=[A-Za-z])", "o", str(text or ""))
    text = re.sub(r"(?<=[A-Za-z])1(?=[A-Za-z])", "i", text)
    words = re.findall(r"[^\W\d_]+", text.lower())
    out = {stem(w) for w in words if w not in STOPWORDS and w not in _CUE_WORDS and len(w) > 2
           and w not in _EXTRA_UNITS and w not in _NUMBER_WORDS
           and w not in ("celsius", "fahrenheit", "per", "cent", "set", "use")}
    out |= {stem(DIMENSION_WORDS[q.dimension]) for q in quantities(text) if q.dimension in DIMENSION_WORDS}
    return out


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph (a full stop after a lower-case word or a number, ?, !)."""
    parts = re.split(r"(?<=[.!?。！？])\s+(?=[A-Z0-9\"“(\u4e00-\u9fff])", " ".join(str(text or "").split()))
    return [p.strip() for p in parts if p.strip()]
