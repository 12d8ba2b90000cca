"""Release gates on eval results: diff, publish and promote (issue #12, part 6).

A gate runs one eval set on two registries — the *base* (the parent version,
or the version stable serves) and the *candidate* (the draft, or the canary's
version) — compares them (:mod:`studio.evals.stats`) and refuses when the
candidate is **significantly worse** (exact McNemar, α 0.05). A change too
small to detect at the set's size passes, and the report says how many cases
it would take to see a 5-point change.

The gate does not know how attempts are produced: it takes a :data:`RunSides`
function. :func:`runner_sides` makes one from the studio's eval runner (the
real model, through the providers, with the response cache, so re-checking an
unchanged base costs nothing); tests pass their own.

Exit codes for CI (the CLI returns these; 0 = passed, 2 = bad input):
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studio.contract import Registry
from studio.evals.compare import Report, build_report
from studio.evals.report import comparison_sentence, pct
from studio.evals.results import Attempt

if TYPE_CHECKING:
    from registry_db import RegistryStore
    from studio.diff import RegistryDiff

#: ``eval compare|report --fail-on regression`` and ``diff --evals … --fail-on behavioural``:
#: B is significantly worse than A.
EXIT_REGRESSION = 3
#: ``eval compare|report --fail-on broken``: at least one case that passed on A fails on B.
EXIT_BROKEN = 4
#: ``publish --require-evals``: refused, the draft is significantly worse than its parent.
EXIT_PUBLISH_REFUSED = 5
#: ``channel promote --require-evals``: refused, the canary is significantly worse than stable.
EXIT_PROMOTE_REFUSED = 6
#: ``publish --fail-on breaking|behavioural``: changes of that class were not acknowledged.
EXIT_REVIEW_REFUSED = 7

__doc__ = (
    (__doc__ or "")
    + f"""
- {EXIT_REGRESSION}: regression (B significantly worse than A);
- {EXIT_BROKEN}: a case broke (passed on A, fails on B);
- {EXIT_PUBLISH_REFUSED}: ``publish --require-evals`` refused;
- {EXIT_PROMOTE_REFUSED}: ``channel promote --require-evals`` refused;
- {EXIT_REVIEW_REFUSED}: ``publish --fail-on`` found unacknowledged changes.
"""
)

Side = tuple[str, Registry]
"""A labelled registry: (``travel-reimbursement@3``, the registry)."""

RunSides = Callable[[Sequence[Side]], Sequence[Attempt]]
"""Runs the eval set on each side; attempts carry the side's label as ``variant``."""


class GateError(Exception):
    """The gate could not run (no such set or profile, a missing key…): one line, exit 2."""


@dataclass(frozen=True, slots=True)
class GateResult:
    """What a gate decided and the report it decided on."""

    passed: bool
    report: Report
    base_label: str
    candidate_label: str

    @property
    def summary(self) -> str:
        c = self.report.comparison
        return comparison_sentence(c) if c is not None else "no comparison"

    @property
    def run_id(self) -> str:
        """The stored run the gate decided on (``studio eval report RUN`` shows it all)."""
        return next((a.run_id for a in self.report.attempts), "")

    @property
    def details_hint(self) -> str:
        return f"details: studio eval report {self.run_id}" if self.run_id else ""

    def review_record(self, set_name: str, profile: str) -> dict[str, Any]:
        """What is stored with a published version (inside its review)."""
        c = self.report.comparison
        assert c is not None  # a gate always compares
        return {
            "set": set_name,
            "profile": profile,
            "against": self.base_label,
            "candidate": self.candidate_label,
            "verdict": c.verdict,
            "a_accuracy": c.a_accuracy,
            "b_accuracy": c.b_accuracy,
            "p_value": c.p_value,
            "fixed": c.fixed,
            "broken": c.broken,
            "cases": len(c.pairs),
            "passed": self.passed,
            "run_id": self.run_id,
        }


def run_gate(
    base: Side, candidate: Side, run: RunSides, *, outcome: str = "pipeline"
) -> GateResult:
    """Run both sides, compare them, and refuse a significant regression.

    Raises:
        GateError: the run produced no paired case to compare.
    """
    attempts = list(run([base, candidate]))
    a = [x for x in attempts if x.variant == base[0]]
    b = [x for x in attempts if x.variant == candidate[0]]
    report = build_report(a, b, a_label=base[0], b_label=candidate[0], outcome=outcome,
                          title=f"{candidate[0]} vs {base[0]}")  # fmt: skip
    comparison = report.comparison
    assert comparison is not None
    if not comparison.pairs:
        raise GateError(
            f"no case was scored on both {base[0]} and {candidate[0]} "
            f"({len(a)} and {len(b)} attempts); see `studio eval report` for the errors"
        )
    return GateResult(comparison.verdict != "worse", report, base[0], candidate[0])


