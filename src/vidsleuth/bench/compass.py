"""OmniCompass-style evaluation (seed 002): TG, SG and QA under paired Text and Text+Image target
specifications, on the VL (frames) or AV (frames + audio) track.

Model input follows App. E.1: K uniformly sampled frames, each preceded by its timestamp as text
in seconds; the AV track adds the audio after the frames; in Text+Image the reference image
follows these inputs and immediately precedes the task prompt; the prompt states the duration.
The seed shows its task prompts only as figures, so ours (``prompts/compass_*.j2``) are written to
the same contract, and their hashes go into ``run.json``.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DataFileError, VidsleuthError
from ..files import writes_output
from ..manifest import MANIFEST_FILE, manifest_rows, write_manifest
from ..models.types import AudioPart, ImagePart, Message
from ..prompts import prompt_hash, render
from ..timecode import seconds_label
from .datasets import LETTERS, Instance
from .grounding import (
    box_iou,
    cs_qa,
    cs_sg,
    cs_tg,
    normalise_interval,
    score_boxes,
    score_grounding,
    score_qa,
    tiou,
)
from .parse import parse_boxes, parse_interval, parse_option

SETTINGS = ("text", "text+image")
PROMPTS = {"TG": "compass_tg.j2", "SG": "compass_sg.j2", "QA": "compass_qa.j2"}
_BOX = {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}
# Grammar-constrained output for the small local model only: remote models answer free-form and
# are parsed, as the seed evaluates them.
LOCAL_SCHEMAS = {
    "TG": {"type": "object", "properties": {"start": {"type": "number"}, "end": {"type": "number"}},
           "required": ["start", "end"]},
    "SG": {"type": "object", "properties": {"start_box": _BOX, "end_box": _BOX}, "required": ["start_box", "end_box"]},
    "QA": {"type": "object", "properties": {"answer": {"enum": list("ABCDE")}}, "required": ["answer"]},
}
MODALITIES = ("text", "vision", "vision+audio")


def frame_budgets() -> dict:
    """The seed's per-family frame budgets (package data ``data/frame_budgets.json``)."""
    from importlib.resources import files

    return json.loads(files("vidsleuth").joinpath("data/frame_budgets.json").read_text(encoding="utf-8"))


def frame_budget(endpoint) -> int:
    """An endpoint's ``frames`` option, else the first rule of the seed's table whose glob
    matches the model name (case-insensitive), else the table's default (32)."""
    from fnmatch import fnmatch

    if endpoint.options.get("frames"):
        return int(endpoint.options["frames"])
    table = frame_budgets()
    name = (endpoint.model or endpoint.name).lower()
    for rule in table["rules"]:
        if fnmatch(name, rule["match"]):
            return int(rule["frames"])
    return int(table["default"])


@dataclass(frozen=True)
class Serialisation:
    timestamps: bool = True
    modality: str = "vision"  # text | vision | vision+audio
    audio: bool = False  # the AV track


def task_prompt(inst: Instance, setting: str, frame_note: str) -> str:
    target = inst.text if setting == "text" else inst.text_prime
    values: dict[str, Any] = {"duration": inst.duration, "target": target, "frame_note": frame_note}
    if inst.task == "SG":
        values.update(start=inst.interval[0], end=inst.interval[1], width=inst.frame_size[0], height=inst.frame_size[1])
    if inst.task == "QA":
        values["options"] = list(zip(LETTERS, inst.options))
    return render(PROMPTS[inst.task], **values).strip()


