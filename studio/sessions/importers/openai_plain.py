"""The plain OpenAI chat conversation read straight into the rows it is stored as.

``sessions import`` of a log spent most of its time building message objects
(:mod:`studio.sessions.model`) only to turn them back into the dicts that are
stored and hashed, and walking them again to count calls, pair results and
check the arguments. Most logged conversations are plain: ``{"messages": [...]}``
of system, user, assistant and tool messages with text content, calls with
unique ids and arguments that are JSON, each turn answered right after it. For
those, :func:`read_plain` makes the stored dicts in one pass and notes on the
way what the checks need (the call names, whether every turn is plainly
answered); the message objects are built from the dicts only if someone asks
(:class:`PlainSession`). It also knows the level of every part it walks, so it
measures only the values it does not walk against ``MAX_DEPTH``: the loader's
walk of the whole line (:func:`~studio.sessions.importers.base.check_nesting`)
is left out for what it reads.

Anything else — another shape, a message the generic reader would repair or
warn about, an id it would renumber — makes :func:`read_plain` answer None, and
the conversation is read by :mod:`studio.sessions.importers.openai_chat` as
before. What is accepted is stored exactly as the generic reader stores it
(tests/sessions/test_plain_import.py compares the two on random logs).
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any

import orjson

from studio.formats.base import MAX_DEPTH
from studio.sessions.importers.base import ImportedSession, Origin, nested_too_deep, title_text

if TYPE_CHECKING:
    from studio.sessions.model import Message

# openai_chat's known keys: the others of a message or call are kept in its extra.
_MESSAGE_KEYS = frozenset(
    {"role", "content", "tool_calls", "tool_call_id", "tool_call_ids", "name", "function_call"}
)
_CALL_KEYS = frozenset({"id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})
_CONVERSATION_KEYS = ("messages", "tools", "functions")
_CONVERSATION_WALKED = frozenset({"messages"})
_WALKED = {
    "system": frozenset({"role", "content"}),
    "user": frozenset({"role", "content"}),
    "assistant": frozenset({"role", "content", "tool_calls"}),
    "tool": frozenset({"role", "content", "tool_call_id"}),
}
"""Per role, the keys of a message whose values the reading checks for what they are
(text, calls, an id); any other value must not nest too deep (see :func:`read_plain`)."""
_CALL_WALKED = frozenset({"id", "function"})
# Levels of the parts the reading walks: the conversation 1, its messages 2, a message 3,
# its tool_calls 4, a call 5, its function 6. A value elsewhere may nest MAX_DEPTH - level.
_TOP, _MESSAGE, _CALL, _FUNCTION = 1, 3, 5, 6
_ORJSON_ERROR = orjson.JSONDecodeError

_IMPORTED_MESSAGES = vars(ImportedSession)["messages"]
_IMPORTED_ORIGINS = vars(ImportedSession)["origins"]


class PlainSession(ImportedSession):
    """An :class:`ImportedSession` read by :func:`read_plain`: its stored form first.

    ``messages`` and ``origins`` are built from :attr:`docs` and :attr:`origin_rows`
    on first use; storing the session (:func:`studio.sessions.library.store_imported`)
    uses the rows and never builds them.

    Attributes:
        docs: Per message, its stored dict (:func:`studio.sessions.model.message_to_dict`).
        origin_rows: Per message, ``(path, line)`` where it was in the file.
        system: The text of the system messages, joined as the store joins them.
        calls: How many tool calls the conversation holds.
        call_names: The names of the tools called.
        pairing: The number of pairing problems when the reading could tell it (every
            result answers a call of the turn right before it, once; call ids unique,
            arguments JSON objects), else None (the full analysis counts them).
    """

    __slots__ = ("call_names", "calls", "docs", "origin_rows", "pairing", "system")

    def __init__(
        self,
        docs: list[dict[str, Any]],
        origin_rows: list[tuple[str, int]],
        tools: list[Any],
        line: int,
        meta: dict[str, Any],
        title: str,
    ) -> None:
        self.docs, self.origin_rows = docs, origin_rows
        self.tools, self.source_format, self.line = tools, "openai", line
        self.warnings = []
        self.meta, self.title, self.file = meta, title, ""
        self.system, self.calls, self.call_names = "", 0, frozenset[str]()
        self.pairing: int | None = None

    @property
    def messages(self) -> list[Message]:
        try:
            return _IMPORTED_MESSAGES.__get__(self)
        except AttributeError:
            from studio.sessions.model import message_from_dict

            built = [message_from_dict(doc) for doc in self.docs]
            _IMPORTED_MESSAGES.__set__(self, built)
            return built

    @messages.setter
    def messages(self, value: list[Message]) -> None:
        _IMPORTED_MESSAGES.__set__(self, value)

    @property
    def origins(self) -> list[Origin]:
        try:
            return _IMPORTED_ORIGINS.__get__(self)
        except AttributeError:
            built = [Origin(path, line) for path, line in self.origin_rows]
            _IMPORTED_ORIGINS.__set__(self, built)
            return built

    @origins.setter
    def origins(self, value: list[Origin]) -> None:
        _IMPORTED_ORIGINS.__set__(self, value)

    @property
    def message_count(self) -> int:
        return len(self.docs)


class _NotPlain(Exception):
    """Raised inside the reading when the generic reader is needed."""


def read_plain(data: Any, line: int) -> PlainSession | None:
    """``data`` (one decoded conversation, at file line ``line``) as a :class:`PlainSession`,
    or None when it is not plain (see the module docstring) and the generic reader reads it.

    Accepted only what format detection would call ``openai`` and the OpenAI chat reader
    would read without a warning, a repair or a renumbered id.
    """
    if type(data) is not dict or "format" in data or "contents" in data or "system" in data:
        return None
    items = data.get("messages")
    if type(items) is not list or not items or _too_deep(data, _CONVERSATION_WALKED, _TOP):
        return None
    tools = _tools(data)
    if tools is None:
        return None
    meta = (
        {}
        if data.keys() <= {"messages", "tools", "functions"}
        else {k: v for k, v in data.items() if k not in _CONVERSATION_KEYS}
    )
    try:
        reading = _read(items, line)
    except _NotPlain:
        return None
    title = str(meta.pop("title", "") or "") or reading.title
    session = PlainSession(reading.docs, reading.origins, tools, line, meta, title)
    session.system = "\n\n".join(reading.system)
    session.calls, session.call_names = reading.calls, frozenset(reading.names)
    session.pairing = reading.pairing
    return session


def _tools(data: dict[str, Any]) -> list[Any] | None:
    """The tool definitions as openai_chat keeps them; None for a shape it would word
    (not a list) or that detection would call Anthropic (``input_schema``)."""
    tools, functions = data.get("tools"), data.get("functions")
    if (tools is not None and type(tools) is not list) or (
        functions is not None and type(functions) is not list
    ):
        return None
    if tools and any(type(t) is dict and "input_schema" in t for t in tools):
        return None
    if tools:
        return list(tools)
    return list(functions) if functions else []


class _Reading:
    """What :func:`_read` makes of a conversation's messages."""

    __slots__ = ("calls", "docs", "names", "origins", "pairing", "system", "title")

    def __init__(self) -> None:
        self.docs: list[dict[str, Any]] = []
        self.origins: list[tuple[str, int]] = []
        self.system: list[str] = []
        self.names: set[str] = set()
        self.calls = 0
        self.title = ""
        self.pairing: int | None = None


