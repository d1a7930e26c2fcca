"""Stage 2: research anchors — the request-relevant things the video states, each tied to the
moments where it is heard and seen (seed 000 §2.1: claims, procedures, parameters, entities, open
questions).

Speech (or subtitles) is read sentence by sentence; a sentence that states a quantity is a
*parameter*, one that names a part or model code an *entity*, a question an *open question*, an
instruction a *procedure*, anything else a *claim*. On-screen text that states the same quantity
or code within ``ALIGN_S`` seconds joins the spoken anchor as a second moment (visual observation
aligned with speech on the timeline); on-screen values never spoken become anchors of their own.
Anchors are ranked by relevance to the request (lexical overlap of subject words plus the e5
similarity, with a bonus for stated values, which are what external sources can check).
"""

from __future__ import annotations

import re

from ..types import Segment, Timeline
from .facts import codes, quantities, sentences, subject_words
from .types import Anchor, Moment

ALIGN_S = 12.0
_IMPERATIVE = {"set", "add", "bake", "mix", "heat", "preheat", "tighten", "torque", "cut", "drill", "apply", "use", "wait",
               "let", "remove", "insert", "rest", "proof", "knead", "check", "turn", "press", "fold", "cool", "fit",
               "replace", "clean", "sand", "paint", "glue", "pour", "stir", "measure", "install", "mount", "keep"}


def _kind(sentence: str) -> str:
    if quantities(sentence):
        return "parameter"
    if codes(sentence):
        return "entity"
    if sentence.rstrip().endswith(("?", "？")):
        return "open_question"
    first = re.findall(r"[A-Za-z]+", sentence[:40].lower())
    return "procedure" if first and first[0] in _IMPERATIVE else "claim"


def _spoken_sentences(segments: list[Segment]) -> list[tuple[str, float, float, str]]:
    """Sentences of speech with times interpolated inside their segment by character position."""
    out = []
    for seg in segments:
        parts = []
        for sent in sentences(seg.text) or [seg.text]:
            # ASR often runs sentences together with commas ("Welcome back, today, a country loaf,
            # proof it for five hours,"): a long one is cut into clauses so a value's moment is the
            # clause that says it, not the start of the run
            parts += [c for c in re.split(r"(?<=[,;])\s+", sent) if c.strip()] if len(sent) > 60 else [sent]
        total = sum(len(p) for p in parts) or 1
        t, span = seg.start, max(0.0, seg.end - seg.start)
        for p in parts:
            dt = span * len(p) / total
            out.append((p, round(t, 2), round(t + dt, 2), seg.kind))
            t += dt
    return out


def _value_label(text: str) -> str:
    q = quantities(text)
    if q:
        return ", ".join(x.label() for x in q)
    c = codes(text)
    return ", ".join(c)


def find_anchors(timeline: Timeline, request: str, *, max_anchors: int = 8, embedder=None) -> list[Anchor]:
    """The request's research anchors in ``timeline``, most relevant first, at most ``max_anchors``."""
    speech = timeline.of_kind("speech", "subtitle")
    screen = timeline.of_kind("ocr")
    drafts: list[dict] = []
    for text, start, end, kind in _spoken_sentences(speech):
        if len(subject_words(text)) == 0:
            continue
        drafts.append({"kind": _kind(text), "text": text, "moments": [Moment(start, end, kind, text)],
                       "q": quantities(text), "c": codes(text)})
    used_screen: set[int] = set()
    for i, seg in enumerate(screen):
        q, c = quantities(seg.text), codes(seg.text)
        if not q and not c:
            continue
        for d in drafts:
            near = abs(d["moments"][0].start - seg.start) <= ALIGN_S
            same = any(a.same_as(b, 0.0) for a in q for b in d["q"]) or bool(set(c) & set(d["c"]))
            if near and same:
                d["moments"].append(Moment(seg.start, seg.end, "ocr", seg.text))
                used_screen.add(i)
                break
    for i, seg in enumerate(screen):
        if i in used_screen:
            continue
        q, c = quantities(seg.text), codes(seg.text)
        if (q or c) and subject_words(seg.text):
            drafts.append({"kind": "parameter" if q else "entity", "text": seg.text,
                           "moments": [Moment(seg.start, seg.end, "ocr", seg.text)], "q": q, "c": c})
    if not drafts:
        return []
    want = subject_words(request)
    dense = [0.0] * len(drafts)
    if embedder is not None:
        qv = embedder.embed([request], kind="query")
        pv = embedder.embed([d["text"] for d in drafts], kind="passage")
        dense = [float(x) for x in (pv @ qv.T)[:, 0]]
        lo = min(dense)
        dense = [max(0.0, (x - lo) / max(1e-9, max(dense) - lo)) for x in dense] if len(dense) > 1 else [1.0]
    scored = []
    for d, dn in zip(drafts, dense):
        subj = subject_words(d["text"]) | set().union(*(subject_words(m.text) for m in d["moments"]))
        lex = len(subj & want) / max(1, len(want))
        bonus = {"parameter": 0.3, "entity": 0.2, "open_question": 0.1}.get(d["kind"], 0.0)
        score = 0.5 * lex + 0.3 * dn + bonus
        if d["kind"] in ("claim", "procedure") and lex < 0.25:
            continue  # a sentence that shares little with the request is narration, not an anchor
        scored.append((score, d, subj))
    scored.sort(key=lambda x: (-x[0], x[1]["moments"][0].start))
    chosen = sorted(scored[:max_anchors], key=lambda x: x[1]["moments"][0].start)
    return [Anchor(id=f"A{k}", kind=d["kind"], text=d["text"], subject=" ".join(sorted(subj)),
                   value=_value_label(d["text"]), moments=tuple(sorted(d["moments"], key=lambda m: m.start)),
                   relevance=round(score, 3))
            for k, (score, d, subj) in enumerate(chosen, 1)]
