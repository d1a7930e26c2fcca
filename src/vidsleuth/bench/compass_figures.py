"""The compass run for people: the summary table in the seed's Table 2 layout, per-category bars,
duration-group and granularity curves, and the frame-scaling sweep. Each drawing says what it
drew, for ``run.json``'s outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..files import write_atomic
from .output import WRITTEN


def pyplot():
    """matplotlib's pyplot on the file-only Agg backend (imported when a figure is drawn: it is
    the slowest import of a run and no other step needs it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(m: dict, folder: Path) -> dict[str, str]:
    """Per-category bars, duration-group and granularity curves (PNG). Returns, per figure,
    ``written`` or ``written empty: …`` when the run has no group of that kind."""
    plt = pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    drawn = {}
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
        drawn[f"{folder.name}/{name}.png"] = WRITTEN if labels_done else f"{WRITTEN} empty: no instance has a {name} group"
    return drawn


def plot_sweep(results: dict, out: Path) -> dict[str, str]:
    """The frame-scaling sweep: ``sweep.json`` and Average (per setting) and CS_Avg against the
    frame budget in ``sweep.png``."""
    plt = pyplot()
    ks = sorted(int(k) for k in results)
    write_atomic(out / "sweep.json", json.dumps(results, indent=2))
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
    return {"sweep.json": WRITTEN, "sweep.png": WRITTEN}


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
