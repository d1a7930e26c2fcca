"""Statements: what a sentence (or a table row) says, read as subject words and stated values.

Values come from ``vidsleuth.values`` (pint, text2num, cn2an): intervals in one comparison unit
per dimension, so "between 350 and 375 °F" holds 180 °C and "at least 10 minutes" holds 15.

The *subject* is what is measured. A sentence's words split into **object** words (the thing: oven,
poultry, nozzle, e-bike, 食盐) and **property** words (temperature, time, weight, torque…, plus the
dimension of each stated value). A source sentence is about an anchor's subject only when they
share an object word, counting the words of the source's title and of the table header above a
row ("the page is about its title"): "the car weighs 1,400 kg" shares only a property with "the
bike weighs 22 kg", and is about something else. English words are Snowball-stemmed (PyStemmer,
as the search index); Chinese is cut into words by jieba (the search extra), else into bigrams.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from ..browse.guards import STOPWORDS
from ..values import as_rounded
from ..values.quantity import MATCH, UNITS, WRITTEN_BEFORE, Value, aligned, as_angle, has_cjk, normalise
from ..values.reading import read_values, rescaled, speaks_of_angle
from .columns import spans
from .prose import sentences  # noqa: F401 - where the readers have always found it
from .zh_words import zh_words

_CODE = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\b[A-Z]{2,}\d{2,}[A-Z]?\b")
try:
    import Stemmer as _pystemmer

    _STEMMER = _pystemmer.Stemmer("english")
    STEMMER = "pystemmer-snowball-english"
except ImportError:  # the search extra is not installed: recorded in run.json as the stemmer used
    _STEMMER = None
    STEMMER = "suffix-rules"

# what a value is about, as a word: "bake at 230 °C" is about a temperature even when never said ("the baking temperature")
DIMENSION_WORDS = {"temperature": "temperature", "time": "time", "mass": "weight", "length": "length",
                   "volume": "volume", "torque": "torque", "pressure": "pressure", "speed": "speed", "power": "power",
                   "voltage": "voltage", "energy": "energy", "ratio": "percent", "proportion": "ratio", "steps": "steps", "frequency": "speed",
                   "charge": "capacity", "concentration": "concentration", "luminance": "brightness",
                   "illuminance": "brightness", "ISO speed": "iso", "aperture": "aperture", "colour temperature": "kelvin",
                   "force": "force", "UV index": "uv", "thermal transmittance": "transmittance", "acidity": "ph", "sun protection factor": "spf"}
_PROPERTY = set("""temperature temperatures heat hot warm cold time times duration long longer short shorter minute hour
weight weigh weighs heavy light mass length long height high tall wide width depth thick thickness size volume amount
quantity torque tension tight pressure speed fast slow rate power capacity energy range percent percentage ratio level price cost
costs costing priced value number count total maximum minimum max min limit setting settings recommended recommend
recommends recommendation guidance spec specs specification figure figures measured reading rated apart spacing
distance brightness bright""".split())
_GENERIC = set("""use used using set make makes made get gets take takes need needs needed should must can could would
will may might keep kept put let go goes going want way thing things also just really very well good best better new
now today video guide page article holds hold has have gives give uses puts out off cuts delivers produces offers provides reaches step steps first second third one two lot bit quite right least most about around
roughly approximately more less than between from under over above below within exactly only""".split())
_NUMBER_WORDS = set("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
                    "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand "
                    "point half dozen quarter".split())
_UNIT_WORDS = set("""degrees degree celsius fahrenheit minutes minute hours hour seconds second grams gram kilograms kg
millimeters millimetres centimeters centimetres meters metres kilometers kilometres liters litres milliliters
millilitres newton watt watts wh kwh nm psi bar percent per cent mph kph km cm mm ml oz lb lbs lbf inch inches feet
foot cups cup tbsp tsp days day weeks week months month years year kcal calories dollars dollar euros euro usd eur""".split())


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


_PROPERTY_STEMS = {stem(w) for w in _PROPERTY | set(DIMENSION_WORDS.values())}
# the property words that name a measured quantity ("range", "temperature", "torque"), not a
# qualifier of one ("total", "maximum", "recommended")
MEASURE_STEMS = {stem(w) for w in """temperature heat time duration weight mass length height width depth thickness size
volume amount quantity torque tension pressure speed rate power capacity energy range percentage ratio level price cost
""".split()} | {stem(w) for w in DIMENSION_WORDS.values()}


def quantities(text: str) -> list[Value]:
    """Every value ``text`` states (``vidsleuth.values.read_values``)."""
    return read_values(text)


def agrees(source: Value, video: Value) -> bool:
    """The source's value holds the video's: inside it, inside the video's approximation, the approximation's
    figure inside the source's interval, a source figure inside the video's range, or the same bound. A
    temperature said without its scale is Celsius, or the Fahrenheit the other side writes, or meets a Celsius
    figure or range as Fahrenheit ("soil warmed to 60 degrees" and a 16 °C row), never an open bound (any
    Fahrenheit reading meets "never above 92 °C"). Kinds are aligned first (``values.aligned``)."""
    source, video = aligned(source, as_rounded(video))  # "7 kW" is a rounded figure
    if _agrees(source, video):
        return True
    if video.unsaid_scale and (source.unit == "degF" or source.dimension == "temperature" and not source.unsaid_scale
                               and source.form in ("point", "approx", "range")):
        return _agrees(source, rescaled(video))
    return source.unsaid_scale and video.unit == "degF" and _agrees(rescaled(source), video)


def _agrees(source: Value, video: Value) -> bool:
    if source.form == video.form in ("lower", "upper"):  # two limits of one side meet at one threshold only ("up to 12 m", "≤ 8 m")
        return source.contains(video) and video.contains(source)
    if video.form == "range" and source.form in ("point", "approx") and video.contains(source) or source.contains(video) or (
            video.form == "approx" and source.form == "point" and video.contains(source)):
        return True
    if video.form == "approx" and source.comparable(video) and source.lo <= video.point * (1 + MATCH) and (
            video.point * (1 - MATCH) <= source.hi):
        return True
    # a bound met at its limit: "at least 30 minutes" and "about 30 minutes"; a range by its end ("15 to 20 km", "≤ 20 km")
    end = (source.hi if video.form == "upper" else source.lo) if source.form == "range" else source.point
    return video.form in ("lower", "upper") and (video.contains(source) or source.form == "approx") and abs(
        end - video.point) <= MATCH * max(abs(video.point), 1e-9)


def codes(text: str) -> list[str]:
    """Part numbers and model codes as written, in capitals (``PN-4471-B``, ``M8-125``, ``XR200``);
    "10-style" or "4-speed" in running text are words, not codes."""
    return sorted({m.group(0) for m in _CODE.finditer(str(text or ""))
                   if not re.fullmatch(r"\d+(?:-\d+)*", m.group(0))})


def _content(text: str) -> set[str]:
    # OCR reads O as 0 and I as 1 inside words ("HYDRATI0N"): inside letters they are letters
    text = re.sub(r"(?<=[A-Za-z])0(?=[A-Za-z])", "o", str(text or ""))
    text = re.sub(r"(?<=[A-Za-z])1(?=[A-Za-z])", "i", text)
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", text.lower())
    words += [part for w in words if "-" in w for part in w.split("-")]  # "outer-wall" meets "outer walls"
    out = {stem(w) for w in words if w not in STOPWORDS and (len(w) > 2 or w in ("ph", "uv")) and w not in _UNIT_WORDS
           and w not in _NUMBER_WORDS and w not in _GENERIC}
    return out | identifiers(text) | (zh_words(text) if has_cjk(text) else set())


def identifiers(text: str) -> set[str]:
    """Names written with digits — models and plans ("X9", "401(k)", "RTX4090") — as thing-words
    (lower case, brackets dropped: "401(k)" is "401k"); a number glued to a unit ("625Wh", "24h")
    or an ordinal ("3rd") is a value, not a name."""
    text = re.sub(r"(?<=\d)\((\w)\)", r"\1", str(text or "")).lower()
    out = set()
    for tok in re.findall(r"(?<![\w.])(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]{2,}(?![\w.])", text):
        split = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z]+)", tok)
        if split and (split.group(2) in UNITS or split.group(2) in ("st", "nd", "rd", "th", "s", "x")):
            continue
        out.add(tok)
    return out


def said_stems(text: str) -> set[str]:
    """The stems of the words a text says itself (``subject_words`` adds the kinds of its values)."""
    return {stem(w) for w in re.findall(r"[a-z]+", text.lower())}


def subject_words(text: str) -> set[str]:
    """Content words (stemmed; Chinese words), without numbers, units and stop words, plus the
    dimension of each stated value: what a statement is about."""
    return _content(text) | {kind_word(v.dimension) for v in quantities(text)} - {""}


def kind_word(dimension: str) -> str:
    """The (stemmed) word for what a value of ``dimension`` measures: temperature, price, coat…"""
    if dimension.startswith("money:"):
        return stem("price")
    if dimension.startswith("count:"):
        return stem(dimension[6:])
    return stem(DIMENSION_WORDS[dimension]) if dimension in DIMENSION_WORDS else ""


def objects(words: set[str]) -> set[str]:
    """The thing-words of a subject (not its property words)."""
    return {w for w in words if w not in _PROPERTY_STEMS and not w.startswith(("温度", "时间", "重量"))}


@dataclass(frozen=True)
class Reading:
    """One value a statement gives, with the words that say what it is the value of."""

    value: Value
    words: frozenset[str]
    near: frozenset[str] = frozenset()  # the words that introduce this value (since the one before)


@dataclass(frozen=True)
class Statement:
    text: str  # verbatim, as cited
    readings: tuple[Reading, ...]
    words: frozenset[str]  # subject words of the whole statement (and its context)
    codes: tuple[str, ...] = ()
    cases: tuple[Value, ...] = ()  # a table row's label as a value: the case the row is for ("25–50 mm" bits)


def cells(row: str) -> list[str]:
    """A Markdown table row's cells, stripped ("| PLA | 200–220 |" -> ["PLA", "200–220"])."""
    return [c.strip() for c in row.strip().strip("|").split("|")]


