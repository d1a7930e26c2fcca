"""The asked value, read from the selected videos' lines before a small model's answer is trusted.

A 0.5B Analyst reading a text-only timeline picks the wrong line (a remark next to the price),
drops a value's unit ("4,500" for "4,500 mAh") or trims a phrase to one word. What a question asks
for is usually a kind of value its asking sentence names: a price, a time of day, a duration, a
distance, a weight, a capacity, a temperature, a torque, a tempo, a score, a year, a count, how
often. ``asked`` reads the kinds from that sentence (registry ``KINDS``, most specific first);
``candidates`` finds every value of a kind the lines state (numbers with units read by
``vidsleuth.values`` through pint, prices by its ``read_money``; clock times, scores, tempos and
"every N days" by their shapes; "how many stalls": a number followed by the things); ``settle``
takes the one on the line sharing most words with the asking sentence, from the modality the
question names ("shown on screen", "says"), the model's own value breaking ties, and answers with
the whole phrase as stated, its unit or currency included. A line sharing nothing with the question is
taken only when it states the one value of the kind.

Two perception rules for prices, each recorded on the step: OCR reads a "€" or "£" glued to a
price as "E" or "f" ("E4.90", "f3.40"); a price shown without a currency takes the one currency
its own video states elsewhere (a unit price "9/kg" too). When no asked kind is stated, a caption
labelled with what the question asks answers ("Architect: Margit Olsen" for "which architect",
"Director: …" for "who directed": a derivation of the asked word; "Runtime: 9 h" for "what
runtime is shown"): typed text over a mis-heard name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from ..search.analysis import Analyzer
from .guards import STOPWORDS, tokens

_ANALYZER = Analyzer()

# (kind, cue in the asking sentence, dimensions of ``vidsleuth.values`` it accepts)
KINDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("clock", r"\b(?:at |by )?what time\b|\bwhen (?:does|do|did|will)\b[^?]*\b(?:depart|leave|open|close|start|begin|"
              r"arrive|finish)|\b(?:departure|arrival|opening|closing|starting|kick-?off) time\b", ()),
    ("score", r"\bscore(?:line)?\b|\bfinal result\b", ()),
    ("tempo", r"\btempo\b|\bmetronome\b|\bbpm\b|\bbeats per minute\b", ()),
    ("torque", r"\btorque\b", ("torque",)),
    ("money", r"\b(?:price[ds]?|cost|costs|fees?|fares?|pay|paid|spend|charges?|expensive|cheap(?:er|est)?)\b"
              r"|\bhow much (?:is|are|was|were|does|do|did)\b[^?]*\b(?:ticket|entry|admission)", ("money",)),
    ("frequency", r"\bhow (?:often|frequently)\b", ()),
    ("duration", r"\bhow long\b|\b(?:\w+ing|race|lap|finish|total|travel|journey|flight) time\b|\bduration\b"
                 r"|\bhow many (?:seconds|minutes|hours|days|weeks|months)\b", ("time",)),
    ("speed", r"\bhow fast\b|\bspeed\b", ("speed",)),
    ("length", r"\bhow (?:far|tall|high|deep|wide|long)\b|\b(?:distance|range|height|depth|width|length|elevation|"
               r"altitude|spacing|apart|diameter)\b", ("length",)),
    ("mass", r"\bweigh\w*|\bhow heavy\b|\bmass\b", ("mass",)),
    ("capacity", r"\bcapacity\b|\bvolume\b", ("volume", "charge", "energy")),
    ("temperature", r"\btemperature\b|\bhow (?:hot|warm|cold)\b|\bdegrees\b|\b(?:high|low)\b[^?]*\bforecast"
                    r"|\bforecast\b[^?]*\b(?:high|low)\b", ("temperature",)),
    ("power", r"\bpower\b|\bwattage\b", ("power",)),
    ("pressure", r"\bpressure\b", ("pressure",)),
    ("percent", r"\bpercent(?:age)?\b", ("ratio",)),
    ("year", r"\b(?:what|which) year\b|\bwhen (?:was|were|did)\b", ()),
    ("count", r"\bhow many\b", ()),
)
# "how long is the trail?" asks for a length; "how long is it cooked / does it take?" for a duration
_LENGTH_FIRST = re.compile(r"\bhow long (?:is|are|was|were)\b(?![^?]*\b(?:tak|took|last|cook|bak|wait|run|boil|simmer|"
                           r"rest|stay|play)\w*)", re.I)
_COUNTED = re.compile(r"\bhow many\s+((?:(?!(?:are|is|was|were|do|does|did|can|will|has|have|had)\b)[a-z-]+\s*){1,3})", re.I)
SCREEN = re.compile(r"\b(?:shown|shows?|on[\s-]screen|displayed|captions?|written|signs?|board|label(?:led)?)\b", re.I)
SPEECH = re.compile(r"\b(?:say|says|said|narrator|mentions?|tells?|told|suggests?|explains?|recommends?|hear|"
                    r"spoken|remarks?)\b", re.I)
_SHAPES = {  # kinds read by their written shape, on number-normalised text
    "clock": r"(?<![\d:.,])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:]|[.,]\d)(?:\s?(?:am|pm|a\.m\.|p\.m\.))?|"
             r"(?<![\d:.,])(?:1[0-2]|0?[1-9])\s?(?:am|pm|a\.m\.|p\.m\.)",
    "score": r"(?<![\d:.,])\d{1,2}\s?(?:-|–|to)\s?\d{1,2}(?![\d:%]|[.,]\d)",
    "tempo": r"(?<![\d.,])\d{2,3}\s?(?:bpm|beats (?:per|a) minute)\b",
    "frequency": r"\b(?:(?:once|twice|\d+ times)\s+(?:a|an|per|every|each)|every)\s+(?:\d+(?:\.\d+)?\s+)?"
                 r"(?:days?|weeks?|months?|hours?|minutes?|years?)\b",
    "year": r"(?<![\d:.,])(?:1[5-9]\d\d|20\d\d)(?![\d:]|[.,]\d)",
}
_COMPOUND = re.compile(r"(?<![\d.,])(?<!\d:)\d+\s?(?:hours?|hrs?|h)\s?(?:and\s)?\d{1,2}(?:\s?(?:minutes?|mins?|m)\b)?"
                       r"|(?<![\d:.,])\d{1,2}:[0-5]\d:[0-5]\d(?![\d:]|[.,]\d)", re.I)
_SYMBOLS = {"eur": "€", "gbp": "£", "usd": "$", "cny": "¥"}  # ``values.read_money``'s codes -> as shown
CODES = {"€": "EUR", "£": "GBP", "$": "USD", "¥": "CNY"}
# currencies named by a word that ``values.read_money`` does not read ("15 pesos each", "800 yen")
_PRICE_WORD = re.compile(r"(?<![\w.,])(?P<n>\d+(?:[.,]\d{1,2})?)\s?(?P<cur>pesos?|yen|rupees?|francs?|kronor|krona|kroner|"
                         r"krone|zloty|zlotys|forints?|baht|lira|lire|reais|ringgit|rupiah|dirhams?|shekels?|dinars?|"
                         r"roubles?|rubles?|koruna|lei)(?![a-z])", re.I)
_PRICE_OCR = re.compile(r"(?<![\w.])(?P<conf>[Eef])\s?(?P<n>\d+[.,]\d{2})(?![\d])")  # "E4.90", "f3.40"
_PER = r"\s?/\s?(?:kg|g|lb|l|ml)\b"  # a unit price ("32/kg")
_PRICE_BARE = re.compile(rf"(?<![\w.,:€£$¥-])(?P<n>\d+\.\d{{2}}|\d+(?={_PER}))(?P<per>{_PER})?(?![\d%:]|\s?(?:[a-z]|%))", re.I)
_OCR_SYMBOL = {"E": "€", "e": "€", "f": "£"}
_LABEL = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z' ]{1,30}?)\s*:\s*(?P<value>.{2,60}?)\s*$")


@dataclass(frozen=True)
class Line:
    """One line a text-only Analyst was shown: a speech sentence or an on-screen reading."""

    video: str
    kind: str  # speech | subtitle | ocr
    text: str


@dataclass(frozen=True)
class Found:
    text: str  # the answer phrase, as stated (number words as digits)
    line: Line
    number: str = ""  # the stated number, for agreement with the model's answer
    currency: str = ""  # prices: €, £ or $ ('' when the line shows none)
    note: str = ""  # a perception rule that fired


def video_lines(videos, selected) -> list[Line]:
    """Each selected video's on-screen readings (each once) and speech sentences, in time order."""
    out: list[Line] = []
    for vid in selected:
        seen: set[str] = set()
        for seg in videos.timeline(vid).segments:
            if seg.kind == "ocr" and seg.text not in seen:
                seen.add(seg.text)
                out.append(Line(vid, "ocr", seg.text))
            elif seg.kind in ("speech", "subtitle"):
                out += [Line(vid, seg.kind, s) for s in re.split(r"(?<=[.!?])\s+", seg.text) if s.strip()]
    return out


