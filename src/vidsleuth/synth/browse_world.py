"""Generated video-browsing worlds where nothing is decided by construction (seed 001 App. A.5's
idea, made honest).

Each question asks for one value (a price, a temperature, a platform, a year, a name…) of one
*subject* (an entity and a qualifier: "the sourdough loaf at Rossi Bakery"). The answer video shows
or says that value; half the answers are only on screen, half only spoken. Every question has two
hard negatives from its topic: one about the same entity with another qualifier, one about another
entity with the same qualifier. Both carry a different value, and both share the topic words in
title, description, on-screen text and speech. Negatives' titles name the question's subject more
closely than the answer video's title does, so metadata alone is a trap; the answer clip's
on-screen text never repeats the question. Questions are paraphrased from templates, not copied
from the clip. Some demo questions need two videos (a comparison of two subjects).

``build(folder, seed=…)`` makes a split: clips, ``corpus.jsonl``, ``questions.jsonl`` and a
``train.jsonl`` for Translation Memory from other subjects. The demo uses seed 0; the README's
held-out figures use seed 1, which the demo never builds.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from pathlib import Path

from .clips import CJK_FONT, LATIN_FONT, Caption, ClipSpec, Shot, Speech, make_clip

W, H, FPS, SECONDS = 480, 270, 25, 8
FONTS = (LATIN_FONT, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", CJK_FONT)
COLOURS = ("0x1a3a6a", "0x6a1a3a", "0x3a6a1a", "0x5a4a2a", "0x2a5a5a", "0x40406a")
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def spoken_number(n: int) -> str:
    """0..9999 in words, the way a narrator says it (years as two pairs)."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if 1100 <= n < 2000 or (2010 <= n < 2100):
        return spoken_number(n // 100) + " " + (spoken_number(n % 100) if n % 100 >= 10 else
                                                  ("hundred" if n % 100 == 0 else "oh " + ONES[n % 100]))
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + (" " + spoken_number(rest) if rest else "")
    return spoken_number(n // 1000) + " thousand" + (" " + spoken_number(n % 1000) if n % 1000 else "")


@dataclass(frozen=True)
class Domain:
    """One kind of question. ``{e}`` entity, ``{q}`` qualifier, ``{v}`` value (as shown)."""

    key: str
    genre: str
    entities: tuple[str, ...]
    qualifiers: tuple[str, ...]
    questions: tuple[str, ...]  # paraphrases; one is picked per question
    title_answer: str  # the answer clip's title: names the entity only
    desc_answer: str
    title_negative: str  # negatives' titles name the full subject (entity and qualifier)
    desc_negative: str
    screen: str  # what is shown when the answer is on screen: "{Q} {V}"
    said: str  # what is said when the answer is spoken
    generic_screen: str  # on screen when the answer is spoken (topic words, no value)
    values: tuple  # (low, high) integers, or a tuple of strings
    shown: str = "{n}"  # how a value is written: "{n} EUR"
    spoken: str = "{w}"  # how a value is said: "{w} euros"
    answer: str = "{n}"  # the truth string, as a grader writes it
    channel: str = "Local Lens"
    compare: str = ""  # a two-video question over two qualifiers of one entity ({q}, {q2}); the larger value wins


DOMAINS: tuple[Domain, ...] = (
    Domain("bakery", "Education & Knowledge", ("Rossi", "Hartmann", "Okafor", "Lindgren", "Moreau", "Castell"),
           ("sourdough", "rye", "spelt", "walnut", "olive"),
           ("How much does a {q} loaf cost at {e} Bakery?", "What price does {e} Bakery ask for its {q} loaf?"),
           "{e} Bakery at dawn", "A morning with the bakers of {e} Bakery", "{e} Bakery {q} loaf price",
           "The price of the {q} loaf at {e} Bakery", "{Q} LOAF {V}", "Our {q} loaf costs {s} today.",
           "{E} BAKERY", (2, 9), "{n} EUR", "{w} euros", "{n} EUR",
           compare="Which costs more at {e} Bakery, the {q} loaf or the {q2} loaf?"),
    Domain("forecast", "TV Series", ("Marlow", "Kelso", "Ashby", "Tregaron", "Dunvale", "Pellin"),
           ("Monday", "Tuesday", "Thursday", "Friday", "Saturday"),
           ("How warm will it get in {e} on {q}, according to the forecast?",
            "What high temperature does the forecast give for {e} on {q}?"),
           "{e} weekly weather", "Regional outlook for {e}", "{e} {q} temperature forecast",
           "Forecast temperature for {e} on {q}", "{Q} HIGH {V}", "On {q} we expect a high of {s}.",
           "{E} WEATHER", (3, 31), "{n} C", "{w} degrees", "{n} C",
           compare="Which day will be warmer in {e}, {q} or {q2}?"),
    Domain("train", "Video & Shorts", ("Kerrow", "Balmoor", "Istvik", "Carran", "Velloc", "Orrin"),
           ("night", "morning", "express", "sleeper", "coastal"),
           ("From which platform does the {q} train to {e} depart?", "Which platform should I use for the {q} service to {e}?"),
           "{e} station departures", "Trains leaving for {e}", "{q} train to {e} platform",
           "Platform for the {q} train to {e}", "{Q} TRAIN PLATFORM {V}", "The {q} train leaves from platform {s}.",
           "TRAINS TO {E}", (2, 19)),
    Domain("recipe", "Education & Knowledge", ("Tomsk", "Anatolian", "Basque", "Sami", "Galician", "Tuscan"),
           ("dough", "broth", "sauce", "batter", "glaze"),
           ("For how many minutes does the {e} {q} simmer or rest?", "How long is the {e} {q} left, in minutes?"),
           "{e} kitchen at home", "A family recipe from the {e} kitchen", "{e} {q} resting minutes",
           "How many minutes the {e} {q} needs", "{Q} {V}", "Leave the {q} for {s}.",
           "{E} KITCHEN", (5, 55), "{n} MIN", "{w} minutes", "{n} minutes",
           compare="In the {e} kitchen, which is left for more minutes, the {q} or the {q2}?"),
    Domain("bridge", "Documentary", ("Vell", "Harbor Point", "Ostra", "Caldor", "Brennan", "Ostwick"),
           ("bridge", "lighthouse", "tower", "mill", "chapel"),
           ("In which year was the {e} {q} completed?", "When was the {e} {q} finished?"),
           "Walking around {e}", "Old buildings of {e}", "{e} {q} completion year",
           "The year the {e} {q} was completed", "{Q} COMPLETED {V}", "The {q} was completed in {s}.",
           "{E} HERITAGE WALK", (1801, 1969)),
    Domain("cup", "Sports", ("Ostra", "Lindqvist", "Marrow", "Tallin", "Pelham", "Corrib"),
           ("final", "semi-final", "quarter-final", "opening match", "replay"),
           ("What was the result of the {e} Cup {q}?", "How did the {q} of the {e} Cup end?"),
           "{e} Cup highlights", "Goals and saves from the {e} Cup", "{e} Cup {q} score",
           "The score of the {e} Cup {q}", "{Q} {V}", "The {q} ended {s}.",
           "{E} CUP", ("3-1", "2-0", "4-2", "1-0", "2-1", "5-3")),
    Domain("concert", "Music & Variety", ("Halvard", "Morrow", "Quill", "Ardent", "Selby", "Tamsin"),
           ("Friday", "Saturday", "Sunday", "matinee", "gala"),
           ("At what time does the {e} Quartet's {q} concert begin?", "When does the {q} concert of the {e} Quartet start?"),
           "{e} Quartet rehearsal", "Strings warming up with the {e} Quartet", "{e} Quartet {q} concert start time",
           "Start time of the {e} Quartet {q} concert", "{Q} CONCERT {V}", "The {q} concert begins at {s}.",
           "{E} QUARTET", (5, 11), "{n} PM", "{w} p m", "{n} PM"),
    Domain("tool", "Education & Knowledge", ("Brandt", "Kessler", "Norcross", "Ilves", "Durand", "Sato"),
           ("chain", "circular", "band", "jig", "mitre"),
           ("Which model number does the {e} {q} saw have?", "What is the model of the {e} {q} saw?"),
           "{e} workshop tour", "A look around the {e} workshop", "{e} {q} saw model number",
           "Model number of the {e} {q} saw", "{Q} SAW MODEL {V}", "The {q} saw is model {s}.",
           "{E} WORKSHOP", ("CT-47", "RX-12", "KB-90", "MT-35", "ZL-28", "PQ-61"), "{n}", "{w}", "{n}"),
    Domain("prize", "Documentary", ("Caldor", "Dunmore", "Velden", "Inis Beag", "Ashgrove", "Renfrew"),
           ("rose", "tulip", "dahlia", "orchid", "lily"),
           ("Which {q} variety won at the {e} garden show?", "What was the winning {q} at the {e} flower show?"),
           "{e} garden show", "Flowers and prizes at {e}", "{e} garden show best {q}",
           "The prize-winning {q} of the {e} show", "BEST {Q} {V}", "The best {q} this year is {s}.",
           "{E} GARDEN SHOW", ("Amber Dawn", "Silver Moth", "Red Harbour", "Blue Lantern", "Winter Pearl", "Golden Finch"),
           "{n}", "{w}", "{n}"),
)


def _fill(template: str, e: str, q: str, shown: str = "", said: str = "") -> str:
    return template.format(e=e, q=q, E=e.upper(), Q=q.upper(), V=shown.upper(), s=said)


@dataclass(frozen=True)
class Subject:
    domain: Domain
    entity: str
    qualifier: str
    value: object

    def shown(self) -> str:
        n = self.value
        return self.domain.shown.format(n=n)

    def said(self) -> str:
        n = self.value
        if isinstance(n, int):
            w = spoken_number(n)
        elif self.domain.key == "cup":  # "3-1" is said "three to one"
            w = " to ".join(spoken_number(int(x)) for x in n.split("-"))
        elif self.domain.key == "tool":  # "CT-47" is said "C T forty seven"
            letters, digits = n.split("-")
            w = " ".join(letters) + " " + spoken_number(int(digits))
        else:
            w = n
        return self.domain.spoken.format(w=w)

    def truth(self) -> str:
        return self.domain.answer.format(n=self.value)


def _value(d: Domain, rng: random.Random, avoid: set) -> object:
    for _ in range(100):
        v = rng.randint(*d.values) if isinstance(d.values[0], int) else rng.choice(d.values)
        if v not in avoid:
            return v
    raise ValueError(f"no distinct value left in {d.key}")


def _clip(path: Path, subject: Subject, on_screen: bool, colour: str, rng: random.Random) -> None:
    """The answer is shown (and the narrator talks around it) or said (and the screen shows the topic)."""
    d, e, q = subject.domain, subject.entity, subject.qualifier
    font = rng.choice(FONTS)
    size = rng.choice((18, 22, 26))
    if on_screen:
        screen = _fill(d.screen, e, q, subject.shown())
        speech = f"Welcome to {e}. Here is what we found today."
    else:
        screen = _fill(d.generic_screen, e, q)
        speech = _fill(d.said, e, q, said=subject.said())
    caption = Caption(0.5, SECONDS - 0.5, screen, size=size, font=font)
    spec = ClipSpec(shots=(Shot(SECONDS * FPS, colour),), fps=FPS, width=W, height=H, audio=True,
                          speech=(Speech(1.0, speech),), captions=(caption,))
    stamp = path.with_suffix(".spec.json")
    wanted = json.dumps(dataclasses.asdict(spec), sort_keys=True)
    if path.exists() and path.with_suffix(".truth.json").exists() and stamp.exists() and stamp.read_text() == wanted:
        return  # made before from the same spec
    make_clip(path, spec)
    stamp.write_text(wanted)


def _record(vid: str, title: str, desc: str, d: Domain, path: str) -> dict:
    return {"video_id": vid, "title": title, "description": desc, "channel": d.channel, "tags": [d.genre],
            "duration": float(SECONDS), "path": path}


class _Maker:
    """Draws unused subjects and renders their clips, in one seeded order (so a seed gives one split)."""

    def __init__(self, clips: Path, rng: random.Random) -> None:
        self.clips, self.rng = clips, rng
        self.corpus: list[dict] = []
        self.used: set[tuple[str, str, str]] = set()

    def subject(self, d: Domain, entity: str | None = None, qualifier: str | None = None,
                avoid: set = frozenset()) -> Subject:
        rng = self.rng
        for _ in range(200):
            e = entity or rng.choice(d.entities)
            q = qualifier or rng.choice(d.qualifiers)
            if (d.key, e, q) not in self.used:
                self.used.add((d.key, e, q))
                return Subject(d, e, q, _value(d, rng, set(avoid)))
        raise ValueError(f"domain {d.key} has no unused subject left")

    def add_video(self, vid: str, s: Subject, on_screen: bool, answer_video: bool) -> None:
        rng = self.rng
        _clip(self.clips / f"{vid}.mp4", s, on_screen, rng.choice(COLOURS), rng)
        d, e, q = s.domain, s.entity, s.qualifier
        vague = answer_video and rng.random() < 0.5  # half the answer videos' titles name only the entity
        title = _fill(d.title_answer if vague else d.title_negative, e, q)
        desc = _fill(d.desc_answer if vague else d.desc_negative, e, q)
        self.corpus.append(_record(vid, title, desc, d, f"clips/{vid}.mp4"))


def _single_questions(m: _Maker, domains: list[Domain], seed: int, n_questions: int) -> list[dict]:
    """L1: one answer video and two hard negatives sharing its entity or its qualifier."""
    questions = []
    for i in range(n_questions):
        d = domains[i % len(domains)]
        on_screen = i % 2 == 0
        key = f"q{seed}-{i:02d}-{d.key}"
        target = m.subject(d)
        same_entity = m.subject(d, entity=target.entity, avoid={target.value})
        same_qualifier = m.subject(d, qualifier=target.qualifier, avoid={target.value, same_entity.value})
        m.add_video(f"{key}-a", target, on_screen, True)
        m.add_video(f"{key}-n1", same_entity, on_screen, False)
        m.add_video(f"{key}-n2", same_qualifier, on_screen, False)
        questions.append({"id": key, "question": _fill(m.rng.choice(d.questions), target.entity, target.qualifier),
                          "answer": target.truth(), "level": "L1", "genre": d.genre, "seed_video_ids": [f"{key}-a"],
                          "hard_negative_ids": [f"{key}-n1", f"{key}-n2"], "modality": "screen" if on_screen else "speech"})
    return questions


def _pair_questions(m: _Maker, seed: int, n_pairs: int) -> list[dict]:
    """L2: two videos: which of two subjects of one entity has the larger value."""
    questions = []
    comparable = [d for d in DOMAINS if d.compare]
    for i in range(n_pairs):
        d = comparable[i % len(comparable)]
        on_screen = i % 2 == 0
        key = f"p{seed}-{i:02d}-{d.key}"
        first = m.subject(d)
        second = m.subject(d, entity=first.entity, avoid={first.value})
        negative = m.subject(d, qualifier=first.qualifier, avoid={first.value, second.value})
        m.add_video(f"{key}-a", first, on_screen, True)
        m.add_video(f"{key}-b", second, on_screen, True)
        m.add_video(f"{key}-n1", negative, on_screen, False)
        bigger = first if first.value > second.value else second
        question = d.compare.format(e=first.entity, q=first.qualifier, q2=second.qualifier)
        questions.append({"id": key, "question": question, "answer": bigger.qualifier, "level": "L2", "genre": d.genre,
                          "seed_video_ids": [f"{key}-a", f"{key}-b"], "hard_negative_ids": [f"{key}-n1"],
                          "modality": "screen" if on_screen else "speech"})
    return questions


def _train_rows(m: _Maker, domains: list[Domain], seed: int, n_questions: int, n_train: int) -> list[dict]:
    """Memory examples: on-screen answer videos of domains the eval questions come after."""
    train = []
    for j in range(n_train):
        d = domains[(n_questions + j) % len(domains)]
        s = m.subject(d)
        vid = f"train{seed}-{j:02d}-{d.key}"
        m.add_video(vid, s, True, True)
        train.append({"id": vid, "question": _fill(d.questions[0], s.entity, s.qualifier), "answer": s.truth(),
                      "seed_video_id": vid, "transcript_snippet": _fill(d.screen, s.entity, s.qualifier, s.shown()).lower()})
    return train


def build(folder: str | Path, *, seed: int = 0, n_questions: int = 12, n_pairs: int = 0, n_train: int = 6) -> dict[str, Path]:
    """A split: clips, ``corpus.jsonl``, ``questions.jsonl`` (eval) and ``train.jsonl`` (memory).

    ``n_pairs`` extra questions compare two subjects of one domain and need both answer videos.
    Corpus paths are relative to the corpus file (resolved against it when read)."""
    folder = Path(folder)
    clips = folder / "clips"
    clips.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    m = _Maker(clips, rng)
    domains = list(DOMAINS)
    rng.shuffle(domains)
    questions = _single_questions(m, domains, seed, n_questions)
    questions += _pair_questions(m, seed, n_pairs)
    train = _train_rows(m, domains, seed, n_questions, n_train)
    out = {"corpus": folder / "corpus.jsonl", "questions": folder / "questions.jsonl", "train": folder / "train.jsonl"}
    for key, rows in (("corpus", m.corpus), ("questions", questions), ("train", train)):
        out[key].write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return out
