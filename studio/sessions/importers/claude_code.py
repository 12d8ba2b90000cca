"""Claude Code session files: ``~/.claude/projects/<project>/<session>.jsonl``.

One JSON object per line. Lines of ``type`` ``user`` and ``assistant`` carry
a Messages API ``message`` (``content`` blocks: ``text``, ``thinking``,
``tool_use``, ``tool_result``; assistant ``usage`` per turn) and are chained
by ``uuid`` → ``parentUuid``. Other lines (``summary`` with ``leafUuid``,
``system``, ``progress``, ``file-history-snapshot`` …) are read for titles
and skipped. One model response is often written as several lines, one per
content block, sharing ``message.id``; they are merged back into one
assistant message, and consecutive tool results into one user message, as
the API receives them.

A rewound conversation leaves abandoned branches in the file: the live chain
(the one ending at the last line) is the first conversation returned; every
abandoned branch is returned too, whole (the shared start included), marked
``meta["branch"] = "abandoned"``. Subagent lines (``isSidechain: true``, or a
subagent's own ``agent-*.jsonl``) form conversations of their own
(``meta["sidechain"] = True``).
"""

from __future__ import annotations

from typing import Any

from studio.sessions.importers import anthropic
from studio.sessions.importers.base import (
    Conversation,
    Origin,
    Reader,
    Rejected,
    first_user_text,
    renumber_ids,
)
from studio.sessions.model import Message, Role

_META_KEYS = ("sessionId", "cwd", "gitBranch", "version")


def looks_like(items: list[Any]) -> bool:
    """Whether a list of JSONL entries is a Claude Code transcript."""
    return any(
        isinstance(e, dict)
        and e.get("type") in ("user", "assistant")
        and isinstance(e.get("message"), dict)
        and "uuid" in e
        for e in items[:200]
    )


class _Entry:
    __slots__ = ("data", "index", "line", "path")

    def __init__(self, index: int, path: str, line: int, data: dict[str, Any]) -> None:
        self.index, self.path, self.line, self.data = index, path, line, data

    @property
    def uuid(self) -> str:
        return str(self.data.get("uuid") or "")

    @property
    def is_message(self) -> bool:
        return self.data.get("type") in ("user", "assistant") and isinstance(
            self.data.get("message"), dict
        )


def read(data: Any, reader: Reader) -> list[Conversation]:
    """Every conversation of one transcript: the live chain first, then branches, subagents."""
    if not isinstance(data, list):
        raise Rejected("$", "expected the lines of a Claude Code session file")
    entries: list[_Entry] = []
    summaries: dict[str, str] = {}
    for i, path, item in reader.each(data, "$"):
        if not isinstance(item, dict):
            continue
        line = reader.item_lines[i] if i < len(reader.item_lines) else reader.line
        entry = _Entry(i, path, line, item)
        if item.get("type") == "summary" and isinstance(item.get("summary"), str):
            summaries[str(item.get("leafUuid") or "")] = item["summary"]
        entries.append(entry)
    by_uuid = {e.uuid: e for e in entries if e.uuid}
    messages = [e for e in entries if e.is_message]

    def parent(entry: _Entry) -> _Entry | None:
        """The nearest message entry up the chain (through system and progress lines)."""
        seen: set[str] = set()
        current = entry
        while True:
            key = current.data.get("parentUuid") or current.data.get("logicalParentUuid")
            if not isinstance(key, str) or key in seen or key not in by_uuid:
                return None
            seen.add(key)
            current = by_uuid[key]
            if current.is_message:
                return current

    parents = {id(e): parent(e) for e in messages}
    has_child = {id(p) for p in parents.values() if p is not None}
    main = [e for e in messages if not e.data.get("isSidechain")]
    side = [e for e in messages if e.data.get("isSidechain")]
    first_meta: dict[str, Any] = {}
    if not main:  # a subagent's own file
        main, side, first_meta = side, [], {"sidechain": True}

    def chain(leaf: _Entry) -> list[_Entry]:
        out, seen = [], set()
        node: _Entry | None = leaf
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            out.append(node)
            node = parents[id(node)]
        return out[::-1]

    out: list[Conversation] = []
    if main:
        live = chain(main[-1])
        out.append(_conversation(live, reader, summaries, first_meta))
        on_live = {id(e) for e in live}
        for leaf in (e for e in main if id(e) not in has_child and id(e) not in on_live):
            branch = chain(leaf)
            shared = sum(1 for e in branch if id(e) in on_live)
            extra = {"branch": "abandoned", "branch_from_line": branch[shared].line
                     if shared < len(branch) else leaf.line}  # fmt: skip
            out.append(_conversation(branch, reader, summaries, extra))
    for leaf in (e for e in side if id(e) not in has_child):
        out.append(_conversation(chain(leaf), reader, summaries, {"sidechain": True}))
    return out


def _conversation(
    chain: list[_Entry], reader: Reader, summaries: dict[str, str], meta: dict[str, Any]
) -> Conversation:
    messages: list[Message] = []
    origins: list[Origin] = []
    last_response_id: str | None = None
    usage = {"input_tokens": 0, "output_tokens": 0}
    meta = dict(meta)
    for entry in chain:
        message = entry.data["message"]
        role = message.get("role") or entry.data.get("type")
        try:
            read = anthropic.read_message(
                {"role": role, "content": message.get("content")}, f"{entry.path}.message", reader
            )
        except Rejected as exc:
            reader.reject(exc)
            continue
        for key in _META_KEYS:
            if key in entry.data and key not in meta:
                meta[key] = entry.data[key]
        response_id = message.get("id") if role == "assistant" else None
        if role == "assistant" and isinstance(message.get("model"), str):
            meta.setdefault("model", message["model"])
        turn = message.get("usage")
        if isinstance(turn, dict) and response_id != last_response_id:
            for key in usage:
                value = turn.get(key)
                if isinstance(value, int) and not isinstance(value, bool):
                    usage[key] += value
        merge = messages and (
            (response_id is not None and response_id == last_response_id)
            or (read.role is Role.TOOL and messages[-1].role is Role.TOOL)
        )
        if merge:
            previous = messages[-1]
            extra = dict(previous.extra)
            if isinstance(turn, dict):
                extra["usage"] = turn
            messages[-1] = Message(previous.role, previous.parts + read.parts, extra)
        else:
            extra = {**read.extra, "uuid": entry.uuid}
            if isinstance(turn, dict):
                extra["usage"] = turn
            messages.append(Message(read.role, read.parts, extra))
            origins.append(Origin(entry.path, entry.line))
        last_response_id = response_id if role == "assistant" else None
    if any(usage.values()):
        meta["usage"] = usage
    title = next((summaries[e.uuid] for e in reversed(chain) if e.uuid in summaries), "")
    if meta.get("branch") or meta.get("sidechain"):
        mark = "[branch]" if meta.get("branch") else "[subagent]"
        title = f"{mark} {title or first_user_text(messages)}"
    return Conversation(renumber_ids(messages, reader, prefix="toolu"), [], meta, origins, title)
