"""Stage 4: how an evidence excerpt relates to what the video states (seed 000 §2.1): supports,
contradicts, updates, explains, compares or applies.

``relate_rules`` is the embedded default, deterministic and measured. It runs after the branch
has found the excerpt to be about the anchor's subject (``facts.about``), and compares values as
intervals (``vidsleuth.values``):
- the anchor's value (a point, or its own interval) inside the interval the source states for the
  same kind of quantity -> supports ("between 350 and 375 °F" holds 180 °C; "at least 10 minutes"
  holds 15);
- outside -> updates when the source is dated after the video or states a revision ("now
  recommend", "new guidance", "will increase to … in 2025", "no longer", "已更新", its own earlier
  edition: "Earlier versions of this FAQ said 40 to 60 ml", "由原来的18个月缩短为12个月"), else
  contradicts. A revision cue outranks a comparison cue ("we now recommend 100 cm, lower than …");
  a later date alone does not make an argument a revision ("25% a week is overkill");
- a value the source disparages ("45 minutes is far too short", "5.5 bar is way too hard",
  "八十度根本泡不开") is not support: the source's other value decides, or the disparaged one
  contradicts; a difference ("reduce by 5 psi", "within 1–2 °C") or a figure reported from a
  video or review is no stance of the source;
- a comparison cue with a second value or another object -> compares; so does any value or reason
  on a page whose title compares things ("A vs B", "… compared", "对比");
- a reason or mechanism around a value that holds the video's ("…, which is why a minimum matters",
  "Below about 10 °C, plants suffer chilling injury", "这就是…的原因") -> explains; a worked
  calculation on it ("33.6 × 2 ÷ 12", "按每公斤…计算") -> applies;
- a figure the source calls claimed beside one of its own ("Claimed range is 40 km but I get 26") is
  someone else's; the value before an arrow or named as an earlier edition's ("in earlier editions",
  "was our old default", "不再建议两年") is the former one, and another value then updates it;
- a period the video repeats an action at ("every two weeks") meets the source's periods, not a
  duration beside them ("within a week after repotting");
- no value of the anchor's kind: a how-to cue -> applies; a reason -> explains; a pointer ("see
  our other article") or a bare mention -> ``None``: no stance, not evidence (the branch drops it
  and counts why).
Of several values of the kind, the most specific (narrowest interval) decides: a safety limit "up
to 260 °C" yields to "200–220 °C" in the same row or sentence. A model relater (the endpoint alone,
or judging the rules' borderline outputs) is ``report.judge``. A value in an "if …" clause after the
sentence's own figure is a case it warns of (``figures.hypothetical``).
"""

from __future__ import annotations

import re

from ..values import commensurate, normalise
from . import figures
from .case import another_case, split_case
from .coherence import BACKGROUND, DIFFERING
from .cues import (
    APPLIED,
    BECAUSE,
    BOUND_WORDS,
    CALCULATION,
    CEILING,
    CHANGE,
    CLAIMED_AFTER,
    CLAIMED_BEFORE,
    CONDITION,
    CURRENT,
    DELTA_AFTER,
    DELTA_BEFORE,
    DISPARAGE,
    DISPUTE,
    EARLIER,
    ENDORSED,
    FOLLOWED,
    FORMER,
    FORMER_AFTER,
    FORMER_PAREN,
    INSTRUCTION,
    KEEP,
    NAMED_FIGURE,
    PAST_ADVICE,
    QUESTION,
    REASON,
    REJECT,
    REPORTED,
    REVISION,
    SELF_PAST,
    WAIT,
    ZH_FROM_TO,
    clause_of,
    compares,
    comparison_page,
    disparaged,
    explanation_page,
    is_step,
    own_case,
)
from .facts import agrees as _agrees
from .facts import objects, quantities, statement, subject_words
from .figures import boundary, difference, habits, hypothetical, one_kind, other_owner, other_whole, row_case
from .figures import on_subject as _on_subject
from .scope import own_row
from .types import Anchor
from .worded import worded


def anchor_text(anchor: Anchor) -> str:
    return " ".join([anchor.text] + [m.text for m in anchor.moments if m.text != anchor.text])


def newer(source_date: str, video_date: str) -> bool:
    """The source is dated after the video (dates compared as far as both are stated)."""
    n = min(len(source_date[:10]), len(video_date[:10]))
    return bool(n >= 4 and source_date[:n] > video_date[:n])