def asking_sentence(question: str) -> str:
    """The sentence that asks ("A vlogger says …. What price is shown?" -> the second)."""
    parts = [p for p in re.split(r"(?<=[.!?])\s+", question.strip()) if p.strip()]
    asking = [p for p in parts if p.rstrip().endswith("?")]
    return (asking or parts or [question])[-1]


def asked(question: str) -> list[str]:
    """The kinds of value the asking sentence asks for, most specific first."""
    ask = asking_sentence(question).lower()
    kinds = [kind for kind, cue, _dims in KINDS if re.search(cue, ask)]
    if "length" in kinds and "duration" in kinds and _LENGTH_FIRST.search(ask):
        kinds.remove("length")
        kinds.insert(kinds.index("duration"), "length")
    return kinds


def _terms(text: str) -> set[str]:
    return set(_ANALYZER.tokens(" ".join(w for w in tokens(text) if w not in STOPWORDS)))


def _normal(text: str) -> str:
    from ..values import normalise

    return normalise(text)


def _stated_prices(ln: Line, t: str) -> list[tuple[tuple[int, int], Found]]:
    """The prices a line states with their currency (``values.read_money``), as stated."""
    from ..values import read_money

    out = []
    for v in read_money(t, normalised=True):
        code = re.search(r"eur|gbp|usd|cny", v.unit)
        x = v.stated[0]
        number = f"{x:.2f}" if x != int(x) else f"{x:g}"
        shown = t[v.start:v.end].strip(" ,.;")
        if re.fullmatch(r"\d+\s\S+\s\d{2}", shown):  # "12 euros 50" as a recogniser writes a spoken price
            shown = f"{number} {shown.split()[1]}"
        out.append(((v.start, v.end), Found(shown, ln, number, _SYMBOLS[code.group()] if code else "")))
    return out


