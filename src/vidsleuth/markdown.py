"""Markdown tables whose cells cannot break the table or inject markup.

Genres, ids, answers and model output end up in ``summary.md`` files; a ``|``, a newline, a
leading ``#`` or an HTML tag in them would split cells, start headings or render as markup.
"""

from __future__ import annotations

import html


def cell(value: object) -> str:
    """One table cell: newlines folded, HTML escaped, pipes and Markdown punctuation escaped."""
    text = " ".join(str("" if value is None else value).split())
    text = html.escape(text, quote=False)
    for ch in "\\`*_[]#|":
        text = text.replace(ch, "\\" + ch)
    return text


def table(header: list[str], rows: list[list[object]]) -> list[str]:
    """Lines of a Markdown table with every cell escaped."""
    out = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return out
