"""Error-level findings on real, benign tools: how many tools get one, and a sample to judge.

Run: ``python benchmarks/lint_precision_sample.py [--seed 11] [--size 40] [--show]``

Issue #11 ("Done means"): on the benign corpus, the share of tools with at
least one error, and a seeded sample of 40 error-level findings judged by hand
(precision per error-level rule ≥ 85 %). The judgments and their reasons are in
``docs/lint-precision.md``; :data:`JUDGED` holds the verdicts so the script can
print per-rule precision for the sample it draws.

The tools: every record of ``tests/data/security/benign.jsonl`` (BFCL,
ToolBench/RapidAPI, ToolAlpaca, popular MCP servers, authored hard negatives),
each ``group`` imported as one registry through the OpenAI importer as a user
would import it (names normalised; a tool the importer refuses is left out and
counted), plus the public OpenAPI documents of ``tests/data/openapi`` imported
as they are. Each registry is linted whole (profile ``openai``, default
configuration), so pair rules see the tool's real siblings.

The sample is stratified: the error-level findings of each rule are shuffled
with the seed and the rule id, then rules take turns (in rule-id order) giving one finding
each until ``--size`` are drawn, so every error-level rule is judged at least
once when there are no more rules than the sample size. A pair finding counts
for both of its tools in the share of tools with an error.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.formats import FormatError, import_path, import_text  # noqa: E402
from studio.lint import Finding, Severity, lint_registry  # noqa: E402
from studio.lint.engine import finding_tools  # noqa: E402

BENIGN = ROOT / "tests" / "data" / "security" / "benign.jsonl"
OPENAPI = ROOT / "tests" / "data" / "openapi"
TARGET_PRECISION = 0.85

JUDGED: dict[str, tuple[bool, str]] = {}
"""Verdicts of the drawn sample by :func:`key`: (true positive, why). Filled from the write-up."""


@dataclass(frozen=True)
class Drawn:
    """One error-level finding of the sample, with where it comes from."""

    registry: str
    finding: Finding
    text: str
    """The tool's description (for judging), shortened."""


def key(registry: str, f: Finding) -> str:
    """A stable name of a finding: registry, rule, tool and path."""
    return f"{registry}|{f.rule_id}|{f.tool or ''}|{f.path}"


def registries() -> tuple[list, int, int]:
    """The benign registries (one per corpus group, then the OpenAPI documents).

    Also how many tools the importer refused, and how many repeated a name
    already in their group (BFCL repeats functions across questions; the
    first is kept, as the importer keeps one tool per name).
    """
    groups: dict[str, list[dict]] = defaultdict(list)
    for line in BENIGN.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            groups[rec["group"]].append(rec["tool"])
    out = []
    refused = repeated = 0
    for group, tools in groups.items():
        accepted = []
        seen: set[str] = set()
        for tool in tools:
            name_key = re.sub(r"[^a-zA-Z0-9_-]", "_", str(tool.get("name", "")))[:64]
            if name_key in seen:
                repeated += 1
                continue
            wrapped = {"type": "function", "function": tool}
            try:
                import_text(json.dumps([wrapped]), "openai")
            except FormatError:
                refused += 1
                continue
            seen.add(name_key)
            accepted.append(wrapped)
        if not accepted:
            continue
        name = "".join(c if c.isalnum() or c in "-_" else "-" for c in group)[:60]
        try:
            out.append(import_text(json.dumps(accepted), "openai", name=name).registry)
        except FormatError:  # two tools the importer names alike: one by one is not a registry
            refused += len(accepted)
    for path in sorted(OPENAPI.iterdir()):
        if path.suffix in (".json", ".yaml", ".yml"):
            try:
                reg = import_path(path, "openapi").registry
            except FormatError:
                continue
            if reg.tools:
                out.append(reg)
    return out, refused, repeated


def lint_all(regs: list) -> tuple[list[Drawn], int, int, Counter[str]]:
    """Every error-level finding; tools in all; tools with an error; error findings per rule."""
    errors: list[Drawn] = []
    tools = 0
    with_error = 0
    per_rule: Counter[str] = Counter()
    for reg in regs:
        report = lint_registry(reg, profile="openai")
        by_name = {t.name: t for t in reg.tools}
        tools += len(reg.tools)
        flagged: set[str] = set()
        for f in report.findings:
            if f.severity is not Severity.ERROR:
                continue
            per_rule[f.rule_id] += 1
            flagged.update(finding_tools(f))
            tool = by_name.get(f.tool or "")
            text = " ".join((tool.summary or tool.description or "").split()) if tool else ""
            errors.append(Drawn(reg.name, f, text[:300]))
        with_error += len(flagged)
    return errors, tools, with_error, per_rule


def draw(errors: list[Drawn], size: int, seed: int) -> list[Drawn]:
    """``size`` findings, rules taking turns (see the module docstring)."""
    by_rule: dict[str, list[Drawn]] = defaultdict(list)
    for d in errors:
        by_rule[d.finding.rule_id].append(d)
    for rule in sorted(by_rule):
        # A generator per rule, over the rule's findings in a fixed order: a change
        # in one rule's findings leaves the other rules' draws as they were.
        by_rule[rule].sort(key=lambda d: key(d.registry, d.finding))
        random.Random(f"{seed}|{rule}").shuffle(by_rule[rule])
    sample: list[Drawn] = []
    while len(sample) < size and any(by_rule.values()):
        for rule in sorted(by_rule):
            if by_rule[rule] and len(sample) < size:
                sample.append(by_rule[rule].pop())
    return sample


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", type=int, default=40)
    ap.add_argument("--show", action="store_true", help="print each drawn finding in full")
    ap.add_argument("--rule", help="list every error-level finding of this rule instead")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    regs, refused, repeated = registries()
    errors, tools, with_error, per_rule = lint_all(regs)
    print(
        f"{len(regs)} registries, {tools} tools ({refused} refused by the importer, "
        f"{repeated} repeating a name in their group); "
        f"linted in {time.perf_counter() - start:.1f} s"
    )
    print(f"tools with ≥ 1 error-level finding: {with_error} ({with_error / tools:.1%})")
    print("error-level findings per rule:")
    for rule, n in per_rule.most_common():
        print(f"  {rule:<34} {n}")
    if args.rule:
        for d in (d for d in errors if d.finding.rule_id == args.rule):
            print(f"- {key(d.registry, d.finding)}\n    {d.finding.message}\n    text: {d.text}")
        return 0
    sample = draw(errors, args.size, args.seed)
    print(f"\nsample of {len(sample)} (seed {args.seed}):")
    verdicts: dict[str, list[bool]] = defaultdict(list)
    for i, d in enumerate(sample, 1):
        f = d.finding
        judged = JUDGED.get(key(d.registry, f))
        mark = "?" if judged is None else ("TP" if judged[0] else "FP")
        if judged is not None:
            verdicts[f.rule_id].append(judged[0])
        print(f"{i:>2}. [{mark}] {key(d.registry, f)}")
        if args.show:
            print(f"    message: {f.message}")
            if f.related:
                print(f"    related: {', '.join(f.related)}")
            print(f"    text: {d.text}")
    if verdicts:
        print("\nprecision per rule (judged findings of the sample):")
        failed = False
        for rule in sorted(verdicts):
            got = verdicts[rule]
            share = sum(got) / len(got)
            failed |= share < TARGET_PRECISION
            print(f"  {rule:<34} {sum(got)}/{len(got)} = {share:.0%}")
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
