"""Document relevance: is a gathered document about the video's subject, or about something else?

Pages that carry values of the video's kinds but are about another thing (a software manual, a review of
another device) make spurious links. This stage decides per DOCUMENT, before ranking, from signals that
do not depend on topic words: ``similarity`` (e5 of the document's title, headings and lead against the
video's title, request, speech and screen); ``standing`` (that similarity as a robust z-score against the
task's other documents: "an outlier among them", not an absolute threshold a topic or language would
shift); ``software`` (the share of passages that read as program documentation, above the video's own
share); names (the product or model names it shares with the video, those it names that the video never
does, and whether they compete).

``decide`` keeps or drops one document with its reason, under a ``Gate`` fitted leave-one-set-out by
``benchmarks/bench_relevance.py``; ``screen`` runs it over a report's passages, recording the drops."""

from __future__ import annotations

import calendar
import difflib
import re
import statistics
from dataclasses import dataclass, field, replace

LEAD_PASSAGES = 3
PROFILE_CHARS = 1500
MIN_DOCUMENTS = 4  # fewer documents than this: no standing can be measured, every one is kept
KINDS = ("document", "web")  # related videos are found by the video's own search, never screened here


@dataclass(frozen=True)
class Gate:
    """The thresholds of the decision (fitted leave-one-set-out by ``bench_relevance``: no relevant document lost)."""

    outlier: float = -5.0  # standing at or below this: off subject whatever else holds
    foreign: float = 0.0  # standing at or below this and naming only other products: off subject
    software: float = 0.2  # a share of code-like passages this far above the video's: software documentation
    software_outlier: float = -1.5  # standing at or below this for software documentation: off subject


@dataclass(frozen=True)
class Signals:
    """What the decision reads of one document."""

    location: str
    title: str
    similarity: float
    standing: float
    software: float
    shared_names: tuple[str, ...] = ()
    other_names: tuple[str, ...] = ()
    product_known: bool = False  # two or more of the task's documents name the video's product
    siblings: tuple[str, ...] = ()  # other models of the video's product's brand or line ("Duo 3" for a Duo 2)
    competes: bool = True  # its title, headings and lead call their thing what the video's product is ("sealer")


@dataclass(frozen=True)
class Relevance:
    """The decision for one document, with the reason a reader (and ``run.json``) sees."""

    location: str
    title: str
    keep: bool
    reason: str
    signals: Signals | None = None

    def record(self) -> dict:
        s = self.signals
        return {"document": self.title, "location": self.location, "reason": self.reason,
                **({"similarity": round(s.similarity, 3), "standing": round(s.standing, 2),
                    "software": round(s.software, 2)} if s else {})}


@dataclass(frozen=True)
class Document:
    """One document as the stage sees it: its title, section headings and opening passages."""

    location: str
    title: str
    headings: tuple[str, ...] = ()
    passages: tuple[str, ...] = field(default=(), repr=False)

    def profile(self, sep: str = " ") -> str:
        """Title, headings and lead; names are read with ``sep="\\n"``, so that none runs from the title
        into a numbered heading ("… Care Guide" and "1. Safety" are no "Care Guide 1")."""
        lead = " ".join(self.passages[:LEAD_PASSAGES])
        return sep.join([self.title, *self.headings[:6], lead])[:PROFILE_CHARS]


_CODE = re.compile(r"\b[A-Z]{2,}_[A-Z0-9_]+\b|\b[A-Za-z_]\w*\(\)|/\*|\*/|"
                   r"#(?:define|include)\b|(?:^|\s)--[a-z][\w-]+|<[\w.+-]+@[\w.-]+>|(?<!\w)/(?:usr|etc|var|bin|lib|dev)/|"
                   r"\b(?:stdin|stdout|stderr|argv|malloc|typedef|struct|void|NULL)\b|¶")
_IDENT = re.compile(r"(?<![/@\w*])[a-z]+_[a-z0-9_]+\b")


def software_share(texts) -> float:
    """The share of ``texts`` that read as program documentation (code, identifiers, options). A snake_case word
    is code only beside another ("ffi_prep_cif … ffi_call"): alone it is as often a forum handle ("oliver_and_luna")."""
    texts = [t for t in texts if t.strip()]
    return sum(bool(_CODE.search(t)) or len(set(_IDENT.findall(t))) > 1 for t in texts) / len(texts) if texts else 0.0


