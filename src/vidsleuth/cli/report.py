"""Verbs over research reports and their rubrics: report, report check, rubric validate."""

from __future__ import annotations

import sys
from pathlib import Path

from ..config import load_report_config
from ..limits import arg
from . import verb


def _report_args(p):
    p.add_argument("video", type=Path, metavar="VIDEO")
    p.add_argument("--request", required=True, help="what the report is for (the user's request)")
    p.add_argument("--docs", type=Path, help="a folder of documents to research (HTML, Markdown, text, PDF)")
    p.add_argument("--follow-links", action="store_true",
                   help="read symbolic links in --docs (by default they are skipped and counted: nothing outside is read)")
    p.add_argument("-i", "--index", type=Path, help="a search index of related videos (`vidsleuth index build`)")
    p.add_argument("--web", action="store_true", help="also search the live web ([report] web_search_url); off by default")
    p.add_argument("--model", help="endpoint that relates evidence, writes and judges (default: the deterministic rules)")
    p.add_argument("--relater", choices=("rules", "model", "judge"),
                   help="who decides each evidence relation: rules (deterministic), model (the endpoint decides every "
                        "candidate) or judge (the rules decide, the endpoint judges their borderline cases); default: "
                        "model with --model, else rules")
    p.add_argument("--relater-model", metavar="ENDPOINT",
                   help="endpoint for --relater model|judge (default: --model, else local-1.5b when installed, else local)")
    p.add_argument("--config", type=Path, help="config file ([models], [roles], [report])")
    p.add_argument("--library", type=Path, help="ingest library folder")
    p.add_argument("--date", help="the video's publication date (YYYY-MM-DD) when its file does not say")
    p.add_argument("--language", choices=("en", "zh", "auto"),
                   help="the video's spoken language, passed to ingest (auto: detected); a Chinese request gets a Chinese "
                        "report (default: the ingest default, English)")
    p.add_argument("--max-anchors", type=arg("anchors"), help="research anchors at most (default 8)")
    p.add_argument("--sources-per-anchor", type=arg("per_anchor"), help="evidence records per anchor at most (default 3)")
    p.add_argument("--min-sources", type=arg("budget"), help="budget: external sources at least (default 3)")
    p.add_argument("--min-documents", type=arg("budget"), help="budget: documents at least (default 1)")
    p.add_argument("--min-related-videos", type=arg("budget"), help="budget: related videos at least (default 0)")
    p.add_argument("--min-sources-per-anchor", type=arg("budget"), help="budget: cited sources per anchor at least (default 1)")
    p.add_argument("--repair-rounds", type=arg("budget"), help="check-and-repair rounds (default 2)")
    p.add_argument("--no-browser", dest="browser", action="store_false", help="skip the Chromium check (it runs by default)")
    p.add_argument("--out", type=Path, required=True, help="output folder (new, empty, or an earlier report)")


def _report_text(result: dict, args) -> str:
    failed = {k: v for k, v in result["checks"].items() if v}
    verdict = "passed" if result["passed"] else "FAILED: " + ", ".join(f"{k} ({len(v)})" for k, v in failed.items())
    return (f"{result['anchors']} anchors, {result['evidence']} evidence records from {result['sources']} sources; "
            f"checks {verdict}\n{result['report']}")


def _passed(result: dict) -> tuple[int, str]:
    return (0 if result["passed"] else 2), ""


@verb("report", "write an interactive, validated research report anchored on a video (`report check DIR` re-checks one)",
      args=_report_args, text=_report_text, status=_passed)
def _report(args):
    from ..report import (
        report,  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
    )

    return report(args.video, args.request, out=args.out, docs=args.docs, index=args.index, web=args.web,
                  model=args.model, config=args.config, library=args.library, date=args.date, browser=args.browser,
                  follow_links=args.follow_links, language=args.language, echo=lambda m: print(m, file=sys.stderr),
                  relater=args.relater, relater_model=args.relater_model,
                  settings=load_report_config(args.config, max_anchors=args.max_anchors,
                                              sources_per_anchor=args.sources_per_anchor, min_sources=args.min_sources,
                                              min_documents=args.min_documents,
                                              min_related_videos=args.min_related_videos,
                                              min_sources_per_anchor=args.min_sources_per_anchor,
                                              repair_rounds=args.repair_rounds))


def _check_args(p):
    p.add_argument("folder", type=Path, metavar="DIR")
    p.add_argument("--model", help="judge endpoint for citation support (default: the deterministic relater)")
    p.add_argument("--config", type=Path, help="config file")
    p.add_argument("--no-browser", dest="browser", action="store_false", help="skip the Chromium check")
    p.add_argument("--repair", type=arg("budget"), metavar="ROUNDS", default=0,
                   help="repair what fails, up to ROUNDS rounds, and rewrite the report (default: only check)")


def _check_text(result: dict, args) -> str:
    lines = []
    for name, failures in result["checks"].items():
        lines.append(f"{'ok  ' if not failures else 'FAIL'} {name}" + (f" ({len(failures)})" if failures else ""))
        lines += [f"       {f['where']}: {f['message']}" for f in failures[:10]]
    return "\n".join(lines + ["passed" if result["passed"] else "failed"])


@verb("report check", "check a written report: timestamps, citations, support, assets, links, budgets, browser",
      args=_check_args, text=_check_text, status=_passed)
def _report_check(args):
    from ..report.recheck import (
        recheck,  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
    )

    return recheck(args.folder, model=args.model, config=args.config, browser=args.browser, repair=args.repair)


def _rubric_text(r: dict, args) -> str:
    if not r["valid"]:
        return ""
    return (f"{r['file']}: valid ({r['dimensions']} dimensions, {r['directions']} directions, {r['leaves']} leaves, "
            f"{r['gates']} gates)")


@verb("rubric validate", "check an Omni-ART rubric tree; every problem is named by its node path",
      args=lambda p: p.add_argument("file", type=Path, metavar="FILE"), text=_rubric_text,
      status=lambda r: (0, "") if r["valid"] else (1, "\n".join(f"{r['file']}: {line}" for line in r["problems"])))
def _rubric_validate(args):
    from ..rubric.schema import (
        validate_rubric,  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
    )

    return validate_rubric(args.file)
