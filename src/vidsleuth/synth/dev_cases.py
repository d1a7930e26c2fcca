"""Hand-written development cases for the report relater, unlike ``report_cases``' generator: each
is a small world written as a person would (a roast with °F ranges and a food-safety table, an
e-bike review with compound units, a price and a spec table whose units are in the header, a
Chinese health video), with bounds, approximations, revisions without dates, near-duplicates and
real distractor pages from ``/usr/share/doc``. Truth is per (document, parameter) pair, scored by
``report_cases.score``. Built to be varied while developing; the held-out tasks are someone else's.

``build(folder, name)`` writes ``video.mp4``, ``docs/`` and ``truth.json``; ``CASES`` names them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .clips import Caption, ClipSpec, Shot, Speech, make_clip, remux

VIDEO_DATE = "2024-06-01"

# name -> (title, request, voice, language, params, docs); a param is (key, speech, caption);
# a doc is (file, date, text, {param: relation}); "<table>" bodies are HTML tables
CASES: dict[str, tuple] = {
    "roast": ("Sunday roast chicken", "Check the roasting settings in this video against food-safety guidance, and say "
              "what to change.", "piper", "en", (
        ("oven", "Preheat the oven to one hundred and eighty degrees.", "OVEN 180 °C"),
        ("core", "Cook the chicken until the inside reaches seventy four degrees.", "CORE 74 °C"),
        ("rest", "Then rest the chicken for fifteen minutes before carving.", "REST 15 MIN"),
        ("brine", "I brine the bird for about twelve hours the night before.", "BRINE 12 H")), (
        ("roasting-guide.html", "2023-09-10", "<p>For even browning, roast a whole chicken in an oven set between 350 "
         "and 375 °F.</p><p>Baste it once halfway.</p>", {"oven": "supports"}),
        ("safe-temperatures.html", "2024-01-15", "<p>Cook all food to these minimum internal temperatures, measured "
         "with a food thermometer.</p><table><tr><th>Food</th><th>Minimum internal temperature (°F)</th></tr>"
         "<tr><td>Poultry, whole chicken</td><td>165</td></tr><tr><td>Ground beef</td><td>160</td></tr>"
         "<tr><td>Fish</td><td>145</td></tr></table>", {"core": "supports"}),
        ("resting.md", "", "# Resting meat\n\nLet a roast chicken rest for at least 10 minutes so the juices settle.\n",
         {"rest": "supports"}),
        ("brining-faq.txt", "", "Brining FAQ\n\nWe now recommend brining poultry for no more than 8 hours: longer brines "
         "make the meat spongy.\n", {"brine": "updates"}),
        ("old-wives.html", "2021-03-02", "<p>Chicken is safe once the thickest part of the chicken reaches 60 °C.</p>",
         {"core": "contradicts"}),
        ("oven-tips.md", "2022-05-05", "# Oven tips\n\nThe oven temperature matters because a hot oven dries the breast "
         "before the thighs are done.\n", {"oven": "explains"}),
        ("car-review.html", "2024-02-02", "<p>The family car weighs 1,400 kg and its engine delivers 250 Nm. The "
         "cabin heater reaches 180 °F in ten minutes.</p>", {}),
    )),
    "ebike": ("Trailrunner 500 e-bike review", "Is what this review says about the Trailrunner 500 right, and what has "
              "changed since?", "piper", "en", (
        ("torque", "What's up riders? The motor puts out eighty five newton metres of torque.", "85 Nm"),
        ("battery", "The battery holds six hundred and twenty five watt hours.", "625 Wh"),
        ("speed", "Assistance cuts out at twenty five kilometres per hour.", "25 km/h"),
        ("price", "And the price? Well, it is not cheap.", "$3,499")), (
        ("specs.html", "2024-03-01", "<p>Full specifications of the Trailrunner 500 and its city sibling.</p><table>"
         "<tr><th>Model</th><th>Motor torque (Nm)</th><th>Battery (Wh)</th></tr><tr><td>Trailrunner 500</td><td>85</td>"
         "<td>625</td></tr><tr><td>City 300</td><td>50</td><td>400</td></tr></table>",
         {"torque": "supports", "battery": "supports"}),
        ("eu-rules.md", "2023-11-20", "# E-bike rules in the EU\n\nOn a pedelec, motor assistance must stop at no more "
         "than 25 km/h.\n", {"speed": "supports"}),
        ("price-update.html", "2024-12-02", "<p>Trailrunner 500 owners, note: the price will increase to $3,799 in "
         "2025.</p>", {"price": "updates"}),
        ("forum-bench.txt", "2024-08-14", "Forum: battery bench test\n\nMy Trailrunner 500 battery gave only 540 Wh on "
         "the bench, well below what the review claims.\n", {"battery": "contradicts"}),
        ("city-300.md", "2024-04-04", "# City 300\n\nThe City 300 motor is rated at 50 Nm, unlike the Trailrunner 500.\n",
         {"torque": "compares"}),
    )),
    "health-zh": ("健康生活习惯", "视频里关于每天食盐、饮水、步数和锻炼的建议对吗？哪些需要更新？", "cmn", "zh", (
        ("salt", "每天食盐不超过六克。", "每天食盐不超过6克"),
        ("water", "每天喝水一千五百到一千七百毫升。", "饮水 1500-1700 毫升"),
        ("steps", "每天步行六千步。", "每天步行 6000 步"),
        ("exercise", "每次锻炼至少三十分钟。", "锻炼至少30分钟")), (
        ("salt-guide.html", "2022-04-01", "<p>中国居民膳食指南：成人每天食盐摄入量不超过5克。</p>", {"salt": "contradicts"}),
        ("water.md", "", "# 饮水指南\n\n2024年3月更新\n\n成年人每天饮水1500至1700毫升。\n", {"water": "supports"}),
        ("steps.txt", "2023-08-08", "步行建议\n\n专家建议每天步行6000步以上。\n", {"steps": "supports"}),
        ("exercise.html", "2024-01-01", "<p>已更新：新版指南建议每次锻炼不少于45分钟。</p>", {"exercise": "updates"}),
    )),
}
DISTRACTORS = ("/usr/share/doc/bzip2/manual.html", "/usr/share/doc/bc/bc.html", "/usr/share/doc/base-passwd/users-and-groups.html")


def _doc(path: Path, date: str, text: str, title: str) -> None:
    if path.suffix == ".html":
        meta = f"<meta name='date' content='{date}'>" if date else ""
        path.write_text(f"<!doctype html><html><head><title>{title}</title>{meta}</head><body><main><article><h1>{title}"
                        f"</h1>{text}</article></main><footer>© 2020 Example. 3 offices.</footer></body></html>",
                        encoding="utf-8")
    elif date:
        lines = text.split("\n", 1)
        path.write_text(f"{lines[0]}\n\nPublished {date}.\n\n{lines[1] if len(lines) > 1 else ''}", encoding="utf-8")
    else:
        path.write_text(text, encoding="utf-8")


def build(folder: str | Path, name: str) -> dict:
    """Write case ``name`` into ``folder``: ``video.mp4``, ``docs/``, ``truth.json``. Returns the truth."""
    title, request, voice, language, params, docs = CASES[name]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    speech, captions, t = [], [], 1.0
    for _, said, shown in params:
        speech.append(Speech(t, said, voice=voice, speed=140))
        if shown:
            captions.append(Caption(t + 0.5, t + 5.5, shown, y="h-text_h-40", cjk=language == "zh"))
        t += 7.5
    frames = int((t + 1.0) * 25)
    spec = ClipSpec(shots=(Shot(frames // 2, "0x2a3a1a"), Shot(frames - frames // 2, "0x1a1a3a")),
                          captions=tuple(captions), speech=tuple(speech), title=title)
    raw = folder / ".video-raw.mp4"
    make_clip(raw, spec)
    remux(raw, folder / "video.mp4", "-metadata", f"creation_time={VIDEO_DATE}T12:00:00Z")
    raw.unlink()
    raw.with_suffix(".truth.json").unlink(missing_ok=True)
    out = folder / "docs"
    out.mkdir(exist_ok=True)
    pairs = []
    for file, date, text, rels in docs:
        _doc(out / file, date, text, title=file.rsplit(".", 1)[0].replace("-", " ").capitalize())
        pairs += [{"file": file, "param": p, "relation": r, "sentence": text, "date": date} for p, r in rels.items()]
    distractors = [p for p in DISTRACTORS if Path(p).is_file()]
    for p in distractors:
        shutil.copyfile(p, out / f"debian-{Path(p).parent.name}.html")
    truth = {"case": name, "request": request, "language": language, "video_date": VIDEO_DATE, "title": title,
             "params": [{"key": k, "subject": k, "text": f"{said} {shown}".strip()} for k, said, shown in params],
             "pairs": pairs, "distractors": [f"debian-{Path(p).parent.name}.html" for p in distractors]}
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
    return truth
