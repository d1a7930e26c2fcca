"""Reading the values a text states (see the package docstring): numbers with their units,
ranges, bounds, approximations, prices and compounds, each as a ``Value``."""

from __future__ import annotations

import re

from .compounds import compounds, coverage
from .elided import elided as _elided
from .frequency import read_frequencies
from .pace import read_paces
from .quantity import (
    CURRENCIES,
    PERIODS,
    PREFIX_UNITS,
    UNITS,
    WRITTEN_BEFORE,
    Value,
    _kind_of,
    convert,
    has_cjk,
    interval_of,
    normalise,
    scaled,
)
from .ratios import read_ratios

_NUM = r"(?<![A-Za-z0-9_.:/#-])(?:-(?=\d))?\d+(?:\.\d+)?(?![\d:])"
_NUM_B = r"\d+(?:\.\d+)?(?![\d:])"
# "in" after a number is an inch only where a measure's end follows: the clause or cell ends, or a word that qualifies a
# length ("36 in min.", "30 in wide", "16 in on center", "| 5 in |"), or its metric equivalent ("0.030 in (0.8 mm)")
_INCH_END = (r"(?=\s*(?:$|[.,;:)|/×\]]|x\s?\d|\(\s?\d|(?:min|max|minimum|maximum|wide|long|high|tall|deep|thick|"
               r"apart|diameter|o\.?c|on cent(?:er|re)|of (?:rise|run|fall|drop|clearance))\b))")
_UNIT_RE = "|".join("in" + _INCH_END if s == "in" else re.escape(s) for s in sorted(UNITS, key=len, reverse=True))
_AFTER = r"(?![a-z0-9])"
# speeds, flows, concentrations, per-weight and per-area rates ("35 g/m²" of seed)
_DENOMINATORS = ("second", "minute", "hour", "l", "ml", "dl", "g", "kg", "lb", "oz", "m**2", "m**3", "cm**2", "foot**2", "gallon", "km", "mile")
_PER = "|".join(re.escape(s) for s in sorted((k for k, u in UNITS.items() if u in _DENOMINATORS), key=len, reverse=True))
# a denominator said with its amount ("per 1,000 sq ft") is no period: "per 24 hours" is the span a duration is given over
_PER_AMOUNT = "|".join(re.escape(s) for s in sorted((k for k, u in UNITS.items() if u in _DENOMINATORS and u not in PERIODS), key=len, reverse=True))
_BY = r"(?:\s?/\s?|\s+(?:per|(?:for\s+)?(?:every|each))\s+|\s?每\s?)"  # "100 watts of heat for every square metre"
_CONNECT = rf"(?:{_BY}|\s+an?\s+)"  # …or "a": "30 km an hour" (see _BY_A for where "a" joins a rate)
# a rate or a concentration: "mm/s", "litres per minute", "60 g salt / 1 L", "125 grams of coarsely ground coffee per litre"
_OF = r"(?:\s+(?:of(?:\s+[a-z]+){1,3}|[a-z]+(?:\s+[a-z]+)?))?"
# "a"/"an" joins a rate only after the measure or an "of" phrase, and not before a noun: "2 litres of water a
# minute", yet "wait four hours before applying a second coat" holds no hours per second
_BY_A = r"(?:\s+of\s+[a-z]+(?:\s+[a-z]+)?)?\s+an?\s+"
_ONE_UNIT = (rf"(?:{_UNIT_RE}){_AFTER}(?:{_OF}{_BY}(?:(?:1\s?)?(?:{_PER})|\d+(?:\.\d+)?\s?(?:{_PER_AMOUNT})){_AFTER}"
             rf"|{_BY_A}(?:{_PER}){_AFTER}(?![ \t]+[a-z]))?")
