"""Stage 7a: validation. Checks are a registry of functions over a report folder as the page
contract reads it (``report.contract.read_report``): each returns the failures it found (check,
where, message) so that repair can target them and ``checks.json`` can show what still fails. They
read the page a reader gets (not the records it was made from), so a page another agent wrote to
the contract (docs/report-contract.md) is checked like ours.

- ``contract``: what the contract asks for and the folder lacks (the reader's ``missing`` list);
- ``timestamps`` in range, ``citations`` resolve to a source entry and an evidence record,
  ``sources_cited``, ``claims_cited`` (no finding without a citation beside it), ``assets`` present
  and inside the folder, internal ``links`` resolve, ``markup`` (``report.markup``: no script but the
  page's own, no ``on*`` attribute, no ``javascript:``/``data:`` link, the page's own CSP), ``budgets``;
- ``citation_support`` reopens every cited source in a fresh context: the excerpt must be in it,
  and the claim must follow from it (the model judge when one is configured, else, for a vidsleuth
  record, the deterministic relater must give the finding's relation);
- ``browser`` (``report.browser``) opens the page in headless Chromium; it needs ``browser=True``;
- counts, which take a number: ``min_cited_sources:N``, ``min_timestamps:N``, ``min_findings:N``.

Adding a check: write ``def my_check(ctx: Context) -> list[Failure]`` (both from ``report.types``)
in this module under ``@check("name")``, or in another module that imports only ``report.types``
and ``report.contract``, and register it here with one line, ``check("name")(my_check)``, as
``browser`` is below (check.py imports the module; the module never imports check.py, so no
circle). ``needs=("browser",)`` runs it only when the caller enables the browser; ``counted=True``
makes it take the ``:N`` of its spec.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

from ..errors import VidsleuthError, require
from . import browser, markup, relation_check
from .contract import (
    ANCHOR_ID,
    CITE,
    SIDECAR,
    TIME_TOLERANCE,
    TIMESTAMP_PREFIX,
    ReportContractError,
    ReportPage,
    inside,
    read_page,
    where_of,
)
from .types import Context, Failure, ReportData


@dataclass(frozen=True)
class Check:
    name: str
    fn: Callable
    needs: tuple[str, ...] = ()  # capabilities the caller must enable ("browser")
    counted: bool = False  # takes a count: ``name:N``


CHECKS: dict[str, Check] = {}


def check(name: str, *, needs: tuple[str, ...] = (), counted: bool = False):
    """Register ``fn(ctx) -> list[Failure]`` (``fn(ctx, n)`` when ``counted``) as check ``name``."""
    def register(fn):
        CHECKS[name] = Check(name, fn, tuple(needs), counted)
        return fn

    return register


def entry(name: str) -> Check | None:
    """The registered check ``name`` (a bare function put in ``CHECKS`` by hand counts as one)."""
    c = CHECKS.get(name)
    return c if c is None or isinstance(c, Check) else Check(name, c)


def spec_problem(spec: str) -> str:
    """Why ``spec`` (``name`` or ``name:N``) names no check; '' when it does."""
    name, sep, n = str(spec).partition(":")
    c = entry(name)
    if c is None:
        return f"{spec!r} is not a report check ({', '.join(k + (':N' if entry(k).counted else '') for k in CHECKS)})"
    if c.counted and not n.isdigit():
        return f"{spec!r} needs a count, e.g. {name}:3"
    if not c.counted and sep:
        return f"{spec!r}: {name} takes no count"
    return ""


@check("contract")
def contract(ctx: Context) -> list[Failure]:
    return [Failure("contract", where, message) for where, _, message in (m.partition(": ") for m in ctx.page.missing)]


@check("timestamps")
def timestamps(ctx: Context) -> list[Failure]:
    page: ReportPage = ctx.page
    if page.duration is None and page.timestamps:
        return [Failure("timestamps", "video", "the video's duration is unknown (no playable video file, no "
                                               f"video.duration in {SIDECAR}): no timestamp can be checked")]
    out = []
    for t in page.timestamps:
        if t.error:
            out.append(Failure("timestamps", t.where, f"timestamp {t.href!r} is not a media fragment: {t.error}"))
        elif not t.start <= page.duration + TIME_TOLERANCE or (t.end is not None and t.end > page.duration + TIME_TOLERANCE):
            out.append(Failure("timestamps", t.where, f"timestamp {t.href} is outside the video (0–{page.duration:.2f} s)"))
    return out


@check("citations")
def citations(ctx: Context) -> list[Failure]:
    page: ReportPage = ctx.page
    entries = {s.el_id: s for s in page.sources if s.el_id}
    out = []
    for c in page.citations:
        entry = entries.get(c.target)
        record = page.sidecar.evidence_of(c.evidence_id) if c.evidence_id else None
        if entry is None:
            out.append(Failure("citations", c.where, f"citation {c.evidence_id or '(unnamed)'} points at #{c.target}, "
                                                     "which is not a source entry"))
        elif record is None:
            out.append(Failure("citations", c.where, f"citation {c.evidence_id or '(no data-cite value)'} has no evidence "
                                                     f"record in {SIDECAR}"))
        elif record.source_id != entry.source_id:
            out.append(Failure("citations", c.where, f"citation {c.evidence_id} links to source {entry.source_id}, but its "
                                                     f"evidence record comes from {record.source_id}"))
    return out


@check("sources_cited")
def sources_cited(ctx: Context) -> list[Failure]:
    page: ReportPage = ctx.page
    cited = {c.target for c in page.citations}
    out = [Failure("sources_cited", s.el_id or s.source_id, "this source is listed but no claim cites it")
           for s in page.sources if s.el_id not in cited]
    out += [Failure("sources_cited", s.el_id, f"source {s.source_id or '(no data-source value)'} has no record in {SIDECAR}")
            for s in page.sources if page.sidecar_ok and page.sidecar.source(s.source_id) is None]
    return out


@check("claims_cited")
def claims_cited(ctx: Context) -> list[Failure]:
    return [Failure("claims_cited", f.where, "an external finding without a citation beside it")
            for f in ctx.page.findings if not f.citations]


@check("assets")
def assets(ctx: Context) -> list[Failure]:
    page: ReportPage = ctx.page
    out = []
    for el, attr, ref, _ in page.tree.iterlinks():
        parts = urlsplit(ref)
        if parts.scheme or not parts.path or ref.startswith("#") or ref.startswith("//"):
            continue
        path = inside(ctx.folder, ref)
        if path is None:
            out.append(Failure("assets", unquote(parts.path), "referenced file lies outside the report folder"))
        elif not path.is_file():
            out.append(Failure("assets", unquote(parts.path), "referenced file is missing from the report folder"))
    if not page.video_src:
        out.append(Failure("assets", "video", "the page has no video"))
    return out


@check("links")
def links(ctx: Context) -> list[Failure]:
    page: ReportPage = ctx.page
    out = []
    for a in page.tree.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or a.get(CITE) is not None:
            continue  # citations have their own check
        scheme = urlsplit(href).scheme.lower()
        if scheme and scheme not in ("http", "https"):
            out.append(Failure("links", where_of(a), f"a {scheme}: link"))
        elif href.startswith("#") and not href.startswith(TIMESTAMP_PREFIX) and unquote(href[1:]) not in page.ids:
            out.append(Failure("links", where_of(a), f"internal link {href} resolves to nothing"))
    return out


@check("budgets")
def budgets(ctx: Context) -> list[Failure]:
    side = ctx.page.sidecar
    b = side.budgets
    kinds = [s.kind for s in side.sources]
    have = {"min_sources": len(side.sources), "min_documents": kinds.count("document"),
            "min_related_videos": kinds.count("video")}
    empty = " (the evidence folder is empty)" if side.counts.get("documents_found") == 0 else ""
    out = [Failure("budgets", key, f"{have[key]} found, the budget asks for at least {b[key]}"
                   + (empty if key != "min_related_videos" else ""))
           for key in have if have[key] < int(b.get(key, 0))]
    per = int(b.get("min_sources_per_anchor", 0))
    for a in side.anchors if per else ():
        n = len({e.source_id for f in side.findings if f.anchor_id == a.id
                 for e in map(side.evidence_of, f.evidence_ids) if e})
        if n < per:
            out.append(Failure("budgets", ANCHOR_ID.format(a.id),
                               f"{n} cited source(s) for “{a.value or a.subject or a.text}”, the budget asks for {per}"))
    return out


@check("min_cited_sources", counted=True)
def min_cited_sources(ctx: Context, n: int) -> list[Failure]:
    have = len({c.target for c in ctx.page.citations if c.target})
    return [] if have >= n else [Failure("min_cited_sources", "sources", f"{have} source(s) cited, {n} needed")]


@check("min_timestamps", counted=True)
def min_timestamps(ctx: Context, n: int) -> list[Failure]:
    have = len(ctx.page.timestamps)
    return [] if have >= n else [Failure("min_timestamps", "timestamps", f"{have} timestamp link(s), {n} needed")]


@check("min_findings", counted=True)
def min_findings(ctx: Context, n: int) -> list[Failure]:
    have = len(ctx.page.findings)
    return [] if have >= n else [Failure("min_findings", "findings", f"{have} finding(s), {n} needed")]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _squash(text: str) -> str:
    """Letters and digits only: a PDF's text layer breaks words and spaces its punctuation ("F or new plaster",
    "sealer , then") where the page a reader sees, and the sentence a harness copies from it, does not."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def quoted(excerpt: str, text: str) -> bool:
    """The excerpt is in the source's text, as written or apart from spacing and punctuation."""
    return _norm(excerpt) in text or (len(squashed := _squash(excerpt)) >= 12 and squashed in _squash(text))


