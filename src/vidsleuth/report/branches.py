"""Stage 3: one evidence branch per anchor. Every source's passages are cut into statements (sentences, and table
rows read under their header) and linked to an anchor only when they are about its subject: they share an *object*
word with it (``facts.objects``: the thing measured, not the property), in the sentence or in the source's title.
Candidates are ranked by the idf-weighted overlap fused with e5 similarity, with a bonus for a value of the anchor's
kind or its code. A statement goes to the anchor it matches best (and to a second one only when nearly as good);
relations are decided per branch in parallel. What is not linked is counted with the reason (``counts["dropped"]``)."""

from __future__ import annotations

import math
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from ..values import APPROX, has_cjk, kinds_in, kinds_of
from . import scope
from .case import split_case
from .coherence import explicit, off_subject, plain_difference
from .facts import (
    MEASURE_STEMS,
    Statement,
    agrees,
    identifiers,
    kind_word,
    objects,
    quantities,
    said_stems,
    sentences,
    statement,
    subject_words,
)
from .sources import Passage
from .types import Anchor

MIN_SCORE = 0.2
SECOND_BEST = 0.9
DENSE_ALONE = 0.9  # e5 similarity at which a paraphrase sharing no word still counts as on-subject
HELD = 0.5  # the weight of a link made by an anchor's own value alone (``_held``)
VALUE_RELATIONS = ("supports", "contradicts", "updates", "compares")
STANCES = ("supports", "contradicts", "updates")  # a source's own stance on the video's figure
OTHER_PER_ANCHOR = 2  # sources per anchor that compare, explain or apply, beside ``per_anchor`` stances
BESIDE = "a row for another item"  # how a record set beside the video's value starts its rationale (``select``)


@dataclass(frozen=True)
class Candidate:
    anchor_id: str
    passage: Passage
    excerpt: str
    score: float
    by_topic: bool = False  # linked only through the video's topic, not by a word of the anchor's subject
    beside: bool = False  # a row for another item of a comparison table: its value is set beside the video's
    own: bool = False  # it states the anchor's own figure: of a source's statements, its word on that figure
    unnamed: bool = False  # the statement itself (a row with its header) names no word of the anchor's thing or the video's
    # (never a Chinese statement: those are read by character pairs, no word test for them)

    @property
    def context(self) -> str:
        return self.passage.context


@dataclass(frozen=True)
class Decision:
    """The relater's verdict on one candidate (``relation`` None: not evidence, with why)."""

    candidate: Candidate
    relation: str | None
    rationale: str
    confidence: float
    decided_by: str


def _units(passages: list[Passage]) -> list[tuple[Passage, str]]:
    out = []
    for p in passages:
        if p.modality == "video" or p.context:
            out.append((p, p.text))
            continue
        title = p.source.title.strip().lower()
        for s in sentences(p.text) or [p.text]:
            # a document's title or heading line (often run together with its date line) names the
            # subject; it is not evidence about it
            # a short line counts when it states a value ("中筋面粉 500克", "Salt: 9 g" in a list)
            if (len(s) >= 12 or quantities(s)) and not (title and s.strip().lower().startswith(title)):
                out.append((p, s))
    return out


def anchor_words(a: Anchor) -> tuple[set[str], set[str]]:
    """(all subject words, object words) of an anchor, from its text and every moment."""
    words = subject_words(a.text) | set(a.subject.split())
    for m in a.moments:
        words |= subject_words(m.text)
    return words, objects(words) or words  # "The pressure is 90 psi": with no thing named, the property is the subject


def _dense(anchors: list[Anchor], units: list[tuple[Passage, str]], embedder, wanted: list[int]):
    """e5 similarities (units x anchors), computed only for the ``wanted`` units: those sharing a
    word with an anchor or stating a value of an anchor's kind (a 30-page manual is not embedded
    sentence by sentence for nothing); the others stay 0."""
    import numpy as np

    out = np.zeros((len(units), len(anchors)), dtype=np.float32)
    if embedder is None or not wanted:
        return out
    q = embedder.embed([f"{a.text} {a.heading}" for a in anchors], kind="query")
    p = embedder.embed([f"{units[i][0].context} {units[i][1]}".strip() for i in wanted], kind="passage")  # a row with its header
    out[wanted] = p @ q.T
    return out


