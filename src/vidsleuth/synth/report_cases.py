"""A seeded report task with known truth: a generated how-to video whose speech and on-screen text
state parameters, a request, and an evidence folder whose passages support, contradict, update,
explain, compare with and apply what the video says.

Hard on purpose: sources paraphrase the subject and often state the value in another unit (°F for
°C, hours for minutes, kilograms for grams); an HTML page hides its passage in navigation, cookie
banner and footer boilerplate with numbers of its own; one PDF; a contradicting and an updating
source differ only in their dates (an update is dated after the video, or says it revises); a
comparison states a second value of the same dimension about another thing; passages about one
parameter mention another parameter's subject; two distractor documents and a damaged PDF.

``build(folder, seed)`` writes ``video.mp4``, ``docs/`` and ``truth.json``; ``score(report_json,
truth)`` gives relation accuracy, evidence recall, spurious links and anchor coverage. Seed 0 is
the demo; seed 1 was used while building the relater; seed 2 is kept for checking.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from .clips import Caption, ClipSpec, Shot, Speech, make_clip, remux, write_pdf

VIDEO_DATE = "2024-06-01"


@dataclass(frozen=True)
class Param:
    key: str
    subject: str  # how the video names it
    speech: str  # with {v}
    caption: str  # with {v}
    values: tuple[int, ...]
    unit: str  # as the docs state it by default, with {v}
    paraphrases: tuple[str, ...]  # how sources name it
    convert: tuple[str, object] | None = None  # (unit text with {v}, function)
    other: str = ""  # a comparison target


WORLDS: dict[str, tuple[str, str, tuple[Param, ...]]] = {
    "bread": ("Country loaf, step by step", "Check the baking parameters in this video against current guidance, and say which to change.", (
        Param("oven", "oven temperature", "Preheat the oven to {v} degrees.", "OVEN {v} °C", (220, 230, 240, 250),
              "{v} °C", ("baking temperature for a country loaf", "oven temperature for crusty bread"),
              ("{v} °F", lambda v: round(v * 9 / 5 + 32)), "a rye loaf"),
        Param("bake", "bake time", "Bake the loaf for {v} minutes.", "BAKE {v} MIN", (35, 40, 45, 50),
              "{v} minutes", ("baking time for the loaf", "total bake of a country loaf"), None, "a baguette"),
        Param("hydration", "dough hydration", "Use a dough hydration of {v} percent.", "HYDRATION {v}%", (65, 70, 75, 80),
              "{v} percent", ("hydration of the dough", "water to flour ratio, the dough hydration"), None, "a bagel dough"),
        Param("proof", "proof time", "Let the dough proof for {v} hours.", "PROOF {v} H", (2, 3, 4, 5),
              "{v} hours", ("final proof of the dough", "proofing time for the dough"),
              ("{v} minutes", lambda v: v * 60), "an enriched dough"),
        Param("salt", "salt", "Add {v} grams of salt.", "SALT {v} G", (10, 12, 15, 18),
              "{v} grams", ("salt in the dough", "amount of salt per loaf"), None, "a focaccia"),
    )),
    "bike": ("Servicing a road bike wheel", "Verify the service settings in this video against the manufacturer documents and newer guidance.", (
        Param("torque", "axle torque", "Tighten the axle nut to {v} newton metres.", "TORQUE {v} NM", (30, 35, 40, 45),
              "{v} Nm", ("tightening torque for the axle nut", "axle nut torque"), None, "a stem bolt"),
        Param("pressure", "tyre pressure", "Inflate the tyre to {v} psi.", "TYRE {v} PSI", (80, 90, 100, 110),
              "{v} psi", ("inflation pressure of the tyre", "tyre pressure for road use"), None, "a gravel tyre"),
        Param("cure", "sealant cure time", "Let the sealant cure for {v} hours.", "CURE {v} H", (6, 8, 12, 24),
              "{v} hours", ("curing time of the sealant", "time the tyre sealant needs to cure"),
              ("{v} minutes", lambda v: v * 60), "a tube patch"),
        Param("spoke", "spoke tension", "Bring the spoke tension to {v} kilograms.", "SPOKE {v} KG", (100, 110, 120, 130),
              "{v} kg", ("tension of each spoke", "spoke tension on the drive side"), None, "a rear wheel"),
        Param("grease", "bearing grease", "Pack each bearing with {v} grams of grease.", "GREASE {v} G", (2, 3, 4, 5),
              "{v} grams", ("grease for each wheel bearing", "bearing grease quantity"), None, "a headset"),
    )),
}

BOILER_TOP = ("<header><nav><a href='/'>Home</a> | <a href='/shop'>Shop</a> | <a href='/forum'>Forum</a></nav>"
              "<div class='cookie'>We use cookies. Accept all 3 categories? <button>OK</button></div>"
              "<div class='promo'>Sale: 20 percent off all tools until Sunday! Free shipping over 40 dollars.</div></header>")
BOILER_BOTTOM = ("<aside><h3>Related</h3><ul><li><a href='/a'>10 tips for beginners</a></li><li><a href='/b'>Our 5 favourite"
                 " gadgets</a></li></ul></aside><footer>© 2023 Example Media. 12 offices worldwide. Call 0800 123 456."
                 " <a href='/privacy'>Privacy</a></footer>")


def _other_value(p: Param, v: int, rng: random.Random) -> int:
    return rng.choice([x for x in p.values if x != v])


def _sentence(rng: random.Random, p: Param, relation: str, v: int, other: int) -> tuple[str, bool]:
    """A source's sentence with the given relation to the video's value ``v``, and whether it states
    the relation by itself (a revision cue) rather than only through its date."""
    subj = rng.choice(p.paraphrases)
    cap = subj[0].upper() + subj[1:]
    thing = p.other[0].upper() + p.other[1:]
    stated = p.unit.format(v=v)
    if p.convert and rng.random() < 0.5:
        stated = p.convert[0].format(v=p.convert[1](v))
    alt = p.unit.format(v=other)
    options = {
        "supports": [f"{cap} should be {stated}, which most testers confirmed.",
                     f"Our workshop measured the {subj}: {stated} gave the best result.",
                     f"We recommend {stated} for the {subj}.",
                     f"Set the {subj} at {stated}; that is the figure in the service manual."],
        "contradicts": [f"{cap} should be {alt}, not more and not less.",
                        f"In our tests the {subj} that worked was {alt}.",
                        f"The manual gives {alt} as the {subj}."],
        "updates": [f"The 2025 edition now recommends a {subj} of {alt}.",
                    f"Revised guidance: the {subj} is {alt}.",
                    f"Current guidance lists {alt} for the {subj}."],
        "explains": [f"The {subj} matters because it sets how the structure develops during the work.",
                     f"Getting the {subj} right is important, since small changes show up in the result.",
                     f"A wrong {subj} is the most common reason for a failed result.",
                     f"Too little or too much {subj} changes the outcome noticeably."],
        "compares": [f"For {p.other} the {subj} is {alt}, compared with {p.unit.format(v=v)} here.",
                     f"Unlike this project, {p.other} uses a {subj} of {alt}.",
                     f"{thing} needs a different {subj} than this: {alt}."],
        "applies": [f"The same {subj} can be applied to {p.other} as well, for example in a weekend project.",
                    f"You can use the same {subj} for {p.other}.",
                    f"This {subj} works just as well for {p.other}."],
    }[relation]
    k = rng.randrange(len(options))
    return options[k], relation == "updates" and k < 2


FILLER = ("Many readers ask about tools and timing. We answer the common questions below.",
          "This guide was written by our editors and reviewed by two experienced makers.",
          "Clean up the bench before you start, and keep a notebook of what you changed.")


def _video(folder: Path, title: str, params, values: dict, voice: str = "en-us") -> None:
    """An intro, then each parameter spoken (by ``voice``) and shown on screen; the clip dated VIDEO_DATE."""
    speech = [Speech(0.5, f"Welcome back. Today: {title.lower()}.", voice=voice)]
    captions = []
    t = 4.0
    for p in params:
        speech.append(Speech(t, p.speech.format(v=values[p.key]), voice=voice))
        captions.append(Caption(t + 0.3, t + 5.0, p.caption.format(v=values[p.key]), y="h-text_h-40"))
        t += 7.0
    frames = int((t + 1.0) * 25)
    spec = ClipSpec(shots=(Shot(frames // 2, "0x3a2a1a"), Shot(frames - frames // 2, "0x1a2a3a")),
                          captions=tuple(captions), speech=tuple(speech), title=title)
    raw = folder / ".video-raw.mp4"
    make_clip(raw, spec)
    video = folder / "video.mp4"
    remux(raw, video, "-metadata", f"creation_time={VIDEO_DATE}T12:00:00Z")
    raw.unlink()
    raw.with_suffix(".truth.json").unlink(missing_ok=True)


def _write(docs: Path, name: str, fmt: str, doc_title: str, date: str, body: list[str]) -> None:
    """One source document in its format (HTML with boilerplate, PDF, Markdown or text)."""
    if fmt == "html":
        meta = f"<meta name='date' content='{date}'>" if date else ""
        html = (f"<!doctype html><html><head><title>{doc_title}</title>{meta}</head><body>{BOILER_TOP}<main><article>"
                f"<h1>{doc_title}</h1>" + "".join(f"<p>{b}</p>" for b in body) + f"</article></main>{BOILER_BOTTOM}"
                "</body></html>")
        (docs / f"{name}.html").write_text(html, encoding="utf-8")
    elif fmt == "pdf":
        write_pdf(docs / f"{name}.pdf", doc_title, ([f"Published {date}."] if date else []) + body)
    elif fmt == "md":
        (docs / f"{name}.md").write_text(f"# {doc_title}\n\n" + (f"Updated: {date}\n\n" if date else "")
                                         + "\n\n".join(body) + "\n", encoding="utf-8")
    else:
        (docs / f"{name}.txt").write_text(doc_title + "\n" + (f"Date: {date}\n" if date else "") + "\n"
                                          + "\n\n".join(body) + "\n", encoding="utf-8")


def _library_only(rng: random.Random, params, values: dict, truth_pairs: list[dict]) -> list[dict]:
    # Facts of the task's independent evidence record that no document in the folder states (seed 000
    # §3.2 builds rubrics from separately collected evidence): only the fact library has them.
    library_only = []
    for p in rng.sample(params, 2):
        v = values[p.key]
        used = {v} | {int(str(t["source_value"]).split()[0]) for t in truth_pairs if t["param"] == p.key}
        other = next((x for x in p.values if x not in used), v * 2)
        library_only.append({"param": p.key, "relation": "compares", "subject": p.subject, "other": p.other,
                             "video_value": p.unit.format(v=v), "source_value": p.unit.format(v=other),
                             "sentence": f"For {p.other} the {p.subject} is {p.unit.format(v=other)}, compared with "
                                         f"{p.unit.format(v=v)} in this video."})
    return library_only


def build(folder: str | Path, seed: int = 0, n_params: int = 4, voice: str = "en-us") -> dict:
    """Write the case into ``folder``: ``video.mp4``, ``docs/``, ``truth.json``. Returns the truth.
    ``voice``: espeak-ng's voice, or "piper" (``clips.english_voice``) for the neural one."""
    rng = random.Random(seed)
    folder = Path(folder)
    world = ["bread", "bike"][seed % 2]
    title, request, params = WORLDS[world]
    params = rng.sample(list(params), n_params)
    values = {p.key: rng.choice(p.values) for p in params}
    _video(folder, title, params, values, voice)
    # relations: every parameter gets two, all six kinds appear
    kinds = ["supports", "contradicts", "updates", "explains", "compares", "applies"]
    rng.shuffle(kinds)
    pairs = []
    for i, p in enumerate(params):
        for rel in (kinds[(2 * i) % 6], kinds[(2 * i + 1) % 6]):
            pairs.append((p, rel))
    rng.shuffle(pairs)
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    formats = ["html", "pdf", "md", "txt"]
    truth_pairs = []
    for k, (p, rel) in enumerate(pairs):
        v = values[p.key]
        other = _other_value(p, v, rng)
        sentence, self_stated = _sentence(rng, p, rel, v, other)
        fmt = formats[k % len(formats)]
        date = {"updates": "2025-0%d-1%d" % (rng.randint(1, 9), rng.randint(0, 9)),
                "contradicts": "2023-0%d-0%d" % (rng.randint(1, 9), rng.randint(1, 9))}.get(rel, rng.choice(["", "2022-11-05"]))
        if self_stated and rng.random() < 0.4:
            date = ""  # the revision cue alone must carry it
        doc_title = f"{p.paraphrases[0].capitalize()}: notes {k + 1}"
        # a second parameter's subject appears in the same document, without a value (cross-talk)
        others = [q for q in params if q.key != p.key]
        cross = f"We cover the {rng.choice(others).subject} in another article."
        body = [rng.choice(FILLER), sentence, cross]
        name = f"source_{k + 1:02d}"
        _write(docs, name, fmt, doc_title, date, body)
        truth_pairs.append({"file": f"{name}.{fmt}", "param": p.key, "relation": rel, "sentence": sentence, "date": date,
                            "video_value": p.unit.format(v=v), "source_value": p.unit.format(v=other),
                            "subject": p.subject, "other": p.other})
    library_only = _library_only(rng, params, values, truth_pairs)
    (docs / "shop_hours.md").write_text("# Shop hours\n\nThe shop opens at 9 and closes at 17, and is closed on 25 December.\n\n"
                                        "Parking costs 2 euros per hour.\n", encoding="utf-8")
    (docs / "newsletter.txt").write_text("Newsletter\n\nThis month we visited 3 makers' fairs and met 40 readers. "
                                         "Thanks for 12 years of support.\n", encoding="utf-8")
    (docs / "scan_damaged.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\n% truncated here")
    truth = {"seed": seed, "world": world, "request": request, "video_date": VIDEO_DATE, "title": title,
             "params": [{"key": p.key, "subject": p.subject, "value": values[p.key], "text": p.speech.format(v=values[p.key])}
                        for p in params],
             "pairs": truth_pairs, "library_only": library_only, "distractors": ["shop_hours.md", "newsletter.txt"], "unreadable": ["scan_damaged.pdf"]}
    (folder / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


def _anchor_param(anchor: dict, truth: dict) -> str | None:
    """Which parameter of the truth an anchor is about: the one whose value and subject it states."""
    from ..report.facts import quantities, subject_words

    aq = quantities(" ".join([anchor["text"]] + [m["text"] for m in anchor["moments"]]))
    for p in truth["params"]:
        pq = quantities(p["text"])
        if any(a.same_as(b) for a in aq for b in pq) and subject_words(p["text"]) & subject_words(
                " ".join([anchor["text"]] + [m["text"] for m in anchor["moments"]])):
            return p["key"]
    return None


def score(report: dict, truth: dict) -> dict:
    """Relation accuracy over the known pairs, evidence recall, spurious links, anchor coverage."""
    anchor_param = {a["id"]: _anchor_param(a, truth) for a in report["anchors"]}
    files = {s["id"]: Path(s["location"]).name for s in report["sources"]}
    found: dict[tuple[str, str], str] = {}
    spurious = 0
    truth_keys = {(t["file"], t["param"]) for t in truth["pairs"]}
    for e in report["evidence"]:
        key = (files.get(e["source_id"], ""), anchor_param.get(e["anchor_id"]))
        if key in truth_keys:
            found.setdefault(key, e["relation"])
        else:
            spurious += 1
    rows = []
    for t in truth["pairs"]:
        got = found.get((t["file"], t["param"]))
        rows.append({**t, "found": got is not None, "predicted": got})
    hit = [r for r in rows if r["found"]]
    correct = sum(r["predicted"] == r["relation"] for r in hit)
    covered = {k for k in anchor_param.values() if k}
    return {"pairs": len(rows), "found": len(hit), "correct": correct,
            "relation_accuracy": correct / len(rows) if rows else 0.0,
            "relation_accuracy_found": correct / len(hit) if hit else 0.0,
            "evidence_recall": len(hit) / len(rows) if rows else 0.0, "spurious": spurious,
            "anchors_found": len(covered), "anchors_truth": len(truth["params"]),
            "anchor_coverage": len(covered) / len(truth["params"]), "rows": rows}
