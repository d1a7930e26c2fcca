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
A small number opening a range is a digit ("two to three months"), an article is one only as an
amount ("an hour", "a cup of flour"; not "twice a day", "a cup like this"), Chinese adjacent
numerals are a range (五六次: 5～6), and a unit written before its number ("pH 7") is repeated after it.
A sign said as a word is a sign ("minus five degrees" is −5, not 5), "half" standing for a share
of a whole ("leave it at about half charge", "top it up to half") is 50 %, and 两 before a unit or
measure word is 2 (cn2an reads 两个月 but leaves 两周, 两次). An article with an adjective of extent
is one unit ("a full hour", "a good quarter of an hour"), so is an article after a bound or an
approximation ("about a centimetre", "under a minute"), and "once a year" states its period (every
1 year); 半 is a half of the unit it stands with (半年, 一年半, 两个半月), and a Chinese rate may name
one of its denominator (每一公斤白菜，用三十克盐 is 30 g/kg). Pence are pounds ("9p per kWh"), "two" counts a plural
noun ("two full coats"), an f-number is f-stops ("f/2.8"), four or five digits before K a colour temperature, a camera's
ISO is written before its number like pH, a blood-pressure pair's bound is of both pressures, and OCR's glued label
colon is spaced ("Max depth:18m").
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
    (r"\bthree quarters of an? (?=\w)", "0.75 "), (r"\b(\d+) quarters of an? (?=\w)", lambda m: f"{int(m.group(1)) / 4:g} "),
    (r"\b(?:(?:a|one) )?quarter of an? (?=\w)", "0.25 "),
    # a fraction standing before its unit as an adjective: "a quarter pound of feed", "a half cup", "three-quarter inch"
    (r"(?<!\band )\b(?:a|one) quarter (?=(?:{0})\b)", "0.25 "), (r"(?<!\band )\b(?:a|one) half (?=(?:{0})\b)", "0.5 "),
    (r"(?<!\band )\bthree[- ]quarters? (?=(?:{0})\b)", "0.75 "), (r"(?<!\band )\b(?:a|one) third (?=(?:{0})\b)", "0.333 "),
    (r"\b(?:a|one) dozen\b", "12"), (r"\bhalf a dozen\b", "6"), (r"\b(\d+) dozen\b", lambda m: str(12 * int(m.group(1)))),
    (r"\b(\d+) and a half\b", lambda m: f"{int(m.group(1)) + 0.5:g}"), (r"\b(\d+) and a quarter\b",
                                                                        lambda m: f"{int(m.group(1)) + 0.25:g}"),
    (r"\b(\d+) \((\d+)\)", r"\1"),  # "five (5) minutes" after digits: one number
    # a decimal fraction said in words: "twenty-five thousandths of an inch" (Whisper writes "25,000ths") is 0.025 in
    (r"\b(\d+?)(?:,?000ths|\s+thousandths)(?: of an?)?\b", lambda m: f"{int(m.group(1)) / 1000:g}"),
    (r"\b(\d+?)(?:00ths|\s+hundredths)(?: of an?)?\b", lambda m: f"{int(m.group(1)) / 100:g}"),
]
# the units spelt as English words ("hour", "litre", "minutes"), longest first: what a number word may count
_WORD_UNITS = "|".join(s for s in sorted(UNITS, key=len, reverse=True)  # SPF is written before its number
                       if len(s) > 2 and s.isascii() and s.isalpha() and s != "spf")
_FRACTIONS = [(p.format(_WORD_UNITS) if "{0}" in p else p, r) for p, r in _FRACTIONS]
# a word that weighs a count without changing it: "two full minutes", "10 more days", "20 solid hours"
_INTENSIFIED = re.compile(r"(?<=\d)\s+(?:full|whole|solid|good|straight|entire|consecutive|more|extra|additional|further)"
                          r"\s+(?=(?:{})\b)".format(_WORD_UNITS), re.I)
