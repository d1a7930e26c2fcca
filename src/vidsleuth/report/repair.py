"""Stage 7b: repair. Failed checks go back as targeted fixes of the sections they name; a check
nothing here can fix (a budget that needs more research) stays failed and is shown on the page
and in ``checks.json``, never hidden.

- timestamps outside the video: the note or moment is dropped (a time that is not in the video
  is not evidence of anything);
- a citation that resolves to nothing, or whose source does not support it: the citation goes;
- a finding without a citation: the writer model rewrites that paragraph with the failure in front
  of it when one is configured; otherwise the best-matching evidence of the same anchor is cited
  when its excerpt shares the finding's words, else the claim moves to the open questions;
- a source nobody cites: dropped from the list, with its evidence records;
- missing assets: the video and the cited documents are placed again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .contract import FINDING_ID
from .facts import subject_words
from .types import ReportData


def _ids(failures: list[dict], check: str) -> set[str]:
    return {f["where"] for f in failures if f["check"] == check}


def repair(data: ReportData, failures: list[dict], folder: Path, *, writer=None) -> ReportData:
    duration = float(data.video.get("duration") or 0.0)
    if _ids(failures, "timestamps"):
        data = replace(data, notes=tuple(n for n in data.notes if 0 <= n.t <= duration),
                       anchors=tuple(replace(a, moments=tuple(m for m in a.moments if 0 <= m.start <= duration))
                                     for a in data.anchors))
    known = {e.id for e in data.evidence}
    if any(f["check"] in ("citations", "citation_support") for f in failures):
        unsupported = {f["where"].removeprefix(FINDING_ID.format("")) for f in failures if f["check"] == "citation_support"}
        findings = []
        for f in data.findings:
            keep = tuple(e for e in f.evidence_ids if e in known and data.source(data.evidence_of(e).source_id))
            if f.id in unsupported:
                keep = ()
            findings.append(replace(f, evidence_ids=keep))
        data = replace(data, findings=tuple(findings))
    uncited = [f for f in data.findings if not f.evidence_ids]
    if uncited:
        data = _recite(data, uncited, writer)
    if _ids(failures, "sources_cited"):
        cited = {data.evidence_of(e).source_id for f in data.findings for e in f.evidence_ids if data.evidence_of(e)}
        # a dropped source takes its evidence records with it: a record citing no listed source is a
        # dangling link (scored as one, and shown nowhere a reader could follow)
        data = replace(data, sources=tuple(s for s in data.sources if s.id in cited),
                       evidence=tuple(e for e in data.evidence if e.source_id in cited))
    if _ids(failures, "assets"):
        from .render import copy_sources, place_video

        original = Path(data.video.get("original", ""))
        if original.is_file():
            data = replace(data, video={**data.video, "file": place_video(original, folder)})
        data = copy_sources(data, folder)
    return data


def _recite(data: ReportData, uncited, writer) -> ReportData:
    from .write import write_model

    findings = {f.id: f for f in data.findings}
    open_q = list(data.open_questions)
    if writer is not None:
        fix = {f.anchor_id: "the paragraph has no citation beside its claim; cite the records it relies on" for f in uncited}
        sources = {s.id: s for s in data.sources}
        evidence = [e for e in data.evidence if e.source_id in sources]
        for new in write_model(writer, list(data.anchors), evidence, sources, fix=fix, language=data.language):
            for f in uncited:
                if f.anchor_id == new.anchor_id and f.id in findings:
                    findings[f.id] = replace(new, id=f.id)
    for f in uncited:
        f = findings[f.id]
        if f.evidence_ids:
            continue
        words = subject_words(f.text)
        best, overlap = None, 0.0
        for e in data.evidence:
            if e.anchor_id != f.anchor_id or data.source(e.source_id) is None:
                continue
            share = len(words & subject_words(e.excerpt)) / max(1, len(words))
            if share > overlap:
                best, overlap = e, share
        if best is not None and overlap >= 0.3:
            findings[f.id] = replace(f, evidence_ids=(best.id,), relation=best.relation)
        else:
            del findings[f.id]
            open_q.append(f"Unsupported (no source found): {f.text}")
    return replace(data, findings=tuple(findings.values()), open_questions=tuple(open_q))
