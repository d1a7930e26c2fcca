"""The page contract (docs/report-contract.md): what a report folder must hold for ``report check``
and ``bench omnidr`` to read it, whoever wrote it, and the one reader that reads it.

A report is found by meaning, never by layout or CSS: timestamps are W3C media-fragment links
(``href="#t=12.3"`` / ``"#t=12.3,15"``), source entries, findings, citations and video observations
carry the data attributes below, and ``report.json`` (the sidecar) holds a record for every source
and every cited piece of evidence. vidsleuth's template, the checks, the browser check and the
rubric's machine leaves all take these names from here.

``read_report(folder)`` never raises for what a page lacks: it returns a ``ReportPage`` whose
``missing`` lists, one line each, what the contract asks for and the folder does not have. A page
it cannot read at all (no ``report.html``, empty, binary, not UTF-8) has ``tree`` None and the
reason as its first missing line.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import VidsleuthError
from ..timecode import parse_fragment
from .types import ReportData

CONTRACT_VERSION = "1"
PAGE = "report.html"
SIDECAR = "report.json"
MAX_PAGE_BYTES = 32 * 1024 * 1024  # a report page; the sidecar has the same bound
META_CONTRACT = "report-contract"  # <meta name="report-contract" content="1">
CSP_META = "Content-Security-Policy"

# The data attributes of the contract (a reader's only way to find these elements).
SOURCE = "data-source"  # a source entry: id="…" data-source="S1" (the sidecar's source id)
CITE = "data-cite"  # a citation: <a data-cite="E1" href="#ENTRY-ID">, E1 the sidecar's evidence record
FINDING = "data-finding"  # a claim resting on external evidence: data-finding="F1"
ANCHOR = "data-anchor"  # on a finding: the video anchor it is about
RELATION = "data-relation"  # on a finding: supports | contradicts | updates | explains | compares | applies
OBSERVATION = "data-observation"  # a block of what the video shows/says: data-observation="A1"
SUMMARY = "data-summary"  # the report's summary paragraph
NOTE_SOURCES = "data-sources"  # optional, on a timeline line with data-anchor: the ids of the sources cited for it
TIMESTAMP_PREFIX = "#t="
SEL_TIMESTAMP = f"a[href^='{TIMESTAMP_PREFIX}']"
SEL_SOURCE = f"[{SOURCE}]"
SEL_CITE = f"a[{CITE}]"
SEL_FINDING = f"[{FINDING}]"
SEL_OBSERVATION = f"[{OBSERVATION}]"
SEL_SUMMARY = f"[{SUMMARY}]"

# Ids vidsleuth's own page gives its elements (other pages choose their own).
VIDEO_ID = "video"
SOURCE_ID = "src-{}"
FINDING_ID = "finding-{}"
ANCHOR_ID = "anchor-{}"
CITE_ID = "cite-{}-{}"

# One tolerance for "the same moment": a timestamp may sit this far past the probed end, and a click
# may leave the player this far from its target. 0.1 s: above a centisecond fragment's rounding
# (0.005 s) plus the usual container/stream duration gap (one or two frames: 0.04-0.08 s at 25 fps),
# below the shortest span a reader clicks on (a spoken word, ~0.3 s) and ten times under the 1 s
# clock a reader sees. (It was 0.05 s in the range check and 0.5 s in the browser.)
TIME_TOLERANCE = 0.1


def script_hash(text: str) -> str:
    """The CSP source expression of an inline script or style (``'sha256-…'``)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, allow_inf_nan=False)


class VideoRecord(_Record):
    file: str = Field(min_length=1)
    duration: float | None = Field(default=None, ge=0)
    title: str = ""
    date: str = ""


class SourceRecord(_Record):
    id: str = Field(min_length=1)
    kind: Literal["document", "web", "video"]
    title: str = ""
    location: str = ""
    link: str = ""
    date: str = ""


