"""The Chinese path of the report: on-screen values with Chinese units are anchors named after the
caption's own words, full-width punctuation before a number, units in table headers, and numerals
that are values rather than subject words. Phrasings written here, each with its expected value."""

from __future__ import annotations

import pytest

from vidsleuth.report.anchors import _drafts, find_anchors
from vidsleuth.report.facts import objects, read_row, subject_words
from vidsleuth.types import Segment, Timeline, VideoInfo
from vidsleuth.values import read_values

_INFO = VideoInfo("x.mp4", 60.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x")


def _screen(*captions: tuple[float, str]) -> Timeline:
    return Timeline.build(_INFO, [Segment(t, t + 5.0, "ocr", text, 0.95, "ocr") for t, text in captions])


@pytest.mark.parametrize("text, labels", [
    ("滤网：6个月", ["6 month"]),  # a full-width colon before the number (NFKC makes it ':')
    ("单价:89元", ["¥89"]),
    ("滤网：6个月／89元", ["6 month", "¥89"]),  # a full-width slash between two values is no rate
    ("流量 1.8升/分钟", ["1.8 L/min"]),  # … while a slash before a unit still is
    ("每份 250 千卡", ["250 kcal"]),  # a space before 千卡
    ("音量约三十八分贝", ["≈ 38 dB"]),
])
def test_chinese_values_after_punctuation_and_spaces(text, labels):
    assert [v.label() for v in read_values(text)] == labels


def test_a_clock_time_after_a_colon_is_still_no_value():
    assert read_values("开始时间：10:30") == []


def test_a_labelled_caption_of_two_values_is_two_anchors_of_the_label():
    drafts = _drafts(_screen((20.0, "滤网：6个月／89元")))
    assert [[v.label() for v in d["q"]] for d in drafts] == [["6 month"], ["¥89"]]
    assert all("滤网" in subject_words(d["text"]) for d in drafts)


def test_an_on_screen_value_with_a_chinese_unit_is_an_anchor_with_the_caption_subject():
    tl = _screen((3.0, "标题：厨房小电器"), (10.0, "加热功率 1200瓦"), (25.0, "噪音 三十八分贝"), (40.0, "整机重量 3.5千克"))
    anchors = find_anchors(tl, "核对视频里的功率、噪音和重量")
    got = {a.value: a.subject for a in anchors}
    assert set(got) == {"1200 W", "38 dB", "3.5 kg"}
    assert "加热" in got["1200 W"] and "噪音" in got["38 dB"] and "整机" in got["3.5 kg"]


def test_numerals_are_values_not_subject_words():
    words = subject_words("这台机器的噪音大约四十五分贝，寿命二十四个月")
    assert {"噪音", "寿命"} <= words
    assert not {w for w in words if any(ch in w for ch in "四十五二")}
    assert objects(subject_words("两千四百九十九元")) == set()


def test_a_month_column_counts_months():
    row = read_row("| 滤网寿命（月） | 6 |", "| 参数 | 数值 |")
    assert [r.value.label() for r in row.readings] == ["6 month"]
    assert "滤网" in row.readings[0].words


def test_an_ordinal_is_no_count():
    assert read_values("第一泡出汤") == []
    assert [v.label() for v in read_values("每包可冲泡三次")] == ["3 次"]


def test_a_decoding_loop_is_no_anchor_and_real_speech_still_is():
    loop = "第4,第1,第3,盡1," + "第4,盡1," * 12  # Whisper base on espeak Mandarin it cannot follow
    tl = Timeline.build(_INFO, [Segment(1.0, 20.0, "speech", loop, 0.3, "asr"),
                                Segment(21.0, 25.0, "speech", "10-1-0-2-0-4-0-2-0-3", 0.3, "asr"),
                                Segment(30.0, 34.0, "speech", "滤网的寿命是六个月。", 0.9, "asr")])
    drafts = _drafts(tl)
    assert [d["text"] for d in drafts] == ["滤网的寿命是六个月。"]
    assert [v.label() for v in drafts[0]["q"]] == ["6 month"]


def test_a_unit_before_a_chinese_numeral_measure_is_still_a_value():
    assert [v.label() for v in read_values("滤网我在网上买的，89元一支，还行。")] == ["¥89"]


def test_the_value_a_change_started_from_is_the_former_one():
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.types import Anchor, Moment

    price = Anchor("A1", "parameter", "滤网：89元", "", "", (Moment(1.0, 3.0, "ocr", "滤网：89元"),))
    assert relate_rules(price, "滤网的价格从89元上调到99元。")[0] == "updates"
    assert relate_rules(price, "滤网89元一张。")[0] == "supports"
    assert relate_rules(price, "滤网价格在89元到99元之间。")[0] == "supports"


def test_chinese_subjects_meet_where_the_word_cuts_differ():
    anchor = objects(subject_words("中火蒸12分钟"))
    assert anchor & objects(subject_words("水开后转中火蒸12分钟即可。"))
    assert not anchor & objects(subject_words("关火焖3分钟再开盖。"))


def test_a_chinese_cup_is_a_serving_not_a_us_cup():
    assert [(v.label(), v.dimension) for v in read_values("每天喝两杯牛奶")] == [("2 杯", "count:杯")]
    assert [v.dimension for v in read_values("2 cups of flour")] == ["volume"]


@pytest.mark.parametrize("label, zh", [("12 month", "12个月"), ("¥199", "199元"), ("2.1 L/min", "2.1升/分钟"),
                                       ("≈ 45 dB", "约45分贝"), ("3 次", "3次"), ("15 ppm", "15 ppm")])
def test_values_are_written_in_chinese(label, zh):
    from vidsleuth.report.wording import zh_value

    assert zh_value(label) == zh


def test_a_chinese_heading_names_what_is_measured_of_the_thing():
    anchors = find_anchors(_screen((20.0, "滤网：6个月／89元"), (40.0, "到手价1299元")), "核对滤网和价格")
    assert {a.value: a.heading for a in anchors} == {"6 month": "滤网时间", "¥89": "滤网价格", "¥1299": "到手价"}


def test_chinese_cues_of_comparison_revision_and_rejection():
    from vidsleuth.report.cues import REVISION
    from vidsleuth.report.cues import compares as _compares
    from vidsleuth.report.relate import relate_rules
    from vidsleuth.report.types import Anchor, Moment

    assert _compares("这款的出水比上一代快很多") and not _compares("茶水比例较高")
    assert REVISION.search("今年到手价降至1099元") and REVISION.search("滤网涨价了")
    noise = Anchor("A1", "parameter", "噪音 38分贝", "", "", (Moment(1.0, 3.0, "ocr", "噪音 38分贝"),))
    assert relate_rules(noise, "哪有宣传的38分贝，我自己测了有46分贝。")[0] == "contradicts"
    assert relate_rules(noise, "运行噪音38分贝，很安静。")[0] == "supports"


def test_a_spoken_chinese_sentence_of_two_kinds_is_one_anchor_per_clause():
    tl = Timeline.build(_INFO, [Segment(10.0, 18.0, "subtitle", "客厅的滤网建议六个月换一次，一张八十九元。", 1.0, "srt")])
    drafts = _drafts(tl)
    got = {v.label(): d["text"] for d in drafts for v in d["q"] if not v.dimension.startswith("count:")}
    assert set(got) == {"6 month", "¥89"} and got["6 month"] != got["¥89"]
    assert "滤网" in subject_words(got["¥89"])
    one = _drafts(Timeline.build(_INFO, [Segment(10.0, 18.0, "subtitle", "它很安静，噪音大约三十八分贝。", 1.0, "srt")]))
    assert len(one) == 1
