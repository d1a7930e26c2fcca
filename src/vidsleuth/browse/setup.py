"""Everything a browsing run needs, assembled once for the CLI, the demo and scripts alike.

``open_browse`` loads the index, its corpus (relative paths resolved against the corpus file),
the models, the browse parameters (defaults, then the config file's ``[browse]`` table, then
explicit overrides) and the optional Translation Memory. ``browse_protocol`` is what every
browsing output records in ``run.json`` so that a number can be reproduced: the agent, its
prompts' hashes (taken from the agent itself, so none is left out), the endpoints per role, the
parameters and versions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import VidsleuthError
from .videos import BrowseConfig, Videos

ROLES = ("planner", "watcher", "checker", "analyst", "judge")


@dataclass(frozen=True)
class BrowseSetup:
    index: object
    models: object
    videos: Videos
    memory: object | None
    config: BrowseConfig
    index_path: Path
    corpus: Path

    def agent(self, name: str = "video-browser", models=None):
        from .agent import make_agent

        return make_agent(name, self.index, models or self.models, self.videos, self.memory, self.config)


def open_browse(index: str | Path, *, corpus: str | Path | None = None, config: str | Path | None = None,
                model: str | None = None, judge: str | None = None, library: str | Path | None = None,
                memory: str | Path | None = None, allow_download: bool = False, cache: bool = True,
                **overrides) -> BrowseSetup:
    from ..models import Models
    from ..search.corpus import read_corpus
    from ..search.index import SearchIndex
    from ..search.memory import MemoryBank
    from .videos import load_browse_config

    if not index:
        raise VidsleuthError("an index is needed: -i INDEX (build one with `vidsleuth index build`)")
    idx = SearchIndex.load(index)
    corpus_path = Path(corpus or idx.meta["corpus"])
    records = {r.video_id: r for r in read_corpus(corpus_path)}
    roles = {"default": model} if model else {}
    if judge:
        roles["judge"] = judge
    models = Models(config, cache=cache, overrides=roles)
    cfg = load_browse_config(config, **overrides)
    videos = Videos(records, library=library, allow_download=allow_download)
    bank = MemoryBank(memory, models.embedder()) if memory else None
    return BrowseSetup(idx, models, videos, bank, cfg, Path(index), corpus_path)


def browse_protocol(setup: BrowseSetup, agent_name: str) -> dict:
    from .. import __version__
    from ..prompts import prompt_hash

    agent = setup.agent(agent_name)
    return {"agent": agent_name, "index": str(setup.index_path.resolve()), "corpus": str(setup.corpus.resolve()),
            "index_meta": setup.index.meta.get("bm25"), "index_kind": setup.index.kind,
            "index_content": setup.index.meta.get("content") or "metadata only (the seed's search stack)", "memory": str(setup.memory.root) if setup.memory else None,
            "config": asdict(setup.config), "watcher": agent.watcher_kind() if hasattr(agent, "watcher_kind") else None,
            "roles": {r: setup.models.endpoint_for(r).describe() for r in ROLES},
            "prompts": {n: prompt_hash(n) for n in agent.prompts}, "vidsleuth": __version__}
