"""Stage 7a: validation. Checks are a registry of functions over the written report folder; each
returns the failures it found (check, where, message) so that repair can target them and
``checks.json`` can show what still fails.

Programmatic checks read the HTML a reader gets (not the records it was made from): timestamps in
range, citations resolve, every source cited, no finding without a citation beside it, assets
present, internal links resolve, budgets met. ``citation_support`` reopens every cited source in a
fresh context: the excerpt must be in it, and the claim must follow from it (the model judge when
one is configured, else the deterministic relater must give the finding's relation). ``browser``
opens the page in headless Chromium with the network blocked (``report.browser``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

from ..errors import VidsleuthError, require
from .types import ReportData


@dataclass(frozen=True)
class Failure:
    check: str
    where: str  # an element id, a source id or a file
    message: str


@dataclass
class Context:
    folder: Path
    data: ReportData
    tree: object  # lxml.html element
    judge: object | None = None  # ChatModel for citation support, or None for the rules


CHECKS: dict[str, Callable[[Context], list[Failure]]] = {}


def check(name: str):
    def register(fn):
        CHECKS[name] = fn
        return fn

    return register


def _where(el) -> str:
    while el is not None:
        if el.get("id"):
            return el.get("id")
        el = el.getparent()
    return "page"


@check("timestamps")
def timestamps(ctx: Context) -> list[Failure]:
    duration = float(ctx.data.video.get("duration") or 0.0)
    out = []
    for a in ctx.tree.cssselect("a.ts"):
        try:
            t = float(a.get("data-t"))
        except (TypeError, ValueError):
            out.append(Failure("timestamps", _where(a), f"timestamp {a.get('data-t')!r} is not a number"))
            continue
        if not 0.0 <= t <= duration + 0.05:
            out.append(Failure("timestamps", _where(a), f"timestamp {t:.2f} s is outside the video (0–{duration:.2f} s)"))
    return out


@check("citations")
def citations(ctx: Context) -> list[Failure]:
    ids = {el.get("id") for el in ctx.tree.iter() if el.get("id")}
    out = []
    for a in ctx.tree.cssselect("a.cite"):
        target = (a.get("href") or "")[1:]
        if target not in ids or not target.startswith("src-"):
            out.append(Failure("citations", _where(a.getparent()), f"citation {a.text_content()} points at #{target}, "
                                                                   "which is not a source entry"))
    return out


@check("sources_cited")
def sources_cited(ctx: Context) -> list[Failure]:
    cited = {(a.get("href") or "")[1:] for a in ctx.tree.cssselect("a.cite")}
    return [Failure("sources_cited", li.get("id"), "this source is listed but no claim cites it")
            for li in ctx.tree.cssselect("ol.sources > li") if li.get("id") not in cited]


@check("claims_cited")
def claims_cited(ctx: Context) -> list[Failure]:
    return [Failure("claims_cited", p.get("id") or _where(p), "an external finding without a citation beside it")
            for p in ctx.tree.cssselect("p.finding") if not p.cssselect("a.cite")]


@check("assets")
def assets(ctx: Context) -> list[Failure]:
    out = []
    for el in ctx.tree.cssselect("[src], a[href]"):
        ref = el.get("src") or el.get("href") or ""
        parts = urlsplit(ref)
        if parts.scheme or not parts.path or ref.startswith("#"):
            continue
        if not (ctx.folder / unquote(parts.path)).is_file():
            out.append(Failure("assets", unquote(parts.path), "referenced file is missing from the report folder"))
    if not ctx.tree.cssselect("video[src]"):
        out.append(Failure("assets", "video", "the page has no video"))
    return out


@check("links")
def links(ctx: Context) -> list[Failure]:
    ids = {el.get("id") for el in ctx.tree.iter() if el.get("id")}
    out = []
    for a in ctx.tree.cssselect("a[href]"):
        href = a.get("href")
        if "cite" in (a.get("class") or "").split():
            continue  # citations have their own check
        scheme = urlsplit(href).scheme.lower()
        if scheme and scheme not in ("http", "https"):
            out.append(Failure("links", _where(a), f"a {scheme}: link"))
        elif href.startswith("#") and not href.startswith("#t=") and href[1:] not in ids:
            out.append(Failure("links", _where(a), f"internal link {href} resolves to nothing"))
    return out


@check("budgets")
def budgets(ctx: Context) -> list[Failure]:
    b, d = ctx.data.budgets, ctx.data
    kinds = [s.kind for s in d.sources]
    have = {"min_sources": len(d.sources), "min_documents": kinds.count("document"),
            "min_related_videos": kinds.count("video")}
    out = [Failure("budgets", key, f"{have[key]} found, the budget asks for at least {b[key]}"
                   + (" (the evidence folder is empty)" if key != "min_related_videos" and d.counts.get("documents_found") == 0 else ""))
           for key in have if have[key] < int(b.get(key, 0))]
    per = int(b.get("min_sources_per_anchor", 0))
    for a in d.anchors:
        n = len({e.source_id for f in d.findings if f.anchor_id == a.id for e in map(d.evidence_of, f.evidence_ids) if e})
        if n < per:
            out.append(Failure("budgets", f"anchor-{a.id}", f"{n} cited source(s) for “{a.value or a.subject}”, the budget asks for {per}"))
    return out


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def reopen(location: str, kind: str) -> str:
    """The text of a source, read again from where it was found (fresh context)."""
    from .sources.documents import read_document

    if kind == "document":
        return read_document(Path(location))[2]
    if kind == "video":
        return ""  # related-video excerpts are checked against their timeline by the branch; nothing to reopen offline
    if kind == "web":
        import httpx

        trafilatura = require("trafilatura", "report")
        return trafilatura.extract(httpx.get(location, timeout=20, follow_redirects=True).text) or ""
    return ""


SUPPORT_SCHEMA = {"type": "object", "properties": {"supported": {"type": "boolean"}, "why": {"type": "string"}},
                  "required": ["supported", "why"]}


@check("citation_support")
def citation_support(ctx: Context) -> list[Failure]:
    from .relate import relate_rules

    d, out, texts = ctx.data, [], {}
    for f in d.findings:
        for eid in f.evidence_ids:
            ev = d.evidence_of(eid)
            src = d.source(ev.source_id) if ev else None
            anchor = d.anchor(f.anchor_id)
            if ev is None or src is None or anchor is None:
                continue  # the citations check reports these
            if src.kind == "video":
                continue
            if src.location not in texts:
                try:
                    texts[src.location] = _norm(reopen(src.location, src.kind))
                except Exception as exc:  # noqa: BLE001 - any failure to reopen a source is a finding
                    texts[src.location] = None
                    out.append(Failure("citation_support", f"finding-{f.id}", f"source {src.id} cannot be reopened: {exc}"))
            text = texts[src.location]
            if text is None:
                continue
            if _norm(ev.excerpt) not in text:
                out.append(Failure("citation_support", f"finding-{f.id}", f"the excerpt cited as {src.id} is not in the source"))
                continue
            if ctx.judge is not None:
                from ..prompts import render

                reply = ctx.judge.chat(render("report_support.j2", claim=f.text, excerpt=ev.excerpt, title=src.title),
                                       schema=SUPPORT_SCHEMA, max_tokens=150)
                if not reply.data["supported"]:
                    out.append(Failure("citation_support", f"finding-{f.id}", f"judge: {src.id} does not support the claim "
                                                                              f"({str(reply.data['why'])[:160]})"))
            elif f.relation:
                rel = relate_rules(anchor, ev.excerpt, src.date, d.video.get("date", ""))[0]
                if rel != f.relation:
                    out.append(Failure("citation_support", f"finding-{f.id}", f"the finding says “{f.relation}” but its "
                                                                              f"excerpt from {src.id} reads as “{rel}”"))
    return out


def load(folder: str | Path) -> tuple[ReportData, object]:
    import lxml.html

    folder = Path(folder)
    for name in ("report.html", "report.json"):
        if not (folder / name).is_file():
            raise VidsleuthError(f"no {name} here", path=folder, hint="give the folder `vidsleuth report` wrote")
    from ..files import read_text

    try:
        data = ReportData.from_dict(json.loads(read_text(folder / "report.json", "report.json")))
    except (ValueError, KeyError, TypeError) as exc:
        raise VidsleuthError(f"report.json is damaged ({exc})", path=folder / "report.json") from None
    return data, lxml.html.fromstring((folder / "report.html").read_text(encoding="utf-8"))


def check_report(folder: str | Path, *, browser: bool = True, judge=None, only: list[str] | None = None) -> dict:
    """Run every check (or ``only`` these); returns ``{"passed": bool, "checks": {name: [failures]}}``."""
    data, tree = load(folder)
    ctx = Context(Path(folder), data, tree, judge)
    results: dict[str, list[dict]] = {}
    for name, fn in CHECKS.items():
        if only and name not in only:
            continue
        results[name] = [asdict(f) for f in fn(ctx)]
    if browser and (not only or "browser" in only):
        from .browser import browser_check

        results["browser"] = [asdict(f) for f in browser_check(Path(folder) / "report.html")]
    return {"passed": not any(results.values()), "checks": results}
