"""Result types, the format error and JSON helpers shared by every format module."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from studio.contract import ContractError, Problem, Registry
from studio.contract.problems import json_kind

NoteKind = Literal["lost", "guessed", "info"]

# How many problems a FormatError message spells out; all of them stay on ``.problems``.
_SHOWN_PROBLEMS = 8


@dataclass(frozen=True)
class Note:
    """Something an export or import could not carry over exactly.

    Attributes:
        path: Where, as a JSON path in the registry (``tools[3].parameters``) for
            exports, in the source document (``tools[2].function``) for imports;
            empty for the document as a whole.
        message: What happened, as a sentence a reviewer understands.
        kind: ``lost`` (dropped), ``guessed`` (filled in or converted by a rule
            the user should check) or ``info``.
    """

    path: str
    message: str
    kind: NoteKind

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"[{self.kind}] {where}{self.message}"


@dataclass(frozen=True)
class ExportResult:
    """An export: ``text`` for single-document formats, ``files`` for ``dir``.

    Attributes:
        text: The whole document, ending with a newline.
        files: Relative POSIX path → content, for formats that write a folder.
        notes: Everything the format could not express.
    """

    text: str | None
    files: dict[str, str] | None
    notes: list[Note]


@dataclass(frozen=True)
class ImportResult:
    """An import: the registry built, what was guessed or lost, and the format read."""

    registry: Registry
    notes: list[Note]
    format: str


class FormatError(ValueError):
    """Input that cannot be imported or exported; the message names what and where.

    Attributes:
        problems: The located problems behind the error (empty for errors such
            as malformed JSON, whose message already says where).
    """

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems: list[Problem] = list(problems or [])

    @classmethod
    def from_problems(cls, problems: list[Problem], source: str = "") -> FormatError:
        """An error listing located problems, prefixed with the source name."""
        shown = "; ".join(str(p) for p in problems[:_SHOWN_PROBLEMS])
        more = len(problems) - _SHOWN_PROBLEMS
        if more > 0:
            shown += f" (and {more} more)"
        prefix = f"{source}: " if source else ""
        return cls(prefix + shown, problems)

    @classmethod
    def from_contract_error(cls, error: ContractError, source: str = "") -> FormatError:
        """Convert a :class:`ContractError`, keeping its problems."""
        return cls.from_problems(error.problems, source)


def dump_json(value: Any) -> str:
    """The house JSON text: UTF-8 friendly, indent 2, trailing newline.

    Key order is the order of the dicts, never sorted, so documents keep the
    order :func:`studio.contract.tool_to_dict` gives them and diffs stay small.
    """
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def load_json(text: str, source: str) -> Any:
    """Decode JSON text, turning a syntax error into a located :class:`FormatError`.

    Args:
        text: The document text.
        source: Name used in messages, usually the file name.

    Raises:
        FormatError: e.g. ``tools.json: line 3 column 5: Expecting ',' delimiter``.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{source}: line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    except RecursionError as exc:
        raise FormatError(f"{source}: the document is nested too deeply") from exc


kind_of = json_kind
"""The JSON type of a value for messages (one wording across the studio)."""
