"""``studio eval compare|report|runs``: A vs B and the report of a stored run.

``studio eval runs REGISTRY`` lists the stored runs. ``studio eval compare RUN_A
RUN_B`` compares two runs (each of one variant, or pick with ``--a``/``--b``);
``studio eval compare --run RUN [--a V --b V]`` compares two variants of one run.
``studio eval report RUN`` reports a run (with the A vs B section when it holds
two variants). Both write ``--format
text|json|junit|md|html`` to stdout or ``--output FILE``.

Exit codes: 0 fine; 2 bad input (unknown run or variant, one line on stderr);
with ``--fail-on regression``, 3 when B is significantly worse than A (exact
McNemar, α 0.05); with ``--fail-on broken``, 4 when any case that passed on A
fails on B (for a one-variant report: when any case fails). ``--fail-on
never`` (the default) always exits 0 once the report is written.

Registered by :mod:`studio.cli.evals` through :func:`add_parsers`; everything
heavier than argparse is imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli.common import Subcommands, UsageError

if TYPE_CHECKING:
    from registry_db import RegistryStore
    from studio.evals.compare import LoadedRun, Report
    from studio.evals.metrics import Price
    from studio.evals.results import Attempt

FORMATS = ("text", "json", "junit", "md", "html")
FAIL_ON = ("regression", "broken", "never")
OUTCOMES = ("pipeline", "raw", "selection", "end_to_end")


def _common_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--a", metavar="VARIANT", help="the variant to take as A (the baseline)")
    p.add_argument("--b", metavar="VARIANT", help="the variant to take as B (the candidate)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--output", metavar="FILE", help="write the report here (default: stdout)")
    p.add_argument(
        "--fail-on", choices=FAIL_ON, default="never",
        help="exit 3 on a significant regression, or 4 when any case broke (default: never)",
    )  # fmt: skip
    p.add_argument(
        "--outcome", choices=OUTCOMES, default="pipeline",
        help="what counts as a pass for A vs B (default: pipeline, the arguments "
        "after the runtime's pipeline)",
    )  # fmt: skip
    p.add_argument(
        "--price", metavar="PROFILE=IN/OUT", action="append", default=[],
        help="price of a profile's tokens per million (e.g. gpt=2.5/10) for the cost estimate",
    )  # fmt: skip


def add_parsers(actions: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio eval compare``, ``report`` and ``runs`` under ``studio eval``."""
    p = actions.add_parser(
        "compare", parents=[common],
        help="A vs B: two runs, or two variants of one run (flips, McNemar, interval)",
    )  # fmt: skip
    p.add_argument("runs", metavar="RUN", nargs="*", help="RUN_A RUN_B (or use --run)")
    p.add_argument("--run", metavar="RUN", help="compare two variants of this one run")
    _common_options(p)
    p.set_defaults(handler=_cmd_compare)

    p = actions.add_parser("report", parents=[common], help="the report of a stored run")
    p.add_argument("run", metavar="RUN")
    _common_options(p)
    p.set_defaults(handler=_cmd_report)

    p = actions.add_parser("runs", parents=[common], help="a registry's stored eval runs")
    p.add_argument("registry", metavar="REGISTRY")
    p.set_defaults(handler=_cmd_runs)


def _cmd_runs(store: RegistryStore, args: argparse.Namespace) -> int:
    """One line per run, newest first: id, set, status, attempts, when, variants."""
    from studio.evals.runs import list_runs

    runs = list_runs(store, args.registry)
    if not runs:
        print(f"{args.registry} has no eval runs (studio eval run {args.registry} SET …)")
    for run in runs:
        variants = run.config.get("variants") or []
        labels = " vs ".join(
            str(v.get("label", "?")) for v in variants if isinstance(v, dict)
        )  # fmt: skip
        print(f"{run.run_id}\t{run.set_name}\t{run.status}\t{run.attempt_count} attempts\t"
              f"{run.created_at}\t{labels}")  # fmt: skip
    return 0


