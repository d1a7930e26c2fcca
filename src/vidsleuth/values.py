"""Stated quantities as intervals: the low floor that reads values and units for the report relater
(and any judge that compares values). Imports nothing of vidsleuth above ``errors``.

A value is what a sentence states about one quantity — a point ("180 °C"), an interval ("between
350 and 375 °F", "4–5 coats", "from 100 to 120 cm"), a bound ("at least 10 minutes", "up to
260 °C", "不超过6克") or an approximation ("about half an hour": ±``APPROX`` of the stated number)
— held as ``[lo, hi]`` in one comparison unit per dimension, so a relation is a point-in-interval
test. The parts are maintained libraries:

- **pint** holds the units: conversion, compound units (W·h, mm/s, km/h, N·m, kcal), offset
  temperatures (°F→°C converts each end, never a difference) and currencies, each its own
  dimension (no exchange rate is assumed). Only the *spellings* are a table here (``UNITS``):
  pint parses unit expressions, not prose ("degrees" is an angle to it, "in" an inch).
- number words become digits first (``vidsleuth.numwords``: text2num for English, cn2an for
  Chinese); Chinese units (克, 毫升, 千卡, 分钟, 步, 公里…) and bound words (不超过, 至少, 以上…)
  are spellings here.
- bounds are also written as symbols ("< 40 ppm", "≥ 4") and as negated comparatives ("never go
  above 92 °C" is at most 92), hedged ("under about 10 percent") or after the value ("four weeks is
  the minimum"); ppm (in water, 1 mg/L), bpm and pH (its own dimension, written before its number)
  are units; a count names a plural noun or a measure ending its clause ("3 coats", "180 grit."),
  not a name's number ("Vault 13 home battery") or a participle; Chinese measure words (次, 遍,
  杯…) count.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from .numwords import has_cjk, normalise  # noqa: F401 - re-exported: values are read after number words

APPROX = 0.10  # "about 30 minutes" stands for 27–33 minutes
MATCH = 0.03  # two stated points within 3 % are the same value (rounded conversions: 350 °F ≈ 180 °C)

# spellings -> pint expression (``data/units.json``); torque units share pint's dimension with
# energy (N·m and kcal), so they are named apart
_TABLE = json.loads(files("vidsleuth").joinpath("data", "units.json").read_text(encoding="utf-8"))
_SPELLINGS: dict[str, list[str]] = _TABLE["units"]
_TORQUE: dict[str, list[str]] = _TABLE["torque"]
UNITS = {s: u for u, spellings in _SPELLINGS.items() for s in spellings} | {
    s: u for u, spellings in _TORQUE.items() for s in spellings}
PREFIX_UNITS = {"$": "usd", "us$": "usd", "€": "eur", "£": "gbp", "¥": "cny", "￥": "cny", "¤": "price"}
CURRENCIES = ("usd", "eur", "gbp", "cny")
# "¤" (Unicode's sign for a currency left unsaid) is a price in whichever currency the other side states:
# one value per currency, so "¤64.99" meets "£64.99" and "$64.99" alike and is compared to neither's rate
_DIMENSIONS: dict[str, str] = _TABLE["dimensions"]  # pint dimensionality -> the kind's name


@lru_cache(maxsize=1)
def registry():
    """pint's registry with steps and one dimension per currency (built once, ~0.2 s)."""
    import pint

    ureg = pint.UnitRegistry()
    for name in ("usd", "eur", "gbp", "cny"):
        ureg.define(f"{name} = [currency_{name}]")
    ureg.define("step = [steps]")
    ureg.define("ppmw = milligram / liter")  # ppm of a solute in water, as test kits read it
    ureg.define("bpm = 1 / minute")  # heart beats
    ureg.define("pH = [acidity]")
    ureg.define("dB_level = [sound_level]")  # a sound level as a spec states it; pint's decibel is a ratio
    return ureg