# ASCII edges: a code glued to Chinese ("安和DSZF-60电热水器") is still a name; a CamelCase brand
# keeps its model number ("AeroPure 400")
_NAME = re.compile(r"(?<![A-Za-z0-9])(?:[A-Z][a-z]+[A-Z][a-z]\w*(?:[ \t]+[A-Z]{0,3}\d{1,4}[A-Za-z]?(?![\w.]))?|"
                   r"(?:[A-Z][a-z]{2,}(?:[ \t]+[A-Z][a-z]+)?[ \t]+[A-Z]{0,3}\d{1,4}[A-Za-z]?|"
                   r"[A-Z]{1,4}-?\d{1,4}[A-Z]?)(?:[ \t]+[A-Z][a-z]+\b(?!\s*\d))?)(?![A-Za-z0-9])")
_MONTHS = {m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:])}
# what a document is, not which model it is about: "Skylark Mini 3 User Manual" is the Mini 3's manual
GENRE = frozenset("""user users owner owners manual manuals guide guides handbook instructions instruction quick start
review reviews specifications specification specs datasheet brochure leaflet notes faq support service""".split())
_PLURAL = re.compile(r"(?<=\w{3})s$")  # "sealers" is "sealer" ("glass": glas on both sides)
_GENRE_STEMS = frozenset(_PLURAL.sub("", g) for g in GENRE)
_GLUED = re.compile(r"([a-z]{2,})\d+[a-z]*")  # a model code written as one token: "kt30", "dj12a"
_PROPER = re.compile(r"(?<![\w.])[A-Z][a-z]{2,}(?:[ \t]+[A-Z][a-z]+)*")


def names_in(text: str, common: set[str] | frozenset = frozenset(), brands: set[str] | frozenset = frozenset(),
             heard: set[str] | None = None) -> set[str]:
    """Product and model names: a CamelCase brand ("AeroHeat"), a capitalised name with a model
    number ("Skylark Mini 4", "Vireo 55"), a model code ("HP8", "R7"), with a variant word after
    it ("Nova X5 Pro"), and a known ``brands`` word before a model word ("Summitfire Titan"). A
    number with a unit is not one, nor a month's date, nor a common word with a number ("Weight
    24": "weight" is written in lower case in ``text`` or ``common``, the words of the task's other
    texts); a common word after a name is not its variant ("Nova X5 User Guide")."""
    from ..values import UNITS

    lower = set(re.findall(r"\b[a-z]+\b", text)) | set(common)
    out = set()
    for m in _NAME.finditer(text):
        name = m.group(0)
        last = name.split()[-1]
        if len(name.split()) > 1 and not re.search(r"\d", last) and last.lower() in lower | _MONTHS | GENRE and re.search(r"\d", name):
            name = name[: -len(last)].rstrip()  # "Nova X5 User Guide": 'user' is a word, not a variant
        first = name.split()[0]
        after = re.match(r"\s*([^\s\d.,;:!?()]{1,6})", text[m.start() + len(name):])
        if after and (after.group(1).lower() in UNITS or after.group(1) in ("%", "°")):
            continue  # "Vault 13 kWh", "Model 3 %": a quantity
        if len(name.split()) > 1 and (first.lower() in _MONTHS or first.lower() in lower):
            continue
        if re.fullmatch(r"(?:19|20)\d\d", name.split()[-1]):
            continue  # "Posted 2024", "Updated 2025": a year, not a model number
        out.add(name)
    for brand in brands:  # "Summitfire Titan" beside a video's "Summitfire Nano 2": another model of the brand
        for m in re.finditer(rf"\b({re.escape(brand)})\s+([A-Z][a-z]{{2,}})\b", text, re.I):
            word, unit = m.group(2).lower(), re.match(r"[ \t]*\d+(?:[.,]\d+)?[ \t]*([^\s\d.,;:!?()]{1,6})", text[m.end():])
            if re.match(r"\s*\d", text[m.end():]) and not (unit and unit.group(1).lower() in UNITS):
                continue  # "Summitfire Nano 2" is a numbered name; "Clearflow Gravity 4 L" is the Gravity's 4 litres
            # a word the video never says is the brand's other model ("Hopfield Stout" beside its pale ale),
            # even where the page writes it in lower case ("an Irish-style stout")
            if m.group(1)[0].isupper() and m.group(2)[0].isupper() and word not in _MONTHS | GENRE and (
                    word not in lower or (heard is not None and not mentioned(word, heard))):
                out.add(f"{m.group(1)} {m.group(2)}")
    return out