def build_messages(inst: Instance, setting: str, frames: list, ser: Serialisation, notes: dict[float, str] | None = None) -> list[Message]:
    """One user message: [t][frame]… [audio] [ref image] [prompt] (App. E.1 order)."""
    if setting not in SETTINGS:
        raise VidsleuthError(f"unknown setting {setting!r}")
    if setting == "text+image" and not inst.paired:
        raise VidsleuthError(f"instance {inst.id} has no Text+Image specification")
    parts: list[Any] = []
    if ser.modality != "text":
        for n, f in enumerate(frames):
            if ser.timestamps:
                parts.append(seconds_label(f.t))
            parts.append(ImagePart(f.image, note=(notes or {}).get(f.t, ""), video=str(inst.video), t=f.t, index=n))
    if ser.audio and ser.modality == "vision+audio":
        parts.append(AudioPart(inst.video))
    if setting == "text+image" and ser.modality != "text":  # text-only removes all media, reference images too (§4)
        parts.append(ImagePart(inst.ref_image, note="reference image of the target", video=str(inst.ref_image)))
    note = " Each frame above is preceded by its time in seconds." if ser.timestamps and ser.modality != "text" else ""
    parts.append(task_prompt(inst, setting, note))
    return [Message.of("user", *parts)]


def parse_prediction(inst: Instance, raw: str | None, box_format: str = "auto"):
    if raw is None:
        return None
    if inst.task == "TG":
        return parse_interval(raw)
    if inst.task == "SG":
        return parse_boxes(raw, inst.frame_size, box_format)
    return parse_option(raw, list(inst.options))


# --------------------------------------------------------------------------- scoring


def duration_group(d: float) -> str:
    return "short" if d < 90 else "medium" if d < 300 else "long"


def _granularity(inst: Instance) -> float | None:
    if inst.task == "TG":
        return (inst.interval[1] - inst.interval[0]) / inst.duration
    if inst.task == "SG":
        w, h = inst.frame_size
        return float(np.mean([(b[2] - b[0]) * (b[3] - b[1]) / (w * h) for b in inst.boxes]))
    return None


def _quartile_labels(values: dict[str, float]) -> dict[str, str]:
    if not values:
        return {}
    qs = np.quantile(list(values.values()), [0.25, 0.5, 0.75])
    return {k: f"Q{1 + int(np.searchsorted(qs, v, side='right'))}" if len(values) >= 4 else "all" for k, v in values.items()}


def _instance_score(inst: Instance, pred) -> float:
    """TG: tIoU; SG: mean endpoint IoU; QA: 1/0."""
    if pred is None:
        return 0.0
    if inst.task == "TG":
        return tiou(normalise_interval(pred)[0], inst.interval)
    if inst.task == "SG":
        return float(np.mean([box_iou(p, g) for p, g in zip(pred, inst.boxes)]))
    return float(pred == inst.answer)


def _correct(inst: Instance, pred) -> bool:
    """For the exactly-one-setting count: QA exact; TG and SG at IoU >= 0.5."""
    s = _instance_score(inst, pred)
    return s >= 0.5 if inst.task != "QA" else s == 1.0


