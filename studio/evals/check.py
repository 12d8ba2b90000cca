"""A set checked against the registry it tests: tools and arguments that do not exist.

Loading a set validates it on its own (:func:`studio.evals.jsonl.parse_set`);
these checks need a registry (draft or version) and are warnings: a set may be
written ahead of a tool, or keep a case for a tool removed on purpose.
"""

from __future__ import annotations

from typing import Any

from studio.contract import Problem, Registry, join_path
from studio.evals.jsonl import EvalSet
from studio.evals.paths import parse_path


def _where(evals: EvalSet, index: int, *parts: str | int) -> str:
    line = evals.lines[index] if index < len(evals.lines) else None
    path = join_path("", *parts)
    head = f"line {line}" if line is not None else f"cases[{index}]"
    return f"{head}: {path}" if path else head


def check_against_registry(evals: EvalSet, registry: Registry) -> list[Problem]:
    """What in ``evals`` does not fit ``registry``.

    Flags an expected or ``must_not`` tool the registry lacks, a matcher on an
    argument the tool does not declare (a typo never matches), and a matcher
    expecting a value for an injected argument (the model must leave those out;
    only ``absent`` makes sense there).

    Return:
        Problems with their line and JSON path, in file order.
    """
    tools = {t.name: t for t in registry.tools}
    problems: list[Problem] = []
    skills = {s.name for s in registry.skills}
    for index, case in enumerate(evals.cases):
        for i, name in enumerate(case.must_not):
            if name not in tools:
                problems.append(Problem(_where(evals, index, "must_not", i), f"no tool {name}"))
        wanted = case.expect.skills  # issue #18: a skill the registry lacks is never loaded
        for key, names in (("load", wanted.load), ("not", wanted.not_load)) if wanted else ():
            problems += [Problem(_where(evals, index, "expect", "skills", key, i), f"no skill {n}")
                         for i, n in enumerate(names) if n not in skills]  # fmt: skip
        for c, call in enumerate(case.expect.calls):
            tool = tools.get(call.tool)
            where = ("expect", "calls", c)
            if tool is None:
                problems.append(
                    Problem(_where(evals, index, *where, "tool"), f"no tool {call.tool}")
                )
                continue
            properties: dict[str, Any] = (tool.parameters or {}).get("properties") or {}
            for matcher in call.args:
                first = parse_path(matcher.path)[0]
                at = _where(evals, index, *where, "args", matcher.path)
                schema = properties.get(first) if isinstance(first, str) else None
                if not isinstance(schema, dict):
                    problems.append(Problem(at, f"{call.tool} has no parameter {first}"))
                elif "x-injected" in schema and matcher.kind != "absent":
                    problems.append(
                        Problem(at, f"{first} is injected from the session; only absent applies")
                    )
    return problems