_UNIT_COLUMN = re.compile(r"(?:units?|单位)", re.I)


def unit_column(head: str) -> bool:
    """Whether a table header cell heads the column of units ("Unit", "单位"): a data sheet's row
    then names its own unit there, and the column is no value of its own."""
    return bool(_UNIT_COLUMN.fullmatch(head.strip()))


_PER_PERIOD = re.compile(r"(?:\s+(?:per|each|every|/)\s*\w+)*\s*(?:\s(?:per|a|an|each|every)\s|/)\s*"
                         r"(?:day|week|month|year|night)s?\s*$", re.I)


def _header_unit(header: str) -> str:
    """The unit a column header names: "Motor torque (Nm)" -> "Nm", "Temp °C" -> "°C"."""
    header = unicodedata.normalize("NFKC", header)  # "每周推荐时间（分钟）": full-width brackets
    m = re.search(r"[(\[]([^)\]]+)[)\]]", header)
    if m:  # a bare 月 after a number is a calendar month ("12月"); as a column's unit it counts months
        inner, rest = m.group(1), f"{header[:m.start()]} {header[m.end():]}".strip()  # "(incl. naps)" is a remark, no unit
        outside = _header_unit(rest) if rest and re.fullmatch(r"[A-Za-z. ]+", inner) and all(
            v.dimension.startswith("count:") for v in read_values(f"1 {inner}")) else ""
        return outside or ("个月" if inner.strip() == "月" else inner)
    # "Cups per day", "Feed g per hen per day": the amount is the unit, the period how often (as in prose and speech)
    amount = _PER_PERIOD.sub("", header).strip()
    if amount and amount != header.strip():  # "Servings a day" or "Swings per day": the count per period (not days)
        kind = next((v.dimension for v in read_values(f"1 {header}")), "")
        return _header_unit(amount) or (header.strip() if kind.startswith("count:") and "/" in kind or kind == "frequency" else "")
    tail = header.split()[-1] if header.split() else ""
    # "Temp °C" names a unit; "Range" or "Value" names no unit (a count of ranges is not one)
    return tail if any(not v.dimension.startswith("count:") for v in read_values(f"1 {tail}")) else ""