# "once a year", "once per month": a frequency of one per period states the period as its interval
_ONCE = re.compile(r"\bonce (?:a|an|per|every|each) (?=(?:second|minute|hour|day|night|week|fortnight|month|year)\b)", re.I)
# a period said with no number is one of it, after the action it times: "test it every week", "every other
# day" (two), "every third day" (three) ("Every day I dose…" opens a sentence: a habit, not the figure; an adverb
# such as "monthly" is left alone: "paid monthly" beside a rate is how it is paid, not a period to check)
_EVERY_NTH = {"other": 2, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
              "ninth": 9, "tenth": 10}
_EVERY = re.compile(r"(?<=[a-z] )every (?:({}) )?(?=(?:second|minute|hour|day|night|week|fortnight|month|year)\b)".format(
    "|".join(_EVERY_NTH)), re.I)


def _every(m: re.Match) -> str:
    return f"every {_EVERY_NTH[m.group(1).lower()] if m.group(1) else 1} "


# an article, an adjective of extent and a unit: "a full hour", "a good week", "a whole litre", "the full hour" are one unit
_ONE_FULL = re.compile(r"\b(?:(?:an?|one) (?:full|good|whole|solid|entire|extra|additional|further)|the (?:full|whole|entire)) "
                       r"(?=(?:{})\b)".format(_WORD_UNITS), re.I)
# an article after a bound or approximation word is an amount of one: "about a centimetre", "under a minute",
# "nearly a kilo", "at least a week"
_BOUNDED = re.compile(r"\b(?:about|around|roughly|approximately|nearly|almost|over|under|than|least|most|up to|within|"
                      r"just|barely|only)\s+$", re.I)
_SMALL_VALUE = {"zero": "0", "one": "1", "two": "2", "a": "1", "an": "1"}
# a small count of things per period is a number: "two meals a day", "one scoop per day" (text2num leaves "two" a word)
_COUNT_PER = re.compile(r"\b(one|two)(?=\s+[a-z]{3,}\s+(?:a|an|per|each|every|1)\s+(?:day|week|month|year|night|hour)s?\b)", re.I)
# a fraction of a unit said with an ordinal, once text2num has written the ordinal in digits: "an eighth of an
# inch" (an 8th of an inch) is 0.125 in, "two thirds of a cup" 0.667 cup, "one and a third cups" 1.33 cups; only
# before a unit ("the eighth step" is an ordinal)
_ORD_FRACTION = re.compile(r"\b(?:(an?|one|two|three|\d+) and )?(an?|one|two|three|\d+) (\d+)(?:st|nd|rd|th)s?"
                           r"(?: of(?: an?| the)?)? (?=(?:{})\b)".format(_WORD_UNITS), re.I)


def _ord_fraction(m: re.Match) -> str:
    whole, top, bottom = m.group(1), m.group(2).lower(), int(m.group(3))
    if bottom < 2 or not whole and top in ("a", "an") and " of" not in m.group(0):
        return m.group(0)  # "a third cup" is one more cup
    num = float(_SMALL_VALUE.get(top, "3" if top == "three" else top))
    if num >= bottom:
        return m.group(0)  # "2 3rds" of a whole number of thirds is no fraction of one unit
    lead = float(_SMALL_VALUE.get(whole.lower(), "3" if whole.lower() == "three" else whole)) if whole else 0.0
    return f"{lead + num / bottom:.3g} "
_SMALL = re.compile(r"\b(zero|one|two|an?)(?=\s+(?:and an? (?:half|quarter)\b|(?:{})\b))".format(
    _WORD_UNITS), re.I)
# a number joined to its unit as an adjective: "a three-week taper", "a ten-year warranty", "3-month"
_HYPHENED = re.compile(r"\b(\d+(?:\.\d+)?|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-?)?(?:one|two|three|"
                       r"four|five|six|seven|eight|nine)|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|"
                       r"eighty|ninety|hundred)-(?=(?:{})\b)".format(
    "|".join(s for s in sorted(UNITS, key=len, reverse=True) if len(s) > 1 and s.isascii() and s.isalpha())), re.I)
