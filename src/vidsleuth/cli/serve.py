"""Verbs that put vidsleuth in an agent harness: ``mcp`` (the MCP server) and ``skill install``
(the agent skills where a harness reads them)."""

from __future__ import annotations

from pathlib import Path

from ..limits import arg
from ..skill import install
from . import verb


def _mcp_args(p):
    p.add_argument("--root", action="append", type=Path, required=True, metavar="DIR",
                   help="a folder the tools may read and write (repeatable); every other path is refused")
    p.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp, loopback only "
                                                       "(default: stdio)")
    p.add_argument("--max-calls", type=arg("calls", "--max-calls"), default=0, help="tool calls per session (default 0: no limit)")
    p.add_argument("--max-seconds", type=arg("session_seconds", "--max-seconds"), default=0.0, help="seconds spent in tools per session (0: no limit)")
    p.add_argument("--max-tokens", type=arg("session_tokens", "--max-tokens"), default=0, help="model tokens per session (0: no limit)")
    p.add_argument("--library", type=Path, help="ingest library folder (default: the user cache dir)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--model", help="endpoint for ask's agent roles and relate (default: the config's roles, rules for relate)")
    p.add_argument("--no-asr", dest="asr", action="store_false", help="no speech recognition (subtitles only)")
    p.add_argument("--no-ocr", dest="ocr", action="store_false", help="no on-screen text recognition")
    p.add_argument("--language", choices=["en", "zh", "auto"], default="en",
                   help="the videos' speech language for ASR (default en; a tool call may name its own)")
    p.add_argument("--web-search-url", default="", help="SearXNG-compatible JSON endpoint: enables gather_evidence web=true")


@verb("mcp", "serve vidsleuth's tools to agent harnesses over the Model Context Protocol (stdio or HTTP)", args=_mcp_args)
def _mcp(args):
    from ..mcp_tools import Budgets, Options, serve  # the MCP SDK: imported when serving, not on every verb

    options = Options(library=str(args.library) if args.library else None, config=str(args.config) if args.config else None,
                      model=args.model, asr=args.asr, ocr=args.ocr, language=args.language,
                      web_search_url=args.web_search_url)
    serve(args.root, http=args.http, budgets=Budgets(args.max_calls, args.max_seconds, args.max_tokens), options=options)


def _install_args(p):
    p.add_argument("dest", type=Path, metavar="DIR", help="where the harness reads skills, e.g. .claude/skills")
    p.add_argument("--only", action="append", metavar="NAME", help="only this skill (repeatable): video-report, video-qa")
    p.add_argument("--overwrite", action="store_true", help="replace files that exist with other content")


def _install_text(done: list[dict], args) -> str:
    counts = {s: sum(d["state"] == s for d in done) for s in ("written", "replaced", "unchanged")}
    return f"{args.dest}: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n) + f" ({len(done)} files)"


@verb("skill install", "copy the agent skills (video-report, video-qa) into a harness's skills folder",
      args=_install_args, text=_install_text)
def _skill_install(args):
    return install(args.dest, overwrite=args.overwrite, only=args.only)
