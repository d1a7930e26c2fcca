"""A column header that names an amount per period ("Cups per day", "g per hen per day", "kWh/day")
gives its cells the amount's unit, not the period's: "3" under "Cups per day" is 3 cups, not 3 days."""

from __future__ import annotations

import pytest

from vidsleuth.report.facts import read_row


@pytest.mark.parametrize("header, row, label", [
    ("| Dog | Cups per day |", "| Adult, 20 kg | 3 |", "3 cup"),
    ("| Breed | Feed g per hen per day |", "| Leghorn | 110 |", "110 g"),
    ("| Model | Energy kWh/day |", "| FR-200 | 1.2 |", "1.2 kWh"),
    ("| Phase | Rest (days) |", "| Curing | 14 |", "14 day"),
])
def test_an_amount_per_period_header_gives_the_amount(header, row, label):
    assert [r.value.label() for r in read_row(row, header).readings] == [label]


def test_a_count_per_period_header_names_no_period_unit():
    readings = read_row("| Toddler | 3 |", "| Age | Servings a day |").readings
    assert not [r for r in readings if r.value.dimension == "time"]


@pytest.mark.parametrize("header, row, label", [
    ("| Weeks | Swings per day |", "| 7+ | 100 |", "100 swings/day"),  # the column counts swings per day
    ("| Age | Servings a day |", "| Toddler | 3 |", "3 servings/day"),
])
def test_a_count_per_period_header_gives_the_count_per_period(header, row, label):
    assert [r.value.label() for r in read_row(row, header).readings] == [label]
