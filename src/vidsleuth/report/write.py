"""Stage 5: writing. Video observations (what the video shows and says, with its moments) are kept
apart from external findings; every finding carries its citations beside it (the seed's most
common failure is a Sources list that supports no claim), grouped by anchor with its relation.

``write_rules`` is the embedded default: one sentence per evidence record, built from the values
both sides state ("The USDA chart (2024) gives 165 °F (73.9 °C) for poultry, which the video's
74 °C meets"), in the report's language. ``verdicts_of`` gives each anchor a verdict line (agrees,
disagrees, disputed, newer guidance, background only, not addressed) and ``summary_of`` answers the
request from them: what to keep, what to change, what is disputed, what no source addressed.
``write_model`` asks the configured writer for one synthesis per anchor, returning the evidence
ids it cites; unknown ids are dropped (and the check sends the paragraph back for repair); a
writer that fails is recorded in ``problems`` (run.json), and that anchor's findings are the rules'.
"""

from __future__ import annotations

from collections import Counter

from ..timecode import clock
from .facts import quantities, statement
from .types import Anchor, Evidence, Finding, Note, Source

VERB = {"supports": "supports the video", "contradicts": "contradicts the video", "updates": "updates the video",
        "explains": "explains", "compares": "compares", "applies": "applies it"}
VERDICTS = ("agrees", "disagrees", "disputed", "newer guidance", "background only", "not addressed")
_ZH_VERDICT = {"agrees": "相符", "disagrees": "不符", "disputed": "来源之间有分歧", "newer guidance": "有更新的建议",
               "background only": "仅有背景资料", "not addressed": "没有来源涉及"}
WRITE_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "cites": {"type": "array", "items": {"type": "string"}}},
    "required": ["text", "cites"],
}


def _name(src: Source, zh: bool) -> str:
    dated = f"（{src.date}）" if zh and src.date else f" ({src.date})" if src.date else ""
    return f"{src.title}{dated}" if zh else f"“{src.title}”{dated}"


def source_value(anchor: Anchor, ev: Evidence) -> str:
    """The value the excerpt states for the anchor's quantity, in the anchor's unit too when it
    is stated in another ("165 °F (73.9 °C)"); '' when it states none."""
    aq = quantities(" ".join([anchor.text] + [m.text for m in anchor.moments]))
    rs = [(a, r.value) for r in statement(ev.excerpt, ev.context).readings for a in aq if a.comparable(r.value)]
    if not rs:
        return ""
    a, v = min(rs, key=lambda p: p[1].width())
    shown = v.label()
    if v.unit != a.unit and not a.dimension.startswith(("count:", "money:")):
        other = v.shown_in(a.unit)
        if other and other not in shown:
            shown += f" ({other})"
    return shown


def finding_rules(anchor: Anchor, ev: Evidence, src: Source, language: str = "en") -> str:
    zh = language == "zh"
    what = anchor.heading or anchor.subject
    mine = anchor.value or anchor.text
    theirs = source_value(anchor, ev)
    who = _name(src, zh)
    where = f"（{clock(ev.moment)}）" if zh and ev.moment is not None else f" at {clock(ev.moment)}" if ev.moment is not None else ""
    quote = f"“{ev.excerpt.strip()}”"
    if zh:
        if theirs and ev.relation in ("supports", "contradicts", "updates", "compares"):
            return {"supports": f"{who}{where}给出的{what}为{theirs}，视频中的{mine}与之相符。",
                    "contradicts": f"{who}{where}给出的{what}为{theirs}，与视频中的{mine}不符。",
                    "updates": f"{who}{where}把{what}更新为{theirs}；视频中的{mine}是旧的建议。",
                    "compares": f"{who}{where}把视频中的{mine}与{theirs}作比较：{quote}"}[ev.relation]
        lead = {"applies": "把这一做法用于其他场合", "compares": "作了比较", "supports": "与视频一致",
                "contradicts": "与视频不一致", "updates": "给出了更新的建议"}.get(ev.relation, "解释了原因")
        return f"{who}{where}{lead}：{quote}"
    low = what[0].lower() + what[1:] if what else "this"
    if theirs:
        return {"supports": f"{who}{where} gives {theirs} for the {low}, which the video's {mine} meets.",
                "contradicts": f"{who}{where} gives {theirs} for the {low}, not the video's {mine}.",
                "updates": f"{who}{where} revises the {low} to {theirs}; the video's {mine} is older guidance.",
                "compares": f"{who}{where} sets the video's {mine} beside {theirs}: {quote}"}.get(
            ev.relation, f"{who}{where} on the {low}: {quote}")
    return {"explains": f"{who}{where} explains the {low}: {quote}",
            "applies": f"{who}{where} applies the {low} elsewhere: {quote}",
            "compares": f"{who}{where} compares the {low} with something else: {quote}",
            "supports": f"{who}{where} agrees with the video on the {low}: {quote}",
            "contradicts": f"{who}{where} disagrees with the video on the {low}: {quote}",
            "updates": f"{who}{where} gives newer guidance on the {low}: {quote}"}.get(ev.relation, f"{who}{where}: {quote}")


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


