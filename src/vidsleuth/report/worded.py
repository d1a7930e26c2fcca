"""Relations a sentence states in words, where it gives no value the video's can be compared with: a product
code, a question, a pointer, a comparison, an application, a reason, a step of a procedure (``relate`` decides
from the values first)."""

from __future__ import annotations

import re

from ..numwords import normalise
from .cues import APPLY, BECAUSE, EXPLAIN, POINTER, QUESTION, compares, is_step
from .facts import Statement, codes, said_stems, stem

_NOT_VERBS = frozenset("the a an your you it its this that these so now then first next and but or if for i we my our "
                       "about once when after before at in on to just also".split())


def _doing(text: str) -> set[str]:
    """What the video tells the viewer to do, as stems: the verb an instruction opens with ("Rest the brisket…": rest)."""
    words = re.findall(r"[a-z]+", normalise(text).lower())
    verb = next((w for w in words if w not in _NOT_VERBS), "")
    return {stem(verb)} if verb and not re.search(r"(?:s|ed)$", verb) else set()



def worded(text: str, st: Statement, norm: str, later: str, valued: bool) -> tuple[str | None, str, float]:
    """(relation, rationale, confidence) of the excerpt ``st`` (``norm`` normalised) for the anchor said as
    ``text``, when no value decided it; ``later``: why it is a revision, if it is; ``valued``: the anchor states a value."""
    ac, ec = set(codes(text)), set(st.codes)
    if ac and ec:
        if ec - ac and later:  # "FX-2041 is superseded by FX-2050"
            return "updates", f"another code ({', '.join(sorted(ec - ac))}); {later}", 0.7
        if ac & ec:
            return "supports", f"same code: {', '.join(sorted(ac & ec))}", 0.85
        return "contradicts", f"another code: video {', '.join(sorted(ac))}, source {', '.join(sorted(ec))}", 0.7
    if valued and st.readings:
        return None, "states values of another kind than the video's: about something else", 0.0
    if QUESTION.search(norm):
        return None, "asks a question: no stance", 0.0
    if POINTER.search(norm):
        return None, "points to other content: not evidence itself", 0.0
    if compares(norm) and not BECAUSE.search(norm):  # a comparison inside a reason is the reason's
        if valued:  # the contract's compares sets another value beside the video's: words alone set none
            return None, "compares in words, with no value beside the video's: no stance", 0.0
        return "compares", "compares the subject with something else", 0.55
    if APPLY.search(norm):
        return "applies", "applies the video's subject elsewhere", 0.55
    if EXPLAIN.search(norm):  # a bare figure of its own ("30-day returns.") is no reason
        return "explains", "gives background (a reason); no value to compare", 0.4
    if is_step(norm):  # "Look up the resting time for your cut" carries out the video's "Rest the brisket for 45 minutes"
        if _doing(text) & said_stems(norm):
            return "applies", "a step of a procedure that does what the video tells", 0.3  # a reason (0.4) outranks it
        return None, "a step of a procedure for another action than the video's: no stance", 0.0  # "Use the lumbar support"
    return None, "only mentions the subject: no stance", 0.0
