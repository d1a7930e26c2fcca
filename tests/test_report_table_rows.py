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
    # the words of the video's topic count half: a label that only repeats the topic loses to one the video says
    rice = ["| Long-grain white | 1½–1¾ | 15–18 |", "| Wild rice | 3 | 45–55 |", "| Basmati | 1½ | 15–20 |"]
    beside = other_items(_units(rice, "| Rice | Water (cups) | Simmer (min) |"), {"rice"},
                         subject_words("Rinse long grain white rice until the water runs clear."))
    assert beside == {1, 2}


def test_a_video_that_names_no_row_keeps_the_rule_of_things():
    beside = other_items(_units(ROWS), {"set", "rep"}, subject_words("Three sets of ten, then rest."))
    # no row named: rows whose label names a thing are other items; "Power" names only a property
    assert 2 not in beside and {0, 1, 3} <= beside