# a small number opening a range ("two to three months", "one or 2 hours"): text2num leaves it a word
_RANGE_START = re.compile(r"\b(zero|one|two)(?=\s*(?:to|or|-|–)\s*\d)", re.I)
_TIME_UNITS = {"second", "minute", "hour", "day", "week", "month", "year", "night", "sec", "min", "hr"}
_FREQUENCY = re.compile(r"\b(?:once|twice|thrice|times|per|every|each)\s+$", re.I)
# Chinese adjacent numerals are an approximate range: 三四天, 五六次 (3–4 days, 5–6 times)
_ZH_DIGIT = "一二三四五六七八九"
_ZH_PAIR = re.compile(rf"(?<![{_ZH_DIGIT}十百千万])([{_ZH_DIGIT}])([{_ZH_DIGIT}])(?![{_ZH_DIGIT}十百千万])")
_WHISPER = re.compile(r"\b(\d+)(000|00) and (\d{1,3})\b")  # "100 and 20", "600 and 25", "3000 and 499"
_ZH_UNIT_GUARD = {"千卡": "kcal", "千克": "kg", "千米": "km", "千瓦时": "kWh", "千瓦": "kW", "千焦": "kJ", "千帕": "kPa"}
# a sign said as a word before a number, not after one ("10 minus 3" is arithmetic)
_SIGN_WORD = re.compile(r"(?<![\d.])(?<!\d\s)\b(?:minus|negative)\s+(?=\d)", re.I)
# … and not after a term either ("your latitude minus 10 degrees" subtracts): a sign follows the
# start, a punctuation mark, or a word that introduces a level ("was", "to", "of", "around", "hits")
_SIGN_AFTER = frozenset("""is was were are be been being at to of from reach reaches reached reaching hit hits hitting
about around approximately roughly nearly almost below under and or than as down drop drops dropped fell falls fall go goes
went get gets got read reads showed shows show stay stays stayed between into by low lows high highs near even""".split())
# one time said in two units, the larger first, "and" or not: "3 min 30 s", "2 minutes 50 seconds",
# "1 hour 15 minutes" (inside a range or before "per" too, where values are then read as one)
_TIME_PAIR = re.compile(r"(?<![\d.])(\d+)\s?(hours?|hrs?|h|minutes?|mins?)(?![a-z])\s+(?:and\s+)?(\d{1,2})\s?"
                        r"(minutes?|mins?|seconds?|secs?|s)(?![a-z])", re.I)
# "half" as a share of a whole: after a word that sets a level ("at", "to", "about", "than"…) and not
# opening a phrase of its own ("half an hour", "half of the dough", "half the flour", "half way")
_HALF_SHARE = re.compile(r"\b(at|to|about|around|roughly|approximately|nearly|almost|than|only|over|under|below|above) "
                         r"half(?![-\w])(?!\s+(?:an?|of|the|this|that|its|their|your|my|way|time|price|as)\b)", re.I)
# a fraction of a whole said before it: "change a quarter of the water" is 25 % of it, "a third of your tank" 33 %
_PART_SHARE = re.compile(r"\b(a|one|1|three|3|two|2) (quarters?|thirds?|3rds?) of (?=(?:the|your|its|their|this|that)\b)", re.I)
_PART = {("1", "quarter"): "25", ("3", "quarters"): "75", ("1", "third"): "33", ("2", "thirds"): "67"}
_COUNT_WORD = {"a": "1", "one": "1", "two": "2", "three": "3"}
_ZH_MEASURE = "次遍泡杯份片粒颗只条张个位"
_BELOW_ZERO = re.compile(r"\b(\d+(?:\.\d+)?)\s+(degrees?\s+)?below zero\b", re.I)  # "five below zero" is -5
# a price said with its cents after the currency word: "twelve pounds ninety nine" is £12.99 (not 12 lb)
_CURRENCY_SIGN = {"pound": "£", "quid": "£", "dollar": "$", "buck": "$", "euro": "€"}
_SPOKEN_PRICE = re.compile(r"(?<![\d.])(\d+) (pounds?|quid|dollars?|bucks?|euros?) (\d{2})(?:\s+(?:cents?|pence|p)\b)?(?![\d.%]|\s*percent|[a-z])(?!\s*(?:" + "|".join(
    re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u.isascii() and u[:1].isalpha()) + r")(?![a-z]))", re.I)