def behavioural_lines(result: GateResult, diff: RegistryDiff | None = None) -> list[str]:
    """The behavioural section of ``studio diff --evals``: headline, flips, semver warning."""
    c = result.report.comparison
    assert c is not None
    lines = ["Behaviour (eval set):", f"  {comparison_sentence(c)}"]
    unchanged = len(c.pairs) - c.fixed - c.broken
    lines.append(
        f"  fixed {c.fixed}, broken {c.broken}, unchanged {unchanged}"
        f"; ~{c.cases_needed} cases would detect a 5-point change"
    )
    for p in c.flips[:20]:
        why = "; ".join(p.b_failures if p.status == "broken" else p.a_failures) or "—"
        lines.append(f"  {p.status:<6} {p.case_id}  {p.a_chosen} → {p.b_chosen}  ({why})")
    if len(c.flips) > 20:
        lines.append(f"  … and {len(c.flips) - 20} more flips")
    note = semver_note(result, diff)
    if note:
        lines.append(f"  ! {note}")
    return lines


def semver_note(result: GateResult, diff: RegistryDiff | None) -> str:
    """When a schema-compatible change broke cases, say so beside the suggested semver."""
    c = result.report.comparison
    if diff is None or c is None or diff.semver.level == "major" or not c.broken:
        return ""
    level = diff.semver.level
    if c.verdict == "worse":
        return (
            f"the suggested {level} bump treats this as compatible, but it broke {c.broken} "
            f"case(s) and is significantly worse ({pct(c.a_accuracy)} → {pct(c.b_accuracy)}): "
            "review it as a behavioural break"
        )
    return (
        f"the suggested {level} bump treats this as compatible, but it broke {c.broken} "
        f"case(s) (not significant at this set's size)"
    )


def _tty_progress(p: Any) -> None:
    """One updating line on a terminal's stderr while the gate's run goes."""
    end = "\n" if p.done >= p.total else ""
    print(f"\revals: {p.done}/{p.total} attempts ({p.cached} cached, {p.errors} errors)",
          end=end, file=sys.stderr, flush=True)  # fmt: skip


def runner_sides(
    store: RegistryStore,
    registry: str,
    set_name: str,
    profile_name: str,
    *,
    repeat: int = 1,
    concurrency: int = 4,
    client_factory: Any = None,
    on_progress: Callable[[Any], None] | None = None,
) -> RunSides:
    """A :data:`RunSides` that runs the stored eval set with the studio's eval runner.

    Set and profile are looked up first, so a typo fails before anything is sent.

    Raises:
        GateError: no such eval set or profile (with what exists).
    """
    from registry_db import NotFoundError
    from registry_db.profiles import ProfileRepository
    from studio.evals import EvalSetError
    from studio.evals.store import EvalStore

    try:
        eval_set = EvalStore(store).load(registry, set_name)
    except (NotFoundError, EvalSetError) as exc:
        names = ", ".join(s.name for s in EvalStore(store).summaries(registry)) or "none"
        raise GateError(f"{exc} (its sets: {names})") from None
    try:
        profile = ProfileRepository(store).get(profile_name)
    except NotFoundError:
        names = ", ".join(p.name for p in ProfileRepository(store).list_profiles()) or "none"
        raise GateError(f"no model profile {profile_name!r} (profiles: {names})") from None

    if on_progress is None and sys.stderr.isatty():
        on_progress = _tty_progress

    def run(sides: Sequence[Side]) -> Sequence[Attempt]:
        from studio.evals.runner import EvalRunError, EvalRunner, RunOptions
        from studio.evals.variants import Variant

        variants = [
            Variant(name, label, label, reg)
            for name, (label, reg) in zip("AB", sides, strict=False)
        ]
        runner = EvalRunner(
            store, registry, eval_set, variants, [profile],
            RunOptions(repeat=repeat, concurrency=concurrency),
            on_progress=on_progress, client_factory=client_factory,
        )  # fmt: skip
        try:
            summary = asyncio.run(runner.run())
        except EvalRunError as exc:
            raise GateError(str(exc)) from None
        return summary.attempts

    return run
