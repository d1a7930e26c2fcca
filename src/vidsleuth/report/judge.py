"""Stage 4 by choice: which relater decides the evidence branches' candidates.

- ``rules``: ``relate.relate_rules`` decides every candidate (deterministic, no model).
- ``model``: the endpoint decides every candidate with ``report_judge.j2`` (the anchor's subject,
  statement and value, the excerpt, both dates; six relations plus ``none``, not evidence, so the
  model can drop a spurious link). The labels are a JSON-schema enum (a llama.cpp grammar locally):
  when the anchor states a value and the excerpt states none of its kind and scale, the value
  relations (supports, contradicts, updates) are not offered (``labels``): the 1.5B otherwise
  labels background and how-to sentences as updates.
- ``judge``: the rules decide, and the endpoint is asked only about the rules' *borderline*
  outputs (``borderline``): a stance below ``FIRM`` confidence (no value compared inside or outside
  an interval), no stance from an excerpt that names the anchor's subject and states no value of
  another kind, an update made by the dates alone (no revision cue), and a source whose stances
  conflict: it both supports and disputes one anchor, or it disputes two or more anchors (a page
  about another thing disagrees with everything), and a support stated in words of a revision
  (the rules found the video's value inside a range the source may call the former one).
  Borderline is defined on what the rules output, never on data.

A reply that does not fit the schema (after the model layer's one repair turn) leaves the rules'
decision in place and says so in the rationale and in ``Relater.stats``; an unreachable endpoint is
an error, not a silent fallback. ``Relater.protocol`` is what ``run.json`` records.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from ..errors import ModelOutputError, VidsleuthError
from .types import RELATIONS

MODES = ("rules", "model", "judge")
PROMPT = "report_judge.j2"
NONE = "none"  # the model's "not evidence"
FIRM = 0.8  # the rules rate a value compared against the source's interval 0.8 and up; reasons and cues below
MODEL_CONFIDENCE = 0.75  # the model gives a label, not a calibrated probability
MAX_TOKENS = 24
EXCERPT_CHARS = 500
SCHEMA = {"type": "object", "properties": {"relation": {"type": "string", "enum": [*RELATIONS, NONE]}},
          "required": ["relation"]}
DISPUTES = ("contradicts", "updates")
VALUE_ONLY = ("supports", "contradicts", "updates")  # relations that compare values
LARGE_MODEL = "local-1.5b"


@dataclass(frozen=True)
class Case:
    """What the relaters read of one candidate: the rules' decision beside the excerpt's facts."""

    anchor: object  # types.Anchor
    excerpt: str
    source: str  # the source's location: conflicts are per (anchor, source)
    title: str = ""
    date: str = ""
    context: str = ""  # a table row's header line
    by_topic: bool = False  # the branch linked it through the video's topic, not the anchor's words


def _rules(case: Case, video_date: str) -> tuple[str | None, str, float]:
    from .relate import relate_rules

    return relate_rules(case.anchor, case.excerpt, case.date, video_date, case.context, case.title)


def _values(case: Case) -> tuple[bool, bool, bool]:
    """(the anchor states a value, the excerpt states one, the excerpt states one of the anchor's
    kind and scale: ``values.commensurate``, as the rules compare them)."""
    from ..values import commensurate
    from .facts import quantities, statement
    from .relate import anchor_text

    readings = statement(case.excerpt, case.context).readings
    own = quantities(anchor_text(case.anchor))
    return bool(own), bool(readings), any(a.comparable(r.value) and commensurate(a, r.value)
                                          for a in own for r in readings)


def _off_kind(case: Case) -> bool:
    """The excerpt states values, none of the anchor's kind and scale: the rules found it about something else."""
    has_own, has_any, same = _values(case)
    return has_own and has_any and not same


def labels(case: Case) -> list[str]:
    """The labels the model may give: a relation of value (supports, contradicts, updates) needs a
    value of the anchor's kind in the excerpt when the anchor states one; else the excerpt can only
    explain, compare, apply or be no evidence."""
    has_own, _, same = _values(case)
    if has_own and not same:
        return [r for r in RELATIONS if r not in VALUE_ONLY] + [NONE]
    return [*RELATIONS, NONE]


