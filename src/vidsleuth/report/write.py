"""Stage 5: writing. Video observations (what the video shows and says, with its moments) are kept
apart from external findings; every finding carries its citations beside it (the seed's most
common failure is a Sources list that supports no claim), grouped by anchor with its relation.

``write_rules`` is the embedded default: sentences built from the records, so nothing is claimed
that the evidence does not hold. ``write_model`` asks the configured writer for the summary and
one synthesis per anchor, returning the evidence ids it cites; unknown ids are dropped (and the
check then sends the paragraph back for repair)."""

from __future__ import annotations

from collections import Counter

from ..timecode import clock
from .types import Anchor, Evidence, Finding, Note, Source

VERB = {
    "supports": "supports the video",
    "contradicts": "contradicts the video",
    "updates": "updates the video",
    "explains": "explains",
    "compares": "compares",
    "applies": "applies it",
}

WRITE_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "cites": {"type": "array", "items": {"type": "string"}}},
    "required": ["text", "cites"],
}


def finding_rules(anchor: Anchor, ev: Evidence, src: Source) -> str:
    dated = f", {src.date}" if src.date else ""
    where = f" at {clock(ev.moment)}" if ev.moment is not None else ""
    return f"On {anchor.value or anchor.subject} ({clock(anchor.start)}): {src.title}{dated}{where}: {ev.rationale}. “{ev.excerpt}”"


def write_rules(anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source]) -> list[Finding]:
    out = []
    for a in anchors:
        for ev in (e for e in evidence if e.anchor_id == a.id):
            out.append(Finding(id=f"F{len(out) + 1}", anchor_id=a.id, text=finding_rules(a, ev, sources[ev.source_id]),
                               evidence_ids=(ev.id,), relation=ev.relation))
    return out


def summary_rules(video_title: str, duration: float, request: str, anchors: list[Anchor], evidence: list[Evidence],
                  sources: dict[str, Source]) -> str:
    rel = Counter(e.relation for e in evidence)
    unsupported = [a for a in anchors if not any(e.anchor_id == a.id for e in evidence)]
    parts = [f"The video “{video_title}” ({clock(duration)}) was read for the request “{request}”.",
             f"It states {len(anchors)} research anchor{'s' if len(anchors) != 1 else ''}; "
             f"{len(sources)} source{'s' if len(sources) != 1 else ''} gave {len(evidence)} evidence record"
             f"{'s' if len(evidence) != 1 else ''}."]
    if evidence:
        parts.append("Relations: " + ", ".join(f"{n} {r}" for r, n in rel.most_common()) + ".")
    flagged = [a for a in anchors if any(e.anchor_id == a.id and e.relation in ("contradicts", "updates") for e in evidence)]
    if flagged:
        parts.append("Check before relying on the video: " + "; ".join(
            f"{a.value or a.subject} ({clock(a.start)})" for a in flagged) + ".")
    if unsupported:
        parts.append(f"No source addressed {len(unsupported)} anchor{'s' if len(unsupported) != 1 else ''}.")
    return " ".join(parts)


def write_model(model, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source], *,
                fix: dict[str, str] | None = None, max_tokens: int = 300) -> list[Finding]:
    """One paragraph per anchor with evidence, written by the endpoint; ``fix`` maps an anchor id to
    the failed check the paragraph must repair (targeted repair: other anchors are not rewritten)."""
    from ..errors import ModelOutputError
    from ..prompts import render

    out = []
    for a in anchors:
        evs = [e for e in evidence if e.anchor_id == a.id]
        if not evs or (fix is not None and a.id not in fix):
            continue
        lines = "\n".join(f"{e.id} [{e.relation}] {sources[e.source_id].title} ({sources[e.source_id].date or 'undated'}): "
                          f"\"{e.excerpt}\"" for e in evs)
        prompt = render("report_write.j2", anchor=a.text, moment=clock(a.start), evidence=lines,
                        problem=(fix or {}).get(a.id, ""))
        try:
            d = model.chat(prompt, schema=WRITE_SCHEMA, max_tokens=max_tokens).data
            text, cites = str(d["text"]).strip(), [str(c) for c in d["cites"]]
        except ModelOutputError:
            text, cites = "", []
        known = {e.id for e in evs}
        if not text:  # the writer gave nothing usable: the records speak for themselves
            for e in evs:
                out.append(Finding(f"F{a.id}-{e.id}", a.id, finding_rules(a, e, sources[e.source_id]), (e.id,), e.relation))
            continue
        kept = tuple(c for c in cites if c in known)
        rels = Counter(e.relation for e in evs if e.id in kept)
        out.append(Finding(f"F{a.id}", a.id, text, kept, rels.most_common(1)[0][0] if rels else ""))
    return out


def notes_of(timeline, anchors: list[Anchor], limit: int = 80) -> list[Note]:
    """The video pane's timeline: every anchor moment, then speech and on-screen text lines."""
    notes = {}
    for a in anchors:
        for m in a.moments:
            notes[(round(m.start, 1), m.text)] = Note(round(m.start, 2), f"{m.kind}: {m.text}", a.id)
    for s in timeline.of_kind("speech", "subtitle", "ocr"):
        key = (round(s.start, 1), s.text)
        if key not in notes and len(notes) < limit:
            notes[key] = Note(round(s.start, 2), f"{s.kind}: {s.text}")
    return sorted(notes.values(), key=lambda n: n.t)
