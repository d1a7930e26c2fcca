"""``recheck``: what ``vidsleuth report check DIR`` does to a written report: run every check,
or with ``repair`` rounds send what fails to repair and rewrite the report."""

from __future__ import annotations

from pathlib import Path

from ..models import Models
from .check import check_report
from .pipeline import validate


def recheck(folder: str | Path, *, model: str | None = None, config: str | Path | None = None,
            browser: bool = True, repair: int = 0) -> dict:
    """The check summary ``{"passed", "checks"}``. ``model`` judges citation support (default:
    the deterministic relater) and, with ``repair``, rewrites what fails."""
    models = Models(config, overrides={"default": model}) if model else None
    judge = models.for_role("judge") if models else None
    if repair:
        result, _ = validate(folder, rounds=repair, browser=browser, judge=judge,
                             writer=models.for_role("writer") if models else None)
        return result
    return check_report(folder, browser=browser, judge=judge)
