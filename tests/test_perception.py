from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from vidsleuth import synth
from vidsleuth.errors import LibraryError, SubtitleError
from vidsleuth.numwords import normalise as number_words
from vidsleuth.perception.asr import transcribe
from vidsleuth.perception.asr import word_error_rate as wer
from vidsleuth.perception.ocr import normalise, read_video_text
from vidsleuth.perception.shots import detect_shots
from vidsleuth.perception.subtitles import parse_subtitles, read_embedded_subtitles, read_subtitles
from vidsleuth.types import Segment, Timeline, VideoInfo


def test_wer_helper():
    assert wer("a b c d", "a b c d") == 0
    assert wer("a b c d", "a x c") == 0.5


# --------------------------------------------------------------------------- subtitles


def test_srt_common_defects_are_tolerated():
    text = "\ufeff0\r\n00:00:00,000 --> 00:00:01,000\r\nRed!\r\n\r\n1\r\n00:00:5,000 --> 00:00:6,500\r\n<i>More</i>\r\nred &amp; blue\r\n\r\n"
    segs = parse_subtitles(text)
    assert [(s.start, s.end, s.text) for s in segs] == [(0.0, 1.0, "Red!"), (5.0, 6.5, "More red & blue")]


def test_vtt_with_header_settings_and_tags():
    text = ("WEBVTT\n\nNOTE a comment\n\nintro\n00:01.000 --> 00:02.500 align:start position:10%\n"
            "<v Roger>Hello <c.yellow>there</c>\n\n00:00:03.000 --> 00:00:04.000\n第二句\n")
    segs = parse_subtitles(text)
    assert [(s.start, s.end, s.text) for s in segs] == [(1.0, 2.5, "Hello there"), (3.0, 4.0, "第二句")]


def test_chinese_gbk_srt(tmp_path):
    p = tmp_path / "zh.srt"
    p.write_bytes("1\n00:00:01,000 --> 00:00:02,000\n你好，世界\n".encode("gbk"))
    assert read_subtitles(p)[0].text == "你好，世界"


def test_unreadable_subtitle_files(tmp_path):
    junk = tmp_path / "junk.srt"
    junk.write_text("1\n00:00:xx --> soon\nnot a cue\n")
    with pytest.raises(SubtitleError, match=r"junk\.srt: no subtitle cue could be read \(first unreadable timing on line 2\)"):
        read_subtitles(junk)
    binary = tmp_path / "bin.srt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(SubtitleError, match="binary"):
        read_subtitles(binary)
    with pytest.raises(SubtitleError, match="not found"):
        read_subtitles(tmp_path / "missing.srt")


@pytest.mark.parametrize("container", ["mkv", "mp4"])
def test_embedded_subtitle_stream(main_clip, tmp_path, container):
    srt = tmp_path / "s.srt"
    srt.write_text("1\n00:00:01,500 --> 00:00:03,000\nembedded line one\n\n2\n00:00:07,000 --> 00:00:08,000\n字幕二\n")
    out = synth.with_subtitles(main_clip[0], srt, tmp_path / f"withsub.{container}")
    segs = read_embedded_subtitles(out)
    assert [s.text for s in segs] == ["embedded line one", "字幕二"]
    assert segs[0].start == pytest.approx(1.5, abs=0.06) and segs[0].end == pytest.approx(3.0, abs=0.06)
    assert read_embedded_subtitles(main_clip[0]) == []


# --------------------------------------------------------------------------- ASR, OCR, shots


def test_asr_on_generated_speech(main_clip):
    path, truth = main_clip
    segs = transcribe(path)
    hyp = " ".join(s.text for s in segs)
    ref = " ".join(s["text"] for s in truth["speech"])
    assert wer(ref, hyp) <= 0.25, hyp
    assert all(s.kind == "speech" and s.source == "asr:whisper-tiny.en" for s in segs)
    for spoken in truth["speech"]:
        near = [s for s in segs if abs(s.start - spoken["start"]) < 0.6]
        assert near, (spoken, segs)
        assert near[0].end == pytest.approx(spoken["end"], abs=0.8)


def test_asr_on_audio_only_and_silent_inputs(audio_files, speech_spec, silent_clip):
    segs = transcribe(audio_files["flac"])
    assert wer(speech_spec.speech[0].text, " ".join(s.text for s in segs)) <= 0.25
    assert transcribe(silent_clip) == []  # no audio stream: empty transcript, not an error


