"""Guards around small models' outputs: what replaces a query that cannot find anything.

A 0.5B Planner often echoes the template's placeholder (``"query1"``) or writes a query that has
nothing to do with the question; the search then finds nothing and the loop stops empty-handed.
The guard keeps any query that shares a content word with the question and returns hits; else it
searches a query built from the question itself (quoted strings, names, numbers, content words),
and the step says so.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset("""
a an the of in on at to for from by with about into over after before under between and or but nor so
is are was were be been being am do does did done has have had having will would shall should can could
may might must what which who whom whose when where why how whether that this these those it its it's
i me my we our you your he him his she her they them their there here than then as if not no yes
much many more most some any all each every other such only own same very just also too
according give gives given get gets got tell show shows shown say says said find know left
""".split())
PLACEHOLDER = re.compile(r"^\s*(?:query\s*\d*|search[_ ]?query\s*\d*|q\d*|\.\.\.|…|string|"
                         r"<[^>]*>|\[[^\]]*\]|your (?:search )?query.*|search terms?|keywords?)\s*$", re.I)
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)


def tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text or "")]


def content_words(text: str) -> list[str]:
    """Lower-cased words that carry meaning: not stop words, numbers kept, CJK runs kept."""
    out = []
    for t in tokens(text):
        if t in STOPWORDS or (len(t) < 2 and not t.isdigit() and t.isascii()):
            continue
        if t not in out:
            out.append(t)
    return out


def question_query(question: str) -> str:
    """A keyword query from the question: quoted strings first, then names, numbers and the
    remaining content words, in the question's order."""
    quoted = re.findall(r"[\"“']([^\"”']{2,})[\"”']", question)
    words = content_words(question)
    parts = [q for q in quoted] + [w for w in words if not any(w in tokens(q) for q in quoted)]
    return " ".join(parts) or question.strip()


def query_problem(query: str, question: str) -> str:
    """Why a planner query should not be searched ('' when it is fine)."""
    if not query or not query.strip():
        return "empty query"
    if PLACEHOLDER.match(query):
        return f"placeholder query {query!r}"
    if not set(content_words(query)) & set(content_words(question)):
        return f"query {query!r} shares no content word with the question"
    return ""


def guarded_search(index, query: str, question: str, k: int) -> tuple[str, list, str]:
    """(query searched, hits, note): a query that finds nothing is replaced by the question's
    words, and the note says so ('' when the query was kept)."""
    hits = index.search(query, k=k)
    fallback = question_query(question)
    if hits or query == fallback:
        return query, hits, ""
    return fallback, index.search(fallback, k=k), f"guard: {query!r} found nothing; searching the question's words instead"