_PATHS: list[str] = []
"""``$.messages[i]`` for i = 0, 1, …: the same strings for every conversation."""


def _paths(count: int) -> list[str]:
    while len(_PATHS) < count:
        _PATHS.append(f"$.messages[{len(_PATHS)}]")
    return _PATHS[:count]


def _read(items: list[Any], line: int) -> _Reading:
    """One pass over a conversation's messages: the stored dicts and what the checks need.

    The loop of every message of an import, so written out in one function. Pairing is
    followed as the pairing rules see a plain log: a turn of calls is answered by the
    tool messages right after it. While every result answers a call of the turn right
    before it, once (call ids unique, arguments JSON objects), the rules find in each
    turn one call-without-result per call left unanswered, and a count-mismatch when
    some but not all were answered; otherwise the full analysis counts them.

    Raises:
        _NotPlain: for a message the generic reader must read.
    """
    out = _Reading()
    docs, system, names = out.docs, out.system, out.names
    append = docs.append
    loads = orjson.loads
    seen: set[str] = set()  # every call id so far
    turn: set[str] = set()  # the open turn's calls not answered yet
    turn_calls = 0  # how many calls the open turn made
    problems = 0  # pairing problems of the turns ended so far
    plain = True  # the problems can be counted so
    extra: dict[str, Any] | None
    for entry in items:
        if type(entry) is not dict:
            raise _NotPlain
        role = entry.get("role")
        walked = _WALKED.get(role) if type(role) is str else None
        if walked is None:
            raise _NotPlain  # a role openai_chat words or reads apart (developer, function)
        if entry.keys() <= walked:
            extra = None  # the usual message: no vendor fields, nothing else to look at
        elif "parts" in entry or "type" in entry or _too_deep(entry, walked, _MESSAGE):
            raise _NotPlain  # another format's message (as detection sees it), or too deep
        else:
            extra = {k: v for k, v in entry.items() if k not in _MESSAGE_KEYS} or None
        content = entry.get("content")
        if type(content) is str:
            text = content
        elif content is None:
            text = ""
        else:
            raise _NotPlain  # a list of parts (images, files) or a structured body
        if role == "tool":
            result_id = entry.get("tool_call_id")
            if type(result_id) is not str or not result_id.strip() or "tool_call_ids" in entry:
                raise _NotPlain  # the SWE-agent form, a list of ids, or a blank id: repaired
            if result_id in turn:
                turn.discard(result_id)
            else:
                plain = False  # answers no call of the turn right before it, or twice
            raw_name = entry.get("name")
            result: dict[str, Any] = {
                "type": "tool_result",
                "id": result_id,
                "content": text,
                "is_error": bool(extra.pop("is_error", False)) if extra else False,
            }
            if type(raw_name) is str and raw_name:
                result["name"] = raw_name
            doc: dict[str, Any] = {"role": "tool", "parts": [result]}
        else:
            if turn:  # the turn of calls before ends here, some unanswered
                problems += len(turn) + (len(turn) < turn_calls)
                turn = set()
            turn_calls = 0
            parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            if role == "assistant":
                calls = entry.get("tool_calls")
                if calls is not None:
                    if type(calls) is not list:
                        raise _NotPlain
                    for call in calls:
                        if type(call) is not dict:
                            raise _NotPlain
                        fn = call.get("function")
                        if type(fn) is not dict:
                            raise _NotPlain
                        name, call_id, arguments = (
                            fn.get("name"),
                            call.get("id"),
                            fn.get("arguments"),
                        )
                        if type(name) is not str or not name or type(call_id) is not str:
                            raise _NotPlain
                        if call_id in seen or not call_id.strip() or type(arguments) is not str:
                            raise _NotPlain  # renumbered, or arguments openai_chat decodes or words
                        try:
                            value = loads(arguments)
                        except _ORJSON_ERROR:
                            raise _NotPlain from None  # kept as they are, for pairing to word
                        if type(value) is str or (
                            len(arguments) > MAX_DEPTH
                            and arguments.count("[") + arguments.count("{") > MAX_DEPTH
                        ):
                            raise _NotPlain  # encoded twice, or maybe nested too deep: worded
                        part: dict[str, Any] = {
                            "type": "tool_call",
                            "id": call_id,
                            "name": name,
                            "arguments": arguments,
                        }
                        if call.keys() <= _CALL_KEYS and fn.keys() <= _FUNCTION_KEYS:
                            kind = call.get("type")  # "function": the one value not walked
                            if (type(kind) is dict or type(kind) is list) and nested_too_deep(
                                kind, MAX_DEPTH - _CALL
                            ):
                                raise _NotPlain
                            plain = plain and type(value) is dict  # pairing: an object
                        else:
                            if _too_deep(call, _CALL_WALKED, _CALL) or _too_deep(
                                fn, _FUNCTION_KEYS, _FUNCTION
                            ):
                                raise _NotPlain
                            part["extra"] = _call_extra(call, fn)
                            plain = False  # pairing reads an extra's original_id
                        seen.add(call_id)
                        turn.add(call_id)
                        names.add(name)
                        parts.append(part)
                    turn_calls = len(calls)
                if type(entry.get("function_call")) is dict:
                    raise _NotPlain  # the legacy call form
            else:
                if "name" in entry:
                    if extra is None:
                        extra = {}
                    extra["name"] = entry["name"]
                if role == "system":
                    if text:
                        system.append(text)
                elif not out.title and text.strip():
                    out.title = title_text(text)
            doc = {"role": role, "parts": parts}
        if extra:
            doc["extra"] = extra
        append(doc)
    if turn:
        problems += len(turn) + (len(turn) < turn_calls)
    out.origins = list(zip(_paths(len(items)), repeat(line)))
    out.calls = len(seen)
    out.pairing = problems if plain else None
    return out


def _too_deep(node: dict[str, Any], walked: frozenset[str], level: int) -> bool:
    """Whether a value of ``node`` (at ``level``) the reading does not walk nests past
    ``MAX_DEPTH`` in the whole conversation, as :func:`check_nesting` would find it."""
    return any(
        (type(value) is dict or type(value) is list) and nested_too_deep(value, MAX_DEPTH - level)
        for key, value in node.items()
        if key not in walked
    )


def _call_extra(call: dict[str, Any], fn: dict[str, Any]) -> dict[str, Any]:
    """The vendor fields of a call and of its function, kept as openai_chat keeps them."""
    extra = {k: v for k, v in call.items() if k not in _CALL_KEYS}
    if not fn.keys() <= _FUNCTION_KEYS:
        extra["function"] = {k: v for k, v in fn.items() if k not in _FUNCTION_KEYS}
    return extra
