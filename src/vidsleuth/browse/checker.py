"""The Checker's decision, structured (seed 001 §4, Level 3 questions need more than one video).

``targets`` reads the named things a question compares or combines ("Which is lighter, the red
kayak or the blue kayak?", "How many years passed between the completion of A and of B?"): each
is a ``Target`` with its distinctive words (the words no other target shares). ``decide`` takes
the model's HALT/CONTINUE and says what the question needs, what the selected videos cover, and
the final decision: HALT only when every target has a selected video, and then HALT whatever
the model says (a further loop could only add a same-topic distractor); for a single-video
question a HALT whose own feedback says evidence is missing ("does not provide enough
information to determine …") becomes CONTINUE. Every override is a guard the step records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..search.analysis import Analyzer
from .guards import STOPWORDS, tokens

_ANALYZER = Analyzer()
_T = r"(?:the\s+)?(?P<%s>[^,:;?]+?)"  # one target's words (after an optional article)
_A, _B = _T % "a", _T % "b"
_END = r"\s*(?:[,:;?]|$)"
# a verb after a target's name ("after the bridge opened did …", "was the tower built?"), not part of it
_VERB = (r"(?:\w+ed|built|begun|began|won|held|made|ran|run|rose|set|took\s+place|open|opens|close|start|begin|finish|"
         r"end|win|happen|appear|arrive|launch|form|debut|cost|costs|weigh|weighs|take|takes|last|lasts|measure|measures|"
         r"hold|holds|seat|seats|reach|reaches|climb|climbs|cover|covers|span|spans|add|make|have|has|contain|contains|offer|"
         r"offers|sell|sells)")
_ALTERNATIVES = (  # two named targets, in the order the question names them
    rf"(?:^|[,:;]\s*|\b(?:which|who|what)\b[^,:;?]*?\b(?:is|was|are|were|has|had|did|does)\s+){_A}\s*,?\s+or\s+{_B}\s*\?",
    rf"\bbetween\s+{_A}\s+and\s+{_B}{_END}",
    rf"\b(?:is|was|are|were|does|did)\s+{_A}\s+(?:\w+er\s+|(?:more|less)\s+\w+\s+|{_VERB}\s+(?:\w+\s+)?)?than\s+{_B}\s*\?",
    rf"\bthan\s+{_B}\s*,\s*{_A}\s*\?",
    rf"\b(?:both|of|for)\s+{_A}\s+and\s+{_B}\s+(?:combined|together|in\s+total|altogether)\b",
    # "How many years after the A opened did the B open?", "… before A was B built?"
    rf"\bhow\s+(?:many\s+\w+|much\s+(?:\w+\s+)?|long)\s*(?:after|before|later\s+than|earlier\s+than)\s+{_A}"
    rf"\s+(?:{_VERB}\s+)?(?:did|was|were|does|do|is|are|had|has|would)\s+{_B}(?:\s+{_VERB})?\s*\?",
    rf"\bseparate[sd]?\s+{_A}\s+and\s+{_B}{_END}",  # "How many years separate A and B?"
    rf"^(?:of|between)\s+{_A}\s+and\s+{_B}\s*,\s*(?:which|who|what)\b",  # "Of A and B, which …?"
    rf"\b(?:do|did|does|would|will)\s+{_A}\s+and\s+{_B}\s+(?:{_VERB}\s+)?(?:combined|together|in\s+total|altogether)\b",
    rf"\b(?:which|who)\s+(?:one\s+)?of\s+(?:the\s+two|these|them|both)\s*,\s*{_A}\s*,?\s+or\s+{_B}\s*,",  # "Which of the two, A or B, …"
    rf"\b(?:does|did|is|was)\s+{_A}\s+(?:predate|postdate|precede|follow|outlast|outweigh|outsell)s?\s+{_B}{_END}",
    rf"\b(?:does|did|is|was)\s+{_A}\s+(?:{_VERB}\s+)?compared\s+(?:with|to)\s+{_B}{_END}",
)
# looser readings, taken only when the question asks to combine or separate two values
_GATED = (
    rf"\bboth\s+{_A}\s+and\s+{_B}{_END}",  # "… in total if you climbed both the A and the B?"
    rf"\b(?:of|for)\s+{_A}\s+and\s+{_B}{_END}",  # "the combined length of A and B?", "years apart … of A and B?"
    rf"\b(?:do|did|does|would|will|were|are|was|is)\s+{_A}\s+and\s+{_B}(?:\s+{_VERB})?\s*\?",  # "Together, how much do A and B weigh?"
    rf",\s*(?!(?:how|what|which|who|when|where)\b){_A}\s+and\s+{_B}\s*\?",  # "What is the sum of the two prices, A and B?"
)
_AGGREGATE = re.compile(r"\b(?:combined|together|in\s+total|total|altogether|sum|add\s+up|difference|gap|apart|"
                        r"separate[sd]?)\b", re.I)
MISSING = re.compile(
    r"\b(?:not\s+enough|insufficient|missing|lack(?:s|ing)?|no\s+(?:information|evidence|data|video|mention)|"
    r"(?:does|do|did)\s*(?:not|n't)\s+(?:provide|show|contain|include|mention|give|say|cover|specify)|"
    r"cannot\s+(?:be\s+)?(?:determine|determined|answer|tell|confirm)|can't|unable|unclear|not\s+(?:yet\s+)?(?:found|known|"
    r"available|clear|specified|mentioned)|still\s+need|need(?:s|ed)?\s+(?:more|another|the\s+other|to\s+find)|only\s+one)\b",
    re.I)
COVER = 0.5  # share of a target's distinctive words a selected video must hold to cover it


# "…, as told by Market Stories, …": who tells of a target, part of its clause, not a new clause
_ATTRIBUTION = (r"(?:as\s+(?:told|shown|explained|described|narrated|seen)\s+(?:by|in|on)|according\s+to|"
                r"(?:reviewed|tested|presented|hosted|filmed)\s+by)")


@dataclass(frozen=True)
class Target:
    phrase: str
    words: tuple[str, ...]  # analysed (stemmed) distinctive words
    clause: str = ""  # the whole clause naming it ("the Kestrel SL in Climb Lab's first-ride video")


def _terms(text: str) -> list[str]:
    return list(dict.fromkeys(_ANALYZER.tokens(" ".join(w for w in tokens(text) if w not in STOPWORDS))))


_ITEM = r"(?:the\s+(?!(?:two|three|four|both|following|other)\b)|(?-i:[A-Z0-9]))[^,:;?]+?"  # "the …" or a name
# three or more named targets: "Which is the lightest: the A, the B or the C?", "of the A, the B and the C"
_LIST = (rf"(?:[:,]\s*|\bof\s+)(?P<list>{_ITEM}(?:\s*,\s*{_ITEM})+\s*,?\s+(?:or|and)\s+{_ITEM})"
         rf"(?:\s+(?:is|was|are|were|has|had|does|did)\b[^,:;?]*)?\s*\?")


_DETERMINER = r"^(?:the|a|an|their|its|his|her|our|my|your)\s+"


def _named(clauses: list[str], phrases: list[str] | None = None) -> tuple[Target, ...]:
    """Targets from their clauses (and phrases, when read apart from them): each keeps the words
    no other target's phrase holds."""
    clauses = [re.sub(_DETERMINER, "", c.strip(), flags=re.I) for c in clauses]
    if phrases is None:
        phrases = [re.split(rf"\s+{_ATTRIBUTION}\s+", c, maxsplit=1, flags=re.I)[0] for c in clauses]
        # "the walnut loaf at Rossi Bakery": a place or time after the last target is shared context
        phrases[-1] = re.split(r"\s+(?:at|in|on|from|for|during|according)\s+", phrases[-1], maxsplit=1)[0]
    phrases = [re.sub(_DETERMINER, "", p.strip(), flags=re.I) for p in phrases]
    terms = [_terms(p) for p in phrases]
    shared = {t for i, ts in enumerate(terms) for t in ts if any(t in o for j, o in enumerate(terms) if j != i)}
    distinct = [tuple(t for t in ts if t not in shared) for ts in terms]
    return tuple(Target(p, d, c) for p, d, c in zip(phrases, distinct, clauses)) if all(distinct) else ()