@lru_cache(maxsize=256)
def _kind_of(unit: str) -> tuple[str, str]:
    """(dimension name, comparison unit) of a pint expression: °C for temperatures (a 3 % match
    means nothing in kelvin), pint's base units otherwise."""
    ureg = registry()
    if unit in _TORQUE:
        return "torque", "N*m"
    dims = ureg.Quantity(1, unit).dimensionality
    key = " * ".join(sorted(f"{d} ** {p:g}" if p > 1 else d for d, p in dims.items() if p > 0)) or "1"
    neg = " / ".join(sorted(f"{d} ** {-p:g}" if p < -1 else d for d, p in dims.items() if p < 0))
    text = "dimensionless" if not dims else (f"{key} / {neg}" if neg else key)
    if re.fullmatch(r"\[currency_\w+\]", text):
        return "money:" + text[10:-1], unit
    name = _DIMENSIONS.get(text, "steps" if text == "[steps]" else text)
    return name, "degC" if name == "temperature" else str(ureg.Quantity(1, unit).to_base_units().units)


def convert(number: float, unit: str, to: str) -> float:
    """``number`` in ``unit`` expressed in ``to`` (offset temperatures handled by pint)."""
    ureg = registry()
    return float(ureg.Quantity(number, unit).to(to).magnitude)


@dataclass(frozen=True)
class Value:
    """One stated quantity: ``[lo, hi]`` in the dimension's comparison unit (−inf/inf for an open
    bound), with the numbers and unit as stated."""

    lo: float
    hi: float
    dimension: str  # temperature, time, mass, torque, money:usd, count:coat…
    unit: str  # pint expression of the stated unit ("degF", "W*h"), or the counted noun
    form: str  # point | range | lower | upper | approx
    stated: tuple[float, ...]  # the number(s) as stated
    start: int = 0  # character offsets in the normalised text
    end: int = 0

    def label(self) -> str:
        """As a reader writes it: "180 °C", "350–375 °F", "≥ 10 min", "≈ 30 min"."""
        shown = show_unit(self.unit, one=self.stated == (1.0,))
        sep = "" if shown in ("%", "°C", "°F") else " "
        nums = "–".join(f"{x:,.6g}" if abs(x) >= 10000 else f"{x:.2f}" if self.dimension.startswith("money:") and x % 1
                        else f"{x:g}" for x in self.stated)  # "$20.50", not "$20.5"
        if shown == "pH":  # written before its number
            body = f"pH {nums}"
        elif self.dimension.startswith("money:") and shown in ("$", "€", "£", "¥"):
            body = f"{shown}{nums}"
        else:
            body = f"{nums}{sep}{shown}"
        return {"lower": "≥ ", "upper": "≤ ", "approx": "≈ "}.get(self.form, "") + body

    @property
    def point(self) -> float:
        """The middle of a closed interval, or its one finite end."""
        if self.lo == float("-inf"):
            return self.hi
        if self.hi == float("inf"):
            return self.lo
        return (self.lo + self.hi) / 2

    @property
    def value(self) -> float:
        return self.point

    def same_as(self, other: "Value") -> bool:
        return same_value(self, other)

    def comparable(self, other: "Value") -> bool:
        return self.dimension == other.dimension

    def contains(self, other: "Value", tolerance: float = MATCH) -> bool:
        """Whether ``other`` (a point or interval) lies inside this value, within ``tolerance``
        of the magnitudes involved when a conversion may have rounded them (350 °F ≈ 180 °C)."""
        if not self.comparable(other):
            return False
        if self.unit == other.unit:  # no conversion to round: 23.9 kg is not 24.5 kg
            tolerance = 1e-6
        slack = tolerance * max(abs(other.lo) if other.lo != float("-inf") else 0.0,
                                abs(other.hi) if other.hi != float("inf") else 0.0, 1e-9)
        return self.lo - slack <= other.lo and other.hi <= self.hi + slack

    def width(self) -> float:
        """How specific the value is (0 for a point); a bound is infinitely wide."""
        return self.hi - self.lo

    def shown_in(self, unit: str) -> str:
        """The stated number(s) converted to ``unit`` ("165 °F" -> "74 °C")."""
        try:
            nums = [convert(x, self.unit, unit) for x in self.stated]
        except Exception:  # noqa: BLE001 - pint raises several types for impossible conversions
            return ""
        shown = show_unit(unit)
        return "–".join(f"{round(x, 1):g}" for x in nums) + ("" if shown in ("%", "°C", "°F") else " ") + shown


