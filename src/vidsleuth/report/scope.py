"""What the evidence branches set apart before ranking: pages about another product, pages
that never name the video's thing, table rows for another case or another thing, and the pages
whose title states an anchor's own figure (which speak of it whatever words they use); and what
ranks among the rest: how near a value is in scale to an anchor's, which anchors a page names."""

from __future__ import annotations

import math
import re

from ..numwords import normalise
from ..values import MATCH, SCALE, aligned, commensurate, kinds_in, kinds_of
from .case import another_case
from .cues import REVISION, compares, comparison_page
from .facts import Statement, agrees, cells, identifiers, objects, quantities, subject_words, unit_column
from .sources import Passage
from .types import Anchor

MIN_PAGES = 4  # distinct pages (by title) before a thing only one of them says tells anything (as relevance.MIN_DOCUMENTS)


def by_titles(scores: list[list[tuple[float, bool]]], units, stmts: list[Statement], values: list[list]) -> None:
    """A page whose title states an anchor's own figure ("5.5 bar on 28s — am I crazy?", "Is 96 °C
    too hot for a V60?") is about that anchor: its statements of that kind are linked to it even
    when they use none of its words ("5.5 bar is way too hard for 28s")."""
    for i, (p, _) in enumerate(units):
        said = quantities(p.source.title)
        for j, vs in enumerate(values):
            if scores[i][j][0] == 0.0 and states_own(said, vs) and kinds_in(r.value for r in stmts[i].readings) & kinds_in(vs):
                scores[i][j] = (0.5, False)


def by_value(scores: list[list[tuple[float, bool]]], units, stmts: list[Statement], values: list[list],
             on_page: dict[str, set[int]], dense, weight: float) -> None:
    """A statement naming none of the anchors' words, which holds one anchor's own figure on a page naming
    that anchor's thing, is that anchor's when e5 also ranks it first among the anchors: "Previous guidance
    allowed light foot traffic after 24 hours" is the video's "keep everyone off the deck for 24 hours"."""
    for i, st in enumerate(stmts):
        if not st.readings or max(s for s, _ in scores[i]) > 0.0:
            continue
        first = max(range(len(values)), key=lambda j: float(dense[i, j]))
        if float(dense[i, first]) <= 0.0:
            continue  # no e5 (or the statement was not embedded): nothing ranks the anchors
        narrow = [r.value for r in st.readings if r.value.form in ("point", "approx")]
        if first in on_page.get(units[i][0].source.location, ()) and any(agrees(v, w) for v in narrow for w in values[first]):
            scores[i][first] = (weight, False)


def other_case(st: Statement, video_values: list) -> bool:
    """A table row keyed by a case ("| 65 | 72 | 79 |" under "Rider weight (kg)") for another case
    than the one the video states (a 75 kg rider): the rows around the video's are not about it."""
    for case in st.cases:
        # of one scale: a 4 kg cat's row is not "another case" for the video's 60 g of food
        mine = [v for v in video_values if v.comparable(case) and commensurate(case, v)]
        # within a rounded conversion: a video's 2.5 cm steak is the "1 inch" row's case
        if mine and not any(case.lo - MATCH * abs(v.point) - 1e-9 <= v.point <= case.hi + MATCH * abs(v.point) + 1e-9
                            for v in mine):
            return True
    return False


def states_own(said: list, values: list) -> bool:
    """The statement, or its page's title, states the anchor's own figure ("5.5 bar is way too hard
    for 28s", a thread "Is 96 °C too hot for a V60?"): it speaks of the anchor, whichever words it
    uses, so it may dispute it."""
    return any(v.form == w.form and v.same_as(w) for v in values for w in said)