# ", by their figures?", ", going by the videos?": whose figures, said after the question's last target
_QUALIFIER = re.compile(r",\s*(?:by|according\s+to|going\s+by|judging\s+by|based\s+on|from|in|on|as)\s+[^,?]*\?\s*$",
                        re.I)


def targets(question: str) -> tuple[Target, ...]:
    """The question's named targets (two or more), or () for a single-video question; a question
    whose asking sentence names none ("Going by those two videos, which tent is lighter?") takes
    them from the sentence before it (``context_targets``)."""
    return _asked_targets(question) or context_targets(question)


def _asked_targets(question: str) -> tuple[Target, ...]:
    from .calculator import operation

    question = re.sub(rf",\s*({_ATTRIBUTION}\s+[^,?]+),", r" \1", question, flags=re.I)
    if operation(question) is not None:  # whose figures a comparison or a sum goes by
        question = _QUALIFIER.sub("?", question)
    m = re.search(_LIST, question, flags=re.I)
    if m:
        found = _named(re.split(r"\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+", m.group("list")))
        if len(found) >= 3:
            return found
    gated = _GATED if _AGGREGATE.search(question) else ()
    for pat in _ALTERNATIVES + gated:
        m = re.search(pat, question, flags=re.I)
        found = _named([m.group("a"), m.group("b")]) if m else ()
        if found:
            return found
    return ()


