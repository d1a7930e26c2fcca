"""The report's stages as separate public calls, for a harness that runs the workflow itself (the
MCP tools and the ``video-report`` skill): it reads the timeline, picks its own anchors, asks for
evidence, decides or asks for relations, writes its own findings, and hands the records back to be
rendered and checked.

Every function takes and returns plain JSON-able data (what an agent sends and reads), built on
the same stage functions ``vidsleuth report`` uses: ``anchors.find_anchors``, the source registry
and ``branches.rank``, ``relate.relate_rules``/``judge.Relater``, ``render.write_outputs``. A record
that does not fit says which one and why, in one line.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from ..errors import VidsleuthError
from ..files import writes_output
from ..numwords import has_cjk
from .facts import codes, heading_of, quantities, subject_words
from .types import ANCHOR_KINDS, RELATIONS, Anchor, Evidence, Finding, Moment, Note, ReportData, Source

SOURCE_KINDS = ("document", "video", "web")


def _bad(what: str, why: str) -> VidsleuthError:
    return VidsleuthError(f"{what}: {why}", hint="see the record layout in `skills/video-report/SKILL.md`")


def _num(value: Any, what: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise _bad(what, f"{value!r} is not a number of seconds") from None
    if v != v or v < 0:
        raise _bad(what, f"{value!r} is not a time in the video")
    return v


def anchor_of(item: dict, k: int = 1) -> Anchor:
    """One anchor from a harness's JSON: ``text`` and ``moments`` ([{start, end, kind, text}]) are
    required; ``id``, ``kind``, ``subject``, ``value`` and ``heading`` are derived from the text when absent."""
    if not isinstance(item, dict) or not str(item.get("text", "")).strip():
        raise _bad(f"anchor {k}", "needs a non-empty text")
    aid = str(item.get("id") or f"A{k}")
    moments = []
    for j, m in enumerate(item.get("moments") or (), 1):
        if not isinstance(m, dict):
            raise _bad(f"anchor {aid} moment {j}", "must be an object with start, end, kind, text")
        start = _num(m.get("start"), f"anchor {aid} moment {j} start")
        end = _num(m.get("end", start), f"anchor {aid} moment {j} end")
        moments.append(Moment(start, max(start, end), str(m.get("kind") or "speech"), str(m.get("text") or item["text"])))
    if not moments:
        raise _bad(f"anchor {aid}", "needs at least one moment (where the video says or shows it)")
    text = str(item["text"]).strip()
    stated = quantities(text)
    kind = str(item.get("kind") or ("parameter" if stated else "entity" if codes(text) else "claim"))
    if kind not in ANCHOR_KINDS:
        raise _bad(f"anchor {aid}", f"kind {kind!r} is not one of {', '.join(ANCHOR_KINDS)}")
    value = item.get("value")
    if value is None:
        value = ", ".join(q.label() for q in stated) or ", ".join(codes(text))
    subject = str(item.get("subject") or " ".join(sorted(subject_words(text))))
    heading = str(item.get("heading") or (heading_of(text, stated) if stated else ""))  # never the stemmed words
    return Anchor(id=aid, kind=kind, text=text, subject=subject, value=str(value),
                  moments=tuple(sorted(moments, key=lambda m: m.start)), relevance=float(item.get("relevance", 0.0)),
                  heading=heading)


def anchors_of(items: list[dict]) -> list[Anchor]:
    out = [anchor_of(a, k) for k, a in enumerate(items or (), 1)]
    ids = [a.id for a in out]
    if len(set(ids)) != len(ids):
        raise _bad("anchors", "two anchors share an id")
    return out


def suggest_anchors(timeline, request: str, *, max_anchors: int = 8, embedder=None) -> list[dict]:
    """The pipeline's own anchor pick (stage 2) as JSON, for a harness that wants a starting set."""
    from .anchors import find_anchors

    if not request or not request.strip():
        raise VidsleuthError("the request is empty", hint="say what the report is for")
    return [asdict(a) for a in find_anchors(timeline, request, max_anchors=max_anchors, embedder=embedder)]


