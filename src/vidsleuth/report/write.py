"""Stage 5: writing. Video observations (what the video shows and says, with its moments) are kept
apart from external findings; every finding carries its citations beside it (the seed's most
common failure is a Sources list that supports no claim), grouped by anchor with its relation.

``write_rules`` is the embedded default: one sentence per evidence record, built from the values
both sides state ("“Safe temperatures” (2024) gives 165 °F (73.9 °C) for poultry, which the video's
74 °C meets"), in the report's language; an excerpt is quoted as prose (``wording.readable``), never
as a table row of pipes. ``verdicts_of`` gives each anchor a verdict line (agrees, disagrees,
disputed, newer guidance, background only, not addressed) naming the sources and values behind it,
and ``summary_of`` answers the request from them: what to change (with the newer value), what the
sources dispute, what to keep, what no source addressed — one line each.

With a writer model, ``write_model`` asks for one paragraph per anchor, returning the evidence ids it
cites (unknown ids are dropped, and the check sends the paragraph back for repair), and
``write_summary`` for the summary, from the same facts the rules' summary is made of. A writer that
fails is recorded in ``problems`` (run.json), and that part is the rules'.
"""

from __future__ import annotations

import re
from collections import Counter

from ..timecode import clock
from .facts import quantities, statement
from .types import Anchor, Evidence, Finding, Note, Source
from .wording import in_sentence, readable, row_subject, short, source_name, zh_value

VERB = {"supports": "supports the video", "contradicts": "contradicts the video", "updates": "updates the video",
        "explains": "explains", "compares": "compares", "applies": "applies it"}
VERDICTS = ("agrees", "disagrees", "disputed", "newer guidance", "background only", "not addressed")
ZH_VERDICT = {"agrees": "相符", "disagrees": "不符", "disputed": "来源之间有分歧", "newer guidance": "有更新的建议",
               "background only": "仅有背景资料", "not addressed": "没有来源涉及"}
WRITE_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "cites": {"type": "array", "items": {"type": "string"}}},
    "required": ["text", "cites"],
}
SUMMARY_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
SUMMARY_TITLE_CHARS = 60  # a source named inside the summary


def _echoes(mine, theirs) -> bool:
    """Whether a source's value only repeats the video's ("比2016版的6克进一步下调" beside 5 克)."""
    if mine.unit == theirs.unit:
        return bool(set(mine.stated) & set(theirs.stated))
    return mine.contains(theirs) and theirs.contains(mine)  # the same value in another unit


def source_value(anchor: Anchor, ev: Evidence) -> str:
    """The value the excerpt states for the anchor's quantity, in the anchor's unit too when it
    is stated in another ("165 °F (73.9 °C)"); '' when it states none. Of several, one that fits
    the relation (a contradiction names the value that differs from the video's, not the video's
    value quoted back), then the most specific."""
    aq = quantities(" ".join([anchor.text] + [m.text for m in anchor.moments]))
    rs = [(a, r.value) for r in statement(ev.excerpt, ev.context).readings for a in aq if a.comparable(r.value)]
    if not rs:
        return ""
    if ev.relation == "supports":
        rs = [p for p in rs if p[1].contains(p[0])] or rs
    elif ev.relation in ("contradicts", "updates"):  # a source that only rejects the video's figure gives no figure of its own
        rs = [p for p in rs if not p[1].contains(p[0]) and not _echoes(p[0], p[1])]
        if not rs:
            return ""
    a, v = min(rs, key=lambda p: p[1].width())
    shown = v.label()
    if v.unit != a.unit and not a.dimension.startswith(("count:", "money:")):
        other = v.shown_in(a.unit)
        if other and other not in shown:
            shown += f" ({other})"
    return shown


