"""``studio diff``: what changes between two versions, the draft or channels of a registry."""

from __future__ import annotations

import argparse
import sys

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError
from studio.contract import Registry
from studio.lint.model import PROFILES


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio diff``."""
    p = sub.add_parser("diff", parents=[common], help="what changes between two versions")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("a", metavar="A", help="'draft', a version number or a channel name")
    p.add_argument("b", metavar="B", help="'draft', a version number or a channel name")
    p.add_argument("--format", choices=("text", "md", "json"), default="text")
    p.add_argument(
        "--fail-on",
        choices=("breaking", "behavioural", "never"),
        default="never",
        help="exit with 1 when a change reaches this class (default: never)",
    )
    p.add_argument(
        "--profile",
        choices=(*PROFILES, "none"),
        default="openai",
        help="lint profile for the lint delta and the token method ('none' skips linting)",
    )
    p.add_argument(
        "--confirm-rename", metavar="OLD=NEW", action="append", default=[],
        help="treat OLD (in A) → NEW (in B) as a rename",
    )  # fmt: skip
    p.add_argument(
        "--reject-rename", metavar="OLD=NEW", action="append", default=[],
        help="never treat OLD → NEW as a rename",
    )  # fmt: skip
    p.set_defaults(handler=_cmd_diff)


def _diff_side(store: RegistryStore, name: str, spec: str) -> tuple[Registry, str]:
    """The registry a diff side names, and its label: draft, a version or a channel."""
    if spec == "draft":
        return store.draft_registry(name), "draft"
    number = spec[1:] if spec[:1] in ("v", "V") and spec[1:].isdigit() else spec
    if number.isdigit():
        return store.load_version(name, int(number)).registry, f"v{int(number)}"
    from studio.release import release_state

    store.get_registry(name)
    state = release_state(store, name)
    channel = state.channel(spec)  # ChannelError (a StoreError) names the unknown channel
    version = state.stable_version if channel.name == "stable" else channel.version
    if version is None:
        raise UsageError(f"channel {spec!r} of {name} has no version yet")
    return store.load_version(name, version).registry, f"{spec} (v{version})"


def _rename_pairs(values: list[str], option: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values:
        old, sep, new = value.partition("=")
        if not sep or not old or not new:
            raise UsageError(f"{option} expects OLD=NEW, not {value!r}")
        pairs[old] = new
    return pairs


def _cmd_diff(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.diff import ChangeClass, diff_registries, to_json, to_markdown, to_text

    a, a_label = _diff_side(store, args.registry, args.a)
    b, b_label = _diff_side(store, args.registry, args.b)
    try:
        diff = diff_registries(
            a, b, a_label=a_label, b_label=b_label,
            confirmed_renames=_rename_pairs(args.confirm_rename, "--confirm-rename"),
            rejected_renames=_rename_pairs(args.reject_rename, "--reject-rename"),
            lint_profile=None if args.profile == "none" else args.profile,
        )  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if args.format == "json":
        sys.stdout.write(json.dumps(to_json(diff), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(to_markdown(diff) if args.format == "md" else to_text(diff))
    if args.fail_on != "never" and diff.reaches(ChangeClass(args.fail_on)):
        return 1
    return 0