# pence are hundredths of a pound: "9 pence", and "9p" or "24.5p" where a rate follows ("9p per kWh", "8.5p a mile";
# a bare "1080p" is a video's lines)
_PENCE = re.compile(r"(?<![\w.£$€])(\d+(?:\.\d+)?)(?:\s?pence\b|\s?p(?=\s?(?:/|per\b|an?\b|each\b)))", re.I)
# "two" counting what follows, a plural noun after at most one word ("two full coats", "two small meals");
# text2num leaves it a word ("no one", "the two of us"), and so do "two of", "two or", "two-way"
_TWO_OF = re.compile(r"\btwo(?=\s+(?:(?!of\b|or\b|and\b|to\b)[a-z]+\s+)?(?!is\b|was\b|has\b|this\b|thus\b)[a-z]{2,}s\b)", re.I)
# "a litre and a half", "two hours and a half": the half is of the unit just said
_UNIT_AND_HALF = re.compile(r"\b(an?|one|\d+) ({}) and a half\b".format(
    "|".join(s for s in sorted(UNITS, key=len, reverse=True) if len(s) > 1 and s.isascii() and s.isalpha())), re.I)


# "second" before a noun is the ordinal ("a second coat", "one second thought"); as time it ends its phrase or is
# followed by a word of time or amount ("a second or two", "a second later", "a second per frame")
_ORDINAL_UNIT = re.compile(r"\s+second\s+(?!(?:or|and|to|of|later|before|after|ago|per|each|every|too|more|longer|"
                           r"at|in|for|then|now|while|when|until|till|so|is|was|will|would|it|you|we|they|the|a|an)\b)"
                           r"[a-z]{2,}", re.I)


_IDIOM = re.compile(r"\b(?:even|just|hang on)(?:\s+for)?\s+$", re.I)


def _small(m: re.Match) -> str:
    """"an hour" is one hour, but "60 km an hour" is a rate and "twice a day" a frequency: an
    article after a unit or a frequency word stays; "a cup" is one cup only as "a cup of …"."""
    before = m.string[max(0, m.start() - 12):m.start()]
    word = m.group(1).lower()
    if _ORDINAL_UNIT.match(m.string, m.end()):
        return m.group(1)  # "a second coat", "one second layer": the ordinal, not a second of time
    if word in ("a", "an"):
        if _IDIOM.search(before) and re.match(r"\s+(?:second|minute)\b", m.string[m.end():], re.I):
            return m.group(1)  # "not even for a second", "just a minute": no length of time, a manner of speaking
        if before.split() and before.split()[-1].lower() in UNITS or _FREQUENCY.search(before):
            return m.group(1)
        period = re.match(r"\s+(day|week|month|year|night)\b(?!\s+(?:apart|later|ago|before|after|earlier|old|from)\b)",
                          m.string[m.end():], re.I)  # "a week apart" is a spacing of its own
        clause = re.split(r"[.;:!?,]", m.string[max(0, m.start() - 40):m.start()])[-1]
        if period and re.search(r"(?:\d|\b(?:one|two)\b)\s*\S*\s+(?:of\s+)?[a-z]+(?:\s*\([^)]*\))?\s+$", clause, re.I):
            return m.group(1)  # "0.25 pound of feed a day", "20 minutes a day": the amount's period, no day of its own
        if _BOUNDED.search(m.string[max(0, m.start() - 16):m.start()]):
            return "1"
        unit = re.match(r"\s+([a-z]+)(\s+of\b)?", m.string[m.end():], re.I)
        if unit and not unit.group(2) and unit.group(1).lower().rstrip("s") not in _TIME_UNITS:
            return m.group(1)
    return _SMALL_VALUE[word]