def other_rows(units: list[tuple[Passage, str]], title: str) -> set[int]:
    """Rows of a table that lists several things, when one row names the video's own thing (its
    title's words: "| 绿茶 | 80~85 | 3 |" among 白茶, 乌龙茶, 红茶; "| PETG | … |" among PLA, ABS): the
    other rows are about the other things. A table of properties ("Usable energy | 13.5 kWh"), or
    one whose header names the thing as a column, keeps all."""
    named = objects(subject_words(title))
    groups: dict[tuple[str, str], list[tuple[int, set[str]]]] = {}
    for i, (p, text) in enumerate(units):
        if named and p.context and text.lstrip().startswith("|"):
            label = cells(text)[0]
            groups.setdefault((p.source.location, p.context), []).append((i, objects(subject_words(label))))
    out: set[int] = set()
    for (_, header), rows in groups.items():
        if objects(subject_words(" ".join(cells(header)[1:]))) & named:
            continue  # "| Specification | Lumeo P5 |": the thing is the column, its rows are its properties
        # the row naming the thing has a name for a label ("PETG"), not a description ("… steaks, chops and roasts")
        if len(rows) >= 2 and any(w and w <= named and len(cells(units[i][1])[0].split()) <= 3
                                  for i, w in rows):
            out |= {i for i, w in rows if not w & named}
    return out


def own_thing(title: str, request: str = "") -> set[str]:
    """The video's own thing as words: its title's thing-words that the request names too ("Make
    your battery last" and "battery-care rules": battery, not 'last'; "Road chain care" and "my
    chain-care video": chain, care); the title's all when the request names none of them."""
    named = objects(subject_words(title))
    return (named & objects(subject_words(request))) or named


def strict_pages(units, title: str, request: str = "") -> set[str]:
    """Pages that never name the video's own thing (``own_thing``: a Debian manual, a brining
    page beside a roast-chicken video): they give background only when it names an anchor's
    subject fully, and a word of the video's topic."""
    named = own_thing(title, request)
    if not named:
        return set()
    return {p.source.location for p, _ in units} - {p.source.location for p, t in units
                                                    if named & subject_words(f"{p.source.title} {t}")}


def other_products(units: list[tuple[Passage, str]], names: set[str]) -> set[str]:
    """The pages that never name the product the video names ("Trailvolt X9 Review": x9): a car
    review's 310 Nm and 420 km are that car's, not the bike's; a page may still explain without a
    value. Nothing is set apart when the video names no product by a model code, nor when few of
    the sources name it (under a third): then the code is a detail of the video ("The Only V60
    Recipe"), not the product its sources are about."""
    if not names:
        return set()
    said: dict[str, set[str]] = {}
    for p, text in units:
        said.setdefault(p.source.location, identifiers(p.source.title))
        said[p.source.location] |= identifiers(text)
    naming = {loc for loc, ids in said.items() if ids & names}
    return set(said) - naming if 3 * len(naming) >= len(said) else set()


def other_items(units: list[tuple[Passage, str]], about: set[str], heard: set[str] = frozenset()) -> set[int]:
    """Rows of a comparison table (a label and two or more value columns: "| Brightcell 10 | 10.0 |
    5.0 | 12 |", "| French press | 18 | 300 | 4 |") for another item than the video's: its values are set beside
    the video's, neither for nor against them. Where rows name the video's topic or what its anchors say
    (``about``: "| Medium-rare | 129–134 |" where the video says "for medium rare"), every row naming a thing
    outside it is another item's; a table of properties ("| pH | 7.4–7.6 |") keeps its named rows. Where none
    is named so, the video's row is the one whose label it says most in its speech or on screen (``heard``:
    "| Beginner / general fitness |" in a video for beginners), and every other row, a property's too
    ("| Power |"), is another item's."""
    tables: dict[tuple[str, str], list[tuple[int, set[str]]]] = {}
    for i, (p, text) in enumerate(units):
        heads = [h for h in cells(p.context) if not unit_column(h)] if p.context else []
        if not text.lstrip().startswith("|") or len(heads) < 3:
            continue  # a header of three columns or more: | label | value | value | (a unit column is none)
        label = cells(text)[0]
        if not quantities(label):  # a row keyed by a value ("| 75 | 5.5 | 6.0 |") names no item
            tables.setdefault((p.source.location, p.context), []).append((i, subject_words(label)))
    out = set()
    for rows in tables.values():
        if any(objects(words) & about for _, words in rows) or len(rows) < 2:  # rows the video's topic or anchors name
            out |= {i for i, words in rows if objects(words) and not objects(words) & about}
            continue
        fit = {i: len(words & heard) for i, words in rows}  # none named: the row whose label the video says most
        best = max(fit.values())
        out |= {i for i, words in rows if (fit[i] < best if best else objects(words))}
    return out