_SHOWN: dict[str, str] = _TABLE["shown"]  # how a reader writes a unit


def show_unit(unit: str, one: bool = False) -> str:
    """A unit as a reader writes it ("degF" -> "°F", "(mm)/(second)" -> "mm/s", "count:coat" -> "coats",
    or "coat" after the number one)."""
    if unit.startswith("count:"):
        return unit[6:] + ("" if has_cjk(unit) or one else "s")
    m = re.fullmatch(r"\((.+)\)/\((.+)\)", unit)
    if m:
        return f"{show_unit(m.group(1))}/{show_unit(m.group(2))}"
    return _SHOWN.get(unit, unit)


# ----------------------------------------------------------------------------- reading values

_NUM = r"(?<![A-Za-z0-9_.:/#-])(?:-(?=\d))?\d+(?:\.\d+)?(?![\d:])"
_NUM_B = r"\d+(?:\.\d+)?(?![\d:])"
_UNIT_RE = "|".join(re.escape(s) for s in sorted(UNITS, key=len, reverse=True))
_AFTER = r"(?![a-z0-9])"
_DENOMINATORS = ("second", "minute", "hour", "l", "ml", "g", "kg", "lb", "oz", "m**2")  # speeds, flows, concentrations,
# per-weight and per-area rates ("35 g/m²" of seed)
_PER = "|".join(re.escape(s) for s in sorted((k for k, u in UNITS.items() if u in _DENOMINATORS), key=len, reverse=True))
_CONNECT = r"(?:\s?/\s?|\s+(?:per|an?)\s+|\s?每\s?)"
# a rate or a concentration: "mm/s", "litres per minute", "60 grams of salt per litre of water", "60 g salt / 1 L"
_OF = r"(?:\s+(?:of\s+)?[a-z]+)?"
_ONE_UNIT = rf"(?:{_UNIT_RE}){_AFTER}(?:{_OF}{_CONNECT}(?:1\s?)?(?:{_PER}){_AFTER})?"
_VALUE = re.compile(
    rf"(?P<pre>(?:us\$|[$€£¥￥¤])\s?)?(?P<a>{_NUM})(?:\s?(?:±|\+/-|plus or minus)\s?(?P<tol>{_NUM_B}))?"
    rf"(?:\s?(?P<ua>{_ONE_UNIT}))?"
    rf"(?:\s?(?P<sep>-|–|—|~|～|to|and|or|至|到)\s?(?:us\$|[$€£¥￥¤])?(?P<b>{_NUM_B}))?"
    rf"(?:\s?(?P<ub>{_ONE_UNIT}))?", re.I)
_PER_SPLIT = re.compile(rf"^(?P<u>.+?){_OF}{_CONNECT}(?:1\s?)?(?P<per>{_PER})$", re.I)
_COUNT = re.compile(r"\s?([a-z]{3,})\b", re.I)
_PAID = re.compile(r"\b(?:costs?|costing|paid|pay|pays|price[ds]?|sells?|sold|spent|spend|bought|buy|retails?|rrp)\b"
                   r"(?![^,]*\b(?:weigh\w*|heavy|mass)\b)", re.I)
_COUNT_ADJ = re.compile(r"\s([a-z]{3,})\s([a-z]{3,})\b", re.I)
# a word that numbers the items of a sequence, just before the number
_ORDINAL = re.compile(r"\b(?:step|rule|tip|part|chapter|section|stage|phase|round|lesson|episode|level|item|no\.?|number|"
                      r"#)\s*$", re.I)
_NOT = r"(?<!\bno )(?<!\bnot )(?<!不)"  # "no more than" is an upper bound, "不超过" too
_HEDGE = r"(?:\s+(?:about|around|roughly|approximately|some))?"  # "under about 10 percent" is still a bound
_LOWER = re.compile(r"(?:at least|no less than|not less than|(?:a )?minimum of|min\.|>=|≥|>|"
                    rf"{_NOT}(?:more than|over|above|greater than|exceeding|exceeds?|超过|大于|高于|多于)|"
                    rf"不少于|不低于|至少|最少){_HEDGE}\s*$", re.I)
