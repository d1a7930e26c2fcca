"""What a report run leaves besides the page: ``trajectory.jsonl`` and ``run.json`` (the protocol:
models, prompts' hashes, budgets, versions, seconds per stage, counts, what each stage noted)."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from ..files import write_atomic

# The report's prompt templates, hashed into its run record (the pipeline re-exports them).
PROMPTS = ("report_judge.j2", "report_write.j2", "report_summary.j2", "report_support.j2")

_PREPARE = {"docs", "index", "web", "model", "config", "library", "ingest_options", "date", "browser", "language",
            "settings", "sources", "follow_links", "relater", "relater_model"}


def budget_options(options: dict) -> dict:
    """``prepare``'s keywords; budget keywords (``max_anchors=…``, as the CLI passed them before
    ``settings``) become a ``ReportConfig`` loaded from the config file with them as overrides."""
    from ..config import ReportConfig, load_report_config
    from ..errors import VidsleuthError

    names = {f.name for f in fields(ReportConfig)}
    budgets = {k: options.pop(k) for k in list(options) if k in names}
    unknown = sorted(set(options) - _PREPARE)
    if unknown:
        raise VidsleuthError(f"report() has no option {unknown[0]!r}", hint=f"known: {', '.join(sorted(_PREPARE | names))}")
    if budgets:
        base = options.get("settings") or load_report_config(options.get("config"))
        from dataclasses import replace

        options["settings"] = replace(base, **{k: v for k, v in budgets.items() if v is not None})
    return options


def finish(setup, run, data, result: dict, skipped: list[str]) -> dict:
    """Write the trajectory and the protocol; return the run's summary."""
    from .. import __version__
    from ..prompts import prompt_hash
    from .facts import STEMMER

    out = setup.out
    events = run.events + [{"type": "tool", "stage": "read document", "error": True, "message": m} for m in skipped]
    write_atomic(out / "trajectory.jsonl", "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events))
    writer, judge = setup.writer, setup.judge
    counts = {k: v for k, v in data.counts.items() if k != "skipped"}
    protocol = {
        "vidsleuth": __version__, "video": str(setup.video.resolve()), "request": setup.request,
        "video_date": setup.video_date, "language": setup.language, **setup.described,
        "relater": setup.relater.describe() if setup.relater else "rules",
        "relater_protocol": setup.relater.protocol() if setup.relater else {"mode": "rules"},
        "writer": writer.endpoint.describe() if writer else "rules", "judge": judge.endpoint.describe() if judge else "rules",
        "embedder": setup.embedder.name, "stemmer": STEMMER, "prompts": {p: prompt_hash(p) for p in PROMPTS},
        "config": asdict(setup.settings), "ingest": asdict(setup.ingest), "sources": [s.name for s in setup.sources],
        "seconds": run.seconds, "notes": run.notes, "counts": counts, "anchors": len(data.anchors),
        "evidence": len(data.evidence), "sources_cited": len(data.sources), "checks_passed": result["passed"]}
    write_atomic(out / "run.json", json.dumps(protocol, ensure_ascii=False, indent=1))
    return {"report": str((out / "report.html").resolve()), "passed": result["passed"], "checks": result["checks"],
            "anchors": len(data.anchors), "evidence": len(data.evidence), "sources": len(data.sources),
            "seconds": run.seconds, "skipped": skipped, "rounds": result["rounds"], "notes": run.notes}