def views_of(a: Anchor, topic: set[str] | frozenset[str] = frozenset()) -> list[set[str]]:
    """The anchor's subject as each of its moments states it (a short caption "OVEN 230 °C" is not
    drowned by a misheard spoken sentence around the same value): object words; an anchor that
    names no thing ("it costs $3,499") is about the video's own thing (``topic``) as well as its
    property words ("price", "pressure")."""
    named = [objects(subject_words(t)) for t in [a.text] + [m.text for m in a.moments if m.text != a.text]]
    out = [v for v in named if v]  # a caption "25km/h" names no thing: it does not make "speed" a subject
    said = objects(set(a.subject.split()))  # with the speech around an on-screen value ("…the thickest part of the thigh")
    if out and said - set().union(*out):
        out.append(said)
    return out or [set(topic) | anchor_words(a)[1]]


def _score(views: list[set[str]], a_kinds: set[str], st: Statement, title: set[str], topic: set[str], idf,
           dense: float, strict: bool = False, props: set[str] = frozenset(),
           background: set[str] | None = None) -> tuple[float, bool]:
    """(score, linked only through the video's topic). A statement without a value is background
    only when it names one of ``background`` itself (the anchor's thing or what is measured): its
    page's title or section heading naming them does not make "Record the date of purchase" in
    a manual's charging section about the charge level."""
    words = set(st.words)
    if not st.readings and background is not None and not background & words:
        return 0.0, False
    kinds = kinds_in(r.value for r in st.readings)
    same_kind = bool(a_kinds & kinds)
    best = 0.0
    # background without a value names the subject fully ("moisture content", not "content") or its
    # measured property ("Hotter water … the temperature decides" for the water temperature, not the
    # water's volume; "What affects e-bike range?" for the range)
    said = set().union(*views)
    named = sum(idf(w) for w in said & (words | title)) >= sum(idf(w) for w in said) / 3 or bool(
        (props or {kind_word(k) for k in a_kinds}) & (words | title))
    for view in views:
        own = view & words
        by_title = (view & title) - own
        # on a page that never names the video's thing, background names the anchor's subject fully
        # and a word of the video's topic ("In turn, … must be able to stop" in a codec manual is not
        # about "stop charging at 80 %")
        if not st.readings and ((len(own | by_title) < min(2, len(view)) or not topic & (words | title))
                                if strict else not named):
            continue
        total = sum(idf(w) for w in view) or 1.0
        lex = (sum(idf(w) for w in own) + 0.5 * sum(idf(w) for w in by_title)) / total
        best = max(best, min(1.0, lex))
    by_topic = best == 0.0 and bool(topic & (words | title)) and same_kind
    if by_topic:
        best = 0.3  # the video's topic ("country loaf") and the same kind of value: about the same thing
    if best == 0.0 and not (dense >= DENSE_ALONE and same_kind):
        return 0.0, False  # not about the anchor's subject
    by_topic = best == 0.0 or by_topic  # no word of the anchor's own: linked by the topic or by e5 alone
    score = 0.6 * best + 0.4 * max(0.0, (dense - 0.75) / 0.25) + (0.2 if same_kind else 0.0)
    score += 0.1 if topic & words else 0.0  # it names the video's own thing ("| X9 | 625 |", not "| X7 | 500 |")
    return (score * 0.5 if a_kinds and kinds and not same_kind else score), by_topic  # a value of another quantity


def _assign(row: list[tuple[float, bool]], st: Statement, kinds: list[set[str]], product: bool = False,
            values: list[list] | None = None, on_page: set[int] = frozenset(), props: list[set[str]] | None = None,
            said: set[str] = frozenset()) -> list[float]:
    """One statement's scores per anchor: the topic alone links it only when no anchor is named in
    it, and a statement of one value goes only to the best anchor of that value's kind, weighed by
    how near its value is in scale ("now pays 3.90% APY" is the 4.5 % savings rate's, not the 20 %
    savings share's)."""
    # per kind: a spec row naming the battery and the torque still speaks of the weight by its topic
    named = [j for j, (s, by_topic) in enumerate(row) if s >= MIN_SCORE and not by_topic]  # a real link, not a title word
    named_kinds = set().union(*(kinds[j] for j in named)) if named else set()
    stated = kinds_in(r.value for r in st.readings)
    held = _held(st, named, values or [[]] * len(row)) & set(on_page)
    # ...unless its value is of a kind no anchor it names has, and it names the product or says what the anchor measures
    # (``props`` in what it ``said``): "the baking temperature … is 250 °C" names the bake time's "bake", yet is the oven's
    zeroed = [by_topic and named and (not (product or (props and props[j] & said)) or not kinds[j] & stated or kinds[j] & named_kinds)
              for j, (_, by_topic) in enumerate(row)]
    # held by its value alone, it ranks below the statements that name the anchor's thing
    out = [(HELD * s if j in held else 0.0) if zeroed[j] else s for j, (s, _) in enumerate(row)]
    if len(st.readings) == 1:
        dims = kinds_of(st.readings[0].value)
        same = [j for j in range(len(out)) if dims & kinds[j] and out[j] > 0]
        if same:
            top = max(same, key=lambda j: out[j] * scope.nearness(st.readings[0].value, (values or [[]] * len(out))[j]))
            out = [s if j == top or j not in same else 0.0 for j, s in enumerate(out)]
    return out


