"""Result types, the format error and JSON helpers shared by every format module."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

# Leaf modules only: the session importers read messages with these helpers and must
# not load the contract model (and the agents and skills models it imports) to do it.
from studio.contract.problems import ContractError, Problem, join_path, json_kind

if TYPE_CHECKING:
    from studio.contract.model import Registry

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

    The message is always one line: control characters, line breaks and lone
    surrogates (from names, keys or file paths of the input) are shown as
    escapes, so a CLI prints it on one line and any encoder can write it.

    Attributes:
        problems: The located problems behind the error (empty for errors such
            as malformed JSON, whose message already says where).
        line: 1-based line of the problem in the text, when known.
        column: 1-based column of the problem, when known.
        path: JSON path of the problem in the document, when known.
        detail: The message without the source and place prefix.
    """

    def __init__(
        self,
        message: str,
        problems: list[Problem] | None = None,
        *,
        line: int | None = None,
        column: int | None = None,
        path: str = "",
        detail: str = "",
    ) -> None:
        super().__init__(one_line(message))
        self.problems: list[Problem] = list(problems or [])
        self.line = line
        self.column = column
        self.path = one_line(path)
        self.detail = one_line(detail or message)
        self.malformed = False
        """True when the text is not JSON at all (a syntax error), rather than refused."""

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


# How deeply objects and arrays may nest in an imported document. A tool schema
# nests two levels per property level, so this allows schemas ~45 levels deep,
# far beyond real ones, while every later recursive walk (copies, the
# metaschema check, canonical hashing, storage) stays far from Python's limit.
MAX_DEPTH = 100

# The longest integer literal read (Python refuses to convert longer ones).
MAX_INT_DIGITS = 4300

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# What one_line escapes: the controls above, and the bidi marks, embeddings,
# overrides and isolates (a right-to-left override in a printed name reorders
# the rest of the terminal line).
_UNPRINTED = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# Strings (skipped) and brackets, to find where a too-deep document crosses the limit.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def has_control(text: str) -> bool:
    """True when ``text`` holds a line break, another control character or a lone surrogate."""
    return _CONTROL.search(text) is not None


