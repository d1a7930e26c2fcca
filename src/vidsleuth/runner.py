"""One way to run batch work: map a function over items into the run store.

Every benchmark (browse, compass, and the ones to come) and every batch job used to carry its own
loop: threads in one, ``asyncio.gather`` in another, a resume loop in a third. ``map_items`` is
the one loop: it skips items the store already holds (a killed run resumes without repeating
them), runs the rest on a thread pool, retries a failing item up to ``retries`` times, stores each
result the moment it is ready, records what still failed without stopping the others, and shows
progress. Failed items are not stored, so rerunning the same command retries exactly those.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .errors import ArgumentError, VidsleuthError


@dataclass(frozen=True)
class Failure:
    item_id: str
    error: str
    attempts: int


@dataclass(frozen=True)
class MapResult:
    done: dict[str, Any]  # item id -> stored result (earlier runs' results included)
    failures: tuple[Failure, ...] = ()
    computed: int = 0  # results computed in this call (the rest came from the store)
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    def errors(self) -> list[dict]:
        return [{"id": f.item_id, "error": f.error, "attempts": f.attempts} for f in self.failures]


def map_items(fn: Callable[[Any], Any], items: Sequence[tuple[str, Any]], *, store, run_id: int, workers: int = 1,
              retries: int = 0, label: str = "items", retry_on: tuple[type[BaseException], ...] = (VidsleuthError,)) -> MapResult:
    """Run ``fn(payload)`` for every ``(item_id, payload)`` not yet in the store; returns all
    results. ``fn`` raising one of ``retry_on`` is retried, then recorded as a failure."""
    from .progress import task

    if workers < 1:
        raise ArgumentError(f"workers must be at least 1, not {workers}")
    if retries < 0:
        raise ArgumentError(f"retries must be 0 or more, not {retries}")
    ids = [i for i, _ in items]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise ArgumentError(f"item id {dup!r} appears twice: results are stored by id")
    done = store.items(run_id)
    todo = [(i, x) for i, x in items if i not in done]
    failures: list[Failure] = []
    t0 = time.perf_counter()

    def one(item_id: str, payload: Any):
        last = ""
        for attempt in range(1, retries + 2):
            try:
                result = fn(payload)
            except retry_on as exc:
                last = str(exc)
                continue
            store.save_item(run_id, item_id, result)
            return item_id, result, attempt, ""
        return item_id, None, retries + 1, last

    computed = 0
    with task(label, total=len(items)) as bar:
        bar.advance(len(items) - len(todo))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(one, i, x) for i, x in todo]
            for fut in as_completed(futures):
                item_id, result, attempts, error = fut.result()
                if error:
                    failures.append(Failure(item_id, error, attempts))
                else:
                    done[item_id] = result
                    computed += 1
                bar.advance()
    order = {i: k for k, i in enumerate(ids)}
    failures.sort(key=lambda f: order[f.item_id])
    return MapResult(done, tuple(failures), computed, time.perf_counter() - t0)
