"""Local documents: a folder of HTML pages (main text only, through trafilatura's extraction, so
navigation, cookie banners and footers do not become evidence), Markdown, text and PDF (pypdf).
Both of trafilatura's modes are read and the one that kept more of the page wins: either may stop at a forum
thread's first post and drop every reply, or drop a page's list items, and a reply is often the evidence ("We keep
ours at 50%").

A document that cannot be read (damaged PDF, binary file, empty extraction) is skipped and
counted, with its reason, never fatal: one bad file must not sink a report.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ...errors import VidsleuthError, require
from ..facts import cells, unit_column
from ..types import Source
from . import Gathered, Passage
from .dates import page_date

SUFFIXES = {".html": "html", ".htm": "html", ".md": "text", ".markdown": "text", ".txt": "text", ".pdf": "pdf"}
MAX_PASSAGE = 700


_PRE = re.compile(r"(<(pre|textarea)\b.*?</\2\s*>)", re.S | re.I)


def html_text(raw: str) -> str:
    """The main text of an HTML page, one block (paragraph, heading, list item, table row) a line.
    A line break inside a block's source is whitespace in HTML, so it is one first: a hard-wrapped
    ``<p>`` would otherwise be cut mid-sentence ("1.5 cups at" / "6 pm"); ``<pre>`` keeps its lines."""
    trafilatura = require("trafilatura", "report")
    parts = _PRE.split(raw)  # [text, pre-block, 'pre', text, ...]
    flat = "".join(part if k % 3 == 1 else ("" if k % 3 == 2 else re.sub(r"\s*\n\s*", " ", part))
                   for k, part in enumerate(parts))
    def extract(**mode) -> str:
        return trafilatura.extract(flat, output_format="txt", include_comments=False, include_tables=True, **mode) or ""

    recall, precise = extract(favor_recall=True), extract(favor_precision=True)
    # recall mode sometimes takes a table apart cell by cell; then the precise reading, which keeps its rows, is the page
    if _rows(precise) != _rows(recall):
        return precise if _rows(precise) > _rows(recall) else recall
    # either mode may stop at a thread's first post (recall mode takes the first class="post" for the body) or drop a
    # page's list items: the reading that kept more of the page is the page
    return precise if len(precise) > len(recall) else recall


def _rows(text: str) -> int:
    return sum(line.lstrip().startswith("|") for line in text.splitlines())


def find_date(text: str) -> str:
    """The date a document's prose states (``sources.dates``: cued dates anywhere, an ISO date
    near the top; the latest wins), or ''."""
    return page_date("", text)


_FILE_NAME = re.compile(r"[^\s/\\]*[/\\]?\S*\.(?:html?|pdf|docx?|odt|txt|md|tex|rtf)", re.I)

# a typeset PDF's ligatures are one glyph each ("Hardening oﬀ"): as letters they are words again
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st"})


def read_document(path: Path) -> tuple[str, str, str]:
    """(title, date, main text) of one document; raises VidsleuthError when it cannot be read."""
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise VidsleuthError(f"not a document type vidsleuth reads ({path.suffix or 'no suffix'})", path=path)
    if kind == "pdf":
        pypdf = require("pypdf", "report")
        import logging

        logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # a damaged file is reported once, below
        try:
            reader = pypdf.PdfReader(str(path))
            text = "\n\n".join(pdf_tables((page.extract_text(extraction_mode="layout") or "").translate(_LIGATURES))
                                 for page in reader.pages)
            meta = reader.metadata or {}
            title = str(meta.get("/Title") or "") if meta else ""
            if _FILE_NAME.fullmatch(title.strip()):  # the file it was printed from ("_pdfsrc_guide.pdf.html"): no title
                title = ""
        except Exception as exc:  # pypdf raises many types for damaged files
            raise VidsleuthError(f"cannot read PDF ({type(exc).__name__}: {exc})", path=path) from None
        date = page_date("", text, title=title)
    else:
        from ...files import read_text

        raw = read_text(path, "document")
        if kind == "html":
            trafilatura = require("trafilatura", "report")
            text = html_text(raw)
            meta = trafilatura.extract_metadata(raw, extensive=False)  # a date the page states, not one guessed from '© 2023'
            title = (meta.title if meta and meta.title else "") or ""
            date = page_date(raw, text, title=title, html=True)
            if not date and meta and meta.date and meta.date[:4] not in title:  # a title's year is not a date
                date = meta.date
        else:
            text = raw
            heading = re.search(r"^\s*#\s+(.+)$", raw, re.M)
            title = heading.group(1).strip() if heading else ""
            date = page_date("", raw, title=title)
    text = text.strip()
    if not text:
        raise VidsleuthError("no text could be extracted", path=path)
    if not title:
        first = text.splitlines()[0].strip()
        title = first[:90] if len(first) < 120 else path.stem
    return title, date, text


_GAP = re.compile(r"\S(?:\s{2,}|\t)\S")


def pdf_tables(layout: str) -> str:
    """A PDF page's text (pypdf's layout mode keeps columns apart) with its tables as ``| a | b |``
    rows under their header, as trafilatura writes HTML tables, and its prose as paragraphs: a
    run of two or more lines whose cells (split at wide gaps) line up, at least one with a digit
    past its first cell ("Nozzle temperature (°C)     230–250"), is a table; its first line is
    the header when it states no number past its label."""
    lines = [ln.rstrip() for ln in layout.splitlines()]
    cells = [[c.strip() for c in re.split(r"\s{2,}|\t", ln.strip()) if c.strip()] for ln in lines]
    rowlike = [2 <= len(c) <= 8 and all(len(x) <= 40 for x in c) and bool(_GAP.search(ln.strip()))
               for c, ln in zip(cells, lines)]
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and rowlike[j] and (j == i or len(cells[j]) == len(cells[i])):
            j += 1
        block = cells[i:j]
        if len(block) >= 2 and any(re.search(r"\d", " ".join(c[1:])) for c in block):
            has_head = not re.search(r"\d", " ".join(block[0][1:]))
            head, body = (block[0], block[1:]) if has_head else ([""] * len(block[0]), block)
            out += ["", "| " + " | ".join(head) + " |"] + ["| " + " | ".join(c) + " |" for c in body] + [""]
            i = j
            continue
        out.append(" ".join(lines[i].split()))
        i += 1
    return "\n".join(_unit_columns(out))


_NUMCELL = r"[$€£¥]?\d[\d.,]*(?:[–~-]\d[\d.,]*)?%?"


def _unit_header(line: str) -> list[str]:
    """The columns of a header naming two or more units in brackets ("Material Nozzle (°C) Bed
    (°C) Retraction (mm)" -> Material | Nozzle (°C) | Bed (°C) | Retraction (mm)), or []."""
    from ...values import UNITS

    parts = [p.strip() for p in re.findall(r"[^()]*\([^()]{1,8}\)", line)]
    units = [re.search(r"\(([^()]+)\)", p).group(1).strip().lower() for p in parts]
    # "克/150毫升": a unit per an amount of another
    if len(parts) < 2 or not all(all(re.sub(r"^\d+(?:\.\d+)?\s*", "", u) in UNITS for u in unit.split("/")) for unit in units):
        return []
    first = parts[0].split(None, 1)
    return [first[0], first[1]] + parts[1:] if len(first) == 2 else []


def _row_pattern(columns: int) -> re.Pattern:
    return re.compile(rf"^(\S.*?)\s+({_NUMCELL}(?:\s+{_NUMCELL}){{{max(0, columns - 2)}}})$")


def _unit_columns(lines: list[str]) -> list[str]:
    """Tables whose columns a PDF's text lost ("PETG 235–245 80 6" under "Material Nozzle (°C) Bed
    (°C) Retraction (mm)"): a label and one number per unit column, as ``| … |`` rows."""
    folded = [unicodedata.normalize("NFKC", ln) for ln in lines]  # full-width brackets and tildes of a CJK table
    out, i = [], 0
    while i < len(lines):
        head = _unit_header(folded[i])
        rows, j = [], i + 1
        row = _row_pattern(len(head))
        nxt = next((ln.strip() for ln in folded[i + 1:] if ln.strip()), "")
        if head and not row.match(nxt) and _row_pattern(len(head) - 1).match(nxt):
            head = [f"{head[0]} {head[1]}"] + head[2:]  # "Rider weight (kg) Front (psi)": the rows' first cell is a value
            row = _row_pattern(len(head))
        while head and j < len(lines) and (not folded[j].strip() or row.match(folded[j].strip())):
            m = row.match(folded[j].strip())
            if m:
                rows.append([m.group(1)] + re.findall(_NUMCELL, m.group(2)))
            j += 1
        if rows:
            out += ["", "| " + " | ".join(head) + " |"] + ["| " + " | ".join(r) + " |" for r in rows] + [""]
            i = j
            continue
        out.append(lines[i])
        i += 1
    return out


def _tables(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The text without its table lines, and each table row with its header line and caption
    (trafilatura writes HTML tables as ``| a | b |`` rows, a ``<caption>`` as a first row with only
    its first cell filled, then the real header; Markdown tables are the same)."""
    rest, rows, header, caption = [], [], "", ""
    for line in text.splitlines():
        cell = line.strip()
        if not cell.startswith("|"):
            rest.append(line)
            header = caption = ""
            continue
        if re.fullmatch(r"\|?[\s:|-]+\|?", cell):
            continue  # the |---|---| rule under a header
        if not header:
            heads = cells(cell)
            if not caption and len(heads) > 1 and heads[0] and not any(heads[1:]):
                caption = heads[0]  # "| Working properties |  |": the table's title, not its header
                continue
            header = cell
            rest.append("")
            continue
        row, head = _unit_folded(cell, header)
        rows.append((row, head, caption))
    return "\n".join(rest), rows


def _unit_folded(row: str, header: str) -> tuple[str, str]:
    """(row, its header): under a header with a unit column, each row's header carries that row's
    unit on its value columns ("| Spreading rate | m²/L | 12–14 |" under "| Property | Unit | Value
    (m²/L) |"), as a reader reads a data sheet; the row itself stays as the document writes it, so
    that its citation is found there."""
    heads, values = cells(header), cells(row)
    at = next((i for i, h in enumerate(heads) if i and unit_column(h)), None)
    if at is None or len(values) != len(heads) or re.fullmatch(r"[-–—/]*", values[at]):
        return row, header
    named = [h if i in (0, at) or not re.search(r"\d", values[i]) else f"{h} ({values[at]})" for i, h in enumerate(heads)]
    return row, "| " + " | ".join(named) + " |"


def is_heading(line: str) -> bool:
    """A section heading: a Markdown ``#`` line, or a short line that is not a sentence (no full
    stop at its end, few words: "How hot should the oven be?", "Resting before you carve",
    "二、改善睡眠的小建议")."""
    s = line.strip()
    if s.startswith("#"):
        return True
    return 0 < len(s) <= 70 and len(s.split()) <= 9 and not re.search(r"[.。!！;；,，]$", s) and not s.startswith("|")


def _heading_line(line: str) -> bool:
    """A heading line: no number in it once a section number ("2.", "一、") is set aside."""
    bare = re.sub(r"^\s*#*\s*(?:\d+(?:\.\d+)*\.?|[一二三四五六七八九十]+、)\s*", "", line)
    return is_heading(line) and bool(bare.strip()) and not re.search(r"\d", bare)


def passages_with_headings(text: str, *, lines: bool = False) -> list[tuple[str, str, str]]:
    """(passage, context, heading): paragraphs (blank-line separated, or one per line for
    ``lines``: trafilatura's output puts each paragraph on its own line), long ones cut at
    sentences, each with the section heading above it; table rows, each with its header line as
    context. A heading names what its section is about; it is not evidence itself."""
    from ..facts import sentences

    text, rows = _tables(text)
    out: list[tuple[str, str, str]] = []
    heading = ""
    for para in (text.splitlines() if lines else re.split(r"\n\s*\n", text)):
        first, _, rest = para.strip().partition("\n")
        if _heading_line(first):  # a heading alone, or on the first line of its section ("一、成年人需要多少睡眠")
            heading = first.lstrip("#").strip()
            if not rest.strip():
                continue
            para = rest
        for item in list_items(para):
            out += _chunks(item, heading, sentences)
    return out + rows


_BULLET = re.compile(r"^\s*(?:[-*•·‣▪–]|\d{1,2}[.)]|[（(]?[一二三四五六七八九十\d]{1,2}[)）、])\s+")


def list_items(para: str) -> list[str]:
    """A paragraph as its statements: a list ("- max depth 18 m" / "- ascent 9 m/min", one item a
    line) is one statement per item, since notes rarely end an item with a full stop; prose lines
    are one paragraph."""
    lines = [line for line in para.splitlines() if line.strip() and not line.strip().startswith("#")]
    if sum(bool(_BULLET.match(line)) for line in lines) < 2:
        return [" ".join(line.strip() for line in lines)]
    items: list[str] = []
    for line in lines:
        if _BULLET.match(line) or not items:
            items.append(_BULLET.sub("", line, count=1).strip())
        else:
            items[-1] = f"{items[-1]} {line.strip()}"  # an item's continuation line
    return items


def _chunks(para: str, heading: str, sentences) -> list[tuple[str, str, str]]:
    """A paragraph as passages of at most ``MAX_PASSAGE`` characters, cut at sentences."""
    para = para.strip()
    if len(para) < 20 and not re.search(r"\d", para):
        return []
    out, chunk = [], ""
    for s in (sentences(para) if len(para) > MAX_PASSAGE else [para]):
        if chunk and len(chunk) + len(s) > MAX_PASSAGE:
            out.append((chunk, "", heading))
            chunk = ""
        chunk = f"{chunk} {s}".strip()
    if chunk:
        out.append((chunk, "", heading))
    return out


def passages_with_context(text: str, *, lines: bool = False) -> list[tuple[str, str]]:
    """(passage, context) of ``passages_with_headings``."""
    return [(p, c) for p, c, _ in passages_with_headings(text, lines=lines)]


def passages_of(text: str, *, lines: bool = False) -> list[str]:
    """The passages of ``passages_with_context`` without their context."""
    return [p for p, _ in passages_with_context(text, lines=lines)]


class DocumentSource:
    name = "documents"

    def __init__(self, folder: str | Path, follow_links: bool = False):
        self.folder = Path(folder)
        self.follow_links = follow_links

    def gather(self, anchors=None, **_) -> Gathered:
        got = Gathered()
        if not self.folder.is_dir():
            raise VidsleuthError("the evidence folder does not exist or is not a folder", path=self.folder,
                                 hint="give --docs DIR with the documents to research")
        from ...files import MAX_DOCUMENT_BYTES, iter_files

        # confined to the folder: links, outside paths, FIFOs and oversized files are skipped with the reason
        files, refused = iter_files(self.folder, follow_links=self.follow_links, max_bytes=MAX_DOCUMENT_BYTES)
        got.counts = {"documents_found": len(files) + len(refused), "documents_read": 0,
                      "documents_skipped": len(refused)}
        got.skipped += [str(s) for s in refused]
        for k, path in enumerate(files, 1):
            try:
                title, date, text = read_document(path)
            except VidsleuthError as exc:
                got.counts["documents_skipped"] += 1
                got.skipped.append(str(exc))
                continue
            got.counts["documents_read"] += 1
            src = Source(id=f"doc{k}", kind="document", title=title, location=str(path.resolve()), date=date)
            lines = SUFFIXES.get(path.suffix.lower()) == "html"
            got.passages += [Passage(src, p, "text", context=c, heading=h)
                             for p, c, h in passages_with_headings(text, lines=lines)]
        return got
