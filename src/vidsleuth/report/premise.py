"""What a video says with a number that is no claim a source could check: the case it sets up ("For a
65 pound adult dog,", "we're doing an oil change on a sedan with a two liter engine", "Today's screen is
a 27-inch panel"), a count of its own parts ("the five numbers I check", "three mistakes"), and a hook put
to the viewer ("Want a stronger back in 10 minutes a day?"). The anchors stage leaves these out."""

from __future__ import annotations

import re

from ..numwords import normalise
from ..values import read_values

# a count of the video's own parts or of kinds of things: the count is how the video is organised
DISCOURSE = frozenset("""number thing tip step way rule mistake reason question idea trick secret fact point variety type
kind option lesson part item sign habit myth""".split())
# the case the video is about, told as the situation, not advised: "for a …", present narration, a show-and-tell
# ("This is a 625 Wh battery" is a review's claim about its product, not a scene)
_FRAME = re.compile(r"^\W*(?:(?:so|now|okay|ok|and|well|alright)\W+)?(?:for|take|imagine|picture) an?\b|"
                    r"\b(?:we'?re|we are|i'?m|i am|today|let'?s|say you have|suppose you have)\b|^\W*meet\b", re.I)
_ADVICE = re.compile(r"\b(?:should|must|need|needs|always|never|don'?t|do not|make sure|aim|keep|try|use|set|"
                     r"recommend\w*|at least|at most|no more than|up to|under|over|below|above)\b", re.I)
# how long the narrator has had or used the thing: the scene of a review, not a claim about the thing
_EXPERIENCE = re.compile(r"\b(?:i'?ve|we'?ve|i have|we have)\s+(?:had|owned|used|been using|been running|run|driven|ridden|kept)"
                         r"\b[^.;]*\bfor\s+(?:about\s+|almost\s+|nearly\s+|over\s+|just\s+)?(?:a\s+|one\s+)?$", re.I)
_OF_USE = re.compile(r"\s*of\s+(?:numbers|data|use|usage|ownership|testing|riding|driving|living with)\b", re.I)
# the one portion a figure to come is counted of: "what one cup gives you", "how much caffeine is in one cup"
_PORTION = re.compile(r"\b(?:here'?s|here is|what|how much|how many)\b|多少", re.I)
_YIELDS = re.compile(r"^\W*(?:\w+\s+){0,3}?(?:gives?|has|holds?|contains?|makes?|yields?|provides?)\b|^[^。，,]*?(?:里|中)(?:有|含)", re.I)
# the article, or the article and up to two adjectives ("a typical 4 kg indoor cat", "an average 70 kg adult")
_ATTRIBUTIVE_BEFORE = re.compile(r"\b(?:a|an|our|my)(?:\s+(?!(?:lot|bit|few|couple|little|total|maximum|minimum)\b)[a-z]+){0,2}\s*$", re.I)
_NOUN_AFTER = re.compile(r"^[\s-]*(?!(?:of|per|a|an|and|or|to|for|in|on|at|is|are|was|each|every|from|with)\b)(?:[a-z]|\d+[a-z])", re.I)


def counted_parts(values) -> bool:
    """Every value counts the video's own parts or kinds ("5 numbers", "6 varieties")."""
    return bool(values) and all(v.dimension.startswith("count:") and v.dimension[6:].split("/")[0] in DISCOURSE
                                for v in values)


def sets_up(text: str) -> bool:
    """The sentence tells the case the video is about with its figures as attributes ("a 65 pound adult dog",
    "a two liter engine"), in a frame that sets the scene, and advises nothing; or its only figures are how long
    the narrator has had the thing (``_EXPERIENCE``), or the one portion a figure to come is of (``_PORTION``)."""
    norm = normalise(text)
    values = read_values(norm, normalised=True)
    if not values or _ADVICE.search(norm):
        return False
    if all(v.dimension == "time" and (_EXPERIENCE.search(norm[:v.start]) or _OF_USE.match(norm[v.end:])) for v in values):
        return True  # "I've had my EV for a year now", "We finally have a full year of numbers"
    if all(v.stated == (1.0,) and _YIELDS.search(norm[v.end:]) for v in values) and _PORTION.search(norm):
        return True  # "Here's roughly what one cup gives you", "一杯茶里有多少咖啡因"
    return bool(_FRAME.search(norm)) and all(_ATTRIBUTIVE_BEFORE.search(norm[:v.start]) and _NOUN_AFTER.match(norm[v.end:])
                                             for v in values)


def hook(text: str, to_viewer: re.Pattern) -> bool:
    """A question put to the viewer, whatever figure it names ("Want a stronger back in 10 minutes a day?")."""
    s = text.strip()
    return s.endswith(("?", "？")) and bool(to_viewer.search(re.split(r"(?<=[.!。！])\s*", s)[-1] or s))


_PRONOUN = re.compile(r"\b(?:keep|set|run|hold|get|bring|leave|heat|cool|fill|charge|water|feed|check|bake|cook|store)s?\s+"
                      r"(?:it|them)\b|^\W*(?:(?:and|so|then|but)\s+)?(?:it|they)\b", re.I)


def antecedent(text: str, before: str) -> str:
    """The sentence before, where ``text`` speaks of its thing by a pronoun ("Mould grows above 70 % relative
    humidity. So set the dehumidifier to keep it around 50 %": "it" is the humidity); '' otherwise."""
    return before if before and _PRONOUN.search(text) else ""
