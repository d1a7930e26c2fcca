"""Video-Browser (seed 001 §4, App. B.1/B.3): Planner → Searcher → Watcher → Checker, looped at
most T_max times, then one Analyst call over every selected video.

Prompts are the seed's (``prompts/planner.j2``, ``watcher_header.j2``, ``checker.j2``,
``analyst_*.j2``). Failures follow the seed's fallbacks and are recorded on the step: an
unparseable Watcher answer or an empty list selects the first top-k candidates; an unparseable
Planner answer searches the question itself; an unparseable Checker answer continues.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import ModelOutputError, VidsleuthError
from ..models.types import ImagePart, Message
from ..prompts import render
from ..timecode import seconds_label
from .answers_evidence import answer_evidence, evidence_lines, ground
from .fusion import fuse
from .guards import guarded_search, query_problem, question_query
from .react import ReAct
from .trace import Answer, Step, parse_confidence
from .videos import BrowseConfig, Videos, clip

PLANNER_SCHEMA = {"type": "object", "properties": {"thought": {"type": "string"},
                                                   "search_queries": {"type": "array", "items": {"type": "string"}}},
                  "required": ["search_queries"]}
CHECKER_SCHEMA = {"type": "object", "properties": {"decision": {"enum": ["HALT", "CONTINUE", "halt", "continue"]},
                                                   "feedback": {"type": "string"}}, "required": ["decision"]}
WATCHER_SCHEMA = {"type": "array", "items": {"type": "integer"}}
ANSWER_SCHEMA = {"type": "object", "properties": {"Explanation": {"type": "string"}, "Answer": {"type": ["string", "number"]},
                                                  "Confidence": {"type": ["string", "number"]}},
                 "required": ["Answer"]}


def _text_only(model) -> bool:
    return not model.endpoint.accepts("vision")


class VideoBrowser:
    """The Agent protocol: ``name``, ``prompts`` (package templates it renders, hashed into run
    protocols) and ``run(question) -> Answer``."""

    name = "video-browser"
    prompts = ("planner.j2", "planner_state.j2", "watcher_header.j2", "checker.j2", "analyst_intro.j2",
               "analyst_outro.j2")

    def __init__(self, index, models, videos: Videos, memory=None, config: BrowseConfig | None = None):
        self.index, self.models, self.videos, self.memory = index, models, videos, memory
        self.cfg = config or BrowseConfig()

    # -- roles
    def _plan(self, question, history, evidence, feedback, memory_block, loop, steps) -> str:
        model = self.models.for_role("planner")
        system = render("planner.j2", memory_block=memory_block, max_queries=self.cfg.planner_max_queries).strip()
        human = render("planner_state.j2", question=question, history=history, evidence=evidence, feedback=feedback).strip()
        try:
            reply = model.chat([Message.of("system", system), Message.of("user", human)], schema=PLANNER_SCHEMA,
                               max_tokens=self.cfg.planner_max_tokens)
            queries = [q for q in reply.data.get("search_queries", []) if isinstance(q, str) and q.strip()]
            query = queries[0] if queries else ""
            problem = query_problem(query, question)
            note = ""
            if problem:
                query = question_query(question)
                note = f"guard: {problem}; searching the question's words instead"
            steps.append(Step.from_reply("planner", loop, f"history {len(history)}, evidence {len(evidence)}",
                                         reply.data, reply, note))
        except ModelOutputError as exc:
            query = question_query(question)
            steps.append(Step("planner", loop, "planner state", exc.raw[:300],
                              note="unparseable: searching the question's words"))
        return query

    def _search(self, query: str, question: str, loop: int, steps: list) -> tuple[str, list]:
        """The Searcher; a query that finds nothing is replaced by the question's words (recorded)."""
        query, hits, note = guarded_search(self.index, query, question, self.cfg.search_k)
        steps.append(Step("searcher", loop, query, [h.video_id for h in hits], note=note))
        return query, hits

    def watcher_kind(self) -> str:
        """``llm`` (the seed's call: metadata + grids to the model) or ``embed`` (the fused
        ranking for text-only models); ``auto`` chooses by what the watcher endpoint accepts."""
        if self.cfg.watcher != "auto":
            return self.cfg.watcher
        return "embed" if _text_only(self.models.for_role("watcher")) else "llm"

    def watch(self, question: str, hits: list, loop: int = 0, steps: list | None = None, *, visual: bool = True,
              kind: str | None = None) -> list[str]:
        """The Watcher: the top-k of ``hits`` for ``question``; ``visual=False`` is the
        metadata-only ablation; ``kind`` overrides the configured Watcher."""
        return self._watch(question, hits, loop, [] if steps is None else steps, visual, kind)

    def _watch(self, question, hits, loop, steps, visual: bool = True, kind: str | None = None) -> list[str]:
        if (kind or self.watcher_kind()) == "embed":
            return self._watch_embed(question, hits, loop, steps, visual)
        cfg = self.cfg
        model = self.models.for_role("watcher")
        text_only = _text_only(model)
        header = render("watcher_header.j2", user_query=question, n_candidates=len(hits), n_grids=cfg.n_grids if visual else 0,
                        rows=cfg.grid_rows, frames_per_grid=cfg.grid_rows * cfg.grid_rows, top_k=cfg.watcher_top_k).strip()
        parts: list[Any] = [header]
        no_visual = 0
        for i, hit in enumerate(hits):
            rec = self.videos.record(hit.video_id)
            parts.append(f"[Cand {i}] Title: {clip(rec.title, cfg.title_max)} | Channel: {clip(rec.channel, cfg.channel_max)}\n"
                         f"Desc: {clip(rec.description, cfg.desc_max)}")
            if not visual:
                continue
            grids = self.videos.grids(hit.video_id, cfg)
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
                    notes = "; ".join(self.videos.cell_notes(hit.video_id, grid.times, merge=True))
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
            steps.append(Step.from_reply("watcher", loop, inputs, reply.data, reply, note))
            return picked or fallback
        except ModelOutputError as exc:
            steps.append(Step("watcher", loop, inputs, exc.raw[:300], note="unparseable: first top-k candidates"))
            return fallback

    def _watch_embed(self, question, hits, loop, steps, visual: bool) -> list[str]:
        """The Watcher for text-only backends: candidates ranked by the fusion of their metadata,
        the on-screen text read in their preview-grid cells and the speech heard within the grids'
        span (``fusion.fuse``). ``visual=False`` is the metadata-only ablation."""
        cfg = self.cfg
        grid_times = lambda vid: [t for g in self.videos.grids(vid, cfg) for t in g.times] if visual else []
        texts = [self.videos.candidate_text(h.video_id, grid_times(h.video_id)) for h in hits]
        ranked = fuse(question, texts, self.models.embedder())
        picked = [r.video_id for r in ranked[: cfg.watcher_top_k]]
        missing = [h.video_id for h in hits if h.video_id in self.videos.problems] if visual else []
        note = "embedded watcher (fused: metadata, on-screen text, speech)" if visual else "metadata only"
        if missing:
            note += f"; {len(missing)} candidate(s) unavailable: {self.videos.problems[missing[0]]}"
        steps.append(Step("watcher", loop, f"{len(hits)} candidates ({'fused' if visual else 'metadata only'})",
                          {r.video_id: [r.score, r.signals] for r in ranked}, note=note))
        return picked

    def _check(self, question, query, evidence, history, loop, steps) -> tuple[bool, str]:
        halt, feedback = self._check_model(question, query, evidence, history, loop, steps)
        if halt and not evidence:
            last = steps[-1]
            steps[-1] = replace(last, note=(last.note + "; " if last.note else "")
                                + "guard: HALT with no video selected: CONTINUE")
            return False, "no video has been selected yet: search for the question's subject"
        return halt, feedback

    def _check_model(self, question, query, evidence, history, loop, steps) -> tuple[bool, str]:
        model = self.models.for_role("checker")
        prompt = render("checker.j2", user_query=question, current_query=query,
                        accumulated_evidence="; ".join(evidence) or "(none)",
                        history="; ".join(f'loop {h["loop"]}: "{h["query"]}" -> {h["selected"]}' for h in history)).strip()
        try:
            reply = model.chat(prompt, schema=CHECKER_SCHEMA, max_tokens=self.cfg.checker_max_tokens)
            halt = str(reply.data["decision"]).upper() == "HALT"
            steps.append(Step.from_reply("checker", loop, f"{len(evidence)} evidence items", reply.data, reply))
            return halt, "" if halt else str(reply.data.get("feedback") or "")
        except ModelOutputError as exc:
            steps.append(Step("checker", loop, "evidence", exc.raw[:300], note="unparseable: CONTINUE"))
            return False, ""

    def _analyse(self, question, selected, steps) -> tuple[str | None, str, float | None, int]:
        cfg = self.cfg
        model = self.models.for_role("analyst")
        text_only = _text_only(model)
        parts: list[Any] = [render("analyst_intro.j2", user_query=question).strip()]
        for vid in selected:
            rec = self.videos.record(vid)
            parts.append(f"=== Video: {rec.title} ===")
            tl = self.videos.timeline(vid) if text_only else self.videos.timeline(vid, ocr=False)
            if text_only:
                seen = tl.to_text(cfg.transcript_chars, kinds=["ocr"])
                parts.append("On-screen text (read by OCR from the frames):\n" + (seen or "(none)"))
            else:
                frames = self.videos.frames(vid, n=cfg.analyst_frames, max_side=cfg.analyst_max_side)
                for n, f in enumerate(frames):
                    parts += [f"[Frame at {seconds_label(f.t)}]", ImagePart(f.image, video=vid, t=f.t, index=n)]
                if not frames:
                    parts.append("(no visual data)")
            transcript = tl.to_text(cfg.transcript_chars, kinds=["speech", "subtitle"])
            parts.append("Transcript:" + (transcript or "(none)"))
        parts.append(render("analyst_outro.j2", succinct=text_only).strip())
        unavailable = [v for v in selected if v in self.videos.problems]
        inputs = f"{len(selected)} videos" + (f", {len(unavailable)} unavailable" if unavailable else "")
        note = f"unavailable: {self.videos.problems[unavailable[0]]}" if unavailable else ""
        try:
            reply = model.chat([Message.of("user", *parts)], schema=ANSWER_SCHEMA, max_tokens=cfg.analyst_max_tokens)
            d = reply.data
            answer, confidence = str(d.get("Answer")), parse_confidence(d.get("Confidence"))
            if text_only:
                answer, confidence, fired = self._ground(question, answer, confidence, selected)
                note = "; ".join(x for x in (note, fired) if x)
            steps.append(Step.from_reply("analyst", 0, inputs, d, reply, note))
            return answer, str(d.get("Explanation") or ""), confidence, 0
        except ModelOutputError as exc:
            steps.append(Step("analyst", 0, inputs, exc.raw[:300],
                              note="unparseable final answer" + (f"; {note}" if note else "")))
            return None, exc.raw[:500], None, 1

    # -- the loop
    def run(self, question: str) -> Answer:
        steps: list[Step] = []
        memory_block = self.memory.block(question, self.cfg.memory_top, self.cfg.memory_pool) if self.memory else ""
        history: list[dict] = []
        selected: list[str] = []
        candidates: list[str] = []
        feedback = ""
        for loop in range(1, self.cfg.t_max + 1):
            evidence = [f"{v}: {self.videos.record(v).title}" for v in selected]
            query = self._plan(question, history, evidence, feedback, memory_block, loop, steps)
            query, hits = self._search(query, question, loop, steps)
            candidates += [h.video_id for h in hits if h.video_id not in candidates]
            picked = self._watch(question, hits, loop, steps) if hits else []
            selected += [v for v in picked if v not in selected]
            history.append({"loop": loop, "query": query, "selected": ", ".join(picked)})
            evidence = [f"{v}: {self.videos.record(v).title}" for v in selected]
            halt, feedback = self._check(question, query, evidence, history, loop, steps)
            if halt:
                break
        if not selected:
            steps.append(Step("analyst", 0, "no video selected", None, note="nothing to analyse"))
            return Answer(question=question, answer=None, explanation="no video was selected",
                          candidates=tuple(candidates), steps=tuple(steps), agent=self.name,
                          unavailable=self._unavailable(candidates))
        answer, explanation, confidence, _failed = self._analyse(question, selected, steps)
        failures = sum(1 for s in steps if s.note.startswith("unparseable"))  # the analyst's step included, once
        return Answer(question=question, answer=answer, explanation=explanation, confidence=confidence,
                      evidence=answer_evidence(answer, self.videos, selected), selected=tuple(selected),
                      candidates=tuple(candidates), steps=tuple(steps), agent=self.name, parse_failures=failures,
                      unavailable=self._unavailable(candidates))

    def _ground(self, question: str, answer: str, confidence: float | None, selected) -> tuple:
        """The grounding guard (``answers.ground_answer``) over the lines the model was shown."""
        return ground(question, answer, confidence, evidence_lines(self.videos, selected))

    def _unavailable(self, candidates) -> tuple:
        return tuple((v, self.videos.problems[v]) for v in candidates if v in self.videos.problems)


AGENTS = {"video-browser": VideoBrowser, "react": ReAct}


def make_agent(name: str, index, models, videos: Videos, memory=None, config: BrowseConfig | None = None):
    if name not in AGENTS:
        raise VidsleuthError(f"unknown agent '{name}'", hint=f"choose one of {', '.join(AGENTS)}")
    if name == "react":
        return ReAct(index, models, videos, config)
    return VideoBrowser(index, models, videos, memory, config)