def _later(excerpt: str, source_date: str, video_date: str) -> str:
    """Why the excerpt is a revision of the video, or '' (a later source that disputes the video's
    figure — "my battery gave only 540 Wh, well below the claim" — contradicts it, it does not revise it)."""
    cue = REVISION.search(excerpt)
    if cue:
        return f"stated as a revision (“{cue.group(0)}”)"
    arguing = DISPUTE.search(excerpt) or DISPARAGE.search(BOUND_WORDS.sub(" ", excerpt))
    if newer(source_date, video_date) and not arguing:
        return f"source dated {source_date}, after the video ({video_date})"
    return ""


def _video_says(cue: str, anchor_text_: str) -> bool:
    """Whether the video says a difference cue's first word too ("drop", "apart"): it names the quantity, not a change."""
    return bool(re.search(rf"\b{re.escape(cue.split()[0])}\b", anchor_text_, re.I))


def _former(text: str, start: int, end: int) -> bool:
    """Whether the value at ``text[start:end]`` is told as the one a change left behind ("从199元上调到219元", "£14.99 → £12.99")."""
    before, after, wide = text[max(0, start - 60):start], text[end:end + 60], text[max(0, start - 200):start]
    return bool(FORMER.search(before[-45:]) or EARLIER.search(before) or FORMER_PAREN.search(before)
                or PAST_ADVICE.search(wide) or SELF_PAST.search(wide) or FORMER_AFTER.match(after)
                or (re.search(r"[从由]\s*(?:每[天日周月年次])?\s*$", before) and ZH_FROM_TO.match(after[:12]))
                or re.match(r"\s*(?:→|->|⟶|➔)", after[:4]))


def _not_own(text: str, r, anchor_text_: str) -> str:
    """Whether ``text`` states this value only as a "former", "reported" or "ceiling" figure ('' if not)."""
    before = text[max(0, r.value.start - 60):r.value.start]
    if _former(text, r.value.start, r.value.end):
        return "former"
    after = text[r.value.end:r.value.end + 24]
    delta = DELTA_BEFORE.search(before)  # "a drop of 8 mm" is the heel-to-toe drop where the video names the drop too
    delta = delta and not _video_says(delta.group(0), anchor_text_)
    apart = DELTA_AFTER.search(after)  # "18 to 24 inches apart" is a spacing where the video spaces plants "60 cm apart"
    apart = apart and not _video_says(re.sub(r"^\s*or \d+(?:\.\d+)?\s+", "", apart.group(0)), anchor_text_)
    if not CHANGE.search(anchor_text_) and (delta or apart or (
            # "within 1–2 °C of the tank" is a difference; "double within 4 to 8 hours" a time it takes
            re.search(r"\bwithin\s*$", before) and (r.value.form == "range" and r.value.dimension != "time"
                                                     or re.match(r"\s*of\b", after)))):
        return "difference"  # the video states a setting, the source a change of one
    said = REPORTED.search(before)
    if said and not FOLLOWED.search(before[:said.start()]):  # "我按视频说的每7天浇一次水": the writer followed it
        return "reported"
    ceiling = bool(CEILING.search(before[-60:]) and not REVISION.search(before)  # "is now limited to 20 km/h": the new figure
                   and not re.search(r"\b(?:max(?:imum)?|rated|limits?)\b|\b(?:no|not) \w+er than\b|不超过|至少|最多|上限",
                                     anchor_text_, re.I))  # the video states a limit too ("no faster than 9 m/min")
    return "ceiling" if ceiling else ""


def _specific(p) -> tuple[bool, float, bool]:
    """How specific one (anchor value, reading) pair is: a bound meets the source's bound of the same side
    first ("at least 7 feet" and "… best between 8 and 9 feet …, never lower than 7 feet"); then one that holds the
    video's figure (a sentence stating it among others states it: "a 12 V battery rests at 12.6 to 12.8 V" for 12.6 V);
    then the narrowest, an approximation as specific as a point."""
    a, v = p[0], p[1].value
    return (a.form not in ("lower", "upper") or v.form != a.form, not _agrees(v, a),
            0.0 if v.form == "approx" else v.width())