def _item(part: str) -> str:
    """What a context clause names: "Ounce Counters weighed the Ridgeline UL2, both …" -> the
    Ridgeline UL2 (its subject and verb, and what follows a comma, are not the item)."""
    from .constraints import SUBJECT

    part = re.sub(SUBJECT, "", part.strip(), count=1).strip()
    part = re.sub(r"^(?:one|another|a)\s+(?:video|clip|vlog|episode)?\s*(?:about|on|of)\s+", "", part, flags=re.I)
    if not re.match(r"(?:the\s|(?-i:[A-Z0-9]))", part, flags=re.I):  # "had to walk down …": no item named
        return ""
    return re.split(r"\s*[,;:]", part, maxsplit=1)[0]


def context_targets(question: str) -> tuple[Target, ...]:
    """Two targets named by a sentence before the asking one ("Trailhead Gear Lab weighed the
    Pika 2 tent and Ounce Counters weighed the Ridgeline UL2. … which tent is lighter?"), when
    the asking sentence compares or combines values (``calculator.operation``); each clause (with
    its subject, whose channel it is) is its target's."""
    from .calculator import operation

    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", question.strip())
    op = operation(sentences[-1]) if len(sentences) > 1 else None
    # a comparison is of two things only when the question asks which ("the first stop" is no contest)
    if op is None or (op.kind == "compare" and not re.search(r"\b(?:which|who)\b", sentences[-1], re.I)):
        return ()
    for sentence in reversed(sentences[:-1]):
        parts = re.split(r"\s+and\s+", sentence.rstrip(".!? "))
        if len(parts) != 2:
            continue
        found = _named(parts, [_item(p) for p in parts])
        if found and all(t.phrase for t in found):
            return found
    return ()


def context_words(question: str, found: tuple[Target, ...]) -> str:
    """The question's content words that belong to no target (what the targets share)."""
    own = {w for t in found for w in t.words}
    words = [w for w in tokens(question) if w not in STOPWORDS and not set(_ANALYZER.tokens(w)) & own]
    return " ".join(dict.fromkeys(words))


def focus(question: str, target: Target, found: tuple[Target, ...]) -> str:
    """A search and screening text for one target: its phrase and the question's shared words."""
    phrase = set(tokens(target.phrase))
    return " ".join([target.phrase] + [w for w in context_words(question, found).split() if w not in phrase])


def coverage(found: tuple[Target, ...], texts: dict[str, str], titles: dict[str, str] | None = None,
             question: str = "", violations: dict | None = None) -> dict[str, str | None]:
    """Per target phrase, the selected video that covers it (None when none does): one video per
    target, the assignment covering most targets, then fewest constraints violated (``violations``:
    (phrase, video) -> the number of the target's stated constraints the video violates; another
    channel's video of the same thing does not cover it when the stated channel's does), then most
    targets named by the video's title (``title_fit``), then most of their words (a video that
    mentions the other target in passing does not take that target's place)."""
    from itertools import permutations

    share = {(t.phrase, vid): sum(w in have for w in t.words) / len(t.words)
             for vid, text in texts.items() for have in [set(_ANALYZER.tokens(text))] for t in found}
    slots = list(texts) + [None] * len(found)
    best: tuple = ((-1, -1e9, -1, -1.0), {})
    for pick in permutations(slots, len(found)):
        out = {t.phrase: (v if v is not None and share[(t.phrase, v)] >= COVER else None) for t, v in zip(found, pick)}
        named = sum(title_fit(t, (titles or {}).get(v, ""), question) != UNNAMED for t, v in zip(found, pick) if out[t.phrase])
        bad = sum((violations or {}).get((p, v), 0) for p, v in out.items() if v is not None)
        key = (sum(v is not None for v in out.values()), -bad, named,
               sum(share[(p, v)] for p, v in out.items() if v is not None))
        if key > best[0]:
            best = (key, out)
    return best[1] if found else {}


EXACT, VARIANT, UNNAMED = 0, 1, 2  # how a candidate's title names a target
_EVENT = re.compile(r"^\w+(?:ing|ion|ment|al)\s+of\s+(?:the\s+)?", re.I)  # "the opening of", "completion of"
# words a title puts beside a name to say what the video is, not which item it is
_VIDEO_WORDS = frozenset(_ANALYZER.tokens("review reviews tour test tested guide video vlog history story visit look "
                                          "unboxing demo tutorial trip ride walk first hands explained"))