_UPPER = re.compile(r"(?:at most|(?<!\bit )(?<!\bthem )(?<!\btop )(?<!\bfill )(?<!\bback )up to|no more than|not more than|(?:a )?maximum of|max\.|<=|≤|<|"
                    rf"{_NOT}(?:less than|under|below|少于|低于|小于)|"
                    rf"not exceed(?:ing)?|within|不超过|不多于|不高于|最多|控制在){_HEDGE}\s*$", re.I)
_APPROXIMATE = re.compile(r"(?:about|around|roughly|approximately|approx\.|circa|ca\.|nearly|almost|some|~|≈|约|大约|大概|"
                          r"差不多)\s*$", re.I)
# a Chinese comparative under a negation of advice: "不宜低于10℃" (should not fall below) is at least 10 °C,
# "不要超过" at most
_ZH_NEG = r"(?:不宜|不要|不能|不应该?|不得|不可|切勿|勿|别|避免|防止)"
_ZH_NOT_BELOW = re.compile(rf"{_ZH_NEG}\s*(?:低于|少于|小于|短于|不足)\s*$")
_ZH_NOT_ABOVE = re.compile(rf"{_ZH_NEG}\s*(?:超过|高于|大于|多于|长于|超出)\s*$")
_BETWEEN = re.compile(r"(?:between|from|在)\s*$", re.I)
_POST_LOWER = re.compile(r"^\s*(?:\+|or (?:more|longer|above|higher|over)|(?:(?:is|are|was) (?:the|a) )?(?:bare )?minimum\b|"
                         r"以上|或以上|起)", re.I)
_POST_UPPER = re.compile(r"^\s*(?:or (?:less|fewer|under|below|shorter)|(?:(?:is|are|was) (?:the|a) )?(?:maximum|limit)\b|"
                         r"max\b|以下|以内|或以下)", re.I)
# a comparative under a negation is the opposite bound: "never go above 92 °C", "don't increase it by more than 10 %"
_NEGATED = re.compile(r"\b(?:never|not|don'?t|do not|doesn'?t|does not|shouldn'?t|should not|mustn'?t|must not|no)\b"
                      r"[^.,;:!?]*?\b(?:more than|over|above|exceed\w*|less than|under|below|fewer than)\s*$", re.I)
_SAID_BOUND = re.compile(r"\b(?:no|not)\s+(?:more|less|fewer)\s+than\s*$|\bnot\s+(?:exceed\w*|over|above|under|below)\s*$", re.I)
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;:!?)\]]|(?:and|or|then|before|after|each|per|on|in|at|for|with|to)\b)", re.I)
_ZH_COUNT = "次遍泡杯份片粒颗只条张"  # Chinese measure words: 3 次 is three times, not a unit
_POST_APPROX = re.compile(r"^\s*(?:or so\b|左右|上下)", re.I)
_TOLERANCE = re.compile(r"^\s*(?:±|\+/-|plus or minus)\s?(\d+(?:\.\d+)?)", re.I)
_NOT_COUNTED = set("""the a an and or of to in on at for by with from as is are was were be been it its this that these
those than then per each every more less most least about times time am pm bc ad percent minutes hours seconds days weeks
minus plus negative
years months degrees""".split()) | {m for m in ("january february march april may june july august september october "
                                              "november december jan feb mar apr jun jul aug sep sept oct nov dec").split()}


def _singular(word: str) -> str:
    w = word.lower()
    for end, repl in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if w.endswith(end) and len(w) > len(end) + 2:
            return w[: -len(end)] + repl
    return w


def _interval(form: str, nums: list[float], unit: str, tol: float | None) -> tuple[float, float]:
    lo_s, hi_s = min(nums), max(nums)
    if form == "approx":
        d = abs(lo_s) * (APPROX if tol is None else 0.0) + (tol or 0.0)
        lo_s, hi_s = lo_s - d, hi_s + d
    if unit.startswith("count:") or unit == "price":
        lo, hi = lo_s, hi_s
    else:
        dim, base = _kind_of(unit)
        lo, hi = convert(lo_s, unit, base), convert(hi_s, unit, base)
    if form == "lower":
        return lo, float("inf")
    if form == "upper":
        return float("-inf"), hi
    return lo, hi


