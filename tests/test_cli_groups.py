"""The start-up table: each verb's first word names the group module that registers it, and a
command line loads only that group (so ``vidsleuth probe`` does not import the agents)."""

from __future__ import annotations

import importlib
import subprocess
import sys

from vidsleuth import cli


def test_heads_table_matches_the_registry():
    for group in cli._GROUPS:
        importlib.import_module(f"vidsleuth.cli.{group}")
    owners: dict[str, set[str]] = {}
    for v in cli.VERBS.values():
        owners.setdefault(v.name.split()[0], set()).add(v.run.__module__.rsplit(".", 1)[1])
    assert {head: {group} for head, group in cli._HEADS.items()} == owners


def test_groups_for_a_command_line():
    assert cli.groups_for(["--debug", "ingest", "a.mp4"]) == ("media",)
    assert cli.groups_for(["bench", "browse", "--help"]) == ("bench",)
    assert cli.groups_for(["--version"]) == ()
    assert cli.groups_for([]) == cli._GROUPS
    assert cli.groups_for(["no-such-verb"]) == cli._GROUPS


def test_one_verb_loads_only_its_group():
    code = ("import sys; from vidsleuth import cli; "
            "cli.build_parser(cli.groups_for(['probe', 'x.mp4'])); "
            "print(sorted(m for m in sys.modules if m.startswith('vidsleuth.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['vidsleuth.cli.media']"


def test_unknown_verb_still_lists_every_verb():
    res = subprocess.run([sys.executable, "-m", "vidsleuth", "no-such-verb"], capture_output=True, text=True)
    assert res.returncode == 1
    assert "bench" in res.stderr and "ingest" in res.stderr