class EvidenceRecord(_Record):
    id: str = Field(min_length=1)
    source_id: str = Field(min_length=1)
    excerpt: str
    anchor_id: str = ""
    relation: str = ""
    moment: float | None = None


class FindingRecord(_Record):
    id: str = Field(min_length=1)
    text: str = ""
    anchor_id: str = ""
    evidence_ids: list[str] = []
    relation: str = ""


class AnchorRecord(_Record):
    id: str = Field(min_length=1)
    text: str = ""
    subject: str = ""
    value: str = ""


class Sidecar(_Record):
    """``report.json`` as the contract reads it (a vidsleuth ``report.json`` is a superset)."""

    video: VideoRecord
    sources: list[SourceRecord]
    evidence: list[EvidenceRecord]
    request: str = ""
    summary: str = ""
    findings: list[FindingRecord] = []
    anchors: list[AnchorRecord] = []
    budgets: dict[str, int] = {}
    counts: dict = {}

    def source(self, source_id: str) -> SourceRecord | None:
        return next((s for s in self.sources if s.id == source_id), None)

    def evidence_of(self, evidence_id: str) -> EvidenceRecord | None:
        return next((e for e in self.evidence if e.id == evidence_id), None)

    def finding(self, finding_id: str) -> FindingRecord | None:
        return next((f for f in self.findings if f.id == finding_id), None)


EMPTY_SIDECAR = Sidecar(video=VideoRecord(file="?"), sources=[], evidence=[])

@dataclass(frozen=True)
class Timestamp:
    href: str
    where: str  # the nearest enclosing id
    start: float | None = None
    end: float | None = None
    error: str = ""  # why the fragment does not parse


@dataclass(frozen=True)
class Citation:
    evidence_id: str  # the data-cite value
    target: str  # the id its href points at
    el_id: str  # its own id ("" when it has none)
    where: str  # the finding (or nearest id) it sits in


@dataclass(frozen=True)
class SourceEntry:
    el_id: str
    source_id: str  # the data-source value
    text: str
    links: tuple[str, ...]  # the hrefs inside the entry (a way back to the claims)


@dataclass(frozen=True)
class Finding:
    where: str  # its element id, else data-finding
    finding_id: str
    anchor_id: str
    relation: str
    text: str
    citations: tuple[Citation, ...]


@dataclass(frozen=True)
class ReportPage:
    """One report folder as the contract reads it."""

    folder: Path
    tree: object | None  # the parsed lxml.html page, None when unreadable
    missing: tuple[str, ...] = ()
    declared: bool = False  # the page states it follows the contract
    generator: str = ""
    video_src: str = ""
    duration: float | None = None  # probed from the video file, else the sidecar's
    timestamps: tuple[Timestamp, ...] = ()
    sources: tuple[SourceEntry, ...] = ()
    findings: tuple[Finding, ...] = ()
    citations: tuple[Citation, ...] = ()  # every citation, inside a finding or not
    observations: tuple[tuple[str, str], ...] = ()  # (anchor id, text)
    summary: str = ""
    sidecar: Sidecar = EMPTY_SIDECAR
    sidecar_ok: bool = False
    data: ReportData | None = None  # the full record when the sidecar is a vidsleuth report.json
    ids: frozenset[str] = field(default_factory=frozenset)

    page_path = property(lambda self: self.folder / PAGE)
    ours = property(lambda self: self.generator.startswith("vidsleuth"))  # says vidsleuth wrote it


def text_of(el) -> str:
    return " ".join(el.text_content().split())


def where_of(el) -> str:
    """The nearest id at or above ``el`` (how a failure names its place), else ``page``."""
    while el is not None:
        if el.get("id"):
            return el.get("id")
        el = el.getparent()
    return "page"


def inside(folder: Path, ref: str) -> Path | None:
    """The file a relative reference names inside ``folder``; None when it leaves the folder."""
    root = folder.resolve()
    target = (root / unquote(urlsplit(ref).path)).resolve()
    return target if target == root or root in target.parents else None


