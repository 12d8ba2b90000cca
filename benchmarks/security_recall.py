"""Security recall benchmark: poisoned-tool recall per category and the benign false-positive rate.

Run: ``python benchmarks/security_recall.py [--split heldout|tune|all] [--batch FILE]
[--show-misses] [--learned]`` (``--learned`` adds the opt-in learned detector).

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
import re
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
    """Recall per category and language, overall recall and the false positives of one batch."""

    name: str
    categories: dict[str, Score]
    languages: dict[str, Score]
    overall: Score
    benign_total: int
    false_positives: list[str]
    benign_languages: dict[str, tuple[int, int]]
    """Per language: (benign tools, false positives)."""
    seconds: float

    @property
    def false_positive_rate(self) -> float:
        return len(self.false_positives) / self.benign_total if self.benign_total else 0.0

    def under_target(self) -> list[str]:
        """The targets this batch misses (recall needs poisoned records, FP benign ones)."""
        failed = []
        overall = self.overall
        if overall.total and overall.rate(overall.warning) < TARGETS["recall_warning"]:
            failed.append("recall at warning+")
        if overall.total and overall.rate(overall.error) < TARGETS["recall_error"]:
            failed.append("recall at error")
        if self.false_positive_rate > TARGETS["false_positive_rate"]:
            failed.append("false-positive rate")
        for lang, (total, flagged) in self.benign_languages.items():
            if total and flagged / total > TARGETS["false_positive_rate"]:
                failed.append(f"false-positive rate ({lang})")
        return failed


_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def language(rec: dict[str, Any]) -> str:
    """A record's language: its ``lang``, else ``zh`` when its tool holds a CJK character."""
    lang = rec.get("lang")
    if isinstance(lang, str):
        return lang
    return "zh" if _CJK.search(json.dumps(rec["tool"], ensure_ascii=False)) else "en"


def _poisoned(
    records: list[dict[str, Any]], rules: list[Rule]
) -> Iterator[tuple[dict[str, Any], int, str]]:
    for rec in records:
        tool = to_tool(rec["tool"])
        siblings = tuple(ToolContract(name=n) for n in rec.get("siblings", ()))
        rank, _ = worst(tool, _context((tool, *siblings)), rules)
        text = json.dumps(rec["tool"], ensure_ascii=False)[:110]
        yield rec, rank, f"{rec['id']} {text}"


def _benign(
    records: list[dict[str, Any]], rules: list[Rule]
) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Each benign record with what fired on it (None: nothing at warning or above)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for rec in records:
        groups[rec["group"]].append(rec)
    for recs in groups.values():
        tools = tuple(to_tool(rec["tool"]) for rec in recs)
        ctx = _context(tools)
        for rec, tool in zip(recs, tools, strict=True):
            rank, fired = worst(tool, ctx, rules)
            flagged = rank >= Severity.WARNING.rank
            yield rec, (f"{rec['id']} {tool.name}: " + " | ".join(fired)[:300]) if flagged else None


def measure(name: str, poisoned: list[dict[str, Any]], benign: list[dict[str, Any]]) -> Result:
    """Lint poisoned and benign records with the security rules and count what they find."""
    rules = security_rules()
    start = time.perf_counter()
    categories: dict[str, Score] = defaultdict(Score)
    languages: dict[str, Score] = defaultdict(Score)
    overall = Score()
    for rec, rank, label in _poisoned(poisoned, rules):
        categories[rec["category"]].add(rank, label)
        languages[language(rec)].add(rank, label)
        overall.add(rank, label)
    false_positives: list[str] = []
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rec, fired in _benign(benign, rules):
        counts = by_lang[language(rec)]
        counts[0] += 1
        if fired:
            counts[1] += 1
            false_positives.append(fired)
    return Result(
        name,
        dict(sorted(categories.items())),
        dict(sorted(languages.items())),
        overall,
        len(benign),
        false_positives,
        {lang: (n, fp) for lang, (n, fp) in sorted(by_lang.items())},
        time.perf_counter() - start,
    )


def evaluate(split: str = "heldout") -> Result:
    """The main corpus (``poisoned.jsonl``, ``benign.jsonl``) in ``split``."""
    return measure(split, load("poisoned.jsonl", split), load("benign.jsonl", split))


def evaluate_batch(path: Path) -> Result:
    """A batch file: poisoned and benign records in one JSON-lines file (``label``)."""
    with path.open(encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    poisoned = [r for r in records if r.get("label") == "poisoned"]
    benign = [r for r in records if r.get("label") == "benign"]
    return measure(path.name, poisoned, benign)


def batches(probes: bool = True) -> list[Path]:
    """The fresh batch files of the corpus, oldest first.

    ``heldout_*.jsonl`` batches were measured once and then tuned on (the tests
    assert the targets on them); ``probe_*.jsonl`` batches are never tuned on, so
    their numbers are first-sight numbers on phrasings the rules have not seen.
    """
    found = sorted(CORPUS.glob("heldout_*.jsonl"))
    return found + sorted(CORPUS.glob("probe_*.jsonl")) if probes else found


def report(result: Result, show_misses: bool = False) -> list[str]:
    """The printed table of one batch."""
    lines = [f"== {result.name}   ({result.seconds:.2f} s)"]
    if result.overall.total:
        lines.append(f"{'category / language':<22} {'n':>4} {'warning+':>9} {'error':>9}")
        rows = [
            *result.categories.items(),
            *(("lang " + k, v) for k, v in result.languages.items()),
        ]
        for name, score in [*rows, ("ALL", result.overall)]:
            lines.append(
                f"{name:<22} {score.total:>4} {score.rate(score.warning):>9.1%} "
                f"{score.rate(score.error):>9.1%}"
            )
    fp = result.false_positive_rate
    per_lang = ", ".join(
        f"{lang} {flagged}/{total} ({flagged / total if total else 0:.2%})"
        for lang, (total, flagged) in result.benign_languages.items()
    )
    lines.append(
        f"false positives: {len(result.false_positives)} of {result.benign_total} ({fp:.2%})"
        + (f"   [{per_lang}]" if per_lang else "")
    )
    if show_misses:
        lines.extend("  " + line for line in result.overall.misses)
        lines.extend("  FP " + line for line in result.false_positives)
    lines.extend(f"under target: {what}" for what in result.under_target())
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    ap.add_argument(
        "--batch",
        action="append",
        type=Path,
        help="a batch file to measure (default: every tests/data/security/heldout_*.jsonl)",
    )
    ap.add_argument("--show-misses", action="store_true", help="list misses and false positives")
    ap.add_argument(
        "--learned",
        action="store_true",
        help="switch on the learned detector (security-suspicious-text, opt-in)",
    )
    args = ap.parse_args(argv)
    if args.learned:
        import os

        os.environ["STUDIO_SECURITY_LEARNED"] = "1"
    results = [evaluate(args.split)]
    for path in args.batch or batches():
        if not path.is_file():
            print(f"error: batch file {path} does not exist", file=sys.stderr)
            return 2
        results.append(evaluate_batch(path))
    for result in results:
        print("\n".join(report(result, args.show_misses)))
        print()
    return 1 if any(r.under_target() for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
