"""``studio serve``: published versions over HTTP."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError
from studio.cli.mcp import add_call_options, serve_options


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio serve``."""
    p = sub.add_parser("serve", parents=[common], help="serve published versions over HTTP")
    p.add_argument("--host", default="127.0.0.1", help="interface (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="TCP port; 0 picks a free one")
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="bearer token for POST /v1/outcomes (else refused) and /mcp/{registry}",
    )
    group = p.add_argument_group("MCP endpoint (/mcp/{registry})")
    add_call_options(group)
    group.add_argument(
        "--subject-header",
        metavar="NAME",
        help="request header whose value buckets an MCP caller into a channel "
        "(default: the hash of its bearer token)",
    )
    p.set_defaults(handler=_cmd_serve)


def _cmd_serve(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.server import read_token_file, serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {args.port}")
    token = None
    if args.token_file:
        try:
            token = read_token_file(Path(args.token_file))
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    else:
        print("studio: no --token-file: outcome reports will be refused", file=sys.stderr)

    def ready(url: str) -> None:
        print(f"listening on {url}", flush=True)

    mcp = _mcp_options(store, args)
    try:
        serve(store, host=args.host, port=args.port, token=token, on_ready=ready, mcp=mcp)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc}") from exc
    return 0


def _mcp_options(store: RegistryStore, args: argparse.Namespace) -> object:
    """How /mcp/{registry} runs calls, from the MCP options."""
    from studio.mcp.serve_http import McpHttpOptions

    options, contexts = serve_options(store, None, args)
    host = args.host if args.host not in ("127.0.0.1", "localhost", "::1") else None
    return McpHttpOptions(
        context_pairs=tuple(args.context), contexts=contexts, approve=options.approve,
        phrases=options.phrases, executors=options.executors,
        subject_header=args.subject_header, allowed_hosts=(f"{host}:*",) if host else (),
    )  # fmt: skip