def proper_names(text: str, common: set[str] | frozenset = frozenset(), single: bool = True) -> set[str]:
    """Names written without digits, as a person writes them: a run of capitalised words whose first
    is no common word ("the Clearflow Mini filter", "Hallmark Matt Emulsion", "with the Hopfield kit");
    one word alone only inside a sentence and where ``single`` (a user's request, not a caption's
    "· Filtering water"); a run before a number is part of a numbered name ("Skylark Mini 3")."""
    out = set()
    for line in re.split(r"[\n|]|(?<=[.!?:])\s+", text):
        for m in _PROPER.finditer(line):
            words = m.group(0).split()
            first = words[0].lower()
            if first in common or first in _MONTHS | GENRE or re.match(r"[ \t]*\d", line[m.end():]) or (
                    len(words) < 2 and (not single or not line[:m.start()].strip())):
                continue
            while len(words) > 1 and words[-1].lower() in GENRE:
                words.pop()  # "Clearflow Mini User Manual": the name, not the document
            out.add(" ".join(words))
    return out


def model_of(name: str) -> tuple[str, ...]:
    """The tokens that tell one model from another: from the first token holding a digit (with the
    word before a bare number: "Duo 2", "Mini 4") to the end ("x5 pro"); a name without digits is
    its words after the brand ("Summitfire Titan": titan), or itself ("AeroHeat")."""
    toks = _tokens(name)
    for i, t in enumerate(toks):
        if re.search(r"\d", t):
            return tuple(toks[i - 1 if i > 0 and re.fullmatch(r"\d+[a-z]?", t) else i:])
    return tuple(toks[1:]) or tuple(toks)


def brand_of(name: str) -> tuple[str, ...]:
    """The words before a name's model ("Summitfire Nano 2": summitfire; "Duo 2": none)."""
    toks, model = _tokens(name), model_of(name)
    return tuple(toks[: len(toks) - len(model)])


def said_in(name: str, text: str, common: set[str] | frozenset = frozenset()) -> bool:
    """``text`` names the model ``name`` is (its model words as a phrase, "Duo 2", "nano-2"), not
    another one beside it: "Duo 3" is not "Duo 2", and "Nova X5 Pro" is not the Nova X5 (a variant
    word after the model, one the texts never write in lower case). A name without digits is
    looked up as ``mentioned`` does, allowing speech recognition's slips."""
    model = model_of(name)
    if not any(re.search(r"\d", t) for t in model):  # the model's words, not the brand's ("Summitfire Titan": titan)
        return mentioned(" ".join(model), words_of(text))
    pattern = r"(?<![\w.])" + r"[\s-]*".join(re.escape(t) for t in model) + r"(?![\w]|\.\d)"
    for m in re.finditer(pattern, text, re.I):
        variant = re.match(r"[ \t]+([A-Z][a-z]+)\b", text[m.end():])
        if variant and variant.group(1).lower() not in common | GENRE:
            continue  # "Nova X5 Pro": another model
        return True
    return False


def same_model(a: str, b: str) -> bool:
    """Two names of one model ("Brevia Duo 2" and the "Bravia Duo 2" speech recognition heard)."""
    x, y = model_of(a), model_of(b)
    return len(x) == len(y) and all(p == q or (not re.search(r"\d", p + q) and min(len(p), len(q)) >= 4
                                                and difflib.SequenceMatcher(None, p, q).ratio() >= 0.8) for p, q in zip(x, y))


def _tokens(name: str) -> list[str]:
    return [t for t in re.split(r"[\s-]+", name.lower()) if t]


def mentioned(name: str, words: set[str]) -> bool:
    """A name is mentioned when its distinctive token (the model code or the brand word) is among
    ``words``, allowing the spelling slips of speech recognition ("thornberry" for Thornbury)."""
    toks = _tokens(name)
    key = next((t for t in reversed(toks) if re.search(r"\d", t) and re.search(r"[a-z]", t)), None) or max(toks, key=len)
    if key in words:
        return True
    if re.fullmatch(r"\d+", key) or len(key) < 4:
        return False
    return bool(difflib.get_close_matches(key, words, n=1, cutoff=0.8))


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def standing(values: list[float]) -> list[float]:
    """Each value against the others: (value - their median) / their scaled MAD."""
    out = []
    for i, v in enumerate(values):
        rest = values[:i] + values[i + 1:]
        med = statistics.median(rest)
        mad = 1.4826 * statistics.median(abs(r - med) for r in rest)
        out.append((v - med) / max(mad, 0.01))
    return out