_VALUE = re.compile(
    rf"(?P<pre>(?:us\$|[$€£¥￥¤])\s?)?(?P<a>{_NUM})(?:\s?(?:±|\+/-|plus or minus)\s?(?P<tol>{_NUM_B}))?"
    rf"(?:\s?(?P<ua>{_ONE_UNIT}))?"
    rf"(?:\s?(?P<sep>-|–|—|~|～|to|and|or|至|到)\s?(?:us\$|[$€£¥￥¤])?(?P<b>{_NUM_B})"
    rf"(?:\s?(?P<ub>{_ONE_UNIT}))?)?", re.I)  # a second unit only after a range's end ("36 in min." is no minute)
_PER_SPLIT_WHOLE = re.compile(rf"^(?P<u>.+?){_CONNECT}(?:(?:1\s?)?(?P<per>{_PER})|(?P<n>\d+(?:\.\d+)?)\s?(?P<amount>{_PER_AMOUNT}))$", re.I)
_PER_SPLIT = re.compile(rf"^(?P<u>.+?){_OF}{_CONNECT}(?:(?:1\s?)?(?P<per>{_PER})|(?P<n>\d+(?:\.\d+)?)\s?(?P<amount>{_PER_AMOUNT}))$", re.I)
_COUNT = re.compile(r"\s?([a-z]{3,})\b", re.I)
_PAID = re.compile(r"\b(?:costs?|costing|paid|pay|pays|price[ds]?|sells?|sold|spent|spend|bought|buy|retails?|rrp|saves?|saved|saving|"
                   r"savings|earns?|earned|bills?|budget|afford|fees?|refund)\b(?![^,]*\b(?:weigh\w*|heavy|mass)\b)", re.I)
_MODEL_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][A-Za-z]+\s$")  # a capitalised word inside a sentence
_COUNT_ADJ = re.compile(r"\s([a-z]{3,}(?:-[a-z]{3,})?)\s([a-z]{3,})\b", re.I)  # "500 full-charge cycles"
# a word that numbers the items of a sequence, just before the number
_ORDINAL = re.compile(r"\b(?:step|rule|tip|part|chapter|section|stage|phase|round|lesson|episode|level|item|no\.?|number|"
                      r"zone|size|type|class|grade|category|group|generation|gen|series|version|mark|mk|"
                      r"#)\s*$", re.I)
_NOT = r"(?<!\bno )(?<!\bnot )(?<!不)"  # "no more than" is an upper bound, "不超过" too
_HEDGE = r"(?:\s+(?:about|around|roughly|approximately|some))?"  # "under about 10 percent" is still a bound
_LOWER = re.compile(r"(?:at least|no less than|not less than|(?:a )?minimum of|min\.|>=|≥|>|"
                    rf"{_NOT}(?:\b(?:more than|over|above|greater than|exceeding|exceeds?)|超过|大于|高于|多于)|"
                    rf"不少于|不低于|至少|最少|{_NOT}(?:warmer|hotter|higher|longer|greater|heavier|larger|bigger|later) than|"
                    rf"(?:no|not) (?:colder|cooler|lower|shorter|lighter|smaller|earlier|sooner) than){_HEDGE}\s*$", re.I)
_UPPER = re.compile(r"(?:at most|(?<!\bit )(?<!\bthem )(?<!\btop )(?<!\bfill )(?<!\bback )up to|no more than|not more than|(?:a )?maximum of|max\.|<=|≤|<|"
                    rf"{_NOT}(?:\b(?:less than|under|below)|少于|低于|小于)|"
                    rf"not exceed(?:ing)?|within|不超过|不多于|不高于|最多|控制在|"
                    rf"{_NOT}(?:colder|cooler|lower|shorter|lighter|smaller|earlier|sooner) than|"
                    rf"(?:no|not) (?:warmer|hotter|higher|longer|greater|heavier|larger|bigger|later) than){_HEDGE}\s*$", re.I)
_APPROXIMATE = re.compile(r"(?:about|around|roughly|approximately|approx\.|circa|ca\.|nearly|almost|some|~|≈|约|大约|大概|"
                          r"差不多)\s*$", re.I)