def _finding_zh(rel: str, who: str, what: str, mine: str, theirs: str, quote: str) -> str:
    if theirs and rel in ("supports", "contradicts", "updates", "compares"):
        return {"supports": f"{who}给出的{what}为{theirs}，视频中的{mine}与之相符。",
                "contradicts": f"{who}给出的{what}为{theirs}，与视频中的{mine}不符。",
                "updates": f"{who}现在给出的{what}为{theirs}，视频中的{mine}是旧的建议。",
                "compares": f"{who}把视频中的{mine}与{theirs}作比较：“{quote}”"}[rel]
    lead = {"applies": "把这一做法用于其他场合", "compares": "作了比较", "supports": "与视频一致",
            "contradicts": "与视频不一致", "updates": "给出了更新的建议"}.get(
                rel, f"介绍了{what}{f'（视频中为{mine}）' if mine else ''}的背景")
    return f"{who}{lead}：“{quote}”"


def _finding_en(rel: str, who: str, what: str, mine: str, theirs: str, quote: str) -> str:
    if theirs and rel in ("supports", "contradicts", "updates", "compares"):
        return {"supports": f"{who} gives {theirs} {what}, which the video's {mine} meets.",
                "contradicts": f"{who} gives {theirs} {what}, not the video's {mine}.",
                "updates": f"{who} now gives {theirs} {what}; the video's {mine} is older guidance.",
                "compares": f"{who} sets the video's {mine} beside {theirs}: “{quote}”"}[rel]
    topic = what.removeprefix("for ").removeprefix("the ")
    return {"applies": f"{who} uses the {topic} in another setting: “{quote}”",
            "compares": f"{who} compares the {topic} with something else: “{quote}”",
            "supports": f"{who} agrees with the video on the {topic}: “{quote}”",
            "contradicts": f"{who} disagrees with the video on the {topic}: “{quote}”",
            "updates": f"{who} gives newer guidance on the {topic}: “{quote}”"}.get(
        rel, f"{who} gives background on the {topic}{f' (the video: {mine})' if mine else ''}: “{quote}”")


def finding_rules(anchor: Anchor, ev: Evidence, src: Source, language: str = "en") -> str:
    """One sentence a reader can follow: who says what, for which subject, against the video."""
    zh = language == "zh"
    what = anchor.heading or ("这一说法" if zh else "statement")  # the subject is stemmed search words, never shown
    mine = anchor.value or short(anchor.text, 80)
    theirs = source_value(anchor, ev)
    at = "" if ev.moment is None else (f"（{clock(ev.moment)}）" if zh else f" at {clock(ev.moment)}")
    who = source_name(src.title, src.date, zh) + at
    quote = readable(ev.excerpt, ev.context)
    if zh:
        return _finding_zh(ev.relation, who, what, zh_value(mine), zh_value(theirs), quote)
    row = row_subject(ev.excerpt)
    for_what = f"for {in_sentence(row)}" if row else f"for the {in_sentence(what)}"
    return _finding_en(ev.relation, who, for_what, mine, theirs, quote)


def write_rules(anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
                language: str = "en") -> list[Finding]:
    out = []
    for a in anchors:
        for ev in (e for e in evidence if e.anchor_id == a.id):
            out.append(Finding(id=f"F{len(out) + 1}", anchor_id=a.id,
                               text=finding_rules(a, ev, sources[ev.source_id], language),
                               evidence_ids=(ev.id,), relation=ev.relation))
    return out


def verdict_of(relations: set[str]) -> str:
    if not relations:
        return "not addressed"
    if "updates" in relations:
        return "newer guidance"
    if "supports" in relations and "contradicts" in relations:
        return "disputed"
    if "contradicts" in relations:
        return "disagrees"
    if "supports" in relations:
        return "agrees"
    return "background only"


def stances(anchor: Anchor, evs: list[Evidence], sources: dict[str, Source], relation: str, zh: bool,
            limit: int = 2) -> list[str]:
    """What each source of one relation says, shortly ("“Brining Basics” now gives 50 g"), one per
    source, at most ``limit``."""
    out, seen = [], set()
    for e in evs:
        if e.relation != relation or e.source_id in seen or len(out) >= limit:
            continue
        seen.add(e.source_id)
        src = sources[e.source_id]
        who = source_name(short(src.title, SUMMARY_TITLE_CHARS), "", zh)
        v = source_value(anchor, e)
        if zh:
            v = zh_value(v)
            out.append({"updates": f"{who}现在给出{v}" if v else f"{who}给出了更新的建议",
                        "contradicts": f"{who}给出{v}" if v else f"{who}与视频不一致",
                        "supports": f"{who}给出{v}" if v else f"{who}与视频一致"}.get(relation, who))
        else:
            out.append({"updates": f"{who} now gives {v}" if v else f"{who} gives newer guidance",
                        "contradicts": f"{who} gives {v}" if v else f"{who} disagrees",
                        "supports": f"{who} gives {v}" if v else f"{who} agrees"}.get(relation, who))
    return out