def _held(st: Statement, named: list[int], values: list[list]) -> set[int]:
    """The anchors whose own value the statement holds while no anchor it names has a value that
    reading holds: "Bottle after about two weeks with 6 g/L of sugar" names the priming sugar, yet
    its two weeks is the fermentation's; the value, not the words, says whose it is (``rank`` asks
    that the page name the anchor's thing somewhere: a coincident "3 weeks" elsewhere says nothing)."""
    out: set[int] = set()
    for r in st.readings:
        if not _narrow(r.value):
            continue  # a bound or a wide range ("over three days", "5–10 cm") holds too many figures to say whose it is
        owners = {j for j, vs in enumerate(values) if any(agrees(r.value, v) for v in vs)}
        if owners and not owners & set(named):
            out |= owners
    return out


def _narrow(v) -> bool:
    """A point, an approximation, or a range no wider than an approximation's ±``APPROX`` ("18–20 °C", "250–270 ml")."""
    return v.form in ("point", "approx") or v.form == "range" and v.width() <= 2 * APPROX * abs(v.point)


def rank(anchors: list[Anchor], passages: list[Passage], *, per_anchor: int = 3, embedder=None,
         dropped: Counter | None = None, topic: str = "", title: str = "", heard: str = "") -> list[Candidate]:
    """Candidate excerpts per anchor, best first (``select`` keeps the final ones after relating);
    ``dropped`` counts what was left out and why; ``topic`` (the video's title and the request)
    names the thing the whole video is about, which a source may name instead of the anchor's words;
    ``heard`` is everything the video says and shows (a thing it never names is another's)."""
    dropped = Counter() if dropped is None else dropped
    units = _units(passages)
    if not anchors or not units:
        return []
    stmts = [statement(text, p.context) for p, text in units]
    titles = [subject_words(f"{p.source.title} {p.heading}") for p, _ in units]  # the page and section it is in
    df = Counter(w for st in stmts for w in st.words)
    idf = lambda w: math.log(1 + len(units) / (1 + df.get(w, 0)))  # noqa: E731
    about = objects(subject_words(topic))
    views = [views_of(a, about) for a in anchors]
    things = [set().union(*v) for v in views]  # each anchor's thing-words over all its moments (``_said_of``)
    values = [quantities(" ".join([a.text] + [m.text for m in a.moments])) for a in anchors]
    cases = [split_case(a.text)[0] for a in anchors]  # whom each claim is for: another case's statement is not its
    kinds = [kinds_in(vs) for vs in values]
    said_by = [anchor_words(a)[0] for a in anchors]
    props = [(said_by[j] & MEASURE_STEMS) | {kind_word(k) for k in kinds[j]} for j in range(len(anchors))]
    asked = topic[len(title):] if topic.startswith(title) else topic  # the request, without the title before it
    codes = identifiers(topic)
    strict, beside, gone = scope.set_apart(units, stmts, values, said_by, about, codes, title, asked, f"{topic}\n{heard}" * bool(heard.strip()))
    wanted = [i for i, st in enumerate(stmts) if set(st.words) & (set().union(*(v for vs in views for v in vs)) | about)
              or set().union(*kinds) & kinds_in(r.value for r in st.readings)]
    dense = _dense(anchors, units, embedder, wanted)
    on_page = scope.on_pages(units, stmts, titles, views)
    background = scope.backgrounds(anchors, views, props, title, asked)
    scores = [[_score(views[j], kinds[j], st, titles[i], about, idf, float(dense[i, j]),
                      units[i][0].source.location in strict, props[j], background[j]) for j in range(len(anchors))]
              for i, ((p, _), st) in enumerate(zip(units, stmts))]
    scope.by_titles(scores, units, stmts, values)
    scope.by_value(scores, units, stmts, values, on_page, dense, MIN_SCORE)  # the weakest link that counts
    picked: dict[int, list[Candidate]] = {j: [] for j in range(len(anchors))}
    reached: set[str] = set()
    for i, (passage, text) in enumerate(units):
        if i in gone:
            dropped[gone[i]] += 1
            continue
        # a statement that itself names the video's thing ("… for a country loaf is 250 °C", "| X9 | … |")
        # is about it; one that meets the topic only through its page, header or heading is weakly so
        said = [r.value for r in stmts[i].readings] + quantities(passage.source.title)  # "Is 96 °C too hot for a V60?"
        topical = [by and not about & subject_words(text) and not scope.states_own(said, values[j])
                   for j, (_, by) in enumerate(scores[i])]
        scores[i] = _assign(scope.claimed(scores[i], stmts[i], values, cases), stmts[i], kinds, bool(codes & set(stmts[i].words)), values,
                            on_page[passage.source.location], props, said_stems(f"{passage.context} {text}"))  # a row says its header
        if max(scores[i]) < MIN_SCORE:
            if stmts[i].readings and set().union(*kinds) & kinds_in(r.value for r in stmts[i].readings):
                dropped["a value of the anchor's kind about another subject"] += 1
            continue
        reached.add(passage.source.location)
        for j in sorted(set(_winners(scores[i], stmts[i], kinds, values)) | _said_of(scores[i], stmts[i], things, values)):
            own = scope.states_own(said, values[j])  # it speaks of it, whatever it calls the thing ("… Flattop chains at 0.5%")
            unnamed = not has_cjk(text) and not (set(stmts[i].words) & (things[j] | about))
            picked[j].append(Candidate(anchors[j].id, passage, text, round(scores[i][j], 4), topical[j], i in beside and not own, own,
                                       unnamed))
    dropped["pages about none of the anchors"] += len({p.source.location for p, _ in units} - reached)
    return _capped(picked, per_anchor)


