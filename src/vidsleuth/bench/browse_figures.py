"""The browsing benchmark's figures: the reliability diagram (seed App. A.6.2) and accuracy by genre."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def plot(m: dict, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins = m["calibration"]["bins"]
    fig, ax = plt.subplots(figsize=(4.5, 4))
    centers = [(b["lo"] + b["hi"]) / 2 for b in bins]
    ax.bar(centers, [b["accuracy"] or 0 for b in bins], width=0.18, label="accuracy", alpha=0.8)
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="perfect calibration")
    ax.plot(centers, [b["confidence"] if b["confidence"] is not None else np.nan for b in bins], "o", label="mean confidence")
    ax.set_xlabel("confidence")
    ax.set_ylabel("accuracy")
    ax.set_title(f"Reliability (CE {100 * m['calibration_error']:.1f}%)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "reliability.png", dpi=100)
    plt.close(fig)
    genres = m["by_genre"]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(list(genres), [v["accuracy"] for v in genres.values()])
    ax.set_ylim(0, 1)
    ax.set_ylabel("accuracy")
    ax.set_title("Accuracy by genre")
    plt.setp(ax.get_xticklabels(), rotation=20, fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "genres.png", dpi=100)
    plt.close(fig)
