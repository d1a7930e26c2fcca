"""One configuration file, one loader, typed sections.

```toml
[models.NAME]   # endpoints (vidsleuth.models.config.Endpoint)
[roles]         # role -> endpoint name
[browse]        # BrowseConfig: every parameter of seed 001 App. B.1
[report]        # ReportConfig: budgets and limits of the report workflow (seed 000 App. D.3)
[rubric]        # reserved for the rubric evaluator
[executor]      # reserved for the batch runner
```

The file is found at ``--config FILE``, else ``$VIDSLEUTH_CONFIG``, else
``~/.config/vidsleuth/config.toml`` when it exists. Each section is validated as a whole when it is
loaded: unknown sections and keys are errors with a "did you mean", values are type- and
range-checked, secrets are refused (``api_key_env`` names the variable that holds a key).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .errors import ConfigError, did_you_mean  # noqa: F401  (did_you_mean is re-exported)

SECTIONS = ("models", "roles", "browse", "report", "rubric", "executor")


def default_config_path() -> Path | None:
    import os

    env = os.environ.get("VIDSLEUTH_CONFIG")
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    p = Path(user_config_dir("vidsleuth")) / "config.toml"
    return p if p.exists() else None


def read_config_file(path: str | Path | None) -> tuple[dict[str, Any], Path | None]:
    """The parsed TOML (``{}`` without a file) and where it came from; unknown sections are errors."""
    source = Path(path) if path else default_config_path()
    if source is None:
        return {}, None
    if not source.exists():
        raise ConfigError("config file not found", path=source,
                          hint="give --config FILE, set $VIDSLEUTH_CONFIG, or leave both unset for the built-in endpoints")
    from .files import read_text

    try:
        data = tomllib.loads(read_text(source, "config file"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", path=source) from None
    for key, value in data.items():
        if key not in SECTIONS:
            raise ConfigError(f"unknown section [{key}]" + did_you_mean(key, SECTIONS), path=source,
                              hint=f"sections: {', '.join(SECTIONS)}")
        if not isinstance(value, dict):
            raise ConfigError(f"[{key}] must be a table", path=source)
        if key != "models":  # endpoints are checked field by field (vidsleuth.models.config)
            _refuse_secrets(key, value, source)
    return data, source


def _refuse_secrets(section: str, table: dict, source: Path) -> None:
    """Credentials never go in the file (a key, a token, a password in a URL), and every ``*_url``
    is http(s): refused in any section, before anything reads the values."""
    from urllib.parse import urlsplit

    from .errors import find_secret

    found = find_secret(table, section)
    if found:
        raise ConfigError(f"[{section}]: {found}: keep keys out of files", path=source,
                          hint="keys belong in the environment: set api_key_env = \"NAME\" and export NAME=...")
    for name, sub in ((k, v) for k, v in table.items()):
        urls = sub.items() if isinstance(sub, dict) else [(name, sub)]
        for key, value in urls:
            if str(key).endswith("_url") and isinstance(value, str) and value:
                try:
                    scheme = urlsplit(value).scheme
                except ValueError:
                    scheme = ""
                if scheme not in ("http", "https"):
                    raise ConfigError(f"[{section}] {key} = {value!r}: must be an http:// or https:// URL", path=source)


@dataclass(frozen=True)
class BrowseConfig:
    """Every parameter of seed 001 App. B.1 (and the per-role output budgets), from the CLI and
    the config file's ``[browse]`` table. Checked when made."""

    t_max: int = 3
    search_k: int = 10
    planner_max_queries: int = 1
    watcher_top_k: int = 1
    n_grids: int = 2
    grid_rows: int = 3
    grid_cell: int = 256
    title_max: int = 200
    desc_max: int = 240
    channel_max: int = 60
    analyst_frames: int = 128
    analyst_max_side: int = 512
    transcript_chars: int = 25_000
    memory_top: int = 3
    memory_pool: int = 20
    react_max_calls: int = 7
    react_frames: int = 128
    react_fps: float = 1.0
    react_max_side: int = 512
    watcher: str = "auto"  # llm (the seed's multimodal call) | embed (text-only backends) | auto
    watcher_timeline_tokens: int = 1500  # embedded Watcher: a candidate's whole ingested speech and screen text, at most; 0: the grids' span
    planner_max_tokens: int = 256
    watcher_max_tokens: int = 64
    checker_max_tokens: int = 128
    analyst_max_tokens: int = 512
    react_max_tokens: int = 512

    def __post_init__(self):
        from .limits import check

        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "watcher":
                if v not in ("auto", "llm", "embed"):
                    raise ConfigError(f"browse watcher = {v!r}: choose auto, llm or embed")
                continue
            kind = float if f.type == "float" else int
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (kind is int and not float(v).is_integer()):
                raise ConfigError(f"browse {f.name} = {v!r}: must be {'an integer' if kind is int else 'a number'}")
            named = {"t_max": "t_max", "search_k": "search_k", "analyst_frames": "analyst_frames", "react_fps": "fps",
                     "grid_rows": "rows", "grid_cell": "cell", "n_grids": "grids", "transcript_chars": "max_chars",
                     "analyst_max_side": "max_side", "react_max_side": "max_side", "react_frames": "frames"}.get(f.name)
            if named:
                check(named, v, option=f"browse {f.name}")
            elif v < (0 if f.name == "react_max_calls" else 1):
                raise ConfigError(f"browse {f.name} = {v!r}: must be at least 1")


