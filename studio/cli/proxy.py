"""``studio proxy``: a recording proxy between an agent and its model provider."""

from __future__ import annotations

import argparse
from urllib.parse import urlsplit

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError

KINDS = ("openai-chat", "anthropic-messages")
POLICIES = ("forward", "repair", "refuse")


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio proxy``."""
    p = sub.add_parser(
        "proxy",
        parents=[common],
        help="record an agent's model calls: point the agent here instead of its provider",
        description=(
            "Forward model calls to --upstream, streaming answers through unchanged, record "
            "each conversation as a session (source 'proxy') and check every request's "
            "tool-call pairing before it is sent. The API key the agent sends is passed on "
            "and never stored."
        ),
    )
    p.add_argument(
        "--listen",
        default="127.0.0.1:8788",
        metavar="HOST:PORT",
        help="address to listen on (default 127.0.0.1:8788; port 0 picks a free one)",
    )
    p.add_argument("--upstream", required=True, metavar="URL", help="the provider's base URL")
    p.add_argument("--kind", required=True, choices=KINDS, help="the upstream's wire format")
    p.add_argument(
        "--on-broken",
        choices=POLICIES,
        default="forward",
        help="a request whose history the provider would refuse: forward it anyway and "
        "record the error (default), repair it, or refuse it with the provider's error",
    )
    p.add_argument(
        "--registry",
        metavar="NAME",
        help="re-validate every proposed tool call against this registry (outcomes feed "
        "the guard metrics)",
    )
    p.add_argument(
        "--version",
        metavar="N|draft",
        help="with --registry: this version (default: the one its channels give each session)",
    )
    p.add_argument(
        "--session-header",
        default="X-Studio-Session",
        metavar="NAME",
        help="requests with this header are grouped into sessions by its value "
        "(default X-Studio-Session; without it, by history prefix)",
    )
    p.set_defaults(handler=_cmd_proxy)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6, ``:PORT`` for 127.0.0.1) as a pair."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not port_text.isdigit():
        raise UsageError(f"--listen must be HOST:PORT, not {text!r}")
    port = int(port_text)
    if not 0 <= port <= 65535:
        raise UsageError(f"--listen: port must be between 0 and 65535, not {port}")
    host = host.strip("[]") or "127.0.0.1"
    return host, port


def _cmd_proxy(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.proxy import Kind, OnBroken, ProxyConfig, RegistryTarget, serve

    host, port = parse_listen(args.listen)
    parts = urlsplit(args.upstream)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--upstream must be an http(s) URL, not {args.upstream!r}")
    if args.version is not None and not args.registry:
        raise UsageError("--version needs --registry")
    registry = None
    if args.registry:
        if args.registry not in {r.name for r in store.list_registries()}:
            raise UsageError(f"--registry: no registry named {args.registry!r}")
        version = args.version
        if version is not None and version != "draft":
            if not version.isdigit():
                raise UsageError(f"--version must be a number or 'draft', not {version!r}")
            store.load_version(args.registry, int(version))  # a missing one fails here
        registry = RegistryTarget(args.registry, version)
    config = ProxyConfig(
        args.upstream, Kind(args.kind), OnBroken(args.on_broken), args.session_header
    )

    def ready(url: str) -> None:
        print(f"proxy listening on {url} → {args.upstream} ({args.kind})", flush=True)

    try:
        serve(config, store, host=host, port=port, registry=registry, on_ready=ready)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc}") from exc
    return 0