def _sign(m: re.Match) -> str:
    before = re.search(r"([A-Za-z]+)?\W*$", m.string[max(0, m.start() - 24):m.start()])
    word = before.group(1) if before else None
    return "-" if word is None or word.lower() in _SIGN_AFTER or not before.group(0).endswith(" ") else m.group(0)


def _time_pair(m: re.Match) -> str:
    big, small = m.group(2).lower(), m.group(4).lower()
    hours = big.startswith("h")
    if hours == small.startswith("s") or int(m.group(3)) >= 60:  # hours with minutes, minutes with seconds
        return m.group(0)
    whole, part = int(m.group(1)), int(m.group(3))
    if part * 1000 % 60:  # no short decimal of the larger unit: the total in the smaller one ("3 min 20 s" is 200 s)
        return f"{whole * 60 + part} {m.group(4)}"
    return f"{whole + part / 60:g} {m.group(2)}"


def _english(text: str) -> str:
    from text_to_num import alpha2digit

    text = _ONE_FULL.sub("1 ", _ONCE.sub("every 1 ", _EVERY.sub(_every, text)))
    t = alpha2digit(_HYPHENED.sub(r"\1 ", text), "en")  # leaves "one", "two" alone (its threshold: "no one knows")
    t = _HYPHENED.sub(r"\1 ", t)
    t = _ORD_FRACTION.sub(_ord_fraction, t)
    for step in range(2):  # "half an hour" first; then "two and a half" once "two" is 2
        for pattern, repl in _FRACTIONS:
            t = re.sub(pattern, repl, t, flags=re.I)
        if step == 0:  # … except before a unit or fraction, or as a range's first end
            t = _SMALL.sub(_small, t)
            t = _RANGE_START.sub(lambda m: _SMALL_VALUE[m.group(1).lower()], t)
    t = _COUNT_PER.sub(lambda m: _SMALL_VALUE[m.group(1).lower()], t)
    t = _SIGN_WORD.sub(_sign, t)
    t = _TIME_PAIR.sub(_time_pair, t)
    t = _BELOW_ZERO.sub(lambda m: f"-{m.group(1)} {(m.group(2) or 'degrees').strip()}", t)
    t = _SPOKEN_PRICE.sub(lambda m: f"{_CURRENCY_SIGN[m.group(2).lower().rstrip('s')]}{m.group(1)}.{m.group(3)}", t)
    t = _PENCE.sub(lambda m: f"£{float(m.group(1)) / 100:g}", _TWO_OF.sub("2", t))
    t = _UNIT_AND_HALF.sub(lambda m: f"{'1' if m.group(1).lower() in ('a', 'an', 'one') else m.group(1)}.5 {m.group(2)}", t)
    t = _HALF_SHARE.sub(r"\1 50%", t)
    t = _PART_SHARE.sub(lambda m: f"{p}% of " if (p := _PART.get((_COUNT_WORD.get(m[1].lower(), m[1]), m[2].lower().replace("3rd", "third"))))
                        else m[0], t)
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
        text = re.sub(rf"\s*{word}", f" {unit} ", text)  # "300 千卡" and "300千卡" alike
    text = re.sub(r"零下\s*(?=\d)", "-", text)  # "零下5℃" is -5 °C (cn2an reads 零下五 but makes 零下5 "0下5")
    # a half: "两个半小时" 2.5 h, "一年半" 1.5 years, "半年" half a year (cn2an reads 半小时 and 半个月 only)
    text = re.sub(r"([一二两三四五六七八九十\d]+)(个半(?:小时|钟头|月|星期)|[年天周日]半)",
                  lambda m: f"{m.group(1).replace('两', '二')}.5{m.group(2).replace('半', '')}", text)
    text = re.sub(r"(?<![大多个\d一二两三四五六七八九十])半(?=年|天|周|日|分钟|秒)", "0.5", text)
    text = _ZH_TWO.sub("二", text)  # "每两周", "两次": 两 before a unit is the numeral two
    text = _ZH_PAIR.sub(lambda m: f"{m.group(1)}～{m.group(2)}" if _ZH_DIGIT.index(m.group(2)) == _ZH_DIGIT.index(
        m.group(1)) + 1 else m.group(0), text)
    logging.getLogger("cn2an").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            text = cn2an.transform(text, "cn2an")
        except (ValueError, KeyError, IndexError):  # a run cn2an cannot read stays as written
            return text
    # a price said in yuan and jiao: "六十四块九毛九" is ¥64.99, "十二元五角" ¥12.5
    return re.sub(r"(\d+)\s?[块元]\s?(\d)\s?[毛角](?:\s?(\d)(?![\d.])\s?分?)?",
                  lambda m: f"{m.group(1)}.{m.group(2)}{m.group(3) or ''}元", text)


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in str(text or ""))