def verdicts_of(anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
                language: str = "en") -> dict[str, dict]:
    """Per anchor: its verdict and a sentence naming the sources behind it."""
    out = {}
    for a in anchors:
        evs = [e for e in evidence if e.anchor_id == a.id]
        v = verdict_of({e.relation for e in evs})
        by = {rel: sorted({sources[e.source_id].title for e in evs if e.relation == rel}) for rel in
              ("supports", "contradicts", "updates")}
        if language == "zh":
            text = f"结论：{_ZH_VERDICT[v]}。"
        else:
            text = f"Verdict: {v}"
            if v == "disputed":
                text += f" — the sources disagree: {', '.join(by['supports'])} agree; {', '.join(by['contradicts'])} differ."
            elif v == "newer guidance":
                text += f" — {', '.join(by['updates'])} revise{'s' if len(by['updates']) == 1 else ''} the value."
            else:
                text += "."
        out[a.id] = {"verdict": v, "text": text}
    return out


def summary_of(request: str, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source],
               verdicts: dict[str, dict], language: str = "en") -> str:
    """What the request asks answered: keep, change, disputed, unaddressed."""
    groups: dict[str, list[str]] = {v: [] for v in VERDICTS}
    for a in anchors:
        label = f"{a.heading or a.subject} ({a.value})" if a.value else (a.heading or a.text[:60])
        groups[verdicts[a.id]["verdict"]].append(f"{label}, {clock(a.start)}")
    if language == "zh":
        parts = [f"针对“{request}”，核对了视频中的{len(anchors)}处说法与{len(sources)}个来源。"]
        for v, lead in (("agrees", "可以保留"), ("newer guidance", "需要更新"), ("disagrees", "与来源不符"),
                        ("disputed", "来源之间有分歧"), ("not addressed", "没有来源涉及")):
            if groups[v]:
                parts.append(f"{lead}：{'；'.join(groups[v])}。")
        return "".join(parts)
    parts = [f"For the request “{request}”, {len(anchors)} statement{'s' if len(anchors) != 1 else ''} of the video "
             f"{'were' if len(anchors) != 1 else 'was'} checked against {len(sources)} source{'s' if len(sources) != 1 else ''}."]
    for v, lead in (("agrees", "Keep"), ("newer guidance", "Change to the newer guidance"),
                    ("disagrees", "Check before relying on it (the sources disagree with the video)"),
                    ("disputed", "Disputed between sources"), ("background only", "Background only"),
                    ("not addressed", "No source addressed")):
        if groups[v]:
            parts.append(f"{lead}: {'; '.join(groups[v])}.")
    return " ".join(parts)


def open_questions(anchors: list[Anchor], evidence: list[Evidence], language: str = "en") -> list[str]:
    out = [a.text for a in anchors if a.kind == "open_question"]
    lead = "没有来源涉及：" if language == "zh" else "No source found for: "
    out += [f"{lead}{a.heading or a.text}" + (f" ({a.value})" if a.value else "")
            for a in anchors if not any(e.anchor_id == a.id for e in evidence)]
    return out


def write_model(model, anchors: list[Anchor], evidence: list[Evidence], sources: dict[str, Source], *,
                fix: dict[str, str] | None = None, max_tokens: int = 300, problems: list[str] | None = None) -> list[Finding]:
    """One paragraph per anchor with evidence, written by the endpoint; ``fix`` maps an anchor id to
    the failed check the paragraph must repair (targeted repair: other anchors are not rewritten)."""
    from ..errors import ModelError, ModelOutputError
    from ..prompts import render

    out = []
    for a in anchors:
        evs = [e for e in evidence if e.anchor_id == a.id]
        if not evs or (fix is not None and a.id not in fix):
            continue
        lines = "\n".join(f"{e.id} [{e.relation}] {sources[e.source_id].title} ({sources[e.source_id].date or 'undated'}): "
                          f"\"{e.excerpt}\"" for e in evs)
        prompt = render("report_write.j2", anchor=a.text, moment=clock(a.start), evidence=lines,
                        problem=(fix or {}).get(a.id, ""))
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
                out.append(Finding(f"F{a.id}-{e.id}", a.id, finding_rules(a, e, sources[e.source_id]), (e.id,), e.relation))
            continue
        kept = tuple(c for c in cites if c in known)
        rels = Counter(e.relation for e in evs if e.id in kept)
        out.append(Finding(f"F{a.id}", a.id, text, kept, rels.most_common(1)[0][0] if rels else ""))
    return out


def notes_of(timeline, anchors: list[Anchor], limit: int = 80) -> list[Note]:
    """The video pane's timeline: every anchor moment, then speech and on-screen text lines."""
    notes = {}
    for a in anchors:
        for m in a.moments:
            notes[(round(m.start, 1), m.text)] = Note(round(m.start, 2), f"{m.kind}: {m.text}", a.id)
    for s in timeline.of_kind("speech", "subtitle", "ocr"):
        key = (round(s.start, 1), s.text)
        if key not in notes and len(notes) < limit:
            notes[key] = Note(round(s.start, 2), f"{s.kind}: {s.text}")
    return sorted(notes.values(), key=lambda n: n.t)
