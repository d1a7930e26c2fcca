"""``bench diff RUN_A RUN_B``: did two runs show the models the same frames?

Reads each run's ``frames.jsonl`` (see ``vidsleuth.manifest``) and compares item by item, image by
image in the order they were sent: an item or image only in A is *missing* from B, one only in B
is *extra*, and an image in both whose video, time, index, size or content hash differ is
*changed*, with the fields that differ and both values. Role and model name are not compared:
a diff between two models asks whether they saw the same frames.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..manifest import read_manifest

COMPARED = ("video", "t", "index", "width", "height", "bytes", "sha256", "sent")


@dataclass(frozen=True)
class Difference:
    item: str
    kind: str  # missing | extra | changed
    image: int | None = None  # None: the whole item
    fields: dict = field(default_factory=dict)  # changed: name -> [A's value, B's value]


@dataclass(frozen=True)
class FrameDiff:
    a: str
    b: str
    items: tuple[int, int]  # items in A, in B
    images: tuple[int, int]
    differences: tuple[Difference, ...]

    @property
    def same(self) -> bool:
        return not self.differences

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "same": self.same, "items": list(self.items), "images": list(self.images),
                "differences": [asdict(d) for d in self.differences]}

    def summary(self) -> str:
        """Lines for people: the verdict, then one line per difference (the first ``limit``)."""
        head = (f"A {self.a}: {self.items[0]} items, {self.images[0]} images; "
                f"B {self.b}: {self.items[1]} items, {self.images[1]} images")
        if self.same:
            return head + "\nsame frames: every item showed the models identical images"
        kinds = defaultdict(int)
        for d in self.differences:
            kinds[d.kind] += 1
        lines = [head, "frames differ: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))]
        for d in self.differences[:50]:
            where = d.item if d.image is None else f"{d.item} image {d.image}"
            detail = "; ".join(f"{k} {v[0]!r} -> {v[1]!r}" for k, v in d.fields.items())
            lines.append(f"  {d.kind:8s} {where}{': ' + detail if detail else ''}")
        if len(self.differences) > 50:
            lines.append(f"  … and {len(self.differences) - 50} more (see --json)")
        return "\n".join(lines)


def _by_item(rows: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for r in sorted(rows, key=lambda r: (str(r["item"]), int(r.get("image", 0)))):
        out[str(r["item"])].append(r)
    return out


def _compare_item(item: str, xs: list[dict], ys: list[dict]) -> list[Difference]:
    diffs = []
    for n in range(max(len(xs), len(ys))):
        if n >= len(ys):
            diffs.append(Difference(item, "missing", n))
        elif n >= len(xs):
            diffs.append(Difference(item, "extra", n))
        else:
            changed = {k: [xs[n].get(k), ys[n].get(k)] for k in COMPARED if xs[n].get(k) != ys[n].get(k)}
            if changed:
                diffs.append(Difference(item, "changed", n, changed))
    return diffs


def bench_diff(run_a: str | Path, run_b: str | Path) -> FrameDiff:
    """Compare the frame manifests of two runs (run folders or frames.jsonl files)."""
    a, b = _by_item(read_manifest(run_a)), _by_item(read_manifest(run_b))
    diffs: list[Difference] = []
    for item in sorted(set(a) | set(b)):
        if item not in b:
            diffs.append(Difference(item, "missing"))
        elif item not in a:
            diffs.append(Difference(item, "extra"))
        else:
            diffs += _compare_item(item, a[item], b[item])
    return FrameDiff(str(run_a), str(run_b), (len(a), len(b)), (sum(map(len, a.values())), sum(map(len, b.values()))),
                     tuple(diffs))
