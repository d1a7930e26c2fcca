"""``vidsleuth skill install``: the bundled agent skills (Agent Skills layout) copied where a
harness reads them, never over a file the user changed."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_skill_install_verb(tmp_path):
    dest = tmp_path / "skills"
    first = subprocess.run([sys.executable, "-m", "vidsleuth", "skill", "install", str(dest), "--only", "video-qa"],
                           capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "1 written" in first.stdout and (dest / "video-qa" / "SKILL.md").is_file()
    assert not (dest / "video-report").exists()
    (dest / "video-qa" / "SKILL.md").write_text("mine\n")
    again = subprocess.run([sys.executable, "-m", "vidsleuth", "skill", "install", str(dest)], capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 1 and "exists with other content" in again.stderr and "--overwrite" in again.stderr
    assert (dest / "video-qa" / "SKILL.md").read_text() == "mine\n" and not (dest / "video-report").exists()


def test_skill_install(tmp_path):
    import yaml

    from vidsleuth import skill
    from vidsleuth.errors import ArgumentError

    dest = tmp_path / ".claude" / "skills"
    done = skill.install(dest)
    assert {d["state"] for d in done} == {"written"}
    for name in ("video-report", "video-qa"):
        text = (dest / name / "SKILL.md").read_text(encoding="utf-8")
        front = yaml.safe_load(text.split("---")[1])
        assert front["name"] == name and len(front["description"]) > 50  # the Agent Skills front matter
    report_skill = (dest / "video-report" / "SKILL.md").read_text(encoding="utf-8")
    for tool in ("timeline", "gather_evidence", "relate", "render_report", "check_report", "session_stats"):
        assert f"`{tool}" in report_skill
    from vidsleuth.config import ReportConfig

    c = ReportConfig()  # the skill's budget table says what `report check` enforces (App. D.3)
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in report_skill.splitlines()
            if line.startswith("| ") and line.count("|") == 4}
    assert rows["research anchors"] == f"at most {c.max_anchors}"
    assert rows["sources per anchor"].startswith(f"at most {c.sources_per_anchor}")
    assert rows["distinct cited sources"] == f"at least {c.min_sources}"
    assert rows["cited documents"] == f"at least {c.min_documents}"
    assert rows["related videos"].startswith(f"at least {c.min_related_videos}")
    assert rows["cited sources per anchor"].startswith(f"at least {c.min_sources_per_anchor}")
    assert rows["repair rounds"].startswith(f"at most {c.repair_rounds}")
    assert {d["state"] for d in skill.install(dest)} == {"unchanged"}  # twice is a no-op
    mine = dest / "video-qa" / "SKILL.md"
    mine.write_text("my own notes\n", encoding="utf-8")
    with pytest.raises(ArgumentError, match="exists with other content"):
        skill.install(dest)
    assert mine.read_text(encoding="utf-8") == "my own notes\n"  # nothing of the user's was overwritten
    replaced = skill.install(dest, overwrite=True)
    assert [d["state"] for d in replaced if d["file"] == str(mine)] == ["replaced"]
    assert mine.read_text(encoding="utf-8").startswith("---\nname: video-qa")