def title_fit(target: Target, title: str, question: str) -> int:
    """EXACT when the title holds the target's words as one run (stop words inside it allowed)
    with no word beside it that the question never says; VARIANT when such a word stands beside
    the run ("Ridgeback XL" for "the Ridgeback", "Tram Extension" for "the tram": another item of
    the same name); UNNAMED when the title does not hold every distinctive word."""
    phrase = set(_terms(target.phrase))
    need = set(target.words) & set(_terms(_EVENT.sub("", target.phrase))) or set(target.words)
    asked = set(_terms(question)) | _VIDEO_WORDS
    best = UNNAMED
    for part in re.split(r"\s[-–—|/]\s|[:;,()\[\]!?]", title):  # a run ends where the title's punctuation does
        stems = [(_ANALYZER.tokens(w) or [""])[0] if w not in STOPWORDS else "" for w in tokens(part)]
        for i, st in enumerate(stems):
            if st not in phrase or (i and stems[i - 1] in phrase):
                continue  # a run starts at a phrase word that does not follow another
            j = i
            while j + 1 < len(stems) and (stems[j + 1] in phrase or (not stems[j + 1] and j + 2 < len(stems)
                                                                     and stems[j + 2] in phrase)):
                j += 1
            if not need <= set(stems[i:j + 1]):
                continue
            beside = [stems[k] for k in (i - 1, j + 1) if 0 <= k < len(stems)]
            best = min(best, VARIANT if any(b and b not in asked for b in beside) else EXACT)
    return best


def named_first(target: Target | None, titles: dict[str, str], question: str) -> tuple[list[str], str]:
    """``titles``' ids (in their order) with the first one whose title names ``target`` exactly
    moved before every candidate whose title names a variant of it, and the note saying so;
    unchanged when no title names it exactly or no variant comes before it."""
    ids = list(titles)
    if target is None:
        return ids, ""
    fit = {v: title_fit(target, t, question) for v, t in titles.items()}
    exact = [v for v in ids if fit[v] == EXACT]
    variants = [v for v in ids if fit[v] == VARIANT and exact and ids.index(v) < ids.index(exact[0])]
    if not variants:
        return ids, ""
    out = [v for v in ids if v != exact[0]]
    out.insert(out.index(variants[0]), exact[0])  # it takes the place of the first variant before it
    return out, (f"named target: {', '.join(variants)} name(s) a variant of {target.phrase!r} in the title; "
                 f"{exact[0]} names it exactly and goes first")


@dataclass(frozen=True)
class Decision:
    halt: bool
    feedback: str
    needs: tuple[str, ...]
    covered: dict
    note: str = ""  # the override, when one fired

    def to_dict(self, model: dict | None) -> dict:
        return {"model": model, "needs": list(self.needs), "covered": self.covered,
                "decision": "HALT" if self.halt else "CONTINUE", "feedback": self.feedback}


def decide(model_halt: bool, feedback: str, found: tuple[Target, ...], texts: dict[str, str],
           titles: dict[str, str] | None = None, question: str = "", violations: dict | None = None) -> Decision:
    """The final decision (see the module docstring); ``titles`` and ``question`` let a title that
    names a target settle which video covers it, ``violations`` a stated channel (``coverage``)."""
    covered = coverage(found, texts, titles, question, violations)
    missing = [p for p, v in covered.items() if v is None]
    needs = tuple(t.phrase for t in found)
    if not texts:
        return Decision(False, "no video has been selected yet: search for the question's subject", needs, covered,
                        "guard: HALT with no video selected: CONTINUE" if model_halt else "")
    if missing:
        note = f"guard: HALT but no selected video covers {missing[0]!r}: CONTINUE" if model_halt else ""
        return Decision(False, f"no selected video covers {missing[0]!r} yet: search for it", needs, covered, note)
    if found:  # every named target has its own selected video: what a further loop could add is a distractor
        note = "" if model_halt else "guard: CONTINUE but every target is covered by a selected video: HALT"
        if model_halt and feedback and MISSING.search(feedback):
            note = "guard: HALT kept although its feedback says evidence is missing: every target is covered"
        return Decision(True, "", needs, covered, note)
    if model_halt and feedback and MISSING.search(feedback):
        return Decision(False, feedback, needs, covered,
                        f"guard: HALT whose own feedback says evidence is missing ({feedback[:80]!r}): CONTINUE")
    return Decision(model_halt, "" if model_halt else feedback, needs, covered)