def _verdict_text(v: str, said: dict[str, list[str]], n_agree: int, zh: bool) -> str:
    """The verdict and what decides it: the differing or newer values by source (the agreeing
    ones are counted: the findings below name them)."""
    if zh:
        detail = {"disputed": f"{n_agree}个来源相符；" + "；".join(said["contradicts"]),
                  "newer guidance": "；".join(said["updates"]), "disagrees": "；".join(said["contradicts"]),
                  "agrees": f"{n_agree}个来源与视频相符",
                  "background only": "没有来源给出可以比较的数值", "not addressed": "找到的来源都没有谈到这一点"}[v]
        return f"结论：{ZH_VERDICT[v]}——{detail}。"
    agree = f"{n_agree} source{'s' if n_agree != 1 else ''} agree{'s' if n_agree == 1 else ''}"
    detail = {"disputed": f"the sources disagree: {agree}; " + "; ".join(said["contradicts"]),
              "newer guidance": "; ".join(said["updates"]), "disagrees": "; ".join(said["contradicts"]),
              "agrees": f"{agree} with the video",
              "background only": "no source states a value to compare",
              "not addressed": "none of the sources found speaks to it"}[v]
    return f"Verdict: {v} — {detail}."


def verdicts_of(anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
                language: str = "en") -> dict[str, dict]:
    """Per anchor: its verdict and a sentence naming the sources (and their values) behind it."""
    zh, out = language == "zh", {}
    for a in anchors:
        evs = [e for e in evidence if e.anchor_id == a.id]
        v = verdict_of({e.relation for e in evs})
        said = {rel: stances(a, evs, sources, rel, zh) for rel in ("contradicts", "updates")}
        n_agree = len({e.source_id for e in evs if e.relation == "supports"})
        out[a.id] = {"verdict": v, "text": _verdict_text(v, said, n_agree, zh)}
    return out


# What the summary says of each verdict, in the order a reader acts on it (change first).
_LINES_EN = (("newer guidance", "Change"), ("disagrees", "Check before relying on it (the sources give another value)"),
             ("disputed", "Disputed between sources"), ("agrees", "Keep (the sources agree)"),
             ("background only", "Background only (no value to compare)"), ("not addressed", "Not addressed by any source"))
_LINES_ZH = (("newer guidance", "需要更新"), ("disagrees", "与来源不符，使用前请核实"), ("disputed", "来源之间有分歧"),
             ("agrees", "可以保留"), ("background only", "仅有背景资料"), ("not addressed", "没有来源涉及"))
_COUNTS_EN = {"newer guidance": "{} to change", "disagrees": "{} where the sources give another value",
              "disputed": "{} disputed between sources", "agrees": "{} to keep", "background only": "{} with background only",
              "not addressed": "{} that no source addressed"}
_COUNTS_ZH = {"newer guidance": "{}处需要更新", "disagrees": "{}处与来源不符", "disputed": "{}处来源之间有分歧",
              "agrees": "{}处可以保留", "background only": "{}处仅有背景资料", "not addressed": "{}处没有来源涉及"}
_DETAIL = {"newer guidance": ("updates",), "disagrees": ("contradicts",), "disputed": ("contradicts",)}


