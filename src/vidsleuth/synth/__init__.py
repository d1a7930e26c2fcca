"""Generated worlds with their truth (DESIGN.md's synth floor): clips with known shots, text and
speech (``clips``, re-exported here, so ``from vidsleuth.synth import make_clip`` keeps working),
the report cases (``report_cases``, ``dev_cases``), the browsing world and its levels
(``browse_world``, ``browse_levels``) and the compass demo set (``compass_set``). Every number a
test, the demo or a benchmark reports on them can be checked against the truth they were built from."""

from .clips import (
                    CJK_FONT,
                    LATIN_FONT,
                    Caption,
                    ClipSpec,
                    Overlay,
                    Shot,
                    Speech,
                    SpokenSpan,
                    audio_only,
                    espeak,
                    ffmpeg_exe,
                    make_clip,
                    piper,
                    remux,
                    rotated,
                    run_ffmpeg,
                    tiny_clip,
                    truncate,
                    variable_frame_rate,
                    with_subtitles,
                    without_duration,
                    write_pdf,
)

__all__ = [
    "CJK_FONT", "LATIN_FONT", "Caption", "ClipSpec", "Overlay", "Shot", "Speech", "SpokenSpan", "audio_only", "espeak",
    "ffmpeg_exe", "make_clip", "piper", "remux", "rotated", "run_ffmpeg", "tiny_clip", "truncate", "variable_frame_rate",
    "with_subtitles", "without_duration", "write_pdf",
]