_CLOCK = {"h:mm": ("h", "min"), "hh:mm": ("h", "min"), "m:ss": ("min", "s"), "mm:ss": ("min", "s"),
          "min:sec": ("min", "s"), "h:mm:ss": ("h", "min", "s"), "hh:mm:ss": ("h", "min", "s")}


def _clock(cell: str, unit: str) -> str:
    """A duration written as a clock under a header that says so ("1:30" under "Time (h:mm)"): 1 h 30 min."""
    parts, names = cell.strip().split(":"), _CLOCK[unit.strip().lower()]
    if len(parts) != len(names) or not all(x.isdigit() for x in parts):
        return cell
    return " ".join(f"{int(x)} {n}" for x, n in zip(parts, names) if int(x)) or f"0 {names[-1]}"


_BARE = re.compile(r"\s*\d+(?:\.\d+)?(?:\s*[–-]\s*\d+(?:\.\d+)?)?\s*")  # a cell that is only a number or a range


def read_row(row: str, header: str) -> Statement:
    """A table row under its header as (subject, value) pairs: the row's label and the column's
    header are the subject, the header's unit completes a bare number."""
    row_cells, heads = cells(row), cells(header) if header else []
    label = row_cells[0] if row_cells else ""
    readings, columns = [], []
    for k, cell in enumerate(row_cells[1:], 1):
        head = heads[k] if k < len(heads) else ""
        unit = _header_unit(head) or (_header_unit(label) if re.search(r"[(\[（]", label) else "")  # "Nozzle (°C) | 230"
        unit = unit or (label if label.lower() in UNITS else "")  # "| pH | 6.0–7.5 |": the label is the unit
        # a scale written before its number names its rows' unit, whatever the column's ("| pH (no unit) | 7.2–7.6 |")
        unit = next((w for w in WRITTEN_BEFORE if re.match(rf"{w}\b", label, re.I)), "") or unit
        vals = read_values(_clock(cell, unit)) if _CLOCK.get(unit.strip().lower()) else []
        vals = vals or read_values(cell) or (read_values(f"{cell} {unit}") if unit else [])
        bare = re.match(r"\s*(\d[\d.,]*(?:\s*(?:–|-|to)\s*\d[\d.,]*)?)\s+([a-z].*)$", cell, re.I) if unit and not vals else None
        vals = vals or (read_values(f"{bare.group(1)} {unit} {bare.group(2)}") if bare else [])  # "120 max" under "(°F)"
        lead = re.match(r"\s*(\d[\d.,]*)\s*(?:\(|$)", cell) if unit else None
        if lead and not any(v.start == 0 for v in vals):  # "70 (65 W charger)" under "Charging time (min)": 70 min
            vals = read_values(f"{lead.group(1)} {unit}") + vals
        counted = re.match(r"\s*([A-Za-z]{3,}s)\b", head) if not vals and _BARE.fullmatch(cell) else None
        vals = vals or (read_values(f"{cell.strip()} {head.lower()}") if counted else [])  # "2" under "Coats recommended"
        # a bare "°" under "Tilt (°)" is the column's angle; the column's header is what a value is of
        vals = [as_angle(v) if v.unsaid_scale and speaks_of_angle(f"{label} {head}") else v for v in vals]
        columns.append((head, vals))
    # each value is of its row's label and its column's header ("Nozzle (°C)" | "Bed (°C)"); a minimum and maximum
    # column's interval of both headers
    for v, head in [(v, head) for head, vals in columns for v in vals] + spans(columns):
        readings.append(Reading(v, frozenset(_content(f"{label} {head}")), frozenset(_content(head))))
    words = _content(" ".join([label] + heads)) | {stem(DIMENSION_WORDS[r.value.dimension]) for r in readings
                                                  if r.value.dimension in DIMENSION_WORDS}
    first = _header_unit(heads[0]) if heads else ""
    cases = read_values(f"{label} {first}") if first and re.search(r"\d", label) else []
    return Statement(row, tuple(readings), frozenset(words), tuple(codes(row)), tuple(cases))


