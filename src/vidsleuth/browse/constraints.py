"""What a question states explicitly about its video (seed 001 §3.2, Level 1): channel, title
words, quoted strings, publication dates, durations, genre.

A stated channel or title is a constraint to meet, not one more bag of words: ``parse`` reads the
question's explicit phrasings into typed ``Constraint``s, ``Constraints.check`` says for a corpus
record which are met, violated or unknown (the record lacks the field), and ``rank`` orders
candidates so that one violating a stated constraint comes after every one that meets it (ties
keep the search's or the Watcher's order). Only phrasings that *state* a constraint are read
("on the X channel", "X's video", "titled …", "published in 2023", "under 5 minutes", "a
documentary"), never the question's topic words: those stay the Watcher's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from ..search.analysis import Analyzer
from .guards import STOPWORDS, tokens

_NAME = r"[A-Z0-9][\w&.'-]*(?:\s+(?:of\s+|the\s+|and\s+|&\s+)?[A-Z0-9][\w&.'-]*)*"
_QUOTE = r"[\"“”]([^\"“”]{2,80})[\"“”]"
_ON = r"(?i:on|from|by|in|of|at)"
_KIND = r"(?i:video|clip|upload|vlog|episode|short|stream)"
_STOP = r"(?=\s*(?:[,.?;:]|\s(?i:what|which|who|whom|how|when|where|why|does|did|do|is|was|are|were|published|uploaded|posted|released)\b|$))"
CHANNEL_PATTERNS = (
    rf"{_ON}\s+(?:the\s+)?(?:YouTube\s+)?(?i:channel)\s+(?:called\s+|named\s+)?(?P<x>{_NAME})",
    rf"{_ON}\s+(?:the\s+)?(?P<x>{_NAME})\s+(?:YouTube\s+)?(?i:channel|vlog|podcast)",
    rf"(?i:uploaded|posted|published|shared|made|filmed|produced|presented|reviewed|tested|hosted)\s+by\s+(?:the\s+)?(?P<x>{_NAME})",
    rf"(?i:as\s+(?:told|narrated|explained|described)\s+by)\s+(?:the\s+)?(?P<x>{_NAME})",
    rf"{_KIND}\s+(?i:by|from)\s+(?:the\s+)?(?P<x>{_NAME})",
    rf"(?P<x>{_NAME})['’]s\s+(?:[\w-]+\s+){{0,2}}{_KIND}",
    rf"(?P<x>[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*s)['’]\s+(?:[\w-]+\s+){{0,2}}{_KIND}",
    rf"(?i:channel|uploader|creator)\s+{_QUOTE}",
    # "According to Heights & Spires, …", "According to Camp Kit Check's reviews": who tells it
    rf"(?i:according\s+to)\s+(?:the\s+)?(?P<x>{_NAME})",
)
# "Summit Sundays filmed the loop …", "… and Ounce Counters weighed the tent": a name as the subject
# of what was done on camera; a name only the corpus can tell from a place ("Old Mill opened …"),
# so these are kept only when a record's channel meets them (``Constraints.known``)
_DID = (r"(?:\w+ed|made|shot|took|ran|rode|drove|flew|swam|went|tried|built|bought|wrote|did|gave|sold|spent|"
        r"found|saw|got|met|had|reviews|visits|tests|makes|films|shows|weighs|rides|walks|cooks)")
SUBJECT = rf"(?:^|(?<=[.!?]\s)|(?<=\band\s))(?P<x>{_NAME})\s+(?-i:{_DID})\b"
TITLE_PATTERNS = (
    rf"(?i:titled|called|named|entitled)\s+{_QUOTE}",
    rf"(?i:title)\s+(?i:is\s+|reads\s+)?{_QUOTE}",
    rf"(?i:titled|entitled)\s+(?![\"“])(?P<x>[^,.?;:]{{3,80}}?){_STOP}",
    rf"(?i:whose|with\s+a|with\s+the|its)\s+(?i:title)\s+(?i:mentions|contains|includes|says|has)\s+(?P<x>[^,.?;:]{{2,80}}?){_STOP}",
    rf"\b{_KIND}\s+(?:(?i:by|from)\s+(?:the\s+)?{_NAME}\s+)?(?i:about|on)\s+(?P<x>[^,.?;:\"“]{{3,80}}?){_STOP}",
)
DATE_VERB = r"(?:published|uploaded|posted|released|aired|broadcast|streamed|recorded|filmed|premiered)"
DATE_PATTERNS = (
    (rf"{DATE_VERB}\s+(?:on|in|during)\s+(?P<x>(?:\d{{1,2}}\s+)?(?:[A-Z][a-z]+\s+)?(?:\d{{1,2}},?\s+)?\d{{4}}(?:-\d\d-\d\d)?)", "in"),
    (rf"{DATE_VERB}\s+before\s+(?P<x>(?:[A-Z][a-z]+\s+)?\d{{4}})", "before"),
    (rf"{DATE_VERB}\s+(?:after|since)\s+(?P<x>(?:[A-Z][a-z]+\s+)?\d{{4}})", "after"),
    (r"\b(?:a|an|the)\s+(?P<x>(?:19|20)\d\d)\s+(?:video|clip|upload|episode|vlog)", "in"),
)
_UNIT_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600}
_DUR = r"(?P<n>\d+(?:\.\d+)?)[\s-]*(?P<u>seconds?|secs?|minutes?|mins?|hours?|hrs?)"
DURATION_PATTERNS = (
    (rf"(?:under|less\s+than|shorter\s+than|at\s+most|no\s+longer\s+than|within)\s+{_DUR}", "max"),
    (rf"(?:over|more\s+than|longer\s+than|at\s+least)\s+{_DUR}", "min"),
    (rf"\b(?:a|an|the)\s+{_DUR}[\s-]*(?:long\s+)?(?:video|clip|film|short)", "about"),
)
ABOUT = 0.5  # "a 30-second clip": within half its stated length either way
GENRES = {  # the seed's eight genres, by the words a question uses for them
    "Sports": ("sports", "sport"), "Video & Shorts": ("shorts",), "Education & Knowledge":
    ("tutorial", "educational", "lecture", "lesson", "explainer"), "Film": ("film", "movie", "trailer"),
    "Documentary": ("documentary",), "Games & Esports": ("esports", "gaming", "gameplay", "game"),
    "TV Series": ("tv series", "tv show", "series episode", "sitcom"), "Music & Variety": ("music video", "concert",
                                                                                       "variety show"),
}
GENRE_PATTERN = (r"\b(?:a|an|the|this|that)\s+(?P<x>{words})\s+(?:video|clip|channel|upload|episode)\b"
                 r"|\b(?:a|an|the|this|that)\s+(?P<y>documentary|tutorial|sitcom)\b")
TITLE_MET = 0.6  # share of the stated title words a record's title must hold
_ANALYZER = Analyzer()


@dataclass(frozen=True)
class Constraint:
    """One stated requirement. ``kind``: channel, title, quoted, published, duration, genre;
    ``value`` as stated; ``lo``/``hi`` bound dates (ISO) or durations (seconds)."""

    kind: str
    value: str
    phrase: str
    lo: str | float | None = None
    hi: str | float | None = None
    exact: bool = False  # a quoted title: every word of it, not most
    inferred: bool = False  # read from a sentence's subject (``SUBJECT``): kept only if a channel meets it

    def describe(self) -> str:
        bounds = "" if self.lo is None and self.hi is None else f" [{self.lo or '…'}, {self.hi or '…'}]"
        return f"{self.kind} {self.value!r}{bounds}"


@dataclass(frozen=True)
class Check:
    constraint: Constraint
    met: bool | None  # None: the record does not say (no channel, no date …)
    why: str = ""


@dataclass(frozen=True)
class Constraints:
    items: tuple[Constraint, ...] = field(default_factory=tuple)

    def __bool__(self) -> bool:
        return bool(self.items)

    def check(self, record, content: str = "") -> tuple[Check, ...]:
        """Each constraint against a corpus record (and, for quoted strings, what the video says
        or shows, when given)."""
        return tuple(CHECKS[c.kind](c, record, content) for c in self.items)

    def violations(self, record, content: str = "") -> int:
        return sum(ch.met is False for ch in self.check(record, content))

    def report(self, record, content: str = "") -> dict:
        """{'met': [...], 'violated': [...], 'unknown': [...]} for a step's output."""
        out: dict[str, list[str]] = {"met": [], "violated": [], "unknown": []}
        for ch in self.check(record, content):
            key = "unknown" if ch.met is None else ("met" if ch.met else "violated")
            out[key].append(ch.constraint.describe() + (f": {ch.why}" if ch.why else ""))
        return out

    def rank(self, ids: list[str], records, contents: dict | None = None) -> list[str]:
        """``ids`` stably reordered by the number of violated constraints (fewest first)."""
        contents = contents or {}
        n = {v: self.violations(records[v], contents.get(v, "")) for v in ids}
        return sorted(ids, key=lambda v: n[v])

    def describe(self) -> list[str]:
        return [c.describe() for c in self.items]

    def known(self, records) -> "Constraints":
        """Without the inferred channels (a sentence's subject) that no corpus record's channel
        meets: "Old Mill opened …" names a place, "Summit Sundays filmed …" a channel."""
        records = list(records)
        return Constraints(tuple(c for c in self.items if not c.inferred
                                 or any(_check_channel(c, r, "").met for r in records)))

    def scoped(self, clause: str | None, clauses: list[str]) -> "Constraints":
        """For one target of a multi-video question (``clause``; None: before any target is
        aimed at): the constraints stated inside its own clause, and those stated inside no
        target's clause ("In Weekend Wanderer's videos of the two rinks, …" holds for both); a
        title stated in no clause that shares words with one target's clause only is that target's
        ("one video about the ferry and one about the lighthouse": the ferry's title is not the
        lighthouse entry's)."""
        def inside(c: Constraint, text: str) -> bool:
            return c.value.casefold() in text.casefold()

        def owner(c: Constraint) -> str | None:
            homes = [o for o in clauses if _words(c.value) & _words(o)] if c.kind in ("title", "quoted") else []
            return homes[0] if len(homes) == 1 else None

        return Constraints(tuple(c for c in self.items if (clause is not None and inside(c, clause))
                                 or (not any(inside(c, other) for other in clauses)
                                     and owner(c) in (None, clause))))