def _form(before: str, after: str, two: bool) -> tuple[str, float | None]:
    tol = _TOLERANCE.match(after)
    if tol:
        return "approx", float(tol.group(1))
    if two:
        return "range", None
    for pattern, form in ((_ZH_NOT_BELOW, "lower"), (_ZH_NOT_ABOVE, "upper")):
        if pattern.search(before):
            return form, None
    for pattern, form in ((_LOWER, "lower"), (_UPPER, "upper"), (_APPROXIMATE, "approx")):
        if pattern.search(before):
            if form != "approx" and _NEGATED.search(before) and not _SAID_BOUND.search(before):
                return ("upper" if form == "lower" else "lower"), None
            return form, None
    for pattern, form in ((_POST_LOWER, "lower"), (_POST_UPPER, "upper"), (_POST_APPROX, "approx")):
        if pattern.match(after):
            return form, None
    return "point", None


def _expr(spelled: str) -> str:
    """The pint expression of a unit as spelled ("mm/s" -> "(mm)/(second)")."""
    spelled = spelled.lower()
    if spelled in UNITS:
        return UNITS[spelled]
    m = _PER_SPLIT.match(spelled)
    return f"({UNITS[m.group('u')]})/({UNITS[m.group('per')]})" if m and m.group("u") in UNITS else ""


def _dimension_of(spelled: str) -> str:
    """The dimension of a unit as spelled ('' when pint cannot read it)."""
    try:
        return _kind_of(_expr(spelled))[0]
    except Exception:  # noqa: BLE001 - an unreadable expression has no dimension
        return ""


def _unit_of(m: re.Match, text: str) -> str:
    for group in ("ub", "ua") if m.group("b") else ("ua",):  # "250 ml cup": the unit is the first one
        if m.group(group):
            return _expr(m.group(group))
    if m.group("pre"):
        return PREFIX_UNITS[m.group("pre").strip().lower()]
    if _ORDINAL.search(text[max(0, m.start() - 12):m.start()]):
        return ""  # "Step 3 rinse", "Rule 2", "No. 4": the number names an item of a sequence, it counts nothing
    word = _COUNT.match(text, m.end())
    # a count names a plural noun ("4 coats") or a measure ending its clause ("finish at 180 grit."): in
    # "the Vault 13 home battery" the number is a name's, and "8,900 installed" counts no participle
    if word and word.group(1).lower() not in _NOT_COUNTED and not re.fullmatch(r"[a-z]{3,}ed", word.group(1).lower()) and (
            float(m.group("a")) == 1 or _singular(word.group(1)) != word.group(1).lower()
            or _CLAUSE_END.match(text, word.end())):
        return "count:" + _singular(word.group(1))
    # … or a plural noun after one adjective, ending its clause ("500 full cycles.", "3 thin coats,")
    pair = _COUNT_ADJ.match(text, m.end())
    if pair and not {w.lower() for w in pair.groups()} & _NOT_COUNTED and _singular(pair.group(2)) != pair.group(2).lower() \
            and _singular(pair.group(1)) == pair.group(1).lower() and pair.group(1).lower() not in UNITS \
            and _CLAUSE_END.match(text, pair.end()):
        return "count:" + _singular(pair.group(2))
    zh = re.match(rf"\s?([{_ZH_COUNT}])", text[m.end():]) if text[m.start() - 1:m.start()] != "第" else None  # 第1泡: an ordinal
    # "每两周修剪一次": once in each period is the period's frequency (said by 每), not a count of its own
    if zh and not (float(m.group("a")) == 1 and zh.group(1) in "次遍" and "每" in re.split(r"[,，;；。]", text[:m.start()])[-1]):
        return "count:" + zh.group(1)
    return ""