# a relation agrees with the video's figure or disagrees with it; the rules' finer reading (a dated revision or a
# dispute, a reason or a plain agreement) is theirs to make, and a writer who reads the page may make it otherwise
_POLE = {"supports": "agrees", "applies": "agrees", "contradicts": "disagrees", "updates": "disagrees"}


def reopen(source, folder: Path, library=None) -> str:
    """The text of a source, read again from the report's copy of it (fresh context): a document
    from its file inside the report folder, a web page from its http(s) URL, a related video from
    its timeline in the ingest library (the one place read outside the folder: videos are not
    copied into a report). Nothing else outside the folder is read."""
    from .sources.documents import read_document
    from .sources.videos import reopen_video

    link = source.link or ""
    if source.kind == "document":
        path = inside(folder, link) if link and not urlsplit(link).scheme else None
        if path is None or not path.is_file():
            raise VidsleuthError(f"no copy of it inside the report folder ({link or 'no link'})")
        text = read_document(path)[2]
        if path.suffix.lower() in (".html", ".htm"):  # a reply the main-text extraction left out is on the page a reader sees
            from .sources.dates import visible

            text += "\n" + visible(path.read_text(encoding="utf-8", errors="replace"))
        return text
    if source.kind == "web":
        import httpx

        url = link or source.location
        if urlsplit(url).scheme not in ("http", "https"):
            raise VidsleuthError(f"{url!r} is not an http(s) URL")
        trafilatura = require("trafilatura", "report")
        return trafilatura.extract(httpx.get(url, timeout=20, follow_redirects=True).text) or ""
    if source.kind == "video":
        return reopen_video(source.location, library)
    raise VidsleuthError(f"a source of kind {source.kind!r} cannot be reopened")


