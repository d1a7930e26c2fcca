"""Comparisons and arithmetic over values read from two videos, done here, not by a 0.5B model.

A Level-3 question ("Which is lighter, the red kayak or the blue kayak?", "How many years passed
between the completion of the Vell bridge and the Ostra tower?") names targets
(``checker.targets``); each target's video states one value. ``operation`` reads what the
question asks of them from a registry of comparative and arithmetic phrasings; ``target_value``
takes from the target's own video the value in the asked dimension on the line that best matches
the target and the question (``vidsleuth.values.read_values`` reads numbers with units through
pint; years are read as the grader reads them, ``answers.value_tokens``); ``compute`` gives the
answer and the calculation the trace shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from ..search.analysis import Analyzer
from .answers import value_tokens
from .extract import durations
from .guards import STOPWORDS, tokens

_ANALYZER = Analyzer()
# comparative -> (pick, dimension it implies or None); "faster"/"better" depend on the dimension
COMPARATIVES: dict[str, tuple[str, str | None]] = {
    "lighter": ("min", "mass"), "heavier": ("max", "mass"), "cheaper": ("min", "money"),
    "less expensive": ("min", "money"), "more expensive": ("max", "money"), "pricier": ("max", "money"),
    "costs more": ("max", "money"), "cost more": ("max", "money"), "costs less": ("min", "money"),
    "cost less": ("min", "money"), "warmer": ("max", "temperature"), "hotter": ("max", "temperature"),
    "colder": ("min", "temperature"), "cooler": ("min", "temperature"), "longer": ("max", None),
    "shorter": ("min", None), "taller": ("max", "length"), "higher": ("max", None), "lower": ("min", None),
    "bigger": ("max", None), "larger": ("max", None), "smaller": ("min", None), "more": ("max", None),
    "fewer": ("min", None), "less": ("min", None), "earlier": ("min", "year"), "older": ("min", "year"),
    "later": ("max", "year"), "newer": ("max", "year"), "more recent": ("max", "year"), "first": ("min", "year"),
    "farther": ("max", "length"), "further": ("max", "length"), "closer": ("min", "length"),
    "faster": ("min:time|max", None), "quicker": ("min:time|max", None), "slower": ("max:time|min", None),
    "better": ("min:time|max", None), "most": ("max", None), "least": ("min", None),
}
# the superlatives ("the lightest of the two", "the most expensive"): the same pick and dimension
COMPARATIVES |= {("best" if w == "better" else re.sub(r"^(?:more|less) ", lambda m: "most " if m[0] == "more " else "least ",
                                                      w) if " " in w else w[:-2] + "est"): v
                 for w, v in list(COMPARATIVES.items())
                 if (w.endswith("er") and " " not in w) or re.match(r"(?:more|less) \w+$", w)}
ARITHMETIC = (  # (pattern, kind, dimension it implies)
    (r"\bhow\s+many\s+years\b.*\b(?:between|after|before|apart|separate|passed|elapsed|predates?|postdates?|"
     r"precedes?|older|younger|earlier|later)\b", "difference", "year"),
    (r"\b(?:years?\s+apart|apart\s+in\s+years)\b", "difference", "year"),
    (r"\b(?:difference|gap)\b", "difference", None),
    (r"\bhow\s+(?:much|many)\s+(?:\w+\s+){0,2}?(?:more|less|fewer|longer|shorter|heavier|lighter|warmer|colder|"
     r"higher|lower|older|later|earlier|cheaper|faster|slower)\b", "difference", None),
    (r"\b(?:in\s+total|combined|together|altogether|sum\s+of|add\s+up)\b", "sum", None),
)
_DIMENSION_OF = {"mass": "mass", "money": "money", "temperature": "temperature", "length": "length", "time": "time",
                 "year": "year"}

# the grader's unit tokens (``answers.UNITS``) -> (dimension, as shown); scale to the base unit
_TOKEN_UNITS = {"c": ("temperature", "°C"), "eur": ("money", "EUR"), "usd": ("money", "USD"), "kg": ("mass", "kg"),
                "g": ("mass", "g"), "km": ("length", "km"), "m": ("length", "m"), "min": ("time", "min"),
                "h": ("time", "h"), "s": ("time", "s"), "%": ("ratio", "%")}
_TOKEN_SCALE = {"g": 0.001, "km": 1000.0, "min": 60.0, "h": 3600.0}


@dataclass(frozen=True)
class Operation:
    kind: str  # compare | difference | sum
    pick: str = ""  # compare: min | max (or "min:time|max": min for times, else max)
    dimension: str | None = None
    phrase: str = ""
    asked: str = ""  # the unit the question asks the result in ("how many minutes longer" -> "minutes")


@dataclass(frozen=True)
class Quantity:
    number: Decimal
    unit: str  # as shown in the answer ("kg", "EUR", "years" for years)
    dimension: str
    base: float  # in the dimension's comparison unit
    line: str
    compound: bool = False  # a duration stated in two units ("2h40 min")


# "how many minutes longer", "… in hours?", "(in grams)", "expressed in metres": the result's unit
_ASKED = (r"\bhow\s+many\s+(?:more\s+|fewer\s+|less\s+|extra\s+)?([a-z]+)",
          r"\b(?:expressed|given|answer|answered)\s+in\s+([a-z]+)", r"\bin\s+([a-z]+)\s*(?:\?|\)|,|$)")


def asked_unit(question: str) -> str:
    """The unit word the question asks the result in (``_ASKED``), when it names a unit of a
    measured dimension (time, length, mass …; not years, counts or currencies); '' otherwise."""
    low = question.lower()
    for pat in _ASKED:
        for m in re.finditer(pat, low):
            word = m.group(1)
            if word not in STOPWORDS and _unit_of(word) is not None:
                return word
    return ""


_MEASURED = frozenset({"time", "length", "mass", "volume", "speed", "energy", "power"})  # converted by base units


def _unit_of(word: str) -> Quantity | None:
    if word in ("year", "years"):  # "how many years between …" are calendar years (``_years``)
        return None
    found = [q for q in quantities(f"1 {word}") if q.dimension in _MEASURED and q.base]
    return found[0] if found else None


def operation(question: str) -> Operation | None:
    """What the question asks of its targets, or None (then no calculation is made)."""
    low = question.lower()
    for pat, kind, dim in ARITHMETIC:
        m = re.search(pat, low)
        if m:
            comp = next((w for w in sorted(COMPARATIVES, key=len, reverse=True) if re.search(rf"\b{w}\b", low)), "")
            return Operation(kind, dimension=dim or (COMPARATIVES[comp][1] if comp else None), phrase=m.group(0),
                             asked=asked_unit(question))
    for word in sorted(COMPARATIVES, key=len, reverse=True):
        if re.search(rf"\b{re.escape(word)}\b", low):
            pick, dim = COMPARATIVES[word]
            return Operation("compare", pick, dim, word)
    return None


def _years(line: str) -> list[Quantity]:
    out = []
    for t in value_tokens(line):
        if re.fullmatch(r"1[0-9]{3}|20[0-9]{2}", t):
            out.append(Quantity(Decimal(t), "years", "year", float(t), line))
    return out


def quantities(line: str) -> list[Quantity]:
    """Every value a line states: compound durations ("2h40 min", one value), numbers with units
    (pint, through ``vidsleuth.values``), years."""
    from ..values import normalise, read_values, show_unit

    t = normalise(line)
    spans = durations(t)
    out = [Quantity(Decimal(f"{secs / 60:g}"), "min", "time", secs, line, compound=True) for _a, _b, secs in spans]
    for v in read_values(t, normalised=True):
        if v.form != "point" or len(v.stated) != 1 or any(a <= v.start < b for a, b, _s in spans):
            continue
        dim = "money" if v.dimension.startswith("money:") else v.dimension
        stated = re.search(r"\d+(?:\.\d+)?", t[v.start:v.end] if v.end else "")
        number = Decimal(stated.group()) if stated and float(stated.group()) == v.stated[0] else Decimal(f"{v.stated[0]:g}")
        unit = v.unit.upper() if dim == "money" else show_unit(v.unit)
        out.append(Quantity(number, unit, dim, float(v.lo), line))
    if not out:  # what pint's reader leaves ("FRIDAY HIGH 18 C"): a number and the grader's unit after it
        toks = value_tokens(line)
        for i, tok in enumerate(toks[:-1]):
            if re.fullmatch(r"\d+(?:\.\d+)?", tok) and toks[i + 1] in _TOKEN_UNITS:
                dim, shown = _TOKEN_UNITS[toks[i + 1]]
                out.append(Quantity(Decimal(tok), shown, dim, float(tok) * _TOKEN_SCALE.get(toks[i + 1], 1.0), line))
    return out + _years(line)


def counted(question: str) -> str | None:
    """The dimension the question's "how many <noun>" asks for: a unit's ("how many minutes" ->
    ``time``, read through ``quantities``), else a count of the things ("how many steps" ->
    ``count:step``); None without one. Years are not counted things (``ARITHMETIC`` reads them)."""
    m = re.search(r"\bhow\s+many\s+(?:more\s+|fewer\s+|less\s+|extra\s+)?([a-z]+)", question.lower())
    if not m or m.group(1) in {"years", "year"} or m.group(1) in STOPWORDS:
        return None
    unit = [q.dimension for q in quantities(f"2 {m.group(1)}") if q.dimension in _DIMENSION_OF]
    if unit:
        return unit[0]
    stem = _ANALYZER.tokens(m.group(1))
    return f"count:{stem[0]}" if stem else None


def _wanted(op: Operation, q: Quantity) -> bool:
    if op.dimension and op.dimension.startswith("count:"):  # "187 steps" may be read as a unit of its own
        return q.dimension == op.dimension or _ANALYZER.tokens(q.unit)[:1] == [op.dimension[6:]]
    if op.dimension is None:
        return not q.dimension.startswith("count:") and q.dimension != "year"
    return q.dimension == _DIMENSION_OF.get(op.dimension, op.dimension)


def target_value(op: Operation, target, question: str, lines: list[str]) -> Quantity | None:
    """The value of ``target`` in its video's lines: among the quantities of the asked dimension,
    the one on the line sharing most of the target's and the question's words."""
    want = set(target.words) | set(_ANALYZER.tokens(" ".join(w for w in tokens(question) if w not in STOPWORDS)))
    best: tuple | None = None
    for rank, line in enumerate(lines):
        qs = [q if q.dimension == op.dimension or not (op.dimension or "").startswith("count:") else
              replace(q, dimension=op.dimension) for q in quantities(line) if _wanted(op, q)]
        if not qs:
            continue
        have = set(_ANALYZER.tokens(line))
        key = (sum(w in have for w in target.words), len(want & have), -rank)
        if best is None or key > best[0]:
            best = (key, qs[0])
    return best[1] if best else None


def price_value(target, question: str, found: list) -> Quantity | None:
    """A money target's price among ``extract.prices`` of its video (bare prices included, which
    pint's reader leaves), on the line sharing most of the target's and the question's words."""
    from .extract import money

    want = set(target.words) | set(_ANALYZER.tokens(" ".join(w for w in tokens(question) if w not in STOPWORDS)))
    best: tuple | None = None
    for rank, f in enumerate(found):
        have = set(_ANALYZER.tokens(f.line.text))
        key = (sum(w in have for w in target.words), len(want & have), bool(f.currency), -rank)
        if best is None or key > best[0]:
            number, code = money(f)
            best = (key, Quantity(number, code, "money", float(number), f.line.text))
    return best[1] if best else None