def load_section(section: str, cls, path=None, **overrides):
    """A typed section: defaults, then the config file's ``[section]`` table (unknown keys are
    errors with a "did you mean"; a bad value names the file), then explicit overrides (the CLI)."""
    data, source = read_config_file(path) if path or default_config_path() else ({}, None)
    table = data.get(section) or {}
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise ConfigError(f"[{section}] has unknown keys: {', '.join(unknown)}" + did_you_mean(unknown[0], names),
                          path=source, hint=f"known: {', '.join(names)}")
    try:
        cfg = cls(**table)
    except ConfigError as exc:
        raise ConfigError(str(exc), path=source) from None
    return replace(cfg, **{k: v for k, v in overrides.items() if v is not None})


def load_browse_config(path=None, **overrides) -> BrowseConfig:
    """Defaults, then the config file's ``[browse]`` table, then explicit overrides (the CLI)."""
    return load_section("browse", BrowseConfig, path, **overrides)


_REPORT_RANGES = {"max_anchors": "anchors", "sources_per_anchor": "per_anchor", "branches": "branches"}  # else "budget"


@dataclass(frozen=True)
class ReportConfig:
    """The report workflow's budgets and limits (seed 000 App. D.3), from the CLI and ``[report]``.
    The ``min_*`` budgets are checked by ``report check``; the others bound the work."""

    max_anchors: int = 8
    sources_per_anchor: int = 3  # evidence records per anchor at most (5 finds more of the truth, with more spurious links: README)
    min_sources: int = 3
    min_documents: int = 1
    min_related_videos: int = 0
    min_sources_per_anchor: int = 1
    repair_rounds: int = 2
    branches: int = 4  # evidence branches run side by side
    web_search_url: str = ""

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "web_search_url":
                if not isinstance(v, str):
                    raise ConfigError(f"report {f.name} = {v!r}: must be a string")
                continue
            if isinstance(v, bool) or not isinstance(v, int):
                raise ConfigError(f"report {f.name} = {v!r}: must be an integer")
            from .limits import RANGES  # the one table of documented ranges, shared with the CLI flags

            r = RANGES[_REPORT_RANGES.get(f.name, "budget")]
            if not r.lo <= v <= r.hi:
                raise ConfigError(f"report {f.name} = {v!r}: must be between {r.lo:g} and {r.hi:g}")

    def budgets(self) -> dict:
        return {k: getattr(self, k) for k in ("min_sources", "min_documents", "min_related_videos", "min_sources_per_anchor")}


def load_report_config(path=None, **overrides) -> ReportConfig:
    """Defaults, then the config file's ``[report]`` table, then explicit overrides (the CLI)."""
    return load_section("report", ReportConfig, path, **overrides)