def _currencies(lines: list[Line]) -> set[str]:
    out = set()
    for ln in lines:
        out |= {f.currency for _, f in _stated_prices(ln, _normal(ln.text)) if f.currency}
        if ln.kind == "ocr":
            out |= {_OCR_SYMBOL[m.group("conf")] for m in _PRICE_OCR.finditer(ln.text)}
    return out


def prices(lines: list[Line]) -> list[Found]:
    """Every price the lines state, with its currency; a bare price ("Walnut loaf 6.80", "Aged
    gouda 32/kg") takes the one currency its video states elsewhere (see the module docstring)."""
    out: list[Found] = []
    by_video: dict[str, set[str]] = {}
    for ln in lines:
        t = _normal(ln.text)
        spans = _stated_prices(ln, t)
        if ln.kind == "ocr":
            for m in _PRICE_OCR.finditer(t):
                sym = _OCR_SYMBOL[m.group("conf")]
                spans.append((m.span(), Found(f"{sym}{m.group('n')}", ln, m.group("n"), sym,
                                              f"OCR's {m.group('conf')!r} before a price read as {sym!r}")))
        for m in _PRICE_WORD.finditer(t):
            if not any(a <= m.start() < b for (a, b), _ in spans):
                spans.append((m.span(), Found(f"{m.group('n')} {m.group('cur')}", ln, m.group("n").replace(",", "."))))
        for m in _PRICE_BARE.finditer(t):
            if not any(a <= m.start() < b for (a, b), _ in spans):
                if ln.video not in by_video:
                    by_video[ln.video] = _currencies([x for x in lines if x.video == ln.video])
                cur = by_video[ln.video]
                sym = next(iter(cur)) if len(cur) == 1 else ""
                note = f"a price shown without a currency took its video's {sym!r}" if sym else ""
                spans.append((m.span(), Found(f"{sym}{m.group('n')}{m.group('per') or ''}", ln, m.group("n"), sym,
                                              note)))
        out += [f for _, f in sorted(spans, key=lambda s: s[0])]
    return out


