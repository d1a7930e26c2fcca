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
from collections import defaultdict
from dataclasses import asdict, dataclass
from fnmatch import fnmatch
from importlib.resources import files
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import __version__
from ..errors import VidsleuthError
from ..files import writes_output
from ..manifest import MANIFEST_FILE, manifest_rows, write_manifest
from ..media import sample_frames
from ..models import Models
from ..models.types import AudioPart, ImagePart, Message
from ..prompts import prompt_hash, render
from ..runner import map_items
from ..store import RunStore
from ..timecode import seconds_label
from .compass_figures import plot, plot_sweep, summary_table
from .datasets import LETTERS, Instance, read_instances
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
from .output import jsonl, write_run
from .parse import parse_boxes, parse_interval, parse_option

SETTINGS = ("text", "text+image")
MODALITIES = ("text", "vision", "vision+audio")


def frame_budgets() -> dict:
    """The seed's per-family frame budgets (package data ``data/frame_budgets.json``)."""
    return json.loads(files("vidsleuth").joinpath("data/frame_budgets.json").read_text(encoding="utf-8"))


def frame_budget(endpoint) -> int:
    """An endpoint's ``frames`` option, else the first rule of the seed's table whose glob
    matches the model name (case-insensitive), else the table's default (32)."""
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
    task = TASKS[inst.task]
    return render(task.prompt, duration=inst.duration, target=target, frame_note=frame_note, **task.values(inst)).strip()


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
    """The task's reading of a raw answer; None when there is no answer or it cannot be read."""
    return None if raw is None else TASKS[inst.task].parse(inst, raw, box_format)


# --------------------------------------------------------------------------- scoring


def duration_group(d: float) -> str:
    return "short" if d < 90 else "medium" if d < 300 else "long"


def _mean_box_iou(inst: Instance, pred) -> float:
    return float(np.mean([box_iou(p, g) for p, g in zip(pred, inst.boxes)]))


def _box_area_share(inst: Instance) -> float:
    w, h = inst.frame_size
    return float(np.mean([(b[2] - b[0]) * (b[3] - b[1]) / (w * h) for b in inst.boxes]))


def _quartile_labels(values: dict[str, float]) -> dict[str, str]:
    if not values:
        return {}
    qs = np.quantile(list(values.values()), [0.25, 0.5, 0.75])
    return {k: f"Q{1 + int(np.searchsorted(qs, v, side='right'))}" if len(values) >= 4 else "all" for k, v in values.items()}


@dataclass(frozen=True)
class Task:
    """One OmniCompass task: how it is asked, read, scored and its consistency counted. A new task
    is an entry of ``TASKS`` (and its prompt template), never another branch."""

    prompt: str  # package-data template
    schema: dict  # grammar-constrained output, for the text-only local model only
    headline: str  # the metric averaged into Average
    values: Callable[[Instance], dict]  # prompt values beyond the duration, target and frame note
    parse: Callable[[Instance, str, str], Any]  # raw answer, box format -> prediction (None: unparsed)
    truth: Callable[[Instance], Any]
    metrics: Callable[[list[tuple[Instance, Any]]], dict]  # (instance, prediction) pairs -> metrics
    instance_score: Callable[[Instance, Any], float]  # a parsed prediction's score, for breakdowns
    pass_mark: float  # an instance is correct at this score (the exactly-one-setting count)
    consistency: Callable[[list[tuple]], float]  # (text, text+image, truth) triples -> CS
    granularity: Callable[[Instance], float] | None = None  # target size, for the quartile breakdown


