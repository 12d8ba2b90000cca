"""Security recall benchmark: poisoned-tool recall per category and the benign false-positive rate.

Run: ``python benchmarks/security_recall.py [--split heldout|tune|all] [--show-misses]``

The corpus is ``tests/data/security/`` (sources and licences in its README):
``poisoned.jsonl`` holds poisoned tools labelled with one attack category,
``benign.jsonl`` real tools from public corpora. Every record carries a
``split``: rules are tuned on ``tune``; the numbers to report are ``heldout``.

A poisoned tool counts as found when any rule of the ``security`` category
reports it, at warning or above (and, for the second column, at error). A
benign tool is a false positive when any security rule reports it at warning or
above. Each poisoned tool is linted in a registry of its own plus the sibling
tools its record names; benign tools are linted in registries of the tools of
their source group (one BFCL file, one MCP server…), as a real import would be.

Targets (issue #11): recall ≥ 95 % at warning or above, ≥ 90 % at error; false
positives ≤ 1 % of benign tools.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import studio.lint.rules  # noqa: F401 - registers every rule
from studio.contract import Registry, RegistrySettings, ToolContract
from studio.lint.model import RULES, LintContext, Rule, Scope, Severity

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "security"
TARGETS = {"recall_warning": 0.95, "recall_error": 0.90, "false_positive_rate": 0.01}


def load(name: str, split: str = "heldout") -> list[dict[str, Any]]:
    """Records of ``CORPUS/name`` in ``split`` (``all`` for every record)."""
    with (CORPUS / name).open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    return [r for r in records if split == "all" or r["split"] == split]


def to_tool(doc: dict[str, Any]) -> ToolContract:
    """A contract from a corpus record's ``tool`` (name, text blocks, parameters)."""
    fields = {k: v for k, v in doc.items() if k in ("description", "summary", "usage", "returns")}
    params = doc.get("parameters")
    return ToolContract(
        name=str(doc.get("name", "")),
        parameters=params if isinstance(params, dict) else {"type": "object", "properties": {}},
        **fields,
    )


def security_rules() -> list[Rule]:
    return [r for r in RULES.values() if r.category == "security" and r.scope is Scope.TOOL]


def worst(tool: ToolContract, ctx: LintContext, rules: Iterable[Rule]) -> tuple[int, list[str]]:
    """The highest severity rank any rule reports for ``tool`` (0: none) and what fired."""
    rank = 0
    fired: list[str] = []
    for rule in rules:
        for hit in rule.check(tool, ctx):  # type: ignore[arg-type]
            severity = hit.severity or rule.default_severity
            rank = max(rank, severity.rank)
            fired.append(f"{rule.id}[{severity}] {hit.path}: {hit.message}")
    return rank, fired


def _context(tools: tuple[ToolContract, ...]) -> LintContext:
    settings = RegistrySettings()
    return LintContext(Registry(name="corpus", settings=settings, tools=tools), settings, "openai")


@dataclass
class Score:
    """Counts of one category (or of all of them)."""

    total: int = 0
    warning: int = 0
    error: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, rank: int, label: str) -> None:
        self.total += 1
        self.warning += rank >= Severity.WARNING.rank
        self.error += rank >= Severity.ERROR.rank
        if rank < Severity.ERROR.rank:
            self.misses.append(f"{'warning' if rank else 'missed '} {label}")

    def rate(self, n: int) -> float:
        return n / self.total if self.total else 1.0


@dataclass
class Result:
    """Recall per category, overall recall and the false positives of one split."""

    categories: dict[str, Score]
    overall: Score
    benign_total: int
    false_positives: list[str]
    seconds: float

    @property
    def false_positive_rate(self) -> float:
        return len(self.false_positives) / self.benign_total if self.benign_total else 0.0


def _poisoned(records: list[dict[str, Any]], rules: list[Rule]) -> Iterator[tuple[str, int, str]]:
    for rec in records:
        tool = to_tool(rec["tool"])
        siblings = tuple(ToolContract(name=n) for n in rec.get("siblings", ()))
        rank, _ = worst(tool, _context((tool, *siblings)), rules)
        text = json.dumps(rec["tool"], ensure_ascii=False)[:110]
        yield rec["category"], rank, f"{rec['id']} {text}"


def _benign(records: list[dict[str, Any]], rules: list[Rule]) -> Iterator[str]:
    groups: dict[str, list[ToolContract]] = defaultdict(list)
    ids: dict[str, list[str]] = defaultdict(list)
    for rec in records:
        groups[rec["group"]].append(to_tool(rec["tool"]))
        ids[rec["group"]].append(rec["id"])
    for group, tools in groups.items():
        ctx = _context(tuple(tools))
        for rid, tool in zip(ids[group], tools, strict=True):
            rank, fired = worst(tool, ctx, rules)
            if rank >= Severity.WARNING.rank:
                yield f"{rid} {tool.name}: " + " | ".join(fired)[:300]


def evaluate(split: str = "heldout") -> Result:
    """Lint the corpus split with the security rules and count what they find."""
    rules = security_rules()
    start = time.perf_counter()
    categories: dict[str, Score] = defaultdict(Score)
    overall = Score()
    for category, rank, label in _poisoned(load("poisoned.jsonl", split), rules):
        categories[category].add(rank, label)
        overall.add(rank, label)
    benign = load("benign.jsonl", split)
    false_positives = list(_benign(benign, rules))
    seconds = time.perf_counter() - start
    return Result(dict(sorted(categories.items())), overall, len(benign), false_positives, seconds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    ap.add_argument("--show-misses", action="store_true", help="list misses and false positives")
    args = ap.parse_args(argv)
    result = evaluate(args.split)
    print(f"split: {args.split}   ({result.seconds:.2f} s)")
    print(f"{'category':<20} {'n':>4} {'warning+':>9} {'error':>9}")
    for name, score in [*result.categories.items(), ("ALL", result.overall)]:
        print(
            f"{name:<20} {score.total:>4} {score.rate(score.warning):>9.1%} "
            f"{score.rate(score.error):>9.1%}"
        )
    fp = result.false_positive_rate
    print(f"false positives: {len(result.false_positives)} of {result.benign_total} ({fp:.2%})")
    if args.show_misses:
        for line in result.overall.misses:
            print("  " + line)
        for line in result.false_positives:
            print("  FP " + line)
    failed = []
    if result.overall.rate(result.overall.warning) < TARGETS["recall_warning"]:
        failed.append("recall at warning+")
    if result.overall.rate(result.overall.error) < TARGETS["recall_error"]:
        failed.append("recall at error")
    if fp > TARGETS["false_positive_rate"]:
        failed.append("false-positive rate")
    for what in failed:
        print(f"under target: {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
