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
- a comparison cue with a second value or another object -> compares;
- no value of the anchor's kind: a how-to cue -> applies; a reason -> explains; a pointer ("see
  our other article") or a bare mention -> ``None``: no stance, not evidence (the branch drops it
  and counts why).
Of several values of the kind, the most specific (narrowest interval) decides: a safety limit "up
to 260 °C" yields to "200–220 °C" in the same row or sentence.

A model relater (the endpoint alone, or judging the rules' borderline outputs) is ``report.judge``.
"""

from __future__ import annotations

import re

from ..values import commensurate, normalise
from .facts import Reading, codes, objects, quantities, statement, subject_words
from .facts import agrees as _agrees
from .types import Anchor

_COMPARE = re.compile(r"\b(compared (?:with|to)|by comparison|whereas|versus|vs\.?|unlike|in contrast|than|differs? from|different from)\b"
                      r"|相比|相较|不同于|(?<![从因进然])而(?![且已])(?=\S)"  # 从而/因而: a consequence, not a contrast
                      r"|(?<![对无])比(?![例较率赛重])[^，。；,;]{1,12}?(?:更|还|要|低|高|多|少|大|小|快|慢|贵|便宜|长|短|强|弱)", re.I)  # 比…更
REVISION = re.compile(
    r"\b(now (?:recommend|advise|suggest|specif|call|require|say|list|set|use|state)\w*|revised|revision|updated?|"
    r"supersed\w*|replaced by|no longer|new (?:guidance|guideline|standard|recommendation|specification|rule|limit|"
    r"edition|version|figure)s?|as of (?:20\d\d|january|february|march|april|may|june|july|august|september|october|"
    r"november|december)|(?:will|would|is set to|are set to) (?:increase|decrease|rise|fall|drop|change|go up|go down|"
    r"be raised|be lowered|become)|(?:increased|decreased|raised|lowered|changed|reduced) (?:it )?(?:to|from)|"
    r"starting (?:in|from) 20\d\d|from 20\d\d on|effective (?:from|as of)|current (?:guidance|recommendation|edition|"
    r"standard|guideline)s?|latest (?:guidance|edition|version|recommendation|guideline)s?|"
    r"now (?:pays|costs|charges|offers|gives|stands at)|(?:have|has) (?:lowered|raised|cut|increased|reduced|changed)|"
    r"(?:earlier|previous|older|old|former|original|past) (?:\w+ )?(?:editions?|versions?|advice|guidance|"
    r"recommendations?|recipe|card|guide|rule|figure|standard)s?|(?:guidance|advice|recommendation) has changed)\b"
    r"|已更新|更新为|更新后|最新|新版|修订|现在建议|现建议|调整为|改为|不再|上调|下调|提高到|降低到|由原来的|原来的(?!\S{0,3}倍)"
    r"|(?:缩短|延长|减少|增加|降低|提高|下降|上升|降|涨|调)(?:为|到|至)|降价|涨价", re.I)
_DISPARAGE = re.compile(r"\b((?:way |far |much )?too (?!bad\b|and\b|but\b|or\b|so\b|is\b|was\b|are\b)[a-z]+|far too|not enough|"
                        r"(?:is|isn't|are|aren't) (?:not )?enough|insufficient|never|don't|do not|avoid|rather than|"
                        r"instead of|not|no longer|won'?t|will not|can'?t|cannot|wrong|myth|mistaken?|outdated|incorrect|obsolete|overkill|excessive|unnecessary|"
                        r"more than (?:you|anyone) needs?)\b"
                        r"|不够|太短|太长|太高|太低|不要|避免|错误|而不是|过时|不行|根本\S{0,2}[不没]|哪有|哪里有|才怪", re.I)
_DISPUTE = re.compile(r"\b(claim(?:s|ed)?|only (?:gave|got|managed|lasted|reached|measured)|well (?:below|above|short of)|"
                      r"in (?:my|our) (?:test|tests|experience|measurement)|measured|actually|in reality|myth|wrong|"
                      r"not true|exaggerat\w*|overstat\w*)\b|实测|测了|测得|测出|其实|并非|夸大", re.I)
_BOUND_WORDS = re.compile(r"\b(?:not|no) (?:more|less|fewer|longer|shorter|higher|lower) than\b|\bnot exceed\w*|\bnot below\b|"
                          r"\b(?:do not|don'?t|never)\s+(?:\w+\s+){0,2}?(?:below|above|under|over|beyond|exceed\w*)\b|"
                          r"\bnot above\b|\bnot under\b|\bnot over\b|不超过|不少于|不低于|不高于|不多于", re.I)
_EXPLAIN = re.compile(r"\b(because|since|so that|which is why|the reason|reasons?|matters?|important|helps?|causes?|"
                      r"prevents?|depends? on|affects?|sets? how|means?|leads? to|results? in|reduces?|raises?|changes? the|determines?|"
                      r"controls?|influences?|key to|so the)\b"
                      r"|(?:that|this)(?:'s| is) why|exists? (?:mainly |only |largely )?to|in order to|serves? to"
                      r"|因为|由于|所以|有助于|导致|降低|减少|增加|取决于|原因", re.I)
_BECAUSE = re.compile(r"\b(?:because|which is why|(?:that|this)(?:'s| is) why|the reason)\b|因为|由于", re.I)
_POINTER = re.compile(r"\b(in another (?:article|post|video|guide)|see (?:also|our|the)|we cover|covered (?:in|elsewhere)|"
                      r"read more|click here|subscribe|in a (?:later|future|separate) (?:article|post|video))\b"
                      r"|详见|参见|另文", re.I)
_APPLY = re.compile(r"\b(appl(?:y|ies|ied)|use the same|the same (?:method|technique|approach|setting)|for example|"
                    r"in practice|works? (?:just )?as well|can be used)\b|同样适用|也适用|也可以用于", re.I)


def anchor_text(anchor: Anchor) -> str:
    return " ".join([anchor.text] + [m.text for m in anchor.moments if m.text != anchor.text])


# "… and they have never split": a conjunction opening a new subject starts another clause
_NEW_SUBJECT = re.compile(r"\s(?:and|but|so)\s+(?=(?:they|it|it's|he|she|we|i|you|that|this|there)\b)", re.I)


def _clause(text: str, r: Reading) -> str:
    """The clause around one value (commas, semicolons and a conjunction before a new subject bound it)."""
    lo = max(text.rfind(c, 0, r.value.start) for c in ",;:，；：")
    lo = max([lo] + [m.end() - 1 for m in _NEW_SUBJECT.finditer(text, 0, r.value.start)])
    his = [i for i in (text.find(c, r.value.end) for c in ",;:，；：") if i >= 0]
    his += [m.start() for m in _NEW_SUBJECT.finditer(text, r.value.end)]
    return text[lo + 1:min(his) if his else len(text)]


# telling the reader not to change a value keeps it ("230 °C is right — don't drop it", "never go lower"):
# a negated change is an endorsement, not a rejection
_KEEP = re.compile(r"\b(?:don'?t|do not|never|no need to|there'?s no need to)\s+(?:\w+\s+)?(?:drop|lower|raise|reduce|increase|"
                   r"change|cut|touch|adjust|shorten|lengthen|go (?:any )?(?:lower|higher|longer|shorter))\b(?:\s+(?:it|that|this))?"
                   r"|不要(?:降低|调低|调高|改变|减少|增加)|别(?:降低|调低|调高|改)", re.I)


def disparaged(text: str, r: Reading) -> bool:
    """Whether the source states this value only to reject it ("45 minutes is far too short")."""
    return bool(_DISPARAGE.search(_KEEP.sub(" ", _BOUND_WORDS.sub(" ", _clause(text, r)))))


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
    arguing = _DISPUTE.search(excerpt) or _DISPARAGE.search(_BOUND_WORDS.sub(" ", excerpt))
    if newer(source_date, video_date) and not arguing:
        return f"source dated {source_date}, after the video ({video_date})"
    return ""


def _compares(text: str) -> bool:
    return bool(_COMPARE.search(re.sub(r"\b(?:more|less|fewer|no|not|rather) than\b", " ", text, flags=re.I)))


# a value the source states as the former one ("lowered from 50 mm/s", "up from $23,000",
# "比2016版的6克"), as someone else's ("whoever says 60 g…", "a video said 6000 steps", "看到一个视频说"),
# or a machine's ceiling ("Maximum bed temperature: 110 °C") is not the source's own figure for it
_FORMER = re.compile(r"(?:\b(?:lowered|raised|reduced|increased|decreased|changed|cut|down|up|moved|revised|updated|"
                     r"dropped|rose|fell)\s+from(?:\s+(?:the|its|their|our|a|an)(?:\s+[a-z-]+){0,4})?|\b(?:instead of|rather than|in place of|previously|formerly|"
                     r"originally|used to be|replac(?:ing|es|ed)|supersed(?:ing|es))(?:\s+(?:the|its|their|our|an?))?|比\S{0,12}的|由?原来的|原先的?|以前的?"
                     r"|(?:不再是|而不是|取代|代替)(?:以前|之前|原来|原先|过去)?[^，。；,;\s\d]{0,5}"
                     r"|(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:元|eur|usd|gbp))\s*[,·|/]?\s*(?:was|previously|before|rrp))"  # "£12.99 was £14.99"
                     r"\s*(?:us\$|[$€£¥])?\s*$", re.I)
# said after the value: "the two-month interval we gave before", "30 seconds, as we used to say"
_FORMER_AFTER = re.compile(r"^[^.;:,]{0,25}?\b(?:we|they|i|you|it)\s+(?:\w+\s+)?(?:gave|said|stated|listed|recommended|advised|"
                           r"suggested|quoted|used)\s+(?:\w+\s+)?(?:before|previously|earlier|formerly|in the past|until)\b", re.I)
# a figure the source attributes to its own earlier edition ("Earlier editions of this handbook gave 40 ppm",
# "Our old recipe card said 30 seconds", "Our previous advice was 60 g")
_EARLIER = re.compile(r"\b(?:earlier|previous|older|old|former|original|past)\s+(?:\w+\s+){0,5}?(?:said|gave|stated|"
                      r"was|were|listed|recommended|suggested|advised)\s+(?:\w+\s+){0,2}$", re.I)
# a difference, not a setting: "a degree or two out", "reduce by 5 psi", "add 0.2 bar", "knock a bar off",
# "within 1–2 °C of the tank"
_DELTA_BEFORE = re.compile(r"\b(?:by|add(?:ing)?|subtract(?:ing)?|knock(?:ing)?|drop(?:ping)?|plus|minus|another|extra)"
                           r"(?:\s+(?:about|around|roughly|approximately|nearly|almost|some|up to))?\s*$",
                           re.I)
_DELTA_AFTER = re.compile(r"^\s*(?:or \d+(?:\.\d+)?\s+)?(?:out|off|apart|warmer|cooler|hotter|colder|more|less|higher|"
                          r"lower|extra|(?:above|below) (?:the|its|their|ambient|room)\b)\b", re.I)
_CHANGE = re.compile(r"\b(?:by|increase\w*|decrease\w*|add\w*|reduc\w*|chang\w*|rais\w*|lower\w*)\b|增加|减少|提高|降低", re.I)
_REPORTED = re.compile(r"(?:\b(?:whoever|anyone who|those who|people who|someone who|some people|some recipes|"
                       r"a video|the video|some videos|every video|many videos|most videos|a review|the review)\s+"
                       r"(?:\w+\s+){0,2}(?:says?|said|saying|claims?|claimed|repeats?|tells? you|recommends?|suggests?)\b|"
                       r"\b(?:from|in)\s+(?:a|the|this|that)\s+(?:\w+\s+)?(?:video|review|clip)\b|\b(?:advertis(?:e|es|ed|ing)|boast(?:s|ed|ing)?|"
                       r"claim(?:s|ed|ing)?|tout(?:s|ed|ing)?)\s+(?:(?:a|an|the|its|their|his|her)\s+)?$|\basked (?:me |us )?about\b|\b(?:saw|watched|seen|copied)\s+(?:a|the|this|that)\s+"
                       r"(?:\w+\s+)?(?:video|clip|post|profile)\b|(?:视频|有人|别人|网上|听说)\S{0,6}说)", re.I)
_CEILING = re.compile(r"\b(?:max(?:imum)?|limit(?:s|ed|ing)?)\b(?!\s+of\b)[^.;:]{0,50}:?\s*(?:up to|at most)?\s*$"
                      r"|\brated\b[^.;:]{0,30}\b(?:up to|at most|max(?:imum)?)\s*$", re.I)  # "rated at 2,200" is a spec
_QUESTION = re.compile(r"[?？]\s*$|真的吗|是吗|对吗")
# an instruction: a bare verb opening the sentence, then an object or a place ("Measure from the screen …",
# "Divide the count by …", "Take the group's speed"); not a noun with its verb ("Mites feed on the bees")
_IMPERATIVE = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:(?:then|now|first|next|finally|always|just|simply),?\s+)?"
                         r"(?!(?:because|since|when|if|after|before|once|while|although|unless|until|as|so|most|many|some|all|"
                         r"this|that|these|those|it|there|here|the|a|an|our|my|your|their|its|each|every|no|not|what|how|why|"
                         r"which|who|in|on|at|for|with|from|by|of|to|and|or|but|yes|also|only|even|more|less)\b)"
                         r"[a-z]+(?<![^s]s)(?<![^e]ed)(?<!ing)(?:\s+(?:up|out|off|down|in|back|over))?\s+"
                         r"(?:the|a|an|your|it|them|this|that|from|once|with|into|onto|to|on|at|for|each|every|one|all|"
                         r"some|only|when|until)\b", re.I)
_FINITE = re.compile(r"\b(?:is|are|was|were)\b", re.I)  # "Salt for the dough is sold …": a noun, then its verb


def is_step(norm: str) -> bool:
    """Whether a (normalised) sentence is a step of a procedure: a bare verb opening it, and no
    finite verb in its first clause ("Look up the time for your jar size", not "Salt … is sold")."""
    return bool(_IMPERATIVE.match(norm)) and not _FINITE.search(re.split(r"[,;:]", norm)[0])
# a first-person account of the writer's own case ("I descale mine every two months and it's fine",
# "Took my stove up at −8 °C", "Followed a video exactly: 70% hydration"): the writer applies the claim to
# a case of their own (a forum post), unless it is advice ("I recommend"), a measurement against the
# claim ("in my test it only managed …") or a revision
_OWN_CASE = re.compile(r"(?-i:\bI\b)(?!'d\b)|\b(?:my|mine)\b"
                       r"|^\W*(?-i:[A-Z])[a-z]+(?:ed|ook|ot|ade|an|ept|ent|ew|ought)\s+(?:my|mine|a|an|the|it|our|this|that)\b"
                       r"|我(?!们)", re.I)
_ADVICE = re.compile(r"\b(?:i|we)\s+(?:\w+\s+)?(?:recommend|advise|suggest|say|would|'d|think|believe|find that|prefer|urge)\b"
                     r"|我(?:建议|推荐|觉得|认为)", re.I)


def own_case(text: str) -> bool:
    """Whether the sentence tells of the writer's own case, not the advice of a page (see ``_OWN_CASE``)."""
    return bool(_OWN_CASE.search(text) and not _ADVICE.search(text) and not _QUESTION.search(text)
                and not _DISPUTE.search(text) and not REVISION.search(text))


_APPLIED = re.compile(r"\b(?:i|we|you)\s+(?:\w+\s+)?appl(?:y|ied)\b|\bapplying\b|\bapplied (?:the|this|that|it)\b"
                      r"|套用|照着.{0,6}(?:做|算)", re.I)


# what someone else said, followed by the writer ("我按视频说的…", "as the video says", "like a video showed"):
# the writer's own practice, not a figure reported to be judged
_FOLLOWED = re.compile(r"(?:按|照|按照|依照|跟着|照着|根据)\s*$|\b(?:as|like|just as|exactly as)\s+$", re.I)


# "从199元上调到219元": the value after 从 is the one a change left behind
_ZH_FROM_TO = re.compile(r"\s*(?:上调|下调|调整|调|涨|降|提高|降低|增加|减少|延长|缩短|改|变)\S{0,2}?(?:到|至|为|成)")


def _not_own(text: str, r, anchor_text_: str) -> str:
    """Whether ``text`` states this value only as a "former", "reported" or "ceiling" figure ('' if not)."""
    before = text[max(0, r.value.start - 60):r.value.start]
    if _FORMER.search(before[-45:]) or _EARLIER.search(before) or before.endswith("从") and _ZH_FROM_TO.match(
            text[r.value.end:r.value.end + 12]) or _FORMER_AFTER.match(text[r.value.end:r.value.end + 60]):
        return "former"
    after = text[r.value.end:r.value.end + 24]
    if not _CHANGE.search(anchor_text_) and (_DELTA_BEFORE.search(before) or _DELTA_AFTER.search(after) or (
            re.search(r"\bwithin\s*$", before) and (r.value.form == "range" or re.match(r"\s*of\b", after)))):
        return "difference"  # the video states a setting, the source a change of one
    said = _REPORTED.search(before)
    if said and not _FOLLOWED.search(before[:said.start()]):  # "我按视频说的每7天浇一次水": the writer followed it
        return "reported"
    ceiling = bool(_CEILING.search(before[-60:])
                   and not re.search(r"\b(?:max(?:imum)?|rated|limits?)\b|\b(?:no|not) \w+er than\b|不超过|至少|最多|上限",
                                     anchor_text_, re.I))  # the video states a limit too ("no faster than 9 m/min")
    return "ceiling" if ceiling else ""


def _on_subject(pairs, anchor_objects: set[str]):
    """The pairs whose value is introduced by most of the anchor's own thing-words, when any is: in
    "成人每天食盐不超过6克，每天烹调油25～30克" the salt anchor meets 6 g, not the narrower 25–30 g; in
    "every 2–3 months with hard water and every 4–6 months with soft water" hard water meets 2–3."""
    most: dict[str, int] = {}  # per kind: values of one kind compete, those of another speak of another quantity
    for _, r in pairs:
        most[r.value.dimension] = max(most.get(r.value.dimension, 0), len(r.near & anchor_objects))
    return [(a, r) for a, r in pairs if len(r.near & anchor_objects) == most[r.value.dimension]]


def _specific(p) -> tuple[float, bool]:
    """How specific one (anchor value, reading) pair is: an approximation is as specific as a point
    ("about two weeks … three weeks warm" is a tie the agreeing figure wins)."""
    return 0.0 if p[1].value.form == "approx" else p[1].value.width(), not _agrees(p[1].value, p[0])


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


def _by_values(anchor_values, st, excerpt_norm: str, later: str, row: bool,
               anchor_objects: set[str] = frozenset(), anchor_text_: str = "") -> tuple[str, str, float] | None:
    pairs = [(a, r) for a in anchor_values for r in st.readings if a.comparable(r.value) and commensurate(a, r.value)]
    if not pairs:
        return None
    if not row and _QUESTION.search(excerpt_norm):
        return "", "asks about the value: no stance", 0.0
    for case in st.cases:  # "| up to 25 | 24,000 |" under "Bit diameter (mm)": not the row for a 40 mm bit
        if any(a.comparable(case) and not case.contains(a) for a in anchor_values):
            return "", f"a table row for another case ({case.label()})", 0.0
    # a maximum of the anchor's own thing that is the video's own figure is the spec the video quotes
    # ("Maximum flight time 34 minutes" for a claimed 34 min), not a ceiling beside a setting
    foreign = {id(r): why for a, r in pairs if not row and (why := _not_own(excerpt_norm, r, anchor_text_))
               and not (why == "ceiling" and r.value.form == a.form and r.value.same_as(a) and r.near & anchor_objects)}
    # a sentence that rejects some value of the kind, or reports someone else's, argues: it tells of no case of its own
    arguing = any(foreign.get(id(r)) not in (None, "difference") or disparaged(excerpt_norm, r) for _, r in pairs)
    # an offset is no setting, whatever it is said of ("the syrup 15 °C above the boiling point, 115 °C")
    pairs = _on_subject([p for p in pairs if foreign.get(id(p[1])) != "difference"], anchor_objects) or pairs
    kept = [(a, r) for a, r in pairs if (row or not disparaged(excerpt_norm, r)) and id(r) not in foreign]
    rejected = [(a, r) for a, r in pairs if (a, r) not in kept]
    same_kind = {r.value for _, r in pairs if id(r) not in foreign}
    if _compares(excerpt_norm) and not later and (len(same_kind) >= 2 or not any(r.value.contains(a) for a, r in pairs)):
        a, r = pairs[0]  # "unlike this project, a gravel tyre uses 100 psi": the value of another thing
        return "compares", f"sets the video's {a.label()} beside another value ({r.value.label()})", 0.7
    if not kept:
        a, r = rejected[0]
        # the former value alone still revises ("lowered from 50"); someone else's value or a
        # ceiling, stated without disparaging it, is no stance of the source
        if id(r) in foreign and (not (foreign[id(r)] == "former" or disparaged(excerpt_norm, r))
                                 or not _agrees(r.value, a)):
            return "", f"states the value only as a {foreign.get(id(r), 'rejected')} figure: no stance", 0.0
        if _agrees(r.value, a):
            # rejecting the video's figure is a dispute; it revises it only where the source says it was revised
            revised = later if later.startswith("stated as a revision") or foreign.get(id(r)) == "former" else ""
            return ("updates" if revised else "contradicts",
                    f"the source rejects the video's {a.label()} (“{_clause(excerpt_norm, r).strip()}”)"
                    + (f"; {revised}" if revised else ""), 0.75)
        kept = rejected
    a, r, unsaid = _deciding(kept, anchor_values, anchor_text_)
    # the writer's own case, when every value of the kind is told of it ("Four weeks is the minimum, mine took
    # six" states the rule, then a case), at a figure: a bound the writer keeps ("I never go above 92 °C") is a rule
    if (not row and not arguing and r.value.form in ("point", "approx") and own_case(excerpt_norm)
            and (len({id(q) for _, q in kept}) == 1 or all(own_case(_clause(excerpt_norm, q)) for _, q in kept))):
        return "applies", f"tells of the writer's own case at {r.value.label()} (the video has {a.label()})", 0.7
    if _agrees(r.value, a):
        if _APPLIED.search(excerpt_norm):
            return "applies", f"applies the video's {a.label()} to a case of its own", 0.7
        if not row and _BECAUSE.search(excerpt_norm):  # "That is why bakers settle on about 2 %": the reason for the figure
            return "explains", f"gives the reason for the video's {a.label()} (the source's {r.value.label()})", 0.7
        how = "inside" if r.value.form != "point" else "equal to"
        return ("supports", f"the video's {a.label()} is {how} the source's {r.value.label()}"
                + ("; it says nothing of the video's other figures" if unsaid else ""), 0.75 if unsaid else 0.9)
    if later:  # a stated revision is the source's current figure, before its other statements
        return ("updates", f"the source gives {r.value.label()} where the video has {a.label()}; {later}",
                0.9 if later.startswith("stated as a revision") else 0.8)
    return "contradicts", f"the source gives {r.value.label()} where the video has {a.label()}", 0.85


def relate_rules(anchor: Anchor, excerpt: str, source_date: str = "", video_date: str = "",
                 context: str = "") -> tuple[str | None, str, float]:
    """(relation, rationale, confidence) from the values both sides state; ``context`` is the
    table header of a row excerpt."""
    text = anchor_text(anchor)
    aq = quantities(text)
    st = statement(excerpt, context)
    norm = normalise(excerpt)
    later = _later(norm, source_date, video_date)
    decided = _by_values(aq, st, norm, later, bool(context) and excerpt.lstrip().startswith("|"),
                         objects(subject_words(text) | set(anchor.subject.split())), text)
    if decided:
        return (None, *decided[1:]) if not decided[0] else decided
    ac, ec = set(codes(text)), set(st.codes)
    if ac and ec:
        if ec - ac and later:  # "FX-2041 is superseded by FX-2050"
            return "updates", f"another code ({', '.join(sorted(ec - ac))}); {later}", 0.7
        if ac & ec:
            return "supports", f"same code: {', '.join(sorted(ac & ec))}", 0.85
        return "contradicts", f"another code: video {', '.join(sorted(ac))}, source {', '.join(sorted(ec))}", 0.7
    if aq and st.readings:
        return None, "states values of another kind than the video's: about something else", 0.0
    if _QUESTION.search(norm):
        return None, "asks a question: no stance", 0.0
    if _POINTER.search(norm):
        return None, "points to other content: not evidence itself", 0.0
    if _compares(norm) and not _BECAUSE.search(norm):  # a comparison inside a reason is the reason's
        return "compares", "compares the subject with something else", 0.55
    if _APPLY.search(norm):
        return "applies", "applies the video's subject elsewhere", 0.55
    if _EXPLAIN.search(norm):  # a bare figure of its own ("30-day returns.") is no reason
        return "explains", "gives background (a reason); no value to compare", 0.4
    if is_step(norm):  # "Look up the time for your jar size": a step
        return "applies", "a step of a procedure for the video's subject", 0.3  # a reason (0.4) outranks it
    return None, "only mentions the subject: no stance", 0.0