def _read_confined(folder: Path, name: str, what: str) -> str:
    from ..files import read_text

    path = folder / name
    if not path.exists() and not path.is_symlink():
        raise VidsleuthError(f"no {name} here", path=folder, hint="give the folder a report was written to")
    if inside(folder, name) is None:
        raise VidsleuthError(f"{name} points outside the report folder: not read", path=folder)
    return read_text(path, what, max_bytes=MAX_PAGE_BYTES)


def _parse_html(text: str):
    import lxml.etree
    import lxml.html

    if not text.strip():
        raise VidsleuthError("is empty", hint="a report page is an HTML document")
    try:
        return lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise VidsleuthError(f"is not an HTML page ({exc})") from None


def _said(e: dict) -> str:
    """A pydantic error as a reader says it: the rule, and the value found when there is one."""
    msg = re.sub(r" or instance of \w+", "", e["msg"])
    return msg if e["type"] == "missing" else f"{msg} (found {json.dumps(e.get('input'), default=str)[:40]})"


def _sidecar(folder: Path) -> tuple[Sidecar | None, ReportData | None, list[str]]:
    try:
        raw = json.loads(_read_confined(folder, SIDECAR, SIDECAR))
    except VidsleuthError as exc:
        return None, None, [f"{SIDECAR}: {str(exc).removeprefix(str(folder / SIDECAR) + ': ')}"]
    except json.JSONDecodeError as exc:
        return None, None, [f"{SIDECAR}: line {exc.lineno}: not valid JSON ({exc.msg})"]
    except RecursionError:
        return None, None, [f"{SIDECAR}: nested too deep to read"]
    if not isinstance(raw, dict):
        return None, None, [f"{SIDECAR}: must be a JSON object (the video, sources and evidence records), "
                            f"not a {type(raw).__name__}"]
    try:
        side = Sidecar.model_validate(raw)
    except ValidationError as exc:
        lines = [f"{SIDECAR}: {'.'.join(str(x) for x in e['loc']) or '(root)'}: {_said(e)}" for e in exc.errors()]
        return None, None, lines[:8] + ([f"{SIDECAR}: … {len(lines) - 8} more"] if len(lines) > 8 else [])
    try:
        data = ReportData.from_dict(raw)
    except (VidsleuthError, KeyError, TypeError, ValueError, AttributeError):
        data = None  # not a vidsleuth record: the contract's view is all there is
    return side, data, []


def _duration(folder: Path, src: str, side: Sidecar | None) -> float | None:
    path = inside(folder, src) if src and not urlsplit(src).scheme else None
    if path is not None and path.is_file():
        from ..media import probe

        try:
            d = probe(path, with_content_id=False).duration
            if d and math.isfinite(d) and d > 0:
                return float(d)
        except (VidsleuthError, OSError, ValueError):
            pass
    return side.video.duration if side is not None else None


def _video_src(tree) -> str:
    for v in tree.iter("video"):
        src = v.get("src") or next((s.get("src") for s in v.iter("source") if s.get("src")), "")
        if src:
            return src.strip()
    return ""


def _timestamps(tree) -> tuple[Timestamp, ...]:
    out = []
    for a in tree.cssselect(SEL_TIMESTAMP):
        href = a.get("href", "")
        try:
            start, end = parse_fragment(href)
            out.append(Timestamp(href, where_of(a), start, end))
        except VidsleuthError as exc:
            out.append(Timestamp(href, where_of(a), error=str(exc)))
    return tuple(out)


def _citation(a, finding_where: str | None) -> Citation:
    href = a.get("href") or ""
    return Citation(a.get(CITE) or "", href[1:] if href.startswith("#") else "", a.get("id") or "",
                    finding_where or where_of(a.getparent()))


def _findings(tree) -> tuple[Finding, ...]:
    out = []
    for el in tree.cssselect(SEL_FINDING):
        fid = el.get(FINDING) or ""
        where = el.get("id") or fid or where_of(el)
        cites = tuple(_citation(a, where) for a in el.cssselect(SEL_CITE))
        out.append(Finding(where, fid, el.get(ANCHOR) or "", el.get(RELATION) or "", text_of(el), cites))
    return tuple(out)