# a Chinese comparative under a negation of advice: "不宜低于10℃" (should not fall below) is at least 10 °C,
# "不要超过" at most
_ZH_NEG = r"(?:不宜|不要|不能|不应该?|不得|不可|切勿|勿|别|避免|防止)"
_ZH_NOT_BELOW = re.compile(rf"{_ZH_NEG}\s*(?:低于|少于|小于|短于|不足)\s*$")
_ZH_NOT_ABOVE = re.compile(rf"{_ZH_NEG}\s*(?:超过|高于|大于|多于|长于|超出)\s*$")
# a label that names a minimum before its subject: "Min. night temp 10 °C", "最低夜温10℃" (a "Max runtime 40 min"
# on a spec sheet stays the rated figure it is)
_LABEL_LOWER = re.compile(r"(?:^|[.;:!?(|]\s*)(?:min\.?|minimum)\s+(?:[a-z-]+\.?:?\s+){0,3}(?:of\s+|is\s+)?:?\s*$|最低(?:(?![可在能要会])[\u4e00-\u9fff]){0,4}\s*$", re.I)
_BETWEEN = re.compile(r"(?:between|from|在)\s*$", re.I)
_POST_LOWER = re.compile(r"^\s*(?:\+|or (?:more|longer|above|higher|over|warmer|hotter|greater|later)|(?:(?:is|are|was) (?:the|a) )?(?:bare )?minimum\b|min\b|"
                         r"以上|或以上|起)", re.I)
_POST_UPPER = re.compile(r"^\s*(?:or (?:less|fewer|under|below|shorter|lower|colder|cooler|earlier|sooner)|(?:(?:is|are|was) (?:the|a) )?(?:maximum|limit)\b|"
                         r"max\b|(?:(?:per|a|each|on each)\s+\w+)?,?\s*no (?:longer|more)\s*(?:$|[.;!])|以下|以内|或以下)", re.I)
_COMPARATIVES = ("more|less|fewer|warmer|hotter|colder|cooler|higher|lower|longer|shorter|greater|heavier|lighter|"
                 "larger|smaller|bigger|later|earlier|sooner")
# a comparative under a negation is the opposite bound: "never go above 92 °C", "don't increase it by more than 10 %"
_NEGATED = re.compile(r"\b(?:never|not|don'?t|do not|doesn'?t|does not|shouldn'?t|should not|mustn'?t|must not|no)\b"
                      r"[^.,;:!?]*?\b(?:over|above|exceed\w*|under|below|(?:{0}) than)\s*$".format(_COMPARATIVES), re.I)
# a limit said as a place not to pass: "don't go past four hours", "never leave it beyond 4 hours" (at most)
_NOT_PAST = re.compile(r"\b(?:never|not|don'?t|do not|shouldn'?t|should not|mustn'?t|must not)\b[^.,;:!?]*?\b(?:past|beyond)\s*$",
                       re.I)
_SAID_BOUND = re.compile(r"\b(?:no|not)\s+(?:{0})\s+than\s*$|".format(_COMPARATIVES) + r"\bnot\s+(?:exceed\w*|over|above|under|below)\s*$", re.I)
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;:!?)\]]|(?:and|or|then|before|after|each|per|on|in|at|for|with|to)\b)", re.I)
_ZH_COUNT = "次遍泡杯份片粒颗只条张"  # Chinese measure words: 3 次 is three times, not a unit
_POST_APPROX = re.compile(r"^\s*(?:or so\b|左右|上下)", re.I)
_TOLERANCE = re.compile(r"^\s*(?:±|\+/-|plus or minus)\s?(\d+(?:\.\d+)?)", re.I)
_NOT_COUNTED = set("""the a an and or of to in on at for by with from as is are was were be been it its this that these
those than then per each every more less most least about times time am pm bc ad percent minutes hours seconds days weeks
minus plus negative max min maximum minimum
years months degrees""".split()) | {m for m in ("january february march april may june july august september october "
                                              "november december jan feb mar apr jun jul aug sep sept oct nov dec").split()}


