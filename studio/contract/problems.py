"""Problems found in documents, each located by a JSON path."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a document.

    Attributes:
        path: Where, as a JSON path such as ``tools[2].parameters.type``
            (empty for the document itself).
        message: What is wrong, as a sentence fragment.
    """

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ContractError(ValueError):
    """A document is not a valid tool or registry; ``problems`` says where."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(shown + more)


def join_path(base: str, *parts: str | int) -> str:
    """Extend a JSON path: ``join_path("tools[2]", "parameters", 0)`` → ``tools[2].parameters[0]``.

    Keys that are not plain identifiers are quoted: ``properties["客户 编号"]``.
    """
    path = base
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif _IDENT.fullmatch(part):
            path = f"{path}.{part}" if path else part
        else:
            quoted = '"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"'
            path += f"[{quoted}]"
    return path


def json_kind(value: Any) -> str:
    """A short name for the JSON type of ``value``, for messages ("an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def hidden_code_points(text: str, categories: frozenset[str]) -> str:
    """The characters of ``text`` in the Unicode ``categories``, as ``U+202E U+200B``
    (each once, in order); "" when there are none.

    For refusing a name that could show one thing and mean another (an import
    names the code points it found).
    """
    hidden = [c for c in text if unicodedata.category(c) in categories]
    return " ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(hidden))
