"""``studio mcp …``: MCP servers and clients (issue #13).

Each action is registered by its own small function so the actions stay
independent: ``serve`` (a registry version as an MCP server over stdio), ``pull``
(import the tools a live server lists) and ``check`` (a live server against a pinned
version). The MCP SDK is imported only when an action runs.

Exit codes of ``pull``: 0 on success, 1 when the server cannot be listed, 2 on bad
input. ``check``: 0 when the live server lists what was pinned, 1 on drift, 2 on bad
input (including a server that cannot be started or reached: nothing was compared).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError

if TYPE_CHECKING:
    from studio.contract import Registry
    from studio.mcp.client import ServerListing, Target

PROTOCOLS = {"auto": "auto", "2025-11-25": "legacy", "2026-07-28": "2026-07-28"}
"""``--protocol`` → the SDK ``Client`` mode."""


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio mcp`` and its actions."""
    p = sub.add_parser("mcp", parents=[common], help="serve registries over MCP, pull from MCP")
    actions = p.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    add_serve_parser(actions, common)
    register_pull(actions, common)
    register_check(actions, common)


def add_call_options(p: argparse._ActionsContainer) -> None:
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
    p.add_argument("--role", metavar="R", help="list and run only the tools role R may call")
    p.add_argument("--scenario", metavar="S", help="likewise for scenario S")
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


def _for_audience(options: Any, role: str, scenario: str) -> Any:
    """``options`` serving only (role, scenario)'s tools; the context names them too."""
    import dataclasses

    from studio.contract.audience import Audience

    pairs = [f"{k}={v}" for k, v in (("role", role), ("scenario", scenario)) if v]
    context = options.context.with_pairs(pairs)
    return dataclasses.replace(options, context=context, audience=Audience(role, scenario))


