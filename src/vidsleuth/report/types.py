"""The report's records (seed 000 App. D.1): anchors tied to video moments, evidence records with
modality, source, date, excerpt, anchor, relation, confidence and verification state, and the
written sections. All frozen; ``report.json`` is their JSON form with a version field."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

REPORT_VERSION = 1
RELATIONS = ("supports", "contradicts", "updates", "explains", "compares", "applies")
ANCHOR_KINDS = ("parameter", "entity", "procedure", "claim", "open_question")


@dataclass(frozen=True)
class Moment:
    """Where in the video something is seen or heard."""

    start: float
    end: float
    kind: str  # speech | ocr | subtitle
    text: str


@dataclass(frozen=True)
class Anchor:
    id: str
    kind: str
    text: str  # the statement as the video makes it
    subject: str  # what it is about (content words), for searching
    value: str = ""  # the stated quantity or code, when there is one
    moments: tuple[Moment, ...] = ()
    relevance: float = 0.0
    heading: str = ""  # what is measured, for a reader: "Oven temperature"

    @property
    def start(self) -> float:
        return min((m.start for m in self.moments), default=0.0)


@dataclass(frozen=True)
class Source:
    """One document, page or video that evidence came from."""

    id: str  # "S1", "S2"… in order of first citation
    kind: str  # document | video | web
    title: str
    location: str  # a path (documents, videos) or an http(s) URL
    date: str = ""  # ISO date when the source states one
    link: str = ""  # what the report links to: a relative path inside the report folder or an http(s) URL


@dataclass(frozen=True)
class Evidence:
    id: str  # "E1"…
    anchor_id: str
    source_id: str
    modality: str  # text | video | web
    excerpt: str
    relation: str = "explains"
    rationale: str = ""
    confidence: float = 0.0
    verification: str = "unverified"  # unverified | verified | failed
    moment: float | None = None  # for related-video evidence: the time in that video
    decided_by: str = "rules"  # rules | model endpoint name
    context: str = ""  # a table row's header line, which gives the row's subject and units
    heading: str = ""  # the section heading above the excerpt ("4. Hardening off"): what a paragraph is about


@dataclass(frozen=True)
class Finding:
    """One paragraph of the external findings: text with its citations beside it."""

    id: str
    anchor_id: str
    text: str
    evidence_ids: tuple[str, ...] = ()
    relation: str = ""


@dataclass(frozen=True)
class Note:
    """A timestamped note of the video pane (what the video shows or says)."""

    t: float
    text: str
    anchor_id: str = ""


@dataclass(frozen=True)
class ReportData:
    video: dict  # path in the report folder, original path, duration, title, date
    request: str
    summary: str
    notes: tuple[Note, ...]
    anchors: tuple[Anchor, ...]
    sources: tuple[Source, ...]
    evidence: tuple[Evidence, ...]
    findings: tuple[Finding, ...]
    open_questions: tuple[str, ...] = ()
    budgets: dict = field(default_factory=dict)
    counts: dict = field(default_factory=dict)  # documents read, skipped (unreadable), related videos…
    failed_checks: tuple[dict, ...] = ()  # what repair could not fix, shown on the page
    verdicts: dict = field(default_factory=dict)  # anchor id -> {"verdict": agrees|disagrees|…, "text": a sentence}
    language: str = "en"  # the report's language (a Chinese request gets a Chinese report)
    version: int = REPORT_VERSION

    def to_dict(self) -> dict[str, Any]:
        """The records, plus two derived views for readers of ``report.json``: ``relations`` (each
        evidence record's relation to its anchor's video moments) and ``sections`` (the page's
        sections, findings grouped by anchor). The derived views are not read back."""
        d = asdict(self)
        d["relations"] = [{"evidence_id": e.id, "anchor_id": e.anchor_id, "source_id": e.source_id,
                           "relation": e.relation, "video_moments": [[m.start, m.end] for m in
                                                                     (self.anchor(e.anchor_id).moments if self.anchor(e.anchor_id) else ())],
                           "rationale": e.rationale, "decided_by": e.decided_by} for e in self.evidence]
        d["sections"] = {"summary": self.summary,
                         "video_observations": [{"anchor_id": a.id, "text": a.text, "moments": [[m.start, m.end] for m in a.moments]}
                                                for a in self.anchors],
                         "findings_by_anchor": {a.id: [f.id for f in self.findings if f.anchor_id == a.id] for a in self.anchors},
                         "open_questions": list(self.open_questions), "sources": [s.id for s in self.sources]}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ReportData":
        from ..errors import VidsleuthError

        if d.get("version") != REPORT_VERSION:
            raise VidsleuthError(f"report.json version {d.get('version')!r} is not {REPORT_VERSION}",
                                 hint="write the report again with this vidsleuth")
        return cls(
            video=d["video"], request=d["request"], summary=d["summary"],
            notes=tuple(Note(**n) for n in d["notes"]),
            anchors=tuple(Anchor(**{**a, "moments": tuple(Moment(**m) for m in a["moments"])}) for a in d["anchors"]),
            sources=tuple(Source(**s) for s in d["sources"]),
            evidence=tuple(Evidence(**e) for e in d["evidence"]),
            findings=tuple(Finding(**{**f, "evidence_ids": tuple(f["evidence_ids"])}) for f in d["findings"]),
            open_questions=tuple(d.get("open_questions", ())), budgets=d.get("budgets", {}),
            counts=d.get("counts", {}), failed_checks=tuple(d.get("failed_checks", ())),
            verdicts=d.get("verdicts", {}), language=d.get("language", "en"), version=d["version"])

    def anchor(self, anchor_id: str) -> Anchor | None:
        return next((a for a in self.anchors if a.id == anchor_id), None)

    def source(self, source_id: str) -> Source | None:
        return next((s for s in self.sources if s.id == source_id), None)

    def evidence_of(self, evidence_id: str) -> Evidence | None:
        return next((e for e in self.evidence if e.id == evidence_id), None)


@dataclass(frozen=True)
class Failure:
    """One thing a check found wrong: which check, where (an element id, a source id or a file),
    and what. Repair targets ``where``; ``checks.json`` and the page list what is left."""

    check: str
    where: str
    message: str


@dataclass(frozen=True)
class Context:
    """What every check reads: the folder, the page as the contract reads it
    (``report.contract.ReportPage``), and the judge for citation support (None: the rules)."""

    folder: Any  # Path
    page: Any  # report.contract.ReportPage
    judge: Any = None  # a ChatModel, or None

    @property
    def data(self) -> "ReportData | None":
        return self.page.data