def gather_evidence(anchors: list[dict], *, docs: str | Path | None = None, index: str | Path | None = None,
                    web_search_url: str = "", video: str | Path | None = None, per_anchor: int = 3,
                    library=None, embedder=None) -> dict:
    """Stage 3: every configured source read once, its passages ranked per anchor (the evidence
    branches). Returns candidate excerpts per anchor with their source, best first, the anchors
    no passage was found for, the sources' counts and what was skipped (unreadable documents,
    videos without a timeline)."""
    from . import sources as registry
    from .branches import rank

    parsed = anchors_of(anchors)
    if not parsed:
        raise VidsleuthError("no anchors given: evidence is searched per anchor", hint="pass at least one anchor")
    kinds = registry.registry()
    chosen = []
    if docs is not None:
        chosen.append(kinds["documents"](docs))
    if index is not None:
        exclude = str(Path(video).resolve()) if video else ""
        chosen.append(kinds["videos"](index, library=library, exclude=exclude))
    if web_search_url:
        chosen.append(kinds["web"](web_search_url, per_anchor=per_anchor))
    if not chosen:
        raise VidsleuthError("no evidence source given", hint="pass docs (a folder), index (related videos) or web")
    passages, skipped, counts = [], [], {}
    for src in chosen:
        got = src.gather(anchors=parsed)
        passages += got.passages
        skipped += got.skipped
        counts.update(got.counts)
    ranked = rank(parsed, passages, per_anchor=per_anchor, embedder=embedder)
    found = {c.anchor_id for c in ranked}
    return {"without_candidates": [a.id for a in parsed if a.id not in found],  # read the pages for these yourself
            "candidates": [{"anchor_id": c.anchor_id, "excerpt": c.excerpt, "score": c.score,
                            "modality": c.passage.modality, "moment": c.passage.moment,
                            "context": getattr(c.passage, "context", ""),
                            "source": {k: v for k, v in asdict(c.passage.source).items() if k != "id"}}
                           for c in ranked],
            "counts": counts, "skipped": skipped}


def relate_excerpts(anchor: dict, excerpts: list[dict], *, video_date: str = "", model=None,
                    relater: str | None = None) -> list[dict]:
    """Stage 4: the relation of each excerpt ({excerpt, source_date, source_title, context}: a table
    row's header line) to the anchor, by ``relater`` (``judge.MODES``: rules, model or judge;
    default: ``model`` when given, else the rules). ``relation`` is None for a mere mention
    (not evidence: leave it out of the report)."""
    from .judge import Case, configure

    a = anchor_of(anchor)
    cases = []
    for k, e in enumerate(excerpts or (), 1):
        if not isinstance(e, dict) or not str(e.get("excerpt", "")).strip():
            raise _bad(f"excerpt {k}", "needs a non-empty excerpt")
        title = str(e.get("source_title") or "")
        cases.append(Case(a, str(e["excerpt"]), title or f"excerpt {k}", title, str(e.get("source_date") or ""),
                          str(e.get("context") or "")))
    decided = configure(relater, writer=model).decide(cases, video_date)
    return [{"excerpt": c.excerpt, "relation": rel, "rationale": why, "confidence": round(float(conf), 3),
             "decided_by": by} for c, (rel, why, conf, by) in zip(cases, decided)]


def _source(item: dict, k: int) -> Source:
    sid = str(item.get("id") or f"S{k}")
    kind = str(item.get("kind") or "document")
    if kind not in SOURCE_KINDS:
        raise _bad(f"source {sid}", f"kind {kind!r} is not one of {', '.join(SOURCE_KINDS)}")
    if not str(item.get("location") or "").strip():
        raise _bad(f"source {sid}", "needs a location (a document path, a video path or an http(s) URL)")
    return Source(id=sid, kind=kind, title=str(item.get("title") or item["location"]), location=str(item["location"]),
                  date=str(item.get("date") or ""))


