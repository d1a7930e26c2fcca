"""The ``vidsleuth`` command: thin verbs over the public functions of the same name.

How to add a verb (other helpers: read this):

1. Write the library function first (it validates, works and returns data; no printing).
2. In the group module that fits (``media``, ``models``, ``search``, ``agents``, ``report``,
   ``bench``, ``metrics``), add its options and one function decorated with ``@verb``::

       def _stats_args(p):
           p.add_argument("run", type=Path)

       @verb("trajectory stats", "what it does, one line", args=_stats_args, text=_stats_text)
       def _stats(args):
           return trajectory_stats(events_of(args.run))   # ONE library call, returns data

   ``text(data, args) -> str`` renders it for people; ``--json`` (added for you, see ``json=``)
   prints the data (or ``view(data, args)``) as JSON instead; ``status(data) -> (exit code,
   stderr line)`` says when a run that wrote its outputs still failed. Options are spelled as the
   keywords they set (``--workers`` sets ``workers``); an old spelling stays as ``deprecated()``.
   A verb name of two words (``bench browse``) is a subcommand of its first word.
3. A new group module is listed in ``_GROUPS`` below (imported once, which registers its verbs).

Errors print as one line naming the file and the problem, with a non-zero exit; ``--debug``
shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from .. import __version__, progress
from ..errors import VidsleuthError
from ..files import overwriting

# Verb-group modules, imported by ``build_parser`` (each registers its verbs with ``@verb``).
_GROUPS = ("media", "models", "search", "agents", "report", "bench", "metrics", "serve")

# The group registering the verbs that start with each word, so one verb imports only its group's
# libraries (start-up time); tests/test_cli_groups.py checks it against the registry.
_HEADS = {
    **dict.fromkeys(("probe", "frames", "grid", "ingest", "timeline", "demo"), "media"),
    **dict.fromkeys(("models", "chat"), "models"), **dict.fromkeys(("corpus", "index", "search", "memory"), "search"),
    **dict.fromkeys(("ask", "trace", "trajectory", "questions"), "agents"),
    **dict.fromkeys(("report", "rubric"), "report"),
    "bench": "bench", "metrics": "metrics", "mcp": "serve", "skill": "serve"}


def groups_for(argv: list[str]) -> tuple[str, ...]:
    """The verb groups a command line needs: its verb's, none for ``--version``, all for help
    or an unknown word (so the error lists every verb)."""
    words = [a for a in argv if not a.startswith("-")]
    if not words:
        return () if "--version" in argv and not {"-h", "--help"} & set(argv) else _GROUPS
    group = _HEADS.get(words[0])
    return (group,) if group else _GROUPS


def _no_args(p: argparse.ArgumentParser) -> None:  # a verb without options
    return None


def _ok(data: Any) -> tuple[int, str]:
    return 0, ""


@dataclass(frozen=True)
class Verb:
    name: str
    help: str
    add_args: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Any]
    text: Callable[[Any, argparse.Namespace], str] | None = None
    view: Callable[[Any, argparse.Namespace], Any] | None = None
    status: Callable[[Any], tuple[int, str]] = _ok
    json: bool = True


VERBS: dict[str, Verb] = {}


def verb(name: str, help: str, *, args=_no_args, text=None, view=None, status=_ok, json: bool = True):
    """Register the decorated function as the verb ``name`` (see the module docstring)."""

    def register(run):
        VERBS[name] = Verb(name, help, args, run, text, view, status, json and text is not None)
        return run

    return register


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def emit(v: Verb, args: argparse.Namespace, data: Any) -> int:
    """The one place a verb's data is printed: its text rendering, or JSON with ``--json``."""
    if v.text is None or getattr(args, "json", False):
        if data is not None:
            print_json(v.view(data, args) if v.view else data)
    else:
        text = v.text(data, args)
        if text:
            print(text)
    code, note = v.status(data)
    if note:
        print(note, file=sys.stderr)
    return code


def run_errors_status(errors: list[dict], missing: int, what: str) -> tuple[int, str]:
    """A run with failed items still writes its outputs, but exits 1 and says how to resume."""
    if not missing:
        return 0, ""
    first = errors[0]["error"] if errors else "unknown error"
    return 1, (f"vidsleuth: error: {missing} {what} got no answer (first: {first}); "
               "fix the cause and rerun the same command to resume")


