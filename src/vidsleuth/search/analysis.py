"""Text analysis for BM25: lowercasing, Chinese segmentation, stopwords and stemming.

The settings are saved with every index, so queries are analysed exactly as the documents were.
Latin-script runs are split on non-word characters and stemmed (PyStemmer); CJK runs are cut
into words by jieba (or into single characters when jieba is off).
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict, dataclass
from functools import cached_property

from ..errors import VidsleuthError, require

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+(?:'[^\W_{_CJK}]+)?", re.UNICODE)
_IS_CJK = re.compile(rf"[{_CJK}]")


@dataclass(frozen=True)
class Analyzer:
    lowercase: bool = True
    stemmer: str = "english"  # a PyStemmer language, or "none"
    stopwords: str = "en"  # "en", "en+zh", or "none"
    chinese: str = "jieba"  # "jieba" or "chars"

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Analyzer":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @cached_property
    def _stemmer(self):
        if self.stemmer == "none":
            return None
        stemmer_mod = require("Stemmer", "search")
        try:
            return stemmer_mod.Stemmer(self.stemmer)
        except KeyError:
            raise VidsleuthError(f"unknown stemmer language '{self.stemmer}'",
                                 hint=f"choose one of {', '.join(stemmer_mod.algorithms())} or 'none'") from None

    @cached_property
    def _stopwords(self) -> frozenset[str]:
        if self.stopwords == "none":
            return frozenset()
        sw = require("bm25s.stopwords", "search")
        words = set(sw.STOPWORDS_EN)
        if "zh" in self.stopwords:
            words |= set(sw.STOPWORDS_CHINESE)
        if self.stopwords not in ("en", "en+zh"):
            raise VidsleuthError(f"unknown stopword list '{self.stopwords}'", hint="choose en, en+zh or none")
        return frozenset(words)

    @cached_property
    def _jieba(self):
        if self.chinese != "jieba":
            return None
        jieba = require("jieba", "search")
        jieba.setLogLevel(logging.WARNING)
        return jieba

    def tokens(self, text: str) -> list[str]:
        if self.lowercase:
            text = text.lower()
        out: list[str] = []
        stop = self._stopwords
        for run in _TOKEN.findall(text or ""):
            if _IS_CJK.match(run):
                pieces = self._jieba.lcut(run) if self._jieba is not None else list(run)
                out.extend(p for p in pieces if p.strip() and p not in stop)
            elif run not in stop:
                out.append(run)
        if self._stemmer is not None:
            out = [t if _IS_CJK.match(t) else s for t, s in zip(out, self._stemmer.stemWords(out))]
        return out