def _page_missing(page: ReportPage, side: Sidecar | None) -> list[str]:
    out = []
    if not page.declared:
        out.append(f'{PAGE}: no <meta name="{META_CONTRACT}" content="{CONTRACT_VERSION}"> (the page must declare '
                   "the report contract it follows)")
    if not page.video_src:
        out.append(f"{PAGE}: no <video src=…>: the report's video is not on the page")
    elif urlsplit(page.video_src).scheme or page.video_src.startswith("/") or inside(page.folder, page.video_src) is None:
        out.append(f"{PAGE}: the video {page.video_src!r} is not a file inside the report folder")
    if not page.timestamps:
        out.append(f'{PAGE}: no timestamp link (<a href="#t=12.3">, a W3C media fragment of the video)')
    if side is not None and page.video_src and side.video.file != page.video_src:
        out.append(f"{SIDECAR}: video.file {side.video.file!r} is not the page's video {page.video_src!r}")
    for s in page.sources:
        if not s.el_id:
            out.append(f"{PAGE}: the source entry {s.source_id or '(unnamed)'} has no id: no citation can link to it")
    return out


def read_report(folder: str | Path) -> ReportPage:
    """The report in ``folder`` as the contract reads it; what it lacks is in ``missing``."""
    import lxml.etree

    folder = Path(folder)
    if not folder.is_dir():
        return ReportPage(folder, None, (f"{folder}: not a folder (give the folder a report was written to)",))
    try:
        tree = _parse_html(_read_confined(folder, PAGE, "report page"))
    except VidsleuthError as exc:
        msg = str(exc)
        return ReportPage(folder, None, (msg if msg.startswith(str(folder)) else f"{folder / PAGE}: {msg}",))
    except (lxml.etree.LxmlError, RecursionError) as exc:
        return ReportPage(folder, None, (f"{folder / PAGE}: cannot be parsed ({exc})",))
    side, data, side_missing = _sidecar(folder)
    metas = {(m.get("name") or "").lower(): (m.get("content") or "").strip() for m in tree.iter("meta")}
    findings = _findings(tree)
    loose = tuple(_citation(a, None) for a in tree.cssselect(SEL_CITE)
                  if not any(p.get(FINDING) is not None for p in a.iterancestors()))
    src = _video_src(tree)
    page = ReportPage(
        folder=folder, tree=tree, declared=metas.get(META_CONTRACT) == CONTRACT_VERSION,
        generator=metas.get("generator", ""), video_src=src, duration=_duration(folder, src, side),
        timestamps=_timestamps(tree),
        sources=tuple(SourceEntry(el.get("id") or "", el.get(SOURCE) or "", text_of(el),
                                  tuple(a.get("href") or "" for a in el.iter("a"))) for el in tree.cssselect(SEL_SOURCE)),
        findings=findings, citations=tuple(c for f in findings for c in f.citations) + loose,
        observations=tuple((el.get(OBSERVATION) or "", text_of(el)) for el in tree.cssselect(SEL_OBSERVATION)),
        summary=" ".join(text_of(el) for el in tree.cssselect(SEL_SUMMARY)),
        sidecar=side or EMPTY_SIDECAR, sidecar_ok=side is not None, data=data,
        ids=frozenset(el.get("id") for el in tree.iter() if isinstance(el.tag, str) and el.get("id")))
    return replace(page, missing=tuple(_page_missing(page, side) + side_missing))


class ReportContractError(VidsleuthError):
    """A report folder cannot be read as a report at all (no page, or an unreadable one)."""


def read_page(folder: str | Path) -> ReportPage:
    """``read_report``, raising one clear error when there is no readable page to check."""
    page = read_report(folder)
    if page.tree is None:
        raise ReportContractError(page.missing[0])
    return page