def _winners(row: list[float], st: Statement, kinds: list[set[str]], values: list[list]) -> list[int]:
    """The anchors one statement goes to: the best, and those nearly as good. A statement of several
    kinds ("battery 625 Wh · torque 85 Nm · weight 23.9 kg", a spec row) is weighed per kind: each
    anchor competes with the anchors of its own kind, weighed by how near their values are in scale."""
    stated, best = kinds_in(r.value for r in st.readings), max(row)
    near = [scope.kind_nearness(st, kinds[j], values[j]) for j in range(len(row))]
    out = []
    for j, s in enumerate(row):
        rivals = [row[k] * near[k] for k in range(len(row)) if kinds[k] & kinds[j] & stated] if kinds[j] & stated else []
        if s >= MIN_SCORE and s * near[j] >= SECOND_BEST * (max(rivals) if rivals else best * near[j]):
            out.append(j)
    return out


def _said_of(row: list[float], st: Statement, things: list[set[str]], values: list[list]) -> set[int]:
    """The anchors a statement of several values says value by value: a reading introduced by the anchor's
    thing-word, with a value agreeing with the anchor's ("Replace the batteries once a year, unless it is a
    ten-year sealed alarm" speaks of the battery's year as well as the alarm's ten)."""
    return {j for j, s in enumerate(row) if s > 0 and len(st.readings) > 1 and any(
        objects(set(r.near)) & things[j] and any(agrees(r.value, v) for v in values[j]) for r in st.readings)}


def _capped(picked: dict[int, list[Candidate]], per_anchor: int) -> list[Candidate]:
    """Each anchor's candidates: every source's best (a page explaining a figure in words scores below those stating
    it), then the rest by score, at most 5 a source (a table's rows) and ``4 * per_anchor`` beyond the firsts."""
    out: list[Candidate] = []
    for j in picked:
        ranked = sorted(picked[j], key=lambda c: -c.score)
        firsts = {id(c) for c in {c.passage.source.location: c for c in reversed(ranked)}.values()}
        per_source: Counter = Counter(c.passage.source.location for c in ranked if id(c) in firsts)
        rest = 0
        for c in ranked:
            if id(c) not in firsts:
                if per_source[c.passage.source.location] >= 5 or rest >= 4 * per_anchor:
                    continue
                per_source[c.passage.source.location] += 1
                rest += 1
            out.append(c)
    return out


def _compared(d: Decision) -> bool:
    """A decision that compared values (the rules rate those 0.7 and up; a comparison of words
    alone, "needs less cooling than PLA", is 0.55 and does not outrank a reason). A worked calculation
    or a case of the writer's own that uses the video's value ("applies", 0.7) compared it too."""
    if d.relation == "applies":
        return d.decided_by != "rules" or d.confidence >= 0.7
    return d.relation in VALUE_RELATIONS and (d.decided_by != "rules" or d.confidence >= 0.7)


