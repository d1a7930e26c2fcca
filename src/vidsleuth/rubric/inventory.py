"""The default direction inventory (seed 000 App. A.2 names 23 shared directions without defining
all of them; these are the ones vidsleuth defines, with what a leaf of each checks). Where the seed
gives no definition, the text below is ours.

content
- ``fact_coverage`` (saturating, capped): the report states a fact of the task's evidence record —
  a source's value or finding and how it relates to the video.
- ``video_faithfulness`` (gated): the report states what the video says and shows, at its moments;
  gate: the report is about the given video.
- ``causal_analysis`` (saturating, capped): the report gives the reasons a source offers.
- ``comparison`` (saturating, capped): the report sets the video beside other cases a source compares.
- ``conflict_handling``: a contradiction or update is flagged as such, not averaged away.

citation
- ``claim_support`` (guarded N/A): the finding that states a fact carries its citation beside it;
  N/A only when the fact was never claimed.
- ``source_integrity`` (machine): citations resolve, every source is cited, cited excerpts are in
  their sources and support the claims, enough distinct sources are cited.

presentation
- ``timestamp_navigation`` (machine): timestamps are inside the video, there are enough of them,
  and in Chromium each click seeks the player.
- ``structure`` (machine): findings carry citations, internal links and assets resolve, there are
  findings at all.
"""

from __future__ import annotations

WEIGHTS = {"content": 0.5, "citation": 0.3, "presentation": 0.2}
SATURATING = {"fact_coverage": 0.5, "causal_analysis": 0.2, "comparison": 0.2}  # direction -> cap of its dimension
