"""``vidsleuth report``: the seven stages of seed 000 (App. D.2) as one function.

timeline (ingest) -> anchors -> evidence branches over the configured sources -> relations ->
writing -> rendering -> validation and repair. Each stage reports progress; the output folder gets
``report.html`` (self-contained), ``report.md``, ``report.json``, ``checks.json`` and ``run.json``
(protocol: models, prompts' hashes, budgets, versions, seconds per stage)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, replace
from pathlib import Path

from ..errors import VidsleuthError
from ..files import write_atomic, writes_output
from .types import Evidence, ReportData, Source

OWN_FILES = {"report.html", "report.md", "report.json", "checks.json", "run.json", "trajectory.jsonl", "sources", "video.mp4", "video.webm",
             "video.m4v"}
PROMPTS = ("report_relate.j2", "report_write.j2", "report_support.j2")


def _check_out(out: Path) -> None:
    """Never write into a folder that holds something other than an earlier report."""
    if out.exists() and not out.is_dir():
        raise VidsleuthError("the output path is a file", path=out, hint="give a folder with --out")
    if out.is_dir():
        foreign = sorted(p.name for p in out.iterdir() if p.name not in OWN_FILES and not p.name.startswith("."))
        if foreign:
            raise VidsleuthError(f"the output folder holds files that are not a vidsleuth report ({', '.join(foreign[:3])})",
                                 path=out, hint="choose an empty or new folder; nothing was changed")


def video_tags(path: Path) -> tuple[str, str]:
    """(title, ISO date) from the container's ``title`` and ``creation_time`` tags; '' when absent."""
    import av

    try:
        with av.open(str(path)) as c:
            tags = dict(c.metadata)
    except (OSError, av.error.FFmpegError):
        return "", ""
    tag = tags.get("creation_time") or tags.get("date") or ""
    return tags.get("title", "").strip(), (tag[:10] if len(tag) >= 10 and tag[4] == "-" else "")


