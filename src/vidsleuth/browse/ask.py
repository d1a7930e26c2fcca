"""``ask``: one question answered from the videos of an index, by the Video-Browser or ReAct.

With a ``trace`` path the trajectory is saved there and the model calls are recorded in a run
store beside it (``TRACE.runs.sqlite``), so the answer's cost is known and a rerun is cached."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..store import RunStore
from .setup import open_browse
from .trace import Answer


@dataclass(frozen=True)
class Asked:
    answer: Answer
    cost: dict | None  # the run store's totals (model calls, tokens, cost); None without a trace

    def to_dict(self) -> dict:
        return {**self.answer.to_dict(), "cost": self.cost}


def trace_store(trace: str | Path) -> Path:
    """Where the model calls of a traced ``ask`` are recorded."""
    return Path(trace).with_suffix(".runs.sqlite")


def ask(question: str, index: str | Path, *, agent: str = "video-browser", trace: str | Path | None = None,
        **setup) -> Asked:
    """Answer ``question`` with ``agent`` over ``index``; ``setup`` holds ``open_browse``'s
    keywords (corpus, config, model, library, memory, allow_download, cache, t_max, …)."""
    from ..limits import nonempty

    nonempty(question, option="QUESTION", what="question")  # an empty question is a mistake, not a run
    browse = open_browse(index, **setup)
    store = RunStore(trace_store(trace)) if trace else None
    run_id = store.start_run("ask", {"question": question}) if store is not None else None
    answer = browse.agent(agent, browse.models.bind(store, run_id)).run(question)
    if trace:
        answer.save(trace)
    return Asked(answer, store.summary(run_id)["total"] if store is not None else None)