def test_ocr_finds_burned_in_text_with_start_and_end(main_clip):
    path, truth = main_clip
    fps = 2.0
    segs = read_video_text(path, fps=fps)
    for cap in truth["captions"]:
        # one stray character is tolerated (real OCR), a different text is not
        hits = [s for s in segs
                if difflib.SequenceMatcher(None, normalise(s.text), normalise(cap["text"])).ratio() >= 0.9]
        assert len(hits) == 1, (cap, segs)
        assert hits[0].start == pytest.approx(cap["start"], abs=1 / fps)
        assert hits[0].end == pytest.approx(cap["end"], abs=1 / fps)
        assert hits[0].kind == "ocr" and hits[0].confidence > 0.8


def test_shot_cuts_within_one_frame(main_clip):
    path, truth = main_clip
    shots = detect_shots(path)
    assert len(shots) == len(truth["cuts_seconds"]) + 1
    for shot, cut in zip(shots[1:], truth["cuts_seconds"]):
        assert abs(shot.start - cut) <= 1 / truth["fps"] + 1e-6
    assert shots[0].start == 0.0 and shots[-1].end == pytest.approx(truth["duration"], abs=0.05)


# --------------------------------------------------------------------------- timeline


def _info() -> VideoInfo:
    return VideoInfo("v.mp4", 20.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "abc")


def test_timeline_text_format_and_cap():
    segs = [Segment(12.0, 15.5, "speech", "hello there"), Segment(1.0, 2.0, "ocr", "TITLE")]
    tl = Timeline.build(_info(), segs)
    assert tl.to_text() == "[1.0s - 2.0s] ocr: TITLE\n[12.0s - 15.5s] speech: hello there"
    assert tl.to_text(kinds=["speech"]) == "[12.0s - 15.5s] speech: hello there"
    many = Timeline.build(_info(), [Segment(float(i), i + 1.0, "speech", "word " * 10) for i in range(100)])
    capped = many.to_text(max_chars=500)
    assert len(capped) <= 500
    assert capped.splitlines()[0].startswith("[0.0s - 1.0s] speech: word")
    assert re.search(r"\[\.\.\. \d+ more lines cut at 500 characters\]$", capped)


def test_timeline_json_round_trip_and_version_check():
    tl = Timeline.build(_info(), [Segment(1.0, 2.0, "speech", "你好")])
    again = Timeline.from_dict(tl.to_dict())
    assert again == tl
    data = tl.to_dict()
    data["version"] = 99
    with pytest.raises(LibraryError, match="schema version 99"):
        Timeline.from_dict(data)


def test_chinese_speech_uses_the_multilingual_model(tmp_path):
    """espeak-ng's Mandarin is too rough for word-level checks with Whisper base (its output on
    it varies with the fallback sampling), so this checks the route: the multilingual model runs
    and writes Chinese characters. Real Chinese speech was checked by hand (see the README)."""
    spec = synth.ClipSpec(shots=(synth.Shot(200, "0x000000"),), speech=(
        synth.Speech(0.5, "jin1 tian1 tian1 qi4 hen3 hao3, wo3 men5 qu4 gong1 yuan2 san4 bu4.",
                     voice="cmn-latn-pinyin", speed=120),))
    path = tmp_path / "zh.wav"
    synth.audio_only(spec, path)
    segs = transcribe(path, language="zh")
    text = "".join(s.text for s in segs)
    assert segs and all(s.source == "asr:whisper-base" for s in segs)
    assert sum("\u3400" <= ch <= "\u9fff" for ch in text) >= 3, text
    with pytest.raises(Exception, match="English-only"):
        transcribe(path, language="zh", model="tiny.en")


# --------------------------------------------------------------------------- word boundaries and long speech