def _singular(word: str) -> str:
    w = word.lower()
    for end, repl in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if w.endswith(end) and len(w) > len(end) + 2:
            return w[: -len(end)] + repl
    return w


def _form(before: str, after: str, two: bool) -> tuple[str, float | None]:
    before = re.sub(rf"\s*\b(?:{'|'.join(WRITTEN_BEFORE)})\s*$", "", before, flags=re.I)  # "at least SPF 30": the bound is before the unit
    tol = _TOLERANCE.match(after)
    if tol:
        return "approx", float(tol.group(1))
    if two:
        return "range", None
    for pattern, form in ((_ZH_NOT_BELOW, "lower"), (_ZH_NOT_ABOVE, "upper"), (_NOT_PAST, "upper")):
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
    return ("lower" if _LABEL_LOWER.search(before) else "point"), None


def _expr(spelled: str) -> str:
    """The pint expression of a unit as spelled ("mm/s" -> "(mm)/(second)")."""
    spelled = spelled.lower()
    if spelled in UNITS:
        return UNITS[spelled]
    for split in (_PER_SPLIT_WHOLE, _PER_SPLIT):  # "square metres per litre" before "grams of salt per litre"
        m = split.match(spelled)
        if m and m.group("u") in UNITS:
            return f"({UNITS[m.group('u')]})/({scaled(float(m.group('n') or 1), UNITS[m.group('per') or m.group('amount')])})"
    return ""


def _dimension_of(spelled: str) -> str:
    """The dimension of a unit as spelled ('' when pint cannot read it)."""
    try:
        return _kind_of(_expr(spelled))[0]
    except Exception:  # noqa: BLE001 - an unreadable expression has no dimension
        return ""


def _unit_of(m: re.Match, text: str) -> str:
    if text[max(0, m.start() - 1):m.start()] == "第":
        return ""  # "第2步", "第3天": an ordinal names an item of a sequence, not an amount
    for group in ("ub", "ua") if m.group("b") else ("ua",):  # "250 ml cup": the unit is the first one
        if m.group(group):
            return _expr(m.group(group))
    if m.group("pre"):
        return PREFIX_UNITS[m.group("pre").strip().lower()]
    if _ORDINAL.search(text[max(0, m.start() - 12):m.start()]):
        return ""  # "Step 3 rinse", "Rule 2", "No. 4", "第2步": the number names an item of a sequence, it counts nothing
    word = _COUNT.match(text, m.end())  # a number between capitalised words is a name's ("DJI Mini 4 Pro")
    if word and _MODEL_NAME.search(text[max(0, m.start() - 24):m.start()]) and word.group(1)[0].isupper() \
            and _singular(word.group(1)) == word.group(1).lower() and float(m.group("a")) != 1 and text != text.upper():
        return ""
    # a count names a plural noun ("4 coats") or a measure ending its clause ("finish at 180 grit."): in
    # "the Vault 13 home battery" the number is a name's, and "8,900 installed" counts no participle
    if word and word.group(1).lower() not in _NOT_COUNTED and not re.fullmatch(r"[a-z]{3,}ed", word.group(1).lower()) and (
            float(m.group("a")) == 1 or _singular(word.group(1)) != word.group(1).lower()
            or _CLAUSE_END.match(text, word.end())):
        return "count:" + _singular(word.group(1)) + _per_time(text, word.end())
    # … or a plural noun after one adjective, ending its clause ("500 full cycles.", "3 thin coats,")
    pair = _COUNT_ADJ.match(text, m.end())
    period = _PERIODIC.get(pair.group(1).lower(), "") if pair else ""  # "100 daily swings feel easy": per day
    if pair and not {w.lower() for w in pair.groups()} & _NOT_COUNTED and _singular(pair.group(2)) != pair.group(2).lower() \
            and _singular(pair.group(1)) == pair.group(1).lower() and pair.group(1).lower() not in UNITS \
            and (period or _CLAUSE_END.match(text, pair.end())):
        return "count:" + _singular(pair.group(2)) + (period or _per_time(text, pair.end()))
    zh = re.match(rf"\s?([{_ZH_COUNT}])", text[m.end():]) if text[m.start() - 1:m.start()] != "第" else None  # 第1泡: an ordinal
    # "每两周修剪一次": once in each period is the period's frequency (said by 每), not a count of its own
    if zh and not (float(m.group("a")) == 1 and zh.group(1) in "次遍" and "每" in re.split(r"[,，;；。]", text[:m.start()])[-1]):
        per = _per_time(text, m.end() + len(zh.group(0)))
        return ("1" if per and zh.group(1) in "次遍" else "count:" + zh.group(1)) + per  # "190次/分": a frequency
    return ""


