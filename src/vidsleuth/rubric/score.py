"""Aggregation (seed 000 §3.3, App. A.4), stated once:

1. Leaf verdicts are ``yes``, ``no``, ``na`` or ``error``. A *citation* leaf's ``na`` is kept only
   when its ``guard`` (the linked content leaf) is ``no`` — nothing was claimed, so nothing needed a
   citation; any other citation ``na`` counts as ``no`` (guarded N/A). Elsewhere ``na`` is excluded.
   ``error`` (the evaluator failed) leaves the denominator and is counted, never scored.
2. Direction: a failed gate leaf zeroes the direction (only it). Otherwise, over applicable leaves
   (yes/no): with ``saturation`` N, ``min(yes, N) / min(N, applicable)`` — covering the evidence
   budget is full credit; without, ``yes / applicable``. No applicable leaf: the direction is N/A.
3. Dimension: the weighted mean of its applicable directions; a direction with a ``cap`` gets at most
   that share of the dimension's weight, the excess going to the others in proportion to their
   weights.
4. Report: the weighted mean of applicable dimensions, ×100. A missing or unreadable report is 0
   in the all-task mean and absent from the successful-report mean (``bench.omnidr``).
"""

from __future__ import annotations

from .schema import Rubric

VERDICTS = ("yes", "no", "na", "error")


def capped_shares(weights: list[float], caps: list[float | None]) -> list[float]:
    """Weights normalised to shares summing to 1, with capped shares held at their cap and the
    excess redistributed proportionally to the uncapped weights."""
    n = len(weights)
    total = sum(weights)
    if n == 0 or total <= 0:
        return [1.0 / n] * n if n else []
    fixed: dict[int, float] = {}
    while True:
        free = [i for i in range(n) if i not in fixed]
        wfree = sum(weights[i] for i in free)
        if not free or wfree <= 0:
            return [w / total for w in weights]  # every direction is capped and the caps cannot hold
        mass = 1.0 - sum(fixed.values())
        shares = {i: mass * weights[i] / wfree for i in free}
        over = [i for i in free if caps[i] is not None and shares[i] > caps[i] + 1e-12]
        if not over:
            return [fixed.get(i, shares.get(i, 0.0)) for i in range(n)]
        for i in over:
            fixed[i] = caps[i]


def effective(rubric: Rubric, verdicts: dict[str, str]) -> tuple[dict[str, str], int]:
    """Verdicts after the guarded-N/A rule; and how many citation N/As were read as No."""
    out = dict(verdicts)
    overridden = 0
    for dim, _, leaf in rubric.leaves():
        v = out.get(leaf.id, "error")
        if dim.name == "citation" and v == "na" and out.get(leaf.guard) != "no":
            out[leaf.id] = "no"
            overridden += 1
    return out, overridden


def score(rubric: Rubric, verdicts: dict[str, str]) -> dict:
    """Direction, dimension and report scores (0–100) from leaf verdicts."""
    v, overridden = effective(rubric, verdicts)
    dims_out, dim_scores, dim_weights = {}, [], []
    errors = sum(1 for _, _, leaf in rubric.leaves() if v.get(leaf.id, "error") == "error")
    for dim in rubric.dimensions:
        d_scores, d_weights, d_caps, dirs_out = [], [], [], {}
        for d in dim.directions:
            vs = [v.get(leaf.id, "error") for leaf in d.leaves]
            yes, no = vs.count("yes"), vs.count("no")
            gated = any(leaf.gate and v.get(leaf.id) == "no" for leaf in d.leaves)
            applicable = yes + no
            if gated:
                s = 0.0
            elif applicable == 0:
                s = None
            elif d.saturation:
                s = min(yes, d.saturation) / min(d.saturation, applicable)
            else:
                s = yes / applicable
            dirs_out[d.name] = {"score": None if s is None else round(100 * s, 2), "yes": yes, "no": no,
                                "na": vs.count("na"), "errors": vs.count("error"), "gated": gated}
            if s is not None:
                d_scores.append(s)
                d_weights.append(d.weight)
                d_caps.append(d.cap)
        if d_scores:
            shares = capped_shares(d_weights, d_caps)
            ds = sum(s * w for s, w in zip(d_scores, shares))
            dim_scores.append(ds)
            dim_weights.append(dim.weight)
        else:
            ds = None
        dims_out[dim.name] = {"score": None if ds is None else round(100 * ds, 2), "directions": dirs_out}
    total = (sum(s * w for s, w in zip(dim_scores, dim_weights)) / sum(dim_weights)
             if dim_scores and sum(dim_weights) > 0 else 0.0)
    return {"score": round(100 * total, 2), "dimensions": dims_out, "evaluator_errors": errors,
            "citation_na_read_as_no": overridden}
