"""The ``relations`` check: the evidence records of a vidsleuth report must hold together.

- one source may not both support and contradict (or update) one anchor;
- every cited excerpt must be about the anchor's subject (it shares a thing-word with the anchor,
  in the excerpt or in its source's title: ``facts.objects``) and state a value of the anchor's
  kind, or — for a relation that compares no value — a stated cue for its relation (a reason, a
  comparison, an application, a revision);
- an anchor whose sources disagree (one supports, another contradicts or updates) must say so: its
  verdict is "disputed" or "newer guidance", and the page's verdict line for it says the same.

It reads the records of ``report.json`` (a page from another tool has none: nothing to check) and
is registered in ``report.check.CHECKS`` by one line there; it imports nothing of check.py.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..values import kinds_in, normalise
from .cues import APPLY, COMPARE, EXPLAIN, REVISION, explanation_page, is_step
from .facts import objects, quantities, statement, subject_words
from .relate import anchor_text
from .types import Context, Failure

_CUES = {"explains": EXPLAIN, "compares": COMPARE, "applies": APPLY, "updates": REVISION}
_VALUE_RELATIONS = ("supports", "contradicts", "updates", "compares")


def states_cue(relation: str, excerpt: str) -> bool:
    """The excerpt states the cue of its relation, as the relater reads one: a step of a procedure
    ("Rinse the tank and run one full tank through") is an application of the video's method."""
    if _CUES[relation].search(excerpt):
        return True
    return relation == "applies" and is_step(normalise(excerpt))


def _things(anchor) -> set[str]:
    """The anchor's thing-words (stems) from its text, moments and subject; its subject words where it names no thing."""
    words = subject_words(anchor_text(anchor)) | subject_words(anchor.subject)
    return objects(words) or words


def _about(anchor, excerpt: str, context: str, title: str, topic: set[str]) -> bool:
    """As the branches link: a thing-word of the anchor in the excerpt or its title, or the video's
    topic there together with a value of the anchor's kind."""
    things = _things(anchor)
    said = set(statement(excerpt, context).words) | subject_words(context) | subject_words(title)
    return bool(things & said) or bool(topic & said and _states_kind(anchor, excerpt, context))


def _said_as(anchor) -> str:
    """The anchor's subject words as written (the check compares stems: "feeds" meets "feeding")."""
    things = _things(anchor)
    text = f"{anchor_text(anchor)} {anchor.subject}"
    shown = dict.fromkeys(w for w in re.findall(r"[\w'-]+", text) if subject_words(w) & things)
    return ", ".join(list(shown)[:8]) or "none"


def _states_kind(anchor, excerpt: str, context: str) -> bool:
    return bool(kinds_in(quantities(anchor_text(anchor))) & kinds_in(r.value for r in statement(excerpt, context).readings))


def _states_value(anchor, excerpt: str, context: str) -> bool:
    """The excerpt states the anchor's own value (as the branches link it: agreeing by value is
    evidence of the same subject, "Energy 1,880 kJ / 450 kcal" under a per-portion heading)."""
    mine = quantities(anchor_text(anchor))
    return any(a.same_as(r.value) for a in mine for r in statement(excerpt, context).readings)


def _excerpt_problem(anchor, ev, src, topic: set[str]) -> str:
    title = f"{src.title if src else ''} {getattr(ev, 'heading', '')}"  # the page and the section it is in, as the branches read
    if not _about(anchor, ev.excerpt, ev.context, title, topic) and not (
            ev.relation == "supports" and _states_value(anchor, ev.excerpt, ev.context)):
        return (f"evidence {ev.id} ({ev.relation}) is not about “{anchor.heading or anchor.subject}”: "
                f"its excerpt, page title and section share none of the anchor's subject words ({_said_as(anchor)}); "
                f"cite a sentence that names the subject, or add the page's word for it to the anchor's subject")
    has_values = bool(quantities(anchor_text(anchor)))
    if has_values and ev.relation in _VALUE_RELATIONS and ev.relation != "compares":
        if not _states_kind(anchor, ev.excerpt, ev.context):
            return f"evidence {ev.id} says “{ev.relation}” but its excerpt states no value of the anchor's kind"
    elif ev.relation in _CUES and not states_cue(ev.relation, ev.excerpt) and not (
            has_values and _states_kind(anchor, ev.excerpt, ev.context)) and not (
            ev.relation == "explains" and explanation_page(src.title if src else "")):  # a why-page's sentence, as the relater reads it
        return f"evidence {ev.id} says “{ev.relation}” but its excerpt states neither a value of the anchor's kind nor a cue"
    return ""


def relations_check(ctx: Context) -> list[Failure]:
    data = ctx.data
    if data is None:
        return []
    out: list[Failure] = []
    cited = {eid for f in data.findings for eid in f.evidence_ids}
    topic = objects(subject_words(f"{data.video.get('title', '')} {data.request}"))
    by_pair: dict[tuple[str, str], set[str]] = defaultdict(set)
    for ev in data.evidence:
        by_pair[(ev.anchor_id, ev.source_id)].add(ev.relation)
    for (aid, sid), rels in sorted(by_pair.items()):
        if "supports" in rels and rels & {"contradicts", "updates"}:
            out.append(Failure("relations", f"anchor-{aid}", f"source {sid} both supports and "
                                                             f"{'contradicts' if 'contradicts' in rels else 'updates'} this anchor"))
    for ev in data.evidence:
        anchor = data.anchor(ev.anchor_id)
        if anchor is None or ev.id not in cited:
            continue
        why = _excerpt_problem(anchor, ev, data.source(ev.source_id), topic)
        if why:
            out.append(Failure("relations", f"anchor-{anchor.id}", why))
    for a in data.anchors:
        rels = {e.relation for e in data.evidence if e.anchor_id == a.id}
        if "supports" in rels and rels & {"contradicts", "updates"}:
            said = (data.verdicts.get(a.id) or {}).get("verdict", "")
            if said not in ("disputed", "newer guidance"):
                out.append(Failure("relations", f"anchor-{a.id}", "the sources disagree about this anchor, but its verdict "
                                                                 f"is “{said or 'missing'}”, not disputed or newer guidance"))
            elif not _page_says(ctx, a.id, said):
                out.append(Failure("relations", f"anchor-{a.id}", f"the page does not show the verdict “{said}”"))
    return out


def _page_says(ctx: Context, anchor_id: str, verdict: str) -> bool:
    """The page's verdict line for the anchor carries the verdict (pages without verdict lines:
    the records are taken as said)."""
    tree = ctx.page.tree
    if tree is None:
        return False
    lines = tree.xpath(f"//*[@data-verdict][@data-verdict-of='{anchor_id}']")
    return not tree.xpath("//*[@data-verdict]") or any(el.get("data-verdict") == verdict for el in lines)