def _item(a: Anchor, verdict: str, evidence: list[Evidence], sources: dict[str, Source], zh: bool) -> str:
    what = short(a.heading or a.text, 60)
    value = short(zh_value(a.value) if zh else a.value, 40)
    if zh:
        head = f"{what}（{value}，{clock(a.start)}）" if value else f"{what}（{clock(a.start)}）"
    else:
        named = f"the {in_sentence(what)}" if a.heading else f"“{what}”"  # a statement without a heading is quoted
        head = f"{named} ({value}, at {clock(a.start)})" if value else f"{named} (at {clock(a.start)})"
    evs = [e for e in evidence if e.anchor_id == a.id]
    said = [s for rel in _DETAIL.get(verdict, ()) for s in stances(a, evs, sources, rel, zh)]
    if verdict == "disputed":  # the agreeing sources counted, the differing ones named with their values
        n = len({e.source_id for e in evs if e.relation == "supports"})
        said.insert(0, f"{n}个来源相符" if zh else f"{n} source{'s' if n != 1 else ''} agree{'s' if n == 1 else ''}")
    if not said:
        return head
    return head + ("——" + "，".join(said) if zh else " — " + ", ".join(said))


def summary_of(request: str, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
               verdicts: dict[str, dict], language: str = "en") -> str:
    """The request answered, one line per kind of answer: first a count of what to change, check,
    keep; then each group with its anchors, and for a change or a dispute what the sources give."""
    zh = language == "zh"
    if not anchors:
        return "视频中没有可以核对的说法。" if zh else "The video states nothing the sources could check."
    groups: dict[str, list[Anchor]] = {v: [] for v in VERDICTS}
    for a in anchors:
        groups[verdicts[a.id]["verdict"]].append(a)
    counts = [(_COUNTS_ZH if zh else _COUNTS_EN)[v].format(len(groups[v])) for v, _ in (_LINES_ZH if zh else _LINES_EN)
              if groups[v]]
    n, m = len(anchors), len(sources)
    if zh:
        lines = [f"核对了视频中的{n}处说法（{m}个来源）：{'，'.join(counts)}。"]
    else:
        lines = [f"Of the {n} statement{'s' if n != 1 else ''} checked against {m} source{'s' if m != 1 else ''}: "
                 f"{', '.join(counts)}."]
        if not groups["newer guidance"] and not groups["disagrees"] and groups["agrees"]:
            lines[0] += " Nothing the sources checked needs changing."
    for v, lead in (_LINES_ZH if zh else _LINES_EN):
        if groups[v]:
            items = [_item(a, v, evidence, sources, zh) for a in groups[v]]
            lines.append(f"{lead}：{'；'.join(items)}。" if zh else f"{lead}: {'; '.join(items)}.")
    return "\n".join(lines)


def write_summary(model, request: str, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
                  verdicts: dict[str, dict], *, language: str = "en", problems: list[str] | None = None,
                  max_tokens: int = 400) -> str:
    """The summary: the rules' (``summary_of``), or with ``model`` a paragraph the writer makes of
    the same facts (the rules' lines and each anchor's verdict); the rules' when the writer fails."""
    from ..errors import ModelError, ModelOutputError
    from ..prompts import render

    rules = summary_of(request, anchors, evidence, sources, verdicts, language=language)
    if model is None or not anchors:
        return rules
    facts = "\n".join([rules] + [f"- {a.heading or a.text} ({a.value or 'no value'}, at {clock(a.start)}): "
                                 f"{verdicts[a.id]['text']}" for a in anchors])
    try:
        text = str(model.chat(render("report_summary.j2", request=request, facts=facts, language=language),
                              schema=SUMMARY_SCHEMA, max_tokens=max_tokens).data["text"]).strip()
    except (ModelOutputError, ModelError) as exc:
        text = ""
        if problems is not None:
            problems.append(f"writer failed for the summary ({type(exc).__name__}: {str(exc)[:160]}); it is the rules'")
    if not text and problems is not None and not any("summary" in p for p in problems):
        problems.append("writer gave an empty summary; it is the rules'")
    return text or rules


def open_questions(anchors: list[Anchor], evidence: list[Evidence], language: str = "en") -> list[str]:
    out = [a.text for a in anchors if a.kind == "open_question"]
    lead = "没有来源涉及：" if language == "zh" else "No source found for: "
    out += [f"{lead}{a.heading or a.text}" + (f" ({a.value})" if a.value else "")
            for a in anchors if not any(e.anchor_id == a.id for e in evidence)]
    return out