_ZH_TWO = re.compile("两(?=" + "|".join(sorted((re.escape(u) for u in UNITS if has_cjk(u)), key=len, reverse=True))
                     + f"|[{_ZH_MEASURE}]" + r"|\s(?:kcal|kg|km|kWh|kW|kJ|kPa)\b)")  # "两千瓦" once 千瓦 is kW
# a Chinese rate says its denominator first: 每升水加1克 is 1 g per litre, 每小时烧150克 150 g per hour
_ZH_SPELLINGS = sorted((u for u in UNITS if has_cjk(u)), key=len, reverse=True)
_ZH_PER = [u for u in _ZH_SPELLINGS if any(u in _TABLE["units"].get(k, ()) for k in ("second", "minute", "hour", "l", "ml",
                                                                                      "g", "kg"))]
_ZH_RATE = re.compile("每(?P<one>1\\s?)?(?P<per>" + "|".join(map(re.escape, _ZH_PER)) + r")(?P<mid>[\u4e00-\u9fff]{0,4}?|[\u4e00-\u9fff]{0,4},[\u4e00-\u9fff]{0,3}?)\s?(?P<n>\d+(?:\.\d+)?)\s?"
                      "(?P<u>" + "|".join(map(re.escape, _ZH_SPELLINGS)) + r")(?![/／\u4e00-\u9fff]*?每)(?![/／])")
# … and with a number before the denominator: 每500克肉用盐15克 is 15 g per 500 g, i.e. 30 g per kg
_ZH_RATE_OF = re.compile("每(?P<k>\\d+(?:\\.\\d+)?)\\s?(?P<per>" + "|".join(map(re.escape, _ZH_PER)) +
                         r")(?P<mid>[\u4e00-\u9fff]{0,4}?)\s?(?P<n>\d+(?:\.\d+)?)\s?(?P<u>" +
                         "|".join(map(re.escape, _ZH_SPELLINGS)) + r")(?![/／])")
# a Chinese unit glued to the next number once cn2an has written it ("199元一支" -> "199元1支")
_ZH_GLUED = re.compile("(" + "|".join(sorted((re.escape(u) for u in UNITS if has_cjk(u)), key=len, reverse=True))
                       + r")(?=\d)")


def _zh_rate_of(m: re.Match) -> str:
    """每500克肉用盐15克 as 每公斤肉用盐30克/公斤: the rate per one of the denominator (per kg where it is grams)."""
    k, per, n = float(m.group("k")), m.group("per"), float(m.group("n"))
    if k <= 0:
        return m.group(0)
    if per in ("克", "毫升"):  # grams of salt per gram of meat: a fraction, written per kilogram (per litre)
        k, per = k / 1000, {"克": "公斤", "毫升": "升"}[per]
    return f"每{per}{m.group('mid')}{n / k:g}{m.group('u')}/{per}"


def _zh_rate(m: re.Match) -> str:
    """每升水加3克 as 3 g per litre; 每一公斤白菜，用三十克盐 too (the "one" of the denominator is no amount)."""
    if m.group("u") == m.group("per"):
        return m.group(0)
    return f"每{m.group('per')}{m.group(0)[m.end('per') - m.start():]}/{m.group('per')}"