def _deciding(kept: list, anchor_values: list, anchor_text_: str) -> tuple:
    """(anchor value, reading, unsaid): the pair that decides, the most specific; a claim of several
    quantities ("keeps 80 % of its capacity after about 500 cycles") is held only where each quantity
    the source states of it agrees: the one it gives otherwise decides ("80 % at 1,000 cycles").
    ``unsaid``: the sentence holds only the amount the claim acts on ("we boiled one litre" for "it
    boiled a litre of water in 3.5 minutes") and says nothing of its other quantities: weaker support."""
    a, r = min(kept, key=_specific)
    others = {b.dimension: b for b, _ in kept if b.dimension != a.dimension}
    if _agrees(r.value, a):
        off = [q for b in others.values() if not _agrees((q := min([p for p in kept if p[0] is b], key=_specific))[1].value, b)]
        if off:
            a, r = off[0]
    acted_on = bool(re.match(r"\s*of\b", normalise(anchor_text_)[a.end:a.end + 6]))
    unsaid = acted_on and any(b.dimension != a.dimension and not b.dimension.startswith("count:")
                              and b.dimension not in others for b in anchor_values)
    return a, r, unsaid


def _mechanism(norm: str, pairs) -> str:
    """Why the sentence explains the video's value ('' if it does not): it gives a reason around a value that
    holds the video's ("…, which is why a minimum room temperature matters", "这就是…的原因"), or what follows
    from such a value in a condition ("Below about 10 °C, tomato plants suffer chilling injury"); not a step,
    an own case, a consequence that is an instruction ("If it is below 10 °C, wait") or a value judged wrong."""
    if is_step(norm) or own_case(norm):
        return ""
    cue, lead = REASON.search(norm), CONDITION.match(norm)
    for a, r in pairs:
        if not (_agrees(r.value, a) or boundary(r.value, a)) or REJECT.search(KEEP.sub(" ", clause_of(norm, r))):
            continue
        if cue:
            return f"gives the reason (“{cue.group(0)}”) around the video's {a.label()} (the source's {r.value.label()})"
        rest = norm[lead.end():].strip() if lead else ""
        if lead and r.value.end <= lead.end() and not (INSTRUCTION.match(rest) or is_step(rest)):
            return f"states what follows from {r.value.label()} (the video has {a.label()}): a mechanism"
    return ""


def _foreign(pairs, norm: str, anchor_objects: set[str], anchor_text_: str) -> dict[int, str]:
    """id(reading) -> why its value is not the source's own figure (``_not_own``). A maximum of the anchor's own thing
    that is the video's own figure is the spec the video quotes ("Maximum flight time 34 minutes" for a claimed 34 min,
    "Max hover time 30 min" for "about 31 minutes"), not a ceiling beside a setting. A figure the source calls claimed
    ("Claimed range is 40 km but I get around 26 km") is someone else's where the source states one of its own beside it."""
    # a ceiling beside a video that states a limit itself ("keep it to no more than one hour a day") is its peer
    foreign = {id(r): why for a, r in pairs if (why := _not_own(norm, r, anchor_text_))
               and not (why == "ceiling" and (a.form in ("lower", "upper")
                                              or r.value.form == a.form and r.value.same_as(a) and r.near & anchor_objects
                                              or a.form == "approx" and r.value.form == "point" and a.contains(r.value)))}
    claimed = {id(r) for _, r in pairs if id(r) not in foreign and (CLAIMED_BEFORE.search(norm[max(0, r.value.start - 40):r.value.start])
                                                                   or CLAIMED_AFTER.match(norm[r.value.end:r.value.end + 40]))}
    if any(id(r) not in foreign and id(r) not in claimed for _, r in pairs):
        foreign.update(dict.fromkeys(claimed, "reported"))
    # one value named as the present one ("launch $499 · now $449", "已降至329元，比此前的399元"): the others of its kind were
    current = {id(r) for _, r in pairs if CURRENT.search(norm[max(0, r.value.start - 30):r.value.start])}
    now = {r.value.dimension for _, r in pairs if id(r) in current}
    foreign.update({id(r): "former" for _, r in pairs if r.value.dimension in now and id(r) not in foreign and id(r) not in current})
    return foreign


