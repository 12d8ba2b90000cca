"""``studio channel`` and ``studio resolve``: release channels and who gets which version.

``studio channel REG promote --require-evals SET --profile P`` first runs the
eval set on the version stable serves and on the canary's version, and refuses
(exit 6, :data:`~studio.evals.gates.EXIT_PROMOTE_REFUSED`; nothing changes) when
the canary is significantly worse. Bad input exits 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from registry_db import RegistryStore
from registry_db.channel_log import PUBLISH
from studio.cli.common import Subcommands, UsageError
from studio.cli.publish_review import add_eval_gate_options
from studio.release import SERVING_FORMATS, event_change

if TYPE_CHECKING:
    from registry_db.channels import ChannelEvent


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio channel show|set|promote|rollback`` and ``studio resolve``."""
    p = sub.add_parser("channel", parents=[common], help="release channels of a registry")
    p.add_argument("registry", metavar="REGISTRY")
    channel = p.add_subparsers(dest="channel_command", metavar="ACTION", required=True)
    channel.add_parser("show", parents=[common], help="channels, recent events and the guard")
    pc = channel.add_parser("set", parents=[common], help="point a channel at a version")
    pc.add_argument("channel", metavar="CHANNEL", help="canary, stable or another name")
    pc.add_argument("--version", metavar="N", type=int, required=True)
    pc.add_argument("--share", metavar="S", type=int, help="percent of subjects (0-100)")
    pc = channel.add_parser("promote", parents=[common], help="make the canary's version stable")
    pc.add_argument("--channel", metavar="NAME", default="canary")
    add_eval_gate_options(
        pc,
        "run this eval set on stable's and the channel's versions first; refuse "
        "(exit 6) when the channel's version is significantly worse",
    )
    pc = channel.add_parser(
        "rollback", parents=[common], help="canary to 0 %%, or stable to its previous version"
    )
    pc.add_argument("--channel", metavar="NAME", default="canary")
    for action in ("set", "promote", "rollback"):
        channel.choices[action].add_argument(
            "--why", metavar="TEXT", default="", help="reason, kept in the log"
        )
        channel.choices[action].add_argument(
            "--who", metavar="NAME", help="who acts (default: the OS user)"
        )
    p.set_defaults(handler=_cmd_channel)

    p = sub.add_parser("resolve", parents=[common], help="which version a subject gets")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--subject", metavar="ID", help="user or session id (none: stable)")
    p.add_argument("--format", choices=SERVING_FORMATS, default="openai")
    p.add_argument("--role", metavar="R", help="send only the tools role R may call")
    p.add_argument("--scenario", metavar="S", help="send only the tools scenario S may call")
    p.add_argument(
        "--restrict", choices=("filter", "choice"),
        help="filter (default): only the permitted tools; choice: every tool, with the "
        "provider's allowed-tools choice restricted to the permitted ones",
    )  # fmt: skip
    p.set_defaults(handler=_cmd_resolve)


def _event_line(event: ChannelEvent) -> str:
    """One log line: when, who, what (action and channel), before -> after, why."""
    why = f"\t{event.why}" if event.why else ""
    # A publish has no channel; its before/after are versions, not channel states.
    what = event.action if event.action == PUBLISH else f"{event.action} {event.channel}"
    before, after = event_change(event)
    return f"{event.created_at}\t{event.who}\t{what}\t{before} -> {after}{why}"


def _cmd_channel(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.release import (
        channel_events,
        guard_for_registry,
        promote,
        release_state,
        rollback,
        set_channel,
    )

    name = args.registry
    action = args.channel_command
    if action == "set":
        if args.share is None and args.channel != "stable":
            raise UsageError(f"--share is required for channel {args.channel!r}")
        state = set_channel(store, name, args.channel, version=args.version, share=args.share,
                            who=args.who, why=args.why)  # fmt: skip
    elif action == "promote":
        refused = _promote_gate(store, name, args)
        if refused:
            return refused
        state = promote(store, name, args.channel, who=args.who, why=args.why)
    elif action == "rollback":
        state = rollback(store, name, args.channel, who=args.who, why=args.why)
    else:
        state = release_state(store, name)
    for c in state.channels:
        if c.name == "stable":
            version = state.stable_version
            where = "" if state.stable_pinned or version is None else " (latest, not pinned)"
            print(f"stable\t{f'v{version}' if version else '-'}{where}\t100 %")
        else:
            print(f"{c.name}\t{f'v{c.version}' if c.version else '-'}\t{c.share} %")
    if action == "show":
        for event in channel_events(store, name)[-10:]:
            print(_event_line(event))
        report = guard_for_registry(store, name)
        if report is not None:
            rec = report.recommendation
            print(f"guard: {rec.action}: {rec.reason}")
    return 0


def _promote_gate(store: RegistryStore, name: str, args: argparse.Namespace) -> int:
    """0 when the promote may go ahead; the refusal's exit code when the evals say no."""
    if args.profile and not args.require_evals:
        raise UsageError("--profile is for --require-evals SET")
    if not args.require_evals:
        return 0
    if not args.profile:
        raise UsageError("--require-evals needs --profile P (the model to run the set with)")
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    from studio.evals.gates import EXIT_PROMOTE_REFUSED, GateError, run_gate, runner_sides
    from studio.release import release_state

    state = release_state(store, name)
    channel = state.channel(args.channel)
    if channel.version is None:
        raise UsageError(f"channel {args.channel!r} of {name} serves no version to promote")
    stable = state.stable_version
    if stable is None or stable == channel.version:
        print(f"note: stable serves {f'v{stable}' if stable else 'nothing'}: "
              "--require-evals has nothing to compare with", file=sys.stderr)  # fmt: skip
        return 0
    try:
        run = runner_sides(store, name, args.require_evals, args.profile, repeat=args.repeat)
        gate = run_gate(
            (f"{name}@{stable}#stable", store.load_version(name, stable).registry),
            (f"{name}@{channel.version}#{channel.name}",
             store.load_version(name, channel.version).registry),
            run,
        )  # fmt: skip
    except GateError as exc:
        raise UsageError(str(exc)) from None
    print(f"evals ({args.require_evals}, {args.profile}): {gate.summary}")
    if gate.details_hint:
        print(f"  {gate.details_hint}")
    if not gate.passed:
        print(f"studio: not promoted: v{channel.version} is significantly worse than stable "
              f"v{stable} on eval set {args.require_evals}", file=sys.stderr)  # fmt: skip
        return EXIT_PROMOTE_REFUSED
    return 0


def _cmd_resolve(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.formats import FormatError
    from studio.release import resolution_document, resolve
    from studio.release.resolve import AudienceQuery

    audience = None
    if args.role is not None or args.scenario is not None:
        audience = AudienceQuery(args.role or "", args.scenario or "", args.restrict or "filter")
    elif args.restrict:
        raise UsageError("--restrict needs --role and/or --scenario")
    resolution = resolve(store, args.registry, args.subject)
    try:
        doc = resolution_document(resolution, args.format, audience=audience)
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    if audience is not None:
        block = doc["audience"]
        print(f"studio: {len(block['allowed'])} of {block['of']} tools for "
              f"{audience.audience} ({audience.restrict})", file=sys.stderr)  # fmt: skip
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    return 0
