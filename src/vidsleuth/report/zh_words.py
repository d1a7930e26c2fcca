"""Chinese text as words for subject matching: jieba's search-mode cut (the search extra) plus the
character pairs of each run, without function words, numerals or units (``facts.subject_words``)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..values import UNITS, has_cjk

_ZH_STOP = set("的 了 和 是 在 与 及 或 也 都 就 要 我们 你 您 每天 每日 一天 建议 不要 可以 应该 需要 左右 以上 以下 以内 "
               "不超过 至少 不少于 大约 约 这 那 个 为 对 把 让 从 到 更 很 最 不 超过 少于 低于 高于 控制 控制在".split())
_ZH_STOP |= {s for s in UNITS if has_cjk(s)}


@lru_cache(maxsize=1)
def _jieba():
    try:
        import logging

        import jieba

        jieba.setLogLevel(logging.ERROR)
        return jieba
    except ImportError:
        return None


# a numeral with at most a measure word ("四十五", "二十四个", "九元", "十五分") is a value, not a thing
_ZH_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万亿半几]+[个元块分秒克斤天年月周次遍杯份倍度支张件台瓶包袋盒种条片]?")


_ZH_FUNCTION = set("的了和是在与及或也都就要你我他她它们这那个为对把让从到更很最不没有被得地着过吗呢吧啊还再又才先后"
                   "每天次约一二两三四五六七八九十百千万零半几")


def zh_words(text: str) -> set[str]:
    """The words of the Chinese runs in ``text``, as subject matching reads them."""
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    jb = _jieba()
    out: set[str] = set()
    for run in runs:
        # search mode adds a compound's own words ("干酵母" is also "酵母"): a source names the thing either way
        words = jb.lcut_for_search(run) if jb is not None else []
        # and its character pairs, so a cut jieba makes differently in two texts still meets ("大火蒸" and
        # "大火烧开后转中火蒸": 大火, 火蒸), except pairs holding a function character or a numeral
        words += [run[i:i + 2] for i in range(len(run) - 1) if not set(run[i:i + 2]) & _ZH_FUNCTION]
        out |= {w for w in words if w not in _ZH_STOP and (len(w) > 1 or w in "盐糖油水肉蛋奶茶") and not _ZH_NUMERAL.fullmatch(w)}
    return out