def _prices(values: list[str]) -> dict[str, Price]:
    from studio.evals.metrics import parse_price

    prices = {}
    for value in values:
        try:
            name, price = parse_price(value)
        except ValueError as exc:
            raise UsageError(f"--price: {exc}") from None
        prices[name] = price
    return prices


def _cmd_compare(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.compare import CompareError, build_report, only_variant
    from studio.evals.compare import split_variants as split

    prices = _prices(args.price)
    try:
        if args.run is not None:
            if args.runs:
                raise UsageError("give either --run RUN or RUN_A RUN_B, not both")
            run = _load(store, args.run)
            a, b, _, _ = split(run.attempts, run.label(args.a), run.label(args.b))
            title = run.title
        elif len(args.runs) == 2:
            run_a, run_b = (_load(store, run_id) for run_id in args.runs)
            a = only_variant(run_a.attempts, run_a.label(args.a), args.runs[0])
            b = only_variant(run_b.attempts, run_b.label(args.b), args.runs[1])
            if {x.variant for x in a} & {x.variant for x in b}:
                # The same variant measured twice (e.g. the draft before and after an
                # edit): the run ids tell the two sides apart in the report.
                a = _relabel(a, args.runs[0])
                b = _relabel(b, args.runs[1])
            title = f"{run_a.title} vs run {args.runs[1]}"
        else:
            raise UsageError("compare needs RUN_A RUN_B, or --run RUN (with --a and --b)")
        report = build_report(a, b, title=title, prices=prices, outcome=args.outcome)
    except CompareError as exc:
        raise UsageError(str(exc)) from None
    return _emit(report, args)


def _relabel(attempts: list[Attempt], run_id: str) -> list[Attempt]:
    import dataclasses

    return [dataclasses.replace(a, variant=f"{a.variant} (run {run_id})") for a in attempts]


def _cmd_report(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.compare import (
        CompareError,
        build_report,
        split_variants,
        variants_of,
    )

    prices = _prices(args.price)
    run = _load(store, args.run)
    attempts, title = run.attempts, run.title
    try:
        if args.a or args.b or len(variants_of(attempts)) == 2:
            a, b, _, _ = split_variants(attempts, run.label(args.a), run.label(args.b))
            report = build_report(a, b, title=title, prices=prices, outcome=args.outcome)
        else:
            report = build_report(attempts, title=title, prices=prices, outcome=args.outcome)
    except CompareError as exc:
        raise UsageError(str(exc)) from None
    return _emit(report, args)


def _load(store: RegistryStore, run_id: str) -> LoadedRun:
    """The stored run ``run_id`` with its attempts; UsageError when unknown or empty."""
    from registry_db import NotFoundError
    from studio.evals.compare import load_run

    try:
        run = load_run(store, run_id)
    except NotFoundError as exc:
        raise UsageError(str(exc)) from None
    if not run.attempts:
        raise UsageError(f"eval run {run_id!r} has no attempts yet")
    return run


def _emit(report: Report, args: argparse.Namespace) -> int:
    from studio.evals.gates import EXIT_BROKEN, EXIT_REGRESSION
    from studio.evals.report import render
    from studio.formats.base import one_line

    text = render(report, args.format)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {one_line(args.output)}: {exc.strerror}") from None
        print(f"wrote {one_line(args.output)}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return fail_code(report, args.fail_on, EXIT_REGRESSION, EXIT_BROKEN)


def fail_code(report: Report, fail_on: str, regression: int, broken: int) -> int:
    """The exit code ``--fail-on`` asks for, given the report."""
    c = report.comparison
    if fail_on == "regression" and c is not None and c.verdict == "worse":
        return regression
    if fail_on == "broken":
        if c is not None and c.broken:
            return broken
        if c is None and any(
            a.scored and a.pipeline is not None and not a.pipeline.passed for a in report.attempts
        ):
            return broken
    return 0