def _evidence(item: dict, k: int, anchors: set[str], sources: set[str]) -> Evidence:
    eid = str(item.get("id") or f"E{k}")
    for key, known in (("anchor_id", anchors), ("source_id", sources)):
        if str(item.get(key)) not in known:
            raise _bad(f"evidence {eid}", f"{key} {item.get(key)!r} names no {key.split('_')[0]} of the records")
    rel = str(item.get("relation") or "")
    if rel not in RELATIONS:
        raise _bad(f"evidence {eid}", f"relation {rel!r} is not one of {', '.join(RELATIONS)}")
    if not str(item.get("excerpt") or "").strip():
        raise _bad(f"evidence {eid}", "needs the excerpt, verbatim from its source")
    moment = item.get("moment")
    return Evidence(id=eid, anchor_id=str(item["anchor_id"]), source_id=str(item["source_id"]),
                    modality=str(item.get("modality") or "text"), excerpt=str(item["excerpt"]), relation=rel,
                    rationale=str(item.get("rationale") or ""), confidence=float(item.get("confidence") or 0.0),
                    moment=None if moment is None else _num(moment, f"evidence {eid} moment"),
                    decided_by=str(item.get("decided_by") or "harness"), context=str(item.get("context") or ""))


def _finding(item: dict, k: int, anchors: set[str], evidence: dict[str, Evidence]) -> Finding:
    fid = str(item.get("id") or f"F{k}")
    if str(item.get("anchor_id")) not in anchors:
        raise _bad(f"finding {fid}", f"anchor_id {item.get('anchor_id')!r} names no anchor of the records")
    if not str(item.get("text") or "").strip():
        raise _bad(f"finding {fid}", "needs its text")
    cites = tuple(str(c) for c in item.get("evidence_ids") or ())
    unknown = [c for c in cites if c not in evidence]
    if unknown:
        raise _bad(f"finding {fid}", f"cites {', '.join(unknown)}, which no evidence record has as its id")
    rel = str(item.get("relation") or (evidence[cites[0]].relation if cites else ""))
    return Finding(id=fid, anchor_id=str(item["anchor_id"]), text=str(item["text"]), evidence_ids=cites, relation=rel)


def records_of(records: dict, *, duration: float, original: str) -> ReportData:
    """A harness's records (request, anchors, sources, evidence, findings; optional summary, notes,
    open_questions, budgets, video title/date) as the report's data, every reference checked."""
    if not isinstance(records, dict):
        raise _bad("records", "must be an object")
    if not str(records.get("request") or "").strip():
        raise _bad("records", "need the request the report answers")
    anchors = anchors_of(records.get("anchors") or [])
    aids = {a.id for a in anchors}
    sources = [_source(s, k) for k, s in enumerate(records.get("sources") or (), 1)]
    sids = {s.id for s in sources}
    evidence = [_evidence(e, k, aids, sids) for k, e in enumerate(records.get("evidence") or (), 1)]
    by_id = {e.id: e for e in evidence}
    findings = [_finding(f, k, aids, by_id) for k, f in enumerate(records.get("findings") or (), 1)]
    for a in anchors:
        for m in a.moments:
            if m.start > duration + 0.05:
                raise _bad(f"anchor {a.id}", f"moment {m.start:.2f} s is after the video's end ({duration:.2f} s)")
    notes = [Note(round(_num(n.get("t"), f"note {k}"), 2), str(n.get("text") or ""), str(n.get("anchor_id") or ""))
             for k, n in enumerate(records.get("notes") or (), 1)]
    if not notes:  # the video pane shows every anchor moment
        notes = [Note(round(m.start, 2), f"{m.kind}: {m.text}", a.id) for a in anchors for m in a.moments]
    video = records.get("video") or {}
    from ..config import ReportConfig
    from .wording import TITLE_CHARS, short
    from .write import summary_of

    request = str(records["request"])
    lang = str(records.get("language") or ("zh" if has_cjk(request) else "en"))  # a Chinese request gets a Chinese page
    verdicts = _verdicts(records.get("verdicts") or {}, anchors, evidence, sources, lang)
    return ReportData(
        video={"title": str(video.get("title") or short(request, TITLE_CHARS)), "original": original,
               "duration": round(duration, 3), "date": str(video.get("date") or ""), "file": ""},
        request=request, summary=str(records.get("summary") or "") or summary_of(
            request, anchors, evidence, {s.id: s for s in sources}, verdicts, language=lang),
        notes=tuple(sorted(notes, key=lambda n: n.t)), anchors=tuple(anchors), sources=tuple(sources),
        evidence=tuple(evidence), findings=tuple(findings),
        open_questions=tuple(str(q) for q in records.get("open_questions") or ()),
        budgets={**ReportConfig().budgets(), **(records.get("budgets") or {})},
        counts=dict(records.get("counts") or {}), verdicts=verdicts, language=lang)