def _cmd_serve(store: RegistryStore, args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    import os

    from mcp.shared.exceptions import MCPError

    from registry_db.errors import NotFoundError
    from studio.mcp.server import Caller, ServedRegistry, credential_hash, serve_stdio

    options, contexts = serve_options(store, args.registry, args)
    if args.role is not None or args.scenario is not None:
        options = _for_audience(options, args.role or "", args.scenario or "")
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
    except (NotFoundError, ValueError, MCPError) as exc:
        raise UsageError(str(exc)) from exc
    print(f"studio: serving {args.registry} over MCP on stdio", file=sys.stderr, flush=True)
    caller = Caller("stdio", subject, context, "stdio")
    with contextlib.suppress(KeyboardInterrupt):  # the client closing stdin ends it too
        asyncio.run(serve_stdio(served, caller))
    return 0


# ---------------------------------------------------------------------------- pull and check


def add_server_arguments(p: argparse.ArgumentParser) -> None:
    """``--stdio``/``--url`` and what goes with them (shared by pull and check)."""
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--stdio", metavar='"COMMAND ARGS…"', help="start the server and speak over stdio"
    )
    where.add_argument("--url", metavar="URL", help="a streamable HTTP endpoint (https://host/mcp)")
    p.add_argument(
        "--env", metavar="NAME=VALUE|NAME", action="append", default=[],
        help="environment for a --stdio server; NAME alone passes ours through, "
        "VALUE may be {env:OTHER} (values are never stored)",
    )  # fmt: skip
    p.add_argument(
        "--header", metavar='"Name: value"', action="append", default=[],
        help="HTTP header for --url; credentials as {env:NAME}, e.g. "
        '"Authorization: Bearer {env:MCP_TOKEN}" (read at connect time, never stored)',
    )  # fmt: skip
    p.add_argument(
        "--protocol", choices=tuple(PROTOCOLS), default="auto",
        help="protocol era: auto (server/discover, else the initialize handshake), or one",
    )  # fmt: skip
    p.add_argument(
        "--timeout", type=float, default=30.0, metavar="S", help="seconds for the whole listing"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def register_pull(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio mcp pull``."""
    p = sub.add_parser("pull", parents=[common], help="import the tools a live MCP server lists")
    add_server_arguments(p)
    p.add_argument("--registry", metavar="NAME", help="registry name (default: the server's)")
    p.add_argument(
        "--replace-draft", action="store_true",
        help="replace the draft of an existing registry (published versions are kept)",
    )  # fmt: skip
    p.set_defaults(handler=_cmd_pull)


def register_check(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio mcp check``."""
    p = sub.add_parser(
        "check", parents=[common],
        help="compare what a live server lists with a pinned version (exit 1 on drift)",
    )  # fmt: skip
    p.add_argument("registry", metavar="REGISTRY")
    pin = p.add_mutually_exclusive_group()
    pin.add_argument("--version", metavar="N", help="the pinned version (default: the latest)")
    pin.add_argument("--channel", metavar="NAME", help="the version a channel points at (stable)")
    add_server_arguments(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=_cmd_check)


# ---------------------------------------------------------------------------- handlers


def _target(args: argparse.Namespace) -> Target:
    from studio.mcp.client import HttpTarget, PullError, StdioTarget

    try:
        if args.stdio is not None:
            if args.header:
                raise UsageError("--header applies to --url servers; use --env for --stdio")
            return StdioTarget.parse(args.stdio, args.env)
        if args.env:
            raise UsageError("--env applies to --stdio servers; use --header for --url")
        return HttpTarget.parse(args.url, args.header)
    except PullError as exc:
        raise UsageError(str(exc)) from None


def _listing(args: argparse.Namespace) -> ServerListing:
    """The live listing; a server that cannot be listed raises PullError."""
    import anyio

    from studio.mcp.client import list_server_tools

    target = _target(args)
    if args.timeout <= 0:
        raise UsageError(f"--timeout must be more than 0 seconds, not {args.timeout:g}")

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"mcp: {line}", file=sys.stderr, flush=True)

    async def run() -> ServerListing:
        return await list_server_tools(
            target, timeout=args.timeout, progress=progress, mode=PROTOCOLS[args.protocol]
        )

    return anyio.run(run)


def _cmd_pull(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.cli.registry import exists_unless_refused
    from studio.formats import FormatError
    from studio.formats.base import one_line
    from studio.mcp.client import PullError
    from studio.mcp.mapping import registry_from_listing

    try:
        listing = _listing(args)
    except PullError as exc:
        print(f"studio: mcp pull: {exc}", file=sys.stderr)
        return 1
    try:
        result = registry_from_listing(listing, args.registry)
    except FormatError as exc:
        raise UsageError(f"the server lists tools the contract cannot hold: {exc}") from None
    registry = result.registry
    exists = exists_unless_refused(store, registry.name, args.replace_draft, verb="pull")
    store.import_registry(registry, replace_draft=args.replace_draft)
    for note in result.notes:
        where = f"{note.path}: " if note.path else ""
        print(one_line(f"note: [{note.kind}] {where}{note.message}"))
    verb = "replaced the draft of" if exists else "pulled"
    server = f"{listing.server_name} {listing.server_version}".strip() or "the server"
    print(
        f"{verb} {registry.name}: {len(registry.tools)} tools from {server} "
        f"(MCP {listing.protocol_version}, {listing.pages} page(s))"
    )
    return 0


def _pinned(store: RegistryStore, args: argparse.Namespace) -> tuple[Registry, str]:
    name = args.registry
    store.get_registry(name)
    if args.channel:
        from studio.release import release_state

        state = release_state(store, name)
        channel = state.channel(args.channel)
        version = state.stable_version if channel.name == "stable" else channel.version
        if version is None:
            raise UsageError(f"channel {args.channel!r} of {name} has no version yet")
        return store.load_version(name, version).registry, f"{args.channel} (v{version})"
    if args.version:
        spec = args.version[1:] if args.version[:1] in ("v", "V") else args.version
        if not spec.isdigit():
            raise UsageError(f"--version must be a version number, not {args.version!r}")
        return store.load_version(name, int(spec)).registry, f"v{int(spec)}"
    versions = store.list_versions(name)
    if not versions:
        raise UsageError(f"{name} has no published version to check against; publish one first")
    number = versions[-1].number
    return store.load_version(name, number).registry, f"v{number}"


def _cmd_check(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.formats import FormatError
    from studio.mcp.client import PullError
    from studio.mcp.drift import check_drift

    pinned, label = _pinned(store, args)
    try:
        listing = _listing(args)
    except PullError as exc:
        raise UsageError(f"mcp check: {exc}") from None
    try:
        report = check_drift(pinned, listing, pinned_label=label)
    except FormatError as exc:
        raise UsageError(f"the server lists tools the contract cannot hold: {exc}") from None
    if args.format == "json":
        data: dict[str, Any] = report.to_json()
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(report.to_text())
    return 1 if report.drifted else 0
