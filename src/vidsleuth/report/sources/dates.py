"""A source's date: when the page says it was published or last updated.

Read in this order, the latest stated date winning (an update outdates its first publication):
the HTML's machine-readable dates (``<time datetime>``, ``article:modified_time`` /
``article:published_time``, ``date``, ``dc.date``, ``last-modified`` meta tags), then dated
phrases in the prose ("Updated March 2025", "Published 3 May 2024", "Last revised: 2024-03-05",
"更新于2024年3月", "2024年3月5日发布") and a dateline or byline near the top ("November 1, 2023" on a
line of its own, "By Priya Natarajan · November 1, 2024"), parsed by ``dateparser``. A year alone is not a date, and
the title's year ("Best e-bikes (2024)") is never the page's date. A month without a day is kept as
``YYYY-MM``, so comparisons with the video's date go only as far as both are stated.
"""

from __future__ import annotations

import re

_CUE = (r"(?:last\s+)?(?:updated|revised|reviewed|published|posted|modified|edited|effective|as of|dated?|issued)"
        r"(?:\s+(?:on|in))?\s*:?\s*")
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DATE = (rf"(?:\d{{4}}-\d{{2}}(?:-\d{{2}})?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\.?,?\s+\d{{4}}|"
         rf"(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|"
         rf"(?:{_MONTHS})\.?\s+\d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{4}})")
_EN = re.compile(rf"{_CUE}(?P<d>{_DATE})", re.I)
_ISO = re.compile(r"\b(?P<d>(?:19|20)\d\d-\d\d-\d\d)\b")
# a date on a line of its own, or a byline's ("November 1, 2023", "By Priya Natarajan · November 1, 2024")
_LONE = re.compile(rf"^[ \t]*(?:by\s[^\n·|]{{1,40}}[·|•—–-]\s*)?(?P<d>{_DATE})[ \t]*$", re.I | re.M)
_ZH = re.compile(r"(?P<d>(?:19|20)\d\d\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?)")
_ZH_CUE = re.compile(r"(?:更新|发布|修订|发表|日期)")
_META = re.compile(r"<meta\s[^>]*?(?:name|property|itemprop|http-equiv)\s*=\s*[\"']?(?:article:modified_time|"
                   r"article:published_time|date|dc\.date|dcterms\.modified|dcterms\.created|last-modified|"
                   r"datemodified|datepublished|og:updated_time)[\"']?[^>]*?content\s*=\s*[\"']([^\"']+)", re.I)
_META_REV = re.compile(r"<meta\s[^>]*?content\s*=\s*[\"']([^\"']+)[\"'][^>]*?(?:name|property|itemprop)\s*=\s*[\"']?"
                       r"(?:article:modified_time|article:published_time|date|dc\.date|last-modified)", re.I)
_TIME = re.compile(r"<time\b[^>]*?datetime\s*=\s*[\"']([^\"']+)", re.I)


def _parse(text: str) -> str:
    """ISO ``YYYY-MM-DD`` (or ``YYYY-MM`` when no day is stated) through dateparser, or ''."""
    import dateparser

    t = text.strip()
    zh = re.match(r"((?:19|20)\d\d)\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2}))?", t)
    if zh:
        y, m, d = zh.group(1), int(zh.group(2)), zh.group(3)
        return f"{y}-{m:02d}" + (f"-{int(d):02d}" if d else "") if 1 <= m <= 12 else ""
    iso = re.match(r"((?:19|20)\d\d)-(\d\d)(?:-(\d\d))?", t)
    if iso:
        return iso.group(0)
    has_day = bool(re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\b(?!\d)", re.sub(r"\b\d{4}\b", "", t)))
    got = dateparser.parse(t, languages=["en"], settings={"PREFER_DAY_OF_MONTH": "first", "REQUIRE_PARTS": ["month", "year"]})
    if got is None:
        return ""
    return got.strftime("%Y-%m-%d" if has_day else "%Y-%m")


# the day a copy was printed, fetched or read is no date of the page's content ("Printed on 2026-03-01")
_COPIED = re.compile(rf"\b(?:printed|print date|retrieved|accessed|downloaded|saved)(?:\s+(?:on|at|from))?\s*:?\s*(?:{_DATE})",
                     re.I)


def dates_in(text: str, *, title: str = "") -> list[str]:
    """Every date the prose states with a cue (or in ISO form), without the title's or a print line's."""
    body = _COPIED.sub(" ", text.replace(title, " ") if title else text)
    found = [_parse(m.group("d")) for m in _EN.finditer(body)]
    found += [_parse(m.group("d")) for m in _ISO.finditer(body[:600])]  # a bare ISO date near the top
    found += [_parse(m.group("d")) for m in _LONE.finditer(body[:800])]  # a dateline or byline near the top
    found += _zh_dates(body, top=200)
    return [d for d in found if d]


def _zh_dates(body: str, top: int = 0) -> list[str]:
    """Chinese dates with a cue beside them ("发布于2023年4月", "2024年3月5日更新"), or any near the top."""
    out = []
    for m in _ZH.finditer(body):
        near = body[max(0, m.start() - 8):m.end() + 8]
        if _ZH_CUE.search(near) or m.start() < top:
            out.append(_parse(m.group("d")))
    return out


def visible(raw: str) -> str:
    """The text of an HTML page with its markup, scripts and styles removed (a byline's "Updated
    June 2024" in a ``<span>`` that the main-text extraction leaves out)."""
    import html as _html

    body = re.sub(r"(?is)<(script|style|title|head)\b.*?</\1\s*>", " ", raw)
    return _html.unescape(re.sub(r"(?s)<[^>]+>", "\n", body))


def page_date(raw: str, text: str, *, title: str = "", html: bool = False) -> str:
    """The date a page states (see the module docstring), or ''."""
    found = []
    if html:
        for pattern in (_TIME, _META, _META_REV):
            found += [_parse(v) for v in pattern.findall(raw)]
        shown = _COPIED.sub(" ", visible(raw).replace(title, " ") if title else visible(raw))
        found += [_parse(m.group("d")) for m in _EN.finditer(shown)]  # a dated cue outside the main text
        found += _zh_dates(shown)  # a Chinese byline outside it ("作者：… · 发布于2023年4月")
    found += dates_in(text, title=title)
    found = [d for d in found if d]
    return max(found) if found else ""
