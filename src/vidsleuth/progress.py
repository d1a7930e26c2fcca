"""Progress bars for long operations, shown on stderr.

Library calls are silent unless a caller turns progress on (the CLI does, for a terminal), so
scripts and tests get clean output while people at a terminal see what a long job is doing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator

_enabled: bool | None = None


def enable(flag: bool | None = True) -> None:
    """Turn progress display on or off; None means: on when stderr is a terminal."""
    global _enabled
    _enabled = flag


def enabled() -> bool:
    if os.environ.get("VIDSLEUTH_PROGRESS") in ("0", "1"):
        return os.environ["VIDSLEUTH_PROGRESS"] == "1"
    if _enabled is None:
        return False
    return _enabled and (sys.stderr.isatty() or os.environ.get("VIDSLEUTH_PROGRESS") == "1")


class _Task:
    def __init__(self, progress, task_id):
        self._progress, self._id = progress, task_id

    def advance(self, amount: float = 1.0) -> None:
        if self._progress is not None:
            self._progress.advance(self._id, amount)

    def update(self, **fields) -> None:
        if self._progress is not None:
            self._progress.update(self._id, **fields)


@contextlib.contextmanager
def task(description: str, total: float | None = None) -> Iterator[_Task]:
    """``with task("OCR", total=n) as t: ... t.advance()`` draws a bar when progress is on."""
    if not enabled():
        yield _Task(None, None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        yield _Task(progress, progress.add_task(description, total=total))
