"""The document relevance gate (``report.relevance``) on small generated fixtures whose truth is
known: which documents are about the video's subject and which are about something else."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from vidsleuth.report.relevance import (
    Document,
    Gate,
    Signals,
    decide,
    documents_of,
    mentioned,
    names_in,
    screen,
    screen_report,
    signals,
    software_share,
    standing,
    words_of,
)
from vidsleuth.report.sources import Passage
from vidsleuth.report.types import Source

KILN_TITLE = "Bisque firing in a small electric kiln"
KILN_REQUEST = "Check the bisque firing schedule in this pottery video: ramp rate, top temperature and hold."
KILN_SPEECH = ("Let's load the kiln with greenware for a bisque firing. Segment one climbs at 100 degrees an hour to "
               "600 while the water burns off from the clay, then faster to the top temperature of 1000 degrees, "
               "with a ten minute hold. Never open the kiln lid until it is below 100 degrees.")

ON_KILN = {
    "bisque-guide.html": ("How to bisque fire pottery", ["Ramp rates for greenware"],
                          ["Bisque firing drives the water out of greenware clay. Ramp at 80 to 100 °C per hour to 600 °C.",
                           "Then climb at 150 °C per hour to cone 06, about 1000 °C, and hold for ten minutes."]),
    "cone-chart.html": ("Pyrometric cone chart for pottery kilns", [],
                        ["Cone 06 bends at about 999 °C at a heating rate of 150 °C per hour in the last hour of a firing."]),
    "kiln-forum.html": ("Is my bisque schedule for the kiln too slow?", [],
                        ["I fire bisque at 100 °C/h to 600 then 150 to the top, with a 10 minute hold. Too slow?",
                         "Your pottery kiln schedule is fine for thick pieces of clay."]),
    "kiln-manual.pdf": ("Electric kiln owner's manual", ["Firing programmes"],
                        ["Programme 1, bisque: 100 °C/h to 600 °C, then full power to 1000 °C, hold 10 minutes.",
                         "Do not open the lid of the kiln above 100 °C."]),
    "clay-drying.md": ("Why pottery must be bone dry before a bisque firing", [],
                       ["Clay that feels dry still holds water; heat it slowly through 100 to 600 °C in the kiln."]),
}
SOFTWARE = ("zlib usage example", ["Without further ado, here is the program zpipe.c:"],
            ["/* zpipe.c: example of proper use of zlib's inflate() and deflate() */",
             "#include <stdio.h> and #define CHUNK 16384 set the buffer size for def() and inf().",
             "int ret, flush; unsigned have; z_stream strm; the return value of deflate_init is checked.",
             "strm.avail_in = fread(in, 1, CHUNK, source); if (ferror(source)) return Z_ERRNO;"])


@pytest.fixture(scope="module")
def embedder():
    from vidsleuth.models import Models

    return Models(cache=False).embedder()


def _docs(table: dict) -> list[Document]:
    return [Document(name, t, tuple(h), tuple(p)) for name, (t, h, p) in table.items()]


def _passages(table: dict) -> list[Passage]:
    out = []
    for name, (title, headings, paras) in table.items():
        src = Source(id=name, kind="document", title=title, location=f"/docs/{name}")
        out += [Passage(src, p, "text", heading=(headings[0] if headings else "")) for p in paras]
    return out


def _timeline(speech: str, screen_text: str = ""):
    segs = [SimpleNamespace(kind="speech", text=speech), SimpleNamespace(kind="ocr", text=screen_text)]
    return SimpleNamespace(of_kind=lambda *kinds: [s for s in segs if s.kind in kinds])


def test_names_are_products_not_common_words_or_quantities():
    text = "The Skylark Mini 4 weighs 249 g. Weight 24 kg is the bike. Compare it with the Nordwind HP8 and AeroHeat."
    got = names_in(text, common={"weight"})
    assert {"Skylark Mini 4", "Nordwind HP8", "AeroHeat"} <= got
    assert not any(n.startswith(("Weight", "249", "24")) for n in got)
    assert "Nordwind HP8" in names_in("Nordwind HP8 review: big output")


def test_a_name_is_found_through_speech_recognition_slips():
    assert mentioned("Thornbury Mini", words_of("the kiln is a thornberry mini"))
    assert mentioned("Lumeo P5", words_of("the p5 is bright"))
    assert not mentioned("Vireo 55", words_of("the lumeo p5 projector at 55 cm"))


def test_standing_marks_the_outlier_among_the_others():
    z = standing([0.90, 0.89, 0.91, 0.88, 0.90, 0.76])
    assert z[-1] < -5 and all(abs(v) < 3 for v in z[:-1])


def test_software_share_reads_code_not_forum_handles():
    assert software_share(SOFTWARE[2]) >= 0.75
    forum = ["**tempo_tom** — Feb 2024", "u/frugal_fern (198 points) six months is overkill", "5.5 bar is too hard",
             "oliver_and_luna · 1,203 posts", "catlady_1987 We free feed."]  # a handle alone is no identifier
    assert software_share(forum) == 0.0


def test_decide_keeps_a_document_naming_the_video_product_and_records_reasons():
    low = Signals("/d/a.html", "A", similarity=0.7, standing=-9.0, software=0.0, shared_names=("Lumeo P5",))
    assert decide(low).keep and "product" in decide(low).reason
    outlier = Signals("/d/b.html", "B", similarity=0.7, standing=-9.0, software=0.0)
    assert not decide(outlier).keep and "least like the video" in decide(outlier).reason
    code = Signals("/d/c.html", "C", similarity=0.8, standing=-2.0, software=0.6)
    assert not decide(code).keep and "software" in decide(code).reason
    assert decide(code, Gate(software_outlier=-3.0)).keep
    other = Signals("/d/e.html", "E", similarity=0.85, standing=-0.4, software=0.0, other_names=("Vireo 55",),
                    product_known=True)
    assert not decide(other).keep and "Vireo 55" in decide(other).reason
    assert decide(replace_known(other, False)).keep  # no product of the video's is established: kept


def replace_known(s: Signals, known: bool) -> Signals:
    from dataclasses import replace

    return replace(s, product_known=known)


def test_a_software_manual_among_pottery_documents_is_dropped(embedder):
    table = {**ON_KILN, "zlib_how.html": SOFTWARE}
    kept, dropped = screen(_passages(table), title=KILN_TITLE, request=KILN_REQUEST, timeline=_timeline(KILN_SPEECH),
                           embedder=embedder)
    assert [d.location for d in dropped] == ["/docs/zlib_how.html"]
    assert {p.source.location for p in kept} == {f"/docs/{n}" for n in ON_KILN}


def test_a_review_of_another_product_is_dropped_and_the_products_documents_kept(embedder):
    title = "Skylark Mini 4 after a month: the real numbers"
    request = "Before I buy this drone, check the review's weight, flight time and price against the sources."
    speech = "I've flown the Skylark Mini 4 every day. It weighs 249 grams and flies about 29 minutes per battery."
    table = {
        "specs.html": ("Skylark Mini 4 specifications", [], ["Skylark Mini 4 take-off weight 249 g, flight time 34 min."]),
        "review.html": ("Skylark Mini 4 review", ["Battery life"], ["The Skylark Mini 4 flew 28 minutes in our test."]),
        "shop.html": ("Skylark Mini 4 Fly More combo", [], ["The Skylark Mini 4 combo costs $899 with three batteries."]),
        "wind.html": ("Flying small drones in wind", [], ["A 249 g drone copes with wind up to about 38 km/h."]),
        "other.html": ("Falcon Z7 review: a heavy camera drone", [],
                       ["The Falcon Z7 weighs 900 g and flies 41 minutes per battery. It costs $1,599."]),
    }
    docs = _docs(table)
    sigs = {s.location: s for s in signals(docs, f"{title}. {request} {speech}", embedder,
                                           video_text=f"{title}\n{request}\n{speech}")}
    assert sigs["specs.html"].shared_names and sigs["other.html"].other_names and not sigs["other.html"].shared_names
    decisions = {loc: decide(s) for loc, s in sigs.items()}
    assert not decisions["other.html"].keep and "Falcon Z7" in decisions["other.html"].reason
    assert all(decisions[n].keep for n in ("specs.html", "review.html", "shop.html", "wind.html"))


def test_the_stage_records_what_it_dropped(embedder):
    table = {**ON_KILN, "zlib_how.html": SOFTWARE}
    setup = SimpleNamespace(title=KILN_TITLE, request=KILN_REQUEST, embedder=embedder)
    counts, dropped = {}, Counter()
    kept = screen_report(setup, _timeline(KILN_SPEECH), _passages(table), counts, dropped)
    assert dropped["off-subject document"] == 1
    (rec,) = counts["documents_off_subject"]
    assert rec["location"] == "/docs/zlib_how.html" and rec["reason"]
    assert len(kept) == sum(len(p) for _, _, p in ON_KILN.values())


def test_without_an_embedder_or_with_few_documents_nothing_is_dropped(embedder):
    passages = _passages({**ON_KILN, "zlib_how.html": SOFTWARE})
    assert screen(passages, title=KILN_TITLE, request=KILN_REQUEST, embedder=None) == (passages, [])
    few = _passages({"zlib_how.html": SOFTWARE, "cone-chart.html": ON_KILN["cone-chart.html"]})
    assert screen(few, title=KILN_TITLE, request=KILN_REQUEST, embedder=embedder) == (few, [])
    assert len(documents_of(passages)) == len(ON_KILN) + 1