def _rank_of(d: Decision) -> tuple:
    """How a source's decisions for one anchor are ordered: a value compared first; one of the video's own case before one
    set beside it, then one that states the video's figure ("up to 100 Wh", not "larger batteries (101–160 Wh)"), the writer's
    own case at it before their agreeing figures (a page that tells how the figure worked for them applies it); among a
    table's rows, the one stating the video's value ("| Poultry | 165 |" for a 74 °C core); then confidence by score."""
    return (_compared(d), not d.candidate.beside, d.candidate.own, d.relation == "applies",
            bool(d.candidate.context) and d.relation == "supports", d.confidence * d.candidate.score)


def select(decided: list[Decision], per_anchor: int, dropped: Counter | None = None) -> list[Decision]:
    """After the relations: per anchor, one record per source — its strongest stance (a value it
    compares before background), so no source both supports and contradicts one anchor — from at
    most ``per_anchor`` sources; no-stance decisions are dropped and counted by reason."""
    dropped = Counter() if dropped is None else dropped
    best: dict[tuple[str, str], Decision] = {}
    for d in decided:
        if d.relation is None:
            dropped[d.rationale.split(":")[0]] += 1
            continue
        if d.candidate.beside and d.relation in ("supports", "contradicts", "updates"):
            d = replace(d, relation="compares", rationale=f"{BESIDE}, set beside the video's value ({d.rationale})")
        if d.candidate.by_topic and d.relation in ("contradicts", "updates", "compares") or d.candidate.unnamed and (
                plain_difference(d.relation, d.rationale, d.candidate.excerpt, d.decided_by)):
            # a statement that never names the anchor's thing agrees by its value or says nothing of it:
            # "Ground meats 160 °F" on a food-safety chart is not against a 180 °C oven
            dropped["a different value from a statement that names another thing"] += 1
            continue
        key = (d.candidate.anchor_id, d.candidate.passage.source.location)
        rank_of = _rank_of(d)
        old = best.get(key)
        if old is None or rank_of > _rank_of(old):
            if old is not None:
                dropped["a weaker excerpt of a source already cited for the anchor"] += 1
            best[key] = d
        else:
            dropped["a weaker excerpt of a source already cited for the anchor"] += 1
    away = off_subject(best.values())  # a sibling thing's page: no figure agrees, several differ without a dispute
    for key in [k for k, d in best.items() if k[1] in away and not explicit(d.candidate.excerpt)]:
        dropped["a page whose figures all differ from the video's, without a dispute: another thing"] += 1
        del best[key]
    out: list[Decision] = []
    per: Counter = Counter()
    said: dict[str, set[str]] = {}  # per anchor, the statements already kept
    ranked = sorted(best.values(), key=lambda d: (-_compared(d), -d.candidate.score))
    heads = {id(x) for x in {(x.candidate.anchor_id, x.relation): x for x in reversed(ranked)}.values()}
    for d in sorted(ranked, key=lambda d: id(d) not in heads):  # each relation's best first: a dispute keeps its slot
        aid, text = d.candidate.anchor_id, " ".join(re.sub(r"[^\w\s]", " ", d.candidate.excerpt.lower()).split())
        if text in said.setdefault(aid, set()):
            out.append(d)  # the same statement in a mirror, a print version or another edition: one more source
            continue
        # the budget is for sources that take a stance on the video's figure; one that sets another item beside
        # it, explains it or works it through has a slot of its own, so it never crowds out an agreeing source
        slot = (aid, d.relation in STANCES)
        if per[slot] >= (per_anchor if slot[1] else OTHER_PER_ANCHOR):
            dropped["over the sources-per-anchor budget"] += 1
            continue
        per[slot] += 1
        said[aid].add(text)
        out.append(d)
    order = {id(d.candidate): i for i, d in enumerate(decided)}  # a decision set beside is a new record
    return sorted(out, key=lambda d: order[id(d.candidate)])


def run_branches(anchors: list[Anchor], candidates: list[Candidate], decide, *, workers: int = 4) -> list[Decision]:
    """``decide(anchor, candidate) -> (relation, rationale, confidence, decided_by)`` for every
    candidate, one branch (thread) per anchor; results in anchor order."""
    by_anchor = {a.id: [c for c in candidates if c.anchor_id == a.id] for a in anchors}

    def branch(a: Anchor) -> list[Decision]:
        return [Decision(c, *decide(a, c)) for c in by_anchor[a.id]]

    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(anchors)))) as pool:
        results = list(pool.map(branch, anchors))
    return [r for rs in results for r in rs]
