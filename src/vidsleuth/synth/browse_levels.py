"""A generated world of Video-BrowseComp's three levels (seed 001 §3.2), beside ``browse_world``.

Clips are multi-scene (three shots with cuts), carry several captions and five or more narrated
sentences (the neural Piper voice when the ``voices`` extra is installed, else espeak):

- **L1, explicit constraints.** The question names the channel and the title ("In Paddle Lab's
  video titled "…", …"). Two hard negatives share the topic: one has the same title on another
  channel, one is the same channel's video about another qualifier; each carries another value.
- **L2, implicit cues.** The question names the video only by a remark the narrator makes; the
  remark is in the answer clip's speech and in no metadata, the value is only spoken, and the
  negatives share title words and topic.
- **L3, two videos.** A comparison of two subjects ("which costs more") or a difference of their
  values; each value is in its own video.

``build_levels(folder, seed=…)`` writes clips, ``corpus.jsonl`` (with ``published`` dates) and
``questions.jsonl``. Nothing here is read by the agent: it sees the corpus and the clips.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .browse_world import DOMAINS, FPS, Domain, H, Subject, W, _fill, _value
from .clips import Caption, ClipSpec, Shot, Speech, english_voice, make_clip

SCENE_SECONDS = 5
CHANNELS = ("Paddle Lab", "Northside Stories", "Daily Detours", "Open Road Films", "Bench Notes", "Harbour Lights TV",
            "Quiet Corner", "Field Journal")
COLOURS = ("0x1a3a6a", "0x6a1a3a", "0x3a6a1a", "0x5a4a2a", "0x2a5a5a", "0x40406a")
CUES = ("the queue went all the way round the block", "a seagull stole half of her sandwich",
        "the van broke down twice on the way", "his grandmother taught him the trick", "it rained for the whole morning",
        "the lights went out during the first take", "the neighbours brought a cake", "a dog followed them from the station")
FILLERS = ("Thanks for joining us again.", "We spent the whole day here.", "Let me show you around.",
           "It was a long but happy day.", "See you next week.")
LEVEL3_DIFFERENCE = {"bridge": "How many years passed between the completion of the {e} {q} and the {e} {q2}?",
                     "bakery": "What is the difference in price between the {q} loaf and the {q2} loaf at {e} Bakery?",
                     "recipe": "How many more minutes is the {e} {q} left than the {e} {q2}?"}


def _sentences(s: Subject, on_screen: bool, cue: str) -> list[str]:
    d, e, q = s.domain, s.entity, s.qualifier
    said = _fill(d.said, e, q, said=s.said()) if not on_screen else f"The sign here tells you what you need about the {q}."
    out = [f"Welcome to {e}.", FILLERS[0], said, FILLERS[2]]
    if cue:
        out.insert(2, f"You know, {cue}.")
    return out + [FILLERS[3], FILLERS[4]]


def _clip(path: Path, s: Subject, on_screen: bool, channel: str, cue: str, rng: random.Random, voice: str) -> None:
    d, e, q = s.domain, s.entity, s.qualifier
    captions = [Caption(0.3, SCENE_SECONDS - 0.3, _fill(d.generic_screen, e, q), size=24),
                Caption(SCENE_SECONDS + 0.3, 2 * SCENE_SECONDS - 0.3,
                              _fill(d.screen, e, q, s.shown()) if on_screen else q.upper(), size=24),
                Caption(2 * SCENE_SECONDS + 0.3, 3 * SCENE_SECONDS - 0.3, channel.upper(), size=20)]
    sentences = _sentences(s, on_screen, cue)
    step = (3 * SCENE_SECONDS - 1.0) / len(sentences)
    speech = tuple(Speech(0.5 + i * step, t, voice=voice) for i, t in enumerate(sentences))
    shots = tuple(Shot(SCENE_SECONDS * FPS, c) for c in rng.sample(COLOURS, 3))
    if path.exists():
        return
    make_clip(path, ClipSpec(shots=shots, fps=FPS, width=W, height=H, audio=True, speech=speech,
                                         captions=tuple(captions)))


class _World:
    def __init__(self, folder: Path, seed: int, voice: str, clips: bool = True):
        self.clips = folder / "clips"
        self.clips.mkdir(parents=True, exist_ok=True)
        self.rng, self.voice, self.make = random.Random(seed), voice, clips
        self.corpus: list[dict] = []
        self.used: set = set()

    def subject(self, d: Domain, entity=None, qualifier=None, avoid=frozenset()) -> Subject:
        for _ in range(200):
            e, q = entity or self.rng.choice(d.entities), qualifier or self.rng.choice(d.qualifiers)
            if (d.key, e, q) not in self.used:
                self.used.add((d.key, e, q))
                return Subject(d, e, q, _value(d, self.rng, set(avoid)))
        raise ValueError(f"domain {d.key} has no unused subject left")

    def video(self, vid: str, s: Subject, channel: str, title: str, on_screen: bool, cue: str = "") -> str:
        if self.make:
            _clip(self.clips / f"{vid}.mp4", s, on_screen, channel, cue, self.rng, self.voice)
        year = self.rng.randint(2018, 2025)
        self.corpus.append({"video_id": vid, "title": title, "description": _fill(s.domain.desc_negative, s.entity,
                                                                                  s.qualifier),
                            "channel": channel, "tags": [s.domain.genre], "duration": float(3 * SCENE_SECONDS),
                            "published": f"{year}-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}",
                            "path": f"clips/{vid}.mp4"})
        return vid


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def build_levels(folder: str | Path, *, seed: int = 0, per_level: int = 3, voice: str | None = None,
                 clips: bool = True) -> dict[str, Path]:
    """A levels split (see the module docstring): ``per_level`` questions of each level;
    ``clips=False`` writes the corpus and questions only (the clips' paths are then missing)."""
    folder = Path(folder)
    w = _World(folder, seed, voice or english_voice(), clips)
    domains = list(DOMAINS)
    w.rng.shuffle(domains)
    questions = []
    for i in range(per_level):  # L1: channel and title stated; negatives differ in one of them
        d = domains[i % len(domains)]
        key = f"l1-{seed}-{i}-{d.key}"
        ch, other = w.rng.sample(CHANNELS, 2)
        t = w.subject(d)
        title = _fill(d.title_negative, t.entity, t.qualifier)
        w.video(f"{key}-a", t, ch, title, i % 2 == 0)
        n1 = w.subject(d, t.entity, avoid={t.value})  # the same channel's video about another qualifier
        w.video(f"{key}-n1", n1, ch, _fill(d.title_negative, n1.entity, n1.qualifier), i % 2 == 0)
        copy = Subject(d, t.entity, t.qualifier, _value(d, w.rng, {t.value, n1.value}))  # same title, other channel
        w.video(f"{key}-n2", copy, other, title, i % 2 == 0)
        q = _fill(w.rng.choice(d.questions), t.entity, t.qualifier)
        questions.append({"id": key, "question": f'In {ch}\'s video titled "{title}", {_lower_first(q)}',
                          "answer": t.truth(), "level": "L1", "genre": d.genre, "seed_video_ids": [f"{key}-a"]})
    for i in range(per_level):  # L2: a remark in the speech names the video; the value is spoken
        d = domains[(per_level + i) % len(domains)]
        key = f"l2-{seed}-{i}-{d.key}"
        cue = CUES[(seed + i) % len(CUES)]
        ch = w.rng.choice(CHANNELS)
        t = w.subject(d)
        w.video(f"{key}-a", t, ch, _fill(d.title_answer, t.entity, t.qualifier), False, cue)
        for n in (1, 2):
            s = w.subject(d, t.entity, avoid={t.value})
            w.video(f"{key}-n{n}", s, w.rng.choice(CHANNELS), _fill(d.title_negative, t.entity, t.qualifier), False,
                    CUES[(seed + i + n) % len(CUES)])
        q = _fill(w.rng.choice(d.questions), t.entity, t.qualifier)
        questions.append({"id": key, "question": f"In the video where the narrator says {cue}, {_lower_first(q)}",
                          "answer": t.truth(), "level": "L2", "genre": d.genre, "seed_video_ids": [f"{key}-a"]})
    questions += _level3(w, seed, per_level)
    out = {"corpus": folder / "corpus.jsonl", "questions": folder / "questions.jsonl"}
    out["corpus"].write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in w.corpus), encoding="utf-8")
    out["questions"].write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in questions), encoding="utf-8")
    return out