_BOX = {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}
TASKS: dict[str, Task] = {
    "TG": Task("compass_tg.j2", {"type": "object", "properties": {"start": {"type": "number"}, "end": {"type": "number"}},
                                 "required": ["start", "end"]}, "mIoU",
               values=lambda i: {}, parse=lambda i, raw, fmt: parse_interval(raw), truth=lambda i: i.interval,
               metrics=lambda pairs: score_grounding([{"gt": [i.interval], "pred": [p] if p else None}
                                                      for i, p in pairs]).metrics(),
               instance_score=lambda i, p: tiou(normalise_interval(p)[0], i.interval), pass_mark=0.5, consistency=cs_tg,
               granularity=lambda i: (i.interval[1] - i.interval[0]) / i.duration),
    "SG": Task("compass_sg.j2", {"type": "object", "properties": {"start_box": _BOX, "end_box": _BOX},
                                 "required": ["start_box", "end_box"]}, "mIoU",
               values=lambda i: {"start": i.interval[0], "end": i.interval[1], "width": i.frame_size[0],
                                 "height": i.frame_size[1]},
               parse=lambda i, raw, fmt: parse_boxes(raw, i.frame_size, fmt), truth=lambda i: i.boxes,
               metrics=lambda pairs: score_boxes([{"gt": i.boxes, "pred": p} for i, p in pairs]),
               instance_score=_mean_box_iou, pass_mark=0.5, consistency=cs_sg, granularity=_box_area_share),
    "QA": Task("compass_qa.j2", {"type": "object", "properties": {"answer": {"enum": list("ABCDE")}},
                                 "required": ["answer"]}, "accuracy",
               values=lambda i: {"options": list(zip(LETTERS, i.options))},
               parse=lambda i, raw, fmt: parse_option(raw, list(i.options)), truth=lambda i: i.answer,
               metrics=lambda pairs: score_qa([{"gt": i.answer, "pred": p} for i, p in pairs]),
               instance_score=lambda i, p: float(p == i.answer), pass_mark=1.0, consistency=cs_qa),
}
PROMPTS = {name: t.prompt for name, t in TASKS.items()}
LOCAL_SCHEMAS = {name: t.schema for name, t in TASKS.items()}


def _instance_score(inst: Instance, pred) -> float:
    """TG: tIoU; SG: mean endpoint IoU; QA: 1/0; an unparsed answer 0."""
    return 0.0 if pred is None else TASKS[inst.task].instance_score(inst, pred)


def _correct(inst: Instance, pred) -> bool:
    """For the exactly-one-setting count: QA exact; TG and SG at IoU >= 0.5."""
    return _instance_score(inst, pred) >= TASKS[inst.task].pass_mark


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
            res[task] = TASKS[task].metrics([(i, parsed.get((i.id, setting))) for i in insts])
        parts = [res[name][t.headline] for name, t in TASKS.items() if name in res]
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
        t = TASKS[task]
        cs[f"CS_{task}"] = t.consistency([(parsed.get((i.id, "text")), parsed.get((i.id, "text+image")), t.truth(i))
                                         for i in pairs])
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
    gran = {name: _quartile_labels({i.id: t.granularity(i) for i in instances if i.task == name})
            for name, t in TASKS.items() if t.granularity is not None}
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


@dataclass(frozen=True)
class Prediction:
    """One answered setting of one instance: a line of ``predictions.jsonl``. ``manifest`` (the
    images its call was shown) goes to ``frames.jsonl`` instead."""

    id: str
    setting: str
    task: str
    prediction: str | None
    parsed: Any
    frames: list[float]
    manifest: list[dict]

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Prediction":
        return cls(**{**{"manifest": []}, **{k: d[k] for k in cls.__dataclass_fields__ if k in d}})

    def row(self) -> dict:
        return {k: v for k, v in self.to_dict().items() if k != "manifest"}


def _answer_instance(inst: Instance, model, ser: Serialisation, k_frames: int, box_format: str) -> dict:
    """Both settings of one instance (Text, and Text+Image when paired), sharing one frame sample;
    as plain data (``Prediction.to_dict``) for the run store."""
    frames = sample_frames(inst.video, k_frames) if ser.modality != "text" else []
    text_only = not model.endpoint.accepts("vision")
    # A text-only model is told each frame's time with what it reads on it, and answers in
    # grammar-constrained JSON; others answer free-form, parsed as the seed parses them.
    notes = {f.t: f"frame at {seconds_label(f.t)}" for f in frames} if text_only else None
    schema = TASKS[inst.task].schema if text_only else None
    rows = {}
    for setting in [s for s in SETTINGS if s == "text" or inst.paired]:
        reply = model.chat(build_messages(inst, setting, frames, ser, notes), max_tokens=256, schema=schema)
        rows[setting] = Prediction(inst.id, setting, inst.task, reply.text, parse_prediction(inst, reply.text, box_format),
                                   [f.t for f in frames], [r.to_dict() for r in reply.extra.get("frames", ())]).to_dict()
    return rows


