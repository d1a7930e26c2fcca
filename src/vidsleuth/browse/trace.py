"""Typed records of what an agent did: steps, trajectories, answers; saved as JSON and rendered
for people by ``vidsleuth trace``."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import VidsleuthError
from ..timecode import seconds_label

TRACE_VERSION = 1
BROWSE_ROLES = ("planner", "searcher", "watcher", "checker")  # the browse phase; analyst = verify


@dataclass(frozen=True)
class Step:
    role: str
    loop: int
    inputs: str  # a short summary of what the role was given
    output: Any
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    cached: bool = False
    note: str = ""  # fallbacks and parse failures, said out loud
    frames: tuple = ()  # the frame manifest of the step's model call (vidsleuth.manifest records as dicts)

    @classmethod
    def from_reply(cls, role: str, loop: int, inputs: str, output: Any, reply, note: str = "") -> "Step":
        frames = tuple(r.to_dict() for r in getattr(reply, "extra", {}).get("frames", ()))
        return cls(role, loop, inputs, output, reply.tokens_in, reply.tokens_out, round(reply.seconds, 3),
                   reply.cached, note, frames)


@dataclass(frozen=True, kw_only=True)
class Answer:
    question: str
    answer: str | None  # None: the model's final answer could not be parsed
    explanation: str = ""
    confidence: float | None = None
    evidence: tuple = ()  # ((video_id, start, end, what), …)
    selected: tuple = ()  # video ids the agent accumulated
    candidates: tuple = ()  # every video id any search returned
    steps: tuple = ()
    agent: str = ""
    parse_failures: int = 0
    unavailable: tuple = ()  # ((video_id, why), …): candidates that could not be found or decoded

    def guards(self) -> list[str]:
        """Every guard or fallback that fired, as the steps noted it."""
        return [f"{s.role} (loop {s.loop}): {s.note}" for s in self.steps if s.note]

    def frames(self) -> list[dict]:
        """Every image the agent's model calls were shown, in order, with the step that showed it."""
        return [{**f, "step": n, "loop": s.loop} for n, s in enumerate(self.steps) for f in s.frames]

    def tokens(self) -> dict[str, int]:
        browse = sum(s.tokens_in + s.tokens_out for s in self.steps if s.role in BROWSE_ROLES or s.role == "react-browse")
        verify = sum(s.tokens_in + s.tokens_out for s in self.steps if s.role in ("analyst", "react-watch"))
        return {"browse": browse, "verify": verify, "total": browse + verify}

    def to_dict(self) -> dict:
        d = asdict(self)
        d["version"] = TRACE_VERSION
        d["tokens"] = self.tokens()
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Answer":
        if d.get("version") != TRACE_VERSION:
            raise VidsleuthError(f"trace version {d.get('version')!r} is not {TRACE_VERSION}")
        steps = tuple(Step(**{**s, "frames": tuple(s.get("frames", ()))}) for s in d.get("steps", []))
        keep = {k: v for k, v in d.items() if k in cls.__dataclass_fields__ and k != "steps"}
        keep["evidence"] = tuple(tuple(e) for e in keep.get("evidence", ()))
        keep["unavailable"] = tuple(tuple(e) for e in keep.get("unavailable", ()))
        return cls(**{**keep, "steps": steps, "selected": tuple(keep.get("selected", ())),
                      "candidates": tuple(keep.get("candidates", ()))})

    def save(self, path: str | Path) -> Path:
        from ..files import write_atomic

        return write_atomic(path, json.dumps(self.to_dict(), ensure_ascii=False, indent=2, default=str))


def parse_confidence(value: Any) -> float | None:
    """0.85, "85%", "85", "0.85" -> 0.85 (clamped to [0, 1]); None when absent or unreadable."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        v = float(value)
    else:
        m = re.search(r"-?\d+(?:\.\d+)?", str(value))
        if not m:
            return None
        v = float(m.group())
        if "%" in str(value):
            v /= 100
    if v > 1.0:
        v /= 100
    return min(1.0, max(0.0, v))


def load_trace(path: str | Path) -> Answer:
    from ..schemas import read_json

    data = read_json(path, what="trace file")  # bounded and depth-checked: 100,000 levels are one line
    try:
        if not isinstance(data, dict):
            raise TypeError(f"a JSON {type(data).__name__}, not an object")
        return Answer.from_dict(data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise VidsleuthError(f"not a vidsleuth trace: {exc}", path=path) from None


def render(ans: Answer) -> str:
    """A readable transcript of the run."""
    lines = [f"Question: {ans.question}", f"Agent: {ans.agent}", ""]
    for s in ans.steps:
        cost = f"{s.tokens_in}+{s.tokens_out} tok, {s.seconds:.2f}s{' (cached)' if s.cached else ''}"
        out = s.output if isinstance(s.output, str) else json.dumps(s.output, ensure_ascii=False)
        lines.append(f"[loop {s.loop}] {s.role:8s} {cost}")
        lines.append(f"    in:  {s.inputs}")
        lines.append(f"    out: {out[:400]}")
        if s.note:
            lines.append(f"    note: {s.note}")
    conf = "unknown" if ans.confidence is None else f"{ans.confidence:.0%}"
    lines += ["", f"Answer: {ans.answer if ans.answer is not None else '(unparseable)'}  (confidence {conf})",
              f"Explanation: {ans.explanation}"]
    for vid, start, end, what in ans.evidence:
        lines.append(f"Answer's words found at: {vid} @ {seconds_label(start)}-{seconds_label(end)}  {what}")
    for vid, why in ans.unavailable:
        lines.append(f"Unavailable: {vid}: {why}")
    t = ans.tokens()
    lines.append(f"Tokens: browse {t['browse']}, verify {t['verify']}, total {t['total']}")
    return "\n".join(lines)