def signals(documents: list[Document], subject: str, embedder, *, video_text: str = "") -> list[Signals]:
    """Each document's signals against the video's ``subject`` (title, request, transcript; its
    first words weigh most in e5) and ``video_text`` (everything the video says and shows, for names)."""
    if not documents:
        return []
    profiles = [d.profile() for d in documents]
    q = embedder.embed([subject[:2 * PROFILE_CHARS]], kind="query")
    sims = [float(x) for x in (embedder.embed(profiles, kind="passage") @ q.T)[:, 0]]
    ranks = standing(sims) if len(documents) >= MIN_DOCUMENTS else [0.0] * len(documents)
    video_text = video_text or subject
    common = set(re.findall(r"\b[a-z]+\b", " ".join([video_text, *(" ".join(d.passages) for d in documents)])))
    video_names, brands, lines = _video_names(video_text, common)
    heard = words_of(video_text)
    lines_of = video_text.split("\n")
    kinds = kind_words(video_names, [lines_of[0], lines_of[-1]] + [
        t for d in documents if any(_phrase_in(n, d.title) for n in video_names) for t in (d.title, *d.headings)])
    video_share = software_share(re.split(r"(?<=[.!?])\s+|\n", video_text))
    out = []
    for d, sim, rank in zip(documents, sims, ranks):
        text = "\n".join((d.title, *d.headings, *d.passages))
        own = names_in(d.profile("\n"), common, brands, heard)
        shared = {n for n in own if said_in(n, video_text, common) or any(same_model(n, v) for v in video_names)}
        # a name without digits is looked for as written, not as speech recognition might slip ("Mini" is no "min")
        shared |= {n for n in video_names if said_in(n, text, common) if re.search(r"\d", n) or _phrase_in(n, text)}
        # another model of the video's product's brand or line ("Summitfire Titan", "Duo 3", "Nova X5 Pro")
        siblings = {n for n in own - shared if (set(brand_of(n)) & brands or _line(model_of(n)[0]) in lines
                                                 or _variant(n, video_names))
                    and not any(same_model(n, v) for v in video_names)}
        out.append(Signals(location=d.location, title=d.title, similarity=sim, standing=rank,
                           software=max(0.0, software_share(d.passages) - video_share),
                           shared_names=tuple(sorted(shared)), other_names=tuple(sorted(own - shared)),
                           siblings=tuple(sorted(siblings)),
                           competes=not kinds or bool(kinds & {_PLURAL.sub("", w) for w in words_of(d.profile())})))
    # the product is known by a model name (a number, a CamelCase brand), not by a plain proper name
    # alone: "Hopfield" on two pages does not make a calculator's "CO2" another product
    known = sum(any(re.search(r"\d|[a-z][A-Z]", n) for n in s.shared_names) for s in out) >= 2
    return [replace(s, product_known=known) for s in out]


def _video_names(video_text: str, common: set[str]) -> tuple[set[str], set[str], set[str]]:
    """(the video's product names, their brand words, their model-line words): names with a model
    number, and names as its title, request and screen write them without one ("Clearflow Mini",
    "the Hopfield kit"), whose first word is then a brand."""
    numbered = names_in(video_text, common)
    title, request, rest = (video_text.split("\n", 2) + ["", ""])[:3]
    plain = proper_names(f"{title}\n{request}", common) | proper_names(rest, common, single=False)
    brands = {b for n in numbered for b in brand_of(n) if len(b) >= 3 and not re.search(r"\d", b)}
    # a name the video only says bare ("my Kestrel.") is no brand: "Kestrel Breeze" may be its full name
    brands |= {b for n in plain if re.search(rf"(?<!\w){re.escape(b := _tokens(n)[0])}[ \t]+[^\W\d_]", video_text, re.I)}
    lines = {_line(model_of(n)[0]) for n in numbered if len(model_of(n)) > 1 and not re.search(r"\d", model_of(n)[0])
             or _GLUED.fullmatch(model_of(n)[0])}
    return numbered | plain, brands, lines


def kind_words(names, texts: list[str]) -> set[str]:
    """What the video's product is, as its title, screen and pages write after its name: the last word
    of one word or a capitalised run before a stop ("Matt Floor Varnish, 1 L": varnish), no genre word."""
    out = set()
    for n in names:
        for t in texts:
            for m in re.finditer(rf"(?<!\w){re.escape(n)}[ \t]+([A-Za-z&' \t]+?)[ \t]*(?=[,|:;()#·.!?\d\n–—-]|\Z)", t, re.I):
                w = m.group(1).split()
                if len(w[-1]) >= 3 and (len(w) == 1 or len(w) <= 6 and all(x[0].isupper() or x == "&" for x in w)):
                    out |= {_PLURAL.sub("", w[-1].lower())} - _GENRE_STEMS
    return out


def _variant(name: str, video_names: set[str]) -> bool:
    """A variant of a video's numbered model: its model words and one more ("S2 Pro" beside the S2)."""
    model = model_of(name)
    return any(re.search(r"\d", " ".join(v)) and len(model) == len(v) + 1 and model[:len(v)] == v
               for v in map(model_of, video_names))