def _plausible(m: re.Match, unit: str, text: str) -> bool:
    """Single-letter units only right after the number ("180 g", not "Step 3 g…" across a word),
    and a bare "°"/"degrees" only as a temperature when no other unit is said."""
    raw = m.group("ub") or m.group("ua") or ""
    spelled = raw.lower()
    if len(spelled) == 1 and spelled.isascii() and spelled.isalpha() and spelled not in ("g", "h", "s", "m", "l", "w", "v"):
        return False
    if raw in ("G", "M", "S", "H"):  # unit symbols are case-sensitive: "800G", "5M", "12S" are names, not grams or metres
        return False
    if (unit == "year" or unit.startswith("count:")) and re.fullmatch(r"(?:19|20)\d\d", m.group("a")):
        return False  # "2024年": a date; "2023 Fuel and Fluid": a year, not a count
    if spelled in ("分", "日", "年", "度", "元", "块", "升", "米") and not has_cjk(text[max(0, m.start() - 4):m.end() + 2]):
        return False
    return bool(unit)


def read_values(text: str, language: str = "auto", *, normalised: bool = False) -> list[Value]:
    """Every quantity ``text`` states, in order (see the module docstring); offsets refer to
    ``normalise(text)`` unless ``normalised`` says the text already is."""
    t = text if normalised else normalise(text, language)
    out: list[Value] = []
    pos = 0
    while (m := _VALUE.search(t, pos)) is not None:
        pos = m.end()
        unit = _unit_of(m, t)
        if unit == "lb" and (m.group("ua") or "").lower().startswith("pound") and _PAID.search(
                re.split(r"[.;!?]", t[max(0, m.start() - 60):m.start()])[-1]):
            unit = "gbp"  # "it costs 12 pounds": money, not weight
        if not _plausible(m, unit, t):
            if m.group("sep"):
                pos = m.start("sep")
            continue
        two = m.group("b") is not None
        before = t[max(0, m.start() - 60):m.start()]
        if two and m.group("sep").lower() == "and" and not _BETWEEN.search(before):
            two = False  # "10 minutes and 2 hours" are two values
        if two and m.group("ua") and m.group("ub") and _dimension_of(m.group("ua")) != _dimension_of(m.group("ub")):
            two = False  # "ramp at 100 °C/h to 600 °C": a rate and a target, not one range
        nums = [float(m.group("a"))] + ([float(m.group("b"))] if two else [])
        if two and m.group("ua") and m.group("ub") and _expr(m.group("ua")) != _expr(m.group("ub")):
            try:  # "10 minutes to 2 hours": each end in its own unit, the range in the second's
                nums[0] = convert(nums[0], _expr(m.group("ua")), _expr(m.group("ub")))
            except Exception:  # noqa: BLE001 - not convertible: left as read
                pass
        if not two and m.group("sep"):  # the second number was not a range end: read it on its own
            end = pos = m.start("sep")
            unit = _expr(m.group("ua")) if m.group("ua") else unit
        else:
            end = m.end()
        if two and nums[1] < nums[0] and m.group("sep") in ("-", "–", "—"):
            continue  # "2024-03": a date or a code, not a range
        after = t[end:end + 16]
        form, tol = _form(before, after, two)
        if m.group("tol"):
            form, tol = "approx", float(m.group("tol"))
        try:
            lo, hi = _interval(form, nums, unit, tol)
            dim = unit if unit.startswith("count:") or unit == "price" else _kind_of(unit)[0]
        except Exception:  # noqa: BLE001 - an expression pint cannot read is no value
            continue
        if unit == "price":
            out += [Value(lo, hi, f"money:{c}", c, form, tuple(nums), m.start(), end) for c in CURRENCIES]
            continue
        out.append(Value(lo, hi, dim, unit, form, tuple(nums), m.start(), end))
    return _compounds(out, t)


