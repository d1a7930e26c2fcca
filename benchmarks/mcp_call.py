"""Call one tool of a running ``vidsleuth mcp --http`` server with the official MCP SDK client, from a shell.

An agent harness that can only run commands (a helper session measuring the skill route,
``benchmarks/agent_harness_prompt.md``) reaches the tools this way. Each call is its own MCP session.

    python benchmarks/mcp_call.py http://127.0.0.1:8765/mcp list
    python benchmarks/mcp_call.py http://127.0.0.1:8765/mcp list '{"name": "render_report"}'   # one tool's whole schema
    python benchmarks/mcp_call.py http://127.0.0.1:8765/mcp timeline '{"path": "task/video.mp4"}'
    python benchmarks/mcp_call.py http://127.0.0.1:8765/mcp render_report @records.json
    python benchmarks/mcp_call.py http://127.0.0.1:8765/mcp grid '{"path": "task/video.mp4"}' --images frames/

Prints the tool's text and its structured content as JSON; saves images under ``--images``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import sys
from pathlib import Path

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def call(url: str, tool: str, args: dict, images: Path | None) -> int:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            if tool == "list":  # every tool in short; with {"name": TOOL}, that tool's whole input schema ($defs too)
                tools = (await session.list_tools()).tools
                if args.get("name"):
                    chosen = [t for t in tools if t.name == args["name"]]
                    print(json.dumps(chosen[0].input_schema, indent=1) if chosen else f"no tool named {args['name']!r}")
                    return 0 if chosen else 2
                for t in tools:
                    print(t.name, "-", (t.description or "").split("\n")[0])
                    print("   args:", json.dumps(t.input_schema.get("properties", {}))[:600])
                print('(the whole schema of one tool, nested objects\' fields included: list \'{"name": "TOOL"}\')')
                return 0
            reply = await session.call_tool(tool, args)
            for n, c in enumerate(reply.content, 1):
                if c.type == "text":
                    print(c.text)
                elif c.type == "image" and images is not None:
                    images.mkdir(parents=True, exist_ok=True)
                    path = images / f"{tool}-{n}.{c.mime_type.split('/')[-1]}"
                    path.write_bytes(base64.b64decode(c.data))
                    print("image saved:", path)
            if reply.structured_content is not None:
                print("structured:", json.dumps(reply.structured_content, ensure_ascii=False))
            return 1 if reply.is_error else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("url", help="the server's endpoint, http://127.0.0.1:PORT/mcp")
    ap.add_argument("tool", help="a tool's name, or list")
    ap.add_argument("args", nargs="?", default="{}", help="the arguments as JSON, or @file.json")
    ap.add_argument("--images", type=Path, help="save the reply's images in this folder")
    a = ap.parse_args(argv)
    try:
        args = json.loads(Path(a.args[1:]).read_text() if a.args.startswith("@") else a.args)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"mcp_call: the arguments are not JSON ({exc}); pass a JSON object or @file.json", file=sys.stderr)
        return 2
    try:
        return asyncio.run(call(a.url, a.tool, args, a.images))
    except Exception as exc:  # noqa: BLE001 - a transport failure (no server, a reply over the client's limit) is one line
        leaf = exc
        while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:  # anyio wraps the cause in task groups
            leaf = leaf.exceptions[0]
        print(f"mcp_call: {a.tool} failed: {type(leaf).__name__}: {leaf}; is the server at {a.url} running, and is the "
              "reply small enough (fewer frames, a smaller max_side)?", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
