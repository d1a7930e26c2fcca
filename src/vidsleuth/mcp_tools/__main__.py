"""``python -m vidsleuth.mcp_tools`` = ``vidsleuth mcp``: the options and the one call they make."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", action="append", type=Path, required=True, metavar="DIR",
                   help="a folder the tools may read and write (repeatable); every other path is refused")
    p.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP on loopback (default: stdio)")
    p.add_argument("--max-calls", type=int, default=0, help="tool calls per session (default 0: no limit)")
    p.add_argument("--max-seconds", type=float, default=0.0, help="seconds spent in tools per session (0: no limit)")
    p.add_argument("--max-tokens", type=int, default=0, help="model tokens per session (0: no limit)")
    p.add_argument("--library", type=Path, help="ingest library folder (default: the user cache dir)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--model", help="endpoint for the agent roles, relations and writing (default: config roles)")
    p.add_argument("--no-asr", action="store_true", help="no speech recognition (subtitles only)")
    p.add_argument("--no-ocr", action="store_true", help="no on-screen text recognition")
    p.add_argument("--web-search-url", default="", help="SearXNG-compatible JSON endpoint for gather_evidence web=true")


def run(args: argparse.Namespace) -> int:
    from ..errors import ArgumentError
    from .guard import Budgets
    from .server import serve
    from .tools import Options

    if min(args.max_calls, args.max_seconds, args.max_tokens) < 0:
        raise ArgumentError("--max-calls, --max-seconds and --max-tokens must be 0 (no limit) or more")
    options = Options(library=str(args.library) if args.library else None, config=str(args.config) if args.config else None,
                      model=args.model, asr=not args.no_asr, ocr=not args.no_ocr, web_search_url=args.web_search_url)
    serve(args.root, http=args.http, budgets=Budgets(args.max_calls, args.max_seconds, args.max_tokens), options=options)
    return 0


def main(argv: list[str] | None = None) -> int:
    from ..errors import VidsleuthError

    parser = argparse.ArgumentParser(prog="vidsleuth mcp", description="vidsleuth's tools as an MCP server")
    add_args(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except VidsleuthError as exc:
        print(f"vidsleuth: error: {exc}", file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
