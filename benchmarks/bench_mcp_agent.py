"""The video-report skill run through the MCP tools by a scripted agent, beside `vidsleuth report`,
on generated cases with known truth: checks passed, the Omni-ART rubric score (rules judge), found
and correctly related source-parameter pairs, spurious links, anchors covered, tool calls.

    python benchmarks/bench_mcp_agent.py                 # seeds 23-26 (never looked at before)
    python benchmarks/bench_mcp_agent.py --seeds 0 1 2 3

The agent is ``tests/test_mcp_agent.py``'s ``ReportAgent`` behind ``ScriptedServer`` (an LLM's
side written as rules: anchors are the spoken lines that state a number, every non-null relation
becomes a finding stating the anchor's value), talking to ``vidsleuth mcp`` over stdio. Both
systems share the deterministic relater and the evidence ranking; what differs is who picks the
anchors, writes the findings and repairs. Speech comes from a subtitle sidecar (no ASR), OCR off.
Writes ``benchmarks/results/bench_mcp_agent.json`` with the protocol beside the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))  # the tests package: the scripted agent and the server set-up


def one(seed: int, work: Path) -> list[dict]:
    from tests.mcp_support import _subtitles, run, server
    from tests.test_mcp_agent import ReportAgent, _drive

    from vidsleuth.library import IngestOptions
    from vidsleuth.report import report
    from vidsleuth.rubric.calibration import task_rubric
    from vidsleuth.rubric.evaluate import score_report
    from vidsleuth.synth import report_cases
    from vidsleuth.testing import ScriptedServer

    root = work / f"seed{seed}"
    truth = report_cases.build(root / "case", seed=seed)
    _subtitles(root / "case", truth)
    (root / "case" / "rubric.json").write_text(json.dumps(task_rubric(truth)), encoding="utf-8")
    t0 = time.perf_counter()
    report(root / "case" / "video.mp4", truth["request"], out=root / "pipeline", docs=root / "case" / "docs",
           library=root / ".lib", ingest_options=IngestOptions(asr=False, ocr=False))
    t1 = time.perf_counter()
    agent = ReportAgent(truth["request"])
    with ScriptedServer(agent) as srv:
        async def body(s):
            await _drive(s, srv.base_url, truth["request"])
            return (await s.call_tool("session_stats", {})).structured_content

        stats = run(server(root), body)
    t2 = time.perf_counter()
    rows = []
    for name, folder, secs in (("pipeline", root / "pipeline", t1 - t0), ("mcp-agent", root / "agent-report", t2 - t1)):
        d = report_cases.score(json.loads((folder / "report.json").read_text(encoding="utf-8")), truth)
        checks = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
        rows.append({"seed": seed, "system": name, "checks_passed": checks["passed"],
                     "rubric_score": score_report(folder, root / "case" / "rubric.json")["score"],
                     "pairs": d["pairs"], "found": d["found"], "correct": d["correct"], "spurious": d["spurious"],
                     "anchors_found": d["anchors_found"], "anchors_truth": d["anchors_truth"], "seconds": round(secs, 1),
                     "tool_calls": stats["calls"] if name == "mcp-agent" else None})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[23, 24, 25, 26])
    args = ap.parse_args()
    from vidsleuth import __version__

    work = Path(tempfile.mkdtemp(prefix="bench_mcp_agent-"))
    rows = []
    try:
        for seed in args.seeds:
            for r in one(seed, work):
                rows.append(r)
                print(json.dumps(r), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {}
    for name in ("pipeline", "mcp-agent"):
        mine = [r for r in rows if r["system"] == name]
        summary[name] = {"rubric_mean": round(sum(r["rubric_score"] for r in mine) / len(mine), 2),
                         "checks_passed": sum(r["checks_passed"] for r in mine), "reports": len(mine),
                         "found": sum(r["found"] for r in mine), "correct": sum(r["correct"] for r in mine),
                         "pairs": sum(r["pairs"] for r in mine), "spurious": sum(r["spurious"] for r in mine)}
    print(json.dumps(summary, indent=1))
    out = ROOT / "results" / "bench_mcp_agent.json"
    out.write_text(json.dumps({"protocol": {"vidsleuth": __version__, "seeds": args.seeds, "relater": "rules",
                                            "judge": "rules", "ingest": "subtitle sidecar, no ASR, no OCR",
                                            "python": platform.python_version()},
                               "summary": summary, "rows": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