def _verdicts(given: dict, anchors, evidence, sources, language: str) -> dict[str, dict]:
    """Per anchor its verdict (agrees, disagrees, disputed, newer guidance, …): the harness's own
    where it gives one, else derived from the evidence's relations as the pipeline derives it."""
    from .write import VERDICTS, ZH_VERDICT, verdicts_of

    out = verdicts_of(anchors, evidence, {s.id: s for s in sources}, language=language)
    for aid, v in given.items():
        if aid not in out:
            raise _bad(f"verdict for {aid}", "names no anchor of the records")
        if not isinstance(v, dict) or v.get("verdict") not in VERDICTS:
            raise _bad(f"verdict for {aid}", f"must be {{verdict, text}} with a verdict of {', '.join(VERDICTS)}")
        word = ZH_VERDICT[v["verdict"]] if language == "zh" else v["verdict"]
        text = str(v.get("text") or "").strip()
        if word.lower() not in text.lower():  # the verdict line says its verdict, whatever else the harness wrote
            text = (f"结论：{word}。" if language == "zh" else f"Verdict: {word}. ") + text
        out[aid] = {"verdict": v["verdict"], "text": text.strip()}
    return out


@writes_output("report")
def render_report(records: dict, video: str | Path, out: str | Path) -> dict:
    """Stages 5-6 for harness-written records: the video placed beside the page, cited local
    documents copied under ``sources/``, ``report.html``, ``report.md`` and ``report.json``.
    The folder follows ``vidsleuth report``'s output policy (new, empty, or an earlier report;
    a failure leaves nothing behind). Nothing is checked beyond the records' references: call
    ``check_report`` next."""
    import json

    from .. import __version__
    from ..files import write_atomic
    from ..media import probe
    from .pipeline import video_tags
    from .render import copy_sources, place_video, write_outputs

    video, out = Path(video), Path(out)
    info = probe(video, with_content_id=False)
    title, date = video_tags(video, info)  # the container's own title and date fill what the records leave out
    meta = (records.get("video") or {}) if isinstance(records, dict) else {}
    if isinstance(records, dict):
        records = {**records, "video": {"title": meta.get("title") or title, "date": meta.get("date") or date}}
    data = records_of(records, duration=info.duration, original=str(video.resolve()))
    data = replace(data, video={**data.video, "file": place_video(video, out)})
    data = copy_sources(data, out)
    page = write_outputs(data, out)
    write_atomic(out / "run.json", json.dumps({"vidsleuth": __version__, "video": str(video.resolve()),
                                               "request": data.request, "written_by": "harness records (report.steps)",
                                               "anchors": len(data.anchors), "evidence": len(data.evidence),
                                               "sources": len(data.sources)}, ensure_ascii=False, indent=1))
    return {"report": str(page.resolve()), "folder": str(out.resolve()), "anchors": len(data.anchors),
            "sources": len(data.sources), "evidence": len(data.evidence), "findings": len(data.findings)}
