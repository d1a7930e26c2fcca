"""Video-centred research reports (seed 000): timeline -> anchors -> evidence branches ->
relations -> writing -> an interactive two-pane HTML report -> validation and repair."""

from .check import CHECKS, check_report
from .pipeline import report, rerender, validate

__all__ = ["CHECKS", "check_report", "report", "rerender", "validate"]