def _phrase_in(name: str, text: str) -> bool:
    return bool(re.search(r"(?<!\w)" + r"[\s-]+".join(map(re.escape, name.split())) + r"(?!\w)", text, re.I))


def _brand_only(name: str, siblings: tuple[str, ...]) -> bool:
    """A shared name that is only the brand of a sibling model the page names ("AeroPure" on a page
    about the AeroPure 600), or a name without a number beside a sibling's numbered model ("AeroPure"
    and "AP-600"): it does not make the page the video's model's."""
    return any(_tokens(name) == list(brand_of(s)) or _tokens(name) == list(model_of(s)[:1])
               or not re.search(r"\d", name) and re.search(r"\d", s) for s in siblings)


def _line(token: str) -> str:
    """A model's line: the word before its number ("Duo 2": duo), or a glued code's letters ("kt30": kt)."""
    return m.group(1) if (m := _GLUED.fullmatch(token)) else token


def decide(s: Signals, gate: Gate = Gate()) -> Relevance:
    """Keep or drop one document, with the reason; a document that shares a product name with the
    video is always kept (it is about the video's thing, however it is written)."""
    def drop(reason: str) -> Relevance:
        return Relevance(s.location, s.title, False, reason, s)

    if s.shared_names and not all(_brand_only(n, s.siblings) for n in s.shared_names):
        return Relevance(s.location, s.title, True, "names the video's product", s)
    if s.siblings:  # a review of the Titan beside a Nano 2 video: its figures are the other model's
        return drop(f"about another model of the video's product ({', '.join(s.siblings[:2])}), which the video never names")
    if s.standing <= gate.outlier:
        return drop(f"off subject: its title and lead are the least like the video among the documents "
                    f"(standing {s.standing:.1f})")
    if s.software >= gate.software and s.standing <= gate.software_outlier:
        return drop(f"software documentation ({s.software:.0%} of it code) on another subject")
    if s.other_names and s.product_known and s.competes and s.standing <= gate.foreign:
        return drop(f"about another product ({', '.join(s.other_names[:2])}), which the video never names")
    return Relevance(s.location, s.title, True, "on subject", s)


def documents_of(passages) -> list[Document]:
    """The documents behind ``passages`` (screened kinds only), in order of first passage."""
    docs: dict[str, dict] = {}
    for p in passages:
        if p.source.kind not in KINDS:
            continue
        d = docs.setdefault(p.source.location, {"title": p.source.title, "headings": [], "passages": []})
        if p.heading and p.heading not in d["headings"]:
            d["headings"].append(p.heading)
        d["passages"].append(p.text)
    return [Document(loc, d["title"], tuple(d["headings"]), tuple(d["passages"])) for loc, d in docs.items()]


def video_subject(title: str, request: str, timeline=None) -> tuple[str, str]:
    """(subject, everything the video says and shows): the title and request first, then speech
    and on-screen text, as the e5 query and the text names are looked up in."""
    speech = " ".join(s.text for s in timeline.of_kind("speech", "subtitle")) if timeline is not None else ""
    screen = " | ".join(s.text for s in timeline.of_kind("ocr")) if timeline is not None else ""
    subject = f"{title}. {request} {speech[:PROFILE_CHARS]} {screen[:500]}".strip()
    return subject, f"{title}\n{request}\n{speech}\n{screen}"


def screen(passages: list, *, title: str, request: str, timeline=None, embedder=None,
           gate: Gate = Gate()) -> tuple[list, list[Relevance]]:
    """(the passages of documents on the video's subject, the decisions on those dropped). Without
    an embedder nothing is dropped: similarity is the signal every other one is read against."""
    docs = documents_of(passages)
    if embedder is None or len(docs) < MIN_DOCUMENTS:
        return passages, []
    subject, text = video_subject(title, request, timeline)
    dropped = [r for r in (decide(s, gate) for s in signals(docs, subject, embedder, video_text=text)) if not r.keep]
    gone = {r.location for r in dropped}
    return [p for p in passages if p.source.location not in gone], dropped


def screen_report(setup, timeline, passages: list, counts: dict, dropped) -> list:
    """The report's stage: the passages of on-subject documents; each dropped document goes into
    ``counts["documents_off_subject"]`` with its reason (``report.json``, ``run.json``) and is
    counted in ``dropped`` under "off-subject document"."""
    kept, gone = screen(passages, title=setup.title, request=setup.request, timeline=timeline, embedder=setup.embedder)
    if gone:
        counts["documents_off_subject"] = [r.record() for r in gone]
        dropped["off-subject document"] += len(gone)
    return kept
