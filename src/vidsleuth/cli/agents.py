"""Verbs over the browsing agents: ask, trace, trajectory stats (and the agent options that
``bench browse`` shares)."""

from __future__ import annotations

from pathlib import Path

from ..browse.ask import ask
from ..browse.questions import build_questions
from ..browse.trace import load_trace, render
from ..limits import arg
from ..models import Models
from ..timecode import seconds_label
from . import verb

AGENTS = ["video-browser", "react"]


def agent_args(p, index_required: bool = True):
    p.add_argument("-i", "--index", type=Path, required=index_required, help="search index folder")
    p.add_argument("--corpus", type=Path, help="corpus.jsonl (default: the one the index was built from)")
    p.add_argument("--memory", type=Path, help="Translation Memory bank folder")
    p.add_argument("--model", help="endpoint for every agent role (default: config roles, else local)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--library", type=Path, help="ingest library for transcripts and on-screen text")
    p.add_argument("--allow-download", action="store_true", help="fetch videos that have a url but no local path (yt-dlp)")
    p.add_argument("--t-max", type=arg("t_max"), help="browsing loops (default 3; or [browse] t_max in the config)")
    p.add_argument("--search-k", type=arg("search_k"), help="candidates per search (default 10)")
    p.add_argument("--analyst-frames", type=arg("analyst_frames"), help="frames per selected video (default 128)")
    p.add_argument("--watcher", choices=["auto", "llm", "embed"], help="Watcher kind (default auto: by the endpoint's vision)")
    p.add_argument("--no-cache", dest="cache", action="store_false")


def agent_spec(args, judge: str | None = None) -> dict:
    """``open_browse``'s keywords as plain data (worker processes and Ray tasks rebuild from it)."""
    text = lambda p: str(p) if p is not None else None  # noqa: E731
    return {"index": text(args.index), "corpus": text(args.corpus), "config": text(args.config), "model": args.model,
            "judge": judge, "library": text(args.library), "memory": text(args.memory),
            "allow_download": args.allow_download, "cache": args.cache, "t_max": args.t_max,
            "search_k": args.search_k, "analyst_frames": args.analyst_frames, "watcher": args.watcher}


def _ask_args(p):
    p.add_argument("question")
    p.add_argument("--agent", choices=AGENTS, default="video-browser")
    p.add_argument("--trace", type=Path, help="write the trajectory JSON here")
    agent_args(p)


def _ask_text(asked, args) -> str:
    ans, cost = asked.answer, asked.cost
    conf = "unknown" if ans.confidence is None else f"{ans.confidence:.0%}"
    lines = [f"Answer: {ans.answer if ans.answer is not None else '(no parseable answer)'}  (confidence {conf})",
             f"Why: {ans.explanation}"]
    lines += [f"Answer's words found at: {vid} @ {seconds_label(a)}-{seconds_label(b)}  {what}"
              for vid, a, b, what in ans.evidence]
    if ans.selected:
        lines.append("Videos used: " + ", ".join(ans.selected))
    lines += [f"Unavailable: {vid}: {why}" for vid, why in ans.unavailable]
    t = ans.tokens()
    lines.append(f"Tokens: browse {t['browse']}, verify {t['verify']}"
                 + (f"; model calls {cost['model_calls']}, cost {cost['cost']:.4f}" if cost else ""))
    return "\n".join(lines)


@verb("ask", "answer a question from the videos of an index (Video-Browser or ReAct)", args=_ask_args,
      text=_ask_text, view=lambda asked, a: asked.to_dict())
def _ask(args):
    spec = agent_spec(args)
    return ask(args.question, spec.pop("index"), agent=args.agent, trace=args.trace, **spec)


@verb("trace", "print a saved agent trajectory readably", args=lambda p: p.add_argument("file", type=Path),
      text=lambda ans, a: render(ans), view=lambda ans, a: ans.to_dict())
def _trace(args):
    return load_trace(args.file)


def _trajectory_args(p):
    p.add_argument("run", type=Path, metavar="RUN", help="a report folder, a browse trace (.json) or a JSONL of events")


@verb("trajectory stats", "steps, tool errors, tokens, time and the interleaving rule (seed 000 App. F.7)",
      args=_trajectory_args, text=lambda stats, a: "  ".join(f"{k} {v}" for k, v in stats.items()))
def _trajectory_stats(args):
    from ..rubric.stats import (  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
        events_of,
        trajectory_stats,
    )

    return trajectory_stats(events_of(args.run))


def _questions_build_args(p):
    p.add_argument("--corpus", type=Path, required=True, help="corpus.jsonl of the collection")
    p.add_argument("--library", type=Path, required=True, help="ingest library holding the videos' timelines")
    p.add_argument("--out", type=Path, required=True, help="output folder (resumes an earlier build)")
    p.add_argument("-n", type=arg("k", "-n"), help="seed videos to draw (default: all)")
    p.add_argument("--seed", type=arg("seed", "--seed"), default=0, help="draw order seed")
    p.add_argument("--model", help="endpoint that writes and re-answers the questions (default: config roles, else local)")
    p.add_argument("--config", type=Path, help="model config TOML")


def _questions_build_text(m: dict, args) -> str:
    f = m["filters"]
    return (f"{m['kept']} of {m['made']} questions kept (L1 {m['kept_by_level']['L1']}, L2 {m['kept_by_level']['L2']}); "
            f"passing each filter: answer in the video {f['passed_grounded']}, no leak {f['passed_no_leak']}, "
            f"paraphrase re-derives it {f['passed_paraphrase']}, a query finds the video {f['passed_bm25']}; "
            f"dropped: {m['dropped'] or 'none'}; {m['out']}/questions.jsonl (the train split `memory build` reads)")


@verb("questions build", "training questions from a collection (seed 001 App. A.3 reverse construction)",
      args=_questions_build_args, text=_questions_build_text,
      status=lambda m: (1, f"vidsleuth: error: {m['missing']} videos got no question; rerun to resume")
      if m["missing"] else (0, ""))
def _questions_build(args):
    models = Models(args.config, overrides={"default": args.model} if args.model else {})
    return build_questions(args.corpus, args.library, models, args.out, n=args.n, seed=args.seed)
