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
_ALTERNATIVES = (  # two named targets, in the order the question names them
    r"(?:^|[,:;]\s*|\b(?:which|who|what)\b[^,:;?]*?\b(?:is|was|are|were|has|had|did|does)\s+)"
    r"(?:the\s+)?(?P<a>[^,:;?]+?)\s*,?\s+or\s+(?:the\s+)?(?P<b>[^,:;?]+?)\s*\?",
    r"\bbetween\s+(?:the\s+)?(?P<a>[^,:;?]+?)\s+and\s+(?:the\s+)?(?P<b>[^,:;?]+?)\s*(?:[,:;?]|$)",
    r"\b(?:is|was|are|were|does|did)\s+(?:the\s+)?(?P<a>[^,:;?]+?)\s+(?:\w+er\s+|more\s+\w+\s+)?than\s+(?:the\s+)?"
    r"(?P<b>[^,:;?]+?)\s*\?",
    r"\bthan\s+(?:the\s+)?(?P<b>[^,:;?]+?)\s*,\s*(?:the\s+)?(?P<a>[^,:;?]+?)\s*\?",
    r"\b(?:both|of|for)\s+(?:the\s+)?(?P<a>[^,:;?]+?)\s+and\s+(?:the\s+)?(?P<b>[^,:;?]+?)\s+"
    r"(?:combined|together|in\s+total|altogether)\b",
)
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


def targets(question: str) -> tuple[Target, ...]:
    """The question's named targets (two or more), or () for a single-video question."""
    question = re.sub(rf",\s*({_ATTRIBUTION}\s+[^,?]+),", r" \1", question, flags=re.I)
    for pat in _ALTERNATIVES:
        m = re.search(pat, question, flags=re.I)
        if not m:
            continue
        clauses = [re.sub(r"^(?:the|a|an)\s+", "", m.group(g).strip(), flags=re.I) for g in ("a", "b")]
        phrases = [re.split(rf"\s+{_ATTRIBUTION}\s+", c, maxsplit=1, flags=re.I)[0] for c in clauses]
        # "the walnut loaf at Rossi Bakery": a place or time after the last target is shared context
        phrases[1] = re.split(r"\s+(?:at|in|on|from|for|during|according)\s+", phrases[1], maxsplit=1)[0]
        terms = [_terms(p) for p in phrases]
        shared = set(terms[0]) & set(terms[1])
        distinct = [tuple(t for t in ts if t not in shared) for ts in terms]
        if all(distinct):
            return tuple(Target(p, d, c) for p, d, c in zip(phrases, distinct, clauses))
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


def coverage(found: tuple[Target, ...], texts: dict[str, str]) -> dict[str, str | None]:
    """Per target phrase, the selected video that covers it (None when none does)."""
    out: dict[str, str | None] = {}
    for t in found:
        best, share = None, 0.0
        for vid, text in texts.items():
            have = set(_ANALYZER.tokens(text))
            s = sum(w in have for w in t.words) / len(t.words)
            if s >= COVER and s > share and vid not in out.values():
                best, share = vid, s
        out[t.phrase] = best
    return out


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


def decide(model_halt: bool, feedback: str, found: tuple[Target, ...], texts: dict[str, str]) -> Decision:
    """The final decision (see the module docstring)."""
    covered = coverage(found, texts)
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