def _words(text: str) -> set[str]:
    return set(_ANALYZER.tokens(" ".join(w for w in tokens(text) if w not in STOPWORDS)))


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", (text or "").casefold())


def _check_channel(c: Constraint, rec, content: str) -> Check:
    if not rec.channel:
        return Check(c, None, "record has no channel")
    want, have = _squash(c.value), _squash(rec.channel)
    met = bool(want) and (want == have or (_words(c.value) and _words(c.value) <= _words(rec.channel)))
    return Check(c, met, "" if met else f"channel is {rec.channel!r}")


def _check_title(c: Constraint, rec, content: str) -> Check:
    want = _words(c.value)
    if not want:
        return Check(c, None, "no title words")
    share = len(want & _words(rec.title)) / len(want)
    return Check(c, share >= (1.0 if c.exact else TITLE_MET), f"{share:.0%} of the title words")


def _check_quoted(c: Constraint, rec, content: str) -> Check:
    text = " ".join(list(rec.search_text().values()) + [content])
    return Check(c, _squash(c.value) in _squash(text))


def _check_published(c: Constraint, rec, content: str) -> Check:
    published = getattr(rec, "published", "") or ""
    if not published:
        return Check(c, None, "record has no publication date")
    day = published[:10]
    met = (c.lo is None or day >= str(c.lo)) and (c.hi is None or day <= str(c.hi))
    return Check(c, met, f"published {day}")


