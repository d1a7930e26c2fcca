"""Scoring one report against one rubric tree (seed 000 §3.3): read the page by the report
contract, run the machine leaves' checks on it, ask the judge the judge leaves over the material
they name, aggregate (``rubric.score``).

``JUDGES`` is the judge registry: ``rules`` (offline, deterministic) and ``model`` (an endpoint of
the model config). ``make_judge(name)`` takes a registry name, else an endpoint name for the model
judge. A new judge is one ``@judge_kind("name")`` factory ``(name, config, cache) -> judge`` whose
result has ``verdict(leaf, units, vote=0) -> (verdict, rationale)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..report.contract import PAGE, read_report
from .judge import ModelJudge, RulesJudge, judge_leaf, machine_verdicts, material
from .schema import Rubric, from_dict, load_rubric, problems
from .score import score

JUDGES: dict[str, Callable] = {}


def judge_kind(name: str):
    def register(factory):
        JUDGES[name] = factory
        return factory

    return register


@judge_kind("rules")
def _rules(name: str, config=None, cache: bool = True) -> RulesJudge:
    return RulesJudge()


@judge_kind("model")
def _model(name: str, config=None, cache: bool = True) -> ModelJudge:
    from ..models import Models

    return ModelJudge(Models(config, cache=cache, overrides={"judge": name}).for_role("judge"))


def make_judge(name: str, config=None, cache: bool = True):
    """The judge ``name`` names: a ``JUDGES`` entry, else the model judge on endpoint ``name``
    (an unknown endpoint fails here, before any work)."""
    return JUDGES.get(name, JUDGES["model"])(name, config, cache)


def as_rubric(rubric) -> Rubric:
    """A ``Rubric`` from itself, a parsed tree (validated) or a rubric file."""
    if isinstance(rubric, Rubric):
        return rubric
    if isinstance(rubric, dict):
        from .schema import RubricError

        found = problems(rubric)
        if found:
            raise RubricError("rubric", None, "; ".join(found[:8]), hint="`vidsleuth rubric validate FILE` lists them all")
        return from_dict(rubric)
    return load_rubric(rubric)


def evaluate_task(rubric, report_dir: str | Path, judge, *, browser: bool = False) -> dict:
    """Every leaf's verdict for one report, and its scores. ``status`` is ok, missing (no page) or
    unreadable (with ``error``); ``contract_missing`` lists what the page lacks of the report
    contract (it is still scored on what it has)."""
    rubric = as_rubric(rubric)
    page = read_report(report_dir)
    if page.tree is None:
        status = "missing" if not (Path(report_dir) / PAGE).exists() else "unreadable"
        return {"task": rubric.task, "status": status, "score": 0.0, "verdicts": {}, "error": page.missing[0],
                "contract_missing": list(page.missing)}
    units = material(page)
    leaves = [leaf for _, _, leaf in rubric.leaves()]
    verdicts = machine_verdicts(page, [leaf for leaf in leaves if leaf.kind == "machine"], browser=browser)
    for leaf in leaves:
        if leaf.kind == "judge":
            verdicts[leaf.id] = judge_leaf(judge, leaf, units[leaf.material])
    scored = score(rubric, {k: v["verdict"] for k, v in verdicts.items()})
    judged = [v["verdict"] for leaf in leaves if leaf.kind == "judge" for v in [verdicts[leaf.id]]]
    return {"task": rubric.task, "status": "ok", **scored, "judge_leaves": len(judged),
            "judge_errors": judged.count("error"), "contract_missing": list(page.missing), "verdicts": verdicts}


def score_report(report_folder: str | Path, rubric, *, judge="rules", browser: bool = False, config=None) -> dict:
    """One report folder scored against ``rubric`` (a file, a parsed tree or a ``Rubric``);
    ``judge`` is a judge or a name for ``make_judge``."""
    j = make_judge(judge, config) if isinstance(judge, str) else judge
    return evaluate_task(as_rubric(rubric), report_folder, j, browser=browser)


__all__ = ["JUDGES", "as_rubric", "evaluate_task", "judge_kind", "make_judge", "score_report"]
