"""What every session importer shares: outcome types, issues, and the messy-log repairs.

An importer turns one decoded conversation (a JSON value) into internal
messages (:mod:`studio.sessions.model`). What it cannot understand it reports
as an :class:`ImportIssue` naming the file, line and JSON path, and leaves
out; what it can repair it repairs and reports as a warning, once per
occurrence (DESIGN §8: bad input gets a clear message and loses nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from studio.formats.base import MAX_DEPTH, FormatError, check_json_value, load_json, one_line

if TYPE_CHECKING:
    # The message classes are imported where messages are made: an import of plain
    # OpenAI logs (openai_plain) stores rows and builds none (~2.5 ms of start-up).
    from studio.sessions.model import Message, Part


@dataclass(frozen=True, slots=True)
class ImportIssue:
    """Something the importer could not understand, or repaired.

    Attributes:
        file: The file name (``input`` for pasted text).
        line: 1-based line in the file (the JSONL line, or where the JSON error is).
        path: JSON path inside that line's document (``$.messages[3].tool_calls[0]``).
        message: What is wrong, for people.
    """

    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        text = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        return one_line(text)  # names and keys from the log may hold line breaks


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a message was in the user's file.

    Attributes:
        path: JSON path of the entry it was read from (``$.messages[7]``);
            empty for messages the importer made (a top-level system prompt).
        line: 1-based file line of that entry (of the conversation, for a
            single JSON document).
    """

    path: str
    line: int

    def __str__(self) -> str:
        return f"line {self.line} {self.path}".rstrip()


_set_origin_path = vars(Origin)["path"].__set__
_set_origin_line = vars(Origin)["line"].__set__


def _new_origin(path: str, line: int) -> Origin:
    """``Origin(path, line)`` set through its slots (~30 % faster; one per message read)."""
    origin = object.__new__(Origin)
    _set_origin_path(origin, path)
    _set_origin_line(origin, line)
    return origin


@dataclass(slots=True)
class ImportedSession:
    """One conversation read from a log.

    Attributes:
        messages: Internal messages, system messages included.
        tools: The tool definitions that came with the log, as found (wire form).
        source_format: ``openai``, ``openai-responses``, ``anthropic``, ``gemini`` or ``studio``.
        line: The line the conversation starts on.
        warnings: What was repaired on the way in (one per occurrence).
        meta: Other top-level fields of the log entry (``model``, ``metadata`` …).
        title: A title for session lists (from the log, else the first user text).
    """

    messages: list[Message]
    tools: list[Any]
    source_format: str
    line: int = 1
    warnings: list[ImportIssue] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    origins: list[Origin] = field(default_factory=list)
    """Per message, where it was in the file (same length as ``messages``, or empty)."""
    file: str = ""
    """The file it came from, relative to the folder imported (set by a folder import)."""

    @property
    def model(self) -> str:
        return str(self.meta.get("model") or "")

    @property
    def message_count(self) -> int:
        """``len(messages)``, without building them where they are built on first use."""
        return len(self.messages)


@dataclass(slots=True)
class ImportOutcome:
    """Everything one import produced: sessions, and what could not be read.

    ``cancelled`` is True when the caller's cancel flag stopped the import;
    the sessions read until then are kept.
    """

    sessions: list[ImportedSession] = field(default_factory=list)
    errors: list[ImportIssue] = field(default_factory=list)
    cancelled: bool = False

    @property
    def warnings(self) -> list[ImportIssue]:
        return [w for s in self.sessions for w in s.warnings]


class CancelFlag(Protocol):
    """A ``threading.Event`` or anything with ``is_set()``."""

    def is_set(self) -> bool: ...


Progress = Callable[[int, int], None]


class ImportCancelled(Exception):
    """Raised inside an importer when the cancel flag is set."""