def _level3(w: _World, seed: int, per_level: int) -> list[dict]:
    """Two videos per question: a comparison of two subjects or a difference of their values."""
    questions = []
    comparable = [d for d in DOMAINS if d.compare or d.key in LEVEL3_DIFFERENCE]
    for i in range(per_level):
        d = comparable[i % len(comparable)]
        key = f"l3-{seed}-{i}-{d.key}"
        a = w.subject(d)
        b = w.subject(d, a.entity, avoid={a.value})
        ch = w.rng.choice(CHANNELS)
        for tag, s in (("a", a), ("b", b)):
            w.video(f"{key}-{tag}", s, ch, _fill(d.title_negative, s.entity, s.qualifier), i % 2 == 0)
        w.video(f"{key}-n1", w.subject(d, qualifier=a.qualifier, avoid={a.value, b.value}), ch,
                _fill(d.title_negative, a.entity, a.qualifier) + " (archive)", i % 2 == 0)
        if d.key in LEVEL3_DIFFERENCE and (i % 2 == 1 or not d.compare):
            question = LEVEL3_DIFFERENCE[d.key].format(e=a.entity, q=a.qualifier, q2=b.qualifier)
            unit = {"bridge": " years", "bakery": " EUR", "recipe": " minutes"}[d.key]
            answer = f"{abs(a.value - b.value)}{unit}"
        else:
            question = d.compare.format(e=a.entity, q=a.qualifier, q2=b.qualifier)
            answer = (a if a.value > b.value else b).qualifier
        questions.append({"id": key, "question": question, "answer": answer, "level": "L3", "genre": d.genre,
                          "seed_video_ids": [f"{key}-a", f"{key}-b"]})
    return questions