_PER_TIME = re.compile(r"\s*(?:(?:in|per|every|each)\s+24[\s-]?(?:hours?|hrs?|h)\b(?P<d>)|/\s*|(?:per|an?|1|each|every(?:\s1)?)\s+|每)(?(d)|(?P<t>second|minute|hour|day|week|month|year|sec|min|hr|h|分钟|分|秒钟|秒|小时|天|日|周|月|年)s?(?![a-z]))"
                       r"(?!\s+(?:apart|later|ago|before|after|earlier|old|from)\b)", re.I)  # a count per period ("4 feeds a day", "190次/分"), not a spacing ("a week apart")
_PER_MONTH = {"月": "month"}  # 每月, "/月": a period only after 每 or a slash, so no unit spelling of its own (UNITS names the rest)
_PERIODIC = {"hourly": "/hour", "daily": "/day", "nightly": "/day", "weekly": "/week", "monthly": "/month", "yearly": "/year",
             "annual": "/year"}


def _per_time(text: str, at: int) -> str:
    """The period a count is said per ("/minute" after "22 strokes" in "22 strokes per minute"; "in 24 hours" a day's), or ''."""
    m = _PER_TIME.match(text, at)
    return "" if not m else "/day" if m.group("d") is not None else "/" + (_PER_MONTH.get(m.group("t")) or UNITS[m.group("t").lower()])


