"""Whose value a statement speaks of (``scope.claimed``): a value equal to one anchor's takes the
statement to that anchor, with the values of its kind beside it (a revision's new figure, a
conversion), while a value of another kind may still be another anchor's."""

from vidsleuth.report.facts import quantities, statement
from vidsleuth.report.scope import claimed

ROW = [(0.6, False), (0.6, False), (0.6, False)]


def _kept(text: str, anchor_texts: list[str]) -> list[int]:
    values = [quantities(t) for t in anchor_texts]
    return [j for j, (s, _) in enumerate(claimed(list(ROW[:len(values)]), statement(text), values)) if s > 0]


def test_a_revision_of_one_anchors_figure_is_not_another_anchors():
    anchors = ["Store it at 3.85 volts per cell.", "Charge to 4.20 V/cell.", "Keep it at 20 °C."]
    text = "We no longer recommend 3.85 V per cell; the app now discharges packs to 3.80 V per cell."
    assert _kept(text, anchors) == [0, 2]  # the temperature anchor states no voltage: left as it was


def test_a_conversion_beside_the_figure_is_the_same_figure():
    anchors = ["Replace them every 300 to 500 miles.", "They last only about 250 miles."]
    assert _kept("Most running shoes last between 300 and 500 miles (480–800 km).", anchors) == [0]


def test_two_figures_of_two_anchors_keep_both():
    anchors = ["Store it at 3.85 volts per cell.", "Charge to 4.20 V/cell."]
    assert _kept("Charge to 4.20 V per cell and store at 3.85 V per cell.", anchors) == [0, 1]


def test_a_value_of_another_kind_stays_another_anchors():
    anchors = ["The battery holds 625 Wh.", "Torque is 85 Nm.", "Torque of 90 Nm on the hill."]
    assert _kept("Battery 625 Wh · torque 85 Nm", anchors) == [0, 1]