def statement(text: str, context: str = "") -> Statement:
    """A sentence as a statement; each value's words are those of its clause (split at ``;``, a
    comma before a new subject is kept: "2 hours, 45 minutes is far too short" is one clause)."""
    if context and text.lstrip().startswith("|"):
        return read_row(text, context)
    norm = normalise(text)
    readings = []
    prev = 0
    for v in read_values(norm, normalised=True):
        lo = max(norm.rfind(";", 0, v.start), norm.rfind("；", 0, v.start), norm.rfind("。", 0, v.start))
        hi = min([i for i in (norm.find(";", v.end), norm.find("；", v.end)) if i >= 0] or [len(norm)])
        readings.append(Reading(v, frozenset(_content(norm[lo + 1:hi])), _near(norm, max(lo + 1, prev), v, after_value=prev > lo + 1)))
        prev = v.end
    words = subject_words(text)
    return Statement(text, tuple(bracketed(readings)), frozenset(words), tuple(codes(text)))


def bracketed(readings: list[Reading]) -> list[Reading]:
    """A sentence's one upper and one lower bound of a kind, in one unit, are the interval between
    them, whichever way it is told: "above 20 °C and below 30 °C" keeps inside it, "below 20 °C it
    slows; above 30 °C it stalls" warns of both sides of it (no one recommends two disjoint regions)."""
    for dim in {r.value.dimension for r in readings}:
        same = [r for r in readings if r.value.dimension == dim]
        forms = sorted(r.value.form for r in same)
        if forms != ["lower", "upper"] or same[0].value.unit != same[1].value.unit:
            continue
        first, second = same
        (a, lo), (b, hi) = sorted(((r, r.value.point) for r in same), key=lambda x: x[1])
        if lo >= hi:
            continue
        v = replace(first.value, lo=lo, hi=hi, form="range", stated=(a.value.stated[0], b.value.stated[0]),
                    end=second.value.end)
        joined = Reading(v, first.words | second.words, first.near | second.near)
        readings = [joined if r is first else r for r in readings if r is not second]
    return readings


