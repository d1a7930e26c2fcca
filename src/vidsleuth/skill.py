"""``vidsleuth skill install DIR``: copy the agent skills (``video-report``, ``video-qa``; Agent
Skills layout, one folder with a ``SKILL.md`` each) into the folder a harness reads skills from,
e.g. ``.claude/skills`` of a project or ``~/.claude/skills``.

The skills ship inside the package (``vidsleuth/skills``), so this works from a wheel. A file that
already exists with other content is never overwritten unless ``overwrite``; identical files are
left alone, so installing twice is a no-op."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from .errors import ArgumentError, VidsleuthError


def bundled() -> dict[str, dict[str, bytes]]:
    """Skill name -> {relative path: bytes} of every bundled skill."""
    root = files("vidsleuth").joinpath("skills")
    out: dict[str, dict[str, bytes]] = {}
    for skill in sorted(root.iterdir(), key=lambda p: p.name):
        if not skill.is_dir() or not skill.joinpath("SKILL.md").is_file():
            continue
        found: dict[str, bytes] = {}
        stack = [(skill, "")]
        while stack:
            node, rel = stack.pop()
            for child in node.iterdir():
                path = f"{rel}{child.name}"
                if child.is_dir():
                    stack.append((child, path + "/"))
                elif not child.name.startswith("."):
                    found[path] = child.read_bytes()
        out[skill.name] = found
    if not out:
        raise VidsleuthError("no skill is bundled with this installation", hint="reinstall vidsleuth")
    return out


def install(dest: str | Path, *, overwrite: bool = False, only: list[str] | None = None) -> list[dict]:
    """Copy the skills under ``dest``; returns per file what happened (written, unchanged,
    replaced). Every conflict is found before anything is written."""
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise ArgumentError("the skills folder is a file", path=dest, hint="give the folder a harness reads skills from")
    skills = bundled()
    unknown = sorted(set(only or ()) - set(skills))
    if unknown:
        raise ArgumentError(f"no bundled skill named {', '.join(unknown)}", hint=f"choose from {', '.join(skills)}")
    plan = []
    for name, content in skills.items():
        if only and name not in only:
            continue
        for rel, data in sorted(content.items()):
            target = dest / name / rel
            state = "written"
            if target.is_symlink() or (target.exists() and not target.is_file()):
                raise ArgumentError("exists and is not a regular file; nothing was changed", path=target)
            if target.is_file():
                state = "unchanged" if target.read_bytes() == data else "replaced"
                if state == "replaced" and not overwrite:
                    raise ArgumentError("exists with other content; nothing was changed", path=target,
                                        hint="give --overwrite to replace it")
            plan.append((target, data, state))
    for target, data, state in plan:
        if state != "unchanged":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return [{"file": str(t), "state": s} for t, _, s in plan]