def borderline(cases: list[Case], decided: list[tuple[str | None, str, float]]) -> dict[int, str]:
    """Index -> why the rules' decision goes to the judge (see the module docstring)."""
    from ..values import normalise
    from .cues import REVISION

    stances: dict[tuple[str, str], set[str]] = {}
    disputed: dict[str, set[str]] = {}
    for c, (rel, _, _) in zip(cases, decided):
        if rel is not None:
            stances.setdefault((c.anchor.id, c.source), set()).add(rel)
        if rel in DISPUTES:
            disputed.setdefault(c.source, set()).add(c.anchor.id)
    out: dict[int, str] = {}
    for i, (c, (rel, _, conf)) in enumerate(zip(cases, decided)):
        seen = stances.get((c.anchor.id, c.source), set())
        if rel is None:
            if not c.by_topic and not _off_kind(c):
                out[i] = "no stance from an excerpt on the subject"
        elif conf < FIRM:
            out[i] = "a stance without a value compared"
        elif rel == "updates" and not REVISION.search(normalise(c.excerpt)):
            out[i] = "an update by the dates alone"
        elif rel == "supports" and REVISION.search(normalise(c.excerpt)):
            out[i] = "a support in words of a revision"  # "we now recommend 30 ml (was 40-60)": which value is current?
        elif "supports" in seen and seen & set(DISPUTES):
            out[i] = "a source that both supports and disputes the anchor"
        elif rel in DISPUTES and len(disputed.get(c.source, ())) >= 2:
            out[i] = "a source that disputes several anchors"
    return out


def messages(case: Case, video_date: str) -> list[dict]:
    """The fixed instructions first (llama.cpp reuses their cached prefix), the case after."""
    from ..prompts import render

    a = case.anchor
    thing = a.heading or a.subject
    return [{"role": "system", "content": render(PROMPT, part="system")},
            {"role": "user", "content": render(PROMPT, part="case", thing=thing, statement=a.text[:300],
                                               value=a.value or "none stated", video_date=video_date or "unknown",
                                               title=case.title[:120] or "untitled", date=case.date or "undated",
                                               context=case.context[:200], excerpt=case.excerpt[:EXCERPT_CHARS])}]


def ask(model, case: Case, video_date: str):
    """(relation, rationale, confidence) by the endpoint for one case (``none``: not evidence, as
    None), and its ``Reply``; raises ``ModelOutputError`` when the reply does not fit the schema."""
    schema = {**SCHEMA, "properties": {"relation": {"type": "string", "enum": labels(case)}}}
    reply = model.chat(messages(case, video_date), schema=schema, max_tokens=MAX_TOKENS)
    rel = reply.data["relation"]
    name = model.endpoint.name
    if rel == NONE:
        return (None, f"not evidence by {name}: no stance on the anchor's subject", 0.0), reply
    return (rel, f"{name} reads the excerpt as {rel} for the video's {case.anchor.value or 'statement'}",
            MODEL_CONFIDENCE), reply


@dataclass(frozen=True)
class Relater:
    """The relater a run uses; ``stats`` counts its model calls (the dict is filled as it runs)."""

    mode: str = "rules"
    model: object = None  # a ChatModel for ``model`` and ``judge``
    stats: Counter = field(default_factory=Counter, compare=False)
    _lock: object = field(default_factory=threading.Lock, compare=False, repr=False)

    @property
    def name(self) -> str:
        return "rules" if self.model is None else self.model.endpoint.name

    def describe(self) -> str:
        """``run.json``'s one-line ``relater``: ``rules``, the endpoint, or rules judged by it."""
        if self.model is None:
            return "rules"
        ep = self.model.endpoint.describe()
        return ep if self.mode == "model" else f"rules, borderline cases judged by {ep}"

    def protocol(self) -> dict:
        from ..prompts import prompt_hash

        return {"mode": self.mode, "endpoint": self.model.endpoint.public() if self.model is not None else None,
                "prompt": PROMPT if self.model is not None else None,
                "prompt_hash": prompt_hash(PROMPT) if self.model is not None else None,
                "first": "rules" if self.mode != "model" else "model", "firm_confidence": FIRM, **dict(self.stats)}

    def _count(self, key: str, n: float = 1) -> None:
        with self._lock:
            self.stats[key] = round(self.stats[key] + n, 3)

    def _model(self, case: Case, video_date: str, fallback) -> tuple[str | None, str, float, str]:
        try:
            (rel, why, conf), reply = ask(self.model, case, video_date)
        except ModelOutputError:
            self._count("model_replies_unusable")
            rel, why, conf = fallback()
            return rel, f"{self.name} reply unusable; rules: {why}", conf, "rules"
        self._count("model_answers")
        self._count("model_answers_cached", int(reply.cached))  # answered from the response cache
        self._count("model_seconds", reply.seconds)
        self._count("model_tokens_in", reply.tokens_in)
        self._count("model_tokens_out", reply.tokens_out)
        return rel, why, conf, self.name

    def decide(self, cases: list[Case], video_date: str) -> list[tuple[str | None, str, float, str]]:
        """(relation, rationale, confidence, decided_by) for every case, in order."""
        if self.mode == "model":
            return [self._model(c, video_date, lambda c=c: _rules(c, video_date)) for c in cases]
        decided = [_rules(c, video_date) for c in cases]
        if self.mode == "rules":
            return [(*d, "rules") for d in decided]
        doubt = borderline(cases, decided)
        self._count("borderline", len(doubt))
        out = []
        for i, (c, d) in enumerate(zip(cases, decided)):
            if i not in doubt:
                out.append((*d, "rules"))
                continue
            rel, why, conf, by = self._model(c, video_date, lambda d=d: d)
            if by != "rules" and rel == d[0]:  # confirmed: the rules' reading and confidence stand
                self._count("judge_kept")
                rel, why, conf = d[0], f"{d[1]}; {by} agrees ({doubt[i]})", d[2]
            elif by != "rules":
                self._count("judge_changed")
                why = f"{why} (judged: {doubt[i]}; rules said {d[0] or 'no stance'})"
            out.append((rel, why, conf, by))
        return out