def durations(text: str) -> list[tuple[int, int, float]]:
    """(start, end, seconds) of each compound duration in number-normalised ``text`` ("2h40 min",
    "1 hour and 55 minutes", "1:08:42"): one value, where pint's reader sees two."""
    out = []
    for m in _COMPOUND.finditer(text):
        n = [int(x) for x in re.findall(r"\d+", m.group(0))]
        out.append((m.start(), m.end(), float(n[0] * 3600 + n[1] * 60 + (n[2] if len(n) > 2 else 0))))
    return out


def _measured(kind: str, dims: tuple[str, ...], line: Line) -> list[Found]:
    from ..values import read_values

    t = _normal(line.text)
    out = []
    if kind == "duration":
        out += [Found(m.group(0), line, re.sub(r"\D.*", "", m.group(0))) for m in _COMPOUND.finditer(t)]
    taken = [(t.find(f.text), t.find(f.text) + len(f.text)) for f in out]
    for v in read_values(t, normalised=True):
        if v.dimension not in dims or any(a <= v.start < b for a, b in taken):
            continue
        out.append(Found(t[v.start:v.end].strip(" ,.;"), line, f"{v.stated[0]:g}"))
    return out


def counted(question: str, lines: list[Line]) -> list[Found]:
    """For "how many <things> …": each number followed, within three words, by the things."""
    m = _COUNTED.search(asking_sentence(question))
    things = _terms(m.group(1)) if m else set()
    out = []
    for ln in lines if things else []:
        for n in re.finditer(r"(?<![\d:.,])\d+(?:[.,]\d+)?\+?(?P<rest>(?:\s+[\w-]+){1,3})", _normal(ln.text)):
            words = n.group("rest").split()
            hit = next((i for i, w in enumerate(words) if _terms(w) & things), None)
            if hit is not None:
                out.append(Found(n.group(0)[: n.start("rest") - n.start()] + " " + " ".join(words[: hit + 1]), ln,
                                 re.sub(r"\D.*", "", n.group(0))))
    return out


def candidates(kind: str, lines: list[Line], question: str = "") -> list[Found]:
    """Every value of ``kind`` the lines state, in line order."""
    if kind == "money":
        return prices(lines)
    if kind == "count":
        return counted(question, lines)
    dims = next(d for k, _c, d in KINDS if k == kind)
    out: list[Found] = []
    for ln in lines:
        if kind in _SHAPES:
            t = _normal(ln.text)
            out += [Found(m.group(0).strip(), ln, re.sub(r"\D.*", "", m.group(0)))
                    for m in re.finditer(_SHAPES[kind], t, flags=re.I)]
        if dims:
            out += _measured(kind, dims, ln)
    return out


def _modality(ask: str) -> set[str]:
    screen, speech = bool(SCREEN.search(ask)), bool(SPEECH.search(ask))
    if screen == speech:
        return set()
    return {"ocr"} if screen else {"speech", "subtitle"}


_ORDINAL = {w: i for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)}
_ORDINAL_ASKED = re.compile(rf"\b(?P<o>{'|'.join(_ORDINAL)}|(?P<n>\d{{1,2}})(?:st|nd|rd|th))\s+(?P<noun>[a-z]{{3,}})", re.I)


