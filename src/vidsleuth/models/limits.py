"""Per-endpoint concurrency limits that hold across threads, event loops and processes.

``max_concurrency`` used to be an ``asyncio.Semaphore`` owned by one ``ChatModel`` on one event
loop; every ``for_role`` call made a new model and every sync ``chat`` a new loop, so the limit
held for nobody. Here a limit is a set of ``max_concurrency`` slot files per endpoint name in one
folder; a call holds an exclusive ``flock`` on one slot while its request is in flight. ``flock``
locks belong to open file descriptions, so they exclude other threads of the same process as
well as other processes (a local process pool, Ray workers on the same machine, a second
``vidsleuth`` command). Ray workers on other machines share a limit by pointing
``$VIDSLEUTH_LIMITS`` at a shared folder (NFS supports flock) or by their own limits.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import os
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

POLL = 0.005  # seconds between tries while every slot is taken


def limits_dir() -> Path:
    env = os.environ.get("VIDSLEUTH_LIMITS")
    if env:
        return Path(env)
    from ..assets import cache_root

    return cache_root() / "limits"


def _slots(name: str, limit: int) -> list[Path]:
    folder = limits_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return [folder / f"{stem}-{i}.lock" for i in range(max(1, limit))]


def _try_acquire(paths: list[Path]) -> int | None:
    for p in paths:
        fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            os.close(fd)
    return None


def _release(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def slot(name: str, limit: int):
    """Hold one of ``limit`` slots of endpoint ``name`` (blocking)."""
    paths = _slots(name, limit)
    while (fd := _try_acquire(paths)) is None:
        time.sleep(POLL)
    try:
        yield
    finally:
        _release(fd)


@asynccontextmanager
async def aslot(name: str, limit: int):
    """``slot`` for coroutines: waits without blocking the event loop."""
    paths = _slots(name, limit)
    while (fd := _try_acquire(paths)) is None:
        await asyncio.sleep(POLL)
    try:
        yield
    finally:
        _release(fd)