FONTS = {"DejaVu Sans Bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
         "DejaVu Sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         "WenQuanYi Zen Hei": "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"}
LATIN = ("BAKE AT 245 C", "PROGRESSION: C G AM F", "HARBOR POINT LIGHTHOUSE", "STATION 3 VALUE 21",
         "CHAIN TOOL MODEL CT-47", "rest the dough 30 min")
CJK = ("今日新闻 北京市场", "苹果价格 上涨")


def _caption_frame(text: str, font: str, size: int, w: int = 640, h: int = 360):
    from PIL import Image, ImageDraw, ImageFont

    im = Image.new("RGB", (w, h), (30, 50, 90))
    d = ImageDraw.Draw(im)
    f = ImageFont.truetype(font, size)
    d.text(((w - d.textlength(text, font=f)) / 2, h / 2 - size / 2), text, font=f, fill="white")
    return im


def _cer(ref: str, hyp: str) -> float:
    return 1 - difflib.SequenceMatcher(None, ref, hyp).ratio() if ref != hyp else 0.0


def test_ocr_keeps_word_boundaries_in_three_fonts_and_sizes():
    """Small glyphs lost their gaps in the recogniser's 48-px input ("HARBORPOINTLIGHTHOUSE");
    line crops scaled to 96 px keep them. Exact strings, spaces included; CER and WER reported."""
    from vidsleuth.perception.ocr import read_image

    cases = [(t, f, s) for f in FONTS.values() for s in (22, 30, 40) for t in LATIN]
    cases += [(t, FONTS["WenQuanYi Zen Hei"], s) for s in (22, 30, 40) for t in CJK]
    wrong, cer, wer_ = [], [], []
    for text, font, size in cases:
        got = " ".join(b.text for b in read_image(_caption_frame(text, font, size)))
        cer.append(_cer(text, got))
        wer_.append(wer(text, got))
        if got != text:
            wrong.append((text, Path(font).stem, size, got))
    print(f"OCR on {len(cases)} generated captions: exact {len(cases) - len(wrong)}/{len(cases)}, "
          f"CER {sum(cer) / len(cer):.3%}, WER {sum(wer_) / len(wer_):.3%}; wrong: {wrong}")
    assert len(wrong) <= 1, wrong  # one near miss ("CHAIN T0OL") at most
    for text in ("BAKE AT 245 C", "PROGRESSION: C G AM F", "HARBOR POINT LIGHTHOUSE", "STATION 3 VALUE 21"):
        for font in FONTS:
            assert " ".join(b.text for b in read_image(_caption_frame(text, FONTS[font], 22))) == text, (text, font)


def test_ocr_on_a_small_720p_caption_keeps_spaces(tmp_path):
    """The issue's case: `STATION 3 VALUE 21` at 1280x720 read as `STATION3VALUE21`."""
    from vidsleuth.perception.ocr import read_image

    im = _caption_frame("STATION 3 VALUE 21", FONTS["DejaVu Sans Bold"], 28, 1280, 720)
    assert [b.text for b in read_image(im)] == ["STATION 3 VALUE 21"]


def test_a_long_narration_is_heard_section_by_section(tmp_path):
    """Every spoken section of a 90-s narration is in the timeline (the sequential decoder with
    VAD dropped 19 of 22 sections of such a clip: its no-speech test fired on the synthetic voice)."""
    from vidsleuth.library import IngestOptions, ingest

    n = 11
    spec = synth.ClipSpec(shots=(synth.Shot(n * 8 * 10 + 30, "0x203060"),), fps=10, width=320, height=180,
                          speech=tuple(synth.Speech(1.0 + 8.0 * i, f"Section {i + 1}. The reading is steady today.")
                                       for i in range(n)))
    clip = tmp_path / "narration.mp4"
    synth.make_clip(clip, spec)
    tl = ingest(clip, tmp_path / "lib", IngestOptions(ocr=False, shots=False))
    speech = tl.of_kind("speech")
    for i in range(n):  # each section's words are in a segment that overlaps the time it was spoken
        t0 = 1.0 + 8.0 * i
        said = set(re.findall(r"[a-z0-9]+", " ".join(s.text.lower() for s in speech if s.start < t0 + 4 and s.end > t0)))
        # heard, not necessarily every word right: bookworm's espeak-ng makes tiny.en write "action 6. the reading
        # is saturday to may"; the sentence's number or its opening word, and a word of the rest
        assert {"section", str(i + 1)} & said and {"reading", "steady", "today"} & said, (i + 1, said)
    # the numbers too, as digits or words (tiny.en once wrote "Section I" for "nine", "Action 6" for "Section 6")
    spoken = number_words(" ".join(s.text for s in speech).lower(), "en")
    heard = {int(x) for x in re.findall(r"(?:section|action) (\d+)", spoken)}
    assert len(heard) >= n - 2, sorted(heard)
