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


def test_a_statement_of_two_values_goes_to_each_anchor_it_names_with_its_value():
    from vidsleuth.report.branches import rank
    from vidsleuth.report.types import Anchor, Moment

    def anchor(aid: str, *texts: str) -> Anchor:
        moments = tuple(Moment(1.0 + i, 3.0 + i, "speech" if i else "ocr", t) for i, t in enumerate(texts))
        return Anchor(aid, "parameter", texts[0], "", "", moments)

    page = Source(id="d1", kind="document", title="Smoke alarms", location="/x/fire.html")
    anchors = [anchor("A1", "Press and hold the test button once a month."), anchor("A2", "Change the battery once a year,"),
               anchor("A3", "Replace after 10 years", "And replace the whole alarm every 10 years,")]
    texts = ["Test your smoke alarm every week by pressing the button until it sounds.",
             "Replace the batteries once a year, unless it is a ten-year sealed alarm.",
             "Vacuum the alarm gently every six months to clear dust."]
    got = rank(anchors, [Passage(page, t, "text") for t in texts], topic="smoke alarm testing")
    # "the batteries once a year" is the battery's own value, introduced by its own thing: the statement
    # goes to the battery anchor too, not to the alarm's ten years alone
    assert {c.anchor_id for c in got if c.excerpt == texts[1]} >= {"A2", "A3"}