class _Deprecated(argparse.Action):
    """An old option spelling: still works, warns once, hidden from ``--help``."""

    def __init__(self, option_strings, dest, new: str = "", **kw):
        self.new = new
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        warnings.warn(f"{option_string} is deprecated; use {self.new}", FutureWarning, stacklevel=2)
        setattr(namespace, self.dest, values)


def deprecated(p: argparse.ArgumentParser, old: str, new: str, dest: str, **kw) -> None:
    """Keep ``old`` working as a hidden alias of the option ``new`` (which sets ``dest``)."""
    p.add_argument(old, dest=dest, action=_Deprecated, new=new, default=argparse.SUPPRESS, **kw)


class JsonFormat(argparse.Action):
    """``--format text|json``: the same switch as ``--json``."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.json = values == "json"


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit 1, like every other error."""

    def error(self, message: str):  # noqa: D102
        self.exit(1, f"vidsleuth: error: {self.prog}: {message} (see `{self.prog} --help`)\n")


class _Verbs(argparse._SubParsersAction):
    """The verb chooser. A word that is a verb and also the first word of longer verbs
    (``search QUERY`` / ``search eval …``, ``report VIDEO`` / ``report check DIR``) cannot be one
    argparse parser with both a free positional and subcommands; the chooser looks one word ahead
    and takes the longer verb when the next word names it (as git does for its verbs)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.longer: dict[tuple[str, str], str] = {}

    def __call__(self, parser, namespace, values, option_string=None):
        name = self.longer.get((values[0], values[1])) if len(values) > 1 else None
        super().__call__(parser, namespace, [name, *values[2:]] if name else values, option_string)


def _add(sub, name: str, v: Verb) -> None:
    sp = sub.add_parser(name, help=v.help, description=v.help)
    v.add_args(sp)
    if v.json:
        sp.add_argument("--json", action="store_true", help="print JSON")
    if any(o in sp._option_string_actions for o in ("--out", "-o")):  # the one output-folder policy
        sp.add_argument("--overwrite", action="store_true",
                        help="write into an output folder (or over a file) that is not an earlier output of this verb")
    sp.set_defaults(_verb=v, json=False, overwrite=False)


def build_parser(groups: tuple[str, ...] = _GROUPS) -> argparse.ArgumentParser:
    """Verbs whose names have two words (``bench browse``, ``metrics qa``) are subcommands of
    their first word, each with only its own options. ``groups`` limits which verb groups are
    loaded (``groups_for``); their verbs are the ones the parser knows."""
    for group in groups:
        importlib.import_module(f"{__name__}.{group}")
    parser = _Parser(prog="vidsleuth", description="Agents that search, watch, ground and research video.")
    parser.add_argument("--version", action="version", version=f"vidsleuth {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--no-progress", action="store_true", help="never draw progress bars")
    parser.register("action", "verbs", _Verbs)
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=_Parser, action="verbs")
    groups: dict[str, argparse._SubParsersAction] = {}
    for v in VERBS.values():
        head, _, rest = v.name.partition(" ")
        if not rest:
            _add(sub, v.name, v)
        elif head in VERBS:  # `search eval` beside `search QUERY`
            sub.longer[(head, rest)] = v.name
            _add(sub, v.name, v)
        else:
            if head not in groups:
                names = ", ".join(w.name.split(" ", 1)[1] for w in VERBS.values() if w.name.startswith(head + " "))
                gp = sub.add_parser(head, help=f"{head} …: {names}", description=f"{head} verbs: {names}")
                groups[head] = gp.add_subparsers(dest="sub", metavar="WHAT", required=True, parser_class=_Parser)
            _add(groups[head], rest, v)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"vidsleuth: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    with warnings.catch_warnings():  # warnings (a deprecated option's too) as one line each, unless --debug
        shown, warnings.showwarning = warnings.showwarning, _show_warning
        argv = sys.argv[1:] if argv is None else argv
        args = build_parser(groups_for(argv)).parse_args(argv)
        if args.debug:
            warnings.showwarning = shown
        progress.enable(not args.no_progress)  # drawn only when stderr is a terminal
        return _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    try:
        with overwriting(args.overwrite):  # every output check of the verb follows --overwrite
            return emit(args._verb, args, args._verb.run(args))
    except VidsleuthError as exc:
        if args.debug:
            raise
        print(f"vidsleuth: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # `vidsleuth … | head`
        return 0
    except OSError as exc:  # e.g. an output folder that cannot be written
        if args.debug:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"vidsleuth: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("vidsleuth: interrupted; finished work is kept and a rerun resumes", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
