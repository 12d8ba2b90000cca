"""Imported sessions in the session store, the rows of the session browser, and tools as drafts.

Imported sessions live beside playground runs (``sessions``/``messages``
tables) with ``source = "import"``; the tools that came with the log are kept
with the session (``SessionInfo.tools``) and can become a registry draft.

Each imported session is stored with all its messages in one transaction, with
a content hash of the conversation in its meta: importing the same
conversation again stores nothing and names the session it already is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from registry_db.sessions import SessionInfo, SessionStore
from studio.formats import import_text
from studio.formats.base import FormatError
from studio.sessions.import_hash import conversation_hash
from studio.sessions.importers import ImportedSession
from studio.sessions.importers.openai_plain import PlainSession
from studio.sessions.writes import is_write_tool

if TYPE_CHECKING:
    # Annotations only: importing a log needs neither the registry store nor the contract
    # model, and storing a plain OpenAI log (openai_plain) builds no messages (the message
    # classes are imported where messages are read or written).
    from registry_db import RegistryStore
    from studio.contract.model import Registry
    from studio.formats.base import ImportResult
    from studio.sessions.model import Message

SOURCE_IMPORT = "import"
SOURCE_PLAYGROUND = "playground"
SOURCE_REPLAY = "replay"
SOURCE_MCP = "mcp"
"""Calls an MCP client made to a version served with ``studio mcp serve`` or ``/mcp/…``."""
SOURCE_PROXY = "proxy"
"""Conversations an agent sent through ``studio proxy`` to its provider."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One row of the session browser."""

    id: str
    title: str
    source: str
    registry: str
    version: str
    model: str
    problems: int
    messages: int
    status: str
    created_at: str
    calls: int = 0
    file: str = ""
    """The log file an imported session came from (``name:line``)."""


def problem_count(messages: Sequence[Message]) -> int:
    """Pairing problems plus suspicious patterns (no registry needed)."""
    # Imported on use: an import of plain logs of reads (openai_plain) needs neither.
    from studio.sessions.pairing import pairing_problems
    from studio.sessions.suspicious import find_suspicious

    return len(pairing_problems(messages)) + len(find_suspicious(messages))


def content_hash(imported: ImportedSession) -> str:
    """SHA-256 of what an imported conversation holds (messages, tools, format, log fields).

    The same conversation imported again (the same file twice, or copied into
    another file) has the same hash, so it is recognised and not stored twice.
    """
    return _content_hash(imported, _docs(imported))


def _docs(imported: ImportedSession) -> list[dict[str, Any]]:
    """Per message, its stored dict (read so by openai_plain, else made from the message)."""
    if isinstance(imported, PlainSession):
        return imported.docs
    from studio.sessions.model import message_to_dict

    return [message_to_dict(m) for m in imported.messages]


def _content_hash(imported: ImportedSession, docs: list[dict[str, Any]]) -> str:
    """:func:`content_hash` given the messages already as dicts (storing needs them too)."""
    document = {
        "format": imported.source_format,
        "messages": docs,
        "tools": imported.tools,
        "meta": imported.meta,
        "title": imported.title,
    }
    return conversation_hash(document)


def session_id_for(imported: ImportedSession) -> str:
    """The id an imported conversation is stored under (from its :func:`content_hash`)."""
    return content_hash(imported).rpartition(":")[2][:32]


def store_imported(
    sessions: SessionStore,
    imported: ImportedSession,
    *,
    file: str = "",
    registry: str = "",
    version: str = "",
    replace: bool = False,
) -> tuple[SessionInfo, bool]:
    """Store one imported session (``source = "import"``) with its messages, in one transaction.

    The meta keeps, per message, where it was in the file (``origins``) so
    findings on the stored session name the file's lines and paths.

    Args:
        replace: Store it anew even when it was imported before (the earlier
            session of the same content is replaced).

    Return:
        The session and True, or — when the same conversation was imported
        before (same :func:`content_hash`) and not ``replace`` — that earlier
        session and False.

    Raises:
        FormatError: when the session holds text no encoder can write (a lone
            surrogate); nothing is stored.
    """
    origins: Sequence[Sequence[Any]]  # (path, line) per message: a JSON array in the meta
    if isinstance(imported, PlainSession):
        # Read into its stored form: the rows, and what the checks need, are at hand.
        docs, system, calls = imported.docs, imported.system, imported.calls
        problems, origins = _plain_problem_count(imported), imported.origin_rows
    else:
        from studio.sessions.model import Role, ToolCallPart, message_to_dict

        messages = imported.messages
        system_role = Role.SYSTEM  # looked up once: an enum member costs ~0.2 µs from its class
        system = "\n\n".join([m.text for m in messages if m.role is system_role and m.text])
        problems = problem_count(messages)
        # Message.tool_calls builds a tuple per message: count the parts instead.
        calls = sum([isinstance(p, ToolCallPart) for m in messages for p in m.parts])
        origins = [[o.path, o.line] for o in imported.origins]
        docs = [message_to_dict(m) for m in messages]
    meta = {
        **{k: v for k, v in imported.meta.items() if isinstance(v, str | int | float | bool)},
        "model": imported.model,
        "file": file,
        "line": imported.line,
        "format": imported.source_format,
        "warnings": [str(w) for w in imported.warnings],
        "problems": problems,
        "problems_at": len(docs),
        "calls": calls,
        "origins": origins,
    }
    try:
        return sessions.import_session(
            _content_hash(imported, docs), docs, title=imported.title, profile=imported.model,
            system=system, registry=registry, version=version, tools=imported.tools, meta=meta,
            replace=replace,
        )  # fmt: skip
    except UnicodeEncodeError as exc:
        # The importers refuse lone surrogates; this guards sessions built elsewhere.
        raise FormatError(
            f"{file or 'session'}:{imported.line}: text holds a lone surrogate; not stored"
        ) from exc