def _check_duration(c: Constraint, rec, content: str) -> Check:
    if rec.duration is None:
        return Check(c, None, "record has no duration")
    met = (c.lo is None or rec.duration >= float(c.lo)) and (c.hi is None or rec.duration <= float(c.hi))
    return Check(c, met, f"{rec.duration:.0f} s")


def _check_genre(c: Constraint, rec, content: str) -> Check:
    text = " ".join([*rec.tags, getattr(rec, "genre", "") or ""]).casefold()
    if not text.strip():
        return Check(c, None, "record has no tags or genre")
    met = c.value.casefold() in text or any(w in text for w in GENRES.get(c.value, ()))
    return Check(c, met)


CHECKS = {"channel": _check_channel, "title": _check_title, "quoted": _check_quoted, "published": _check_published,
          "duration": _check_duration, "genre": _check_genre}


def _date_bounds(text: str, how: str) -> tuple[str | None, str | None] | None:
    """ISO bounds for a stated date: a year, a month or a day (read by dateparser)."""
    import calendar

    from ..errors import require

    dd = require("dateparser.date", "report").DateDataParser(languages=["en"]).get_date_data(text)
    if dd is None or dd.date_obj is None:
        return None
    d, period = dd.date_obj, dd.period or "day"
    if re.fullmatch(r"\s*\d{4}\s*", text):
        period = "year"
    if period == "year":
        lo, hi = date(d.year, 1, 1), date(d.year, 12, 31)
    elif period == "month":
        lo, hi = date(d.year, d.month, 1), date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])
    else:
        lo = hi = d.date()
    if how == "before":
        return None, (date.fromordinal(lo.toordinal() - 1)).isoformat()
    if how == "after":
        return (date.fromordinal(hi.toordinal() + 1)).isoformat(), None
    return lo.isoformat(), hi.isoformat()