def nearness(value, anchor_values: list) -> float:
    """1 for a value of the anchor's own scale, down to 0.5 for one ``SCALE`` times apart (each pair
    in one dimension first: "twice a year" against "every 6 months")."""
    best = 0.5
    for anchor_value in anchor_values:
        u, v = aligned(value, anchor_value)
        x, y = abs(u.point), abs(v.point)
        if v.comparable(u) and 0 < min(x, y) and max(x, y) < math.inf:
            best = max(best, 1 - 0.5 * min(1.0, math.log(max(x, y) / min(x, y)) / math.log(SCALE)))
        elif v.comparable(u):
            best = 1.0
    return best


def kind_nearness(st: Statement, kinds: set[str], anchor_values: list) -> float:
    """How near in scale the statement's values of the anchor's kinds are to the anchor's: of two
    anchors of one kind, the one of the statement's scale competes for it ("| Jams | 6 | 10 |" under
    "Headspace (mm)" is a 6 mm headspace's, not a 300 m altitude's)."""
    return max([nearness(r.value, anchor_values) for r in st.readings if kinds_of(r.value) & kinds] or [1.0])


def on_pages(units, stmts, titles, views) -> dict[str, set[int]]:
    """Per source, the anchors whose thing-words its page (any statement, its title) names."""
    page: dict[str, set[str]] = {}
    for (p, _), st, t in zip(units, stmts, titles):
        page.setdefault(p.source.location, set()).update(st.words, t)
    return {loc: {j for j, vs in enumerate(views) if set().union(*vs) & ws} for loc, ws in page.items()}


def claimed(row: list[tuple[float, bool]], st: Statement, values: list[list], cases: list[list] = ()) -> list[tuple[float, bool]]:
    """A value equal to one anchor's speaks of that anchor: "I applied the 20% rule" is about the
    video's 20 % savings rate, not evidence against its 4.5 % interest rate; so do the values of its
    kind beside it ("no longer 3.85 V per cell; now 3.80 V", "300 to 500 miles (480–800 km)"), while a
    value of another kind may still be another anchor's (a spec row's torque beside its battery). A statement
    for another case than an anchor's (``case.split_case``: "For 40 mm tyres" beside "on 28 mm road tyres") is
    not that anchor's, so it goes to the anchor whose case it is."""
    row = [(0.0, False) if j < len(cases) and another_case(cases[j], st) else s for j, s in enumerate(row)]
    owners = {id(r): {j for j, vs in enumerate(values) if row[j][0] > 0 and any(v.same_as(r.value) for v in vs)}
              for r in st.readings}
    owning = set().union(*owners.values()) if owners else set()
    out = list(row)
    for r in st.readings:
        if owners[id(r)]:
            out = [(0.0, False) if j not in owning and any(v.comparable(r.value) for v in values[j])
                   and not any(v.comparable(q.value) for v in values[j] for q in st.readings
                               if q.value.dimension != r.value.dimension) else s
                   for j, s in enumerate(out)]
    return out


def own_row(anchor_text: str, excerpt: str, context: str) -> bool:
    """Whether a table row is labelled with the video's own item ("| Daily trainer | 9.5 | 300–500 |" for
    "most daily trainers…"): on a comparison page it is for or against the video's value, not set beside it."""
    label = cells(excerpt)[0] if context and excerpt.lstrip().startswith("|") else ""
    return bool(label) and bool(objects(subject_words(label)) & objects(subject_words(anchor_text)))