def _near(norm: str, start: int, v: Value, after_value: bool = False) -> frozenset[str]:
    """The subject of one value among several: the words since the value before it, and an
    "of …" after it ("成人每天食盐不超过6克，每天烹调油25～30克": 食盐 for 6 g, 烹调油 for 25–30 g;
    "between 230 and 250 °C with the bed at 70 to 90 °C": the bed's is the second)."""
    after = re.match(r"\s*(?:of|for)\s+((?:[A-Za-z-]+\s*){1,3})|\s*的\s*([\u4e00-\u9fff]{1,6})", norm[v.end:])  # "7至8小时的睡眠"
    # a clause of its own: after another value, the words before an "and", "or", a comma… belong to that
    # value ("every 2–3 months with hard water and every 4–6 months with soft water": soft water is the second's)
    cut = max([m.end() for m in _JOINS.finditer(norm, start, v.start)], default=start) if after_value else start
    return frozenset(_content(norm[cut:v.start] + " " + ((after.group(1) or after.group(2)) if after else "")
                              + " " + _qualifier(norm[v.end:])))


_JOINS = re.compile(r"\s(?:and|or|but|while|whereas)\s|[,;，；、]")
_QUALIFIER = re.compile(r"\s*(?:\(|\b(?:with|in|on|at|under|during|when|if|using|up)\s+)")  # "66 psi up front"


def _qualifier(after: str) -> str:
    """The words that qualify a value right after it, up to the next clause ("2–3 months with hard
    water and …": hard water), when they state no value of their own ("230 °C with the bed at 70 °C"
    introduces the bed's value, not a qualifier of the first)."""
    m = _QUALIFIER.match(after)
    if not m:
        return ""
    join = _JOINS.search(after, m.end())
    tail = after[m.end():join.start() if join else len(after)].split("(")[0].split(".")[0]
    return "" if re.search(r"\d", tail) or len(tail) > 60 else tail


