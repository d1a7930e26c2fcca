"""What a caption on screen states, beside the speech (stage 2, ``anchors``): a caption that is only a
price whose currency sign was lost ("64.99") or only a number ("469"), and whether an on-screen value and
a value said nearby are one statement (the same value; the same number of degrees said without its
scale), the spoken anchor then taking the screen's exact figure."""

from __future__ import annotations

import re
from dataclasses import replace

from ..types import Segment
from ..values import normalise
from .facts import quantities

# an amount in cents standing alone, its currency sign (if any) lost: "64.99", "1,299.00"
_BARE_PRICE = re.compile(r"\s*(?:(?:price|rrp|msrp|now|only|just|sale|offer|deal|售价|价格|到手价|现价|原价)\s*[:：]?\s*){0,2}"
                         r"[$€£¥￥]?\s*(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})\s*[!！]?\s*", re.I)


def bare_price(text: str) -> str:
    """The amount of a caption that shows nothing but a price with cents ('' otherwise)."""
    m = _BARE_PRICE.fullmatch(text)
    return f"{m.group(1).replace(',', '')}.{m.group(2)}" if m and not quantities(text) else ""


# a caption that is a number and nothing else ("469", "1,250"; not a year, a one-digit counter or a
# zero-led code or clock reading: "00", "07")
_BARE_NUMBER = re.compile(r"\s*((?!0)\d{1,3}(?:,\d{3})+|(?!0)\d{2,})\s*")
PRICED = re.compile(r"\b(?:price[ds]?|pricing|costs?|costing|paid|pay|pays|cheap\w*|expensive|afford\w*|retails?|rrp|msrp|"
                     r"bought|buy|sells?|sold|budget)\b|售价|价格|价钱|多少钱|花了|买", re.I)


_TIMECODE = re.compile(r"\s*\d{1,2}:\d{2}(?::\d{2})?[.:]\d{1,3}\s*")


def timecode(text: str) -> bool:
    """Whether a caption is a running clock to the millisecond (a test pattern's "9:06.920"): no claim."""
    return bool(_TIMECODE.fullmatch(text))


def bare_number(text: str) -> str:
    """The number of a caption that shows a number and nothing else ('' for anything more, and for a year)."""
    m = _BARE_NUMBER.fullmatch(text)
    n = m.group(1).replace(",", "") if m else ""
    return "" if re.fullmatch(r"(?:19|20)\d\d", n) else n


# a caption that is a range and nothing else ("115–125", "4 - 6", "60~80"): a setting's band, its unit unstated
_BARE_RANGE = re.compile(r"\s*((?!0\d)\d+(?:\.\d+)?)\s?(?:-|–|—|~|～|to)\s?((?!0\d)\d+(?:\.\d+)?)\s*")


def bare_range(text: str) -> str:
    """The range of a caption that shows two numbers as a band and nothing else ("115–125"; '' for a date
    or code written with a dash, "2024-03", "10-4", whose second number does not rise above the first)."""
    m = _BARE_RANGE.fullmatch(text)
    if not m or float(m.group(2)) <= float(m.group(1)) or any(re.fullmatch(r"(?:19|20)\d\d", g) for g in m.groups()):
        return ""
    return f"{m.group(1)}–{m.group(2)}"


# a temperature's scale as said or shown: "°F", "℃", "Fahrenheit", "degrees C"
_SCALE = re.compile(r"°\s*[CFcf]\b|[℃℉]|fahrenheit|celsius|\bdeg(?:rees?)?\.?\s*[CFcf]\b|摄氏|华氏", re.I)


def _scale_unsaid(v, text: str) -> bool:
    """Whether a temperature was said without its scale ("pull it at 165 degrees")."""
    return v.dimension == "temperature" and not _SCALE.search(normalise(text)[v.start:v.end])


def _abbreviated(short, spelled) -> bool:
    """Whether a count per period is written by its initials: "22 spm" is "22 strokes per minute" (as rpm,
    bpm, gph are written for a count per minute or hour)."""
    if not (short.dimension.startswith("count:") and spelled.dimension.startswith("count:") and "/" in spelled.dimension):
        return False
    noun, per = spelled.dimension[6:].split("/", 1)
    return short.stated == spelled.stated and short.dimension[6:].lower() == f"{noun[:1]}p{per[:1]}".lower()


# the numbers a recogniser confuses most: a teen and its tens ("fourteen" heard as "forty"), both ways
_TEEN_TY = {frozenset((t, (t - 10) * 10)) for t in range(13, 20)}


def misheard(said, shown) -> bool:
    """Whether a spoken value is the on-screen one with a teen heard as its tens ("up to forty days" over "14
    days"): the screen, read from pixels, is exact; the same unit at one of those pairs is one statement misheard."""
    return (said.unit == shown.unit and len(said.stated) == len(shown.stated) == 1
            and frozenset((said.stated[0], shown.stated[0])) in _TEEN_TY)


