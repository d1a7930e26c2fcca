"""The tools' result schemas (pydantic): what a caller can rely on in ``structuredContent``. Each
names the fields a harness reads; records the library owns (timelines, answers, check failures)
pass through as their JSON form."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ProbeResult(Open):
    path: str
    duration: float
    fps: float
    width: int
    height: int
    has_audio: bool
    has_video: bool


class Segment(BaseModel):
    start: float
    end: float
    kind: str
    text: str


class TimelineResult(Open):
    video: str
    duration: float
    start: float
    end: float
    kinds: list[str]
    segments: list[Segment]
    text: str  # the seed papers' ``[12.0s - 15.5s] speech: …`` lines
    language: str = "en"  # what ASR was told the speech is (en, zh, auto)


class FramesResult(Open):
    video: str
    times: list[float]  # one per image, in the order of the image blocks


class GridResult(Open):
    video: str
    grids: list[list[float]]  # per grid image, the timestamps of its cells (row-major)


class Hit(BaseModel):
    rank: int
    video_id: str
    score: float
    title: str


class SearchResult(Open):
    index: str
    query: str
    hits: list[Hit]


class WatchResult(Open):
    video: str
    start: float
    end: float
    text: str
    segments: list[Segment]
    times: list[float]


class AskResult(Open):
    question: str
    answer: str | None
    confidence: float | None
    tokens: int


class AnchorsResult(Open):
    anchors: list[dict[str, Any]]


class EvidenceResult(Open):
    without_candidates: list[str] = []  # anchors no passage was found for: read their pages yourself
    candidates: list[dict[str, Any]]
    counts: dict[str, Any]
    skipped: list[str]


class RelateResult(Open):
    anchor: dict[str, Any]  # id, kind, subject, value (the stated quantity or code), start
    relations: list[dict[str, Any]]
    tokens: int = 0  # model tokens spent (0 for the rules), counted against --max-tokens


class RenderResult(Open):
    report: str
    folder: str
    findings: int


class CheckResult(Open):
    passed: bool
    checks: dict[str, list[dict[str, Any]]]


class ScoreResult(Open):
    status: str
    score: float


class StatsResult(Open):
    steps: int
    tool_errors: int


class SessionStats(Open):
    calls: int
    seconds: float
    tokens: int
    refused: int
    budgets: dict[str, Any]
