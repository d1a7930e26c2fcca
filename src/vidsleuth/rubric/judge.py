"""Judging leaves (seed 000 App. A.3, G.4): the judge sees only the report material a leaf names and
returns Yes / No / N/A with a rationale grounded in the report; gates get three independent
judgments and a majority vote; machine leaves run the report's own checks locally.

Judges are a registry: ``rules`` (offline and deterministic: the fact record's ``must`` values —
read as values, so "250 degrees" = "250 °C" — and, when given, one of its ``with`` words must occur
together in one unit of the material, e.g. one finding paragraph; with ``absent: "na"`` a leaf whose
values the report never states is N/A — for citation leaves, which the guard then checks) and ``model`` (an endpoint, prompt
``rubric_judge.j2``). Material is read from the report's page by the report contract; a page that
does not declare the contract is judged over its paragraphs and list items.
"""

from __future__ import annotations

import re
from collections import Counter

from .schema import Leaf

JUDGE_SCHEMA = {"type": "object", "properties": {"verdict": {"type": "string", "enum": ["Yes", "No", "N/A"]},
                                                 "rationale": {"type": "string"}},
                "required": ["verdict", "rationale"]}
GATE_VOTES = 3


def material(page) -> dict[str, list[str]]:
    """Units of text per material name, read by the report contract (``report.contract``): the
    summary, each video observation, each finding, each source entry. A page that does not declare
    the contract is judged over its paragraphs and list items for a material it has no markers for."""
    from ..report.contract import text_of

    units = {"summary": [page.summary] if page.summary else [], "observations": [t for _, t in page.observations],
             "findings": [f.text for f in page.findings], "sources": [s.text for s in page.sources]}
    generic = [text_of(el) for el in page.tree.iter("p", "li", "td", "h1", "h2", "h3")]
    for key in units:
        if not units[key] and not page.declared:
            units[key] = generic
    units["all"] = generic
    return units


def _uncited(text: str) -> str:
    """A unit without its citation marks, for reading its figures: "[5]" is a pointer, not a figure
    (the rules judge would read it as the "5 hours" a leaf asks for); "with" still sees them."""
    return re.sub(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]", "", text)


class RulesJudge:
    name = "rules"

    def verdict(self, leaf: Leaf, units: list[str], vote: int = 0) -> tuple[str, str]:
        from ..browse.answers import matches
        from ..values import states

        def says(unit: str, value: str) -> bool:  # "250 °C" is stated as "482 °F" too
            return matches(unit, value) or bool(states(unit, value))

        must = [str(m) for m in leaf.fact.get("must", [])]
        with_ = [str(w).lower() for w in leaf.fact.get("with", [])]
        if not must:
            return "error", "the rules judge needs fact.must values for this leaf"
        stated = [u for u in units if all(says(_uncited(u), m) for m in must)]
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


def machine_verdicts(page, leaves: list[Leaf], *, browser: bool) -> dict[str, dict]:
    """Run the report checks the machine leaves name (``report.check.CHECKS`` specs, each once) on
    the page as already read."""
    from ..errors import VidsleuthError
    from ..report.check import run_checks

    specs = sorted({leaf.check for leaf in leaves})
    try:
        results = run_checks(page, specs, browser=browser)
    except VidsleuthError as exc:
        results = {spec: exc for spec in specs}
    out: dict[str, dict] = {}
    for leaf in leaves:
        got = results.get(leaf.check)
        if isinstance(got, Exception):
            out[leaf.id] = {"verdict": "error", "rationale": f"check could not run: {got}"}
        elif got is None:
            out[leaf.id] = {"verdict": "na", "rationale": "check not run (browser checks off)"}
        else:
            out[leaf.id] = {"verdict": "no" if got else "yes",
                            "rationale": f"{len(got)} failure(s)" + (f": {got[0].message}" if got else "")}
    return out
