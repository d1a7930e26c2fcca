"""How two figures meet beyond their intervals, for ``relate``: a share of a named whole ("56–75% of FTP"),
one threshold stated from either side ("less than 1 inch" and "more than 1 inch"), a period an action
repeats at ("every two weeks"), and which of a sentence's values is introduced by the anchor's own thing-words."""

from __future__ import annotations

import re

from ..values import MATCH, Value
from ..values.quantity import as_frequency
from .cues import EVERY
from .facts import agrees, subject_words

_BASE = re.compile(r"\s*of\s+(?:(?:the|your|their|its|his|her|my|our|a|an)\s+)?([^\W\d][\w-]*(?:['’]s)?(?:\s+[^\W\d][\w-]*){0,2})")


def share_base(text: str, v) -> set[str]:
    """What a share is a share of ("56–75% of FTP", "60 % of max heart rate", "2 % of the flour's weight");
    empty when it is not said."""
    if v.dimension != "ratio":
        return set()
    m = _BASE.match(text, v.end)
    return subject_words(m.group(1)) if m else set()


def one_kind(a: Value, b: Value) -> bool:
    """Of one kind: the same dimension, or a frequency and a count per period ("twice a day" and "2 meals a day").
    A frequency and a duration stay apart here ("within a day" is no period of repetition)."""
    return a.comparable(b) or "frequency" in (a.dimension, b.dimension) and as_frequency(a).comparable(as_frequency(b))


def other_whole(a_text: str, a: Value, b_text: str, b: Value) -> bool:
    """Two shares of different wholes are different quantities (a share of FTP is not one of heart rate)."""
    x, y = share_base(a_text, a), share_base(b_text, b)
    return bool(x and y and not x & y)


# the thing whose property a value measures, named right before the property ("kept at room temperature (around 70–75 °F)")
_OWNED = re.compile(r"\b([a-z]{3,})\s+(?:temperature|temp|weight|height|length|size|pressure|volume|capacity|depth|thickness|"
                    r"width)s?\b[^.;:!?]{0,30}$", re.I)
_NO_OWNER = frozenset("internal ideal optimal recommended target maximum minimum safe average typical normal high low final "
                      "right correct proper best exact total overall usual starting ending the your its their our this that "
                      "same higher lower air ambient outdoor outside surface".split())  # the weather a job is done in


def other_owner(text: str, v: Value, anchor_objects: set[str]) -> bool:
    """The value measures another thing's property than the anchor's ("a starter kept at room temperature (around
    70–75 °F)" beside "the water should be about 78 °F"), and the sentence never names the anchor's thing."""
    m = _OWNED.search(text[max(0, v.start - 60):v.start])
    owner = m.group(1).lower() if m else ""
    # an activity's temperature ("the baking temperature … is 250 °C") is the setting the video gives for it, not a thing's
    return bool(owner and anchor_objects and owner not in _NO_OWNER and not owner.endswith("ing")
                and not subject_words(text) & anchor_objects)  # the owner is a word of the text: it is not the anchor's either


# a value said as a difference from another ("20 to 40% more", "roughly 10 cm higher than a plain desk", "8 psi lower"):
# it measures how far apart two figures are, not a figure itself ("no more than 10%", "10% or more" are no differences)
_DIFFERENCE = re.compile(r"\s*(?:more|less|fewer|higher|lower|longer|shorter|warmer|cooler|hotter|colder|heavier|lighter|"
                         r"faster|slower|bigger|smaller|larger|greater|extra|further)\b|\s*(?:above|below)\s+"  # "over the winter" is a time
                         # above a norm ("2 °C above the average"), not above a place ("1 to 2 metres above the floor")
                         r"(?:(?:the|a|an|your|its|their|last\s+year's)\s+)?(?:what|normal|average|usual|typical|expected|"
                         r"recommended|standard|baseline|previous|current|target|list|retail|rrp|asking|going)\b", re.I)


