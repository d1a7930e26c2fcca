"""Judging leaves (seed 000 App. A.3, G.4): the judge sees only the report material a leaf names and
returns Yes / No / N/A with a rationale grounded in the report; gates get three independent
judgments and a majority vote; machine leaves run the report's own checks locally.

Judges are a registry: ``rules`` (offline and deterministic: the fact record's ``must`` values —
read as values, so "250 degrees" = "250 °C" — and, when given, one of its ``with`` words must occur
together in one unit of the material, e.g. one finding paragraph; with ``absent: "na"`` a leaf whose
values the report never states is N/A — for citation leaves, which the guard then checks) and ``model`` (an endpoint, prompt
``rubric_judge.j2``). Material is read from the report's HTML: sections of a vidsleuth report by
their ids, and for any other report its paragraphs and list items.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .schema import Leaf

JUDGE_SCHEMA = {"type": "object", "properties": {"verdict": {"type": "string", "enum": ["Yes", "No", "N/A"]},
                                                 "rationale": {"type": "string"}},
                "required": ["verdict", "rationale"]}
GATE_VOTES = 3


def _text(el) -> str:
    return " ".join(el.text_content().split())


def material(tree) -> dict[str, list[str]]:
    """Units of text per material name (a finding, a source entry, an anchor block…)."""
    units = {
        "summary": [_text(p) for h in tree.xpath("//h2[@id='summary']") for p in h.itersiblings() if p.tag == "p"][:1],
        "observations": [_text(el) for el in tree.cssselect("div.anchor-block[id^='anchor-']")],
        "findings": [_text(el) for el in tree.cssselect("p.finding")],
        "sources": [_text(el) for el in tree.cssselect("ol.sources > li")],
    }
    generic = [_text(el) for el in tree.cssselect("p, li, td, h1, h2, h3")]
    ours = any((m.get("content") or "").startswith("vidsleuth") for m in tree.cssselect("meta[name='generator']"))
    for key in units:
        if not units[key] and not ours:
            units[key] = generic  # not a vidsleuth report: judge over its paragraphs
    units["all"] = generic
    return units


class RulesJudge:
    name = "rules"

    def verdict(self, leaf: Leaf, units: list[str], vote: int = 0) -> tuple[str, str]:
        from ..browse.answers import matches

        must = [str(m) for m in leaf.fact.get("must", [])]
        with_ = [str(w).lower() for w in leaf.fact.get("with", [])]
        if not must:
            return "error", "the rules judge needs fact.must values for this leaf"
        stated = [u for u in units if all(matches(u, m) for m in must)]
        for unit in stated:
            if not with_ or any(w in unit.lower() for w in with_):
                return "yes", f"found together in: “{unit[:160]}”"
        if not stated and leaf.fact.get("absent") == "na":
            return "na", f"the report states nothing about {must}"
        return "no", f"no unit of the report states {must}" + (f" with {with_}" if with_ else "")


class ModelJudge:
    def __init__(self, model):
        self.model = model
        self.name = f"model:{model.endpoint.name}"

    def verdict(self, leaf: Leaf, units: list[str], vote: int = 0) -> tuple[str, str]:
        from ..errors import ModelError, ModelOutputError
        from ..prompts import render

        text = "\n".join(f"- {u}" for u in units)[:12000]
        prompt = render("rubric_judge.j2", question=leaf.question, fact=leaf.fact.get("text", ""), material=text)
        try:  # gate votes are independent samples: another seed and a temperature above 0
            reply = self.model.chat(prompt, schema=JUDGE_SCHEMA, max_tokens=200,
                                    temperature=0.7 if vote else 0.0, seed=vote or None)
        except (ModelOutputError, ModelError) as exc:
            return "error", f"judge failed: {exc}"
        return {"Yes": "yes", "No": "no", "N/A": "na"}[reply.data["verdict"]], str(reply.data["rationale"])[:300]


def judge_leaf(judge, leaf: Leaf, units: list[str]) -> dict:
    """One verdict, or for a gate the majority of three votes (no majority: No; all failed: error)."""
    if not leaf.gate:
        v, why = judge.verdict(leaf, units)
        return {"verdict": v, "rationale": why}
    votes = [judge.verdict(leaf, units, vote=k) for k in range(1, GATE_VOTES + 1)]
    valid = [v for v, _ in votes if v != "error"]
    if not valid:
        return {"verdict": "error", "rationale": votes[0][1], "votes": [v for v, _ in votes]}
    top, n = Counter(valid).most_common(1)[0]
    verdict = top if n * 2 > GATE_VOTES else "no"  # fewer than two agreeing votes: the gate is not passed
    return {"verdict": verdict, "rationale": next(w for v, w in votes if v == top), "votes": [v for v, _ in votes]}


def machine_verdicts(folder: Path, tree, leaves: list[Leaf], *, browser: bool) -> dict[str, dict]:
    """Run the report checks the machine leaves name (once each) and the counts over ``tree``,
    the report page as already parsed."""
    from ..errors import VidsleuthError
    from ..report.check import check_report

    out: dict[str, dict] = {}
    names = {leaf.check for leaf in leaves}
    wanted = [n for n in names if ":" not in n]
    results = {}
    if wanted:
        try:
            results = check_report(folder, browser=browser and "browser" in wanted, only=wanted)["checks"]
        except VidsleuthError as exc:
            results = {n: exc for n in wanted}
    counts = {"min_cited_sources": len({a.get("href") for a in tree.cssselect("a.cite")}),
              "min_timestamps": len(tree.cssselect("a.ts")), "min_findings": len(tree.cssselect("p.finding"))}
    for leaf in leaves:
        name, _, n = leaf.check.partition(":")
        if name in counts:
            ok = counts[name] >= int(n)
            out[leaf.id] = {"verdict": "yes" if ok else "no", "rationale": f"{counts[name]} found, {n} needed"}
        elif isinstance(results.get(leaf.check), Exception):
            out[leaf.id] = {"verdict": "error", "rationale": f"check could not run: {results[leaf.check]}"}
        elif leaf.check not in results:
            out[leaf.id] = {"verdict": "na", "rationale": "check not run (browser checks off)"}
        else:
            fails = results[leaf.check]
            out[leaf.id] = {"verdict": "no" if fails else "yes",
                            "rationale": f"{len(fails)} failure(s)" + (f": {fails[0]['message']}" if fails else "")}
    return out