def score(instances: list[Instance], parsed: dict[tuple[str, str], Any], raw_missing: set[tuple[str, str]] | None = None) -> dict:
    """Per-setting metrics, CS scores, Average and CS_Avg (§3.1), and the breakdowns."""
    by_task: dict[str, list[Instance]] = defaultdict(list)
    for inst in instances:
        by_task[inst.task].append(inst)
    out: dict[str, Any] = {"settings": {}, "consistency": {}, "counts": {}}
    for setting in SETTINGS:
        res: dict[str, Any] = {}
        for task, insts in by_task.items():
            insts = [i for i in insts if setting == "text" or i.paired]
            if not insts:
                continue
            preds = [parsed.get((i.id, setting)) for i in insts]
            if task == "TG":
                res["TG"] = score_grounding([{"gt": [i.interval], "pred": [p] if p else None} for i, p in zip(insts, preds)]).metrics()
            elif task == "SG":
                res["SG"] = score_boxes([{"gt": i.boxes, "pred": p} for i, p in zip(insts, preds)])
            else:
                res["QA"] = score_qa([{"gt": i.answer, "pred": p} for i, p in zip(insts, preds)])
        parts = [res[t][k] for t, k in (("TG", "mIoU"), ("SG", "mIoU"), ("QA", "accuracy")) if t in res]
        res["Average"] = float(np.mean(parts)) if parts else 0.0
        out["settings"][setting] = res
    # N_q is the number of evaluated pairs (§3.1): a pair whose side was never answered (an
    # endpoint error, counted in "missing") is left out; an answered but unparseable side is a
    # wrong answer and scores 0 in an eligible pair.
    cs, eligible = {}, {}
    missing = raw_missing or set()
    for task, insts in by_task.items():
        pairs = [i for i in insts if i.paired and (i.id, "text") not in missing and (i.id, "text+image") not in missing]
        eligible[f"CS_{task}"] = len(pairs)
        if not pairs:
            continue
        get = lambda i, s: parsed.get((i.id, s))
        if task == "TG":
            cs["CS_TG"] = cs_tg([(get(i, "text"), get(i, "text+image"), i.interval) for i in pairs])
        elif task == "SG":
            cs["CS_SG"] = cs_sg([(get(i, "text"), get(i, "text+image"), i.boxes) for i in pairs])
        else:
            cs["CS_QA"] = cs_qa([(get(i, "text"), get(i, "text+image"), i.answer) for i in pairs])
    cs["CS_Avg"] = float(np.mean(list(cs.values()))) if cs else 0.0
    out["consistency"] = cs
    out["consistency_pairs"] = eligible
    paired = [i for i in instances if i.paired]
    out["counts"] = {
        "instances": len(instances), "paired": len(paired),
        "unparsed": sum(1 for i in instances for s in SETTINGS if (s == "text" or i.paired) and parsed.get((i.id, s)) is None),
        "missing": len(raw_missing or ()),
        "correct_in_exactly_one_setting": sum(_correct(i, parsed.get((i.id, "text"))) != _correct(i, parsed.get((i.id, "text+image"))) for i in paired),
    }
    out["breakdowns"] = breakdowns(instances, parsed)
    return out


def breakdowns(instances: list[Instance], parsed: dict) -> dict:
    """Mean per-instance score (TG tIoU, SG endpoint IoU, QA accuracy) by duration group, domain,
    QA category and target-granularity quartile, for each setting."""
    gran = {t: _quartile_labels({i.id: _granularity(i) for i in instances if i.task == t}) for t in ("TG", "SG")}
    keys = {
        "duration": lambda i: duration_group(i.duration),
        "domain": lambda i: i.domain or "(none)",
        "qa_category": lambda i: (i.category or "(none)") if i.task == "QA" else None,
        "granularity": lambda i: gran.get(i.task, {}).get(i.id),
    }
    out: dict[str, Any] = {}
    for name, key in keys.items():
        table: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
        for inst in instances:
            group = key(inst)
            if group is None:
                continue
            for setting in SETTINGS:
                if setting == "text+image" and not inst.paired:
                    continue
                table[inst.task][group][setting].append(_instance_score(inst, parsed.get((inst.id, setting))))
        out[name] = {task: {g: {s: {"mean": float(np.mean(v)), "n": len(v)} for s, v in settings.items()}
                            for g, settings in sorted(groups.items())} for task, groups in table.items()}
    return out


# --------------------------------------------------------------------------- runner


def _answer_instance(inst: Instance, model, ser: Serialisation, k_frames: int, box_format: str) -> dict:
    """Both settings of one instance (Text, and Text+Image when paired), sharing one frame sample."""
    from ..media import sample_frames

    frames = sample_frames(inst.video, k_frames) if ser.modality != "text" else []
    text_only = not model.endpoint.accepts("vision")
    # A text-only model is told each frame's time with what it reads on it, and answers in
    # grammar-constrained JSON; others answer free-form, parsed as the seed parses them.
    notes = {f.t: f"frame at {seconds_label(f.t)}" for f in frames} if text_only else None
    schema = LOCAL_SCHEMAS[inst.task] if text_only else None
    rows = {}
    for setting in [s for s in SETTINGS if s == "text" or inst.paired]:
        reply = model.chat(build_messages(inst, setting, frames, ser, notes), max_tokens=256, schema=schema)
        rows[setting] = {"id": inst.id, "setting": setting, "task": inst.task, "prediction": reply.text,
                         "parsed": parse_prediction(inst, reply.text, box_format), "frames": [f.t for f in frames],
                         "manifest": [r.to_dict() for r in reply.extra.get("frames", ())]}
    return rows


