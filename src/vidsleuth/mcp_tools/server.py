"""``vidsleuth mcp``: the tools and resources on the official MCP SDK's ``MCPServer``, over stdio
(the default: a harness starts the server as a subprocess) or streamable HTTP on loopback."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import VidsleuthError
from .guard import Budgets, Guard, Roots, ok_result
from .results import SessionStats
from .tools import Options, Tools

INSTRUCTIONS = """vidsleuth: video research tools. Every path must lie inside the server's roots.
For a research report follow the video-report skill: timeline -> anchors -> gather_evidence ->
relate -> write findings with citations -> render_report -> check_report (repair, check again).
For a question over a video collection follow the video-qa skill: search -> grid/watch -> ask.
session_stats tells what this session has used of its budgets."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WRITES = {"render_report", "check_report"}  # write into a report folder inside the roots (never outside it)
OPEN_WORLD = {"ask", "gather_evidence", "check_report"}  # may reach model endpoints or the web


def _known_reports(tools: Tools, depth: int = 3) -> dict[str, Path]:
    """Report folders under the roots (a folder with report.json and report.html), plus those
    written or checked through the tools."""
    found = dict(tools.written)
    for root in tools.roots.dirs:
        for page in sorted(root.glob("/".join(["*"] * depth) + "/report.json"))[:200] + sorted(root.glob("*/report.json")):
            if (page.parent / "report.html").is_file():
                found.setdefault(page.parent.name, page.parent.resolve())
    return found


def _add_resources(server, tools: Tools) -> None:
    from ..library import Library

    def entries() -> list[dict]:
        """The library's timelines of videos inside the roots (the library may hold others)."""
        with Library(tools.opt.library) as lib:
            rows = [{**r, "file": lib.root / r["timeline"]} for r in lib.entries()]
        return [r for r in rows if tools.roots.inside(r["path"])]

    @server.resource("vidsleuth://timelines", name="timelines", mime_type="application/json",
                     description="the ingest library's timelines of videos inside the roots: content id, path, duration, uri")
    def timelines() -> str:
        return json.dumps([{"content_id": r["content_id"], "path": r["path"], "duration": r["duration"],
                            "uri": f"vidsleuth://timelines/{r['content_id']}"} for r in entries()], indent=1)

    @server.resource("vidsleuth://timelines/{content_id}", name="timeline", mime_type="application/json",
                     description="one timeline of the library (segments with start/end seconds)")
    def timeline(content_id: str) -> str:
        rows = [r for r in entries() if r["content_id"] == content_id]
        if not rows:
            raise VidsleuthError(f"no timeline with content id {content_id} for a video inside the roots")
        return rows[-1]["file"].read_text(encoding="utf-8")

    @server.resource("vidsleuth://reports", name="reports", mime_type="application/json",
                     description="report folders inside the roots, with their report and checks uris")
    def reports() -> str:
        return json.dumps([{"name": name, "folder": str(p), "report": f"vidsleuth://reports/{name}/report.json",
                            "checks": f"vidsleuth://reports/{name}/checks.json"
                            if (p / "checks.json").is_file() or name in tools.checks else None}
                           for name, p in sorted(_known_reports(tools).items())], indent=1)

    def _read(name: str, file: str) -> str:
        folder = _known_reports(tools).get(name)
        if folder is None or not (folder / file).is_file():
            raise VidsleuthError(f"no {file} for a report named {name} inside the roots")
        return (folder / file).read_text(encoding="utf-8")

    @server.resource("vidsleuth://reports/{name}/report.json", name="report", mime_type="application/json",
                     description="a written report's records (anchors, sources, evidence, findings)")
    def report_json(name: str) -> str:
        return _read(name, "report.json")

    @server.resource("vidsleuth://reports/{name}/checks.json", name="report checks", mime_type="application/json",
                     description="the last check of a report: every check's failures")
    def checks_json(name: str) -> str:
        if name in tools.checks:  # this server's last check (another layout's folder gets no file written)
            return json.dumps(tools.checks[name], ensure_ascii=False, indent=1)
        return _read(name, "checks.json")


def schema_line(tool: str, exc) -> str:
    """A pydantic ``ValidationError`` of a tool's arguments as the one line the CLI would print:
    each failing argument with what was expected (never the rejected value: it is the caller's)."""
    errors, parts = exc.errors(), []
    for err in errors[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
        parts.append(f"{where}: {err.get('msg', 'invalid').lower()}")
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return f"{tool}: bad arguments: {'; '.join(parts)}{more} (see the tool's input schema)"


def _server_class():
    """The SDK's ``MCPServer``, except that arguments failing a tool's schema come back as one
    line (the SDK returns pydantic's multi-line report)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class Server(MCPServer):
        async def call_tool(self, name, arguments, context=None):
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                if isinstance(exc.__cause__, ValidationError):
                    raise ToolError(schema_line(name, exc.__cause__)) from None
                raise

    return Server


def build_server(roots, *, budgets: Budgets = Budgets(), options: Options = Options()):
    """The MCP server object (not started): tools, resources, the session budget tool."""
    from .. import __version__

    guard = Guard(Roots.of(roots), budgets)
    tools = Tools(guard, options)
    server = _server_class()("vidsleuth", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    from mcp.types import ToolAnnotations

    for fn, model in tools.all():
        hints = ToolAnnotations(read_only_hint=fn.__name__ not in WRITES, destructive_hint=False,
                                open_world_hint=fn.__name__ in OPEN_WORLD)
        server.add_tool(guard.wrap(fn, model), name=fn.__name__, description=(fn.__doc__ or "").strip(), annotations=hints)

    def session_stats(ctx=None):
        """What this session has used: tool calls, seconds in tools, model tokens, refusals,
        errors, calls per tool, the budgets and what is left, and the session's trajectory."""
        return ok_result(guard.stats(ctx))

    server.add_tool(guard.wrap(session_stats, SessionStats), name="session_stats",
                    description=(session_stats.__doc__ or "").strip())
    _add_resources(server, tools)
    return server


def parse_http(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if host not in LOOPBACK:
        raise VidsleuthError(f"--http {value}: the server listens on loopback only (127.0.0.1, localhost or ::1)",
                             hint="put a reverse proxy with authentication in front of it for anything else")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise VidsleuthError(f"--http {value}: the port must be a number between 1 and 65535", hint="e.g. --http 127.0.0.1:8765")
    return host, int(port)


def serve(roots, *, http: str | None = None, budgets: Budgets = Budgets(), options: Options = Options()) -> None:
    """Run the server until the client goes away (stdio) or the process is stopped (HTTP)."""
    server = build_server(roots, budgets=budgets, options=options)
    if http is None:
        try:
            server.run("stdio")
        except* (BrokenPipeError, ConnectionResetError):
            pass  # the client went away while a reply was on its way: nobody is left to tell
        return
    host, port = parse_http(http)
    server.run("streamable-http", host=host, port=port)
