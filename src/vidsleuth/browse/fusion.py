"""The embedded Watcher: rank candidates by everything known about them, fused.

A text-only model cannot look at a preview grid, and a 0.5B LLM asked to screen ten candidates
picks at random. What the embedded route knows about a candidate is text from three signals:
its metadata (title, description, channel, tags), the on-screen text read in its preview-grid
cells, and the speech heard inside the grids' time span. Each signal is scored two ways, as the
search stack's hybrid index does: lexically (idf-weighted coverage of the question's terms, i.e.
BM25 with saturated term frequency over the candidate set, so a title that repeats the question's
words five times counts once) and densely (e5 cosine). Content (screen + speech) and the whole
record are scored apart, and the four normalised scores are summed with fixed weights, so no
signal can silence another: a candidate whose metadata matches but whose content shows another
subject loses to one whose content matches. The weights are stated here, not tuned per run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..search.analysis import Analyzer
from .guards import STOPWORDS, tokens

# score = sum(weight * normalised signal); lexical signals are divided by the question's total
# idf (1.0 = every question term found), dense ones min-max scaled over the candidates.
# ``names``: the share of the question's names (capitalised words inside it, numbers, quoted
# strings) found anywhere in the candidate: the constraints a right answer video must meet.
# ``lex_line``: the best single line's (a caption's, a spoken sentence's) coverage: a remark the
# question quotes ("says they stopped for lunch at a café next to a lighthouse") is said in one
# sentence, while a same-topic distractor's matching words are spread over many.
# ``title``: for a title holding one of the question's names (the question names that video's
# subject), the share of its words the question holds: a hard negative on the topic has a title
# that adds what the question never says ("Kayak Review: Winter Edition" when it names the kayak
# review). A question that only describes its video (no name in any title) leaves it at 0.
WEIGHTS = {"names": 1.0, "title": 1.0, "lex_content": 1.0, "lex_line": 1.0, "lex_all": 0.5, "dense_content": 0.25,
           "dense_all": 0.25}


@dataclass(frozen=True)
class CandidateText:
    video_id: str
    metadata: str
    screen: str = ""
    speech: str = ""
    title: str = ""  # the record's title alone (also inside ``metadata``), for the title-fit signal

    @property
    def content(self) -> str:
        return " ".join(x for x in (self.screen, self.speech) if x)

    @property
    def everything(self) -> str:
        return " ".join(x for x in (self.metadata, self.screen, self.speech) if x)


@dataclass(frozen=True)
class Scored:
    video_id: str
    score: float
    signals: dict


NAME_WEIGHT = 2.0  # names (capitalised inside the question), numbers and quoted strings are the constraints


def _terms(analyzer: Analyzer, text: str) -> set[str]:
    return set(analyzer.tokens(" ".join(w for w in tokens(text) if w not in STOPWORDS)))


def _question_terms(analyzer: Analyzer, question: str) -> dict[str, float]:
    """Question terms with their weight: names, numbers and quoted words count double."""
    words = re.findall(r"[^\W_]+(?:[-'][^\W_]+)*", question)
    quoted = {w.lower() for q in re.findall(r"[\"“]([^\"”]+)[\"”]", question) for w in tokens(q)}
    out: dict[str, float] = {}
    for i, w in enumerate(words):
        if w.lower() in STOPWORDS:
            continue
        special = (i > 0 and w[:1].isupper()) or any(ch.isdigit() for ch in w) or w.lower() in quoted
        for t in analyzer.tokens(w):
            out[t] = max(out.get(t, 0.0), NAME_WEIGHT if special else 1.0)
    return out


def fuse(question: str, candidates: list[CandidateText], embedder=None, analyzer: Analyzer | None = None,
         weights: dict | None = None) -> list[Scored]:
    """Candidates best first (ties keep the search order)."""
    if not candidates:
        return []
    weights = weights or WEIGHTS
    analyzer = analyzer or Analyzer()
    qw = _question_terms(analyzer, question)
    q = set(qw)
    all_terms = [_terms(analyzer, c.everything) for c in candidates]
    content_terms = [_terms(analyzer, c.content) for c in candidates]
    n = len(candidates)
    idf = {t: qw[t] * math.log(1 + (n - df + 0.5) / (df + 0.5)) for t in q for df in [sum(t in a for a in all_terms)]}
    total = sum(idf.values()) or 1.0
    lex_content = [sum(idf[t] for t in q & c) / total for c in content_terms]
    lex_all = [sum(idf[t] for t in q & a) / total for a in all_terms]
    lex_line = [max((sum(idf[t] for t in q & _terms(analyzer, ln)) / total for ln in _lines(c.content)), default=0.0)
                for c in candidates]
    names = {t for t, w in qw.items() if w > 1.0}
    name_cover = [len(names & a) / len(names) if names else 0.0 for a in all_terms]
    title_fit = [len(tt & q) / len(tt) if tt & names else 0.0 for tt in (_terms(analyzer, c.title) for c in candidates)]
    dense_content = dense_all = [0.0] * n
    if embedder is not None and weights.get("dense_content", 0) + weights.get("dense_all", 0) > 0:
        texts = [c.content or "(nothing seen or heard)" for c in candidates] + [c.everything for c in candidates]
        vecs = embedded(embedder, texts, "passage")
        qv = embedded(embedder, [question], "query")[0]
        sims = vecs @ qv
        has_content = [bool(c.content) for c in candidates]
        dense_content = _minmax([float(s) if h else float("nan") for s, h in zip(sims[:n], has_content)])
        dense_all = _minmax([float(s) for s in sims[n:]])
    out = []
    for i, c in enumerate(candidates):
        sig = {"names": name_cover[i], "title": title_fit[i], "lex_content": lex_content[i], "lex_line": lex_line[i],
               "lex_all": lex_all[i], "dense_content": dense_content[i], "dense_all": dense_all[i]}
        score = sum(weights.get(k, 0.0) * v for k, v in sig.items())
        out.append(Scored(c.video_id, round(score, 6), {k: round(v, 4) for k, v in sig.items()}))
    order = sorted(range(n), key=lambda i: (-out[i].score, i))
    return [out[i] for i in order]


def _lines(content: str) -> list[str]:
    """Content cut into its lines and sentences (captions are one per line)."""
    return [x for part in content.split("\n") for x in re.split(r"(?<=[.!?])\s+", part) if x.strip()]


_VECTORS: dict[tuple[str, str, str], np.ndarray] = {}  # (embedder, kind, text) -> vector, for this process
_VECTORS_MAX = 4096


def embedded(embedder, texts: list[str], kind: str) -> np.ndarray:
    """The embedder's vectors, each text embedded once per process: the same candidates come back
    in every browsing loop and in every question of a topic."""
    name = getattr(embedder, "name", type(embedder).__name__)
    missing = list(dict.fromkeys(t for t in texts if (name, kind, t) not in _VECTORS))
    if missing:
        if len(_VECTORS) + len(missing) > _VECTORS_MAX:
            _VECTORS.clear()
        for t, v in zip(missing, embedder.embed(missing, kind=kind)):
            _VECTORS[(name, kind, t)] = v
    return np.vstack([_VECTORS[(name, kind, t)] for t in texts])


def _minmax(values: list[float]) -> list[float]:
    """Scaled to [0, 1] over the candidates; missing (nan) and constant signals give 0."""
    arr = np.array(values, dtype=float)
    ok = ~np.isnan(arr)
    if ok.sum() < 2:
        return [0.0] * len(values)
    lo, hi = arr[ok].min(), arr[ok].max()
    if hi - lo < 1e-9:
        return [0.0] * len(values)
    return [float((v - lo) / (hi - lo)) if k else 0.0 for v, k in zip(arr, ok)]