@writes_output("bench compass")
def run_compass(data: str | Path, models, model_name: str, out: str | Path, *, track: str | None = None,
                frames: int | None = None, timestamps: bool = True, modality: str | None = None,
                concurrency: int = 4, box_format: str = "auto", retries: int = 0) -> dict:
    """Both settings of every instance; resumable; writes predictions, metrics, summary, plots, run.json."""
    from .. import __version__
    from ..runner import map_items
    from ..store import RunStore
    from .datasets import read_instances

    instances = [i for i in read_instances(data) if track is None or i.track == track]
    if not instances:
        raise VidsleuthError(f"no instances{' on track ' + track if track else ''}", path=data)
    modality = modality or ("vision+audio" if track == "AV" else "vision")
    if modality not in MODALITIES:
        raise VidsleuthError(f"unknown modality {modality!r}", hint=f"choose {', '.join(MODALITIES)}")
    endpoint_model = models.get(model_name, role="compass")
    k = frames or frame_budget(endpoint_model.endpoint)
    ser = Serialisation(timestamps=timestamps, modality=modality, audio=modality == "vision+audio")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    protocol = {"benchmark": "compass", "data": str(Path(data).resolve()), "track": track or "all", "model": model_name,
                "endpoint_model": endpoint_model.endpoint.model, "backend": endpoint_model.endpoint.backend, "frames": k,
                "timestamps": timestamps, "modality": modality, "box_format": box_format,
                "prompts": {t: prompt_hash(p) for t, p in PROMPTS.items()},
                "image_max_side": endpoint_model.endpoint.image_max_side,
                "image_quality": endpoint_model.endpoint.image_quality, "vidsleuth": __version__}
    store = RunStore(out / "runs.sqlite")  # per-item results: a killed run resumes here
    run_id = store.find_or_start("compass", protocol)
    model = models.bind(store, run_id).get(model_name, role="compass")
    result = map_items(lambda inst: _answer_instance(inst, model, ser, k, box_format), [(i.id, i) for i in instances],
                       store=store, run_id=run_id, workers=concurrency, retries=retries, label="compass")
    done = {f"{iid}|{setting}": row for iid, rows in result.done.items() for setting, row in rows.items()}
    parsed = {(r["id"], r["setting"]): r["parsed"] for r in done.values()}
    missing = {(i.id, s) for i in instances for s in SETTINGS if (s == "text" or i.paired) and f"{i.id}|{s}" not in done}
    metrics = score(instances, parsed, missing)
    metrics["calls"] = store.summary(run_id)
    metrics["errors"] = result.errors()
    metrics["frames"] = k
    write_outputs(out, instances, done, metrics, protocol, model_name, k, result.seconds)
    return metrics


@writes_output("bench compass")
def run_compass_sweep(data: str | Path | None, config, model: str, out: str | Path, *, frames: list[int] | None = None,
                      cache: bool = True, workers: int = 4, **kw) -> dict:
    """``run_compass`` for each frame budget (one budget: ``out`` itself; several: ``out/frames-K``
    plus the sweep plot). Without ``data``, the generated demo set. Returns ``results`` per
    budget (with its summary table), the run ``errors`` and how many settings are ``missing``."""
    from ..models import Models

    models = Models(config, cache=cache)
    models.get(model)  # an unknown endpoint fails before anything is written
    data = data or make_demo_set(Path(out) / "demo-data")
    budgets = list(frames) if frames else [None]
    results, errors, missing = {}, [], 0
    for k in budgets:
        target = Path(out) if len(budgets) == 1 else Path(out) / f"frames-{k}"
        m = run_compass(data, models, model, target, frames=k, concurrency=workers, **kw)
        errors += m["errors"]
        missing += m["counts"]["missing"]
        results[str(k or "default")] = {"out": str(target), "consistency": m["consistency"],
                                        "consistency_pairs": m["consistency_pairs"], "counts": m["counts"],
                                        "average": {s: v.get("Average") for s, v in m["settings"].items()},
                                        "summary": summary_table(m, model, m["frames"])}
    if len(budgets) > 1:
        plot_sweep(results, Path(out))
    return {"results": results, "errors": errors, "missing": missing}


