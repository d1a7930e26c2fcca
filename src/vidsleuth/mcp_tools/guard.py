"""What stands between a caller and the library: the roots a path must lie in, the session's
budgets, and the one way a failure reaches the caller (an MCP tool error carrying the same one
line the CLI prints; never a traceback, never a key).

A tool is a small function over the library; ``Guard.wrap`` turns it into an MCP tool whose
argument schema is the function's signature and whose structured result is validated against its
pydantic result model (``Annotated[CallToolResult, Model]``)."""

from __future__ import annotations

import functools
import inspect
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Callable

from ..errors import VidsleuthError

log = logging.getLogger("vidsleuth.mcp")
FREE_TOOLS = {"session_stats"}  # always answer, even when the budget is spent


class OutsideRoots(VidsleuthError):
    """A path resolves outside every root the server was started with."""


class BudgetSpent(VidsleuthError):
    """The session has used up one of its budgets."""


@dataclass(frozen=True)
class Roots:
    """Folders a tool may read from or write into; symbolic links are resolved before the test."""

    dirs: tuple[Path, ...]

    @classmethod
    def of(cls, dirs) -> "Roots":
        resolved = []
        for d in dirs or ():
            p = Path(d).expanduser().resolve()
            if not p.is_dir():
                raise VidsleuthError("a --root must be an existing folder", path=d)
            resolved.append(p)
        if not resolved:
            raise VidsleuthError("the server needs at least one --root DIR", hint="the tools read and write only inside it")
        return cls(tuple(resolved))

    def path(self, value: str | Path, what: str = "path") -> Path:
        """``value`` resolved (relative to the first root); refused when it lies outside the roots."""
        raw = Path(str(value)).expanduser()
        p = (raw if raw.is_absolute() else self.dirs[0] / raw).resolve()
        if not any(p == r or p.is_relative_to(r) for r in self.dirs):
            raise OutsideRoots(f"{what} is outside the server's roots", path=value,
                               hint="start `vidsleuth mcp` with --root DIR covering it; nothing was read")
        return p

    def inside(self, value) -> bool:
        try:
            self.path(value)
            return True
        except OutsideRoots:
            return False

    def maybe(self, value, what: str = "path") -> Path | None:
        return None if value in (None, "") else self.path(value, what)


@dataclass(frozen=True)
class Budgets:
    """Per-session limits (0 = none): tool calls, seconds spent in tools, model tokens."""

    calls: int = 0
    seconds: float = 0.0
    tokens: int = 0

    def __post_init__(self):
        from ..errors import ArgumentError

        if min(self.calls, self.seconds, self.tokens) < 0:
            raise ArgumentError("--max-calls, --max-seconds and --max-tokens must be 0 (no limit) or more")


@dataclass
class Session:
    calls: int = 0
    seconds: float = 0.0
    tokens: int = 0
    refused: int = 0
    errors: int = 0
    per_tool: dict = field(default_factory=dict)
    events: list = field(default_factory=list)  # trajectory events (rubric.stats format)


EVENT_TYPE = {"search": "search", "gather_evidence": "search", "ask": "search", "timeline": "read", "watch": "read",
              "frames": "read", "grid": "read", "probe": "read", "anchors": "model", "relate": "model",
              "render_report": "write", "check_report": "check", "score_report": "check"}


def error_result(message: str):
    from mcp.types import CallToolResult, TextContent

    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def ok_result(data: dict, images: list | None = None, text: str | None = None):
    """Structured content plus its text form (for clients that read only text) and any images."""
    from mcp.types import CallToolResult, TextContent

    content = [TextContent(type="text", text=text if text is not None else json.dumps(data, ensure_ascii=False))]
    return CallToolResult(content=content + list(images or ()), structured_content=data)


def one_line(exc: BaseException) -> str:
    """The message the CLI prints for ``exc`` (without its ``vidsleuth: error:`` prefix), with any
    credential masked (errors are redacted where they are made; this is the last gate)."""
    from ..errors import redact

    if isinstance(exc, VidsleuthError):
        return redact(str(exc))
    if isinstance(exc, OSError):
        return redact(f"{exc.filename}: {exc.strerror or exc}" if exc.filename else str(exc.strerror or exc))
    return f"internal error ({type(exc).__name__}); the server's log has the details"


