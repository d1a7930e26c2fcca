"""How the writer names things for a reader: a source by a clean title (no Markdown marks, no
"| Site name" tail), an excerpt quoted as prose (a table row as "Poultry — Safe minimum: 165 °F",
never a row of pipes; long ones cut at a word), a heading inside a sentence ("the oven
temperature", but "the IRA limit"), and a value in Chinese ("不超过6克", not "≤ 6 g").

Pure string functions: the writer (``write.py``) and the renderer use them; nothing here reads a
file or a model.
"""

from __future__ import annotations

import re

from .facts import cells as _cells

QUOTE_CHARS = 200  # a quoted excerpt longer than this is cut at a word, with "…"
TITLE_CHARS = 90
_MARKS = re.compile(r"^\s*(?:#+|[-*>•]+)\s*")
_RULE = re.compile(r"[-:\s]+")
# value labels as values.Value.label() writes them -> how a Chinese reader writes them
_ZH_UNITS = {"g": "克", "kg": "千克", "mg": "毫克", "ml": "毫升", "mL": "毫升", "l": "升", "L": "升", "steps": "步",
             "step": "步", "min": "分钟", "h": "小时", "s": "秒", "day": "天", "days": "天", "kcal": "千卡", "kJ": "千焦",
             "km": "千米", "m": "米", "cm": "厘米", "mm": "毫米", "times": "次", "cups": "杯", "servings": "份",
             "month": "个月", "months": "个月", "year": "年", "years": "年", "week": "周", "weeks": "周", "dB": "分贝",
             "L/min": "升/分钟", "ml/min": "毫升/分钟", "W": "瓦", "kW": "千瓦", "kWh": "千瓦时"}
_ZH_FORMS = {"≤ ": "不超过", "≥ ": "至少", "≈ ": "约"}
_ZH_UNIT = re.compile(r"(\d)\s?(" + "|".join(sorted(map(re.escape, _ZH_UNITS), key=len, reverse=True)) + r")(?![A-Za-z/·])")


def short(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` on one line, cut at the last word boundary before ``limit`` (with "…")."""
    t = " ".join(str(text).split())
    if len(t) <= limit:
        return t
    cut = t[:limit]
    at = max(cut.rfind(" "), cut.rfind("，"), cut.rfind("。"), cut.rfind(","))
    return (cut[:at] if at > limit // 2 else cut).rstrip(" ,;:，") + "…"


def clean_title(title: str) -> str:
    """A page title as a reader would cite it: Markdown and list marks dropped, a "| Site" tail
    dropped when what is left still names the page, never a pipe, at most ``TITLE_CHARS``."""
    t = _MARKS.sub("", " ".join(str(title).split()))
    if "|" in t:
        parts = [p.strip() for p in t.split("|") if p.strip()]
        t = parts[0] if parts and len(parts[0]) >= 12 else " — ".join(parts)
    return short(t.replace("|", "/"), TITLE_CHARS) or "untitled source"


def source_name(title: str, date: str = "", zh: bool = False) -> str:
    """“Title” (2024-01-15) in English; 《标题》（2024-01-15） in Chinese (“…” when the title
    already holds 《》, which may not nest)."""
    t = clean_title(title)
    if zh:
        named = f"“{t}”" if "《" in t or "》" in t else f"《{t}》"
        return named + (f"（{date}）" if date else "")
    return f"“{t}”" + (f" ({date})" if date else "")


def readable(excerpt: str, context: str = "", limit: int = QUOTE_CHARS) -> str:
    """An excerpt as it may be quoted in a sentence: a table row ``| Poultry | 165 °F |`` under
    ``| Food | Safe minimum |`` becomes "Poultry — Safe minimum: 165 °F"; Markdown marks go; at
    most ``limit`` characters."""
    text = " ".join(str(excerpt).split())
    if "|" in text:
        cells = [c for c in _cells(text) if c and not _RULE.fullmatch(c)]
        heads = _cells(context) if "|" in context else []
        if len(cells) > 1 and len(heads) == len(cells):
            text = f"{cells[0]} — " + "; ".join(f"{h}: {c}" if h else c for h, c in zip(heads[1:], cells[1:]))
        elif len(cells) > 1:
            text = f"{cells[0]}: " + ", ".join(cells[1:])
        else:
            text = " ".join(cells)
    text = _MARKS.sub("", text).replace("|", "/")
    return short(text, limit)


def row_subject(excerpt: str) -> str:
    """The first cell of a table row (what the row is about: "Poultry"), '' for prose."""
    if "|" not in excerpt:
        return ""
    cells = [c for c in _cells(excerpt) if c and not _RULE.fullmatch(c)]
    return cells[0] if len(cells) > 1 and not re.search(r"\d", cells[0]) else ""


def in_sentence(heading: str) -> str:
    """A heading inside a sentence: "Oven temperature" -> "oven temperature"; an acronym or a
    name ("IRA limit", "PETG nozzle") keeps its capitals."""
    h = heading.strip()
    if len(h) > 1 and h[0].isupper() and h[1].islower():
        return h[0].lower() + h[1:]
    return h


def zh_value(label: str) -> str:
    """A value label in Chinese: "≤ 6 g" -> "不超过6克", "1500–1700 ml" -> "1500–1700毫升",
    "6000 steps" -> "6000步", "12 month" -> "12个月", "¥199" -> "199元"; units with no common Chinese
    name (ppm) stay as they are."""
    out = str(label)
    for mark, word in _ZH_FORMS.items():
        out = out.replace(mark, word)
    out = _ZH_UNIT.sub(lambda m: m.group(1) + _ZH_UNITS[m.group(2)], out)
    out = re.sub(r"[¥￥]\s?(\d[\d,.]*(?:–\d[\d,.]*)?)", r"\1元", out)  # "¥2499" -> "2499元"
    return re.sub(r"(?<=\d) (?=[\u4e00-\u9fff])", "", out)  # "3 次" -> "3次"


# what a value of a kind measures, in Chinese, for a heading that names only the thing ("复合滤芯" + 199元)
_ZH_KIND = {"money": "价格", "time": "时间", "temperature": "温度", "mass": "用量", "volume": "用量",
            "sound level": "噪音", "[length] ** 3 / [time]": "流量", "power": "功率", "energy": "热量", "length": "长度"}
_ZH_PROPERTY = re.compile(r"价|费|时|期|周期|寿命|温|度|重|量|噪|音|速|流|功率|热量|长|高|宽|厚|次数|步")


def zh_heading(heading: str, dimension: str) -> str:
    """A Chinese heading that names the thing and what is measured of it: "复合滤芯" with a price is
    "复合滤芯价格", with a month count "复合滤芯时间"; one that already names a property ("到手价",
    "水温") stays."""
    kind = _ZH_KIND.get(dimension.split(":")[0] if dimension.startswith("money:") else dimension, "")
    if not kind or not re.search(r"[\u4e00-\u9fff]$", heading) or _ZH_PROPERTY.search(heading):
        return heading
    return heading + kind