_BRACKET_UNIT = re.compile(r"\((?P<u>[^()\d]{1,8})\)\s+(?P<n>\d+(?:\.\d+)?(?:\s?[–-]\s?\d+(?:\.\d+)?)?)(?=\s*(?:$|[|,;]))")


def _unit_after(m: re.Match) -> str:
    unit = m.group("u").strip()
    if not all(part.strip().lower() in UNITS for part in unit.split("/")):
        return m.group(0)
    return f"({m.group('u')}) {m.group('n')} {unit}"


_VULGAR_VALUE = {"½": 0.5, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅖": 0.4, "⅗": 0.6, "⅘": 0.8,
                 "⅙": 1 / 6, "⅚": 5 / 6, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
_VULGAR = re.compile(r"(?<![\d.])(?:(\d+)[ \u00a0\u2009]?)?([" + "".join(_VULGAR_VALUE) + "])")
# a temperature written with its scale's letter and no degree sign: "225F", "175 F", "180C" (a spaced C is
# too often something else: "2 C batteries"); not inside a code ("AA:0C", "#3F")
_BARE_DEGREES = re.compile(r"(?<![\w:.#/-])(-?\d+(?:\.\d+)?)(?:\s?(F)|(?<=\d)(C))(?![\w'’])")


def _vulgar(m: re.Match) -> str:
    whole = int(m.group(1)) if m.group(1) else 0
    return f"{round(whole + _VULGAR_VALUE[m.group(2)], 3):g}"  # 5⅝ is 5.625, ⅓ is 0.333


# "130/80 mmHg": a systolic and a diastolic pressure, two values; a bound said before or after the pair is said of
# both ("≥135/85 mmHg", "130/80 mmHg or higher", "140/90毫米汞柱以上")
_PRESSURE_PAIR = re.compile(r"(?<![\d/.])(?P<pre>(?:[≥≤<>]=?|at least|at most|above|over|below|under|超过|不超过|低于|高于|达到)\s*)?"
                            r"(?P<a>\d{2,3})\s?/\s?(?P<b>\d{2,3})\s?(?P<u>mm\s?hg\b|毫米汞柱)"
                            r"(?P<post>\s*(?:or (?:higher|above|more|over|lower|below|less|under)\b|以上|以下))?", re.I)


def _pressure_pair(m: re.Match) -> str:
    pre, post = m["pre"] or "", m["post"] or ""
    return f"{pre}{m['a']} {m['u']}{post}, {pre}{m['b']} {m['u']}{post}"


def normalise(text: str, language: str = "auto") -> str:
    """Digits for number words in ``text`` (English, and Chinese numerals where the text has any),
    thousands separators removed, Unicode forms folded (NFKC keeps °, ℃ becomes °C)."""
    # a thin or no-break space between digit groups is a thousands separator ("15 000 km"; NFKC makes it a space)
    t = re.sub(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))", "", str(text or ""))
    t = _VULGAR.sub(_vulgar, t)  # "3½ cups" is 3.5 cups (NFKC would make it "31⁄2")
    t = unicodedata.normalize("NFKC", t).replace("−", "-")
    t = _BARE_DEGREES.sub(lambda m: f"{m.group(1)} °{m.group(2) or m.group(3)}", t)  # "smoke at 225F", "180C", "175 F"
    t = re.sub(r"°\s*°", "°", t)  # "240°℃" as OCR reads a caption (℃ folds to °C)
    t = re.sub(r"(?<=[A-Za-z]{3})(?=\d+(?:\.\d+)?\s?(?:°|%))", " ", t)  # "NOZZLE240°C": a label glued to its value
    t = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", t)  # 3,499 -> 3499 (and 23,500)
    t = re.sub(r"(?<=[A-Za-z]):(?=\d)", ": ", t)  # "Max depth:18m" as OCR reads a caption: a label's colon
    t = _PRESSURE_PAIR.sub(_pressure_pair, t)
    t = _BRACKET_UNIT.sub(_unit_after, t)  # "Nozzle temperature (°C) 230–250": the label's unit is the number's
    if language in ("zh", "auto") and has_cjk(t):
        # "滤芯：12个月／199元": NFKC made the full-width colon and slash ASCII, which before a digit
        # read as a clock time or a rate's denominator; after a Chinese word they stay full width
        t = re.sub(r"(?<=[\u4e00-\u9fff]):(?=\s*\d)", "：", t)
        t = re.sub(r"(?<=[\u4e00-\u9fff])/(?=\s*\d)", "／", t)
        t = _ZH_GLUED.sub(r"\1 ", _chinese(t))
        t = _ZH_RATE.sub(_zh_rate, _ZH_RATE_OF.sub(_zh_rate_of, t))
    if language in ("en", "auto"):
        t = _english(_PER_MILLION.sub("ppm", t))  # "parts per million" is a unit: text2num made it "per 1000000"
        t = _INTENSIFIED.sub(" ", t)
    t = _KELVIN.sub(r"\1 kelvin", _F_NUMBER.sub(_f_number, t))
    return _PREFIXED.sub(_prefixed, t)