class Guard:
    """Roots and budgets of one server. A stdio server serves one session; over streamable HTTP
    sessions are told apart by their ``Mcp-Session-Id`` (stateless HTTP would share one)."""

    def __init__(self, roots: Roots, budgets: Budgets = Budgets()):
        self.roots, self.budgets = roots, budgets
        self._sessions: dict[object, Session] = {}
        self._lock = threading.Lock()

    def session(self, ctx=None) -> Session:
        headers = (getattr(ctx, "headers", None) or {}) if ctx is not None else {}
        key = headers.get("mcp-session-id") or "stdio"  # stdio: one process, one session
        with self._lock:
            return self._sessions.setdefault(key, Session())

    def _over(self, s: Session) -> str:
        b = self.budgets
        if b.calls and s.calls >= b.calls:
            return f"{s.calls} of {b.calls} tool calls used"
        if b.seconds and s.seconds >= b.seconds:
            return f"{s.seconds:.1f} of {b.seconds:g} tool seconds used"
        if b.tokens and s.tokens >= b.tokens:
            return f"{s.tokens} of {b.tokens} model tokens used"
        return ""

    def stats(self, ctx=None) -> dict:
        from ..rubric.stats import trajectory_stats

        s = self.session(ctx)
        b = self.budgets
        return {"calls": s.calls, "seconds": round(s.seconds, 3), "tokens": s.tokens, "refused": s.refused,
                "errors": s.errors, "per_tool": dict(s.per_tool),
                "budgets": {"calls": b.calls, "seconds": b.seconds, "tokens": b.tokens},
                "left": {"calls": max(0, b.calls - s.calls) if b.calls else None,
                         "seconds": round(max(0.0, b.seconds - s.seconds), 3) if b.seconds else None,
                         "tokens": max(0, b.tokens - s.tokens) if b.tokens else None},
                "trajectory": trajectory_stats(s.events) if s.events else None}

    def run(self, name: str, fn: Callable, kwargs: dict, ctx=None):
        """Call ``fn``; count it against the session; turn every failure into a tool error. A
        function with a ``ctx`` parameter gets the request context (``session_stats`` does)."""
        s = self.session(ctx)
        if name not in FREE_TOOLS:
            with self._lock:
                over = self._over(s)
                if over:
                    s.refused += 1
                    return error_result(f"session budget spent: {over}; the call to {name} was refused "
                                        "(start a new session, or the server with larger --max-calls/--max-seconds/--max-tokens)")
                s.calls += 1
                s.per_tool[name] = s.per_tool.get(name, 0) + 1
        t0 = time.perf_counter()
        try:
            out = fn(**kwargs, ctx=ctx) if "ctx" in inspect.signature(fn).parameters else fn(**kwargs)
            failed = False
        except Exception as exc:  # noqa: BLE001 - every failure becomes one line for the caller
            if not isinstance(exc, (VidsleuthError, OSError)):
                log.warning("tool %s failed", name, exc_info=True)
            out, failed = error_result(one_line(exc)), True
        dt = time.perf_counter() - t0
        if name in FREE_TOOLS:
            return out
        tokens = int((out.structured_content or {}).get("tokens", 0) or 0) if not failed else 0
        with self._lock:
            s.seconds += dt
            s.tokens += tokens
            s.errors += int(failed)
            s.events.append({"type": EVENT_TYPE.get(name, "tool"), "tool": name, "error": failed,
                             "tokens_in": tokens, "tokens_out": 0, "seconds": round(dt, 3)})
        return out

    def wrap(self, fn: Callable, result_model) -> Callable:
        """``fn`` as an MCP tool function: same name, doc and arguments, plus the request context
        (for the session), returning ``Annotated[CallToolResult, result_model]``."""
        from mcp.server.mcpserver import Context
        from mcp.types import CallToolResult

        sig = inspect.signature(fn, eval_str=True)

        @functools.wraps(fn)
        def tool(ctx: Context, **kwargs: Any):
            return self.run(fn.__name__, fn, kwargs, ctx)

        params = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)]
        params += [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in sig.parameters.values() if p.name != "ctx"]
        ret = Annotated[CallToolResult, result_model]
        tool.__signature__ = sig.replace(parameters=params, return_annotation=ret)
        tool.__annotations__ = {p.name: p.annotation for p in params} | {"return": ret}
        del tool.__wrapped__  # the SDK reads the signature and annotations above, not the inner function's
        return tool
