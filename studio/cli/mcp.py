"""``studio mcp …``: MCP servers and clients (issue #13).

Each action is registered by its own small function so the actions stay
independent: ``serve`` (a registry version as an MCP server over stdio).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio mcp`` and its actions."""
    p = sub.add_parser("mcp", parents=[common], help="serve registries over MCP, pull from MCP")
    actions = p.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    add_serve_parser(actions, common)


def add_call_options(p: argparse.ArgumentParser) -> None:
    """How served calls run: context, approvals, executors (``mcp serve`` and ``serve``)."""
    p.add_argument(
        "--context",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="session context for every caller (employee_id=…, role=…, scenario=…); "
        "injected fields read it",
    )
    p.add_argument(
        "--contexts",
        metavar="FILE",
        help='per-credential contexts, JSON {"credentials": [{"token": …} or '
        '{"token_sha256": …}, "context": {…}}]}',
    )
    p.add_argument(
        "--approve",
        choices=("none", "write", "all"),
        default=None,
        help="approval policy for write/destructive calls (as studio run); without it the "
        "user is asked through elicitation where the client supports it, else the call is "
        "refused with CONFIRM_REQUIRED",
    )
    p.add_argument(
        "--phrase",
        metavar="TOOL=PHRASE",
        action="append",
        default=[],
        help="confirmation phrase the policy types for a destructive tool (repeatable)",
    )
    p.add_argument(
        "--executors",
        choices=("configured", "mock"),
        default="configured",
        help="configured: each tool's executor as set in the Playground (mock unless http); "
        "mock: mocks for every tool",
    )


def add_serve_parser(actions: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio mcp serve``."""
    p = actions.add_parser("serve", parents=[common], help="serve a registry version over MCP")
    p.add_argument("registry", metavar="REGISTRY")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--version", metavar="N", type=int, help="serve this published version")
    which.add_argument(
        "--channel",
        metavar="NAME",
        help="serve a channel: stable buckets the caller across live channels (canary share "
        "included); another name serves that channel's version (default: stable)",
    )
    p.add_argument("--stdio", action="store_true", required=True, help="speak MCP on stdin/stdout")
    p.add_argument(
        "--subject",
        metavar="S",
        help="bucketing subject of this caller for --channel (default: the credential's hash "
        "from $STUDIO_MCP_TOKEN, else none: stable)",
    )
    add_call_options(p)
    p.set_defaults(handler=_cmd_serve)


def serve_options(store: RegistryStore, registry: str | None, args: argparse.Namespace) -> Any:
    """``ServeOptions`` and the per-credential contexts from the call options."""
    from pathlib import Path

    from studio.mcp.serve_auth import load_contexts, parse_phrases
    from studio.mcp.server import ServeOptions, mock_context

    try:
        base = mock_context(store, registry) if registry else None
        context = (base or _empty_context()).with_pairs(args.context)
        phrases = parse_phrases(args.phrase)
        contexts = load_contexts(Path(args.contexts), context) if args.contexts else {}
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if phrases and args.approve in (None, "none"):
        raise UsageError("--phrase needs --approve write or all")
    options = ServeOptions(context, args.approve, phrases, args.executors)
    return options, contexts


def _empty_context() -> Any:
    from studio.runtime.context import SessionContext

    return SessionContext()


def _cmd_serve(store: RegistryStore, args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    import os

    from registry_db.errors import NotFoundError
    from studio.mcp.server import Caller, ServedRegistry, credential_hash, serve_stdio

    options, contexts = serve_options(store, args.registry, args)
    token = os.environ.get("STUDIO_MCP_TOKEN", "")
    subject = args.subject or (credential_hash(token) if token else None)
    context = options.context
    if contexts:
        if not token or credential_hash(token) not in contexts:
            raise UsageError("--contexts: set $STUDIO_MCP_TOKEN to a credential the file names")
        context = contexts[credential_hash(token)]
    try:
        served = ServedRegistry(store, args.registry, version=args.version,
                                channel=args.channel, options=options)  # fmt: skip
    except (NotFoundError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    print(f"studio: serving {args.registry} over MCP on stdio", file=sys.stderr, flush=True)
    caller = Caller("stdio", subject, context, "stdio")
    with contextlib.suppress(KeyboardInterrupt):  # the client closing stdin ends it too
        asyncio.run(serve_stdio(served, caller))
    return 0
