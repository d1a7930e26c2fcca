"""Video-centred research reports (seed 000): timeline -> anchors -> evidence branches ->
relations -> writing -> an interactive two-pane HTML report -> validation and repair."""

from .check import CHECKS, check, check_report, run_checks
from .contract import read_report
from .pipeline import report, rerender, validate
from .steps import gather_evidence, records_of, relate_excerpts, render_report, suggest_anchors

__all__ = ["CHECKS", "check", "check_report", "gather_evidence", "read_report", "records_of", "relate_excerpts",
           "render_report", "report", "rerender", "run_checks", "suggest_anchors", "validate"]
