"""The report records a harness sends, as pydantic models: the tools' JSON schema shows every field
with its type, range and meaning, and a record with a misspelt field is refused by name before any
work. ``report.steps`` reads the same records as plain dicts (``model_dump``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..report.types import ANCHOR_KINDS, RELATIONS
from ..report.write import VERDICTS

Relation = Literal[RELATIONS]  # type: ignore[valid-type]
AnchorKind = Literal[ANCHOR_KINDS]  # type: ignore[valid-type]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Moment(_In):
    """Where the video says or shows it (a timeline segment can be passed as it is)."""

    start: float = Field(ge=0, description="seconds")
    end: float = Field(ge=0, description="seconds")
    kind: str = Field("speech", description="speech, subtitle, ocr or shot")
    text: str = Field("", description="what is said or shown there")


class Anchor(_In):
    """A research anchor: a request-relevant statement of the video, tied to its moments."""

    id: str = Field(min_length=1, description="A1, A2, …")
    text: str = Field(min_length=1, description="the statement as the video makes it")
    moments: list[Moment] = Field(min_length=1)
    kind: AnchorKind | None = Field(None, description="derived from the text when left out")
    subject: str | None = Field(None, description="content words to search with (derived when left out)")
    value: str | None = Field(None, description="the stated quantity or code (derived when left out)")
    heading: str | None = Field(None, description="what is measured, for a reader: 'Oven temperature' (derived when left out)")
    relevance: float = 0.0


class Excerpt(_In):
    excerpt: str = Field(min_length=1, description="verbatim from its source")
    source_date: str = Field("", description="ISO date the source states, for updates")
    source_title: str = ""
    context: str = Field("", description="a table row's header line (gather_evidence gives it)")


class Source(_In):
    id: str = Field(min_length=1, description="S1, S2, …")
    kind: Literal["document", "video", "web"] = "document"
    title: str = ""
    location: str = Field(min_length=1, description="a document or video path inside the roots, or an http(s) URL")
    date: str = ""
    link: str = Field("", description="ignored: the page links what render_report places")


class Evidence(_In):
    id: str = Field(min_length=1, description="E1, E2, …")
    anchor_id: str
    source_id: str
    excerpt: str = Field(min_length=1, description="verbatim from the source (the check reopens it)")
    relation: Relation
    rationale: str = ""
    confidence: float = Field(0.0, ge=0, le=1)
    modality: Literal["text", "video", "web"] = "text"
    moment: float | None = Field(None, ge=0, description="related videos: the time in that video")
    decided_by: str = "harness"
    context: str = Field("", description="a table row's header line (gather_evidence gives it)")


class Finding(_In):
    id: str = Field(min_length=1, description="F1, F2, …")
    anchor_id: str
    text: str = Field(min_length=1, description="your sentence; say only what its excerpts hold")
    evidence_ids: list[str] = Field(min_length=1, description="the evidence records it rests on (cited beside it)")
    relation: Relation | None = Field(None, description="its excerpts' relation (the first one's when left out)")


class Note(_In):
    t: float = Field(ge=0)
    text: str
    anchor_id: str = ""


class VideoMeta(_In):
    title: str = ""
    date: str = Field("", description="ISO publication date of the video")


class Verdict(_In):
    verdict: Literal[VERDICTS]  # type: ignore[valid-type]
    text: str = Field("", description="one sentence naming the sources behind it")


class Records(_In):
    """Everything ``render_report`` needs to write the report."""

    request: str = Field(min_length=1)
    anchors: list[Anchor] = Field(min_length=1)
    sources: list[Source] = []
    evidence: list[Evidence] = []
    findings: list[Finding] = []
    summary: str = ""
    open_questions: list[str] = []
    notes: list[Note] = Field([], description="the video pane's timeline (every anchor moment when left out)")
    video: VideoMeta = VideoMeta()
    budgets: dict[str, int] = Field({}, description="other minimums than App. D.3's, when the request sets them")
    verdicts: dict[str, Verdict] = Field({}, description="per anchor id; derived from the relations when left out "
                                                         "(sources that disagree make it disputed or newer guidance)")
    language: Literal["en", "zh"] | None = Field(None, description="the page's language; left out: zh for a Chinese request, else en")