def _only_rejected(pair, foreign: dict[int, str], norm: str, later: str) -> tuple[str, str, float] | None:
    """The decision when the source states every value of the kind as not its own or rejects it."""
    a, r = pair
    # the former value alone still revises ("lowered from 50"); someone else's value or a
    # ceiling, stated without disparaging it, is no stance of the source
    if id(r) in foreign and (not (foreign[id(r)] == "former" or disparaged(norm, r)) or not _agrees(r.value, a)):
        return "", f"states the value only as a {foreign.get(id(r), 'rejected')} figure: no stance", 0.0
    if _agrees(r.value, a):
        # rejecting the video's figure is a dispute; it revises it only where the source says it was revised
        revised = later if later.startswith("stated as a revision") else ""
        revised = revised or ("the source names it as a former figure" if foreign.get(id(r)) == "former" else "")
        return ("updates" if revised else "contradicts",
                f"the source rejects the video's {a.label()} (“{clause_of(norm, r).strip()}”)" + (f"; {revised}" if revised else ""),
                0.75)
    return None


def _agreeing(a, r, excerpt_norm: str, row: bool, later: str, unsaid: bool) -> tuple[str, str, float]:
    """The relation of a source figure that holds the video's: a narrowing under a revision cue updates it, an
    application or a reason is one, else it supports."""
    if later and a.form == "range" and r.value.form in ("point", "approx") and not r.value.contains(a):
        return "updates", f"narrows the video's {a.label()} to {r.value.label()}; {later}", 0.8  # 调整为12个月
    if APPLIED.search(excerpt_norm):
        return "applies", f"applies the video's {a.label()} to a case of its own", 0.7
    if not row and BECAUSE.search(excerpt_norm):  # "That is why bakers settle on about 2 %": the reason for the figure
        return "explains", f"gives the reason for the video's {a.label()} (the source's {r.value.label()})", 0.7
    how = "inside" if r.value.form != "point" else "equal to" if a.same_as(r.value) else "the rounded figure of"
    said = (f"the source's {r.value.label()} meets the video's limit {a.label()}" if a.form in ("lower", "upper")
            and r.value.form == "range" else f"the video's {a.label()} is {how} the source's {r.value.label()}")
    return ("supports", said
            + ("; it says nothing of the video's other figures" if unsaid else ""), 0.75 if unsaid else 0.9)


def _competing(pairs: list, foreign: dict, anchor_objects) -> list:
    """The source's own values compete for the anchor's subject, and so does the video's own bound whoever
    the clause names ("they should never be lower than 7 feet"), and so does the video's own figure, which a sentence
    states of the video's thing whatever else it names ("for an 18 g dose, stop the shot at 36 g"); a former or
    reported one stays beside them.
    An offset is no setting, whatever it is said of ("the syrup 15 °C above the boiling point, 115 °C")."""
    own = [p for p in pairs if id(p[1]) not in foreign]
    # a figure set in place of a former one ("a 48-hour cold ferment instead of the 24 hours") is that one's subject's
    near = _on_subject(own, anchor_objects) or (own if "former" in foreign.values() else [])
    near += [p for p in own if p not in near and p[0].form in ("lower", "upper") and p[1].value.form == p[0].form
             and _agrees(p[1].value, p[0])]
    if not any(_agrees(q.value, a) for a, q in near):  # none of them holds it: the video's own figure, said of another word
        near += [p for p in own if p not in near and p[1].value.form == p[0].form == "point" and p[1].value.same_as(p[0])]
    return (near + [p for p in pairs if foreign.get(id(p[1])) not in (None, "difference")]) or pairs


def _named(excerpt_norm: str, a, r) -> bool:
    """The video's figure used as the name of a piece of advice ("The 16 kg advice is from the 2000s", every "80%
    limit" toggle), in a sentence that neither tells the writer's own case nor endorses it."""
    return bool(NAMED_FIGURE.match(excerpt_norm[r.value.end:]) and _agrees(r.value, a) and not own_case(excerpt_norm)
                and re.search(r"\b(?:the|that|this|your|every|an?)\W*$", excerpt_norm[:r.value.start], re.I)
                and not ENDORSED.search(excerpt_norm))


