"""The Analyst (seed 001 §4): one call over every selected video, each labelled, then the
calculator for questions that compare or combine two targets' values.

Each video's block is the seed's ("=== Video: <title> ===", frames or on-screen text, transcript),
with a label line naming the video, its channel, publication date and the target it covers, so a
comparison is not answered from one video's evidence read as the other's. When the question names
targets and an operation (``checker.targets``, ``calculator.operation``), the answer is computed
from the value each target's own video states, and a ``calculator`` step shows the values and the
calculation; the model's answer is kept when a value is missing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import ModelOutputError
from ..models.types import ImagePart, Message
from ..prompts import render
from ..search.analysis import Analyzer
from ..timecode import seconds_label
from . import calculator, extract
from .answers_evidence import evidence_lines, ground
from .trace import Step, parse_confidence

ANSWER_SCHEMA = {"type": "object", "properties": {"Explanation": {"type": "string"}, "Answer": {"type": ["string", "number"]},
                                                  "Confidence": {"type": ["string", "number"]}},
                 "required": ["Answer"]}
_ANALYZER = Analyzer()


def _label(agent, vid: str, i: int, n: int, covers: dict) -> str:
    rec = agent.videos.record(vid)
    parts = [f"video {i} of {n}: {vid}"] + ([f"channel {rec.channel}"] if rec.channel else []) \
        + ([f"published {rec.published}"] if rec.published else [])
    targets = [t for t, v in covers.items() if v == vid]
    if targets:
        parts.append("covers: " + "; ".join(targets))
    return "[" + " · ".join(parts) + "]"


def video_parts(agent, vid: str, text_only: bool) -> list[Any]:
    cfg = agent.cfg
    tl = agent.videos.timeline(vid) if text_only else agent.videos.timeline(vid, ocr=False)
    parts: list[Any] = []
    if text_only:
        seen = tl.to_text(cfg.transcript_chars, kinds=["ocr"])
        parts.append("On-screen text (read by OCR from the frames):\n" + (seen or "(none)"))
    else:
        frames = agent.videos.frames(vid, n=cfg.analyst_frames, max_side=cfg.analyst_max_side)
        for k, f in enumerate(frames):
            parts += [f"[Frame at {seconds_label(f.t)}]", ImagePart(f.image, video=vid, t=f.t, index=k)]
        if not frames:
            parts.append("(no visual data)")
    transcript = tl.to_text(cfg.transcript_chars, kinds=["speech", "subtitle"])
    parts.append("Transcript:" + (transcript or "(none)"))
    return parts


def analyse(agent, question: str, selected: list[str], steps: list, covers: dict | None = None) -> tuple:
    """(answer, explanation, confidence, failed) from one model call over the selected videos."""
    cfg, covers = agent.cfg, covers or {}
    model = agent.models.for_role("analyst")
    text_only = not model.endpoint.accepts("vision")
    parts: list[Any] = [render("analyst_intro.j2", user_query=question).strip()]
    for i, vid in enumerate(selected, 1):
        parts.append(f"=== Video: {agent.videos.record(vid).title} ===")
        parts.append(_label(agent, vid, i, len(selected), covers))
        parts += video_parts(agent, vid, text_only)
    parts.append(render("analyst_outro.j2", succinct=text_only).strip())
    unavailable = [v for v in selected if v in agent.videos.problems]
    inputs = f"{len(selected)} videos" + (f", {len(unavailable)} unavailable" if unavailable else "")
    note = f"unavailable: {agent.videos.problems[unavailable[0]]}" if unavailable else ""
    try:
        reply = model.chat([Message.of("user", *parts)], schema=ANSWER_SCHEMA, max_tokens=cfg.analyst_max_tokens)
        d = reply.data
        answer, confidence = str(d.get("Answer")), parse_confidence(d.get("Confidence"))
        if text_only:
            answer, confidence, fired = _settle(agent, question, answer, confidence, selected, covers)
            note = "; ".join(x for x in (note, fired) if x)
        steps.append(Step.from_reply("analyst", 0, inputs, d, reply, note))
        return answer, str(d.get("Explanation") or ""), confidence, 0
    except ModelOutputError as exc:
        steps.append(Step("analyst", 0, inputs, exc.raw[:300],
                          note="unparseable final answer" + (f"; {note}" if note else "")))
        return None, exc.raw[:500], None, 1


def _settle(agent, question: str, answer: str, confidence, selected: list[str], covers: dict) -> tuple:
    """(answer, confidence, note) for a text-only model: the asked kind of value read from the
    timeline (``extract.settle``) when the question asks for one and no calculation is due, else
    the grounding guard over the evidence lines."""
    if not covers:
        settled = extract.settle(question, answer, extract.video_lines(agent.videos, selected))
        if settled:
            return settled[0], confidence, settled[1]
    named = _named_choice(question, answer)
    if named:
        return named, confidence, f"a 'which' question answered with one of its targets: {named!r}"
    return ground(question, answer, confidence, evidence_lines(agent.videos, selected))


def _named_choice(question: str, answer: str) -> str:
    """For a question asking which of its targets wins ("which tent is lighter?"), the one target
    the answer names (by its distinctive words), as a name; '' when it names none or several.
    The grounding guard would cut a name the perception spelled otherwise to some evidence word."""
    from .checker import targets

    op = calculator.operation(question)
    if op is None or op.kind != "compare" or not answer:
        return ""
    said = set(_ANALYZER.tokens(answer))
    hit = [t for t in targets(question) if t.words and all(w in said for w in t.words)]
    return calculator.item_name(hit[0].phrase, question) if len(hit) == 1 else ""


def _values(agent, op, targets: tuple, covers: dict, question: str) -> dict:
    """Each target's value in the asked dimension, read from its own video."""
    values = {}
    for t in targets:
        vid = covers.get(t.phrase)
        if op.dimension == "money":
            q = calculator.price_value(t, question, extract.prices(extract.video_lines(agent.videos, [vid] if vid else [])))
        else:
            q = calculator.target_value(op, t, question, evidence_lines(agent.videos, [vid]) if vid else [])
        if q is not None:
            values[t.phrase] = q
    return calculator.same_currency(values)