def _ordinal_fit(ask: str, line: str) -> float:
    """+1 for a line numbering the thing the question names by its ordinal ("the first stall" and
    "Stall 1"), -1 for one numbering another of them ("Stall 2"), 0 when the line numbers none."""
    score = 0.0
    for m in _ORDINAL_ASKED.finditer(ask):
        n = int(m.group("n")) if m.group("n") else _ORDINAL[m.group("o").lower()]
        said = re.search(rf"\b{re.escape(m.group('noun').rstrip('s'))}s?\s*(?:no\.?\s*|#\s*)?(\d{{1,2}})(?!\d)", line, re.I)
        if said:
            score += 1.0 if int(said.group(1)) == n else -1.0
    return score


def _best(found: list[Found], ask: str, answer: str | None) -> tuple[float, Found] | None:
    from .answers import value_tokens

    want, modality = _terms(ask), _modality(ask)
    said = set(value_tokens(answer)) if answer else set()
    best = None
    for i, f in enumerate(found):
        score = len(want & _terms(f.line.text)) + (1.0 if f.line.kind in modality else 0.0) + _ordinal_fit(ask, f.line.text)
        score += 0.5 if f.number and set(value_tokens(f.number)) <= said else 0.0
        score += 0.25 if f.currency or not f.number else 0.0  # a price with its currency over a bare one
        if best is None or score > best[0]:
            best = (score, f)
    # a line that shares nothing with the question is taken only when it states the one value of the kind
    return best if best and (best[0] >= 1.0 or len({f.text for f in found}) == 1) else None


DERIVED = 5  # letters two words must share as a prefix to be one word's derivation ("direct", "director")


def _names_asked(label: set[str], want: set[str]) -> bool:
    """Every label word is an asked word or a derivation of one (a caption "Director: …" for
    "who directed …", "Narrator: …" for "who narrates …")."""
    return bool(label) and all(any(a == w or (min(len(a), len(w)) >= DERIVED and (a.startswith(w) or w.startswith(a)))
                                   for w in want) for a in label)


def labelled(question: str, lines: list[Line]) -> Found | None:
    """A caption "Label: Value" whose label names what the asking sentence asks for."""
    want = _terms(asking_sentence(question))
    for ln in lines:
        m = _LABEL.match(ln.text) if ln.kind == "ocr" else None
        if m and _names_asked(_terms(m.group("label")), want) and not _terms(m.group("value")) <= want:
            return Found(m.group("value").strip(), ln)
    return None


def settle(question: str, answer: str | None, lines: list[Line]) -> tuple[str, str] | None:
    """(answer, note) read from ``lines`` for the kind of value the question asks, else from a
    caption labelled with what it asks ("Runtime: 9 h" for "what runtime is shown", typed
    text over a mis-heard name); None when neither is there."""
    ask = asking_sentence(question)
    for kind in asked(question):
        best = _best(candidates(kind, lines, question), ask, answer)
        if best is None:
            continue
        f = best[1]
        note = f"extract: the question asks for a {kind}; took {f.text!r} from the {f.line.kind} line {f.line.text!r}"
        return f.text, note + (f" ({f.note})" if f.note else "")
    f = labelled(question, lines)
    if f:
        return f.text, f"extract: a caption labelled with what the question asks: {f.line.text!r}"
    return None


# the asked kind -> the calculator's dimension (``calculator.Operation.dimension``)
DIMENSIONS = {"money": "money", "mass": "mass", "length": "length", "duration": "time", "temperature": "temperature",
              "year": "year", "speed": "speed"}


def dimension(question: str) -> str | None:
    """The calculator's dimension for the first asked kind that has one."""
    return next((DIMENSIONS[k] for k in asked(question) if k in DIMENSIONS), None)


def money(found: Found) -> tuple[Decimal, str]:
    """(amount, ISO code or '') of a price."""
    return Decimal(found.number.replace(",", ".")), CODES.get(found.currency, "")
