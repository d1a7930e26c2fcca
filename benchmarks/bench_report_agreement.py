"""How far two careful readers agree on a held-out report set: a second annotation scored as the product is.

A held-out set's ``truth.json`` holds its author's (document, anchor, relation) pairs. A second annotator,
given each task's request, documents and the truth's anchors only (``benchmarks/second_annotator_prompt.md``),
writes ``pairs.json`` per task. This scores that annotation against the author's truth with the held-out
scorers' rules — strict (same relation, no other stance), linked, spurious (pairs the truth lacks) — so the
product's figures on the same set can be read against what a second reader reaches (the ceiling a relater
can be asked for).

    python benchmarks/bench_report_agreement.py --tasks SET/report --second ANNOT [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

STANCES = {"supports", "contradicts", "updates"}


def agreement(truth: dict, second: dict) -> dict:
    """One task's strict, linked and spurious counts of ``second`` against ``truth``, and the disagreements."""
    said: dict[tuple[str, str], set[str]] = {}
    for p in second.get("pairs", []):
        said.setdefault((p["doc"], p["anchor"]), set()).add(p["relation"])
    want = {(p["doc"], p["anchor"]): p["relation"] for p in truth["pairs"]}
    strict = [k for k, r in want.items() if r in said.get(k, ()) and not said[k] & (STANCES - {r})]
    differ = [{"doc": k[0], "anchor": k[1], "truth": r, "second": sorted(said.get(k, ()))}
              for k, r in want.items() if k not in strict]
    return {"pairs": len(want), "strict": len(strict), "linked": sum(k in said for k in want),
            "spurious": sum(k not in want for k in said), "differ": differ}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=Path, required=True, help="the set's report folder (one folder per task, truth.json)")
    ap.add_argument("--second", type=Path, required=True, help="the second annotation (one folder per task, pairs.json)")
    ap.add_argument("--json", type=Path, help="write the per-task figures here")
    args = ap.parse_args(argv)
    total, rows, confusion = Counter(), {}, Counter()
    for task in sorted(p for p in args.tasks.iterdir() if (p / "truth.json").is_file()):
        second = args.second / task.name / "pairs.json"
        if not second.is_file():
            print(f"{task.name:28s} no second annotation ({second})")
            continue
        row = agreement(json.loads((task / "truth.json").read_text()), json.loads(second.read_text()))
        rows[task.name] = row
        total.update(pairs=row["pairs"], strict=row["strict"], linked=row["linked"], spurious=row["spurious"], tasks=1)
        confusion.update((d["truth"], ",".join(d["second"]) or "-") for d in row["differ"])
        print(f"{task.name:28s} strict {row['strict']}/{row['pairs']} ({row['strict'] / row['pairs']:.0%})  "
              f"linked {row['linked']}  spurious {row['spurious']}")
    if not total["tasks"]:
        print("no task has a second annotation")
        return 1
    print(f"{'TOTAL':28s} strict {total['strict']}/{total['pairs']} ({total['strict'] / total['pairs']:.1%})  "
          f"linked {total['linked']}  spurious {total['spurious']} ({total['spurious'] / total['tasks']:.2f}/task)")
    for (want, got), n in confusion.most_common():
        print(f"  {n} x truth {want}, second reader {got}")
    if args.json:
        args.json.write_text(json.dumps({"total": dict(total), "tasks": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
