"""``studio diff``: what changes between two versions, the draft or channels of a registry.

With ``--evals SET --profile P`` the diff gets a behavioural section: the eval
set runs on both sides with model profile P (through the eval runner and its
response cache) and the report adds A vs B — flips, exact McNemar, verdict — and
says when the suggested semver calls a change compatible that in fact broke
cases. ``--profile`` then names the model profile and ``--lint-profile`` the
lint profile (without ``--evals``, ``--profile`` is the lint profile, as before).

Exit codes: 0; 1 when ``--fail-on`` is reached by the changes' class; 3
(:data:`~studio.evals.gates.EXIT_REGRESSION`) when ``--fail-on`` is not
``never`` and B is significantly worse on the eval set; 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from registry_db import RegistryStore
from studio.cli.common import Subcommands, UsageError
from studio.contract import Registry
from studio.lint.model import PROFILES

if TYPE_CHECKING:
    from studio.diff import RegistryDiff
    from studio.evals.gates import GateResult


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
        metavar="P",
        help=f"lint profile ({'|'.join((*PROFILES, 'none'))}; default openai; 'none' skips "
        "linting); with --evals: the model profile that runs the eval set",
    )
    p.add_argument(
        "--lint-profile", choices=(*PROFILES, "none"),
        help="lint profile when --profile names the model profile (default openai)",
    )  # fmt: skip
    evals = p.add_argument_group("behavioural diff (issue #12)")
    evals.add_argument("--evals", metavar="SET", help="run this eval set on A and B")
    evals.add_argument("--repeat", metavar="N", type=int, default=1,
                       help="repetitions per case with --evals (default 1)")  # fmt: skip
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


def _profiles(args: argparse.Namespace) -> tuple[str, str | None]:
    """The lint profile and, with ``--evals``, the model profile."""
    if args.evals:
        if not args.profile:
            raise UsageError("--evals needs --profile P (the model profile that runs the set)")
        if args.repeat < 1:
            raise UsageError("--repeat must be at least 1")
        return args.lint_profile or "openai", args.profile
    lint = args.lint_profile or args.profile or "openai"
    if lint not in (*PROFILES, "none"):
        raise UsageError(
            f"--profile {lint!r} is not a lint profile ({', '.join((*PROFILES, 'none'))}); "
            "a model profile goes with --evals SET"
        )
    return lint, None


def _cmd_diff(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.diff import ChangeClass, diff_registries, to_json, to_markdown, to_text

    lint_profile, model_profile = _profiles(args)
    a, a_label = _diff_side(store, args.registry, args.a)
    b, b_label = _diff_side(store, args.registry, args.b)
    try:
        diff = diff_registries(
            a, b, a_label=a_label, b_label=b_label,
            confirmed_renames=_rename_pairs(args.confirm_rename, "--confirm-rename"),
            rejected_renames=_rename_pairs(args.reject_rename, "--reject-rename"),
            lint_profile=None if lint_profile == "none" else lint_profile,
        )  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    gate = None
    if model_profile is not None:
        gate = _behaviour(store, args, (a_label, a), (b_label, b), model_profile)
    if args.format == "json":
        data = to_json(diff)
        if gate is not None:
            data["behaviour"] = _behaviour_json(gate, diff, args.evals, model_profile)
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(to_markdown(diff) if args.format == "md" else to_text(diff))
        if gate is not None:
            from studio.evals.gates import behavioural_lines

            lines = behavioural_lines(gate, diff)
            if args.format == "md":
                lines = [
                    "",
                    "## " + lines[0].rstrip(":"),
                    "",
                    *(f"- {x.strip()}" for x in lines[1:]),
                ]
            else:
                lines = ["", *lines]
            sys.stdout.write("\n".join(lines) + "\n")
    if args.fail_on != "never" and gate is not None and not gate.passed:
        from studio.evals.gates import EXIT_REGRESSION

        return EXIT_REGRESSION
    if args.fail_on != "never" and diff.reaches(ChangeClass(args.fail_on)):
        return 1
    return 0


def _behaviour(
    store: RegistryStore,
    args: argparse.Namespace,
    a: tuple[str, Registry],
    b: tuple[str, Registry],
    model_profile: str,
) -> GateResult:
    """Run the eval set on both sides (labels ``registry@side``) and compare them."""
    from studio.evals.gates import GateError, run_gate, runner_sides

    name = args.registry
    if a[0] == b[0]:
        raise UsageError(f"A and B are both {a[0]}: nothing to compare")
    try:
        run = runner_sides(store, name, args.evals, model_profile, repeat=args.repeat)
        return run_gate((f"{name}@{a[0]}", a[1]), (f"{name}@{b[0]}", b[1]), run)
    except GateError as exc:
        raise UsageError(str(exc)) from None


def _behaviour_json(
    gate: GateResult, diff: RegistryDiff, set_name: str, profile: str | None
) -> dict[str, Any]:
    from studio.evals.gates import semver_note
    from studio.evals.report import comparison_json

    comparison = gate.report.comparison
    assert comparison is not None
    return {
        "set": set_name,
        "profile": profile,
        **comparison_json(comparison),
        "semver_note": semver_note(gate, diff) or None,
    }
