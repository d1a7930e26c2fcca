"""A small deterministic video-browsing world: questions whose answers are shown or spoken only
inside a video, each with hard negatives whose titles and descriptions match the question better
than the answer video's do, while their on-screen content does not (seed 001 App. A.5's idea);
plus a separate training split for Translation Memory."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .. import synth

W, H, FPS, SECONDS = 480, 270, 25, 6


@dataclass(frozen=True)
class Topic:
    key: str
    genre: str
    question: str
    answer: str
    seed_title: str
    seed_desc: str
    seed_screen: str  # on-screen text of the answer video
    negatives: tuple[tuple[str, str, str], ...]  # (title, description, on-screen text)
    speech: str = ""
    channel: str = "Local Lens"
    cjk: bool = False


TOPICS = (
    Topic("lighthouse", "Documentary", "What year is written on the plaque at the Harbor Point lighthouse?", "1887",
          "Harbor Point walk", "A short walk to the old tower", "HARBOR POINT PLAQUE 1887",
          (("Harbor Point lighthouse plaque restoration", "The lighthouse plaque at Harbor Point, what year?", "GIFT SHOP OPEN"),
           ("Harbor Point lighthouse plaque history", "Year of the Harbor Point lighthouse plaque", "FERRY TIMES"))),
    Topic("bakery", "Education & Knowledge", "What price is shown for the sourdough loaf at Rossi Bakery?", "4 EUR",
          "Rossi Bakery morning", "Baking at dawn", "SOURDOUGH 4 EUR",
          (("Rossi Bakery sourdough loaf price", "Sourdough loaf price at Rossi Bakery shown", "FRESH CROISSANTS"),
           ("Rossi Bakery sourdough price guide", "What the sourdough loaf costs at Rossi Bakery", "OVEN AT 250C"))),
    Topic("museum", "Documentary", "Which day is the Vell Museum closed according to the door sign?", "Monday",
          "Vell Museum entrance", "Arriving at the museum", "VELL MUSEUM CLOSED MONDAY",
          (("Vell Museum closed day door sign", "Which day is the Vell Museum closed? Door sign explained", "AUDIO GUIDE 3 EUR"),
           ("Vell Museum door sign closed", "The Vell Museum door sign and closing day", "NO FLASH PHOTOGRAPHY"))),
    Topic("cup", "Sports", "What was the final score of the Ostra Cup final?", "3-1",
          "Ostra Cup highlights", "Goals and saves", "OSTRA CUP FINAL 3-1",
          (("Ostra Cup final score reaction", "Final score of the Ostra Cup final: fans react", "HALF TIME"),
           ("Ostra Cup final score preview", "Ostra Cup final score predictions", "KICK OFF 18:00"))),
    Topic("train", "Video & Shorts", "Which platform does the night train to Kerrow leave from?", "7",
          "Kerrow station at night", "Waiting for the last train", "KERROW NIGHT TRAIN PLATFORM 7",
          (("Night train to Kerrow platform", "Which platform for the Kerrow night train", "TICKET OFFICE"),
           ("Kerrow night train platform guide", "Night train platform information for Kerrow", "CAFE CLOSED"))),
    Topic("dumpling", "Education & Knowledge", "How many minutes is the Tomsk dumpling dough rested?", "30",
          "Tomsk dumplings at home", "Family recipe", "REST THE DOUGH 30 MINUTES",
          (("Tomsk dumpling dough rested minutes", "How many minutes to rest Tomsk dumpling dough", "ADD SALT"),
           ("Tomsk dumpling dough resting time", "Resting minutes for Tomsk dumpling dough", "BOIL WATER")),
          speech="rest the dough for thirty minutes"),
    Topic("chess", "Games & Esports", "Which move wins the Lindqvist endgame puzzle?", "rook e8",
          "Lindqvist puzzle solved", "A classic study", "WINNING MOVE ROOK E8",
          (("Lindqvist endgame puzzle winning move", "Which move wins the Lindqvist endgame puzzle", "WHITE TO PLAY"),
           ("Lindqvist endgame puzzle move explained", "The winning move of the Lindqvist endgame", "DRAW OFFERED"))),
    Topic("weather", "TV Series", "What temperature is forecast for Marlow on Friday?", "12C",
          "Marlow weekend outlook", "Regional weather", "MARLOW FRIDAY 12C",
          (("Marlow Friday temperature forecast", "What temperature is forecast for Marlow Friday", "WIND WARNING"),
           ("Marlow forecast Friday temperature", "Friday temperature forecast for Marlow", "SUNRISE 07:12"))),
    Topic("concert", "Music & Variety", "What time does the Halvard Quartet concert start?", "8 PM",
          "Halvard Quartet rehearsal", "Strings warming up", "HALVARD QUARTET 8 PM",
          (("Halvard Quartet concert start time", "What time does the Halvard Quartet concert start", "SOLD OUT"),
           ("Halvard Quartet concert time", "Start time of the Halvard Quartet concert", "DOORS AT THE SIDE"))),
    Topic("apples", "Film", "北京市场的苹果多少钱一斤？", "5元",
          "北京早市", "清晨的菜市场", "苹果 5元",
          (("北京市场苹果价格", "北京市场的苹果多少钱一斤", "香蕉 特价"),
           ("北京市场苹果多少钱", "苹果价格 北京市场 一斤", "营业时间 六点")), cjk=True, channel="城市新闻"),
)

TRAINING = (
    Topic("library", "Documentary", "What time does the Dunmore library open on Saturdays?", "9 AM",
          "Dunmore library tour", "Books and reading rooms", "DUNMORE LIBRARY SATURDAY 9 AM", ()),
    Topic("ferry", "Video & Shorts", "How long is the ferry crossing to Inis Beag?", "40 minutes",
          "Ferry to Inis Beag", "Island trip by ferry", "INIS BEAG CROSSING 40 MIN", ()),
    Topic("marathon", "Sports", "What was the winning time of the Velden marathon?", "2:11:05",
          "Velden marathon finish", "Runners at the line", "VELDEN MARATHON WINNER 2:11:05", ()),
    Topic("garden", "Education & Knowledge", "Which rose variety won at the Caldor garden show?", "Amber Dawn",
          "Caldor garden show", "Flowers and prizes", "CALDOR BEST ROSE AMBER DAWN", ()),
    Topic("quiz", "TV Series", "How many points did team Lark score in the Brennan quiz final?", "42",
          "Brennan quiz final", "Teams compete", "BRENNAN QUIZ TEAM LARK 42", ()),
    Topic("opera", "Music & Variety", "Who sang the lead in the Ostwick opera premiere?", "Mira Solenne",
          "Ostwick opera premiere", "Opening night", "OSTWICK PREMIERE LEAD MIRA SOLENNE", ()),
)

COLOURS = ("0x1a3a6a", "0x6a1a3a", "0x3a6a1a", "0x5a4a2a", "0x2a5a5a")


def _clip(path: Path, screen: str, colour: str, cjk: bool, speech: str = "") -> None:
    if path.exists() and path.with_suffix(".truth.json").exists():
        return
    synth.make_clip(path, synth.ClipSpec(
        shots=(synth.Shot(SECONDS * FPS, colour),), fps=FPS, width=W, height=H, audio=bool(speech),
        speech=(synth.Speech(0.5, speech),) if speech else (),
        captions=(synth.Caption(0.5, SECONDS - 0.5, screen, size=22, cjk=cjk),)))


def build(folder: str | Path, topics: tuple[Topic, ...] = TOPICS, training: tuple[Topic, ...] = TRAINING) -> dict[str, Path]:
    """Clips, ``corpus.jsonl``, ``questions.jsonl`` (eval) and ``train.jsonl`` (memory) in ``folder``."""
    folder = Path(folder)
    clips = folder / "clips"
    clips.mkdir(parents=True, exist_ok=True)
    corpus, questions, train = [], [], []
    for i, t in enumerate(topics):
        seed_id = f"{t.key}-a"
        _clip(clips / f"{seed_id}.mp4", t.seed_screen, COLOURS[i % 5], t.cjk, t.speech)
        corpus.append({"video_id": seed_id, "title": t.seed_title, "description": t.seed_desc, "channel": t.channel,
                       "tags": [t.genre], "duration": float(SECONDS), "path": f"clips/{seed_id}.mp4"})
        for j, (title, desc, screen) in enumerate(t.negatives, 1):
            vid = f"{t.key}-n{j}"
            _clip(clips / f"{vid}.mp4", screen, COLOURS[(i + j) % 5], t.cjk)
            corpus.append({"video_id": vid, "title": title, "description": desc, "channel": t.channel,
                           "tags": [t.genre], "duration": float(SECONDS), "path": f"clips/{vid}.mp4"})
        questions.append({"id": t.key, "question": t.question, "answer": t.answer, "level": "L1", "genre": t.genre,
                          "seed_video_ids": [seed_id], "hard_negative_ids": [f"{t.key}-n{j}" for j in (1, 2)]})
    for i, t in enumerate(training):
        vid = f"train-{t.key}"
        _clip(clips / f"{vid}.mp4", t.seed_screen, COLOURS[i % 5], t.cjk)
        corpus.append({"video_id": vid, "title": t.seed_title, "description": t.seed_desc, "channel": t.channel,
                       "tags": [t.genre], "duration": float(SECONDS), "path": f"clips/{vid}.mp4"})
        train.append({"id": f"train-{t.key}", "question": t.question, "answer": t.answer, "seed_video_id": vid,
                      "transcript_snippet": t.seed_screen.lower()})
    for rec in corpus:  # absolute paths, so the corpus works from anywhere
        rec["path"] = str((folder / rec["path"]).resolve())
    out = {"corpus": folder / "corpus.jsonl", "questions": folder / "questions.jsonl", "train": folder / "train.jsonl"}
    for key, rows in (("corpus", corpus), ("questions", questions), ("train", train)):
        out[key].write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return out
