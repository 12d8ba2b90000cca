"""``studio publish``'s review: what the GUI's publish dialog shows, for scripts and CI (#15, #12).

Before a version is stored the command prints the diff summary against the
parent version (and against the version stable serves, when that differs), the
suggested semver, and a warning when stable follows the newest version — then a
publish is a 100 % rollout. ``--fail-on breaking|behavioural`` refuses while
changes of that class (or worse) are not acknowledged with ``--ack RULE_ID`` (or
``RULE_ID:TOOL``); ``--require-evals SET --profile P`` runs the eval set on the
parent and the draft and refuses a significant regression. The review (counts,
semver, acknowledgements, who, the eval verdict) is stored with the version in
the same shape as the GUI's (``tool-registry-studio/review@1``).

Exit codes: 0 published; 2 bad input; 5 refused by ``--require-evals``
(:data:`~studio.evals.gates.EXIT_PUBLISH_REFUSED`); 7 refused by ``--fail-on``
(:data:`~studio.evals.gates.EXIT_REVIEW_REFUSED`). Nothing is stored when refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from studio.cli.common import UsageError
from studio.contract import Registry

if TYPE_CHECKING:
    from registry_db import RegistryStore
    from studio.diff import Change, RegistryDiff


MAX_LISTED = 30


def add_review_options(p: argparse.ArgumentParser) -> None:
    """``--fail-on``, ``--ack``, ``--require-evals``, ``--profile``, ``--repeat`` on ``publish``."""
    p.add_argument(
        "--fail-on", choices=("breaking", "behavioural", "never"), default="never",
        help="refuse (exit 7) while changes of this class or worse are not acknowledged",
    )  # fmt: skip
    p.add_argument(
        "--ack", metavar="RULE_ID[:TOOL]", nargs="+", action="extend", default=[],
        help="acknowledge the changes of this rule (on this tool); stored with the version",
    )  # fmt: skip
    add_eval_gate_options(
        p.add_argument_group("eval gate (issue #12)"),
        "run this eval set on the parent version and the draft; refuse (exit 5) "
        "when the draft is significantly worse",
    )


def add_eval_gate_options(
    p: argparse.ArgumentParser | argparse._ArgumentGroup, require_help: str
) -> None:
    """``--require-evals SET``, ``--profile P``, ``--repeat N``: the eval gate's options.

    ``publish`` and ``channel promote`` gate on the same eval run (studio.evals.gates)
    and read these three the same way; only what is compared, and so the help of
    ``--require-evals``, differs.
    """
    p.add_argument("--require-evals", metavar="SET", help=require_help)
    p.add_argument("--profile", metavar="P", help="model profile for --require-evals")
    p.add_argument("--repeat", metavar="N", type=int, default=1,
                   help="repetitions per case for --require-evals (default 1)")  # fmt: skip


def _ack_matches(ack: str, change: Change) -> bool:
    rule, _, tool = ack.partition(":")
    return change.rule_id == rule and (not tool or change.tool == tool)


def acknowledged(acks: Sequence[str], changes: Sequence[Change]) -> list[Change]:
    """The changes ``--ack`` covers.

    Raises:
        UsageError: an ``--ack`` matches no change (a typo must not pass silently).
    """
    for ack in acks:
        if not any(_ack_matches(ack, c) for c in changes):
            rules = sorted({c.rule_id for c in changes})
            raise UsageError(
                f"--ack {ack} matches no change of this publish"
                + (f" (its rules: {', '.join(rules)})" if rules else " (there are none)")
            )
    return [c for c in changes if any(_ack_matches(a, c) for a in acks)]


def _change_line(change: Change) -> str:
    where = " ".join(x for x in (change.tool or "(registry)", change.path) if x)
    return f"  {change.klass.value:<11} {change.rule_id}  {where}: {change.message}"


def _notable_lines(changes: Sequence[Change], fail_on: str) -> list[str]:
    """Breaking changes one a line (and behavioural ones under ``--fail-on behavioural``);
    the rest of the behavioural changes counted per rule."""
    from collections import Counter

    from studio.diff import ChangeClass

    listed_from = ChangeClass.BEHAVIOURAL if fail_on == "behavioural" else ChangeClass.BREAKING
    listed = [c for c in changes if c.klass.rank >= listed_from.rank]
    lines = [_change_line(c) for c in listed[:MAX_LISTED]]
    if len(listed) > MAX_LISTED:
        lines.append(f"  … and {len(listed) - MAX_LISTED} more")
    counted = Counter(
        c.rule_id for c in changes if c.klass is ChangeClass.BEHAVIOURAL and c not in listed
    )
    if counted:
        lines.append("  behavioural: " + ", ".join(f"{r} ×{n}" for r, n in counted.items()))
    return lines


def _summary(diff: RegistryDiff, previous_semver: str | None) -> list[str]:
    from studio.diff import CLASS_ORDER, next_semver

    counts = ", ".join(f"{diff.counts[k]} {k.value}" for k in CLASS_ORDER)
    level = diff.semver.level
    try:
        suggested = next_semver(previous_semver, level)
    except ValueError:
        suggested = level
    reasons = f" ({', '.join(diff.semver.reasons)})" if diff.semver.reasons else ""
    return [
        f"review against {diff.a_label}: {counts}",
        f"  suggested semver: {suggested} — {level}{reasons}",
    ]


def _baselines(
    store: RegistryStore, name: str, draft: Registry
) -> tuple[RegistryDiff, RegistryDiff | None, str | None, list[str]]:
    """The diff against the parent, against stable (when different), the last semver, warnings."""
    from studio.diff import diff_registries
    from studio.release import release_state

    versions = store.list_versions(name)
    previous_semver = next((v.semver for v in reversed(versions) if v.semver), None)
    warnings: list[str] = []
    if not versions:
        empty = Registry(name=draft.name, settings=draft.settings)
        diff = diff_registries(empty, draft, lint_profile=None, a_label="nothing", b_label="draft")
        return diff, None, previous_semver, warnings
    parent = versions[-1].number
    parent_diff = diff_registries(
        store.load_version(name, parent).registry, draft,
        lint_profile=None, a_label=f"v{parent} (parent)", b_label="draft",
    )  # fmt: skip
    state = release_state(store, name)
    stable_diff = None
    if not state.stable_pinned:
        warnings.append(
            f"warning: stable follows the newest version: publishing makes v{parent + 1} "
            f"stable for 100 % of subjects at once (pin stable first: studio channel {name} "
            f"set stable --version {parent}, then roll out through a canary)"
        )
    elif state.stable_version is not None and state.stable_version != parent:
        stable = state.stable_version
        stable_diff = diff_registries(
            store.load_version(name, stable).registry, draft,
            lint_profile=None, a_label=f"stable (v{stable})", b_label="draft",
        )  # fmt: skip
    return parent_diff, stable_diff, previous_semver, warnings


def review_and_publish(store: RegistryStore, args: argparse.Namespace) -> int:
    """The whole ``studio publish``: review, gates, then the version with its review."""
    from studio.diff import ChangeClass
    from studio.evals.gates import EXIT_PUBLISH_REFUSED, EXIT_REVIEW_REFUSED
    from studio.ui.diff.review import build_review  # Qt-free: the GUI's review format

    if args.require_evals and not args.profile:
        raise UsageError("--require-evals needs --profile P (the model to run the set with)")
    if args.profile and not args.require_evals:
        raise UsageError("--profile is for --require-evals SET")
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    name = args.registry
    draft = store.draft_registry(name)
    diff, stable_diff, previous_semver, warnings = _baselines(store, name, draft)
    for line in _summary(diff, previous_semver):
        print(line)
    for line in _notable_lines(diff.changes, args.fail_on):
        print(line)
    if stable_diff is not None:
        print(_summary(stable_diff, previous_semver)[0])
    for warning in warnings:
        print(warning, file=sys.stderr)

    acked = acknowledged(args.ack, diff.changes)
    if args.fail_on != "never":
        floor = ChangeClass(args.fail_on).rank
        missing = [c for c in diff.changes if c.klass.rank >= floor and c not in acked]
        if missing:
            print(f"studio: not published: {len(missing)} {args.fail_on}-or-worse change(s) not "
                  "acknowledged (--ack RULE_ID[:TOOL]):", file=sys.stderr)  # fmt: skip
            for change in missing:
                print(_change_line(change), file=sys.stderr)
            return EXIT_REVIEW_REFUSED

    from registry_db.versions import default_author

    who = args.author or default_author()
    review: dict[str, Any] = build_review(diff, acked, who)
    review["via"] = "cli"
    if stable_diff is not None:
        stable_review = build_review(stable_diff, [], who)
        review["against_stable"] = {k: stable_review[k] for k in ("against", "counts", "semver")}
    if args.require_evals:
        gate = _eval_gate(store, name, draft, args)
        if gate is not None:
            from studio.evals.gates import semver_note

            review["evals"] = gate.review_record(args.require_evals, args.profile)
            print(f"evals ({args.require_evals}, {args.profile}): {gate.summary}")
            note = semver_note(gate, diff)
            if note:
                print(f"  ! {note}")
            if gate.details_hint:
                print(f"  {gate.details_hint}")
            if not gate.passed:
                print(
                    f"studio: not published: the draft is significantly worse than "
                    f"{gate.base_label} on eval set {args.require_evals}",
                    file=sys.stderr,
                )
                return EXIT_PUBLISH_REFUSED
    info = store.publish(name, notes=args.notes, semver=args.semver, author=args.author,
                         review=review)  # fmt: skip
    semver = f" ({info.semver})" if info.semver else ""
    print(f"published {name} version {info.number}{semver} {info.content_hash}")
    return 0


def _eval_gate(store: RegistryStore, name: str, draft: Registry, args: argparse.Namespace) -> Any:
    """Run the gate against the parent version; None (with a note) when there is no parent."""
    from studio.evals.gates import GateError, run_gate, runner_sides

    versions = store.list_versions(name)
    if not versions:
        print(f"note: {name} has no parent version: --require-evals has nothing to compare with",
              file=sys.stderr)  # fmt: skip
        return None
    parent = versions[-1].number
    try:
        run = runner_sides(store, name, args.require_evals, args.profile, repeat=args.repeat)
        return run_gate(
            (f"{name}@{parent}", store.load_version(name, parent).registry),
            (f"{name}@draft", draft),
            run,
        )
    except GateError as exc:
        raise UsageError(str(exc)) from None
