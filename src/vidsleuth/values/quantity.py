"""Units and the ``Value`` interval: pint's registry, the spellings table, conversion and the
comparisons of two values (see the package docstring)."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from ..numwords import has_cjk, normalise  # noqa: F401 - re-exported: values are read after number words

APPROX = 0.10  # "about 30 minutes" stands for 27–33 minutes
TEMPERATURE_ROUNDING = 0.6  # °C: a temperature converted and rounded to a whole degree of either scale
WRITTEN_BEFORE = ("pH", "SPF", "ISO", "UV index", "R-value")  # scales written before their number ("pH 7.4", "SPF 30", "ISO 3200")
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
    ureg.define("spf = [sun_protection]")  # a sunscreen's sun protection factor, written before its number
    ureg.define("dB_level = [sound_level]")  # a sound level as a spec states it; pint's decibel is a ratio
    ureg.define("luminance_nit = [screen_luminance]")  # a screen's cd/m²; pint's would equal a lux (its steradian has no dimension)
    ureg.define("dli = [light_integral]")  # a day's photons per m²: not a momentary photon flux
    ureg.define("ratio = [proportion]")  # "1:1.25 rice to water" (``ratios``): a quotient, not a count
    ureg.define("angle_degree = [plane_angle]")  # "20° per side": an angle; pint's degree is dimensionless
    ureg.define("r_value = [r_value]")  # an insulation rating ("an R-value of at least 5"), written before its number
    ureg.define("uv_index = [uv_index]")  # the sun's UV index ("UV index 3 or higher"), written before its number
    ureg.define("iso_speed = [film_speed]")  # a camera's ISO ("ISO 3200"), written before its number
    ureg.define("f_number = [aperture]")  # "f/2.8": a focal ratio, read as "2.8 f-stop" (``numwords``)
    ureg.define("colour_kelvin = [colour_temperature]")  # "3900 K" white balance: not a thermometer's reading
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


_FLUID_PER_OZ = convert(1, "fluid_ounce", "m**3") / convert(1, "oz", "kg")  # base-unit volume per base-unit mass of one ounce


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
    unsaid_scale: bool = False  # a temperature said as bare "degrees"/"°": Celsius by default, Fahrenheit possible

    def label(self) -> str:
        """As a reader writes it: "180 °C", "350–375 °F", "≥ 10 min", "≈ 30 min"."""
        shown = show_unit(self.unit, one=self.stated == (1.0,))
        sep = "" if _glued(shown) else " "
        nums = "–".join(f"{x:,.6g}" if abs(x) >= 10000 else f"{x:.2f}" if self.dimension.startswith("money:") and x % 1
                        else f"{x:g}" for x in self.stated)  # "$20.50", not "$20.5"
        if self.unit == "ratio":  # "1:1.25", the two numbers as stated; a range "25–30:1"
            return (f"{self.stated[0]:g}–" if len(self.stated) == 3 else "") + ":".join(f"{x:g}" for x in self.stated[-2:])
        if shown in WRITTEN_BEFORE:
            body = f"{shown} {nums}"
        elif shown == "f/":  # "f/2.8–4"
            body = f"f/{nums}"
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
        if self.dimension == "temperature" and self.unit != other.unit:
            slack = max(slack, TEMPERATURE_ROUNDING)  # 37 °F written as "3 °C": a conversion rounded to a whole degree
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
        return "–".join(f"{round(x, 1):g}" for x in nums) + ("" if _glued(shown) else " ") + shown


_SHOWN: dict[str, str] = _TABLE["shown"]  # how a reader writes a unit


_DEFINING = threading.Lock()


def scaled(amount: float, unit: str) -> str:
    """``unit`` itself, or a unit of ``amount`` of it ("per 1,000 sq ft" is per one unit of 1000 ft²): pint takes no
    factor inside a unit expression, so the scaled unit is defined in the registry, once, and shown as said."""
    if amount == 1:
        return unit
    name = "x" + re.sub(r"\W", "_", f"{amount:g}_{unit}")
    with _DEFINING:  # relations are decided in threads, one per anchor
        if name not in _SHOWN:
            registry().define(f"{name} = {amount:g} * {unit}")
            _SHOWN[name] = f"{amount:,g} {show_unit(unit)}"
    return name


def show_unit(unit: str, one: bool = False) -> str:
    """A unit as a reader writes it ("degF" -> "°F", "(mm)/(second)" -> "mm/s", "count:coat" -> "coats",
    or "coat" after the number one)."""
    if unit.startswith("count:") and "/" in unit:  # a count per period: "strokes/min"
        noun, per = unit.split("/", 1)
        return f"{show_unit(noun, one)}/{_SHOWN.get(per, per)}"
    if unit.startswith("count:"):
        noun = unit[6:]
        if has_cjk(unit) or one:
            return noun
        return re.sub(r"(?<=[^aeiou])y$", "ie", noun) + ("es" if re.search(r"(?:s|sh|ch|x|z)$", noun) else "s")  # batteries, boxes
    m = re.fullmatch(r"\((.+)\)/\((.+)\)", unit)
    if m:
        return f"{show_unit(m.group(1))}/{show_unit(m.group(2))}"
    return _SHOWN.get(unit, unit)


def as_angle(v: Value) -> Value:
    """A degree said without a scale, read as the angle it is where its context says so (a table's "Tilt (°)")."""
    return Value(v.lo, v.hi, "angle", "angle_degree", v.form, v.stated, v.start, v.end)


def as_fluid(v: Value) -> Value:
    """An ounce (pint's "oz", a mass) read as the fluid ounce it is beside a volume."""
    return Value(v.lo * _FLUID_PER_OZ, v.hi * _FLUID_PER_OZ, "volume", "fluid_ounce", v.form, v.stated, v.start, v.end)


def as_period(v: Value) -> Value:
    """A frequency as the period it implies (2 per year: every half year; at least 2: at most half a year)."""
    lo = float("-inf") if v.hi == float("inf") else 1.0 / v.hi  # an open end stays open, as bounds are held
    hi = float("inf") if v.lo <= 0 else 1.0 / v.lo
    form = {"lower": "upper", "upper": "lower"}.get(v.form, v.form)
    return Value(lo, hi, "time", "second", form, v.stated, v.start, v.end)


PERIODS = ("second", "minute", "hour", "day", "week", "month", "year")  # what a rate or a repetition is counted per


def as_frequency(v: Value) -> Value:
    """A count per period as the frequency it is ("two meals a day" is twice a day); other values as they are."""
    period = v.dimension.rpartition("/")[2] if v.dimension.startswith("count:") else ""
    if period not in PERIODS:
        return v
    seconds = convert(1, period, "second")
    return Value(v.lo / seconds, v.hi / seconds, "frequency", f"1/{period}", v.form, v.stated, v.start, v.end)


def aligned(a: Value, b: Value) -> tuple[Value, Value]:
    """The two values in one dimension where an ounce stands beside a volume ("about one ounce" of
    sunscreen and "30 mL" are one amount: an ounce of a liquid is a fluid ounce, pint's "oz" the mass),
    a frequency beside a period ("twice a year" against "every 6 months" or "once a year": the
    period it implies) or a degree said without a scale beside an angle; any other pair as it is."""
    if "frequency" in (a.dimension, b.dimension):  # "2 meals/day" beside "twice a day"
        a, b = as_frequency(a), as_frequency(b)
    # "0 times a day" (每天0次) implies no period: it stays a frequency, which no duration meets
    if {a.dimension, b.dimension} == {"time", "frequency"} and all(v.hi > 0 for v in (a, b) if v.dimension == "frequency"):
        return tuple(as_period(v) if v.dimension == "frequency" else v for v in (a, b))
    if {a.dimension, b.dimension} == {"angle", "temperature"}:
        # a bare "°" where nothing says angle or heat ("| 35°N | 35 |" under "Tilt (°)") is the angle the other states
        return tuple(as_angle(v) if v.dimension == "temperature" and v.unsaid_scale else v for v in (a, b))
    if {a.dimension, b.dimension} == {"mass", "volume"}:
        return tuple(as_fluid(v) if v.unit == "oz" else v for v in (a, b))
    return a, b


def kinds_of(v: Value) -> frozenset[str]:
    """The quantities a value may be where its words leave it open, as ``aligned`` reads them beside
    another: a degree said without a scale is a temperature or an angle, an ounce a mass or a
    volume, a frequency the period it implies. The branches ask this before they compare values, so
    "35°" under "Tilt (°)" reaches an angle anchor at all."""
    out = {v.dimension}
    if v.dimension == "temperature" and v.unsaid_scale:
        out.add("angle")
    if v.dimension == "mass" and v.unit == "oz":
        out.add("volume")
    if v.dimension == "frequency":
        out.add("time")
    return frozenset(out)


def kinds_in(values) -> set[str]:
    """The quantities any of the values may be (``kinds_of``)."""
    return set().union(*(kinds_of(v) for v in values))


def _glued(shown: str) -> bool:
    """A unit written against its number, with no space: "20%", "180°C", "35°", "2×/week"."""
    return shown in ("%", "°C", "°F", "°") or shown.startswith("×")


def same_value(a: Value, b: Value) -> bool:
    """Two statements of one quantity agree: each within the other, or a point inside an interval,
    of one scale ("up to 12 months" holds 24 hours as an interval, yet it is not the same statement)."""
    a, b = aligned(a, b)
    if not (a.comparable(b) and commensurate(a, b) and (b.contains(a) or a.contains(b))):
        return False
    bound = [v for v in (a, b) if v.form in ("lower", "upper")]
    if len(bound) == 1:
        # a bound and a figure are one statement only at the bound's end: "Min. night temp 10 °C" does not state a
        # soil's "60 degrees", nor "no more than one hour a day" a caption's "0 min"
        other = b if bound[0] is a else a
        if a.dimension == "temperature":  # any two temperatures are of one scale (``commensurate``)
            return abs(other.point - bound[0].point) <= max(TEMPERATURE_ROUNDING, MATCH * abs(bound[0].point))
        return abs(other.point - bound[0].point) <= NEAR_BOUND * abs(bound[0].point)  # "a little over three kilos": 3.2 kg
    return True


NEAR_BOUND = 0.25  # how far from a bound's end a figure may be and still be the bound's statement (``same_value``)
SCALE = 10.0  # two values of one kind more than this factor apart are not one quantity of one subject


def commensurate(a: Value, b: Value, factor: float = SCALE) -> bool:
    """Whether two values of one kind are of one scale: "up to three days" (leftovers) is not a
    statement about a 90-minute roast, nor "under a second" about a 45-minute clamp, nor a car's
    58 kWh about a bike's 625 Wh, while "6 mm" against "0.8 mm" is a real disagreement. Temperatures
    are compared in kelvin, so any two plausible settings are of one scale."""
    a, b = aligned(a, b)
    if not a.comparable(b):
        return False
    if a.dimension == "temperature":
        return True
    x, y = abs(a.point), abs(b.point)
    if x == 0 or y == 0 or x == float("inf") or y == float("inf"):
        return True
    return max(x, y) / min(x, y) <= factor


def interval_of(form: str, nums: list[float], unit: str, tol: float | None) -> tuple[float, float]:
    """``[lo, hi]`` in the dimension's comparison unit of numbers stated in ``unit`` with a ``form``
    (point, range, lower, upper, approx with ``tol`` or ±``APPROX``)."""
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


def as_rounded(v: Value) -> Value:
    """A point stated with one significant figure ("7 kW", "3 inches", "500 m") as the approximation it is: a wallbox
    rated 7.4 kW is the "7 kW" a presenter says. Counts, prices and frequencies are exact, and a share of a temperature
    on an offset scale means nothing (10 °C ± 10 %): those, and all other values, as they are."""
    x = v.stated[0] if v.form == "point" and len(v.stated) == 1 else 0.0
    if not x or x != int(x) or len(str(int(abs(x))).rstrip("0")) != 1 or v.dimension.startswith(("count:", "money:", "frequency", "temperature")):
        return v
    lo, hi = interval_of("approx", [x], v.unit, None)
    return Value(lo, hi, v.dimension, v.unit, "approx", v.stated, v.start, v.end, v.unsaid_scale)