class Rejected(Exception):
    """A piece of the log that cannot be understood (caught per message)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


class Reader:
    """Per-conversation state: where we are, the warnings and errors so far, cancel checks.

    Importers call :meth:`warn` for repairs, raise :class:`Rejected` for a
    message they cannot read (the caller records it and goes on), and call
    :meth:`tick` once per message so a large conversation can be cancelled.
    """

    def __init__(
        self,
        file: str,
        line: int,
        *,
        cancel: CancelFlag | None = None,
        on_message: Callable[[], None] | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.warnings: list[ImportIssue] = []
        self.errors: list[ImportIssue] = []
        self.origins: list[Origin] = []
        """Where each message came from, in message order (see :meth:`each`)."""
        self.item_lines: list[int] = []
        """The file line of each item, when the items are the lines of a JSONL file."""
        self._cancel = cancel
        self._on_message = on_message

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(ImportIssue(self.file, self.line, path, message))

    def reject(self, exc: Rejected) -> None:
        self.errors.append(ImportIssue(self.file, self.line, exc.path, exc.message))

    def tick(self) -> None:
        if self._cancel is not None and self._cancel.is_set():
            raise ImportCancelled
        if self._on_message is not None:
            self._on_message()

    def read_each(
        self,
        items: list[Any],
        path: str,
        sink: list[Message],
        read: Callable[[Any, str, Reader], Message],
    ) -> None:
        """``sink.append(read(item, item_path, self))`` per item, with its origin, ticking per item.

        The loop of :meth:`each` for formats that read one message per item, without
        a generator resumed per message: an item ``read`` rejects is recorded
        (:meth:`reject`) and left out; every message read gets the item's origin.
        """
        watched = self._cancel is not None or self._on_message is not None
        origins, item_lines, line = self.origins, self.item_lines, self.line
        if items and len(origins) < len(sink):
            # Messages made before the loop (a top-level system prompt).
            origins.extend([Origin("", line)] * (len(sink) - len(origins)))
        known = len(item_lines)
        append, located = sink.append, origins.append
        new, set_path, set_line = object.__new__, _set_origin_path, _set_origin_line
        for i, item in enumerate(items):
            if watched:
                self.tick()
            where = f"{path}[{i}]"
            try:
                message = read(item, where, self)
            except Rejected as exc:
                self.reject(exc)
                continue
            append(message)
            origin = new(Origin)  # _new_origin() inlined: this runs per message
            set_path(origin, where)
            set_line(origin, item_lines[i] if i < known else line)
            located(origin)

    def each(
        self, items: list[Any], path: str, sink: list[Message] | None = None
    ) -> Iterator[tuple[int, str, Any]]:
        """``(index, path, item)`` of a list, ticking per item.

        Args:
            sink: The message list the importer appends to while reading an
                item; the messages each item added get that item's origin
                (its JSON path and file line, :attr:`origins`).
        """
        watched = self._cancel is not None or self._on_message is not None
        origins, item_lines = self.origins, self.item_lines  # locals: this runs per message
        for i, item in enumerate(items):
            if watched:
                self.tick()
            where = f"{path}[{i}]"
            if sink is None:
                yield i, where, item
                continue
            start = len(sink)
            if len(origins) < start:
                # Messages made outside the loop (a top-level system prompt).
                origins.extend([Origin("", self.line)] * (start - len(origins)))
            yield i, where, item
            added = len(sink) - start
            if added:
                line = item_lines[i] if i < len(item_lines) else self.line
                origin = Origin(where, line)
                if added == 1:
                    origins.append(origin)
                else:
                    origins.extend([origin] * added)


@dataclass(slots=True)
class Conversation:
    """What a format module returns for one conversation."""

    messages: list[Message]
    tools: list[Any] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    origins: list[Origin] | None = None
    """Per message, where it was (None: the reader's, see :meth:`Reader.each`)."""
    title: str = ""


# ---------------------------------------------------------------------- content helpers


def content_text(value: Any, path: str, reader: Reader, extra: dict[str, Any]) -> str:
    """Text of a content field that may be a string, None, or a list of parts.

    Non-text parts (images, audio, files) are kept in ``extra["content_parts"]``
    so nothing is lost; a value that is neither string nor list is rejected.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts: list[str] = []
        for i, item in enumerate(value):
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                texts.append(item["text"])
            elif isinstance(item, dict):
                extra.setdefault("content_parts", []).append({"index": i, "part": item})
            else:
                raise Rejected(
                    f"{path}[{i}]", f"a content part must be an object, not {_kind(item)}"
                )
        return "".join(texts)
    if isinstance(value, dict):
        # Some loggers store a structured tool result directly.
        return json.dumps(value, ensure_ascii=False)
    raise Rejected(path, f"content must be a string or a list of parts, not {_kind(value)}")


def decode_arguments(raw: Any, path: str, reader: Reader, *, want: str) -> str | dict[str, Any]:
    """Arguments as the wire format means them, unwrapping double-encoded JSON.

    Args:
        raw: The arguments as logged.
        want: ``string`` (OpenAI: a JSON string) or ``object`` (Anthropic, Gemini).

    Return:
        A JSON string (``want="string"``; kept verbatim when it is not JSON, so
        pairing analysis can report it) or an object.
    """
    if raw is None:
        return "" if want == "string" else {}
    if isinstance(raw, dict):
        if want == "string":
            reader.warn(path, "arguments were logged as an object, not a JSON string; kept as is")
        return raw
    if not isinstance(raw, str):
        raise Rejected(path, f"arguments must be a JSON string or object, not {_kind(raw)}")
    if want == "string" and plain_json_arguments(raw):
        return raw  # the usual case: decoded only to see that it is JSON, not a string
    text = raw
    try:
        value = parse_json(text)
    except FormatError as exc:
        if exc.malformed:
            return text  # invalid JSON: pairing analysis reports it
        # Valid JSON the studio cannot hold (a huge integer, deep nesting, a lone surrogate).
        raise Rejected(path, f"arguments: {exc}") from None
    depth = 0
    while isinstance(value, str):
        try:
            inner = parse_json(value)
        except FormatError as exc:
            if exc.malformed:
                break
            raise Rejected(path, f"arguments: {exc}") from None
        depth += 1
        text, value = value, inner
    if depth:
        reader.warn(path, f"arguments were encoded {depth + 1} times as JSON strings; decoded")
    if want == "object":
        if isinstance(value, dict):
            if not depth:
                reader.warn(path, "arguments were logged as a JSON string, not an object; decoded")
            return value
        return text
    return text


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19
"""19 digits in a row (every digit spelled 0 first): maybe an integer past 64 bits, which
orjson turns into a float. One bytes translate and find: ~9× faster than a regex."""


def has_long_number(text: str) -> bool:
    """Whether ``text`` holds 19 digits in a row (see :data:`_LONG_NUMBER`)."""
    return _LONG_NUMBER in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO)


def plain_json_arguments(raw: str) -> bool:
    """Arguments (a JSON string) the string form keeps as they are, told without the safe loader.

    True when orjson decodes ``raw`` to something other than a string (so not
    double-encoded) and it cannot nest past ``MAX_DEPTH``. What orjson decodes the
    safe loader accepts too (a long integer becomes a float here, but the value is
    not kept); what it refuses, :func:`decode_arguments` hands to :func:`parse_json`.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    return type(value) is not str and raw.count("[") + raw.count("{") <= MAX_DEPTH


def parse_json(text: str, *, nesting: bool = True) -> Any:
    """Decode JSON from a log with the one loader of every importer.

    The same values and errors as :func:`studio.formats.base.load_json`, ~3× faster:
    orjson decodes what it decodes exactly like ``json.loads``; everything else goes
    to the safe loader, which accepts it or words the refusal. orjson refuses lone
    surrogates, NaN/Infinity, overflowing floats and control characters itself; an
    integer past 64 bits (which it would turn into a float) is kept from it by a
    digit-run test, and nesting deeper than ``MAX_DEPTH`` is checked as load_json
    checks it (:func:`check_nesting`).

    Args:
        nesting: False leaves the nesting of what orjson decoded to the caller, who
            must then call :func:`check_nesting` (or know the depth otherwise, as
            the plain OpenAI reader does) before using the value.

    Raises:
        FormatError: located by line and column or JSON path, without a file
            name (the caller knows it); ``malformed`` tells a syntax error from
            a refused value (huge integer, deep nesting, lone surrogate).
    """
    if not has_long_number(text):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # malformed, or a value only the safe loader may accept or refuse
        else:
            if nesting:
                check_nesting(value, text)
            return value
    return load_json(text, "")


def check_nesting(value: Any, text: str) -> None:
    """Refuse ``value`` (decoded from ``text``) as load_json does when it nests past
    ``MAX_DEPTH``; the walk only when the text holds enough brackets to nest that deep.

    Raises:
        FormatError: the safe loader's refusal, with line and path.
    """
    if text.count("[") + text.count("{") > MAX_DEPTH and nested_too_deep(value):
        check_json_value(value, "", text)  # words the refusal, with line and path


def nested_too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when containers nest deeper than ``limit`` (``value`` itself is one level),
    walked level by level.

    What :func:`check_json_value` checks first; it also looks for lone surrogates,
    which orjson has already refused, at the price of a scan of every string.
    """
    level = [value] if type(value) is dict or type(value) is list else []
    for _ in range(limit):
        if not level:
            return False
        level = [
            child
            for node in level
            for child in (node.values() if type(node) is dict else node)
            if type(child) is dict or type(child) is list
        ]
    return bool(level)


def issue_path(path: str) -> str:
    """A loader's JSON path (``messages[2]``) in the importers' form (``$.messages[2]``)."""
    if not path:
        return "$"
    return "$" + path if path.startswith("[") else "$." + path


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number"}  # fmt: skip
    return names.get(type(value), "null" if value is None else f"a {type(value).__name__}")


def kind_of(value: Any) -> str:
    return _kind(value)


def tool_definitions(data: dict[str, Any], reader: Reader, *keys: str) -> list[Any]:
    """The tool definitions a log entry carries (the first of ``keys`` holding some).

    A value that is not a list is an error at its path; the conversation is
    still read, without tools.
    """
    for key in keys or ("tools",):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list):
            reader.reject(Rejected(f"$.{key}", f"must be a list of tool definitions, not "
                                              f"{_kind(value)}; no tools kept"))  # fmt: skip
            return []
        if value:
            return list(value)
    return []


def vendor_fields(entry: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The fields of ``entry`` the importer did not read (kept in ``extra``)."""
    if entry.keys() <= known:  # the usual case, one set comparison in C
        return {}
    return {k: v for k, v in entry.items() if k not in known}


# ---------------------------------------------------------------------- ids


def renumber_ids(messages: list[Message], reader: Reader, *, prefix: str = "call") -> list[Message]:
    """Give placeholder, empty and reused call ids unique ones, and re-pair results.

    A call keeps its id unless the id is empty, a placeholder (``call_0``…)
    used more than once, or already used by an earlier call. Such a call gets
    ``{prefix}_{message}_{part}`` (deterministic) with the original in
    ``extra["original_id"]``, and a warning. A result with an ambiguous id
    answers the oldest still-open call with that original id (and the same
    name when both carry one), so renumbering never breaks a pairing that
    was recoverable.
    """
    from studio.sessions.model import Message, ToolCallPart, ToolResultPart

    # One pass over the parts (not the tool_calls/tool_results tuples built per message):
    # most logs need no renumbering, and this check is all they pay.
    counts: dict[str, int] = {}
    blank_result = False
    for msg in messages:
        for part in msg.parts:
            if isinstance(part, ToolCallPart):
                counts[part.id] = counts.get(part.id, 0) + 1
            elif isinstance(part, ToolResultPart) and not blank_result:
                blank_result = not part.id.strip()
    needs = {cid for cid, n in counts.items() if n > 1 or not cid.strip()}
    if not needs and not blank_result:
        return messages
    used = {cid for cid in counts if cid not in needs}
    # original id → open (new id, name) in call order
    open_calls: dict[str, list[tuple[str, str]]] = {}
    out: list[Message] = []
    for mi, msg in enumerate(messages):
        if not (msg.tool_calls or msg.tool_results):
            out.append(msg)
            continue
        parts: list[Part] = []
        for pi, part in enumerate(msg.parts):
            if isinstance(part, ToolCallPart) and part.id in needs:
                new = f"{prefix}_{mi}_{pi}"
                while new in used:
                    new += "_"
                used.add(new)
                open_calls.setdefault(part.id, []).append((new, part.name))
                what = "empty" if not part.id.strip() else f"placeholder or reused {part.id!r}"
                reader.warn(
                    f"messages[{mi}].parts[{pi}]",
                    f"tool call id {what}; renumbered to {new!r} (original kept in extra)",
                )
                parts.append(
                    ToolCallPart(
                        new, part.name, part.arguments, {**part.extra, "original_id": part.id}
                    )
                )
            elif isinstance(part, ToolCallPart):
                open_calls.setdefault(part.id, []).append((part.id, part.name))
                parts.append(part)
            elif isinstance(part, ToolResultPart) and (part.id in needs or not part.id.strip()):
                target = _take_open(open_calls, part.id, part.name)
                if target is None:
                    parts.append(part)
                    continue
                reader.warn(
                    f"messages[{mi}].parts[{pi}]",
                    f"result id {part.id!r} is ambiguous; paired with call {target!r}",
                )
                parts.append(
                    ToolResultPart(
                        target, part.content, part.is_error, part.name,
                        {**part.extra, "original_id": part.id},
                    )
                )  # fmt: skip
            elif isinstance(part, ToolResultPart):
                _take_open(open_calls, part.id, part.name, exact=True)
                parts.append(part)
            else:
                parts.append(part)
        out.append(Message(msg.role, tuple(parts), msg.extra))
    return out


def _take_open(
    open_calls: dict[str, list[tuple[str, str]]], original: str, name: str, *, exact: bool = False
) -> str | None:
    """Pop the oldest open call for a result with id ``original`` (empty: any open call)."""
    if exact:
        queue = open_calls.get(original)
        if queue:
            for i, (new, _) in enumerate(queue):
                if new == original:
                    queue.pop(i)
                    return new
        return None
    candidates = [original] if original.strip() else list(open_calls)
    for key in candidates:
        queue = open_calls.get(key) or []
        for i, (new, call_name) in enumerate(queue):
            if not name or not call_name or name == call_name:
                queue.pop(i)
                return new
    return None


def first_user_text(messages: list[Message], limit: int = 80) -> str:
    from studio.sessions.model import Role

    for msg in messages:
        if msg.role is Role.USER and msg.text.strip():
            return title_text(msg.text, limit)
    return ""


def title_text(text: str, limit: int = 80) -> str:
    """``text`` as a title: on one line, spaces collapsed, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text_parts(text: str) -> tuple[Part, ...]:
    from studio.sessions.model import TextPart

    return (TextPart(text),) if text else ()