def _plausible(m: re.Match, unit: str, text: str) -> bool:
    """Single-letter units only right after the number ("180 g", not "Step 3 g…"), a bare "°" only as a temperature."""
    group = "ub" if m.group("ub") else "ua"
    raw, spelled = m.group(group) or "", (m.group(group) or "").lower()
    at = text[m.end("b" if group == "ub" else "a"):m.end(group)] if raw else ""  # from its number to the unit
    if len(spelled) == 1 and spelled.isascii() and spelled.isalpha() and spelled not in ("g", "h", "s", "m", "l", "w", "v") \
            and not re.fullmatch(r"\s?[AN]", at):  # a capital A or N at its number: "32 A", "10–16 A", "50 N"
        return False
    if raw in ("G", "M", "S", "H") or raw in ("M2", "M3") and text != text.upper():
        # unit symbols are case-sensitive: "800G", "5M", "12S", "four M3 bolts" are names (a caption all in capitals is not)
        return False
    if raw == "s" and re.fullmatch(r"(?:1[6-9]|20)\d0", m.group("a")) and re.search(r"\d0s$", m.group(0)):
        return False  # "the 2000s", "1990s": a decade, not seconds
    if unit == "minute" and re.match(r"\s*read\b", text[m.end():m.end() + 8], re.I):
        return False  # "6 min read": a page's reading time, not a figure of its subject
    if unit in PERIODS and re.search(r"(?:\bper|/)\s*$", text[max(0, m.start() - 8):m.start()], re.I):
        return False  # "sleep per 24 hours": the period a rate is given over, not a duration of its own
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
        if unit == "lb" and (m.group("ua") or m.group("ub") or "").lower().startswith("pound") and _PAID.search(
                re.split(r"[.;!?]", t[max(0, m.start() - 60):m.start()])[-1]):
            unit = "gbp"  # "it costs 12 pounds": money, not weight
        if not _plausible(m, unit, t):
            if m.group("sep"):
                pos = m.start("sep")
            continue
        if unit.startswith("count:") and "/" in unit:  # "22 strokes per minute": the period is part of the value
            counted = _COUNT.match(t, m.end())
            per = next((p for w in (_COUNT_ADJ.match(t, m.end()), counted) if w and (p := _PER_TIME.match(t, w.end()))), None)
            pos = per.end() if per else pos
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
        if two and nums[1] < nums[0] and not re.search(r"\bfrom\s*$|从\s*$", before, re.I):
            continue  # "at 6 to 5% hydration": a range runs upwards; downwards without "from" is a misheard number
        after = t[end:end + 32]
        form, tol = _form(before, after, two)
        if m.group("tol"):
            form, tol = "approx", float(m.group("tol"))
        try:
            lo, hi = interval_of(form, nums, unit, tol)
            dim = unit if unit.startswith("count:") or unit == "price" else _kind_of(unit)[0]
        except Exception:  # noqa: BLE001 - an expression pint cannot read is no value
            continue
        if unit == "price":
            out += [Value(lo, hi, f"money:{c}", c, form, tuple(nums), m.start(), end) for c in CURRENCIES]
            continue
        spelled = (m.group("ub") or m.group("ua") or "").strip().lower()
        bare = unit == "degC" and spelled in _BARE_SCALE
        if (bare or unit == "degC" and spelled == "度") and _angle_clause(t, m.start(), end):
            unit, dim, bare = "angle_degree", "angle", False
        out.append(Value(lo, hi, dim, unit, form, tuple(nums), m.start(), end, unsaid_scale=bare))
    return _with_paces(_with_frequencies(_with_ratios(_elided(_converted(coverage(compounds(out, t), t), t), t), t), t), t)


def _with_paces(values: list[Value], text: str) -> list[Value]:
    """The paces the text states ("6:30/km", "每公里6分30秒") in place of what their parts read as alone."""
    paces = read_paces(text)
    kept = [v for v in values if not any(p.start <= v.start < p.end or v.start <= p.start < v.end for p in paces)]
    return sorted(kept + paces, key=lambda v: v.start) if paces else values


def _with_frequencies(values: list[Value], text: str) -> list[Value]:
    """The frequencies the text states ("twice a year", "每周3次") in place of what their parts read as."""
    freq = read_frequencies(text, lambda before, after: _form(before, after, False))
    kept = [v for v in values if not any(f.start <= v.start < f.end or v.start <= f.start < v.end for f in freq)]
    return sorted(kept + freq, key=lambda v: v.start) if freq else values


def _with_ratios(values: list[Value], text: str) -> list[Value]:
    """The ratios the text states in place of what their numbers read as alone ("1 part" is no count)."""
    ratios = read_ratios(text)
    if not ratios:
        return values
    kept = [v for v in values if not any(r.start <= v.start < r.end or v.start <= r.start < v.end for r in ratios)]
    return sorted(kept + ratios, key=lambda v: v.start)


def _converted(values: list[Value], text: str) -> list[Value]:
    """A point in brackets right after a bound or approximation of its kind is that statement in another
    unit: "at or below 40 °F (4 °C)" is a bound in both units, "about 350 °F (175 °C)" an approximation."""
    out = list(values)
    for k in range(1, len(out)):
        a, b = out[k - 1], out[k]
        # "at least 1 m (about 3 ft)": a rounded conversion in brackets keeps the bound it restates
        if (a.dimension == b.dimension and a.form in ("lower", "upper", "approx") and (
                b.form == "point" or b.form == "approx" and a.form != "approx") and len(b.stated) == 1
                and re.fullmatch(r"\s*[(（\[]\s*(?:about|around|approx\.?|≈|~|约)?\s*", text[a.end:b.start])
                and not a.dimension.startswith(("count:", "money:"))):
            try:
                lo, hi = interval_of(a.form, [b.stated[0]], b.unit, None)
            except Exception:  # noqa: BLE001 - not convertible: left as read
                continue
            if abs((lo if a.form == "lower" else hi) - (a.lo if a.form == "lower" else a.hi)) <= max(
                    0.6, (0.1 if b.form == "approx" else 0.05) * abs(a.point)):
                # the same statement in another unit: it holds what the first holds (its rounding is no new figure)
                out[k] = Value(a.lo, a.hi, b.dimension, b.unit, a.form, b.stated, b.start, b.end, b.unsaid_scale)
    return out


