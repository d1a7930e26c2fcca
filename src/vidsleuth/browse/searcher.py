"""The Searcher: the Planner's query and the question's own content words, searched side by side.

A 0.5B Planner often paraphrases the question without its content words (measured: an L2 video
never found) or echoes the template's placeholder. Searching only its query loses the video;
searching only the question ignores the Planner. Both run on the same index, and their rankings
are merged by reciprocal rank (the hybrid index's fusion, ``search.index.rrf``), then candidates
that violate a constraint the question states are ranked below those that meet it
(``constraints.Constraints.rank``). A placeholder or empty query never reaches the index: the guard
drops it and the step says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..search.index import rrf
from .guards import query_problem, question_query


@dataclass(frozen=True)
class Searched:
    query: str  # the query the step shows (the Planner's when it was searched)
    queries: tuple[str, ...]
    hits: tuple
    note: str


def searcher_queries(planner_query: str, question: str, focus: str = "") -> tuple[list[str], str]:
    """(queries to search, guard note): the Planner's query unless a guard drops it, then the
    question's (or a missing target's) content words."""
    own = question_query(focus or question)
    problem = query_problem(planner_query, focus or question)
    queries = [own] if problem else [planner_query.strip(), own]
    note = f"guard: {problem}; searched the question's words instead" if problem else ""
    return list(dict.fromkeys(q for q in queries if q)), note


def search(index, planner_query: str, question: str, k: int, constraints=None, records=None,
           focus: str = "") -> Searched:
    """The merged, constraint-ranked top-k (see the module docstring)."""
    queries, note = searcher_queries(planner_query, question, focus)
    results = index.search_many(queries, k=k)
    by_id = {h.video_id: h for res in results for h in res}
    order = [d for d in dict.fromkeys(h.video_id for res in results for h in res)]
    pos = {v: i for i, v in enumerate(order)}
    merged = rrf([[(pos[h.video_id], 1.0) for h in res] for res in results], k=k)
    ids = [order[i] for i, _ in merged]
    if constraints and records is not None:
        ranked = constraints.rank(ids, records)
        moved = sum(a != b for a, b in zip(ids, ranked))
        if moved:
            note = "; ".join(x for x in (note, f"{moved} rank(s) changed by the question's constraints") if x)
        ids = ranked
    return Searched(queries[0], tuple(queries), tuple(by_id[v] for v in ids), note)