def page_things(units: list[tuple[Passage, str]], heard: set[str], own: set[str]) -> tuple[set[int], set[int]]:
    """Statements about the thing their own page is about, which the video never names: a thing-word of
    the page's title that the statement says, that no other page of the task says, and that the video
    (``heard``: its title, request, speech and screen) never does ("Ferment cider cool, at 60–65 °F" on
    "Hard cider basics" beside an ale video; "Rye starters are happiest at 80 to 90 percent hydration" on
    "Keeping a rye starter"). Returns (the statements set beside the video's value, on a page that
    compares it with the video's ``own`` thing or in a statement that names that thing too; the statements set apart,
    otherwise: a sibling's)."""
    words: dict[str, set[str]] = {}
    titles: dict[str, str] = {}
    for p, text in units:
        if p.source.location not in titles:
            titles[p.source.location] = p.source.title
            words[p.source.location] = subject_words(p.source.title)
        words[p.source.location] |= subject_words(text)
    if len(set(titles.values())) < MIN_PAGES:  # "no other page says it" needs other pages to say so
        return set(), set()
    # per page, its title's things that the video never names and no other page says (a print version
    # or a mirror of the page, with the same title, is the page)
    own_only = {loc: {w for w in _things(t) - heard
                      if not any(w in ws for other, ws in words.items() if titles[other] != t)} for loc, t in titles.items()}
    beside: set[int] = set()
    apart: set[int] = set()
    for i, (p, text) in enumerate(units):
        loc = p.source.location
        if own_only[loc] & objects(subject_words(text)):
            # on a page that compares ("Dumbbell vs kettlebell swings"), or in a statement that compares it with the video's
            # thing ("… 10 cm higher than a plain standing desk"), the other thing is set beside the video's; otherwise it is
            # the page's own subject, which the video never names: not evidence ("Treats should stay under 10% of a
            # cat's daily calories" on a cat-feeding guide beside an adult-dog video)
            both = own & words[loc] and comparison_page(titles[loc]) or own & objects(subject_words(text)) and compares(text)
            (beside if both else apart).add(i)
    return beside, apart


def _things(title: str) -> set[str]:
    """A title's thing-words, not its activities and states: "Switching to winter bar oil" is about bar oil, and
    "Storing expressed breast milk" about breast milk, not switching or storing. Spelled words only: Chinese
    is read as character pairs, which are no words ("很多", "方法" in any title), so no thing of a page's own."""
    doing = subject_words(" ".join(re.findall(r"\b[A-Za-z]{3,}(?:ing|ed)\b", title)))
    return {w for w in objects(subject_words(title)) - doing if re.fullmatch(r"[a-z][a-z0-9-]*", w)}


def set_apart(units: list[tuple[Passage, str]], stmts: list[Statement], values: list[list], said_by: list[set[str]],
              about: set[str], codes: set[str], title: str, asked: str,
              heard: str) -> tuple[set[str], set[int], dict[int, str]]:
    """What ``scope`` sets apart before ranking: (pages that never name the video's thing, statements set
    beside the video's value, statements left out with the reason). ``about`` is the thing-words of the
    video's title and request, ``codes`` the product codes they name, ``heard`` all it says and shows
    (empty: unknown, so no page's own thing is told apart)."""
    strict = strict_pages(units, title, asked)
    heard_words = subject_words(heard)
    beside = other_items(units, about | set().union(*said_by), heard_words)  # "| Medium-rare |" where the video says it
    # what the video never names can be told only from all it says and shows, not from its anchors alone
    theirs, sibling = page_things(units, heard_words | set().union(*said_by),
                                  own_thing(title, asked)) if heard else (set(), set())
    # ...unless it revises the anchor's own figure ("we no longer recommend replacing Flattop chains at 0.5%")
    sibling = {i for i in sibling if not (REVISION.search(normalise(units[i][1])) and any(
        states_own([r.value for r in stmts[i].readings], vs) for vs in values))}
    gone = dict.fromkeys(sibling, "a statement about its page's own thing, which the video never names")
    gone |= dict.fromkeys(other_rows(units, title) | {i for i, st in enumerate(stmts) if other_case(st, sum(values, []))},
                          "a table row for another case or thing than the video's")
    foreign = other_products(units, codes)
    gone |= {i: "a value on a page about another product than the video's" for i, (p, _) in enumerate(units)
             if p.source.location in foreign and stmts[i].readings}
    return strict, beside | theirs, gone


def backgrounds(anchors: list[Anchor], views: list[list[set[str]]], props: list[set[str]], title: str,
                 asked: str) -> list[set[str]]:
    """What background must name per anchor: its thing-words and what it measures; an anchor naming no
    thing ("£64.99" on screen) is about the video's own thing (title and request), not every word
    of the request ("Is anything out of date?" is not about a page's "date of purchase")."""
    own = own_thing(title, asked)
    return [(set().union(*views[j]) if any(objects(subject_words(t)) for t in [a.text] + [m.text for m in a.moments])
             else own) | props[j] for j, a in enumerate(anchors)]
