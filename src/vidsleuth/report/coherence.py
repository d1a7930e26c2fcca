"""Whether a source is about the video's thing at all, judged from all its decisions together. A page about a sibling
thing (a motorcycle chain beside a bicycle's, a pepper seedling beside a tomato's) shares the video's words and
quantity kinds, so each of its sentences passes the subject test on its own; what gives it away is that none of its
figures agrees with the video's and they differ without a word of dispute. A real rebuttal says it disputes
("far too short", "in my experience", "no longer"), in a sentence or in its title; a wholesale plain difference is
another subject."""

from __future__ import annotations

from collections import defaultdict

from .cues import DISPUTE, OWN_CASE, REJECT, REVISION

DIFFERING = "the source gives"  # how the rules' rationale for a plain difference of figures starts (``relate``)
AGREEING = ("supports", "explains", "applies")
MIN_DIFFERING = 1  # anchors a source must differ on, with no agreement, to be judged about another thing (2 kept 2 more
# right pairs and 9 more spurious links on four development sets: a lone plain difference is no better evidence)


def explicit(excerpt: str) -> bool:
    """Whether the excerpt says it disputes, tells the writer's own case or states a revision."""
    return any(p.search(excerpt) for p in (REJECT, DISPUTE, OWN_CASE, REVISION))


def plain_difference(relation: str | None, rationale: str, excerpt: str, decided_by: str) -> bool:
    """A rules contradiction by figures alone: no dispute, no revision, no case of the writer's."""
    return (decided_by == "rules" and relation == "contradicts" and rationale.startswith(DIFFERING)
            and not explicit(excerpt))


def off_subject(decisions) -> set[str]:
    """Locations of sources that differ plainly on ``MIN_DIFFERING`` anchor(s) or more and agree on none.
    ``decisions``: each source's kept decision per anchor (``branches.Decision``)."""
    by_source = defaultdict(list)
    for d in decisions:
        by_source[d.candidate.passage.source.location].append(d)
    out = set()
    for location, ds in by_source.items():
        differing = {d.candidate.anchor_id for d in ds
                     if plain_difference(d.relation, d.rationale, d.candidate.excerpt, d.decided_by)}
        # a page whose title disputes ("Your oven is too cool for pizza", "The 10-minute myth") is a rebuttal: its
        # plain figures are its case against the video's, not another thing's
        if len(differing) >= MIN_DIFFERING and not any(d.relation in AGREEING for d in ds) and not explicit(
                ds[0].candidate.passage.source.title):
            out.add(location)
    return out


BACKGROUND = "of the subject: background"


def titled_background(decided: list, anchors: list, embedder) -> list:
    """A page that explains ("Why mowing higher gives you a better lawn") gives the reasons behind one figure: its
    sentences without a figure are background for the anchor e5 ranks nearest its title, not for every anchor whose
    subject they name (a "Why wider tyres are faster" page's sentence on pressure explains the width, not the
    pressure). Those for the other anchors, and all of them without e5, become no stance (over 60 tasks the reading
    unrestricted was right 5 times and spurious 12)."""
    from dataclasses import replace

    background = [d for d in decided if d.relation == "explains" and BACKGROUND in d.rationale]
    if not background:
        return decided
    nearest: dict[str, str] = {}
    if embedder is not None and anchors:
        titles = sorted({d.candidate.passage.source.title for d in background})
        sims = embedder.embed(titles, kind="query") @ embedder.embed(
            [f"{a.heading}. {a.text}" for a in anchors], kind="passage").T
        nearest = {t: anchors[int(sims[i].argmax())].id for i, t in enumerate(titles)}
    off = {id(d) for d in background if nearest.get(d.candidate.passage.source.title) != d.candidate.anchor_id}
    return [replace(d, relation=None, rationale="background on a page that explains another anchor's figure: no stance")
            if id(d) in off else d for d in decided]

