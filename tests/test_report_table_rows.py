"""Which row of a comparison table is the video's: the one whose label the video names most (in its speech or
on screen, not only in its title), so the other rows are other items set beside it — including a row labelled
with a property word ("| Power |"), which names no thing yet is not the video's case either."""

from vidsleuth.report.facts import subject_words
from vidsleuth.report.scope import other_items
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Source

HEADER = "| Goal | Sets per exercise | Reps per set | Rest between sets (s) |"
ROWS = ["| Beginner / general fitness | 1–3 | 8–12 | 60–90 |", "| Hypertrophy | 3–6 | 6–12 | 60–120 |",
        "| Power | 3–5 | 1–5 | 120–300 |", "| Muscular endurance | 2–3 | 15–20 | 30–60 |"]


def _units(rows, header=HEADER):
    src = Source("S1", "document", "Sets, reps and rest: a chart by goal", "/docs/chart.html")
    return [(Passage(src, r, "text", context=header), r) for r in rows]


def test_the_row_the_video_names_is_its_own_and_the_others_are_beside():
    heard = subject_words("If you are a beginner, do three sets of ten reps and rest about a minute and a half.")
    beside = other_items(_units(ROWS), {"set", "rep"}, heard)
    assert beside == {1, 2, 3}  # Hypertrophy, Power, Endurance; not the beginner's row
    # a table of properties the anchors name keeps its named rows: each is one anchor's
    props = ["| pH | 7.4–7.6 | 7.2–7.8 |", "| Free chlorine | 1–3 | 1–5 |", "| Hot tub bromine | 3–5 | 2–6 |"]
    beside = other_items(_units(props, "| Parameter | Ideal | Acceptable |"), {"chlorin", "ph", "alkalin"},
                         subject_words("Keep free chlorine at 2 ppm and pH at 7.4."))
    assert beside == {2}


def test_a_video_that_names_no_row_keeps_the_rule_of_things():
    beside = other_items(_units(ROWS), {"set", "rep"}, subject_words("Three sets of ten, then rest."))
    # no row named: rows whose label names a thing are other items; "Power" names only a property
    assert 2 not in beside and {0, 1, 3} <= beside