def _plain_problem_count(imported: PlainSession) -> int:
    """:func:`problem_count` of a session read by openai_plain, from what the reading noted.

    Its messages are built only when the reading could not count the pairing problems,
    or a tool called is a write (:func:`find_suspicious` then looks at the results).
    """
    pairing = imported.pairing
    if pairing is None:
        from studio.sessions.pairing import pairing_problems

        pairing = len(pairing_problems(imported.messages))
    if any(is_write_tool(name) for name in imported.call_names):
        from studio.sessions.suspicious import find_suspicious

        return pairing + len(find_suspicious(imported.messages))
    return pairing  # reads only: find_suspicious finds nothing to look at


def save_imported(
    sessions: SessionStore,
    imported: ImportedSession,
    *,
    file: str = "",
    registry: str = "",
    version: str = "",
) -> SessionInfo:
    """Store one imported session (see :func:`store_imported`); a repeat returns the earlier one."""
    return store_imported(sessions, imported, file=file, registry=registry, version=version)[0]


def store_derived(
    sessions: SessionStore,
    messages: Sequence[Message],
    *,
    source: str,
    parent: SessionInfo | None,
    title: str,
    meta: dict[str, Any] | None = None,
) -> SessionInfo:
    """Store what repair, convert or trim made, as a new session linked to its source.

    Args:
        source: ``repair``, ``convert`` or ``trim`` (the session list's source column).
        parent: The stored session it was made from (None for a file).
        meta: What to remember (the changes, the target provider, tokens kept).

    Return:
        The new session (or the one already holding the same result).
    """
    from studio.sessions.model import Role, message_to_dict

    docs = [message_to_dict(m) for m in messages]
    info_meta = {
        **(meta or {}),
        "model": str(parent.meta.get("model") or "") if parent else "",
        "problems": problem_count(messages),
        "problems_at": len(messages),
        "calls": sum(len(m.tool_calls) for m in messages),
        "derived_from": parent.id if parent else str((meta or {}).get("file", "")),
    }
    text = json.dumps({"source": source, "parent": parent.id if parent else "", "messages": docs},
                      sort_keys=True, ensure_ascii=True)  # fmt: skip
    digest = "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()
    system = "\n\n".join(m.text for m in messages if m.role is Role.SYSTEM and m.text)
    info, _ = sessions.import_session(
        digest, docs, title=title, profile=str(info_meta["model"]), system=system,
        registry=parent.registry if parent else "", version=parent.version if parent else "",
        tools=parent.tools if parent else (), meta=info_meta, source=source,
        parent_session_id=parent.id if parent else None,
    )  # fmt: skip
    return info


def load_messages(sessions: SessionStore, session_id: str) -> list[Message]:
    from studio.sessions.model import message_from_dict

    return [message_from_dict(m) for m in sessions.messages(session_id)]


def stored_origins(info: SessionInfo) -> list[str]:
    """Per message, where it was in the imported file (``name line 12 $.messages[7]``)."""
    file = str(info.meta.get("file") or "")
    out = []
    for entry in info.meta.get("origins") or ():
        try:
            path, line = str(entry[0]), int(entry[1])
        except (TypeError, ValueError, IndexError):
            out.append("")
            continue
        out.append(f"{file} line {line} {path}".strip())
    return out


def session_rows(
    sessions: SessionStore, *, source: str | None = None, registry: str | None = None
) -> list[SessionRow]:
    """Rows for the session browser, newest first.

    The problem count is cached in the session's meta and recomputed when
    the session has grown since (a playground session still running).
    """
    from studio.sessions.model import message_from_dict

    rows = []
    for info in sessions.list_sessions(registry, source=source):
        meta = dict(info.meta)
        count = meta.get("problems")
        stored = (
            sessions.messages(info.id) if count is None or info.source != SOURCE_IMPORT else None
        )
        if stored is not None and (count is None or meta.get("problems_at") != len(stored)):
            count = problem_count([message_from_dict(m) for m in stored])
            meta.update(problems=count, problems_at=len(stored))
            sessions.set_meta(info.id, meta)
        size = int(meta.get("problems_at", 0)) if stored is None else len(stored)
        calls = meta.get("calls")
        if calls is None:
            docs = stored if stored is not None else sessions.messages(info.id)
            calls = sum(len(message_from_dict(m).tool_calls) for m in docs)
            meta["calls"] = calls
            if info.source == SOURCE_IMPORT:
                sessions.set_meta(info.id, meta)
        file = str(meta.get("file") or "")
        if file and meta.get("line") not in (None, 1):
            file = f"{file}:{meta['line']}"
        rows.append(SessionRow(info.id, info.title, info.source, info.registry, info.version,
                               str(meta.get("model") or info.profile), int(count or 0), size,
                               info.status, info.created_at, int(calls), file))  # fmt: skip
    return rows


def tools_as_registry(tools: Sequence[Any], name: str) -> ImportResult:
    """The tools that came with a log as a registry document (the tool-definition importers).

    Raises:
        FormatError: the tool list is empty or in no known format.
    """
    if not tools:
        raise FormatError("the session came with no tool definitions")
    return import_text(json.dumps({"tools": list(tools)}), "auto", name=name)


def import_tools_as_draft(
    store: RegistryStore, tools: Sequence[Any], name: str
) -> tuple[Registry, bool]:
    """Import ``tools`` as the draft of registry ``name`` (created, or its draft replaced).

    Return:
        The registry and whether an existing draft was replaced.
    """
    registry = tools_as_registry(tools, name).registry
    exists = any(r.name == name for r in store.list_registries())
    store.import_registry(registry, replace_draft=exists)
    return registry, exists