def difference(text: str, v: Value) -> bool:
    """Whether the value is said as a difference (``_DIFFERENCE`` right after it)."""
    return bool(_DIFFERENCE.match(text, v.end))


def boundary(source: Value, video: Value) -> bool:
    """The source's bound sits where the video's does ("below about 10 °C …" and "at least 10 °C"): one threshold."""
    return source.comparable(video) and "point" not in (source.form, video.form) and {source.form, video.form} & {
        "lower", "upper"} != set() and abs(source.point - video.point) <= MATCH * max(abs(video.point), 1e-9)


def on_subject(pairs, anchor_objects: set[str]):
    """The pairs whose value is introduced by most of the anchor's own thing-words, when any is: in
    "成人每天食盐不超过6克，每天烹调油25～30克" the salt anchor meets 6 g, not the narrower 25–30 g; in
    "every 2–3 months with hard water and every 4–6 months with soft water" hard water meets 2–3."""
    most: dict[str, int] = {}  # per kind: values of one kind compete, those of another speak of another quantity
    for _, r in pairs:
        most[r.value.dimension] = max(most.get(r.value.dimension, 0), len(r.near & anchor_objects))
    return [(a, r) for a, r in pairs if len(r.near & anchor_objects) == most[r.value.dimension]]


def hypothetical(text: str, r) -> bool:
    """Whether the value sits in an "if …" clause after the sentence's own statement ("Begin 15 to 20
    minutes after grouting; if you wait half an hour or more the haze sets hard"): a case the source
    warns of, not its figure (a sentence that opens on the condition is ``CONDITION``'s)."""
    clauses = _CLAUSE_BREAK.split(text[:r.value.start])
    return len(clauses) > 1 and bool(_IF.match(clauses[-1]))


_CLAUSE_BREAK = re.compile(r"[;,:.!?]|\b(?:and|but)\b")
_IF = re.compile(r"\s*(?:if|unless|should you|in case)\b", re.I)


def _every(text: str, v) -> bool:
    """Whether a value is the period of a repeated action ("every 2–3 months", "每12个月"), not a duration."""
    return bool(EVERY.search(text[max(0, v.start - 12):v.start]))


def habits(pairs, norm: str, anchor_norm: str):
    """A period the video repeats an action at ("每两周施一次") meets the periods the source gives
    ("每10–15天施用一次"), not a duration beside them ("换盆后一周内停止", "近两年的售后数据")."""
    timed = {id(a) for a, r in pairs if _every(anchor_norm, a) and _every(norm, r.value)}
    return [(a, r) for a, r in pairs if id(a) not in timed or _every(norm, r.value)]


def row_case(st, anchor_values):
    """The case of a table row for another case than the video's ("| up to 25 | 24,000 |" under "Bit diameter (mm)" is
    not the row for a 40 mm bit), unless the row states the video's own figure in its value cells: then the key is
    another quantity's (the flour of "| 500 | 5 | 60–90 |" under 面粉（克）| 干酵母（克）, for a claim of 5 g of yeast)."""
    return next((case for case in st.cases if any(a.comparable(case) and not case.contains(a) and not any(
        agrees(r.value, a) for r in st.readings) for a in anchor_values)), None)


def beside(pairs, others: list, anchor_values, foreign: dict) -> list:
    """The figures of the anchor's kind that differ from the video's: a pair's own (not a former or reported one,
    ``foreign``) and ``others``, another thing's figures the sentence sets beside it ("Unlike a Milky Way frame at
    ISO 3200, the Moon … needs ISO 100"). A comparison beside none of them ("the same height: 120 m in the UK,
    400 ft in the US") compares nothing."""
    mine = [r for a, r in pairs if id(r) not in foreign and not agrees(r.value, a)]
    return mine + [r for r in others if any(one_kind(a, r.value) for a in anchor_values)
                   and not any(agrees(r.value, a) for a in anchor_values)]