def one_statement(shown, said, text: str, caption: str) -> bool:
    """Whether an on-screen value (of ``caption``) and a value said nearby (in ``text``) are one statement: the same
    value, a teen misheard as its tens, or the same number of degrees said without a scale while the screen shows
    the scale."""
    return shown.same_as(said) or misheard(said, shown) or _abbreviated(shown, said) or _abbreviated(said, shown) or (
        _scale_unsaid(said, text) and shown.dimension == "temperature" and shown.stated == said.stated
        and not _scale_unsaid(shown, caption))


def in_other_units(parts: list[str]) -> list[str]:
    """A caption's parts with a part that only restates the part before it in another unit joined to it
    again ("Fridge: 37 °F / 3 °C" is one figure, 3 °C being 37 °F rounded): the conversion is no new value."""
    out: list[str] = []
    for part in parts:
        a, b = (quantities(out[-1]) if out else []), quantities(part)
        if a and len(b) == 1 and a[-1].dimension == b[0].dimension and a[-1].unit != b[0].unit and a[-1].form == "point" \
                and not re.search(r"[^\W\d]{3,}", re.sub(r"°|℃|℉", "", normalise(part[:b[0].start] + part[b[0].end:]))) \
                and abs(a[-1].point - b[0].point) <= max(0.6 if b[0].dimension == "temperature" else 0.0, 0.05 * abs(a[-1].point)):
            out[-1] = f"{out[-1]} ({part.strip()})"  # written as "37 °F (3 °C)", which the reader takes as one statement
        else:
            out.append(part)
    return out


def as_shown(said: list, shown: list, text: str) -> list:
    """The values of a spoken anchor once the screen shows them: a value said without its scale ("165
    degrees" over "165°F") or only roughly ("a little over five pounds" over "5.3 lb") is the figure the
    screen gives, which is exact; any other stays as said."""
    out = []
    for v in said:
        exact = next((w for w in shown if w.form == "point" and (
            v.form in ("approx", "lower", "upper") and w.same_as(v)
            or _scale_unsaid(v, text) and w.dimension == "temperature" and w.stated == v.stated)), None)
        out.append(exact or v)
    return out


def said_as_shown(draft: dict, shown: list) -> tuple[list, str, list]:
    """A spoken draft's values, sentence and moments once the screen shows its value (``as_shown``). A number
    misheard (``misheard``) is rewritten in the sentence and its moment too, so every later stage reads the
    screen's figure, not the recogniser's."""
    text, said = draft["text"], draft["q"]
    fixes = sorted(((v, w) for v in said for w in shown if misheard(v, w)), key=lambda p: -p[0].start)
    if not fixes:
        return as_shown(said, shown, text), text, draft["moments"]
    norm = normalise(text)
    for v, w in fixes:
        num = re.search(r"\d+(?:\.\d+)?", norm[v.start:v.end])
        if num:
            norm = f"{norm[:v.start + num.start()]}{w.stated[0]:g}{norm[v.start + num.end():]}"
    moments = [replace(m, text=norm) if m.text == text else m for m in draft["moments"]]
    return as_shown(quantities(norm), shown, norm), norm, moments



# a line that opens with a word joining it to the line above: "per 30 mL water", "/ 500 m", "for every 2 kg"
_GOES_ON = re.compile(r"^\s*(?:per|/|／|each|every|for (?:each|every)|每)(?=\s|\d|$)", re.I)


def panel_lines(screen: list[Segment]) -> list[Segment]:
    """On-screen text with a panel's continued line joined to the line above it: OCR reads "1 level scoop" and
    "per 30 mL water" of one panel as two captions, yet the second only finishes the first's statement."""
    out: list[Segment] = []
    for seg in screen:
        above = next((o for o in reversed(out) if abs(o.start - seg.start) <= 0.5 and abs(o.end - seg.end) <= 0.5
                      and re.search(r"\d", o.text)), None) if _GOES_ON.match(seg.text) else None
        if above is None:
            out.append(seg)
            continue
        out[out.index(above)] = replace(above, text=f"{above.text.rstrip()} {seg.text.strip()}")
    return out


def title_card(text: str, title: str) -> bool:
    """Whether a caption restates the video's title ("CHAIN CARE IN 5 MINUTES" under the title "Chain Care in Five
    Minutes"): a title card names the video, its figure ("in 5 minutes") is no claim to check."""
    def bare(s: str) -> str:
        return " ".join(re.sub(r"[^\w]+", " ", normalise(s).lower()).split())
    return bool(title.strip()) and bare(text) == bare(title)
