"""A report run's trajectory: each stage timed and recorded as one event, with what it noted.

``with Stage(run, "evidence", "search"): ...`` times the block, draws its progress line, and adds
``{"type", "stage", "error", "seconds"}`` to ``run.events`` (``vidsleuth trajectory stats OUT``
reads them); an exception marks the event as an error and still propagates. ``note`` records what
the stage could not do as it meant to (a writer failure), so it reaches ``run.json`` instead of
being silently replaced."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Trajectory:
    seconds: dict[str, float] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)


class Stage:
    def __init__(self, run: Trajectory, name: str, kind: str):
        self.run, self.name, self.kind = run, name, kind
        self._rounds: list[dict] = []

    def note(self, problems: list[str]) -> None:
        """What went wrong inside the stage without stopping it (kept in ``run.json``)."""
        if problems:
            self.run.notes.setdefault(self.name, []).extend(problems)

    def rounds(self, history: list[dict]) -> None:
        """Validation's check rounds: one ``check`` event each, a ``repair`` between failing ones."""
        self._rounds = history

    def __enter__(self) -> "Stage":
        from ..progress import task

        self._t0 = time.perf_counter()
        self._task = task(f"report: {self.name}", total=None)
        self._task.__enter__()
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        self._task.__exit__(kind, exc, tb)
        took = round(time.perf_counter() - self._t0, 2)
        self.run.seconds[self.name] = took
        if self._rounds:
            each = round(took / len(self._rounds), 3)
            for r in self._rounds:
                self.run.events.append({"type": "check", "stage": f"check round {r['round']}",
                                        "error": bool(r["failures"]), "seconds": each})
                if r["failures"] and r is not self._rounds[-1]:
                    self.run.events.append({"type": "write", "stage": "repair", "error": False, "seconds": 0.0})
        else:
            event = {"type": self.kind, "stage": self.name, "error": exc is not None, "seconds": took}
            if self.name in self.run.notes:
                event["notes"] = self.run.notes[self.name]
            self.run.events.append(event)
        return False
