"""Stage 2: research anchors — the request-relevant things the video states, each tied to the
moments where it is heard and seen (seed 000 §2.1: claims, procedures, parameters, entities, open
questions).

Speech and on-screen text are read alike, after number words become digits (``values.normalise``:
Whisper's "100 and 20 kilometers" is 120 km, "六千步" 6000 steps). A sentence that states a value
is a *parameter*, one that names a part or model code an *entity*, a real question an *open
question* (not a greeting or a rhetorical "What's up riders?"), an instruction a *procedure*,
anything else a *claim*. On-screen text that states the same value or code within ``ALIGN_S``
seconds joins the spoken anchor as a second moment; an on-screen value with a unit or currency
never spoken ("$3,499", "625 Wh") is an anchor of its own, named after the speech around it. A
caption that is only an amount in cents ("64.99", "14.99": a price panel whose currency sign the
recogniser dropped) is a price anchor, its currency unstated, and so is a caption that is only a
whole number ("469") shown while the narration speaks of the price; any other caption that is only a
number ("250" over "…balls of this weight") is the value the screen gives, its unit unstated (a year
or a one-digit counter is no value). A caption restating a number the narration says without its
unit ("500 g flour" over "…to 500 of flour") is that sentence's second moment, not an anchor of its
own, and one value said twice in one sentence ("a good quarter of an hour, about 15 minutes") is one
anchor with two moments.
Anchors are ranked by relevance to the request (subject-word overlap plus e5 similarity, with a
bonus for stated values, which are what external sources can check). A value is ranked by what it
is about: an on-screen value by the words shown with it and what is said meanwhile, a clause naming
no thing of its own by its whole sentence, a spoken value by the panel that shows it too.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..types import Segment, Timeline
from ..values import UNITS, has_cjk, normalise
from .clauses import clauses
from .facts import codes, heading_of, objects, quantities, sentences, subject_words
from .premise import antecedent, counted_parts, hook, sets_up
from .shown import PRICED, bare_number, bare_price, bare_range, one_statement, panel_lines, timecode
from .shown import in_other_units as _in_other_units
from .shown import said_as_shown as _said_as_shown
from .shown import title_card as _title_card
from .types import Anchor, Moment
from .wording import zh_heading

ALIGN_S = 12.0
RESTATE_S = 3.0  # seconds between a sentence and the next that restates its figure
_IMPERATIVE = {"set", "add", "bake", "mix", "heat", "preheat", "tighten", "torque", "cut", "drill", "apply", "use", "wait",
               "let", "remove", "insert", "rest", "proof", "knead", "check", "turn", "press", "fold", "cool", "fit",
               "replace", "clean", "sand", "paint", "glue", "pour", "stir", "measure", "install", "mount", "keep", "clamp"}
_GREETING = re.compile(r"^\s*(?:what'?s up|how'?s it going|how are (?:you|we)|hey|hi|hello|welcome|ready|right|ok(?:ay)?|"
                       r"you know|guess what|who'?s ready|are you ready|isn'?t it|don'?t you|大家好|你好|准备好了吗|对吧|是不是)\b",
                       re.I)
_ZH_PROCEDURE = ("先", "再", "把", "将", "请", "然后", "每天", "每次")
_SALUTATION = re.compile(r"^\s*(?:good (?:morning|afternoon|evening)|howdy|hiya|yo|greetings|hey there|hi there|"
                         r"what'?s up|hello|hi|hey|welcome back|welcome)\b[^.!?]*?[,.!]\s*", re.I)
# a question put to the viewer, whose answer is the viewer's ("(Do you) want your battery to last?", "Ever
# wondered why…?", "Who doesn't love…?"), is a hook, not a question a source answers; an inquiry asks about
# the thing ("How long does a chain last?")
_TO_VIEWER = re.compile(r"^\s*(?:(?:so|now|okay|ok|well|and|but)\s*,?\s+)?(?:(?:do|did|are|have|would|could|can) (?:you|ya|we)"
                        r"(?: all| ever)? (?:want|wanna|know|ever|love|like|need|wonder\w*|ready|looking|tired|struggling|think)\b|"
                        r"want(?:ing)?\b|wanna\b|ready\b|ever\b|tired of\b|looking for\b|guess what\b|"
                        r"who (?:doesn'?t|does not|wouldn'?t|would not|else)\b|(?:isn'?t|aren'?t|wasn'?t|don'?t|doesn'?t|wouldn'?t) "
                        r"(?:it|that|this|they|you|we)\b|sound good\b|make sense\b|got it\b|right\b|"
                        r"你(?:是不是|想不想|有没有)|想(?:让|要|知道)|谁不)", re.I)


def _is_question(sentence: str) -> bool:
    """A question a source could answer: not a greeting, a tag, a hook or a rhetorical aside."""
    s = sentence.strip()
    if not s.endswith(("?", "？")):
        return False
    parts = re.split(r"(?<=[.!。！])\s*", s)
    # "Hi all! Ready for a loaf?": the question itself; a sentence of one part is its own ("What's up,
    # trail crew?", "Good morning, campers, how are we?": a greeting, refused by the salutation test below)
    asked = next((a for a in reversed(parts) if a.strip()), s)
    return not _GREETING.search(s) and not _GREETING.search(asked) and not _TO_VIEWER.search(asked) \
        and not _SALUTATION.match(asked) and len(objects(subject_words(asked))) >= 2


def _kind(sentence: str) -> str:
    q = quantities(sentence)
    if q and sentence.strip().endswith(("?", "？")):
        return "aside"  # "Why does your espresso taste sour one day and bitter the next?": a question asserts no value
    if hook(sentence, _TO_VIEWER) or sets_up(sentence) or counted_parts(q):
        return "aside"  # a hook, the case the video sets up, a count of its own parts: no claim (``premise``)
    if q:
        return "parameter"
    if codes(sentence):
        return "entity"
    if _is_question(sentence):
        return "open_question"
    if sentence.strip().endswith(("?", "？")) or _SALUTATION.match(sentence) and re.fullmatch(
            r"(?:\w+[' -]?){0,3}[.!]?", _SALUTATION.sub("", sentence, count=1).strip()):
        return "aside"  # a greeting ("Good evening, gardeners!") or a hook put to the viewer: nothing a source checks
    first = re.findall(r"[A-Za-z]+", sentence[:40].lower())
    if first and first[0] in _IMPERATIVE or sentence.lstrip().startswith(_ZH_PROCEDURE):
        return "procedure"
    return "claim"


def _rejoin(segments: list[Segment]) -> list[Segment]:
    """Speech segments cut inside a number made whole again ("…a 40 mm bit at 18," + "000 RPM.": 18,000 rpm)."""
    out: list[Segment] = []
    for seg in segments:
        prev = out[-1] if out else None
        if prev is not None and re.search(r"\d{1,3},\s*$", prev.text) and re.match(r"\s*\d{3}\b", seg.text):
            out[-1] = replace(prev, end=seg.end, text=prev.text.rstrip() + seg.text.lstrip())
            continue
        out.append(seg)
    return out


def _spoken_sentences(segments: list[Segment]) -> list[tuple[str, float, float, str, str]]:
    """Sentences of speech with times interpolated inside their segment by character position, each
    clause of a long one with the whole sentence it was cut from."""
    out = []
    for seg in _rejoin(segments):
        parts = []
        for sent in sentences(seg.text) or [seg.text]:
            # ASR often runs sentences together with commas ("Welcome back, today, a country loaf,
            # proof it for five hours,"): a long one is cut into clauses so a value's moment is the
            # clause that says it, not the start of the run
            cut = [c for c in re.split(r"(?<=[,;，；])(?!\d)\s*", sent) if c.strip()] if len(sent) > 60 else [sent]
            parts += [(c, sent) for c in _conditions_kept(cut)]
        total = sum(len(p) for p, _ in parts) or 1
        t, span = seg.start, max(0.0, seg.end - seg.start)
        for p, sent in parts:
            dt = span * len(p) / total
            out.append((p, round(t, 2), round(t + dt, 2), seg.kind, sent))
            t += dt
    return out


# a leading condition or case: "If …,", "Below 10 °C,", "For a rider of around 75 kilos on 28 mm tyres,", "At 0 °F,"
_CONDITION = re.compile(r"\s*(?:if|when|whenever|once|unless|under|over|below|above|for|on|with|at|during|after|before)\b", re.I)


def _conditions_kept(clauses: list[str]) -> list[str]:
    """A leading condition stays with the clause it qualifies ("Under inflated by 10 psi, you can lose
    around 15% of your range" is one claim: the loss at that pressure, not a pressure of its own); so does a
    leading case ("For a rider of around 75 kilos on 28 mm tyres, we run about 80 psi in the rear": the rider
    is who the pressure is for, not a claim about riders)."""
    out: list[str] = []
    lead = False  # the last clause is a condition or case standing alone, waiting for its claim
    for c in clauses:
        if lead:
            out[-1] = f"{out[-1]} {c}"
            lead = False
            continue
        out.append(c)
        lead = bool(_CONDITION.match(c)) and c.rstrip().endswith((",", "，"))
    return out


LOOP_RATIO = 2.4  # Whisper's own test of a degenerate decode: text that zlib compresses this much is a loop
_COUNT_OFF = re.compile(r"(?:\d+\s?[-–]\s?){4,}\d+")  # five numbers joined by dashes: no range, no date


def _heard(text: str) -> bool:
    """Whether recognised speech reads as language: not a decoding loop ("3-1A4-1A4-1A4…", Whisper
    on speech it cannot follow) and not a run of digits and dashes ("10-1-0-2-0-4") with hardly a
    word — neither is a statement a source could check."""
    import zlib

    raw = text.encode("utf-8")
    return not (len(raw) >= 24 and len(raw) / len(zlib.compress(raw)) > LOOP_RATIO or _COUNT_OFF.search(text))


def _value_label(text: str) -> str:
    q = quantities(text)
    return ", ".join(x.label() for x in q) if q else ", ".join(codes(text))


# between two values of one caption: a dot, a bar, a semicolon, a spaced slash, or a slash (full
# width or not) between a Chinese word and a number ("12个月／199元"; not the rate "升/分钟")
_SEPARATOR = re.compile(r"\s*[·•|｜;；／]\s*|\s+/\s+|(?<=[\u4e00-\u9fff])/(?=\s*\d)")
_LABEL = re.compile(r"^\s*([^:：\d]{1,16}?)\s*[:：]\s*(?=\S)")


def _caption_parts(seg: Segment) -> list[Segment]:
    """A caption listing several values ("面粉500克·酵母5克", "625 Wh | 85 Nm"; not "37 °F / 3 °C") as one caption per
    value: each is a statement about its own subject. A label before a colon names the thing of every value after
    it ("复合滤芯：12个月／199元" is the filter's interval and price), so a part naming no thing of its own gets the label."""
    parts = _in_other_units([p.strip() for p in _SEPARATOR.split(seg.text) if p.strip()])
    if len(parts) < 2 and has_cjk(seg.text):  # a Chinese caption of two clauses stating two kinds, as speech is cut
        parts = [c[0].strip() for c in clauses(seg.text, seg.start, seg.end, seg.kind)]
    if len(parts) < 2 or not all(quantities(p) for p in parts):
        return [seg]
    label = _LABEL.match(parts[0])
    if label and has_cjk(label.group(1)) and objects(subject_words(label.group(1))):
        parts = [p if k == 0 or objects(subject_words(p)) else f"{label.group(1)}：{p}" for k, p in enumerate(parts)]
    return [replace(seg, text=p) for p in parts]


def _shown_apart(d: dict, seg: Segment, screen: list[Segment]) -> bool:
    """Whether another caption shown with ``seg`` states the spoken value itself: "we run about 80 psi in the rear"
    is the "REAR 80 psi" line, not the "FRONT 75 psi" beside it, however roughly 80 was said."""
    said = _figures(d["q"])
    return not said & _figures(quantities(seg.text)) and any(
        o.text != seg.text and o.start <= seg.end and o.end >= seg.start and said & _figures(quantities(o.text)) for o in screen)


def _figures(values: list) -> set[tuple]:
    """Each value as its kind and the numbers stated: "80 psi" said and "80 psi" shown are one figure."""
    return {(v.dimension, v.stated) for v in values}


def _during(seg: Segment, drafts: list[dict]) -> str:
    """What is said while a caption is shown (from just before it appears): what an on-screen value
    is about ("…and this is what it cost" over "469")."""
    return " ".join(d["text"] for d in drafts if d["moments"][0].kind != "ocr"
                    and d["moments"][0].end >= seg.start - 2.0 and d["moments"][0].start <= seg.end)


def _unit_less(text: str, counts: bool = False) -> set[float]:
    """The numbers a spoken sentence says without a unit ("…to 500 of flour": 500), or with a mere noun
    after them where the screen shows a unit ("Inflate the tire to 80 signs" under "TYRE 80 PSI": a
    unit misheard as a counted thing)."""
    norm = normalise(text)
    spans = [(v.start, v.end) for v in quantities(text) if not (counts and v.dimension.startswith("count:"))]
    return {float(m.group(0)) for m in re.finditer(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])", norm)
            if not any(a <= m.start() < b for a, b in spans)}


def _restated(seg: Segment, q: list, drafts: list[dict]) -> dict | None:
    """The spoken sentence near ``seg`` that says each of the caption's numbers without a unit and
    names a thing the caption names: the caption gives that sentence's unit, it is no new statement."""
    things = objects(subject_words(seg.text))
    measured = not any(v.dimension.startswith("count:") for v in q)  # the screen's unit is a real one
    for d in drafts:
        if d["moments"][0].kind == "ocr" or abs(d["moments"][0].start - seg.start) > ALIGN_S:
            continue
        said = _unit_less(d["text"], counts=measured)
        if not (q and all(v.form == "point" and v.stated[0] in said for v in q)):
            continue
        m = d["moments"][0]
        counted = any(v.dimension.startswith("count:") for v in d["q"])  # shown while said: one statement ("tyre"/"tire")
        if things & objects(subject_words(d["text"])) or counted and seg.start < m.end and m.start < seg.end:
            return d
    return None


def _panel(seg: Segment, screen: list[Segment]) -> str:
    """The words shown with a bare on-screen value for as long as it is shown (a panel "Output" over
    "2.6 kW"): they name what the value measures better than whatever is said meanwhile."""
    return " ".join(o.text for o in screen if o is not seg and abs(o.start - seg.start) <= 0.5
                    and abs(o.end - seg.end) <= 0.5 and not re.search(r"\d", normalise(o.text))
                    and subject_words(o.text))  # a model name ("Duo 2") says which thing, not what is measured


def _among_figures(seg: Segment, screen: list[Segment]) -> bool:
    """Whether a bare on-screen number is shown together with two or more other figures that have
    no unit either ("32", "128", "512" and "250000-" on a chart behind the presenter): the screen
    then shows a chart or a page of numbers, not the one value said meanwhile."""
    others = [o for o in screen if o is not seg and abs(o.start - seg.start) <= 0.5 and abs(o.end - seg.end) <= 0.5
              and re.search(r"\d", o.text) and not quantities(o.text) and not bare_price(o.text)]
    return len(others) >= 2 or any(map(timecode, (o.text for o in others)))  # a frame count beside a running clock


def _spoken_drafts(speech: list[Segment]) -> list[dict]:
    """One draft anchor per spoken sentence or clause worth one (a value said twice in one sentence is one)."""
    drafts, before, last = [], "", ""  # the sentence before the current one: what its pronoun names (``antecedent``)
    for text, start, end, kind, whole in ((*c, s[4]) for s in _spoken_sentences(speech) for c in clauses(*s[:4])):
        before, last = (last, whole) if whole != last else (before, last)
        if not _heard(text) or not subject_words(text) and not quantities(text) or _kind(text) == "aside":
            continue
        q, prev = quantities(text), drafts[-1] if drafts else None
        thingless = not objects(subject_words(text)) - set(UNITS)  # it names no thing of its own ("about 15 minutes,")
        again = prev is not None and start - prev["moments"][-1].end <= RESTATE_S and thingless  # "That's about 3 °C."
        if prev is not None and q and prev["q"] and (prev["whole"] == whole or again) and all(
                any(v.same_as(w) for w in prev["q"]) for v in q):
            prev["moments"].append(Moment(start, end, kind, text))  # "a good quarter of an hour, about 15 minutes,"
            continue  # … one value said again in one sentence, or in the next in another unit: one anchor
        # a clause cut from a longer sentence that names no thing of its own ("about 15 minutes,") is about
        # what its sentence names ("… to drain completely"): the sentence ranks it
        bare = whole.strip() != text.strip() and thingless
        drafts.append({"kind": _kind(text), "text": text, "moments": [Moment(start, end, kind, text)], "whole": whole,
                       "q": q, "c": codes(text), "about": whole if bare else "", "context": antecedent(text, before)})
    return drafts


def _drafts(timeline: Timeline) -> list[dict]:
    speech, screen = [s for s in timeline.of_kind("speech", "subtitle") if _heard(s.text)], panel_lines(timeline.of_kind("ocr"))
    drafts = _spoken_drafts(speech)
    spoken = list(drafts)
    for whole, seg in ((whole, part) for whole in screen for part in _caption_parts(whole)):
        q, c = quantities(seg.text), codes(seg.text)
        panel, said_meanwhile = _panel(seg, screen), _during(seg, spoken)
        shown = " ".join(o.text for o in screen if o is not whole and abs(o.start - seg.start) <= 0.5)  # shown with it
        about = " ".join(x for x in (whole.text if whole.text != seg.text else "", shown, said_meanwhile) if x)
        price, number = bare_price(seg.text), bare_number(seg.text) or bare_range(seg.text)
        if number and "–" not in number and PRICED.search(about):
            price, number = number, ""  # a whole number shown while its price is spoken of: its currency sign was lost
        if number and _among_figures(seg, screen):
            continue  # one of several bare figures shown at once (a chart's axis, a page of numbers): no one value
        if number:  # a number shown alone, its unit unstated: the value the screen gives for what is said meanwhile
            drafts.append({"kind": "parameter", "text": seg.text.strip(), "q": [], "c": [], "label": number, "about": about,
                           "moments": [Moment(seg.start, seg.end, "ocr", seg.text)], "context": panel or said_meanwhile})
            continue
        if price:
            if not any(d.get("price") == price and abs(d["moments"][0].start - seg.start) <= ALIGN_S for d in drafts):
                said = f"¤{price}"  # the currency sign for a currency left unsaid: meets a source's price in any currency
                drafts.append({"kind": "parameter", "text": said, "q": quantities(said), "c": [], "price": price,
                               "label": said, "moments": [Moment(seg.start, seg.end, "ocr", seg.text)], "context": "",
                               "about": about,
                               "zh": any(has_cjk(x.text) for x in screen)})
            continue
        if not q and not c:
            continue
        told = _restated(seg, q, drafts) if not c else None
        if told is not None:
            told["moments"].append(Moment(seg.start, seg.end, "ocr", seg.text))
            shown_nums = {v.stated[0] for v in q}  # a count the screen gives a unit for is that value ("80 signs": 80 psi)
            told["q"] = [v for v in told["q"] if not (v.dimension.startswith("count:") and v.stated[0] in shown_nums)] + q
            continue
        near = [d for d in drafts if abs(d["moments"][0].start - seg.start) <= ALIGN_S]
        same = next((d for d in near if any(one_statement(a, b, d["text"], seg.text) for a in q for b in d["q"])
                     and not _shown_apart(d, seg, screen) or set(c) & set(d["c"])), None)
        if same is not None:
            same["moments"].append(Moment(seg.start, seg.end, "ocr", seg.text))
            same["q"], same["text"], same["moments"] = _said_as_shown(same, q)
            same["about"] = f"{same.get('about', '')} {shown}".strip()  # the panel's words are about the value said
            q = [v for v in q if not any(one_statement(v, b, same["text"], seg.text) for b in same["q"])]  # "40 mm bit · 18,000 rpm": the rpm too
            if not q or any(d["q"] == q and d["text"] == seg.text for d in drafts):
                continue
            c = []
        if any(d["kind"] == "parameter" and d["moments"][0].kind == "ocr" and d["text"] == seg.text for d in drafts):
            continue  # the same caption read again a moment later
        said = min(near, key=lambda d: abs(d["moments"][0].start - seg.start), default=None)
        panel = panel if not objects(subject_words(seg.text)) - set(UNITS) else ""  # "1,800 rpm": no words
        drafts.append({"kind": "parameter" if q else "entity", "text": seg.text, "q": q, "c": c, "about": about,
                       "moments": [Moment(seg.start, seg.end, "ocr", seg.text)],
                       "context": panel or (said["text"] if said and not said["q"] else "")})
    return drafts


def find_anchors(timeline: Timeline, request: str, *, max_anchors: int = 8, embedder=None, title: str = "") -> list[Anchor]:
    """The request's research anchors in ``timeline``, most relevant first, at most ``max_anchors``; a caption
    restating the video's ``title`` is its title card (``shown.title_card``)."""
    drafts = [d for d in _drafts(timeline) if not _title_card(d["text"], title)]
    if not drafts:
        return []
    want = subject_words(request)
    # the model the request names ("安和DSZF-60电热水器": a code glued to Chinese too) is the subject of every
    # anchor, not one of them
    asked = set(codes(re.sub(r"[\u4e00-\u9fff]", " ", request)))
    drafts = [d for d in drafts if not (d["kind"] == "entity" and d["c"] and set(d["c"]) <= asked)] or drafts
    dense = [0.0] * len(drafts)
    if embedder is not None:
        qv = embedder.embed([request], kind="query")
        pv = embedder.embed([f"{d['text']} {d.get('about', '')}".strip() for d in drafts], kind="passage")
        dense = [float(x) for x in (pv @ qv.T)[:, 0]]
        lo = min(dense)
        dense = [max(0.0, (x - lo) / max(1e-9, max(dense) - lo)) for x in dense] if len(dense) > 1 else [1.0]
    scored = []
    for d, dn in zip(drafts, dense):
        subj = subject_words(d["text"] + " " + d.get("context", "")) | set().union(
            *(subject_words(m.text) for m in d["moments"]))
        if d.get("price"):
            subj |= subject_words("price 价格")
        lex = len((subj | subject_words(d.get("about", ""))) & want) / max(1, len(want))
        counted = d["q"] and all(v.dimension.startswith("count:") for v in d["q"])
        bonus = {"parameter": 0.15 if counted else 0.3, "entity": 0.2, "open_question": 0.1}.get(d["kind"], 0.0)
        if d["kind"] in ("claim", "procedure", "open_question") and lex < 0.25:
            continue  # a sentence that shares little with the request is narration, not an anchor
        scored.append((0.5 * lex + 0.3 * dn + bonus, d, subj))
    scored.sort(key=lambda x: (-x[0], x[1]["moments"][0].start))
    chosen = sorted(scored[:max_anchors], key=lambda x: x[1]["moments"][0].start)
    return [Anchor(id=f"A{k}", kind=d["kind"], text=d["text"], subject=" ".join(sorted(subj)),
                   value=d.get("label") or ", ".join(x.label() for x in d["q"]) or _value_label(d["text"]), moments=tuple(sorted(d["moments"], key=lambda m: m.start)),
                   relevance=round(score, 3), heading=_heading(d))
            for k, (score, d, subj) in enumerate(chosen, 1)]


def _zh_every(text: str) -> str:
    """A Chinese frequency ("春夏每7天浇一次水", "每两年换一次盆") measures the interval of the action said after
    the period: "春夏浇水间隔", "换盆间隔" ('' when the text is no such frequency)."""
    if not has_cjk(text):
        return ""
    norm = normalise(text)
    v = next((x for x in quantities(text) if x.dimension == "time"), None)
    if v is None or not norm[:v.start].rstrip().endswith("每"):
        return ""
    act = re.sub(r"\d+(?:\.\d+)?\s?[次遍]", "", re.split(r"[，。,.;；！!？?]", norm[v.end:])[0])
    act = "".join(re.findall(r"[\u4e00-\u9fff]", act))[:6]
    before = re.sub(r"^[，。,\s]+", "", re.split(r"[，,。]", norm[:v.start].rstrip()[:-1])[-1])
    before = re.sub(r"(每天|每日|每次|建议|最好)$", "", before)[-6:]
    return f"{before}{act}间隔" if act else ""


def _heading(d: dict) -> str:
    """What the anchor measures: from its own words, else from the speech around an on-screen value;
    a Chinese heading naming only the thing gets the measured kind ("复合滤芯价格")."""
    if d.get("price"):
        return "价格" if d.get("zh") else "Price"
    every = _zh_every(d["text"])
    if every:
        return every
    own = heading_of(d["text"], d["q"])
    if d.get("context") and not objects(subject_words(d["text"])) - set(UNITS):
        own = heading_of(d["context"] + " " + d["text"])
    return zh_heading(own, d["q"][0].dimension) if d["q"] and has_cjk(own) else own
