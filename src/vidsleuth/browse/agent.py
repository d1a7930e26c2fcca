"""Video-Browser (seed 001 §4, App. B.1/B.3): Planner → Searcher → Watcher → Checker, looped at
most T_max times, then one Analyst call over every selected video.

Prompts are the seed's (``prompts/planner.j2``, ``watcher_header.j2``, ``checker.j2``,
``analyst_*.j2``). Failures follow the seed's fallbacks and are recorded on the step: an
unparseable Watcher answer or an empty list selects the first top-k candidates; an unparseable
Planner answer searches the question itself; an unparseable Checker answer continues.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ModelOutputError, VidsleuthError
from ..models.types import Message
from ..prompts import render
from .analyst import analyse, calculate
from .answers_evidence import answer_evidence
from .checker import decide, focus, targets
from .constraints import Constraints
from .constraints import parse as parse_constraints
from .guards import query_problem
from .react import ReAct
from .searcher import search
from .trace import Answer, Step
from .videos import BrowseConfig, Videos
from .watcher import watch_embed, watch_llm

PLANNER_SCHEMA = {"type": "object", "properties": {"thought": {"type": "string"},
                                                   "search_queries": {"type": "array", "items": {"type": "string"}}},
                  "required": ["search_queries"]}
CHECKER_SCHEMA = {"type": "object", "properties": {"decision": {"enum": ["HALT", "CONTINUE", "halt", "continue"]},
                                                   "feedback": {"type": "string"}}, "required": ["decision"]}


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
            usable = [q for q in queries if not query_problem(q, question)]  # a placeholder never reaches the search
            query = usable[0] if usable else ""
            note = ""
            if not usable:
                note = f"guard: {query_problem(queries[0] if queries else '', question)}; searching the question's words instead"
            elif query != queries[0]:
                note = f"guard: {query_problem(queries[0], question)}; searched the Planner's next query"
            steps.append(Step.from_reply("planner", loop, f"history {len(history)}, evidence {len(evidence)}",
                                         reply.data, reply, note))
            return query
        except ModelOutputError as exc:
            steps.append(Step("planner", loop, "planner state", exc.raw[:300],
                              note="unparseable: searching the question's words"))
            return ""

    def _search(self, query: str, question: str, loop: int, steps: list, constraints: Constraints,
                focus: str = "") -> tuple[str, list]:
        """The Searcher (``searcher.search``): the Planner's query and the question's (or the
        missing target's) content words, merged, then ranked by the stated constraints."""
        found = search(self.index, query, question, self.cfg.search_k, constraints, self.videos.records, focus)
        out: Any = [h.video_id for h in found.hits]
        if len(found.queries) > 1 or constraints:
            out = {"queries": list(found.queries), "hits": out}
        steps.append(Step("searcher", loop, " | ".join(found.queries), out, note=found.note))
        return found.query, list(found.hits)

    def watcher_kind(self) -> str:
        """``llm`` (the seed's call: metadata + grids to the model) or ``embed`` (the fused
        ranking for text-only models); ``auto`` chooses by what the watcher endpoint accepts."""
        if self.cfg.watcher != "auto":
            return self.cfg.watcher
        return "embed" if _text_only(self.models.for_role("watcher")) else "llm"

    def watch(self, question: str, hits: list, loop: int = 0, steps: list | None = None, *, visual: bool = True,
              kind: str | None = None, constraints=None, target=None) -> list[str]:
        """The Watcher (``watcher.py``): the top-k of ``hits`` for ``question``; ``visual=False`` is
        the metadata-only ablation; ``kind`` overrides the configured Watcher; ``target``: the
        named target a loop screens for (a title naming it exactly goes first)."""
        fn = watch_embed if (kind or self.watcher_kind()) == "embed" else watch_llm
        return fn(self, question, hits, loop, [] if steps is None else steps, visual, constraints, target)

    def _check(self, question, query, selected, history, loop, steps, ask: "Ask") -> tuple[bool, str, dict]:
        """The model's HALT/CONTINUE, then the structured decision (``checker.decide``)."""
        evidence = self._evidence(selected)
        model = self.models.for_role("checker")
        prompt = render("checker.j2", user_query=question, current_query=query,
                        accumulated_evidence="; ".join(evidence) or "(none)",
                        history="; ".join(f'loop {h["loop"]}: "{h["query"]}" -> {h["selected"]}' for h in history)).strip()
        texts = {v: self.videos.candidate_text(v, None).everything for v in selected}
        titles = {v: self.videos.record(v).title for v in selected}
        bad = {(t.phrase, v): ask.scoped(t).violations(self.videos.record(v)) for t in ask.targets for v in selected}
        try:
            reply = model.chat(prompt, schema=CHECKER_SCHEMA, max_tokens=self.cfg.checker_max_tokens)
            halt = str(reply.data["decision"]).upper() == "HALT"
            d = decide(halt, str(reply.data.get("feedback") or ""), ask.targets, texts, titles, question, bad)
            steps.append(Step.from_reply("checker", loop, f"{len(evidence)} evidence items", d.to_dict(reply.data), reply,
                                         d.note))
        except ModelOutputError as exc:
            d = decide(False, "", ask.targets, texts, titles, question, bad)
            steps.append(Step("checker", loop, "evidence", {"raw": exc.raw[:300], **d.to_dict(None)},
                              note="unparseable: CONTINUE"))
        return d.halt, d.feedback, d.covered

    def _evidence(self, selected) -> list[str]:
        out = []
        for v in selected:
            rec = self.videos.record(v)
            out.append(f"{v}: {rec.title}" + (f" ({rec.channel}" + (f", {rec.published})" if rec.published else ")")
                                               if rec.channel else ""))
        return out

    # -- the loop
    def run(self, question: str) -> Answer:
        steps: list[Step] = []
        ask = Ask(parse_constraints(question).known(self.videos.records.values()), targets(question))
        if ask.constraints or ask.targets:
            steps.append(Step("question", 0, question[:120], {"constraints": ask.constraints.describe(),
                                                              "targets": [t.phrase for t in ask.targets]}))
        memory_block = self.memory.block(question, self.cfg.memory_top, self.cfg.memory_pool) if self.memory else ""
        history: list[dict] = []
        selected: list[str] = []
        candidates: list[str] = []
        feedback, covered = "", {}
        for loop in range(1, self.cfg.t_max + 1):
            # a question naming targets screens for one not covered yet in every loop, the first included
            missing = [t for t in ask.targets if covered.get(t.phrase) is None]
            query = self._plan(question, history, self._evidence(selected), feedback, memory_block, loop, steps)
            aim = focus(question, missing[0], ask.targets) if missing else ""
            cons = ask.scoped(missing[0] if missing else None)
            query, hits = self._search(query, question, loop, steps, cons, aim)
            candidates += [h.video_id for h in hits if h.video_id not in candidates]
            if aim:  # a missing target: screen for it, among the videos not selected yet
                hits = [h for h in hits if h.video_id not in selected]
            picked = self.watch(aim or question, hits, loop, steps, constraints=cons,
                                target=missing[0] if missing else None) if hits else []
            new = [v for v in picked if v not in selected]
            selected += new
            history.append({"loop": loop, "query": query, "selected": ", ".join(picked)})
            if loop > 1 and selected and not new and not missing:
                steps.append(Step("checker", loop, f"{len(selected)} selected", {"decision": "HALT"},
                                  note="guard: the loop selected no new video, so no new evidence: HALT"))
                break
            halt, feedback, covered = self._check(question, query, selected, history, loop, steps, ask)
            if halt:
                break
        if not selected:
            steps.append(Step("analyst", 0, "no video selected", None, note="nothing to analyse"))
            return Answer(question=question, answer=None, explanation="no video was selected",
                          candidates=tuple(candidates), steps=tuple(steps), agent=self.name,
                          unavailable=self._unavailable(candidates))
        answer, explanation, confidence, _failed = analyse(self, question, selected, steps, covered)
        computed = calculate(self, question, ask.targets, covered, selected, steps)
        if computed:
            answer, explanation = computed[0], f"calculated: {computed[1]}" + (f"; {explanation}" if explanation else "")
        failures = sum(1 for s in steps if s.note.startswith("unparseable"))  # the analyst's step included, once
        return Answer(question=question, answer=answer, explanation=explanation, confidence=confidence,
                      evidence=answer_evidence(answer, self.videos, selected), selected=tuple(selected),
                      candidates=tuple(candidates), steps=tuple(steps), agent=self.name, parse_failures=failures,
                      unavailable=self._unavailable(candidates))

    def _unavailable(self, candidates) -> tuple:
        return tuple((v, self.videos.problems[v]) for v in candidates if v in self.videos.problems)


@dataclass(frozen=True)
class Ask:
    """What the question states (constraints) and names (targets), read once per run."""

    constraints: Constraints
    targets: tuple

    def scoped(self, target) -> Constraints:
        """The constraints to screen with: all of them for a single-video question; for a named
        target, those stated in its own clause or in none (another target's channel is not its)."""
        if not self.targets:
            return self.constraints
        return self.constraints.scoped(target.clause if target else None, [t.clause for t in self.targets])


AGENTS = {"video-browser": VideoBrowser, "react": ReAct}


def make_agent(name: str, index, models, videos: Videos, memory=None, config: BrowseConfig | None = None):
    if name not in AGENTS:
        raise VidsleuthError(f"unknown agent '{name}'", hint=f"choose one of {', '.join(AGENTS)}")
    if name == "react":
        return ReAct(index, models, videos, config)
    return VideoBrowser(index, models, videos, memory, config)
