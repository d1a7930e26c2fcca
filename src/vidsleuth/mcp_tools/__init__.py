"""vidsleuth as an MCP server (the official Model Context Protocol SDK): the library's verbs as
tools any agent harness can call, with paths confined to the roots the server is started with,
per-session budgets, and errors as one-line tool errors. ``vidsleuth mcp --root DIR`` runs it.

The package is not named ``mcp`` so that ``import mcp`` always means the SDK."""

from .guard import Budgets, Roots
from .server import build_server, serve
from .tools import Options

__all__ = ["Budgets", "Options", "Roots", "build_server", "serve"]