@writes_output("report")
def report(video: str | Path, request: str, *, out: str | Path, docs: str | Path | None = None,
           index: str | Path | None = None, web: bool = False, model: str | None = None, config=None,
           library=None, ingest_options=None, date: str | None = None, browser: bool = True, echo=None,
           **overrides) -> dict:
    """Write the report for ``video`` and ``request`` into ``out``; returns the check summary."""
    from .. import __version__
    from ..config import load_report_config
    from ..library import IngestOptions, ingest
    from ..media import probe
    from ..models import Models
    from ..progress import task
    from ..prompts import prompt_hash
    from . import sources as source_registry
    from .anchors import find_anchors
    from .branches import rank, run_branches, select
    from .relate import relate_model, relate_rules
    from .render import copy_sources, place_video, write_outputs
    from .write import notes_of, summary_rules, write_model, write_rules

    say = echo or (lambda *_: None)
    cfg = load_report_config(config, **overrides)
    video, out = Path(video), Path(out)
    if not request or not request.strip():
        raise VidsleuthError("the request is empty", hint='say what the report is for: --request "..."')
    info = probe(video, with_content_id=False)  # a missing or damaged video fails here, before any work
    if docs is not None and not Path(docs).is_dir():
        raise VidsleuthError("the evidence folder does not exist or is not a folder", path=docs,
                             hint="give --docs DIR with the documents to research")
    if web and not cfg.web_search_url:
        raise VidsleuthError("--web needs [report] web_search_url (a SearXNG-compatible JSON search endpoint)")
    _check_out(out)
    out.mkdir(parents=True, exist_ok=True)
    models = Models(config, overrides={"default": model} if model else {})
    use_model = bool(model or models.config.roles.get("writer"))
    writer = models.for_role("writer") if use_model else None
    judge = models.for_role("judge") if use_model else None
    embedder = models.embedder()
    tag_title, tag_date = video_tags(video)
    vdate = date or tag_date
    seconds: dict[str, float] = {}

    def stage(name):
        seconds[name] = time.perf_counter()
        return task(f"report: {name}", total=None)

    events: list[dict] = []  # the run's trajectory (``vidsleuth trajectory stats OUT``)
    kinds = {"timeline": "read", "anchors": "model", "evidence": "search", "relations": "model", "writing": "write",
             "rendering": "write"}

    def done(name):
        seconds[name] = round(time.perf_counter() - seconds[name], 2)
        events.append({"type": kinds[name], "stage": name, "error": False, "seconds": seconds[name]})

    with stage("timeline"):
        timeline = ingest(video, library, ingest_options or IngestOptions())
    done("timeline")
    with stage("anchors"):
        anchors = find_anchors(timeline, request, max_anchors=cfg.max_anchors, embedder=embedder)
    done("anchors")
    say(f"{len(anchors)} anchors")

    with stage("evidence"):
        kinds_of_source = source_registry.registry()
        chosen = []
        if docs is not None:
            chosen.append(kinds_of_source["documents"](docs))
        if index is not None:
            chosen.append(kinds_of_source["videos"](index, library=library, exclude=str(video.resolve())))
        if web:
            chosen.append(kinds_of_source["web"](cfg.web_search_url, per_anchor=cfg.sources_per_anchor))
        counts: dict = {"documents_found": 0} if docs is not None else {}
        passages, skipped = [], []
        for src in chosen:
            got = src.gather(anchors=anchors)
            passages += got.passages
            skipped += got.skipped
            counts.update(got.counts)
        counts["skipped"] = skipped
        for s in skipped:
            say(f"skipped: {s}")
        candidates = rank(anchors, passages, per_anchor=cfg.sources_per_anchor, embedder=embedder)

        def decide(anchor, c):
            if writer is not None:
                return (*relate_model(writer, anchor, c.excerpt, c.passage.source.title, c.passage.source.date, vdate),
                        writer.endpoint.name)
            return (*relate_rules(anchor, c.excerpt, c.passage.source.date, vdate), "rules")

        decided = run_branches(anchors, candidates, decide, workers=cfg.branches)
        counts["mentions_dropped"] = sum(1 for d in decided if d[1] is None)
        decided = select(decided, cfg.sources_per_anchor)
    done("evidence")

    with stage("relations"):
        numbering: dict[str, str] = {}
        sources: dict[str, Source] = {}
        evidence: list[Evidence] = []
        for c, rel, why, conf, by in decided:
            loc = c.passage.source.location
            if loc not in numbering:
                numbering[loc] = f"S{len(numbering) + 1}"
                sources[numbering[loc]] = replace(c.passage.source, id=numbering[loc])
            evidence.append(Evidence(id=f"E{len(evidence) + 1}", anchor_id=c.anchor_id, source_id=numbering[loc],
                                     modality=c.passage.modality, excerpt=c.excerpt, relation=rel, rationale=why,
                                     confidence=round(conf * min(1.0, c.score), 3), moment=c.passage.moment, decided_by=by))
    done("relations")

    with stage("writing"):
        findings = (write_model(writer, anchors, evidence, sources) if writer is not None
                    else write_rules(anchors, evidence, sources))
        title = tag_title or video.stem
        summary = summary_rules(title, info.duration, request, anchors, evidence, sources)
        open_q = [a.text for a in anchors if a.kind == "open_question"]
        open_q += [f"No source found for: {a.text}" for a in anchors if not any(e.anchor_id == a.id for e in evidence)]
        data = ReportData(
            video={"title": title, "original": str(video.resolve()), "duration": round(info.duration, 3), "date": vdate,
                   "file": ""},
            request=request, summary=summary, notes=tuple(notes_of(timeline, anchors)), anchors=tuple(anchors),
            sources=tuple(sources.values()), evidence=tuple(evidence), findings=tuple(findings),
            open_questions=tuple(open_q), budgets=cfg.budgets(), counts=counts)
    done("writing")

    with stage("rendering"):
        data = replace(data, video={**data.video, "file": place_video(video, out)})
        data = copy_sources(data, out)
        write_outputs(data, out)
    done("rendering")

    t0 = time.perf_counter()
    result, data = validate(out, data, rounds=cfg.repair_rounds, browser=browser, judge=judge, writer=writer)
    seconds["validation"] = round(time.perf_counter() - t0, 2)
    rounds = result["rounds"]
    for r in rounds:
        events.append({"type": "check", "stage": f"check round {r['round']}", "error": bool(r["failures"]),
                       "seconds": round(seconds["validation"] / len(rounds), 3)})
        if r["failures"] and r is not rounds[-1]:
            events.append({"type": "write", "stage": "repair", "error": False, "seconds": 0.0})
    events += [{"type": "tool", "stage": "read document", "error": True, "message": m} for m in skipped]
    write_atomic(out / "trajectory.jsonl", "".join(json.dumps(e) + "\n" for e in events))
    protocol = {
        "vidsleuth": __version__, "video": str(video.resolve()), "request": request, "video_date": vdate,
        "docs": str(Path(docs).resolve()) if docs else None, "index": str(Path(index).resolve()) if index else None,
        "web": web, "relater": writer.endpoint.describe() if writer else "rules",
        "writer": writer.endpoint.describe() if writer else "rules", "judge": judge.endpoint.describe() if judge else "rules",
        "embedder": embedder.name, "prompts": {p: prompt_hash(p) for p in PROMPTS}, "config": asdict(cfg),
        "ingest": asdict(ingest_options or IngestOptions()), "seconds": seconds,
        "counts": {k: v for k, v in counts.items() if k != "skipped"}, "anchors": len(anchors),
        "evidence": len(evidence), "sources": len(data.sources), "checks_passed": result["passed"]}
    write_atomic(out / "run.json", json.dumps(protocol, ensure_ascii=False, indent=1))
    return {"report": str((out / "report.html").resolve()), "passed": result["passed"], "checks": result["checks"],
            "anchors": len(anchors), "evidence": len(evidence), "sources": len(data.sources), "seconds": seconds,
            "skipped": skipped, "rounds": rounds}


def validate(folder: str | Path, data: ReportData | None = None, *, rounds: int = 2, browser: bool = True,
             judge=None, writer=None) -> tuple[dict, ReportData]:
    """Check the report in ``folder``; send what fails to repair and check again, up to ``rounds``
    times. What still fails is written into the page and ``checks.json``, never hidden."""
    from .check import check_report, load
    from .render import write_outputs
    from .repair import repair

    folder = Path(folder)
    if data is None:
        data, _ = load(folder)
    if data.failed_checks:  # the page lists an earlier check's failures: render it without them first
        data = replace(data, failed_checks=())
        write_outputs(data, folder)
    history = []
    for round_no in range(rounds + 1):
        result = check_report(folder, browser=browser, judge=judge)
        failures = [f for fs in result["checks"].values() for f in fs]
        history.append({"round": round_no, "failures": len(failures),
                        "failed": sorted({f["check"] for f in failures})})
        if result["passed"] or round_no == rounds:
            break
        data = repair(data, failures, folder, writer=writer)
        write_outputs(data, folder)
    if failures:
        data = replace(data, failed_checks=tuple(failures))
        write_outputs(data, folder)
    result["rounds"] = history
    write_atomic(folder / "checks.json", json.dumps(result, ensure_ascii=False, indent=1))
    return result, data


def rerender(folder: str | Path) -> Path:
    """Render ``report.json`` again (after editing it by hand, or after a vidsleuth upgrade)."""
    from .check import load
    from .render import write_outputs

    data, _ = load(folder)
    return write_outputs(data, Path(folder))
