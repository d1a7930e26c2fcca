"""Stage 4: how an evidence excerpt relates to what the video states (seed 000 §2.1): supports,
contradicts, updates, explains, compares or applies.

``relate_rules`` is the embedded default, deterministic and measured (the demo prints its
accuracy on known truth): it compares the quantities and codes the two sides state.
- a comparison cue ("compared with", "than", "whereas", "versus") -> compares (a second value
  about another thing is not a contradiction);
- a value of the anchor's dimension equal to the video's (after unit conversion) -> supports;
- a different value: from a source dated after the video, or stated as a revision ("now",
  "revised", "updated", "superseded") -> updates; else contradicts;
- no comparable value: a how-to cue ("apply", "use the same", "for example") -> applies;
  otherwise explains — the label for "related, and nothing to compare" — when the excerpt gives
  a reason, a number of its own, or shares at least two subject words with the anchor; a pointer
  ("we cover the tyre pressure in another article", "see also") or a one-word mention is not
  evidence at all (``None``: the branch drops it and counts it).

``relate_model`` asks a configured endpoint with the excerpt and the video moment in front of it
(prompt ``report_relate.j2``); an unparseable answer falls back to the rules and says so.
"""

from __future__ import annotations

import re

from .facts import codes, quantities, subject_words
from .types import RELATIONS, Anchor

_COMPARE = re.compile(r"\b(compared (?:with|to)|by comparison|whereas|versus|vs\.?|unlike|in contrast|than)\b", re.I)
_UPDATE = re.compile(r"\b(now (?:recommend|recommends|specif|call|require)\w*|revised|updated?|supersed\w*|replaced by|"
                     r"no longer|new (?:guidance|standard|recommendation|specification)|as of)\b", re.I)
_EXPLAIN = re.compile(r"\b(because|since|so that|which is why|the reason|reasons?|matters?|important|helps?|causes?|"
                      r"prevents?|depends? on|affects?|sets? how|means?)\b", re.I)
_POINTER = re.compile(r"\b(in another (?:article|post|video|guide)|see (?:also|our|the)|we cover|covered (?:in|elsewhere)|"
                      r"read more|click here|subscribe|in a (?:later|future|separate) (?:article|post|video))\b", re.I)
_APPLY = re.compile(r"\b(appl(?:y|ies|ied)|use the same|the same (?:method|technique|approach|setting)|for example|"
                    r"in practice|works? (?:just )?as well|can be used)\b", re.I)

RELATE_SCHEMA = {
    "type": "object",
    "properties": {"relation": {"type": "string", "enum": list(RELATIONS)}, "rationale": {"type": "string"},
                   "confidence": {"type": "number", "minimum": 0, "maximum": 1}},
    "required": ["relation", "rationale", "confidence"],
}


def _anchor_text(anchor: Anchor) -> str:
    return " ".join([anchor.text] + [m.text for m in anchor.moments])


def relate_rules(anchor: Anchor, excerpt: str, source_date: str = "", video_date: str = "") -> tuple[str | None, str, float]:
    """(relation, rationale, confidence) from the values both sides state."""
    aq, eq = quantities(_anchor_text(anchor)), quantities(excerpt)
    pairs = [(a, e) for a in aq for e in eq if a.dimension == e.dimension]
    newer = bool(source_date and video_date and source_date[:10] > video_date[:10])
    if pairs and _COMPARE.search(excerpt):
        return "compares", "the excerpt sets the video's value beside another", 0.7
    if pairs:
        same = [(a, e) for a, e in pairs if a.same_as(e)]
        if same:
            a, e = same[0]
            return "supports", f"same value: video {a.label()}, source {e.label()}", 0.9
        a, e = pairs[0]
        if newer or _UPDATE.search(excerpt):
            why = f"source dated {source_date}, after the video ({video_date})" if newer else "stated as a revision"
            return "updates", f"different value: video {a.label()}, source {e.label()}; {why}", 0.8
        return "contradicts", f"different value: video {a.label()}, source {e.label()}", 0.85
    ac, ec = set(codes(_anchor_text(anchor))), set(codes(excerpt))
    if ac and ec:
        if ec - ac and (newer or _UPDATE.search(excerpt)):  # "FX-2041 is superseded by FX-2050"
            return "updates", f"another code ({', '.join(sorted(ec - ac))}) in a newer or revising source", 0.7
        if ac & ec:
            return "supports", f"same code: {', '.join(sorted(ac & ec))}", 0.85
        return "contradicts", f"another code: video {', '.join(sorted(ac))}, source {', '.join(sorted(ec))}", 0.7
    if _COMPARE.search(excerpt):
        return "compares", "the excerpt compares the subject with something else", 0.55
    if aq and eq:
        return None, "states values of another kind than the video's: about something else", 0.0
    if _APPLY.search(excerpt):
        return "applies", "the excerpt applies the video's subject elsewhere", 0.55
    if _POINTER.search(excerpt):
        return None, "points to other content: not evidence itself", 0.0
    if _EXPLAIN.search(excerpt) or eq:
        return "explains", "related background; no value to compare", 0.4
    if len(subject_words(_anchor_text(anchor)) & subject_words(excerpt)) >= 2:
        return "explains", "about the same subject; no value to compare", 0.35
    return None, "only mentions the subject: nothing to relate", 0.0


def relate_model(model, anchor: Anchor, excerpt: str, source_title: str, source_date: str, video_date: str,
                 max_tokens: int = 200) -> tuple[str, str, float]:
    """The endpoint decides; its reply is schema-checked (one repair attempt), else the rules decide."""
    from ..errors import ModelOutputError
    from ..prompts import render
    from ..timecode import clock

    moments = "; ".join(f"{clock(m.start)} ({m.kind}) \"{m.text}\"" for m in anchor.moments)
    prompt = render("report_relate.j2", anchor=anchor.text, moments=moments, excerpt=excerpt, title=source_title,
                    date=source_date or "undated", video_date=video_date or "unknown", relations=", ".join(RELATIONS))
    try:
        reply = model.chat(prompt, schema=RELATE_SCHEMA, max_tokens=max_tokens)
    except ModelOutputError:
        rel, why, conf = relate_rules(anchor, excerpt, source_date, video_date)
        return rel, f"model reply unusable; rules: {why}", conf
    d = reply.data
    return d["relation"], str(d["rationale"])[:400], float(d["confidence"])
