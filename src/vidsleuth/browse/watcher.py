"""The Watcher (seed 001 §4.3): screens the Searcher's candidates and keeps the top-k.

``watch_llm`` is the seed's call (metadata and preview grids to the model). ``watch_embed`` is the
route for text-only models: the fused ranking (``fusion.fuse``) of each candidate's metadata and
what the library knows of its content — the whole ingested timeline's speech and on-screen text
within ``watcher_timeline_tokens`` (0: only what falls inside the preview grids' span, as the seed
sees it). Both honour the question's stated constraints (``constraints.py``): a pick that violates
one gives way to the best candidate that does not, and the step shows each candidate's
constraints met and violated and its cue coverage (the share of the question's terms its content
holds).
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelOutputError
from ..models.types import ImagePart, Message
from ..prompts import render
from ..timecode import seconds_label
from .checker import named_first
from .fusion import fuse
from .trace import Step
from .videos import clip

WATCHER_SCHEMA = {"type": "array", "items": {"type": "integer"}}
CHARS_PER_TOKEN = 4  # the budget's unit: a token is about four characters of English


def _text_only(model) -> bool:
    return not model.endpoint.accepts("vision")


def _honour(agent, picked: list[str], hits, constraints, target=None, question: str = "") -> tuple[list[str], str]:
    """The picks, a variant of the screened ``target`` giving way to the candidate whose title
    names it exactly (``checker.named_first``), then each violating a stated constraint replaced
    by the best-ranked candidate that violates fewer."""
    order = picked + [h.video_id for h in hits if h.video_id not in picked]
    order, named = named_first(target, {v: agent.videos.record(v).title for v in order}, question)
    if not constraints:
        return order[: len(picked)], named
    ranked = constraints.rank(order, agent.videos.records)
    out = ranked[: len(picked)]
    if out == picked:
        return picked, named
    return out, "; ".join(x for x in (named, f"constraints: {picked[0]} violates "
                                      f"{constraints.violations(agent.videos.record(picked[0]))} stated constraint(s); "
                                      f"{out[0]} ranked first instead") if x)


def _with_checks(agent, data, hits, constraints) -> Any:
    if not constraints:
        return data
    return {"picked": data, "constraints": {h.video_id: constraints.report(agent.videos.record(h.video_id)) for h in hits}}


def watch_llm(agent, question, hits, loop, steps, visual: bool = True, constraints=None, target=None) -> list[str]:
    """The seed's Watcher call: metadata and preview grids to the model, which picks the top-k."""
    cfg = agent.cfg
    model = agent.models.for_role("watcher")
    text_only = _text_only(model)
    header = render("watcher_header.j2", user_query=question, n_candidates=len(hits), n_grids=cfg.n_grids if visual else 0,
                    rows=cfg.grid_rows, frames_per_grid=cfg.grid_rows * cfg.grid_rows, top_k=cfg.watcher_top_k).strip()
    parts: list[Any] = [header]
    no_visual = 0
    for i, hit in enumerate(hits):
        rec = agent.videos.record(hit.video_id)
        parts.append(f"[Cand {i}] Title: {clip(rec.title, cfg.title_max)} | Channel: {clip(rec.channel, cfg.channel_max)}"
                     + (f" | Published: {rec.published}" if rec.published else "")
                     + f"\nDesc: {clip(rec.description, cfg.desc_max)}")
        if not visual:
            continue
        grids = agent.videos.grids(hit.video_id, cfg)
        if not grids:
            parts.append("(no visual data)")
            no_visual += 1
            continue
        # the grids go at their native size (3x3 cells of grid_cell px, seed B.3), not
        # re-encoded to the endpoint's image_max_side
        for g, grid in enumerate(grids, 1):
            a, b = grid.span
            parts.append(f"[Cand {i} · Grid {g}/{len(grids)} · t={a:.1f}-{seconds_label(b)}]")
            if text_only:
                notes = "; ".join(agent.videos.cell_notes(hit.video_id, grid.times, merge=True))
                parts.append(ImagePart(grid.image, note=f"grid cells read by OCR: {notes}", read=False,
                                       video=hit.video_id, t=a, index=g - 1))
            else:
                parts.append(ImagePart(grid.image, max_side=max(grid.image.size), video=hit.video_id, t=a, index=g - 1))
    fallback = [h.video_id for h in hits[: cfg.watcher_top_k]]
    inputs = f"{len(hits)} candidates, {no_visual} without visual data" if visual else f"{len(hits)} candidates, metadata only"
    try:
        reply = model.chat([Message.of("user", *parts)], schema=WATCHER_SCHEMA, max_tokens=cfg.watcher_max_tokens)
        picked = []
        for idx in reply.data:  # dedupe, keep valid indices, clip at top_k (seed B.3)
            if isinstance(idx, int) and 0 <= idx < len(hits) and hits[idx].video_id not in picked:
                picked.append(hits[idx].video_id)
        picked = picked[: cfg.watcher_top_k]
        note = "" if picked else "empty or invalid list: first top-k candidates"
        picked, moved = _honour(agent, picked or fallback, hits, constraints, target, question)
        note = "; ".join(x for x in (note, moved) if x)
        steps.append(Step.from_reply("watcher", loop, inputs, _with_checks(agent, reply.data, hits, constraints), reply,
                                     note))
        return picked
    except ModelOutputError as exc:
        picked, moved = _honour(agent, fallback, hits, constraints, target, question)
        steps.append(Step("watcher", loop, inputs, exc.raw[:300],
                          note="; ".join(x for x in ("unparseable: first top-k candidates", moved) if x)))
        return picked