SUPPORT_SCHEMA = {"type": "object", "properties": {"supported": {"type": "boolean"}, "why": {"type": "string"}},
                  "required": ["supported", "why"]}


def _support(ctx: Context, finding, cite, text: str) -> str:
    """Why the cited record does not support the finding ('' when it does)."""
    page, data = ctx.page, ctx.data
    ev = page.sidecar.evidence_of(cite.evidence_id)
    src = page.sidecar.source(ev.source_id)
    record = page.sidecar.finding(finding.finding_id)
    if not quoted(ev.excerpt, text):
        return f"the excerpt cited as {src.id} is not in the source"
    if ctx.judge is not None:
        from ..prompts import render

        reply = ctx.judge.chat(render("report_support.j2", claim=record.text if record else finding.text,
                                      excerpt=ev.excerpt, title=src.title), schema=SUPPORT_SCHEMA, max_tokens=150)
        return "" if reply.data["supported"] else f"judge: {src.id} does not support the claim ({str(reply.data['why'])[:160]})"
    anchor = data.anchor(record.anchor_id) if data is not None and record is not None else None
    if anchor is not None and record.relation:
        from .branches import BESIDE
        from .relate import relate_rules

        full = data.evidence_of(ev.id)  # a table row is read under its header (the record's context)
        rel = relate_rules(anchor, ev.excerpt, src.date, data.video.get("date", ""), full.context if full else "",
                          src.title)[0]
        beside = record.relation == "compares" and full is not None and full.rationale.startswith(BESIDE)
        opposed = {_POLE.get(rel or ""), _POLE.get(record.relation)} == {"agrees", "disagrees"}
        # a stance the rules read, relabelled as a comparison, reason or application the excerpt states no cue of
        uncued = rel in _POLE and record.relation not in _POLE and not relation_check.states_cue(record.relation, ev.excerpt)
        if (opposed or uncued) and not beside:  # a comparison-table row of another item is set beside, by design
            return f"the finding says “{record.relation}” but its excerpt from {src.id} reads as “{rel}”"
    return ""


