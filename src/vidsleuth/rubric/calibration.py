"""The calibration check as seed 000 §3.2 builds it: one task, a rubric written from its known
facts, and three reports — R1 video-only (no external research), R2 full research, R3 research with
the fact library supplied — whose scores must order R1 < R2 < R3, with R3 − R1 above a margin.

``task_rubric`` writes the rubric from a ``synth.report_cases`` truth — its eight sourced facts and two
facts of the independent evidence record that no document in the folder states; ``fact_library``
writes all of them as one plain document (each relation in its clearest form), which R3 reads
beside the evidence folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .inventory import SATURATING, WEIGHTS
from .schema import SCHEMA

MARGIN = 15.0


def _fact_leaf(i: int, pair: dict) -> dict:
    values = [pair["video_value"]] + ([pair["source_value"]] if pair["relation"] in ("contradicts", "updates", "compares") else [])
    return {"id": f"fact{i}", "kind": "judge", "material": "findings",
            "question": f"Does the report say that a source {pair['relation']} the video's {pair['subject']} "
                        f"({pair['video_value']})" + (f", giving {pair['source_value']}" if len(values) > 1 else "") + "?",
            "fact": {"text": pair["sentence"], "must": values, "with": [pair["relation"]]}}


def task_rubric(truth: dict) -> dict:
    pairs = truth["pairs"] + truth.get("library_only", [])
    facts = [_fact_leaf(i, p) for i, p in enumerate(pairs, 1)]

    def subset(rel: tuple[str, ...], prefix: str) -> list[dict]:
        return [{**f, "id": f"{prefix}{i}"} for i, (f, p) in enumerate(zip(facts, pairs), 1) if p["relation"] in rel]

    content = [
        {"name": "fact_coverage", "weight": 0.4, "saturation": len(facts), "cap": SATURATING["fact_coverage"], "leaves": facts},
        {"name": "video_faithfulness", "weight": 0.3, "leaves": [
            {"id": "about_video", "kind": "judge", "gate": True, "material": "all",
             "question": "Is the report about the given video?", "fact": {"text": truth["title"], "must": [truth["title"]]}}] + [
            {"id": f"seen{i}", "kind": "judge", "material": "observations",
             "question": f"Does the report state the video's {p['key']} value ({p['value']}) at its moment?",
             "fact": {"text": p["text"], "must": [_unit_value(truth, p)]}} for i, p in enumerate(truth["params"], 1)]},
        {"name": "causal_analysis", "weight": 0.1, "saturation": 1, "cap": SATURATING["causal_analysis"],
         "leaves": subset(("explains",), "cause")},
        {"name": "comparison", "weight": 0.1, "saturation": 1, "cap": SATURATING["comparison"],
         "leaves": subset(("compares",), "cmp")},
        {"name": "conflict_handling", "weight": 0.1, "leaves": subset(("contradicts", "updates"), "conflict")},
    ]
    citation = [
        {"name": "claim_support", "weight": 0.6, "leaves": [
            {"id": f"cite{i}", "kind": "judge", "material": "findings", "guard": f["id"],
             "question": f"Does the finding that states this fact carry a citation beside it? ({f['fact']['text']})",
             "fact": {**f["fact"], "with": ["["], "absent": "na"}} for i, f in enumerate(facts, 1)]},
        {"name": "source_integrity", "weight": 0.4, "leaves": [
            {"id": "m_citations", "kind": "machine", "check": "citations"},
            {"id": "m_sources_cited", "kind": "machine", "check": "sources_cited"},
            {"id": "m_support", "kind": "machine", "check": "citation_support"},
            {"id": "m_min_sources", "kind": "machine", "check": "min_cited_sources:3"}]},
    ]
    presentation = [
        {"name": "timestamp_navigation", "weight": 0.5, "leaves": [
            {"id": "m_timestamps", "kind": "machine", "check": "timestamps"},
            {"id": "m_min_timestamps", "kind": "machine", "check": "min_timestamps:4"},
            {"id": "m_browser", "kind": "machine", "check": "browser"}]},
        {"name": "structure", "weight": 0.5, "leaves": [
            {"id": "m_claims_cited", "kind": "machine", "check": "claims_cited"},
            {"id": "m_links", "kind": "machine", "check": "links"},
            {"id": "m_assets", "kind": "machine", "check": "assets"},
            {"id": "m_findings", "kind": "machine", "check": "min_findings:1"}]},
    ]
    dims = [("content", content), ("citation", citation), ("presentation", presentation)]
    return {"schema": SCHEMA, "task": f"{truth['world']}-{truth['seed']}", "dimensions": [
        {"name": name, "weight": WEIGHTS[name], "directions": [d for d in dirs if d["leaves"]]} for name, dirs in dims]}


def _unit_value(truth: dict, p: dict) -> str:
    pair = next((x for x in truth["pairs"] if x["param"] == p["key"]), None)
    return pair["video_value"] if pair else str(p["value"])


def fact_library(truth: dict, path: Path) -> Path:
    """Every known fact in its clearest form, as one undated Markdown document."""
    lines = ["# Fact library", ""]
    for p in truth["pairs"] + truth.get("library_only", []):
        subj, v, o = p["subject"], p["video_value"], p["source_value"]
        lines.append({
            "supports": f"The {subj} should be {v}; independent tests confirmed this value.",
            "contradicts": f"The {subj} should be {o}, according to the manufacturer.",
            "updates": f"Revised guidance now recommends a {subj} of {o}.",
            "explains": f"The {subj} matters because it decides how the result turns out.",
            "compares": f"For {p['other']} the {subj} is {o}, compared with {v} in this video.",
            "applies": f"The same {subj} can be applied to {p['other']}.",
        }[p["relation"]])
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def calibrate(folder: str | Path, *, seed: int = 0, library=None, judge: str = "rules", browser: bool = True,
              echo=print) -> dict:
    """Build the task, write R1/R2/R3, score them; returns the three scores and per-direction gaps."""
    from ..report import report
    from ..synth import report_cases
    from .evaluate import evaluate_task, make_judge

    folder = Path(folder)
    case = folder / "case"
    if case.exists():
        shutil.rmtree(case)
    from ..synth.clips import english_voice

    truth = report_cases.build(case, seed=seed, voice=english_voice())  # espeak measures espeak, as in the demo
    task_dir = folder / "tasks" / "calibration"
    task_dir.mkdir(parents=True, exist_ok=True)
    (task_dir / "rubric.json").write_text(json.dumps(task_rubric(truth), indent=1))
    (task_dir / "task.json").write_text(json.dumps({"video": str(case / "video.mp4"), "request": truth["request"]}))
    with_library = folder / "docs-with-library"
    if with_library.exists():
        shutil.rmtree(with_library)
    shutil.copytree(case / "docs", with_library)
    fact_library(truth, with_library / "fact_library.md")
    runs = {"R1 video-only": None, "R2 full research": case / "docs", "R3 with fact library": with_library}
    j = make_judge(judge)
    scores, dirs = {}, {}
    for label, docs in runs.items():
        out = folder / "reports" / label.split()[0] / "calibration"
        if out.exists():
            shutil.rmtree(out)
        report(case / "video.mp4", truth["request"], out=out, docs=docs, library=library, browser=browser)
        r = evaluate_task(task_dir / "rubric.json", out, j, browser=browser)
        scores[label] = r["score"]
        dirs[label] = {f"{d}/{n}": x["score"] for d, dd in r["dimensions"].items() for n, x in dd["directions"].items()}
    labels = list(runs)
    ordered = scores[labels[0]] < scores[labels[1]] < scores[labels[2]] and scores[labels[2]] - scores[labels[0]] > MARGIN
    echo("calibration (seed 000 §3.2): " + " < ".join(f"{k} {v:.1f}" for k, v in scores.items())
         + f" — {'ordered' if ordered else 'NOT ordered'} (margin R3 − R1 {scores[labels[2]] - scores[labels[0]]:.1f} "
           f"> {MARGIN:g} required)")
    gaps = {}
    for name in dirs[labels[2]]:
        row = [dirs[k].get(name) for k in labels]
        gaps[name] = row
        echo(f"  {name:<36} " + "  ".join("  n/a" if x is None else f"{x:5.1f}" for x in row))
    result = {"scores": scores, "ordered": ordered, "margin": MARGIN, "directions": gaps}
    (folder / "calibration.json").write_text(json.dumps(result, indent=1))
    return result