def _evidence_lines(anchor: Anchor, evs: list[Evidence], sources: dict[str, Source]) -> str:
    return "\n".join(f"{e.id} [{e.relation}] {source_name(sources[e.source_id].title, sources[e.source_id].date or 'undated')}"
                     + (f", stating {source_value(anchor, e)}" if source_value(anchor, e) else "")
                     + f": \"{readable(e.excerpt, e.context)}\"" for e in evs)


def write_model(model, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source], *,
                fix: dict[str, str] | None = None, max_tokens: int = 300, problems: list[str] | None = None,
                language: str = "en") -> list[Finding]:
    """One paragraph per anchor with evidence, written by the endpoint; ``fix`` maps an anchor id to
    the failed check the paragraph must repair (targeted repair: other anchors are not rewritten)."""
    from ..errors import ModelError, ModelOutputError
    from ..prompts import render

    out = []
    for a in anchors:
        evs = [e for e in evidence if e.anchor_id == a.id]
        if not evs or (fix is not None and a.id not in fix):
            continue
        prompt = render("report_write.j2", anchor=a.text, heading=a.heading or a.subject, value=a.value,
                        moment=clock(a.start), evidence=_evidence_lines(a, evs, sources),
                        problem=(fix or {}).get(a.id, ""), language=language)
        try:
            d = model.chat(prompt, schema=WRITE_SCHEMA, max_tokens=max_tokens).data
            text, cites = str(d["text"]).strip(), [str(c) for c in d["cites"]]
        except (ModelOutputError, ModelError) as exc:
            text, cites = "", []
            if problems is not None:
                problems.append(f"writer failed for anchor {a.id} ({type(exc).__name__}: {str(exc)[:160]}); "
                                "its findings are the rules' sentences")
        known = {e.id for e in evs}
        if not text:  # the writer gave nothing usable: the records speak for themselves
            if problems is not None and not any(a.id in p for p in problems):
                problems.append(f"writer gave an empty paragraph for anchor {a.id}; its findings are the rules' sentences")
            for e in evs:
                out.append(Finding(f"F{a.id}-{e.id}", a.id, finding_rules(a, e, sources[e.source_id], language),
                                   (e.id,), e.relation))
            continue
        kept = tuple(c for c in cites if c in known)
        rels = Counter(e.relation for e in evs if e.id in kept)
        out.append(Finding(f"F{a.id}", a.id, text, kept, rels.most_common(1)[0][0] if rels else ""))
    return out


def _words(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def _worth_a_note(text: str) -> bool:
    """A timeline line a reader can use: at least two letters (OCR of a running timer, "0" or
    "00:00:01.000", is not)."""
    return sum(ch.isalpha() for ch in text) >= 2


def notes_of(timeline, anchors: list[Anchor], limit: int = 80, near_s: float = 15.0) -> list[Note]:
    """The video pane's timeline: every anchor moment, then the speech and on-screen text lines a
    reader can use — not a timer's digits, not a fragment repeated by a fuller line nearby."""
    notes = {}
    for a in anchors:
        for m in a.moments:
            notes[(round(m.start, 1), m.text)] = Note(round(m.start, 2), f"{m.kind}: {m.text}", a.id)
    lines = [s for s in timeline.of_kind("speech", "subtitle", "ocr") if _worth_a_note(s.text)]
    said = [(round(s.start, 2), _words(s.text)) for s in lines] + [(n.t, _words(n.text.split(": ", 1)[-1]))
                                                                   for n in notes.values()]
    for s in lines:
        key, mine = (round(s.start, 1), s.text), _words(s.text)
        if key in notes or len(notes) >= limit:
            continue
        if any(mine != other and mine in other and abs(t - s.start) <= near_s for t, other in said):
            continue  # "using a 40 millimeter bit at 18" beside the whole sentence
        notes[key] = Note(round(s.start, 2), f"{s.kind}: {s.text}")
    return sorted(notes.values(), key=lambda n: n.t)