@check("citation_support")
def citation_support(ctx: Context) -> list[Failure]:
    page, out, texts = ctx.page, [], {}
    for f in page.findings:
        for c in f.citations:
            ev = page.sidecar.evidence_of(c.evidence_id)
            src = page.sidecar.source(ev.source_id) if ev else None
            if ev is None or src is None:
                continue  # the citations check reports these
            if src.id not in texts:
                try:
                    library = (ctx.data.video.get("library") if ctx.data is not None else None) or None
                    texts[src.id] = _norm(reopen(src, ctx.folder, library))
                except Exception as exc:  # noqa: BLE001 - any failure to reopen a source is a finding
                    texts[src.id] = None
                    out.append(Failure("citation_support", f.where, f"source {src.id} cannot be reopened: {exc}"))
            if texts[src.id] is not None:
                why = _support(ctx, f, c, texts[src.id])
                if why:
                    out.append(Failure("citation_support", f.where, why))
    return out


check("browser", needs=("browser",))(browser.browser_check)
check("markup")(markup.markup_check)
check("relations")(relation_check.relations_check)


def run_checks(page: ReportPage, specs: list[str] | None = None, *, browser: bool = True,
               judge=None) -> dict[str, list[Failure]]:
    """Run ``specs`` (names or ``name:N``; default: every check that takes no count) on a page
    already read; a check whose needs are not enabled is left out of the result."""
    enabled = {"browser"} if browser else set()
    ctx = Context(page.folder, page, judge)
    out: dict[str, list[Failure]] = {}
    for spec in specs if specs is not None else [n for n in CHECKS if not entry(n).counted]:
        problem = spec_problem(spec)
        if problem:
            raise VidsleuthError(problem)
        name, _, n = spec.partition(":")
        c = entry(name)
        if not set(c.needs) <= enabled:
            continue
        out[spec] = c.fn(ctx, int(n)) if c.counted else c.fn(ctx)
    return out


def check_report(folder: str | Path, *, browser: bool = True, judge=None, only: list[str] | None = None) -> dict:
    """Run every check (or ``only`` these specs) on the report in ``folder``; returns
    ``{"passed": bool, "checks": {name: [failures as dicts]}}``. A folder with no readable page is
    one ``ReportContractError``; anything else the page lacks is a failure of ``contract``."""
    page = read_page(folder)
    results = run_checks(page, only, browser=browser, judge=judge)
    return {"passed": not any(results.values()), "checks": {k: [asdict(f) for f in v] for k, v in results.items()}}


def load(folder: str | Path) -> tuple[ReportData, object]:
    """A vidsleuth report's records and parsed page (to repair or re-render it); one error when the
    folder holds no vidsleuth ``report.json``."""
    page = read_page(folder)
    if page.data is None:
        lines = [m for m in page.missing if m.startswith(SIDECAR)] or [
            f"{SIDECAR} follows the report contract but is not a vidsleuth record (it cannot be repaired or re-rendered)"]
        raise ReportContractError(f"{Path(folder) / SIDECAR}: {lines[0].removeprefix(SIDECAR + ': ')}",
                                  hint="write the report again with `vidsleuth report`")
    return page.data, page.tree