# a camera's ISO is one of the standard's third-stop speeds (ISO 12232: 50, 64, 80, 100 … 3200 … 102400); other
# numbers after "ISO" name a standard ("ISO 9001", "ISO 8601") and stay as they are
_ISO_SPEEDS = {25, 32, 40, 50, 64, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500,
               3200, 4000, 5000, 6400, 8000, 10000, 12800, 16000, 20000, 25600, 32000, 40000, 51200, 64000, 80000, 102400}


def _prefixed(m: re.Match) -> str:
    if m.group(1).upper() == "ISO" and not all(float(x) in _ISO_SPEEDS for x in re.findall(r"\d+(?:\.\d+)?", m.group(0))):
        return m.group(0)
    return f"{m.group(0)} {m.group(1)}"


# an aperture written as a focal ratio ("f/2.8", "F2.8", "f/2.8 to f/4", "f/1.4–2.8") is a number of f-stops; a bare
# "F8" stays (a key, a class, a model); and four or five digits before a capital K are a colour temperature ("3900 K",
# "5600K"): nobody writes thousands of thousands that way ("$3K", "10K run" have fewer digits)
_F_NUMBER = re.compile(r"(?<![\w/°º])[fF](?:/(\d{1,2}(?:\.\d)?)|(\d{1,2}\.\d))(?![\d.]*\d)"
                       r"(?:\s?(-|–|to)\s?(?:[fF]\s?/?\s?)?(\d{1,2}(?:\.\d)?)(?![\d.]*\d))?")
_KELVIN = re.compile(r"(?<![\d.,])(\d{4,5})\s?(?:K\b|[kK]elvins?\b)")


def _f_number(m: re.Match) -> str:
    first = m.group(1) or m.group(2)
    return f"{first}{f' {m.group(3)} {m.group(4)}' if m.group(4) else ''} f-stop"


_PER_MILLION = re.compile(r"\bparts?[\s-]+per[\s-]+million\b", re.I)
# a unit written before its number ("pH 7.0", "a pH of about 7", "pH 6.0–7.5", "SPF 30") is repeated after it,
# where values are read
_PREFIXED = re.compile(r"\b(pH|SPF|ISO|UV index|R[- ]value)\b(?:\s*(?:(?:of|level|value|is|at|around|should|must|needs?|to|be|reach(?:es)?|"
                       r"drops?|falls?|stays?|remains?|reads?|kept)\b|[=:])){0,3}\s*(?:(?:about|around|roughly|approximately|~|between|"
                       r"at least|at most|no (?:more|less|lower|higher) than|not (?:more|less) than|up to|over|above|below|under|"
                       r"(?:a )?(?:minimum|maximum) of)\s*)?"  # "an SPF of at least 30": the bound is the number's
                       r"\d+(?:\.\d+)?(?:\s*(?:-|–|to|and)\s*\d+(?:\.\d+)?)?(?!\s*(?:\.\d|pH\b|SPF\b|ISO\b|UV index\b|R[- ]value\b))", re.I)