def _by_values(anchor_values, st, excerpt_norm: str, later: str, row: bool,
               anchor_objects: set[str] = frozenset(), anchor_text_: str = "") -> tuple[str, str, float] | None:
    anchor_norm = normalise(anchor_text_)
    pairs = [(a, r) for a in anchor_values for r in st.readings if one_kind(a, r.value) and commensurate(a, r.value)
             and not other_whole(anchor_norm, a, excerpt_norm, r.value) and not other_owner(excerpt_norm, r.value, anchor_objects)
             and difference(anchor_norm, a) == difference(excerpt_norm, r.value)]  # a difference meets a difference only
    if not pairs:
        return None
    paired = {id(r) for _, r in pairs}  # the rest of the sentence's figures are another thing's
    pairs = [p for p in pairs if row or not hypothetical(excerpt_norm, p[1])] or pairs  # "…; if you wait an hour or more"
    if not row and QUESTION.search(excerpt_norm):
        return "", "asks about the value: no stance", 0.0
    case = row_case(st, anchor_values)
    if case:
        return "", f"a table row for another case ({case.label()})", 0.0
    foreign = {} if row else _foreign(pairs, excerpt_norm, anchor_objects, anchor_text_)
    # a sentence that rejects some value of the kind, or reports someone else's, argues: it tells of no case of its own
    wait, negated = bool(WAIT.search(anchor_norm)), bool(re.search(r"\b(?:never|don'?t|do not)\b|不要|切勿", anchor_norm, re.I))
    arguing = any(foreign.get(id(r)) not in (None, "difference") or disparaged(excerpt_norm, r, wait, negated) for _, r in pairs)
    pairs = _competing(pairs, foreign, anchor_objects)
    pairs = habits(pairs, excerpt_norm, anchor_norm)
    kept = [(a, r) for a, r in pairs if (row or not disparaged(excerpt_norm, r, wait, negated)) and id(r) not in foreign]
    rejected = [(a, r) for a, r in pairs if (a, r) not in kept]
    why = "" if row else _mechanism(excerpt_norm, [p for p in pairs if id(p[1]) not in foreign])
    if why:  # "filters rated at 0.1 micron also remove bacteria, because bacteria are larger than 0.2 micron"
        return "explains", why, 0.7
    # "10 cm higher than your sitting desk" states a comparison of its own: its figure is not set beside another thing's
    differ = figures.beside(pairs, [] if compares(anchor_norm) else [r for r in st.readings if id(r) not in paired], anchor_values, foreign)
    if compares(excerpt_norm) and not later and differ:  # beside a different figure ("120 m in the UK, 400 ft in the US" is one)
        a, r = pairs[0][0], differ[0]  # "unlike this project, a gravel tyre uses 100 psi": another thing's
        return "compares", f"sets the video's {a.label()} beside another value ({r.value.label()})", 0.7
    if not kept:
        decided = _only_rejected(rejected[0], foreign, excerpt_norm, later)
        if decided:
            return decided
        kept = rejected
    held = [(a, r) for a, r in kept if _agrees(r.value, a)]
    if not row and held and CALCULATION.search(excerpt_norm):  # "12 m² per litre and two coats: 33.6 × 2 ÷ 12 = 5.6 litres"
        return "applies", f"works a calculation on the video's {held[0][0].label()}", 0.7
    a, r, unsaid = _deciding(kept, anchor_values, anchor_text_)
    # the writer's own case, when every value of the kind is told of it ("Four weeks is the minimum, mine took
    # six" states the rule, then a case), at a figure: a bound the writer keeps ("I never go above 92 °C") is a rule;
    # at the video's figure it applies the claim, at another it tells against it
    if (not row and not arguing and r.value.form in ("point", "approx") and own_case(excerpt_norm)
            and (len({id(q) for _, q in kept}) == 1 or all(own_case(clause_of(excerpt_norm, q)) for _, q in kept))):
        return ("applies" if _agrees(r.value, a) else "contradicts",
                f"tells of the writer's own case at {r.value.label()} (the video has {a.label()})", 0.7)
    lead = None if row else CONDITION.match(excerpt_norm)  # "If the seat moves more than 1 inch, tighten it": its limit
    if lead and r.value.end <= lead.end() and boundary(r.value, a) and r.value.form != a.form:
        return "supports", f"states the video's limit {a.label()} as a condition ({r.value.label()})", 0.75
    if not row and not later and _named(excerpt_norm, a, r):
        return "", f"names the video's {a.label()} as the name of advice: no stance of its own", 0.0
    return _decided(a, r, pairs, foreign, excerpt_norm, row, later, unsaid)


