"""Answers as values: normalisation for grading, and the grounding guard for text-only models.

``value_tokens`` reads an answer the way a grader compares it: case, punctuation and spacing
ignored, number words as digits ("eighteen eighty seven" = 1887, "three to one" = 3-1), digits
split from units ("28°C" = "28 c"), unit spellings merged ("degrees" = "°C" = "c", "euros" =
"EUR", "kilograms" = "kg", "centimetres" = "cm", "p.m." = "pm").

``ground_answer`` is the Analyst's guard for text-only models, which see the video only as the
text perception read and heard. The seed asks for "your succinct, final answer"; a 0.5B model
often restates the question around the value, or answers with something that is in no line it
was shown. The guard keeps the words of the answer that occur in the evidence and not in the
question; when none do, it takes the value from the evidence line that matches the question best.
Either way the step records what fired.
"""

from __future__ import annotations

import re
import unicodedata

from .guards import STOPWORDS

_ONES = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                    "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i >= 2}
_SCALES = {"hundred": 100, "thousand": 1000}
UNITS = {
    "c": ("c", "°c", "°", "degree", "degrees", "celsius", "ºc"),
    "f": ("°f", "fahrenheit"),
    "eur": ("eur", "euro", "euros", "€"),
    "usd": ("usd", "dollar", "dollars", "$"),
    "min": ("min", "mins", "minute", "minutes"),
    "h": ("h", "hr", "hrs", "hour", "hours"),
    "s": ("sec", "secs", "second", "seconds"),
    "kg": ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"),
    "g": ("g", "gram", "grams"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
    "m": ("m", "meter", "meters", "metre", "metres"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "mm": ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
    "ml": ("ml", "milliliter", "milliliters", "millilitre", "millilitres"),
    "l": ("l", "liter", "liters", "litre", "litres"),
    "pm": ("pm", "p.m.", "p.m"),
    "am": ("am", "a.m.", "a.m"),
    "%": ("%", "percent", "per cent"),
}
_UNIT_OF = {spelling: unit for unit, spellings in UNITS.items() for spelling in spellings}


def _number_runs(words: list[str]) -> list[str]:
    """Replace runs of number words by digits; a run of two pairs is a year ("nineteen oh five")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] not in _ONES and words[i] not in _TENS:
            out.append(words[i])
            i += 1
            continue
        groups: list[int] = []
        cur, last = None, ""  # last: kind of the previous word (one, teen, ten, scale)
        while i < len(words):
            w = words[i]
            if w == "and" and cur is not None and last == "scale" and i + 1 < len(words) and (
                    words[i + 1] in _ONES or words[i + 1] in _TENS):
                i += 1
                continue
            if w == "oh" and cur is not None and 10 <= cur < 100 and last in ("teen", "ten") and i + 1 < len(words) \
                    and words[i + 1] in _ONES and _ONES[words[i + 1]] < 10:
                groups.append(cur)
                cur, last = 0, "oh"
                i += 1
                continue
            if w in _SCALES and cur is not None:
                cur, last = cur * _SCALES[w], "scale"
            elif w in _TENS:
                if cur is None or last == "scale":
                    cur = (cur or 0) + _TENS[w]
                else:
                    groups.append(cur)
                    cur = _TENS[w]
                last = "ten"
            elif w in _ONES:
                v = _ONES[w]
                kind = "teen" if v >= 10 else "one"
                if cur is None:
                    cur = v
                elif last in ("ten", "oh") and v < 10 or last == "scale":
                    cur += v
                else:
                    groups.append(cur)
                    cur = v
                last = kind
            else:
                break
            i += 1
        groups.append(cur)
        if len(groups) == 2 and 10 <= groups[0] < 100 and groups[1] < 100:
            out.append(str(groups[0] * 100 + groups[1]))  # "eighteen eighty seven", "nineteen oh five"
        else:
            out.extend(str(g) for g in groups)
    return out


def value_tokens(text: str | None) -> list[str]:
    """The tokens a grader compares (see the module docstring)."""
    if not text:
        return []
    t = unicodedata.normalize("NFKC", str(text)).lower()
    t = t.replace("p.m.", " pm ").replace("a.m.", " am ")
    t = re.sub(r"(\d),(\d{3})\b", r"\1\2", t)  # 1,200 -> 1200
    t = re.sub(r"(\d)\s*[-\u2013\u2014]\s*(?=\d)", r"\1 to ", t)  # "3-1" reads as "3 to 1" (joined again below)
    t = re.sub(r"(\d)\s*(°|º)\s*([cf])?\b", r"\1 °\3 ", t)
    t = re.sub(r"([€$])\s*(\d+(?:\.\d+)?)", r"\2 \1", t)  # €4 -> 4 €
    words = re.findall(r"\d+(?:\.\d+)?|°[cf]?|[€$%]|[^\W\d_]+|[^\x00-\x7f]", t)
    words = _number_runs(words)
    text2 = " ".join(words)
    text2 = re.sub(r"\b(\d+)\s+(?:to|-)\s+(\d+)\b", r"\1-\2", text2)  # "3 to 1" -> "3-1"
    raw = re.findall(r"\d+(?:\.\d+)?-\d+(?:\.\d+)?|\S+", text2)
    merged: list[str] = []  # letters spelled out one by one ("C T 47", "p m") are one word
    spelling = False
    for w in raw:
        single = len(w) == 1 and w.isascii() and w.isalpha()
        if single and spelling:
            merged[-1] += w
        else:
            merged.append(w)
            spelling = single
    return [_UNIT_OF.get(w, w) for w in merged]


def _hyphen_split(tokens: list[str]) -> list[str]:
    return [p for t in tokens for p in (t.split("-") if re.fullmatch(r"[\d.]+-[\d.]+", t) else [t])]


def _starts(seq: list[str], sub: list[str]) -> list[int]:
    """Where ``sub`` occurs in ``seq`` as a contiguous run."""
    n = len(sub)
    return [i for i in range(len(seq) - n + 1) if seq[i:i + n] == sub]


def _contains(seq: list[str], sub: list[str]) -> bool:
    return bool(_starts(seq, sub))


def matches(prediction: str | None, truth: str) -> bool:
    """The rule judge: the truth's value tokens occur in the prediction in order, contiguously
    ("The score was 3 to 1." matches "3-1"; "28 degrees" matches "28 °C"; "1.9" does not match
    "19"). For CJK text the comparison is by characters."""
    p, t = value_tokens(prediction), value_tokens(truth)
    if not t or not p:
        return False
    if any(ord(ch) > 0x2E80 for ch in "".join(t)):
        return "".join(t) in "".join(p)
    if _contains(p, t):
        return True
    # "3-1" against a prediction that says "3 1" (or the reverse): compare with hyphens split
    if any(ch.isdigit() for ch in "".join(t)) and _contains(_hyphen_split(p), _hyphen_split(t)):
        return True
    # a bare number for "30 minutes": the truth without its unit, and no other unit after it
    bare = [x for x in t if x not in UNITS]
    if bare != t and bare and any(ch.isdigit() for ch in "".join(bare)):
        for i in _starts(p, bare):
            after = p[i + len(bare)] if i + len(bare) < len(p) else ""
            if after not in UNITS or after in t:
                return True
    # words run together by OCR ("SILVERMOTH" for "Silver Moth"): letters-only truths of 6+ letters
    joined = "".join(t)
    if joined.isalpha() and len(joined) >= 6 and joined in "".join(p):
        return True
    return _same_quantity(prediction or "", truth)


def _same_quantity(prediction: str, truth: str) -> bool:
    """One measured quantity on each side, equal after unit conversion: "100 minutes" answers
    "1 hour and 40 minutes", "1.5 km" answers "1500 m" (the quantity layer, ``vidsleuth.values``).
    Counts and money are left to the token comparison (no unit to convert)."""
    from ..values import normalise, read_values

    said = [read_values(normalise(x), normalised=True) for x in (prediction, truth)]
    if any(len(v) != 1 for v in said):
        return False
    a, b = said[0][0], said[1][0]
    if a.form != "point" or b.form != "point" or a.dimension != b.dimension or ":" in a.dimension:
        return False
    return abs(a.lo - b.lo) <= 1e-3 * max(abs(b.lo), 1e-9)


def _either_or(q: list[str]) -> bool:
    """A choice between named alternatives ("Which …, A or B?"), not "simmer or rest"."""
    return "or" in q and any(w in q for w in ("which", "who", "whose", "whom"))


def _picks_an_alternative(answer: str, question: str) -> bool:
    """An "A or B?" question answered with one of its own alternatives ("Which costs more, the
    walnut loaf or the rye loaf?" -> "walnut"): the answer is rightly made of question words."""
    q = value_tokens(question)
    if not _either_or(q) or any(ch.isdigit() for ch in answer):
        return False
    a = [t for t in value_tokens(answer) if t not in STOPWORDS]
    return bool(a) and len(a) <= 4 and all(t in q for t in a)


def _alternative_named(answer: str, question: str) -> str:
    """For "…, the walnut loaf or the rye loaf?", the alternative an answer sentence names
    ("The walnut loaf costs 8 EUR" -> "walnut"); '' when it names none or both."""
    m = re.search(r"([^,;:?]+)\bor\b([^,;:?]+)", question, re.I)
    if not m or not _either_or(value_tokens(question)):
        return ""
    left = [t for t in value_tokens(m.group(1)) if t not in STOPWORDS]
    right = [t for t in value_tokens(m.group(2)) if t not in STOPWORDS]
    only_left = [t for t in left if t not in right and t not in UNITS]
    only_right = [t for t in right if t not in left and t not in UNITS]
    said = set(value_tokens(answer))
    picks = [side for side in (only_left, only_right) if side and any(t in said for t in side)]
    return " ".join(picks[0]) if len(picks) == 1 else ""


def _question_tokens(question: str) -> set[str]:
    return set(value_tokens(question)) | STOPWORDS


def ground_answer(answer: str | None, question: str, lines: list[str]) -> tuple[str | None, str]:
    """(answer, note): the answer's words that occur in the evidence and not in the question;
    else the value of the evidence line that best matches the question; note says what fired."""
    if not lines:
        return answer, ""
    evidence = set()
    for line in lines:
        evidence.update(value_tokens(line))
    qtok = _question_tokens(question)
    if answer and _picks_an_alternative(answer, question):
        return answer.strip().strip("."), ""
    chosen = _alternative_named(answer, question) if answer else ""
    if chosen:
        return chosen, f"guard: an either-or question; kept the alternative the answer names ({answer!r})"
    whole = _whole_name(answer, question, lines) if answer else ""
    if whole:
        return whole, ""
    if answer:
        kept = [g for run in _runs(answer, qtok) for g in [_grounded_part(run, evidence)] if g]
        if kept:
            trimmed = " ".join(kept)
            return (answer, "") if trimmed == answer.strip().strip(".") else (
                trimmed, f"guard: answer trimmed to its words found in the evidence ({answer!r})")
        near = _closest_evidence(answer, qtok, lines)
        if near:
            return near, f"guard: answer {answer!r} is not in the evidence; took its closest match there, {near!r}"
    span = best_span(question, lines)
    if span:
        why = "no answer" if not answer else f"answer {answer!r} is not in the evidence"
        return span, f"guard: {why}; took {span!r} from the evidence line that best matches the question"
    return answer, ""


SHORT = 4  # words: an answer this short that the evidence says word for word is a name or a value, kept whole


def _whole_name(answer: str, question: str, lines: list[str]) -> str:
    """A short answer the evidence states word for word, whose words shared with the question are
    capitalised there (part of a name: "Lake Bled", "Rossi Bakery", "Maple Street"), kept whole
    rather than trimmed to its last word; '' otherwise."""
    words = answer.strip().strip(".").split()
    while words and words[0].lower() in ("a", "an", "the"):
        words = words[1:]
    toks = value_tokens(" ".join(words))
    if not toks or len(words) > SHORT:
        return ""
    qtok = set(value_tokens(question))
    shared = [w for w in words if value_tokens(w) and all(t in qtok for t in value_tokens(w))]
    if len(shared) == len(words) or any(not w[:1].isupper() for w in shared):
        return ""
    if not any(_contains(value_tokens(line), toks) for line in lines):
        return ""
    return " ".join(w.strip(",;:!?\"'()[]") for w in words)


def _runs(text: str, qtok: set[str]) -> list[str]:
    """Maximal runs of words that are not question words, stop words trimmed from their ends
    ("was the Silver Moth" -> "Silver Moth"; "ended three to one" stays whole)."""
    runs, cur = [], []
    for w in text.split():
        toks = value_tokens(w)
        if toks and all(t in qtok - STOPWORDS for t in toks) and not all(t in UNITS for t in toks):
            runs.append(cur)  # a question word ends a run; a unit the question also names does not
            cur = []
        elif toks:
            cur.append(w.strip(".,;:!?\"'()[]"))
    runs.append(cur)
    out = []
    for run in runs:
        while run and all(t in STOPWORDS for t in value_tokens(run[0])):
            run = run[1:]
        while run and all(t in STOPWORDS for t in value_tokens(run[-1])):
            run = run[:-1]
        if run:
            out.append(" ".join(run))
    return out


NEAR = 0.75  # similarity (difflib ratio, letters and digits only) for a garbled answer to count as a line's words


def _closest_evidence(answer: str, qtok: set[str], lines: list[str]) -> str:
    """The stretch of evidence most like one of the answer's runs, compared on letters and digits
    only ("Silver Merth" and the OCR line "BESTLILYSILVERMOTH" -> "SILVERMOTH"), when it is at
    least ``NEAR`` alike; '' otherwise."""
    import difflib

    best, best_ratio = "", NEAR
    for run in _runs(answer, qtok):
        target = re.sub(r"[\W_]+", "", run).lower()
        if len(target) < 4:
            continue
        for line in lines:
            squashed = re.sub(r"[\W_]+", "", line)
            low = squashed.lower()
            for size in range(max(4, len(target) - 2), len(target) + 3):
                for i in range(0, max(1, len(low) - size + 1)):
                    piece = low[i:i + size]
                    r = difflib.SequenceMatcher(None, target, piece).ratio()
                    if r > best_ratio and not all(t in qtok for t in value_tokens(piece)):
                        best, best_ratio = squashed[i:i + size], r
    return best


def _is_value_word(word: str) -> bool:
    toks = value_tokens(word)
    return bool(toks) and all(any(ch.isdigit() for ch in t) or t in UNITS for t in toks)


def _value_part(run: str) -> str:
    """The number and its unit when the run states one ("begins at 8pm" -> "8pm"), else the run."""
    words = run.split()
    idx = [i for i, w in enumerate(words) if any(ch.isdigit() for ch in "".join(value_tokens(w)))]
    if not idx:
        return run
    end = idx[-1]
    while end + 1 < len(words) and _is_value_word(words[end + 1]):
        end += 1
    return " ".join(words[idx[0]: end + 1])


def _grounded_part(run: str, evidence: set[str]) -> str:
    """The longest stretch of the run whose value tokens all occur in the evidence, as a value."""
    words = run.split()
    for size in range(len(words), 0, -1):
        for i in range(len(words) - size + 1):
            part = " ".join(words[i:i + size])
            toks = value_tokens(part)
            if toks and all(t in evidence for t in toks) and not all(t in STOPWORDS for t in toks):
                return _value_part(part)
    return ""


def _sentences(line: str) -> list[str]:
    """A line cut into sentences ("… the market. Tickets cost …"): a span never crosses one."""
    return [x for x in re.split(r"(?<=[.!?;])\s+", line) if x.strip()]


def best_span(question: str, lines: list[str]) -> str:
    """From the sentence sharing the most question words, the longest run of words that are not
    in the question (one with a number first, then one with a name inside the sentence), inside
    one clause of that sentence: the value it states about the question, never a fragment that
    runs into the next sentence."""
    qtok = _question_tokens(question)
    content = qtok - STOPWORDS
    best: tuple = ()
    rank = 0
    for line in lines:
        for sentence in _sentences(line):
            rank += 1
            overlap = len(content & set(value_tokens(sentence)))
            if not overlap:
                continue
            for clause in re.split(r"[,:]\s+", sentence):
                for sp in _runs(clause, qtok):
                    digit = any(ch.isdigit() for ch in "".join(value_tokens(sp)))
                    name = any(w[:1].isupper() for w in sp.split()) and not sentence.startswith(sp)
                    key = (overlap, digit, name, len(sp.split()), len(sp), -rank)
                    if not best or key > best[0]:
                        best = (key, _value_part(sp))
    return best[1] if best else ""
