"""Verbs over model endpoints: models (list them), chat (one message)."""

from __future__ import annotations

from pathlib import Path

from ..limits import arg
from ..models.endpoints import chat, list_endpoints
from . import verb


def _config_arg(p):
    p.add_argument("--config", type=Path,
                   help="model config TOML (default: $VIDSLEUTH_CONFIG or ~/.config/vidsleuth/config.toml)")


def _models_text(d: dict, args) -> str:
    lines = [f"config: {d['config'] or '(none: built-in endpoints only)'}"]
    for r in d["endpoints"]:
        key = "" if r["key_set"] is None else f"  key ${r['api_key_env']}: {'set' if r['key_set'] else 'NOT SET'}"
        roles = f"  roles: {', '.join(r['roles'])}" if r["roles"] else ""
        lines.append(f"{r['name']:16s} {r['backend']:7s} {r['model'] or '-'}  {r['base_url'] or '(in-process)'}{key}{roles}")
    return "\n".join(lines)


@verb("models", "list the configured and built-in model endpoints and the roles that use them",
      args=_config_arg, text=_models_text)
def _models(args):
    return list_endpoints(args.config)


def _chat_args(p):
    p.add_argument("prompt")
    p.add_argument("--model", default="local", help="endpoint name (see `vidsleuth models`; default local)")
    p.add_argument("--image", dest="images", type=Path, action="append", default=[], help="attach an image (repeatable)")
    p.add_argument("--audio", type=Path, action="append", default=[], help="attach audio (omni models)")
    p.add_argument("--system", help="system prompt")
    p.add_argument("--max-tokens", type=arg("max_tokens"), default=512)
    p.add_argument("--temperature", type=arg("temperature", "--temperature"), default=0.0)
    p.add_argument("--seed", type=arg("seed", "--seed"))
    p.add_argument("--timeout", type=arg("timeout"), help="per-attempt timeout in seconds (overrides the config)")
    p.add_argument("--retries", type=arg("retries"), help="retries after a failed attempt, 0..100 (overrides the config)")
    p.add_argument("--no-cache", dest="cache", action="store_false", help="always call the model")
    _config_arg(p)


@verb("chat", "send one message to an endpoint and print the reply (check that an endpoint works)",
      args=_chat_args, text=lambda r, a: r["text"])
def _chat(args):
    return chat(args.prompt, model=args.model, config=args.config, images=args.images, audio=args.audio,
                system=args.system, max_tokens=args.max_tokens, temperature=args.temperature, seed=args.seed,
                timeout=args.timeout, retries=args.retries, cache=args.cache)

