"""``studio profiles add|list`` and ``studio run``: model profiles and headless runs with them."""

from __future__ import annotations

import argparse
from typing import Any

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError, load_registry
from studio.contract import Registry


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio profiles add|list`` and ``studio run``."""
    p = sub.add_parser("profiles", parents=[common], help="model profiles")
    profiles = p.add_subparsers(dest="profiles_command", metavar="ACTION", required=True)
    pa = profiles.add_parser("add", parents=[common], help="add a model profile")
    pa.add_argument("name", metavar="NAME")
    pa.add_argument("--kind", choices=("openai-chat", "anthropic-messages"), required=True)
    pa.add_argument("--base-url", metavar="URL", required=True)
    pa.add_argument("--model", metavar="M", required=True)
    pa.add_argument("--api-key-env", metavar="VAR", help="environment variable with the key")
    profiles.add_parser("list", parents=[common], help="list model profiles")
    p.set_defaults(handler=_cmd_profiles)

    p = sub.add_parser("run", parents=[common], help="run a model against a registry, headless")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--profile", metavar="NAME", required=True)
    p.add_argument("--version", metavar="N|draft", default="draft")
    p.add_argument("--prompt", metavar="TEXT", required=True)
    p.add_argument("--system", metavar="TEXT", default="")
    p.add_argument("--context", metavar="KEY=VALUE", action="append", default=[])
    p.add_argument(
        "--approve",
        choices=("none", "write", "all"),
        default="none",
        help="none: deny every write and destructive call; write (or all): approve writes. "
        "A destructive call is approved only with its --phrase",
    )
    p.add_argument(
        "--phrase",
        metavar="TOOL=PHRASE",
        action="append",
        default=[],
        help="the confirmation phrase typed for the destructive tool TOOL (repeatable); "
        "without it a destructive call is denied",
    )
    p.add_argument("--max-tool-calls", metavar="N", type=int, default=20)
    p.add_argument("--events", choices=("jsonl", "text"), default="text")
    p.add_argument(
        "--executors",
        choices=("configured", "mock"),
        default="configured",
        help="configured: the executor each tool is set to in the Playground (mock unless set "
        "to http); mock: mock executors for every tool",
    )
    p.set_defaults(handler=_cmd_run)


def _cmd_profiles(store: RegistryStore, args: argparse.Namespace) -> int:
    from registry_db.profiles import ProfileRepository
    from studio.providers import ModelProfile, ProviderKind

    repo = ProfileRepository(store)
    if args.profiles_command == "list":
        rows = repo.list_profiles()
        if not rows:
            print("no model profiles")
        for profile in rows:
            key = f"key from ${profile.api_key_env}" if profile.api_key_env else "key from keyring"
            print(
                f"{profile.name}\t{profile.kind.value}\t{profile.base_url}\t{profile.model}\t{key}"
            )
        return 0
    try:
        profile = ModelProfile(
            args.name, ProviderKind(args.kind), args.base_url, args.model, args.api_key_env
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    repo.add(profile)
    print(f"added profile {profile.name} ({profile.kind.value}, {profile.model})")
    return 0


def _cmd_run(store: RegistryStore, args: argparse.Namespace) -> int:
    import asyncio
    import json

    from registry_db.profiles import ProfileRepository
    from registry_db.sessions import SessionStore
    from studio.providers import client_for
    from studio.runtime import (
        MockExecutor,
        MockSpecError,
        Run,
        RunConfig,
        RunEvent,
        SessionContext,
        auto_approver,
        event_to_json,
        example_mocks,
        parse_mocks,
    )

    if args.max_tool_calls < 1:
        raise UsageError("--max-tool-calls must be at least 1")
    registry = load_registry(store, args.registry, args.version)
    phrases = _phrases(args.phrase, registry)
    if phrases and args.approve == "none":
        raise UsageError("--phrase needs --approve write or all (none denies every risky call)")
    profile = ProfileRepository(store).get(args.profile)
    sessions = SessionStore.for_store(store)
    specs = sessions.mock_specs(args.registry)
    if not specs:
        # Mocks load on first use; bundled examples ship the reimbursement story.
        document = example_mocks(args.registry)
        if document is not None:
            specs = {"": document.get("context", {}), **document.get("tools", {})}
            sessions.set_mock_specs(args.registry, specs)
    try:
        mocks = parse_mocks({"tools": {k: v for k, v in specs.items() if k}})
        context = SessionContext.from_dict(specs.get("", {})).with_pairs(args.context)
    except (MockSpecError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    executors = _configured_executors(store, args.registry, registry) if (
        args.executors == "configured") else {}  # fmt: skip
    config = RunConfig(
        registry, version=args.version, profile=profile.name, system=args.system,
        params=profile.params, context=context, mock=MockExecutor(mocks.tools),
        executors=executors, max_tool_calls=args.max_tool_calls,
    )  # fmt: skip
    from studio.runtime.capabilities import print_agent_update, with_capabilities

    # Skills: catalogue in the system prompt, load_skill on demand; agents: delegate_to_<agent>.
    config = with_capabilities(config, on_agent_update=print_agent_update(args.events == "text"))

    def show(event: RunEvent) -> None:
        if args.events == "jsonl":
            print(json.dumps(event_to_json(event), ensure_ascii=False), flush=True)
        elif event.type != "message.delta":
            data = event.data()
            brief = {k: v for k, v in data.items() if k not in ("request", "raw_request", "steps")}
            print(f"{event.seq:>4} {event.type:<20} {json.dumps(brief, ensure_ascii=False)[:200]}")

    async def go() -> str:
        client = client_for(profile)
        try:
            run = Run(
                client,
                config,
                sessions=sessions,
                on_event=show,
                approver=auto_approver(args.approve, phrases),
                title=args.prompt[:80],
            )
            result = await run.execute(args.prompt)
        finally:
            await client.aclose()
            for executor in {id(e): e for e in executors.values()}.values():
                await executor.aclose()
        if args.events == "text":
            if result.messages and result.messages[-1].text:
                print(result.messages[-1].text)
            print(f"session {result.session_id}: {result.status} {result.reason}".rstrip())
        return result.status

    status = asyncio.run(go())
    return 0 if status == "completed" else 1


def _phrases(given: list[str], registry: Registry) -> dict[str, str]:
    """``--phrase TOOL=PHRASE`` values by tool; each names a destructive tool of the registry."""
    from studio.contract import RiskTier

    risks = {t.name: t.risk for t in registry.tools}
    phrases: dict[str, str] = {}
    for item in given:
        tool, sep, phrase = item.partition("=")
        if not sep or not tool or not phrase:
            raise UsageError(f"--phrase takes TOOL=PHRASE, not {item!r}")
        if tool not in risks:
            raise UsageError(f"--phrase {tool}=…: {registry.name} has no tool named {tool!r}")
        if risks[tool] is not RiskTier.DESTRUCTIVE:
            raise UsageError(f"--phrase {tool}=…: {tool} is not destructive and takes no phrase")
        phrases[tool] = phrase
    return phrases


def _configured_executors(store: RegistryStore, name: str, registry: Registry) -> dict[str, Any]:
    """The http executor for the tools set to http in the Playground (the rest use mock)."""
    from registry_db.executors import ExecutorStore
    from studio.runtime import HttpExecutor
    from studio.runtime.http_targets import ConfiguredTargetError, configured_targets

    settings = ExecutorStore.for_store(store).settings(name)
    choices = ((t.tool, t.executor, t.http) for t in settings.tools.values())
    try:
        targets = configured_targets(
            choices, {t.name: t for t in registry.tools}, settings.allowed_base_urls
        )
    except ConfiguredTargetError as exc:
        raise UsageError(
            f"{exc} (HTTP target… in the Playground), or run with --executors mock"
        ) from exc
    if not targets:
        return {}
    http = HttpExecutor(targets, list(settings.allowed_base_urls))
    return dict.fromkeys(targets, http)
