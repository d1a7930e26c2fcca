"""Stage 3: one evidence branch per anchor. Every source's passages are cut into sentences and
ranked per anchor by subject-word overlap (idf-weighted, stemmed) fused with e5 similarity, with a
bonus for a value of the anchor's dimension or its code. A sentence goes to the anchor it matches
best (and to a second one only when nearly as good), each anchor keeps its best sentences from
distinct sources, and the relations are decided per branch in parallel (model calls are held to
the endpoint's limit by the model layer)."""

from __future__ import annotations

import math
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .facts import codes, quantities, sentences, subject_words
from .sources import Passage
from .types import Anchor

MIN_SCORE = 0.25
SECOND_BEST = 0.9


@dataclass(frozen=True)
class Candidate:
    anchor_id: str
    passage: Passage
    excerpt: str
    score: float


def _units(passages: list[Passage]) -> list[tuple[Passage, str]]:
    out = []
    for p in passages:
        if p.modality == "video":
            out.append((p, p.text))
            continue
        title = p.source.title.strip().lower()
        for s in sentences(p.text) or [p.text]:
            # a document's title or heading line (often run together with its date line) names the
            # subject; it is not evidence about it
            if len(s) >= 15 and not (title and s.strip().lower().startswith(title)):
                out.append((p, s))
    return out


def rank(anchors: list[Anchor], passages: list[Passage], *, per_anchor: int = 3, embedder=None) -> list[Candidate]:
    """Candidate excerpts per anchor, best first (``select`` keeps the final ones after relating)."""
    units = _units(passages)
    if not anchors or not units:
        return []
    words = [subject_words(text) for _, text in units]
    dims = [{q.dimension for q in quantities(text)} for _, text in units]
    unit_codes = [set(codes(text)) for _, text in units]
    df = Counter(w for ws in words for w in ws)
    n = len(units)
    idf = lambda w: math.log(1 + n / (1 + df.get(w, 0)))  # noqa: E731
    dense = None
    if embedder is not None:
        q = embedder.embed([f"{a.text} {a.subject}" for a in anchors], kind="query")
        p = embedder.embed([text for _, text in units], kind="passage")
        dense = p @ q.T  # units x anchors
    scores = [[0.0] * len(anchors) for _ in units]
    for j, a in enumerate(anchors):
        # each moment is scored on its own and the best counts: a short on-screen label ("PROOF 5 H")
        # is not drowned by a long, misheard spoken sentence around the same value
        views = [ws for ws in [subject_words(a.text)] + [subject_words(m.text) for m in a.moments] if ws]
        totals = [sum(idf(w) for w in ws) or 1.0 for ws in views]
        aq = quantities(" ".join([a.text] + [m.text for m in a.moments]))
        ac = set(codes(a.text))
        for i in range(len(units)):
            lex = max((sum(idf(w) for w in ws & words[i]) / t for ws, t in zip(views, totals)), default=0.0)
            if lex == 0:
                continue
            bonus = 0.0
            if aq and any(x.dimension in dims[i] for x in aq):
                bonus += 0.2
            if ac and ac & unit_codes[i]:
                bonus += 0.3
            dn = float(dense[i, j]) if dense is not None else 0.0
            scores[i][j] = 0.6 * lex + 0.4 * max(0.0, (dn - 0.75) / 0.25) + bonus
    picked: dict[int, list[Candidate]] = {j: [] for j in range(len(anchors))}
    for i, (passage, text) in enumerate(units):
        best = max(scores[i])
        if best < MIN_SCORE:
            continue
        for j, s in enumerate(scores[i]):
            if s >= MIN_SCORE and s >= SECOND_BEST * best:
                picked[j].append(Candidate(anchors[j].id, passage, text, round(s, 4)))
    out: list[Candidate] = []
    for j in picked:  # a few more than needed: the relater may find some to be mere mentions
        per_source: Counter = Counter()
        kept = 0
        for c in sorted(picked[j], key=lambda c: -c.score):
            if per_source[c.passage.source.location] >= 2 or kept >= 3 * per_anchor:
                continue
            per_source[c.passage.source.location] += 1
            kept += 1
            out.append(c)
    return out


def select(decided: list[tuple], per_anchor: int) -> list[tuple]:
    """After the relations: per anchor, the best related excerpts from at most ``per_anchor``
    sources — one per relation a source has to it (a page may both update a value and explain
    it), at most two per source; mere mentions (relation None) are dropped."""
    out, seen = [], set()
    sources: dict[str, set] = {}
    per_source: Counter = Counter()
    for d in sorted(decided, key=lambda d: -d[0].score):
        c, rel = d[0], d[1]
        loc = c.passage.source.location
        key = (c.anchor_id, loc, rel)
        chosen = sources.setdefault(c.anchor_id, set())
        if rel is None or key in seen or per_source[(c.anchor_id, loc)] >= 2:
            continue
        if loc not in chosen and len(chosen) >= per_anchor:
            continue
        seen.add(key)
        chosen.add(loc)
        per_source[(c.anchor_id, loc)] += 1
        out.append(d)
    order = {id(d): i for i, d in enumerate(decided)}
    return sorted(out, key=lambda d: order[id(d)])


def run_branches(anchors: list[Anchor], candidates: list[Candidate], decide, *, workers: int = 4) -> list[tuple]:
    """``decide(anchor, candidate) -> (relation, rationale, confidence, decided_by)`` for every
    candidate, one branch (thread) per anchor; results in anchor order."""
    by_anchor = {a.id: [c for c in candidates if c.anchor_id == a.id] for a in anchors}

    def branch(a: Anchor):
        return [(c, *decide(a, c)) for c in by_anchor[a.id]]

    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(anchors)))) as pool:
        results = list(pool.map(branch, anchors))
    return [r for rs in results for r in rs]