def _decided(a, r, pairs, foreign: dict, excerpt_norm: str, row: bool, later: str, unsaid: bool) -> tuple[str, str, float]:
    """The last of ``_by_values``: the source's figure ``r`` against the video's ``a``, by revision and agreement."""
    if later and not r.value.same_as(a) and any(foreign.get(id(q)) == "former" and q.value.same_as(b) for b, q in pairs):
        return "updates", f"{DIFFERING} {r.value.label()} in place of the video's {a.label()}, which it sets aside; {later}", 0.85
    if _agrees(r.value, a):
        return _agreeing(a, r, excerpt_norm, row, later, unsaid)
    was = next((q for b, q in pairs if foreign.get(id(q)) == "former" and _agrees(q.value, b) and not re.search(  # a preference
        r"(?:instead of|rather than|in place of|而不是)\W*(?:\w+\s+)?$", excerpt_norm[max(0, q.value.start - 30):q.value.start])), None)
    later = later or (f"stated as a revision of the former {was.value.label()}" if was else "")
    if later:  # a stated revision is the source's current figure, before its other statements
        return ("updates", f"{DIFFERING} {r.value.label()} where the video has {a.label()}; {later}",
                0.9 if later.startswith("stated as a revision") else 0.8)
    return _differing(a, r)


def _differing(a, r) -> tuple[str, str, float]:
    """The decision on a source figure that does not hold the video's, stated as no revision."""
    if a.form in ("lower", "upper") and r.value.form in ("point", "approx", "range") and a.contains(r.value):
        # "charged to 100%" is no dispute of "don't let it drop below 20%": a figure well inside a limit keeps it
        return "", f"states {r.value.label()}, inside the video's limit {a.label()}: neither for nor against it", 0.0
    return "contradicts", f"{DIFFERING} {r.value.label()} where the video has {a.label()}", 0.85


def relate_rules(anchor: Anchor, excerpt: str, source_date: str = "", video_date: str = "",
                 context: str = "", title: str = "") -> tuple[str | None, str, float]:
    """(relation, rationale, confidence) from the values both sides state; ``context`` is the
    table header of a row excerpt, ``title`` the source's title: on a page that compares things
    ("X vs Y", "Squeeze filters compared", "储水式与即热式热水器对比") a value or reason the page
    gives for the video's thing is set beside the alternatives (compares), unless it revises or
    applies it, or is a table row labelled with the video's own item (``scope.own_row``)."""
    rel, why, conf = _relate(anchor, excerpt, source_date, video_date, context)
    if rel in ("supports", "contradicts", "explains") and comparison_page(title) and not own_row(anchor_text(anchor), excerpt, context):
        return "compares", f"on a page that compares (“{title[:60]}”): {why}", conf
    if rel == "supports" and explanation_page(title):  # its agreeing figure is the one it gives the reasons for
        return "explains", f"on a page that explains (“{title[:60]}”): {why}", min(conf, 0.7)
    if explanation_page(title) and why.startswith(("only mentions", "a step of a procedure")):  # its reasoning, in its words
        return "explains", f"on a page that explains (“{title[:60]}”), {BACKGROUND}", 0.4  # its title's anchor only: coherence
    return rel, why, conf


def _relate(anchor: Anchor, excerpt: str, source_date: str, video_date: str, context: str) -> tuple[str | None, str, float]:
    text = anchor_text(anchor)
    aq = quantities(text)
    st = statement(excerpt, context)
    norm = normalise(excerpt)
    case, _ = split_case(anchor.text)  # "For a 75 kg rider on 28 mm tyres, …": whom the claim is for
    other = another_case(case, st)
    if other:
        return None, f"gives {other}, another case than the video's {', '.join(c.label() for c in case)}: no stance", 0.0
    claim = [v for v in aq if not any(v.dimension == c.dimension and v.same_as(c) for c in case)]
    if claim and any(a.comparable(r.value) for a in claim for r in st.readings):
        aq = claim  # the claim's figure decides; the case's only selects
    later = _later(norm, source_date, video_date)
    decided = _by_values(aq, st, norm, later, bool(context) and excerpt.lstrip().startswith("|"),
                         objects(subject_words(text) | subject_words(anchor.subject)), text)
    if decided:
        return (None, *decided[1:]) if not decided[0] else decided
    return worded(text, st, norm, later, bool(aq))