def _clean_name(name: str) -> str:
    words = name.strip().split()
    while words and words[0].casefold() in STOPWORDS:  # "In Rossi Bakery" at a sentence start
        words = words[1:]
    name = re.sub(r"['’]s?$", "", " ".join(words))  # "Camp Kit Check's reviews": the possessive is not the name
    return re.sub(r"\s+(?:video|channel|clip)$", "", name, flags=re.I).strip(" .,'\"")


def parse(question: str) -> Constraints:
    """The constraints a question states (see the module docstring); none for a plain question."""
    items: list[Constraint] = []
    seen: set[tuple[str, str]] = set()

    def add(kind: str, value: str, phrase: str, lo=None, hi=None, exact: bool = False, inferred: bool = False) -> None:
        value = value.strip()
        if value and (kind, value.casefold()) not in seen:
            seen.add((kind, value.casefold()))
            items.append(Constraint(kind, value, phrase.strip(), lo, hi, exact, inferred))

    for pat in CHANNEL_PATTERNS:
        for m in re.finditer(pat, question):
            name = _clean_name(m.group("x") if "x" in m.groupdict() and m.group("x") else m.group(1))
            # "According to Brew History and Tram Tales": two channels, each one target's
            for part in re.split(r"\s+and\s+", name) if pat.startswith("(?i:according") else [name]:
                add("channel", part, m.group(0))
    for m in re.finditer(SUBJECT, question):  # a stated channel of the same name stays stated
        add("channel", _clean_name(m.group("x")), m.group(0), inferred=True)
    for pat in TITLE_PATTERNS:
        for m in re.finditer(pat, question):
            value = m.groupdict().get("x") or m.group(1)
            # "one video about the ferry and one about its lighthouse": two titles, one a video
            for part in re.split(rf"\s+and\s+(?:one|another|a\s+second)\s+(?:{_KIND}\s+)?(?:about|on)\s+", value or ""):
                if part and not any(part.strip().casefold() == v for k, v in seen if k == "title"):
                    add("title", part.strip(" '\""), m.group(0), exact=not m.groupdict().get("x"))
    titled = {c.value.casefold() for c in items}
    for m in re.finditer(_QUOTE, question):
        if m.group(1).casefold() not in titled:
            add("quoted", m.group(1), m.group(0))
    for pat, how in DATE_PATTERNS:
        for m in re.finditer(pat, question):
            bounds = _date_bounds(m.group("x"), how)
            if bounds:
                add("published", f"{how} {m.group('x')}", m.group(0), *bounds)
    for pat, how in DURATION_PATTERNS:
        for m in re.finditer(pat, question, flags=re.I):
            unit = re.sub(r"s$", "", m.group("u").lower())
            secs = float(m.group("n")) * _UNIT_SECONDS[unit]
            lo, hi = {"max": (None, secs), "min": (secs, None), "about": (secs * (1 - ABOUT), secs * (1 + ABOUT))}[how]
            add("duration", f"{how} {m.group('n')} {m.group('u')}", m.group(0), lo, hi)
    words = "|".join(sorted((re.escape(w) for ws in GENRES.values() for w in ws), key=len, reverse=True))
    for m in re.finditer(GENRE_PATTERN.format(words=words), question, flags=re.I):
        said = (m.group("x") or m.group("y")).lower()
        genre = next(g for g, ws in GENRES.items() if said in ws)
        add("genre", genre, m.group(0))
    return Constraints(tuple(items))