@writes_output("bench compass")
def run_compass(data: str | Path, models, model_name: str, out: str | Path, *, track: str | None = None,
                frames: int | None = None, timestamps: bool = True, modality: str | None = None,
                workers: int = 4, box_format: str = "auto", retries: int = 0) -> dict:
    """Both settings of every instance; resumable; writes predictions, metrics, summary, plots, run.json."""
    instances = [i for i in read_instances(data) if track is None or i.track == track]
    if not instances:
        raise VidsleuthError(f"no instances{' on track ' + track if track else ''}", path=data)
    modality = modality or ("vision+audio" if track == "AV" else "vision")
    if modality not in MODALITIES:
        raise VidsleuthError(f"unknown modality {modality!r}", hint=f"choose {', '.join(MODALITIES)}")
    endpoint = models.get(model_name, role="compass").endpoint
    k = frames or frame_budget(endpoint)
    ser = Serialisation(timestamps=timestamps, modality=modality, audio=modality == "vision+audio")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    protocol = {"benchmark": "compass", "data": str(Path(data).resolve()), "track": track or "all", "model": model_name,
                "endpoint_model": endpoint.model, "backend": endpoint.backend, "frames": k,
                "timestamps": timestamps, "modality": modality, "box_format": box_format,
                "prompts": {name: prompt_hash(t.prompt) for name, t in TASKS.items()},
                "image_max_side": endpoint.image_max_side, "image_quality": endpoint.image_quality,
                "vidsleuth": __version__}
    store = RunStore(out / "runs.sqlite")  # per-item results: a killed run resumes here
    run_id = store.find_or_start("compass", protocol)
    model = models.bind(store, run_id).get(model_name, role="compass")
    result = map_items(lambda inst: _answer_instance(inst, model, ser, k, box_format), [(i.id, i) for i in instances],
                       store=store, run_id=run_id, workers=workers, retries=retries, label="compass")
    done = [Prediction.from_dict(row) for rows in result.done.values() for row in rows.values()]
    answered = {(p.id, p.setting) for p in done}
    missing = {(i.id, s) for i in instances for s in SETTINGS if (s == "text" or i.paired) and (i.id, s) not in answered}
    metrics = score(instances, {(p.id, p.setting): p.parsed for p in done}, missing)
    metrics["calls"] = store.summary(run_id)
    metrics["errors"] = result.errors()
    metrics["frames"] = k
    write_outputs(out, instances, done, metrics, protocol, model_name, result.seconds)
    return metrics


@writes_output("bench compass")
def run_compass_sweep(data: str | Path | None, config, model: str, out: str | Path, *, frames: list[int] | None = None,
                      cache: bool = True, workers: int = 4, make_data: Callable[[Path], Path] | None = None,
                      **kw) -> dict:
    """``run_compass`` for each frame budget (one budget: ``out`` itself; several: ``out/frames-K``
    plus the sweep plot). Without ``data``, ``make_data(out / "demo-data")`` builds the set (the
    CLI passes ``synth.compass_set.make_demo_set``). Returns ``results`` per budget (with its summary
    table), the run ``errors`` and how many settings are ``missing``."""
    models = Models(config, cache=cache)
    models.get(model)  # an unknown endpoint fails before anything is written
    if data is None and make_data is None:
        raise VidsleuthError("no instances to run", hint="give --data INSTANCES.jsonl")
    data = data or make_data(Path(out) / "demo-data")
    budgets = list(frames) if frames else [None]
    results, errors, missing = {}, [], 0
    for k in budgets:
        target = Path(out) if len(budgets) == 1 else Path(out) / f"frames-{k}"
        m = run_compass(data, models, model, target, frames=k, workers=workers, **kw)
        errors += m["errors"]
        missing += m["counts"]["missing"]
        results[str(k or "default")] = {"out": str(target), "consistency": m["consistency"],
                                        "consistency_pairs": m["consistency_pairs"], "counts": m["counts"],
                                        "average": {s: v.get("Average") for s, v in m["settings"].items()},
                                        "summary": summary_table(m, model, m["frames"])}
    if len(budgets) > 1:
        plot_sweep(results, Path(out))
    return {"results": results, "errors": errors, "missing": missing}


def write_outputs(out: Path, instances, done: list[Prediction], metrics: dict, protocol: dict, model_name: str,
                  seconds: float) -> dict:
    """Every output of a run: predictions (in the data's order), the frame manifest, metrics, the
    summary and plots, through the one benchmark writer (``bench.output``). Returns run.json."""
    order = {i.id: n for n, i in enumerate(instances)}
    rows = sorted(done, key=lambda p: (order.get(p.id, 1 << 30), p.setting))
    write_manifest(out / MANIFEST_FILE, [m for p in rows for m in manifest_rows(f"{p.id}|{p.setting}", p.manifest)])
    figures = plot(metrics, out / "plots")
    return write_run(out, "compass", protocol, seconds=seconds, figures={MANIFEST_FILE: "written", **figures}, files={
        "predictions.jsonl": jsonl(p.row() for p in rows),
        "metrics.json": json.dumps(metrics, indent=2, ensure_ascii=False),
        "summary.md": summary_table(metrics, model_name, metrics["frames"])})