EVIDENCE_DIMENSIONS = ("money", "time", "length", "mass", "temperature", "volume", "speed")


def _by_evidence(agent, op, targets: tuple, covers: dict, question: str) -> tuple:
    """(operation, values) for a question whose words name no dimension ("how much more is the
    ferry ticket than the lighthouse entry?") when its values cannot be combined as read: the
    dimension in which every target's video states a value, on the lines holding most of the
    targets' own words (the ticket's price, not the walk's minutes); (op, {}) when none."""
    best: tuple = (-1, op, {})
    for dim in EVIDENCE_DIMENSIONS:
        cand = replace(op, dimension=dim)
        vals = _values(agent, cand, targets, covers, question)
        if len(vals) != len(targets) or calculator.compute(cand, vals) is None:
            continue
        fit = sum(w in set(_ANALYZER.tokens(vals[t.phrase].line)) for t in targets for w in t.words)
        if fit > best[0]:
            best = (fit, cand, vals)
    return best[1], best[2]


def calculate(agent, question: str, targets: tuple, covers: dict, selected: list[str], steps: list) -> tuple | None:
    """(answer, calculation) computed from each target's value in its own video, recorded as a
    ``calculator`` step; None when the question asks for no calculation or a value is missing."""
    op = calculator.operation(question) if targets else None
    if op is None:
        return None
    if op.dimension is None:  # "how much more does a ticket cost …": the asked kind names it
        op = replace(op, dimension=calculator.counted(question) or extract.dimension(question))
    values, found, note = _values(agent, op, targets, covers, question), {}, ""
    if op.dimension is None and (len(values) < len(targets) or calculator.compute(op, values) is None):
        chosen, by = _by_evidence(agent, op, targets, covers, question)
        if by:
            op, values, note = chosen, by, f"calculator: no dimension asked; {chosen.dimension}, stated in every target's video"
    for t in targets:
        q = values.get(t.phrase)
        found[t.phrase] = {"video": covers.get(t.phrase), "value": f"{q.number} {q.unit}".strip() if q else None,
                           "line": q.line if q else None}
    result = calculator.compute(op, values) if len(values) == len(targets) else None
    if result and op.kind == "compare":  # "which is lighter": the winner's name, as the question names it
        result = (calculator.item_name(result[0], question), result[1])
    output = {"operation": op.kind, "pick": op.pick, "dimension": op.dimension, "phrase": op.phrase, "values": found,
              "answer": result[0] if result else None, "calculation": result[1] if result else None}
    if not result:
        note = "calculator: a target's value was not found, or the values cannot be combined; the Analyst's answer is kept"
    steps.append(Step("calculator", 0, f"{len(targets)} targets, {len(values)} values", output, note=note))
    return result
