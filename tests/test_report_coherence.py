"""A page about a sibling thing (a motorcycle chain beside the video's bicycle chain) passes the subject test
sentence by sentence; judged as a whole, none of its figures agrees with the video and several differ with no
word of dispute, so its plain differences are another thing's figures, not contradictions (``coherence``). A
forum post that disputes the same figures, and a guide that agrees with one, keep their contradictions."""

from __future__ import annotations

from collections import Counter

from vidsleuth.report.branches import Candidate, Decision, select
from vidsleuth.report.relate import relate_rules
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Anchor, Moment, Source

ANCHORS = {
    "A1": "Replace the chain at half a percent of wear.",
    "A2": "Re-wax the chain every 300 kilometres or so.",
    "A3": "A typical chain lasts 3,000 km.",
}


def _anchor(aid: str) -> Anchor:
    return Anchor(aid, "parameter", ANCHORS[aid], "", "", (Moment(1.0, 4.0, "speech", ANCHORS[aid]),))


def _decided(page: str, pairs: list[tuple[str, str]]) -> list[Decision]:
    src = Source(id=page, kind="document", title=page, location=f"/docs/{page}.html")
    out = []
    for aid, text in pairs:
        p = Passage(src, text, "text")
        out.append(Decision(Candidate(aid, p, text, 0.8), *relate_rules(_anchor(aid), text), "rules"))
    return out


SIBLING = [("A1", "Replace the chain when it has stretched 2% or more."),
           ("A2", "Clean and lube every 500–800 km."),
           ("A3", "Replace chain and sprockets as a set, typically every 20,000–30,000 km.")]


def test_a_page_whose_figures_all_differ_plainly_is_dropped_with_its_reason():
    decided = _decided("motorcycle-chain", SIBLING)
    assert [d.relation for d in decided] == ["contradicts"] * 3  # each sentence alone reads as a contradiction
    dropped: Counter = Counter()
    assert select(decided, per_anchor=3, dropped=dropped) == []
    assert sum(n for why, n in dropped.items() if "another thing" in why) == 3


def test_a_forum_post_that_says_it_disputes_keeps_its_contradictions():
    decided = _decided("forum", [("A2", "Re-waxing every 300 km is overkill, I do it every 600 km."),
                                 ("A3", "My chains only lasted 1,500 km, the 3,000 km claim is wildly optimistic.")])
    kept = select(decided, per_anchor=3)
    assert [d.relation for d in kept] == ["contradicts", "contradicts"]


def test_a_page_that_agrees_once_keeps_its_differences():
    decided = _decided("guide", [("A1", "Replace the chain at 0.5% wear on 11- and 12-speed drivetrains."),
                                 ("A2", "Clean and lube every 500–800 km."),
                                 ("A3", "Replace chain and sprockets as a set, typically every 20,000–30,000 km.")])
    assert decided[0].relation == "supports"
    kept = select(decided, per_anchor=3)
    assert sorted(d.relation for d in kept) == ["contradicts", "contradicts", "supports"]


def test_a_lone_plain_difference_on_a_page_that_agrees_nowhere_is_dropped_too():
    assert select(_decided("guide", SIBLING[:1]), per_anchor=3) == []


def test_a_page_whose_title_disputes_keeps_its_plain_figures():
    """"Your chain is worn out too soon" says it disputes in its title: its plain figures are its case against the
    video's, not another thing's (dev42: "Your oven is too cool for pizza: here's the fix" gave 275 °C against 260)."""
    decided = _decided("Your chain wax routine is far too frequent", SIBLING[1:2])
    assert [d.relation for d in select(decided, per_anchor=3)] == ["contradicts"]
    assert select(_decided("Chain care basics", SIBLING[1:2]), per_anchor=3) == []
