"""A report from attempts: metrics per variant × profile and, with two variants, A vs B.

This is the glue the CLI, the gates and the GUI share: it picks the two sides
out of one run (``--a/--b`` variants) or two runs, computes the metrics and the
comparison, and hands a :class:`Report` to :mod:`studio.evals.report` to render.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from studio.evals.metrics import Metrics, Price, compute_groups
from studio.evals.results import Attempt
from studio.evals.stats import Comparison, compare

if TYPE_CHECKING:
    from registry_db import RegistryStore


class CompareError(ValueError):
    """The attempts cannot be compared as asked (unknown variant, one variant only…)."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a report shows.

    Attributes:
        title: A line naming what was evaluated (registry, set, runs).
        attempts: Every attempt shown (A's then B's when compared).
        groups: Metrics per (variant, profile), A's groups first.
        comparison: A vs B, None for a run of one variant.
        outcome: Which outcome the comparison used (``pipeline`` by default).
    """

    title: str
    attempts: tuple[Attempt, ...]
    groups: Mapping[tuple[str, str], Metrics]
    comparison: Comparison | None = None
    outcome: str = "pipeline"
    notes: tuple[str, ...] = field(default=())


def variants_of(attempts: Iterable[Attempt]) -> list[str]:
    """The variants in first-seen order."""
    return list(dict.fromkeys(a.variant for a in attempts))


def split_variants(
    attempts: Sequence[Attempt], a: str | None = None, b: str | None = None
) -> tuple[list[Attempt], list[Attempt], str, str]:
    """Pick A's and B's attempts out of one run.

    Without names, a run of exactly two variants is split in the order they
    were run (the first is A).

    Raises:
        CompareError: a named variant is not in the run, or the run has not
            exactly two variants and none were named.
    """
    present = variants_of(attempts)
    if a is None and b is None:
        if len(present) != 2:
            listed = ", ".join(present) or "none"
            raise CompareError(
                f"the run has {len(present)} variant(s) ({listed}); name two with --a and --b"
            )
        a, b = present
    elif a is None or b is None:
        raise CompareError("give both --a and --b (or neither, for a run of two variants)")
    for name in (a, b):
        if name not in present:
            raise CompareError(
                f"variant {name!r} is not in the run; it has {', '.join(present) or 'none'}"
            )
    if a == b:
        raise CompareError(f"--a and --b name the same variant {a!r}")
    return [x for x in attempts if x.variant == a], [x for x in attempts if x.variant == b], a, b


def only_variant(attempts: Sequence[Attempt], name: str | None, run_id: str) -> list[Attempt]:
    """The attempts of one variant of a run (its only one when ``name`` is None)."""
    present = variants_of(attempts)
    if name is None:
        if len(present) > 1:
            raise CompareError(
                f"run {run_id} has {len(present)} variants ({', '.join(present)}); "
                "name the one to compare with --a/--b"
            )
        return list(attempts)
    if name not in present:
        raise CompareError(f"variant {name!r} is not in run {run_id}; it has {', '.join(present)}")
    return [x for x in attempts if x.variant == name]


def build_report(
    a: Sequence[Attempt],
    b: Sequence[Attempt] | None = None,
    *,
    title: str = "",
    a_label: str | None = None,
    b_label: str | None = None,
    prices: Mapping[str, Price] | None = None,
    outcome: str = "pipeline",
    notes: Sequence[str] = (),
) -> Report:
    """Metrics for every variant × profile and, when ``b`` is given, A vs B."""
    comparison = None
    attempts = list(a) + list(b or ())
    if b is not None:
        comparison = compare(
            a,
            b,
            a_label=a_label or _label(a, "A"),
            b_label=b_label or _label(b, "B"),
            outcome=outcome,
        )
    return Report(
        title=title,
        attempts=tuple(attempts),
        groups=compute_groups(attempts, prices),
        comparison=comparison,
        outcome=outcome,
        notes=tuple(notes),
    )


def _label(attempts: Sequence[Attempt], default: str) -> str:
    names = variants_of(attempts)
    return names[0] if len(names) == 1 else default


@dataclass(frozen=True, slots=True)
class LoadedRun:
    """A stored run's attempts (variant A's first), a title and the variants' role names.

    Attributes:
        attempts: In arrival order within a variant; the variants in the order
            the run was configured with (A, then B), so an unnamed split is A vs B.
        title: ``registry/set · run id``.
        roles: Role name → label (``{"A": "travel-reimbursement@1", …}``), so
            ``--a A --b B`` can name the sides of a run by their roles.
    """

    attempts: list[Attempt]
    title: str
    roles: dict[str, str]

    def label(self, name: str | None) -> str | None:
        """A variant named by its label or its role (``A``/``B``)."""
        if name is None:
            return None
        if any(a.variant == name for a in self.attempts):
            return name
        return self.roles.get(name, name)


def load_run(store: RegistryStore, run_id: str) -> LoadedRun:
    """A stored run, its variants in configured order.

    Raises:
        registry_db.NotFoundError: no run has that id.
    """
    from registry_db.eval_runs import EvalRunStore
    from studio.evals.runs import load_attempts

    run = EvalRunStore.for_store(store).get(run_id)
    attempts = load_attempts(store, run_id)
    roles: dict[str, str] = {}
    for variant in run.config.get("variants") or ():
        if isinstance(variant, dict) and variant.get("name") and variant.get("label"):
            roles[str(variant["name"])] = str(variant["label"])
    order = {label: i for i, label in enumerate(roles.values())}
    attempts.sort(key=lambda a: order.get(a.variant, len(order)))  # stable: arrival order kept
    return LoadedRun(attempts, f"{run.registry}/{run.set_name} · run {run_id}", roles)