def same_currency(values: dict[str, Quantity]) -> dict[str, Quantity]:
    """Prices stated without a currency take the one currency the other targets' prices state."""
    codes = {q.unit for q in values.values() if q.dimension == "money" and q.unit}
    if len(codes) != 1:
        return values
    return {k: replace(q, unit=next(iter(codes))) if q.dimension == "money" and not q.unit else q
            for k, q in values.items()}


def _fmt(n: Decimal) -> str:
    return format(n.normalize(), "f") if n == n.to_integral() else format(n, "f")


def compute(op: Operation, values: dict[str, Quantity]) -> tuple[str, str] | None:
    """(answer, calculation shown in the trace), or None when the values cannot be combined."""
    if len(values) < 2:
        return None
    qs = list(values.values())
    if len({q.dimension for q in qs}) != 1:
        return None
    if op.kind == "compare":
        pick = op.pick
        if "|" in pick:
            pick = pick.split(":")[0] if qs[0].dimension == pick.split(":")[1].split("|")[0] else pick.split("|")[1]
        chosen = (min if pick == "min" else max)(values, key=lambda k: values[k].base)
        shown = ", ".join(f"{k}: {_fmt(q.number)} {q.unit}" for k, q in values.items())
        return chosen, f"{pick}({shown}) = {chosen}"
    a = qs[0]
    asked = _unit_of(op.asked) if op.asked else None
    # "how many minutes longer" of "5 h 15 min" and "3.5 h": in minutes (values already in it stay as they are)
    if asked is not None and asked.dimension == a.dimension and any(q.unit != asked.unit or q.compound for q in qs):
        total = sum(q.base for q in qs) if op.kind == "sum" else abs(qs[0].base - qs[1].base)
        n = Decimal(f"{total / asked.base:.6g}")
        sign = " + " if op.kind == "sum" else " - "
        return f"{_fmt(n)} {op.asked}", sign.join(f"{_fmt(q.number)} {q.unit}" for q in qs) + f" = {_fmt(n)} {op.asked}"
    # "2h40 min" - "1h 55 min", "2 h" - "55 min": a time in hours and minutes
    if a.dimension == "time" and (any(q.compound for q in qs) or len({q.unit for q in qs}) > 1):
        total = sum(q.base for q in qs) if op.kind == "sum" else abs(qs[0].base - qs[1].base)
        sign = " + " if op.kind == "sum" else " - "
        return _clock(total), sign.join(_clock(q.base) for q in qs) + f" = {_clock(total)}"
    # in a's unit: the same unit keeps the stated decimals; another unit of the dimension converts
    nums = [q.number if q.unit == a.unit else Decimal(f"{q.base * float(a.number) / a.base:.6g}") if a.base else None
            for q in qs]
    if any(n is None for n in nums):
        return None
    if op.kind == "sum":
        total = sum(nums[1:], nums[0])
        return f"{_fmt(total)} {a.unit}".strip(), " + ".join(f"{_fmt(q.number)} {q.unit}" for q in qs) + f" = {_fmt(total)} {a.unit}"
    diff = abs(nums[0] - nums[1])
    shown = " - ".join(f"{_fmt(q.number)} {q.unit}" for q in qs[:2])
    return f"{_fmt(diff)} {a.unit}".strip(), f"|{shown}| = {_fmt(diff)} {a.unit}"


def item_name(phrase: str, question: str) -> str:
    """The winning target as a name, not a clause: what follows it ("… in Velo Notes' review",
    "… in summer") is cut, and a last word the question's "which <noun>" says ("which tent": the
    Pika 2 tent -> Pika 2) is dropped."""
    name = re.split(r"\s+(?:in|at|on|from|during|by|according|as|reviewed|tested|weighed|filmed|shown)\s+",
                    phrase.strip(), maxsplit=1)[0]
    head = re.search(r"\bwhich\s+([a-z-]+)", question, re.I)
    words = name.split()
    if head and len(words) > 1 and words[-1].lower().rstrip("s") == head.group(1).lower().rstrip("s"):
        words = words[:-1]
    return " ".join(words)


def _clock(seconds: float) -> str:
    """A time as a reader writes it: "45 min", "1 h 30 min", "2 h", "1 h 8 min 42 s"."""
    h, rest = divmod(round(seconds), 3600)
    m, s = divmod(rest, 60)
    return " ".join([f"{h} h"] * bool(h) + [f"{m} min"] * bool(m) + [f"{s} s"] * bool(s)) or "0 min"
