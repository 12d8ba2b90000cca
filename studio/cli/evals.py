"""``studio eval``: a registry's eval sets (list, show, import, export), discoverability and
the checklist of confusable pairs no case tells apart.

Exit codes follow :mod:`studio.cli`: 0 fine; 2 on bad input (an eval set that
does not validate is reported one problem a line, ``file: line 4:
expect.calls[0].tool: …``, and nothing is stored); ``discover --fail-under R``
exits 1 when recall@5 is below R or a tool no case finds.

Everything past argument parsing (the evals package, numpy for BM25) is
imported only when a command runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import Subcommands, UsageError

if TYPE_CHECKING:
    from registry_db import RegistryStore
    from studio.contract import Registry
    from studio.evals import EvalCase, EvalSet
    from studio.evals.discover import Discoverability


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio eval``: sets, show, import, export, discover, run, from-sessions,
    and compare/report when their module is present."""
    p = sub.add_parser("eval", parents=[common], help="eval sets and tool discoverability")
    actions = p.add_subparsers(dest="eval_command", metavar="ACTION", required=True)
    pa = actions.add_parser("sets", parents=[common], help="list a registry's eval sets")
    pa.add_argument("registry", metavar="REGISTRY")
    pa = actions.add_parser("show", parents=[common], help="the cases of a set")
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("set", metavar="SET")
    pa.add_argument("--case", metavar="ID", help="one case, as JSON")
    pa.add_argument("--raw", action="store_true", help="the set's JSONL text, byte for byte")
    pa = actions.add_parser(
        "import", parents=[common],
        help="import a .jsonl file, or every evals/<set>.jsonl of a registry folder",
    )  # fmt: skip
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("path", metavar="FILE|FOLDER")
    pa.add_argument("--name", metavar="SET", help="set name for a file (default: its stem)")
    pa.add_argument("--replace", action="store_true", help="overwrite sets that exist")
    pa.add_argument(
        "--format", choices=("jsonl", "bfcl"), default="jsonl",
        help="bfcl: a BFCL question file (simple, multiple, irrelevance…); its functions "
        "become tools of the registry's draft (the registry is created if needed)",
    )  # fmt: skip
    pa.add_argument(
        "--answers", metavar="FILE",
        help="with --format bfcl: the category's possible_answer file (its ground truth)",
    )  # fmt: skip
    pa = actions.add_parser(
        "export", parents=[common], help="write sets to FOLDER/evals/<set>.jsonl (or stdout)"
    )
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("--out", metavar="FOLDER", required=True, help="a registry folder, or -")
    pa.add_argument("--set", metavar="SET", help="only this set (required with --out -)")
    pa = actions.add_parser(
        "discover", parents=[common],
        help="BM25 rank of each case's expected tool (no model, no key)",
    )  # fmt: skip
    _add_selection(pa)
    pa.add_argument(
        "--parameters", action="store_true",
        help="also index parameter names and descriptions",
    )  # fmt: skip
    pa.add_argument("--json", action="store_true", help="the report as JSON")
    pa.add_argument(
        "--fail-under", metavar="R", type=float,
        help="exit 1 when recall@5 is below R (0-1) or a tool no case finds",
    )  # fmt: skip
    pa = actions.add_parser(
        "checklist", parents=[common],
        help="confusable tool pairs (from the linter) that no case tells apart",
    )  # fmt: skip
    _add_selection(pa)
    pa.add_argument("--json", action="store_true", help="the checklist as JSON")
    pa.add_argument("--fail", action="store_true", help="exit 1 when a pair has a gap")
    _add_run_parsers(actions, common)
    try:  # compare and report live in their own module (another part of the evals work)
        evals_compare = importlib.import_module("studio.cli.evals_compare")
    except ImportError:
        pass
    else:
        evals_compare.add_parsers(actions, common)
    p.set_defaults(handler=_cmd_eval)


def _add_selection(pa: argparse.ArgumentParser) -> None:
    """REGISTRY, ``--set`` and ``--version``: what discover and checklist look at (see
    :func:`_selection`)."""
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("--set", metavar="SET", help="only this set (default: all)")
    pa.add_argument("--version", default="draft", help="draft (default) or a version number")