def heading_of(text: str, values: list[Value] | None = None) -> str:
    """What an anchor measures, as a heading: "Oven temperature", "Rest time", "每天食盐"."""
    values = quantities(text) if values is None else values
    if has_cjk(text):
        norm = normalise(text)
        before = norm[:values[0].start] if values else norm
        before = re.sub(r"(不超过|至少|不少于|约|大约|控制在|为|是|：|:|\s)+$", "", before)
        head = re.sub(r"^[，。,\s]+", "", re.split(r"[，,]", before)[-1])  # NFKC made the full-width comma ',
        return re.sub(r"^(每天|每日|每次|一天|一次)", "", head)[-12:] or text[:12]
    norm = normalise(text)
    found = [(m.group(0), m.start()) for m in re.finditer(r"[A-Za-z][A-Za-z-]+", norm)]
    words = [w for w, _ in found]
    props = [w.lower() for w in words if w.lower() in _PROPERTY and w.lower() not in _NOT_HEADS]
    things = [(w, at) for w, at in found if w.lower() not in STOPWORDS and w.lower() not in _GENERIC
              and w.lower() not in _PROPERTY and w.lower() not in _UNIT_WORDS and w.lower() not in _NUMBER_WORDS
              and len(w) > 2 and w.lower() not in _IMPERATIVE_HEAD]
    dim = DIMENSION_WORDS.get(values[0].dimension, "") if values else ""
    prop = _NOUN.get(props[0], props[0]) if props else {"weight": "amount", "volume": "amount", "percent": "share"}.get(dim, dim)
    if values and values[0].dimension.startswith("count:"):
        return "Number of " + values[0].dimension[6:] + "s"
    if values and values[0].dimension.startswith("money:"):
        prop = "price"
    at = values[0].start if values else 0
    after = re.match(r"\s*(?:of|for)\s+(?:the\s+|each\s+)?([A-Za-z-]+)", norm[values[0].end:]) if values else None
    named = {w.lower() for w, _ in things}
    if after and after.group(1).lower() in named:
        thing = after.group(1)  # "2 grams of grease"
    else:
        before = [(w, p) for w, p in things if p < at]
        thing = (before[-1][0] if before else things[0][0]) if things else ""
        if len(before) >= 2 and re.fullmatch(r"\s+", norm[before[-2][1] + len(before[-2][0]):before[-1][1]]):
            thing = f"{before[-2][0]} {thing}"  # "axle nut"
    process = [w for w in words if w.lower() in _PROCESS]
    if dim == "time" and process:
        thing = process[0]  # "Rest the meat for 10 minutes": the rest time
    head = " ".join(x for x in (thing.lower(), prop) if x) or text[:40]
    return head[0].upper() + head[1:]


_NOT_HEADS = {"recommend", "recommended", "recommends", "min", "max", "minute", "hour", "time", "times", "long",
              "longer", "short", "shorter", "high", "number", "total", "figure", "figures", "value", "measured", "reading"}
_NOUN = {"weigh": "weight", "weighs": "weight", "heavy": "weight", "hot": "temperature", "warm": "temperature",
         "cold": "temperature", "heat": "temperature", "fast": "speed", "slow": "speed", "cost": "price", "costs": "price",
         "costing": "price", "priced": "price", "tight": "torque", "tall": "height", "high": "height", "wide": "width",
         "thick": "thickness", "rated": "rating", "measured": "measurement", "setting": "setting"}
_PROCESS = {"brine", "rest", "bake", "proof", "clamp", "cook", "roast", "cure", "dry", "charge", "boil", "steep", "knead", "simmer",
            "soak", "marinate", "ride", "walk", "exercise", "sleep", "wait", "cool", "rise", "brew", "fry", "grill"}
_IMPERATIVE_HEAD = {"preheat", "bake", "set", "add", "tighten", "inflate", "let", "rest", "pack", "bring", "print", "apply",
                    "clamp", "cook", "heat", "roast", "ride", "charge", "walk", "drink"}