def installed(asset: str = "qwen2.5-coder-1.5b-instruct") -> bool:
    """Whether every package part of a bundled model is installed (nothing is joined or hashed)."""
    from importlib.util import find_spec

    from ..assets import ASSETS

    return all(find_spec(pkg) is not None for pkg, _ in ASSETS[asset].parts)


def default_mode(model_given: bool) -> str:
    """Without ``--relater``: the endpoint relates when ``--model`` names one, else the rules."""
    return "model" if model_given else "rules"


def configure(mode: str | None, *, endpoint: str | None = None, models=None, writer=None) -> Relater:
    """The run's relater. Its endpoint: ``endpoint`` (``--relater-model``), else the writer's
    (``--model``), else ``local-1.5b`` when installed, else the bundled ``local``."""
    mode = mode or default_mode(writer is not None or endpoint is not None)
    if mode not in MODES:
        raise VidsleuthError(f"--relater {mode!r} is not one of {', '.join(MODES)}")
    if mode == "rules":
        return Relater("rules")
    if endpoint is None and writer is not None:
        return Relater(mode, writer)
    if models is None:
        from ..models import Models

        models = Models()
    name = endpoint or (LARGE_MODEL if installed() else "local")
    return Relater(mode, models.get(name, role="writer"))


def decide_candidates(relater: Relater, anchors: list, candidates: list, video_date: str, *, workers: int = 4) -> list:
    """The pipeline's stage 4: every branch candidate as a ``branches.Decision``, in anchor order.
    Rules and model calls run per anchor branch; the judge needs every rules decision first (a
    conflict spans candidates), so it reviews them all at once."""
    from .branches import Decision, run_branches

    if relater.mode != "judge":
        return revised_pages(run_branches(anchors, candidates, lambda a, c: relater.decide([case_of(a, c)], video_date)[0],
                                          workers=workers))
    by_id = {a.id: a for a in anchors}
    ordered = [c for a in anchors for c in candidates if c.anchor_id == a.id]
    decided = relater.decide([case_of(by_id[c.anchor_id], c) for c in ordered], video_date)
    return revised_pages([Decision(c, *d) for c, d in zip(ordered, decided)])


def revised_pages(decided: list) -> list:
    """A page that states a revision of the video's figure (it names the video's value as its former one, or
    says it changed it) revises that quantity wherever it states it: its other figure for the anchor is the
    revised one ("Bake at 400 °F" on a care guide that says elsewhere it lowered 450 °F to 400 °F), not a dispute."""
    from dataclasses import replace

    revised = {(d.candidate.anchor_id, d.candidate.passage.source.location): d.rationale for d in decided
               if d.relation == "updates" and ("stated as a revision" in d.rationale or "former" in d.rationale)}
    out = []
    for d in decided:
        why = revised.get((d.candidate.anchor_id, d.candidate.passage.source.location))
        # where the page calls the video's own figure the former one, its agreeing figure is no support either
        if why and (d.relation == "contradicts" or d.relation == "supports" and ("former" in why or "rejects the video's" in why)):
            d = replace(d, relation="updates", rationale=f"{d.rationale}; the page revises this figure ({why[:80]})")
        out.append(d)
    return out


def case_of(anchor, candidate) -> Case:
    src = candidate.passage.source
    return Case(anchor, candidate.excerpt, src.location, src.title, src.date, candidate.context, candidate.by_topic)