def _add_run_parsers(actions: Any, common: argparse.ArgumentParser) -> None:
    """``studio eval run`` and ``studio eval from-sessions``."""
    pa = actions.add_parser(
        "run", parents=[common],
        help="send every case to a model for variant A (and B) and store the scored attempts",
    )  # fmt: skip
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("set", metavar="SET")
    pa.add_argument(
        "--a", metavar="VARIANT", required=True,
        help="draft, a version number (3), a semver (1.2.0) or a channel (#stable)",
    )  # fmt: skip
    pa.add_argument("--b", metavar="VARIANT", help="a second variant to compare with A")
    pa.add_argument("--profile", metavar="NAME", action="append", required=True,
                    help="model profile (repeatable)")  # fmt: skip
    pa.add_argument("--repeat", metavar="K", type=int, default=1,
                    help="send every case K times (pass^k, pass@k); default 1")  # fmt: skip
    pa.add_argument("--concurrency", metavar="N", type=int, default=4,
                    help="requests in flight at once; default 4")  # fmt: skip
    pa.add_argument(
        "--budget-requests", metavar="N", type=int,
        help="send at most N requests (cached answers are free); the rest is skipped",
    )  # fmt: skip
    pa.add_argument("--budget-tokens", metavar="N", type=int,
                    help="stop sending once N tokens (in + out) were used")  # fmt: skip
    pa.add_argument(
        "--no-cache", action="store_true", help="neither read nor fill the response cache"
    )
    pa.add_argument("--run-id", metavar="ID", help="resume this run (or name a new one)")
    pa.add_argument(
        "--multi-step", action="store_true",
        help="play whole conversations on the stored mocks (end-to-end, grounding)",
    )  # fmt: skip
    pa.add_argument("--json", action="store_true", help="the summary as JSON on stdout")
    pa.add_argument("--quiet", action="store_true", help="no progress on stderr")
    pa = actions.add_parser(
        "from-sessions", parents=[common],
        help="make cases from stored sessions: each user turn that led to tool calls",
    )  # fmt: skip
    pa.add_argument("registry", metavar="REGISTRY")
    pa.add_argument("set", metavar="SET")
    pa.add_argument(
        "--session", metavar="ID", action="append", default=[],
        help="only this session (repeatable; default: all of the registry)",
    )  # fmt: skip
    pa.add_argument("--replace", action="store_true", help="overwrite the set if it exists")
    pa.add_argument("--append", action="store_true", help="add to the set if it exists")