def write_outputs(out: Path, instances, done: dict, metrics: dict, protocol: dict, model_name: str, k: int, seconds: float) -> None:
    order = {i.id: n for n, i in enumerate(instances)}
    rows = sorted(done.values(), key=lambda r: (order.get(r["id"], 1 << 30), r["setting"]))
    with open(out / "predictions.jsonl", "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps({k: v for k, v in r.items() if k != "manifest"}, ensure_ascii=False) + "\n")
    write_manifest(out / MANIFEST_FILE, [m for r in rows for m in manifest_rows(f"{r['id']}|{r['setting']}", r.get("manifest", ()))])
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    (out / "summary.md").write_text(summary_table(metrics, model_name, k))
    (out / "run.json").write_text(json.dumps({"protocol": protocol, "seconds": round(seconds, 2),
                                              "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}, indent=2))
    plot(metrics, out / "plots")


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}"


def summary_table(m: dict, model_name: str, k: int) -> str:
    """The seed's Table 2 layout: Text/Text+Image pairs, then CS, per task; Average and CS_Avg."""
    t, ti = m["settings"].get("text", {}), m["settings"].get("text+image", {})
    g = lambda res, task, key: res.get(task, {}).get(key)
    pair = lambda task, key: f"{_pct(g(t, task, key))}/{_pct(g(ti, task, key))}"
    cs = m["consistency"]
    head = ("| Model | Frames | TG R1@0.5 | TG mIoU | CS_TG | SG AP@0.5 | SG mIoU | CS_SG | QA Acc | CS_QA | Average | CS_Avg |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    row = (f"| {model_name} | {k} | {pair('TG', 'R1@0.5')} | {pair('TG', 'mIoU')} | {_pct(cs.get('CS_TG'))} | "
           f"{pair('SG', 'AP@0.5')} | {pair('SG', 'mIoU')} | {_pct(cs.get('CS_SG'))} | {pair('QA', 'accuracy')} | "
           f"{_pct(cs.get('CS_QA'))} | {_pct(t.get('Average'))}/{_pct(ti.get('Average'))} | {_pct(cs.get('CS_Avg'))} |\n")
    c = m["counts"]
    notes = (f"\nPercent; Text/Text+Image. {c['instances']} instances ({c['paired']} paired), {c['unparsed']} unparsed "
             f"answers (scored 0), {c['missing']} missing, {c['correct_in_exactly_one_setting']} pairs correct under "
             f"exactly one setting (TG/SG at IoU >= 0.5).\n")
    pairs = m.get("consistency_pairs") or {}
    if pairs:
        notes += ("Eligible pairs (N_q, both sides answered): "
                  + ", ".join(f"{k} {v}" for k, v in sorted(pairs.items())) + ".\n")
    calls = m.get("calls", {}).get("total", {})
    if calls:
        notes += (f"Model calls: {calls.get('model_calls', 0)} (+{calls.get('cache_hits', 0)} cached), tokens in/out "
                  f"{calls.get('tokens_in', 0)}/{calls.get('tokens_out', 0)}, errors {calls.get('errors', 0)}.\n")
    return "# OmniCompass-style results\n\n" + head + row + notes


def plot(m: dict, folder: Path) -> None:
    """Per-category bars, duration-group and granularity curves (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    for name, title in (("qa_category", "QA accuracy by category"), ("domain", "Score by domain"),
                        ("duration", "Score by duration group"), ("granularity", "Score by target-granularity quartile")):
        table = m["breakdowns"].get(name, {})
        fig, ax = plt.subplots(figsize=(7, 3.5))
        labels_done = False
        for task, groups in sorted(table.items()):
            order = ["short", "medium", "long"] if name == "duration" else sorted(groups)
            order = [gname for gname in order if gname in groups]
            for setting, style in (("text", "-o"), ("text+image", "--s")):
                ys = [groups[gname].get(setting, {}).get("mean") for gname in order]
                if name in ("qa_category", "domain") and setting == "text":
                    xs = np.arange(len(order))
                    ax.bar(xs + (0.2 if task == "SG" else -0.2 if task == "TG" else 0), [y or 0 for y in ys], width=0.2,
                           label=f"{task} text")
                    ax.set_xticks(xs, order, rotation=20, fontsize=8)
                elif name in ("duration", "granularity"):
                    ax.plot(order, [np.nan if y is None else y for y in ys], style, label=f"{task} {setting}")
                labels_done = True
        ax.set_title(title)
        ax.set_ylim(0, 1)
        if labels_done:
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(folder / f"{name}.png", dpi=100)
        plt.close(fig)


def score_file(data: str | Path, predictions: str | Path, box_format: str = "auto") -> dict:
    """Score raw predictions of both settings: lines {"id", "setting", "prediction"}."""
    from ..search.corpus import iter_jsonl
    from .datasets import read_instances

    instances = read_instances(data)
    by_id = {i.id: i for i in instances}
    parsed, seen = {}, set()
    for n, d in iter_jsonl(predictions, finite=False):  # a NaN in a prediction: unparsed, scored 0
        if not isinstance(d, dict) or d.get("setting") not in SETTINGS or "id" not in d:
            raise DataFileError(predictions, n, 'expected {"id", "setting": "text"|"text+image", "prediction"}')
        inst = by_id.get(str(d["id"]))
        if inst is None:
            raise DataFileError(predictions, n, f"id {d['id']!r} is not in the data")
        seen.add((inst.id, d["setting"]))
        parsed[(inst.id, d["setting"])] = parse_prediction(inst, d.get("prediction"), box_format)
    missing = {(i.id, s) for i in instances for s in SETTINGS if (s == "text" or i.paired) and (i.id, s) not in seen}
    return score(instances, parsed, missing)


# --------------------------------------------------------------------------- demo set


def make_demo_set(folder: str | Path) -> Path:
    """A tiny generated set: clips where a coloured square (captioned on screen) moves across the
    frame at known times; TG, SG and QA instances with paired Text and Text+Image targets."""
    from PIL import Image

    from .. import synth

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
        overlay = synth.Overlay(s, e, hexcol, size, (x0, y0), (x1, y1))
        if not video.exists():
            synth.make_clip(video, synth.ClipSpec(
                shots=(synth.Shot(secs * 25, "0x303030"),), audio=False, overlays=(overlay,),
                captions=(synth.Caption(s, e, f"{colour.upper()} SQUARE", y="h-text_h-12", size=28),)))
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


def plot_sweep(results: dict, out: Path) -> None:
    """The frame-scaling sweep: Average (per setting) and CS_Avg against the frame budget."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = sorted(int(k) for k in results)
    (out / "sweep.json").write_text(json.dumps(results, indent=2))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for setting, style in (("text", "-o"), ("text+image", "--s")):
        ax.plot(ks, [results[str(k)]["average"].get(setting) or 0 for k in ks], style, label=f"Average ({setting})")
    ax.plot(ks, [results[str(k)]["consistency"].get("CS_Avg", 0) for k in ks], ":^", label="CS_Avg")
    ax.set_xscale("log", base=2)
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_xlabel("frames")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "sweep.png", dpi=100)
    plt.close(fig)
