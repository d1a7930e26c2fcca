"""One way to run batch work: map a function over items into the run store.

Every benchmark (browse, compass, and the ones to come) and every batch job used to carry its own
loop: threads in one, ``asyncio.gather`` in another, a resume loop in a third. ``map_items`` is
the one loop: it skips items the store already holds (a killed run resumes without repeating
them), runs the rest on an executor, retries a failing item up to ``retries`` times, stores each
result the moment it is ready (only the calling process writes the store, so an item is stored
once), records what still failed without stopping the others, and shows progress. Failed items
are not stored, so rerunning the same command retries exactly those.

Executors (a registry): ``threads`` (model-bound work: the default), ``local`` (a process pool sized
to the machine: CPU-bound work such as ingest), ``ray`` (Ray tasks on a local instance or, with
``address``, a cluster; ``pip install 'vidsleuth[ray]'``). For ``local`` and ``ray`` the function and
payloads must be picklable (module-level functions, plain data). A Ray worker that dies is
recovered by Ray's task retries; the item is stored once, when its result arrives.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .errors import ArgumentError, VidsleuthError, redact


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


def _attempts(fn, payload, retries: int, retry_on) -> tuple[Any, int, str]:
    """(result, attempts, error): runs in the worker, so retries cost no round trip."""
    last = ""
    for attempt in range(1, retries + 2):
        try:
            return fn(payload), attempt, ""
        except retry_on as exc:
            last = str(exc)
    return None, retries + 1, last


CONNECT_TIMEOUT = 30.0  # seconds to reach a Ray cluster given with --address


def check_address(address: str, timeout: float = 5.0) -> tuple[str, int] | None:
    """(host, port) of a Ray ``--address`` that answers, or an ArgumentError in one line: the
    port is tried first, so a dead address fails in seconds instead of hanging ``ray.init``.
    ``auto`` (a cluster on this machine, found by Ray) is not checked here."""
    import socket
    from urllib.parse import urlsplit

    if address == "auto":
        return None
    parts = urlsplit(address if "://" in address else f"ray://{address}")
    try:
        host, port = parts.hostname, parts.port or (10001 if address.startswith("ray://") else 6379)
    except ValueError:
        host = port = None
    if not host or not port:
        raise ArgumentError(f"--address {address!r} is not HOST:PORT", hint="give the head node's address, e.g. 10.0.0.5:6379")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise ArgumentError(f"--address {address}: nothing answers there ({exc.strerror or type(exc).__name__})",
                            hint="is the Ray head running (`ray start --head`)? check host and port") from None
    return host, port


def probe_ray(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Connect to ``address`` once in a child process that is killed at the deadline: ``ray.init``
    blocks in C++ on an address that accepts connections but is not a Ray head, where no signal
    or thread can stop it. One line on failure."""
    import subprocess
    import sys

    code = "import sys, ray; ray.init(address=sys.argv[1], logging_level='ERROR', log_to_driver=False); ray.shutdown()"
    try:
        done = subprocess.run([sys.executable, "-c", code, address], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ArgumentError(f"--address {address}: Ray did not connect within {timeout:g} s",
                            hint="is that a Ray head node (and the same Ray version)?") from None
    if done.returncode != 0:
        last = next((ln for ln in reversed(done.stderr.strip().splitlines()) if ln.strip()), "no detail")
        raise ArgumentError(f"--address {address}: Ray could not connect ({last[:200]})", hint="see `ray status` there")


def _ray_init(ray, address: str | None, workers: int) -> None:
    """``ray.init``; with ``address``, only after the port answers and a probe connected in time."""
    if address:  # checked even when Ray is already up in this process: a dead address is an error
        check_address(address)
    if ray.is_initialized():
        return
    if address:
        probe_ray(address)
    kw = {"address": address} if address else {"num_cpus": workers, "include_dashboard": False}
    ray.init(ignore_reinit_error=True, log_to_driver=False, logging_level="ERROR", **kw)


def _ray_run(fn, todo, workers: int, retries: int, retry_on, address: str | None, on_done) -> None:
    from .errors import require

    ray = require("ray", "ray")
    _ray_init(ray, address, workers)
    remote = ray.remote(max_retries=3, retry_exceptions=False)(_attempts)
    pending = {remote.remote(fn, payload, retries, retry_on): item_id for item_id, payload in todo}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            item_id = pending.pop(ref)
            try:
                result, attempts, error = ray.get(ref)
            except Exception as exc:  # a task that failed in Ray itself (worker lost beyond retries)
                result, attempts, error = None, 4, f"ray: {type(exc).__name__}: {exc}"
            on_done(item_id, result, attempts, error)


EXECUTORS = ("threads", "local", "ray")


def map_items(fn: Callable[[Any], Any], items: Sequence[tuple[str, Any]], *, store, run_id: int, workers: int = 1,
              retries: int = 0, label: str = "items", retry_on: tuple[type[BaseException], ...] = (VidsleuthError,),
              executor: str = "threads", address: str | None = None) -> MapResult:
    """Run ``fn(payload)`` for every ``(item_id, payload)`` not yet in the store; returns all
    results. ``fn`` raising one of ``retry_on`` is retried, then recorded as a failure."""
    from .progress import task

    if executor not in EXECUTORS:
        from .config import did_you_mean

        raise ArgumentError(f"unknown executor {executor!r}" + did_you_mean(executor, EXECUTORS),
                            hint=f"choose {', '.join(EXECUTORS)}")
    if address and executor != "ray":
        raise ArgumentError(f"--address {address} needs --executor ray (the {executor} executor runs on this machine)")
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

    computed = 0

    with task(label, total=len(items)) as bar:
        bar.advance(len(items) - len(todo))

        def finished(item_id: str, result: Any, attempts: int, error: str) -> None:
            nonlocal computed
            if error:
                failures.append(Failure(item_id, redact(error), attempts))
            else:
                store.save_item(run_id, item_id, result)  # stored here, once, as it arrives
                done[item_id] = result
                computed += 1
            bar.advance()

        if executor == "ray":
            _ray_run(fn, todo, workers, retries, retry_on, address, finished)
        else:
            from concurrent.futures import ProcessPoolExecutor

            pool_type = ThreadPoolExecutor if executor == "threads" else ProcessPoolExecutor
            with pool_type(max_workers=workers) as pool:
                futures = {pool.submit(_attempts, fn, x, retries, retry_on): i for i, x in todo}
                for fut in as_completed(futures):
                    try:
                        result, attempts, error = fut.result()
                    except Exception as exc:  # a worker process that died: the item failed, the run goes on
                        result, attempts, error = None, 1, f"worker failed: {type(exc).__name__}: {exc}"
                    finished(futures[fut], result, attempts, error)
    order = {i: k for k, i in enumerate(ids)}
    failures.sort(key=lambda f: order[f.item_id])
    return MapResult(done, tuple(failures), computed, time.perf_counter() - t0)
