"""Omni-ART rubric trees (seed 000 §3.2-3.3): the schema, judges, scoring and calibration.
``score_report`` scores one report folder against a rubric; ``evaluate_task`` is what
``bench omnidr`` runs per task; ``JUDGES`` is the judge registry."""

from .evaluate import JUDGES, evaluate_task, make_judge, score_report
from .schema import load_rubric, problems

__all__ = ["JUDGES", "evaluate_task", "load_rubric", "make_judge", "problems", "score_report"]