def _cmd_eval(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals import EvalSetError

    handlers = {
        "sets": _sets,
        "show": _show,
        "import": _import,
        "export": _export,
        "discover": _discover,
        "checklist": _checklist,
        "run": _run,
        "from-sessions": _from_sessions,
    }
    handler = handlers.get(args.eval_command)
    if handler is None:  # compare, report: studio.cli.evals_compare
        return _dispatch_compare(store, args)
    try:
        return handler(store, args)
    except EvalSetError as exc:
        _print_problems(exc, exc.name)
        return 2


def _dispatch_compare(store: RegistryStore, args: argparse.Namespace) -> int:
    """Hand ``compare``/``report`` to studio.cli.evals_compare (``handle`` or ``cmd_<action>``)."""
    evals_compare = importlib.import_module("studio.cli.evals_compare")
    action = str(args.eval_command).replace("-", "_")
    for name in ("handle", f"cmd_{action}", f"_cmd_{action}", f"run_{action}", f"_{action}"):
        fn = getattr(evals_compare, name, None)
        if callable(fn):
            return int(fn(store, args))
    raise UsageError(f"studio eval {args.eval_command} is not available in this build")


def _print_problems(exc: Any, shown: str) -> None:
    print(f"studio: eval set {shown} does not load:", file=sys.stderr)
    for problem in exc.problems:
        print(f"  {shown}: {problem}", file=sys.stderr)


def _sets(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.store import EvalStore

    for s in EvalStore(store).summaries(args.registry):
        print(f"{s.name}\t{s.case_count} cases\trevision {s.revision}\t{s.updated_at}")
    return 0


def _expectation(case: Any) -> str:
    expect = case.expect
    if expect.kind in ("no_tool", "ask"):
        return expect.kind
    joiner = " → " if expect.order == "sequence" else " + "
    return joiner.join(expect.tools)


def _show(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals import case_to_json
    from studio.evals.store import EvalStore

    evals = EvalStore(store)
    if args.raw:
        sys.stdout.write(evals.stored(args.registry, args.set).text)
        return 0
    loaded = evals.load(args.registry, args.set)
    if args.case:
        try:
            case = loaded.case(args.case)
        except KeyError:
            raise UsageError(f"eval set {args.set!r} has no case {args.case!r}") from None
        print(json.dumps(case_to_json(case), ensure_ascii=False, indent=2))
        return 0
    for case in loaded.cases:
        tags = ",".join(case.tags)
        avoid = f"  (not {', '.join(case.must_not)})" if case.must_not else ""
        print(f"{case.id}\t{_expectation(case)}{avoid}\t{tags}\t{case.user}")
    return 0


def _read_sets(path: Path, name: str | None) -> dict[str, str]:
    from studio.formats import FormatError
    from studio.formats.files import read_text
    from studio.formats.folder import read_eval_sets

    try:
        if path.is_dir():
            if name:
                raise UsageError("--name applies to a file; a folder's sets keep their names")
            sets = read_eval_sets(path)
            if not sets:
                raise UsageError(f"{path}: no evals/<set>.jsonl files")
            return sets
        return {name or path.name.removesuffix(".jsonl"): read_text(path, str(path))}
    except FormatError as exc:
        raise UsageError(str(exc)) from None


def _set_file(path: Path, name: str) -> str:
    """How messages name set ``name`` read from ``path`` (a file, or a registry folder)."""
    return str(path / "evals" / f"{name}.jsonl") if path.is_dir() else str(path)


def _import(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals import EvalSetError, parse_set
    from studio.evals.check import check_against_registry
    from studio.evals.store import EvalStore

    path = Path(args.path)
    if args.format == "bfcl":
        return _import_bfcl(store, args, path)
    if args.answers:
        raise UsageError("--answers goes with --format bfcl")
    sets = _read_sets(path, args.name)
    evals = EvalStore(store)
    existing = set(s.name for s in evals.summaries(args.registry))
    parsed: list[EvalSet] = []
    failed = False
    # Every set is checked before any is stored: a bad file stores nothing.
    for name, text in sets.items():
        try:
            parsed.append(parse_set(name, text))
        except EvalSetError as exc:
            _print_problems(exc, _set_file(path, name))
            failed = True
    if failed:
        return 2
    # Against the draft: warnings only (a set may be written ahead of its tools).
    registry = store.draft_registry(args.registry)
    for loaded in parsed:
        shown = _set_file(path, loaded.name)
        for problem in check_against_registry(loaded, registry):
            print(f"studio: warning: {shown}: {problem}", file=sys.stderr)
    clash = sorted(s.name for s in parsed if s.name in existing)
    if clash and not args.replace:
        raise UsageError(
            f"{args.registry} already has eval set(s) {', '.join(clash)}; --replace overwrites"
        )
    for loaded in parsed:
        evals.save_text(args.registry, loaded.name, loaded.text)
        print(f"imported {args.registry}/{loaded.name}: {len(loaded.cases)} cases")
    return 0


def _import_bfcl(store: RegistryStore, args: argparse.Namespace, path: Path) -> int:
    """``--format bfcl``: cases from a BFCL question file; its functions join the draft."""
    from registry_db import NotFoundError, UpsertTool
    from studio.evals import check_set_name
    from studio.evals.bfcl import BfclError, read_bfcl
    from studio.evals.store import EvalStore
    from studio.formats import FormatError, import_text
    from studio.formats.files import read_text

    try:
        questions = read_text(path, str(path))
        answers = read_text(Path(args.answers), args.answers) if args.answers else None
        loaded = read_bfcl(questions, answers, questions_source=str(path),
                           answers_source=str(args.answers or ""))  # fmt: skip
    except (FormatError, BfclError) as exc:
        raise UsageError(str(exc)) from None
    name = args.name or path.name.removesuffix(".jsonl").removesuffix(".json").lower()
    name = name.replace("bfcl_v3_", "bfcl-").replace("bfcl_v2_", "bfcl-")
    problem = check_set_name(name)
    if problem:
        raise UsageError(f"{problem} (choose one with --name)")
    evals = EvalStore(store)
    try:
        existing = {s.name for s in evals.summaries(args.registry)}
    except NotFoundError:
        existing = set()
    if name in existing and not args.replace:
        raise UsageError(f"{args.registry} already has eval set {name}; --replace overwrites")
    try:
        tools = import_text(json.dumps(loaded.tools), "openai", name=args.registry).registry
    except FormatError as exc:
        raise UsageError(f"{path}: its functions do not import: {exc}") from None
    try:
        draft = store.draft_registry(args.registry)
    except NotFoundError:
        store.import_registry(tools)
        added = len(tools.tools)
    else:
        have = {t.name for t in draft.tools}
        new = [UpsertTool(t) for t in tools.tools if t.name not in have]
        store.save_draft(args.registry, new)
        added = len(new)
    for note in loaded.notes:
        print(f"studio: warning: {note}", file=sys.stderr)
    evals.save_cases(args.registry, name, loaded.cases)
    print(
        f"imported {args.registry}/{name}: {len(loaded.cases)} BFCL cases "
        f"({', '.join(loaded.categories)}); {added} tool(s) added to the draft"
    )
    return 0


def _export(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.store import EvalStore
    from studio.formats import FormatError
    from studio.formats.folder import write_eval_sets

    evals = EvalStore(store)
    if args.out == "-":
        if not args.set:
            raise UsageError("--out - writes one set: name it with --set")
        sys.stdout.write(evals.stored(args.registry, args.set).text)
        return 0
    names = [args.set] if args.set else [s.name for s in evals.summaries(args.registry)]
    sets = {n: evals.stored(args.registry, n).text for n in names}
    if not sets:
        raise UsageError(f"{args.registry} has no eval sets")
    try:
        written = write_eval_sets(sets, Path(args.out))
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    for rel in written:
        print(f"wrote {Path(args.out) / rel}")
    return 0


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def _report_json(report: Discoverability) -> dict[str, Any]:
    return {
        "recall": {f"@{k}": report.recall(k) for k in (1, 3, 5)},
        "tools": [
            {
                "tool": t.tool,
                "cases": t.cases,
                "recall": {f"@{k}": v for k, v in t.recall.items()},
                "mean_rank": t.mean_rank,
            }
            for t in report.tools
        ],
        "unfound": list(report.unfound),
        "untested": list(report.untested),
        "cases": [
            {"case": r.case_id, "tool": r.tool, "rank": r.rank, "top": list(r.top)}
            for r in report.ranks
        ],
    }


def _selection(store: RegistryStore, args: argparse.Namespace) -> tuple[Registry, list[EvalCase]]:
    """The registry at ``--version`` and the cases of ``--set`` (default: of every set)."""
    from studio.cli.common import load_registry
    from studio.evals.store import EvalStore

    evals = EvalStore(store)
    sets = [evals.load(args.registry, args.set)] if args.set else evals.load_all(args.registry)
    cases = [case for s in sets for case in s.cases]
    return load_registry(store, args.registry, args.version), cases


def _checklist(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.checklist import pair_coverage

    registry, cases = _selection(store, args)
    pairs = pair_coverage(registry, cases)
    gaps = [p for p in pairs if not p.covered]
    if args.json:
        rows = [
            {"a": p.a, "b": p.b, "score": round(p.score, 3), "why": p.why,
             "a_cases": list(p.a_cases), "b_cases": list(p.b_cases), "gap": p.gap()}
            for p in pairs
        ]  # fmt: skip
        print(json.dumps({"pairs": rows, "gaps": len(gaps)}, ensure_ascii=False, indent=2))
    elif not pairs:
        print("the linter finds no confusable pair of tools")
    else:
        for p in pairs:
            mark = "ok " if p.covered else "gap"
            detail = p.gap() or f"{len(p.a_cases)} case(s) / {len(p.b_cases)} case(s)"
            print(f"{mark}\t{p.a} ~ {p.b}\t{p.score:.2f}\t{detail}\t({p.why})")
        print(f"{len(gaps)} of {len(pairs)} confusable pair(s) without a case each way")
    return 1 if args.fail and gaps else 0


def _discover(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.discover import discoverability

    registry, cases = _selection(store, args)
    report = discoverability(registry, cases, parameters=args.parameters)
    if args.json:
        print(json.dumps(_report_json(report), ensure_ascii=False, indent=2))
    else:
        print("tool\tcases\trecall@3\trecall@5\tmean rank (found)")
        for t in report.tools:
            mean = "-" if t.mean_rank is None else f"{t.mean_rank:.2f}"
            print(f"{t.tool}\t{t.cases}\t{_percent(t.recall[3])}\t{_percent(t.recall[5])}\t{mean}")
        print(
            f"all\t{len(report.ranks)}\t{_percent(report.recall(3))}\t{_percent(report.recall(5))}"
        )
        for name in report.unfound:
            print(f"no case finds {name} within the top 5")
        for name in report.untested:
            print(f"no case expects {name}")
        for r in report.ranks:
            if not r.found_within(5):
                where = "not found" if r.rank is None else f"rank {r.rank}"
                print(f"  {r.case_id}: {r.tool} {where}; top: {', '.join(r.top) or 'nothing'}")
    if args.fail_under is not None:
        recall = report.recall(5)
        if report.unfound or (recall is not None and recall < args.fail_under):
            return 1
    return 0


# ---------------------------------------------------------------- registry folders
# `studio import DIR` and `studio export --format dir` carry the folder's eval sets.


def read_folder_sets(path: Path) -> list[EvalSet]:
    """The validated eval sets of a registry folder (none without ``evals/``).

    Raises:
        UsageError: a set does not load (its problems with line and JSON path).
    """
    from studio.evals import EvalSetError, parse_set
    from studio.formats import FormatError
    from studio.formats.folder import read_eval_sets

    try:
        return [parse_set(n, t) for n, t in read_eval_sets(path).items()]
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    except EvalSetError as exc:
        raise UsageError(f"evals/{exc.name}.jsonl: {'; '.join(map(str, exc.problems))}") from None


def store_folder_sets(store: RegistryStore, registry: str, sets: list[EvalSet]) -> None:
    """Store sets read by :func:`read_folder_sets` (a set of the same name is replaced)."""
    from studio.evals.store import EvalStore

    evals = EvalStore(store)
    for loaded in sets:
        evals.save_text(registry, loaded.name, loaded.text)
        print(f"imported eval set {loaded.name}: {len(loaded.cases)} cases")


def export_folder_sets(store: RegistryStore, registry: str, out: Path) -> None:
    """Write the registry's eval sets into the exported folder ``out``."""
    from studio.evals.store import EvalStore
    from studio.formats import FormatError
    from studio.formats.folder import write_eval_sets

    evals = EvalStore(store)
    sets = {s.name: evals.stored(registry, s.name).text for s in evals.summaries(registry)}
    if not sets:
        return
    try:
        written = write_eval_sets(sets, out)
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {len(written)} eval set(s) into {out / 'evals'}", file=sys.stderr)


# ---------------------------------------------------------------- run


def _progress_printer(quiet: bool) -> Any:
    """A progress callback for stderr: one updating line on a terminal (~10 a second),
    a plain line every 5 s otherwise (CI logs), and always the last one."""
    import time

    tty = sys.stderr.isatty()
    every = 0.1 if tty else 5.0
    last = [time.monotonic()]

    def show(p: Any) -> None:
        now = time.monotonic()
        if quiet or (now - last[0] < every and p.done < p.total):
            return
        last[0] = now
        line = (
            f"{p.done}/{p.total} attempts: {p.scored} scored, {p.cached} cached, "
            f"{p.errors} errors, {p.skipped} skipped; {p.requests} requests"
            + (f" ({p.retries} retried)" if p.retries else "")
            + ", "
            f"{p.tokens_in + p.tokens_out} tokens"
        )
        if tty:
            end = "\n" if p.done >= p.total else ""
            print(f"\r{line}", end=end, file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    return show


def _run(store: RegistryStore, args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    import signal

    from registry_db.profiles import ProfileRepository
    from studio.evals.runner import EvalRunError, EvalRunner, RunOptions, selection_accuracy
    from studio.evals.store import EvalStore
    from studio.evals.variants import VariantError, resolve_variant

    for flag, value in (("--repeat", args.repeat), ("--concurrency", args.concurrency),
                        ("--budget-requests", args.budget_requests),
                        ("--budget-tokens", args.budget_tokens)):  # fmt: skip
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be at least 1, not {value}")
    eval_set = EvalStore(store).load(args.registry, args.set)
    try:
        variants = [resolve_variant(store, args.registry, args.a, "A")]
        if args.b:
            variants.append(resolve_variant(store, args.registry, args.b, "B"))
    except VariantError as exc:
        raise UsageError(str(exc)) from None
    if len(variants) == 2 and variants[0].label == variants[1].label:
        raise UsageError(
            f"--a and --b both name {variants[0].label}; compare two different variants"
        )
    repo = ProfileRepository(store)
    profiles = [repo.get(name) for name in dict.fromkeys(args.profile)]
    options = RunOptions(
        repeat=args.repeat, concurrency=args.concurrency, budget_requests=args.budget_requests,
        budget_tokens=args.budget_tokens, use_cache=not args.no_cache, multi_step=args.multi_step,
    )  # fmt: skip
    runner = EvalRunner(store, args.registry, eval_set, variants, profiles, options,
                        run_id=args.run_id, on_progress=_progress_printer(args.quiet))  # fmt: skip

    async def go() -> Any:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows, threads
            loop.add_signal_handler(signal.SIGINT, runner.cancel)
        return await runner.run()

    try:
        summary = asyncio.run(go())
    except EvalRunError as exc:
        raise UsageError(str(exc)) from None
    accuracy = selection_accuracy(summary.attempts)
    if args.json:
        out = {
            "run_id": summary.run_id, "status": summary.status, "budget": summary.budget_stop,
            "variants": accuracy, "requests": summary.progress.requests,
            "cached": summary.progress.cached,
        }  # fmt: skip
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(f"run {summary.run_id}: {summary.status}"
              + (f" ({summary.budget_stop})" if summary.budget_stop else ""))  # fmt: skip
        multi = any("end_to_end" in row for row in accuracy.values())
        print("variant\tscored\tselection\targs raw\targs after pipeline"
              + ("\tend-to-end" if multi else "") + "\tskipped\terrors")  # fmt: skip
        for label, row in accuracy.items():
            cells = [label, str(row["scored"])]
            cells += [_percent(float(row[k])) for k in ("selection", "raw", "pipeline")]
            if multi:
                cells.append(_percent(float(row.get("end_to_end", 0.0))))
            cells += [str(row["skipped"]), str(row["errors"])]
            print("\t".join(cells))
        if any(c.expect.skills for c in eval_set.cases):  # issue #18: loads, violations
            from studio.evals.skills import format_skill_report, skill_report

            rows = skill_report(summary.attempts, {c.id: c for c in eval_set.cases},
                                [v.registry for v in variants])  # fmt: skip
            # In the run's order (A, then B), whatever order the answers arrived in.
            order = {v.label: i for i, v in enumerate(variants)}
            rows.sort(key=lambda r: order.get(r.variant, len(order)))
            print("skills: " + format_skill_report(rows).replace("\n", "\nskills: "))
        p = summary.progress
        print(f"{p.requests} requests sent, {p.cached} answers from the cache, "
              f"{p.resumed} attempts kept from before")  # fmt: skip
        print(f"the full report: studio eval report {summary.run_id}")
    if summary.status == "cancelled":
        print(f"studio: cancelled; run the same --run-id {summary.run_id} to resume",
              file=sys.stderr)  # fmt: skip
        return 130
    errors = [a for a in summary.attempts if a.status == "error"]
    if errors:
        first = errors[0]
        print(
            f"studio: {len(errors)} attempt(s) failed (first: {first.case_id}: {first.error}); "
            "run the same --run-id to retry them",
            file=sys.stderr,
        )
        return 1
    return 0


def _from_sessions(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.evals.from_sessions import cases_from_sessions
    from studio.evals.store import EvalStore

    evals = EvalStore(store)
    existing = {s.name for s in evals.summaries(args.registry)}
    if args.set in existing and not (args.replace or args.append):
        raise UsageError(
            f"{args.registry} already has eval set {args.set}; "
            "--append adds to it, --replace overwrites"
        )
    before = list(evals.load(args.registry, args.set).cases) if (
        args.append and args.set in existing) else []  # fmt: skip
    made = cases_from_sessions(store, args.registry, args.session or None, existing=before)
    if not made.sessions:
        raise UsageError(f"{args.registry} has no stored sessions (record some in the Playground, "
                         "studio run, the proxy, or studio sessions import)")  # fmt: skip
    if not made.cases:
        if made.merged:
            raise UsageError(
                f"the {made.merged} user turn(s) with tool calls are already cases of "
                f"{args.set}; nothing stored"
            )
        raise UsageError(
            f"no user turn of the {len(made.sessions)} session(s) read led to tool calls; "
            "nothing stored"
        )
    evals.save_cases(args.registry, args.set, [*before, *made.cases])
    print(
        f"{args.registry}/{args.set}: {len(made.cases)} case(s) from "
        f"{len(made.sessions)} session(s) ({made.merged} duplicate turn(s) merged)"
    )
    return 0
