"""Video-centred research reports (seed 000): timeline -> anchors -> evidence branches ->
relations -> writing -> an interactive two-pane HTML report -> validation and repair."""

from .check import CHECKS, check, check_report, run_checks
from .contract import read_report
from .pipeline import report, rerender, validate

__all__ = ["CHECKS", "check", "check_report", "read_report", "report", "rerender", "run_checks", "validate"]