def candidate_texts(agent, hits, visual: bool) -> list:
    """What the embedded Watcher reads of each candidate (see the module docstring)."""
    cfg = agent.cfg
    budget = cfg.watcher_timeline_tokens * CHARS_PER_TOKEN
    if not visual:
        return [agent.videos.candidate_text(h.video_id, []) for h in hits]
    if budget:
        # the timeline records an unreadable video in ``problems``; no preview grid is decoded
        return [agent.videos.candidate_text(h.video_id, None, max_chars=budget) for h in hits]
    grid_times = lambda vid: [t for g in agent.videos.grids(vid, cfg) for t in g.times]  # noqa: E731
    return [agent.videos.candidate_text(h.video_id, grid_times(h.video_id)) for h in hits]


def watch_embed(agent, question, hits, loop, steps, visual: bool, constraints=None, target=None) -> list[str]:
    """The fused ranking for text-only backends, then the title naming the screened ``target``
    exactly (``checker.named_first``), then the question's constraints (they come first)."""
    cfg = agent.cfg
    texts = candidate_texts(agent, hits, visual)
    ranked = fuse(question, texts, agent.models.embedder())
    named_order, named = named_first(target, {r.video_id: agent.videos.record(r.video_id).title for r in ranked},
                                     question)
    order = named_order
    if constraints:
        order = constraints.rank(order, agent.videos.records, {t.video_id: t.content for t in texts})
    picked = order[: cfg.watcher_top_k]
    missing = [h.video_id for h in hits if h.video_id in agent.videos.problems] if visual else []
    span = "whole timeline" if cfg.watcher_timeline_tokens else "grid span"
    note = f"embedded watcher (fused: metadata, on-screen text, speech; {span})" if visual else "metadata only"
    if named and picked and picked[0] == named_order[0]:
        note += f"; {named}"
    if constraints and ranked and picked and picked[0] != named_order[0]:
        note += f"; constraints: {named_order[0]} violates a stated constraint, {picked[0]} ranked first instead"
    if missing:
        note += f"; {len(missing)} candidate(s) unavailable: {agent.videos.problems[missing[0]]}"
    by_id = {t.video_id: t for t in texts}
    out = {}
    for r in sorted(ranked, key=lambda r: order.index(r.video_id)):
        row: dict[str, Any] = {"score": r.score, "cues": r.signals.get("lex_content", 0.0), "signals": r.signals}
        if constraints:
            row["constraints"] = constraints.report(agent.videos.record(r.video_id), by_id[r.video_id].content)
        out[r.video_id] = row
    steps.append(Step("watcher", loop, f"{len(hits)} candidates ({'fused' if visual else 'metadata only'})", out,
                      note=note))
    return picked
