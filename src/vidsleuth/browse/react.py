"""ReAct (seed 001 §5.1): the baseline Video-Browser is compared with, one flat tool loop over the
same search stack."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ModelOutputError
from ..models.jsonout import extract_json
from ..models.types import ImagePart, Message
from ..prompts import render
from ..timecode import seconds_label
from .answers_evidence import answer_evidence, evidence_lines, ground
from .fusion import fuse
from .guards import guarded_search, query_problem, question_query
from .trace import Answer, Step, parse_confidence
from .videos import BrowseConfig, Videos, clip

# The ReAct turn for text-only models, grammar-constrained: a short thought keeps a 0.5B model from
# looping inside it (measured: 11 of 12 turns ran out of tokens in a repeated "thought").
REACT_SCHEMA = {"type": "object", "properties": {
    "thought": {"type": "string", "maxLength": 200},
    "tool": {"enum": ["search_videos", "watch", "answer"]},
    "query": {"type": "string", "maxLength": 120}, "video_id": {"type": "string", "maxLength": 80},
    "Explanation": {"type": "string", "maxLength": 300}, "Answer": {"type": "string", "maxLength": 80},
    "Confidence": {"type": "string", "maxLength": 8}}, "required": ["thought", "tool"]}


def _text_only(model) -> bool:
    return not model.endpoint.accepts("vision")


@dataclass(frozen=True)
class _NoReply:
    """Stands in for a reply that could not be parsed (its text is kept for the trace)."""

    text: str
    data: Any = None
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    cached: bool = False


class ReAct:
    """The seed's baseline: one flat loop with ``search_videos`` and ``watch`` tools, at most 7
    calls, the same search stack; ``watch`` is one dense pass (128 frames at 1 fps, 512 px, plus
    the transcript). The tool protocol is JSON in the reply, so any chat endpoint can run it."""

    name = "react"
    prompts = ("react_system.j2",)

    def __init__(self, index, models, videos: Videos, config: BrowseConfig | None = None):
        self.index, self.models, self.videos = index, models, videos
        self.cfg = config or BrowseConfig()

    def _watch_parts(self, vid: str, text_only: bool) -> list[Any]:
        cfg = self.cfg
        rec = self.videos.record(vid)
        parts: list[Any] = [f"watch({vid}): {rec.title}"]
        tl = self.videos.timeline(vid, ocr=text_only)
        if text_only:
            parts.append("On-screen text (read by OCR from the frames):\n"
                         + (tl.to_text(cfg.transcript_chars, kinds=["ocr"]) or "(none)"))
        else:
            frames = self.videos.frames(vid, n=cfg.react_frames, fps=cfg.react_fps, max_side=cfg.react_max_side)
            for n, f in enumerate(frames):
                parts += [f"[Frame at {seconds_label(f.t)}]", ImagePart(f.image, video=vid, t=f.t, index=n)]
            if not frames:
                parts.append("(no visual data)")
        parts.append("Transcript:\n" + (tl.to_text(cfg.transcript_chars, kinds=["speech", "subtitle"]) or "(none)"))
        if vid in self.videos.problems:
            parts.append(f"(video unavailable: {self.videos.problems[vid]})")
        return parts

    def run(self, question: str) -> Answer:
        cfg = self.cfg
        model = self.models.for_role("analyst")
        text_only = _text_only(model)
        system = render("react_system.j2", search_k=cfg.search_k, frames=cfg.react_frames, fps=cfg.react_fps,
                        max_calls=cfg.react_max_calls).strip()
        messages = [Message.of("system", system), Message.of("user", f"Question: {question}")]
        steps: list[Step] = []
        candidates, watched = [], []
        searched: set[str] = set()
        failures = 0
        for call in range(1, cfg.react_max_calls + 2):
            final_turn = call > cfg.react_max_calls
            if final_turn:
                messages.append(Message.of("user", "No tool calls are left: give the final answer JSON now."))
            reply, data, unparsed = self._turn(model, messages, text_only)
            if unparsed:
                failures += 1
            messages.append(Message.of("assistant", reply.text or "(unparseable)"))
            tool = data.get("tool") if isinstance(data, dict) else None
            if isinstance(data, dict) and data.get("Answer") not in (None, "") and tool in (None, "answer"):
                ans, conf, fired = str(data["Answer"]), parse_confidence(data.get("Confidence")), ""
                if text_only and watched:
                    ans, conf, fired = ground(question, ans, conf, evidence_lines(self.videos, watched))
                steps.append(Step.from_reply("react-answer", call, "final", data, reply, fired))
                return self._answer(question, ans, str(data.get("Explanation") or ""), conf, watched, candidates,
                                    steps, failures)
            if final_turn and text_only and watched:
                # no usable final answer: the grounding guard takes the value from what was watched
                ans, conf, fired = ground(question, None, None, evidence_lines(self.videos, watched))
                if ans:
                    steps.append(Step.from_reply("react-answer", call, "final", reply.text[:300], reply,
                                                 (unparsed + "; " if unparsed else "") + fired))
                    return self._answer(question, ans, "taken from the watched videos' text by the grounding guard",
                                        0.25, watched, candidates, steps, failures)
            if final_turn:
                break
            data, tool, note = self._guard(question, data, tool, unparsed, candidates, watched, searched,
                                           text_only)
            if tool == "search_videos":
                searched.add(str(data.get("query")).strip().lower())
                query, hits, empty = guarded_search(self.index, str(data.get("query")), question, cfg.search_k)
                note = "; ".join(x for x in (note, empty) if x)
                candidates += [h.video_id for h in hits if h.video_id not in candidates]
                listing = "\n".join(f"{h.video_id}: {clip(h.title, cfg.title_max)} | "
                                    f"{clip(self.videos.record(h.video_id).channel, cfg.channel_max)}" for h in hits)
                steps.append(Step.from_reply("react-browse", call, f"search_videos({query!r})",
                                             [h.video_id for h in hits], reply, note))
                messages.append(Message.of("user", f"search_videos results for {query!r}:\n{listing or '(no results)'}"))
            else:
                vid = str(data["video_id"])
                watched += [vid] if vid not in watched else []
                steps.append(Step.from_reply("react-watch", call, f"watch({vid})", "dense pass", reply, note))
                messages.append(Message.of("user", *self._watch_parts(vid, text_only)))
        return self._answer(question, None, "no final answer within the tool budget", None, watched, candidates,
                            steps, failures + 1)

    def _turn(self, model, messages: list[Message], text_only: bool) -> tuple[Any, Any, str]:
        """One model turn: the reply, its JSON (``{}`` when unparseable) and why it failed ("" if not)."""
        try:
            reply = model.chat(messages, max_tokens=self.cfg.react_max_tokens,
                               schema=REACT_SCHEMA if text_only else None)
            return reply, (reply.data if reply.data is not None else extract_json(reply.text)), ""
        except ModelOutputError as exc:
            return _NoReply(exc.raw), {}, "unparseable turn"

    def _guard(self, question: str, data: Any, tool: Any, unparsed: str, candidates: list[str],
               watched: list[str], searched: set[str], text_only: bool) -> tuple[Any, Any, str]:
        """A repeated search, a bad query or an invalid call replaced by a useful one: (call, tool, note)."""
        note = ""
        if tool == "search_videos" and str(data.get("query") or "").strip().lower() in searched \
                and [v for v in candidates if v not in watched]:
            data, tool = {}, "repeat"  # the same search again is a wasted call: treated as an invalid one
            unparsed = "repeated search"
        problem = query_problem(str(data.get("query") or ""), question) if tool == "search_videos" else ""
        if problem:
            note = f"guard: {problem}; searching the question's words"
            data = {**data, "query": question_query(question)}
        elif tool != "search_videos" and not (tool == "watch" and str(data.get("video_id")) in self.videos.records):
            # an empty, unparseable or invalid call: search the question first, then watch the
            # best unwatched result (ranked by the fused Watcher for text-only models)
            what = unparsed or f"invalid tool call {str(data)[:80]!r}"
            unwatched = [v for v in candidates if v not in watched]
            if unwatched:
                if text_only and len(unwatched) > 1:
                    unwatched = self._rank_unwatched(question, unwatched)
                note = f"guard: {what}; watching the next search result"
                data, tool = {"tool": "watch", "video_id": unwatched[0]}, "watch"
            else:
                note = f"guard: {what}; searching the question's words"
                data, tool = {"tool": "search_videos", "query": question_query(question)}, "search_videos"
        return data, tool, note

    def _rank_unwatched(self, question: str, unwatched: list[str]) -> list[str]:
        """Unwatched candidates, the ones the fused Watcher ranks for the question first."""
        pool = [h.video_id for h in self.index.search(question_query(question), k=self.cfg.search_k)
                if h.video_id in unwatched] or unwatched
        ranked = [r.video_id for r in fuse(question, [self.videos.candidate_text(v) for v in pool],
                                           self.models.embedder())]
        return ranked + [v for v in unwatched if v not in ranked]

    def _answer(self, question, answer, explanation, confidence, watched, candidates, steps, failures) -> Answer:
        return Answer(question=question, answer=answer, explanation=explanation, confidence=confidence,
                      evidence=answer_evidence(answer, self.videos, watched), selected=tuple(watched),
                      candidates=tuple(candidates), steps=tuple(steps), agent=self.name, parse_failures=failures,
                      unavailable=tuple((v, self.videos.problems[v]) for v in candidates if v in self.videos.problems))
