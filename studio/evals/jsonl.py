"""Eval sets as JSON Lines: one case per line, kept byte for byte.

An :class:`EvalSet` keeps the text it was read from, so storing it and
writing it back (database, ``evals/<set>.jsonl`` in a registry folder) gives
the same bytes: comments are not part of JSONL, but blank lines, key order,
spacing and escapes all survive. A set built from cases is written with
:func:`dump_set` (one :func:`studio.evals.model.dump_case` line each).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from studio.contract import Problem
from studio.evals.model import CaseError, EvalCase, dump_case, parse_case
from studio.formats.base import FormatError, load_json

SET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
SUFFIX = ".jsonl"


@dataclass(frozen=True, slots=True)
class EvalSet:
    """A named, validated eval set and the exact text it came from."""

    name: str
    text: str
    cases: tuple[EvalCase, ...]
    lines: tuple[int, ...] = ()  # the 1-based line of each case, for messages

    def line_of(self, case_id: str) -> int | None:
        """The line ``case_id`` is on, when known."""
        for case, line in zip(self.cases, self.lines, strict=False):
            if case.id == case_id:
                return line
        return None

    def case(self, case_id: str) -> EvalCase:
        """The case with ``case_id``; KeyError when absent."""
        for case in self.cases:
            if case.id == case_id:
                return case
        raise KeyError(case_id)


class EvalSetError(ValueError):
    """An eval set that does not load; ``problems`` paths read ``line 3: expect.kind``."""

    def __init__(self, name: str, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(f"eval set {name}: {shown}{more}")


def check_set_name(name: str) -> str:
    """'' when ``name`` can name a set (and its file), else why not."""
    if not SET_NAME.match(name):
        return (
            f"{name!r} is not a set name: letters, digits, '.', '_', '-', starting with a "
            "letter or digit, at most 64 characters"
        )
    if name.endswith(SUFFIX):
        return f"{name!r}: leave out the {SUFFIX} suffix"
    return ""


def parse_set(name: str, text: str) -> EvalSet:
    """Validate every line of ``text`` as a case.

    Args:
        name: The set's name (its file is ``<name>.jsonl``).
        text: The file's text; blank lines are allowed.

    Raises:
        EvalSetError: with each problem's line and JSON path (``line 4: expect.calls[0].tool``),
            including ids used twice and a bad set name.
    """
    problems: list[Problem] = []
    if reason := check_set_name(name):
        problems.append(Problem("", reason))
    cases: list[EvalCase] = []
    lines: list[int] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            data = load_json(line, "")  # the importers' loader: huge ints, depth, surrogates
        except FormatError as exc:
            column = f" (column {exc.column})" if exc.column else ""
            reason = f"not JSON: {exc.detail}" if exc.malformed else exc.detail
            problems.append(Problem(_at(where, exc.path), reason + column))
            continue
        try:
            case = parse_case(data)
        except CaseError as exc:
            problems.extend(Problem(_at(where, p.path), p.message) for p in exc.problems)
            continue
        if case.id in first_line:
            problems.append(
                Problem(
                    _at(where, "id"), f"{case.id!r} is already used on line {first_line[case.id]}"
                )
            )
            continue
        first_line[case.id] = number
        cases.append(case)
        lines.append(number)
    if problems:
        raise EvalSetError(name, problems)
    return EvalSet(name, text, tuple(cases), tuple(lines))


def _at(line: str, path: str) -> str:
    return f"{line}: {path}" if path else line


def dump_set(cases: Iterable[EvalCase]) -> str:
    """The JSONL text of ``cases``: one line each, LF endings, a final newline."""
    return "".join(dump_case(case) + "\n" for case in cases)


def build_set(name: str, cases: Iterable[EvalCase]) -> EvalSet:
    """A set from cases (validated again through its text, so it loads back the same)."""
    return parse_set(name, dump_set(cases))