def _compounds(values: list[Value], text: str) -> list[Value]:
    """One quantity written in two units, the larger first: "4 min 10 s" is 250 s, "1 h 20 min",
    "2 hours and 30 minutes", "5 ft 6 in", "1 lb 4 oz" (pint converts the smaller part into the
    larger unit); "10 minutes and 2 hours" are two values."""
    out: list[Value] = []
    for v in values:
        a = out[-1] if out else None
        if (a is not None and a.form in ("point", "approx") and v.form == "point" and a.dimension == v.dimension
                and not a.dimension.startswith(("count:", "money:")) and a.dimension != "temperature" and a.unit != v.unit
                and len(a.stated) == len(v.stated) == 1 and re.fullmatch(r"\s*(?:and\s+)?", text[a.end:v.start])):
            try:
                part = convert(v.stated[0], v.unit, a.unit)
                whole = convert(1, a.unit, v.unit)
            except Exception:  # noqa: BLE001 - units pint cannot relate stay two values
                part, whole = 0.0, 0.0
            if 0 < part < 1 and v.stated[0] < whole:
                num = a.stated[0] + part
                lo, hi = _interval(a.form, [num], a.unit, None)
                out[-1] = Value(lo, hi, a.dimension, a.unit, a.form, (round(num, 2),), a.start, v.end)
                continue
        out.append(v)
    return out


def read_money(text: str, *, normalised: bool = False) -> list[Value]:
    """Every price ``text`` states, in order: "€4.50", "4,50 €", "£3.20", "3.20 pounds", "12 yuan",
    "32 euros per kg", and "4 euros 50" as a recogniser writes a spoken price. The two rewrites
    keep the text's length, so offsets still refer to ``normalise(text)``."""
    t = text if normalised else normalise(text)
    cur = r"(?:€|£|\$|¥|eur|euros?|pounds?|gbp|usd|dollars?|yuan|cny|rmb)(?![a-z])"
    t = re.sub(rf"(?<![\d.,])(\d+),(\d{{2}})(?=\s?{cur})|(?<=[€£$¥])(\s?\d+),(\d{{2}})(?![\d,])",  # decimal comma
               lambda m: f"{m[1]}.{m[2]}" if m[1] else f"{m[3]}.{m[4]}", t, flags=re.I)
    t = re.sub(rf"(?<![\d.,])(\d+) ({cur}) (\d{{2}})(?![\d:]|[.,]\d|\s?(?:%|(?:{_UNIT_RE})(?![a-z0-9])))",
               lambda m: f"{m[1]}.{m[3]} {m[2]}", t, flags=re.I)  # the cents after the currency word
    out = []
    for v in read_values(t, normalised=True):
        if v.dimension == "mass" and re.fullmatch(r"[\d.]+\s?pounds?", t[v.start:v.end].strip(), re.I):
            v = Value(v.stated[0], v.stated[-1], "money:gbp", "gbp", v.form, v.stated, v.start, v.end)
        if v.dimension.startswith("money:") or "[currency_" in v.dimension:
            out.append(v)
    return out


def same_value(a: Value, b: Value) -> bool:
    """Two statements of one quantity agree: each within the other, or a point inside an interval,
    of one scale ("up to 12 months" holds 24 hours as an interval, yet it is not the same statement)."""
    return a.comparable(b) and commensurate(a, b) and (b.contains(a) or a.contains(b))


def states(text: str, wanted: str) -> bool | None:
    """Whether ``text`` states every value ``wanted`` names, as the same quantity after conversion
    ("482 °F" states "250 °C"; a range states only an equal range); None when ``wanted`` names no value."""
    want = read_values(wanted)
    if not want:
        return None
    have = read_values(text)
    return all(any(h.comparable(w) and h.form == w.form and w.contains(h) and h.contains(w) for h in have) for w in want)


SCALE = 10.0  # two values of one kind more than this factor apart are not one quantity of one subject


def commensurate(a: Value, b: Value, factor: float = SCALE) -> bool:
    """Whether two values of one kind are of one scale: "up to three days" (leftovers) is not a
    statement about a 90-minute roast, nor "under a second" about a 45-minute clamp, nor a car's
    58 kWh about a bike's 625 Wh, while "6 mm" against "0.8 mm" is a real disagreement. Temperatures
    are compared in kelvin, so any two plausible settings are of one scale."""
    if not a.comparable(b):
        return False
    if a.dimension == "temperature":
        return True
    x, y = abs(a.point), abs(b.point)
    if x == 0 or y == 0 or x == float("inf") or y == float("inf"):
        return True
    return max(x, y) / min(x, y) <= factor
