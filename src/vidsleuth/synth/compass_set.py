"""The compass demo set: generated clips where a coloured square (captioned on screen) moves
across the frame at known times, with TG, SG and QA instances under paired Text and Text+Image
targets. A generated world with its truth (the synth floor): ``bench compass`` without ``--data``
is handed ``make_demo_set`` by the CLI, the runner never imports it."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from .clips import Caption, ClipSpec, Overlay, Shot, make_clip


def make_demo_set(folder: str | Path) -> Path:
    """A tiny generated set: clips where a coloured square (captioned on screen) moves across the
    frame at known times; TG, SG and QA instances with paired Text and Text+Image targets."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    specs = [  # name, seconds, colour, hex, start, end, from (x, y), to (x, y), direction, domain, category
        ("red_square", 12, "red", "0xE02020", 3.0, 7.0, (40, 60), (440, 60), "right", "shapes", "motion"),
        ("blue_square", 12, "blue", "0x2040E0", 5.0, 9.0, (500, 250), (100, 250), "left", "shapes", "motion"),
        ("green_square", 16, "green", "0x20B040", 2.0, 10.0, (280, 260), (280, 20), "up", "signs", "motion"),
        ("yellow_square", 100, "yellow", "0xE0D020", 40.0, 70.0, (280, 20), (280, 240), "down", "signs", "motion"),
    ]
    size, w, h = 80, 640, 360
    rows = []
    for name, secs, colour, hexcol, s, e, (x0, y0), (x1, y1), direction, domain, category in specs:
        video = folder / f"{name}.mp4"
        overlay = Overlay(s, e, hexcol, size, (x0, y0), (x1, y1))
        if not video.exists():
            make_clip(video, ClipSpec(
                shots=(Shot(secs * 25, "0x303030"),), audio=False, overlays=(overlay,),
                captions=(Caption(s, e, f"{colour.upper()} SQUARE", y="h-text_h-12", size=28),)))
        ref = folder / f"{name}_ref.png"
        if not ref.exists():
            Image.new("RGB", (size, size), tuple(int(hexcol[i:i + 2], 16) for i in (2, 4, 6))).save(ref)
        directions = ["left", "right", "up", "down", "it does not move"]
        common = {"video": video.name, "track": "VL", "domain": domain, "duration": float(secs), "ref_image": ref.name}
        rows += [
            {"id": f"{name}-tg", "task": "TG", **common, "category": "event",
             "text": f"When is the {colour} square visible?",
             "text_prime": "When is the object shown in the reference image visible?", "interval": [s, e]},
            {"id": f"{name}-sg", "task": "SG", **common, "category": "object", "frame_size": [w, h],
             "text": f"Where is the {colour} square?", "text_prime": "Where is the object shown in the reference image?",
             "interval": [s, e], "boxes": [overlay.box_at(s), overlay.box_at(e)]},
            {"id": f"{name}-qa", "task": "QA", **common, "category": category,
             "text": f"In which direction does the {colour} square move?",
             "text_prime": "In which direction does the object shown in the reference image move?",
             "options": directions, "answer": "ABCDE"[directions.index(direction)]},
        ]
    data = folder / "compass_demo.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data
