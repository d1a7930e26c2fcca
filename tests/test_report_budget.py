"""The sources-per-anchor budget is for sources that take a stance on the video's figure (supports,
contradicts, updates); sources that compare another item, explain or apply the figure have slots of
their own (``branches.OTHER_PER_ANCHOR``), so a comparison page never crowds out an agreeing source
(a development set written by another hand lost "wait at least four hours before a second coat" to
an oil-paint comparison that way)."""

from __future__ import annotations

from collections import Counter

from vidsleuth.report.branches import OTHER_PER_ANCHOR, Candidate, Decision, select
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Source


def _decision(i: int, relation: str, score: float) -> Decision:
    src = Source(id=f"d{i}", kind="document", title=f"Page {i}", location=f"/x/page{i}.html")
    p = Passage(src, f"Statement number {i} about the recoat time.", "text")
    return Decision(Candidate("A1", p, p.text, score), relation, f"{relation} at 0.9", 0.9, "rules")


def test_stances_and_other_relations_have_their_own_slots():
    decided = [_decision(1, "compares", 0.9), _decision(2, "compares", 0.85), _decision(3, "explains", 0.8),
               _decision(4, "supports", 0.5), _decision(5, "updates", 0.45), _decision(6, "contradicts", 0.4),
               _decision(7, "supports", 0.3)]
    dropped: Counter = Counter()
    kept = select(decided, per_anchor=3, dropped=dropped)
    relations = Counter(d.relation for d in kept)
    assert relations["supports"] + relations["updates"] + relations["contradicts"] == 3
    assert {d.candidate.passage.source.id for d in kept} >= {"d4", "d5", "d6"}  # the weakest stance is the one left out
    assert "d7" not in {d.candidate.passage.source.id for d in kept}
    assert sum(relations[r] for r in ("compares", "explains", "applies")) == OTHER_PER_ANCHOR
    assert dropped["over the sources-per-anchor budget"] == 1 + 3 - OTHER_PER_ANCHOR