def one_line(text: str) -> str:
    """``text`` with control characters, line breaks, bidi controls and lone surrogates escaped.

    A line break becomes the two characters backslash and ``n``: the result
    is one printable line that every encoder can write (a lone surrogate
    cannot be encoded as UTF-8).
    """
    if text.isascii() and text.isprintable():
        return text
    return _UNPRINTED.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    special = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in special:
        return special[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class _HugeInt(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _HugeInt(digits)
    return int(digits)


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _where(source: str, line: int | None, column: int | None, path: str) -> str:
    parts = [source] if source else []
    if line is not None:
        parts.append(f"line {line} column {column}")
    if path:
        parts.append(path)
    return ": ".join(parts)


def json_problem(
    source: str,
    detail: str,
    *,
    text: str | None = None,
    index: int | None = None,
    line: int | None = None,
    column: int | None = None,
    path: str = "",
) -> FormatError:
    """A located :class:`FormatError` (``tools.json: line 3 column 5: detail``).

    Args:
        source: The file name, or "" to leave it out.
        detail: What is wrong.
        text: The document text, with ``index`` the offset of the problem in it
            (an alternative to giving ``line`` and ``column``).
        path: JSON path of the problem, when known.
    """
    if text is not None and index is not None:
        line, column = _line_col(text, index)
    message = (
        f"{_where(source, line, column, path)}: {detail}" if source or line or path else detail
    )
    return FormatError(message, line=line, column=column, path=path, detail=detail)


def load_json(text: str, source: str, *, from_utf8: bool = False) -> Any:
    """Decode the JSON text of an imported file: the one entry point of every importer.

    Besides malformed JSON it refuses, each with its place, what the rest of
    the studio cannot hold: integers over :data:`MAX_INT_DIGITS` digits,
    objects and arrays nested more than :data:`MAX_DEPTH` levels, and strings
    or keys holding a lone surrogate (``"\\ud800"``, which no UTF-8 encoder,
    SQLite included, can store).

    Args:
        text: The document text.
        source: Name used in messages, usually the file name ("" for none).
        from_utf8: ``text`` was decoded from UTF-8 bytes (strictly, as
            :func:`studio.formats.files.decode_text` does), so only a JSON
            escape can make a lone surrogate: the text itself is not searched
            for one (2.3 ms of a non-ASCII file of 2,000 tools).

    Raises:
        FormatError: e.g. ``tools.json: line 3 column 5: Expecting ',' delimiter``;
            ``line``, ``column``, ``path`` and ``detail`` are set on it.
    """
    try:
        value = json.loads(text, parse_int=_parse_int)
    except _HugeInt as exc:
        index = text.find(exc.digits)
        raise json_problem(
            source,
            f"an integer of {len(exc.digits.lstrip('-'))} digits is too long "
            f"(at most {MAX_INT_DIGITS})",
            text=text,
            index=max(index, 0),
        ) from None
    except json.JSONDecodeError as exc:
        error = json_problem(source, exc.msg, line=exc.lineno, column=exc.colno)
        error.malformed = True
        raise error from None
    except RecursionError:
        raise _too_deep(text, source, "") from None
    except ValueError as exc:  # anything else the decoder refuses
        raise json_problem(source, f"not valid JSON: {exc}") from None
    check_json_value(value, source, text, from_utf8=from_utf8)
    return value


def _too_deep(text: str, source: str, path: str) -> FormatError:
    detail = f"objects and arrays are nested more than {MAX_DEPTH} levels deep"
    depth = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return json_problem(source, detail, text=text, index=match.start(), path=path)
        elif token in "]}":
            depth -= 1
    return json_problem(source, detail, path=path)


def _short_path(parts: list[str | int]) -> str:
    path = join_path("", *parts[:8])
    return path + (f"…({len(parts) - 8} more levels)" if len(parts) > 8 else "")


def check_json_value(
    value: Any, source: str = "", text: str | None = None, *, from_utf8: bool = False
) -> None:
    """Refuse a decoded value nested too deeply or holding a lone surrogate.

    :func:`load_json` calls it; call it for JSON values decoded elsewhere
    (``from_utf8``: as for :func:`load_json`).

    Raises:
        FormatError: with the JSON path (``tools[0].description``) and,
            when ``text`` is given, the line and column.
    """
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise _surrogate(source, [])
        return
    if not isinstance(value, dict | list):
        return
    if _too_deep_value(value):
        # Walk again, slowly, for the path of the first container past the limit.
        parts = _first_too_deep(value)
        if text is not None:
            raise _too_deep(text, source, _short_path(parts))
        detail = f"objects and arrays are nested more than {MAX_DEPTH} levels deep"
        raise json_problem(source, detail, path=_short_path(parts))
    if text is None or _might_hold_surrogates(text, from_utf8):
        _check_strings(value, source)


def _containers(level: list[Any]) -> list[Any]:
    return [
        child
        for node in level
        for child in (node.values() if type(node) is dict else node)
        if type(child) is dict or type(child) is list
    ]


def _too_deep_value(value: Any) -> bool:
    """True when containers nest deeper than :data:`MAX_DEPTH` (level by level: fast)."""
    level = [value]
    for _ in range(MAX_DEPTH):
        level = _containers(level)
        if not level:
            return False
    return True


def _first_too_deep(value: Any) -> list[str | int]:
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        node, parts = stack.pop()
        if len(parts) >= MAX_DEPTH:
            return parts
        items = list(node.items() if isinstance(node, dict) else enumerate(node))
        for key, item in reversed(items):
            if isinstance(item, dict | list):
                stack.append((item, [*parts, key]))
    return []


def _check_strings(value: Any, source: str) -> None:
    """Refuse the first string or key (in document order) holding a lone surrogate."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        node, parts = stack.pop()
        children: list[tuple[Any, list[str | int]]] = []
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if isinstance(key, str) and _SURROGATE.search(key):
                raise _surrogate(source, [*parts, key], key=True)
            if isinstance(item, dict | list):
                children.append((item, [*parts, key]))
            elif isinstance(item, str) and _SURROGATE.search(item):
                raise _surrogate(source, [*parts, key])
        stack.extend(reversed(children))


def _might_hold_surrogates(text: str, from_utf8: bool = False) -> bool:
    if "\\" in text and _SURROGATE_ESCAPE.search(text):
        return True
    # Strict UTF-8 decoding refuses encoded surrogates: such a text holds none.
    return not from_utf8 and not text.isascii() and _SURROGATE.search(text) is not None


def _surrogate(source: str, parts: list[str | int], *, key: bool = False) -> FormatError:
    what = "a key" if key else "a string"
    return json_problem(
        source,
        f"{what} holds a lone surrogate (\\ud800-\\udfff), which is not valid Unicode text",
        path=_short_path(parts),
    )


kind_of = json_kind
"""The JSON type of a value for messages (one wording across the studio)."""