_BARE_SCALE = ("degrees", "degree", "°", "º")  # no scale said: read as Celsius, yet a Fahrenheit reading is possible
# A bare "°"/"degrees" is an angle where its clause says what turns or leans ("hold the blade at 20 degrees on
# each side", "tilt the panels to 35°", "倾角30度") and nothing says heat: the kind is the clause's, not the sign's
_ANGLE = re.compile(r"\b(?:angles?|angled|(?:per|each|a|one) side|tilt\w*|slope[sd]?|pitch(?:ed)?|inclin\w*|incline[sd]?|"
                    r"bevel\w*|edges?|inclusive|latitude|azimuth|rotat\w*|turn(?:ed|s)?|lean\w*|camber|recline\w*|"
                    r"slant\w*|protractor|clockwise|compass|heading|bearing|"
                    # a direction measured from a line of sight or a reference line: "15 degrees below your eye line"
                    r"degrees?\s+(?:to|from|off|against)\s+(?:the|your|a)\s+(?!(?:\w+\s+)?(?:water|oven|air|room)\b)|"  # "30 degrees to the top plate"
                    r"(?:below|above|under|beneath|from|off|past)\s+(?:the\s+|your\s+)?(?:horizontal\s+)?"
                    r"(?:eye[- ]?(?:line|level)|line of sight|horizon(?:tal)?|vertical|plumb))\b|角|倾|坡度|斜", re.I)
_HEAT = re.compile(r"\b(?:temperatures?|temps?|heat\w*|hot|warm\w*|cool\w*|cold|oven|fridge|freez\w*|boil\w*|"
                   r"thermo\w*|celsius|fahrenheit|weather|outside|outdoors|night|day(?:time)?|room|water|oil|air|soil|"
                   r"bake[sd]?|roast\w*|preheat\w*|simmer\w*|cook\w*|grill\w*|smok\w*|brew\w*)\b|温|热|冷|烤|煮|摄氏|华氏", re.I)


def _angle_clause(text: str, start: int, end: int) -> bool:
    """Whether the clause around a bare degree value speaks of an angle and not of heat."""
    lo = max(text.rfind(c, 0, start) for c in ".;!?。；！？\n") + 1
    his = [i for i in (text.find(c, end) for c in ".;!?。；！？\n") if i >= 0]
    return speaks_of_angle(text[lo:min(his) if his else len(text)])


def speaks_of_angle(words: str) -> bool:
    """Whether ``words`` (a clause, a table's column header) speak of an angle and not of heat."""
    return bool(_ANGLE.search(words)) and not _HEAT.search(words)


def rescaled(v: Value, unit: str = "degF") -> Value:
    """A temperature said without its scale, read in ``unit`` instead ("keep it at 37 degrees" of a fridge)."""
    lo, hi = interval_of(v.form, list(v.stated), unit, None)
    return Value(lo, hi, v.dimension, unit, v.form, v.stated, v.start, v.end)


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


def states(text: str, wanted: str) -> bool | None:
    """Whether ``text`` states every value ``wanted`` names, as the same quantity after conversion
    ("482 °F" states "250 °C"; a range states only an equal range); None when ``wanted`` names no value."""
    want = read_values(wanted)
    if not want:
        return None
    have = read_values(text)
    return all(any(h.comparable(w) and h.form == w.form and w.contains(h) and h.contains(w) for h in have) for w in want)


