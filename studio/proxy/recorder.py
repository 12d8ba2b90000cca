"""Storing what passes through the proxy: sessions, messages, events and outcomes.

Every write goes to one serial worker thread (the event loop never waits on
SQLite), in the order the exchanges happen, and each part of an exchange is
committed as soon as it is known: the request's new messages and its check
when the request arrives, the answer when it ends. A refresh of the Sessions
mode therefore shows a conversation as it goes.

The API key never reaches the database: the values of the request's
credential headers (:meth:`Secrets.from_headers`) are replaced by
``[REDACTED]`` in everything stored, and credential headers are stored by
name only.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from registry_db.sessions import Outcome, SessionStore
from registry_db.store import RegistryStore
from studio.contract import Registry
from studio.proxy.grouping import Conversation, digests
from studio.sessions.library import SOURCE_PROXY
from studio.sessions.model import Message, Role, message_from_dict, message_to_dict
from studio.sessions.redact import REDACTED, Secrets, is_secret_header
from studio.sessions.revalidate import FAILS, TOOL_GONE, revalidate

log = logging.getLogger(__name__)

TITLE_CHARS = 80
META_CACHE = 2048
"""Sessions whose list metadata the writer keeps in memory."""
RESUME_LIMIT = 200
"""Recorded sessions a proxy started again can continue."""
MAX_BATCH = 512
MAX_PENDING = 2000
"""Writes queued before new model calls wait for the writer (memory stays bounded)."""
"""Queued writes the writer takes at once."""


def redacted_headers(headers: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Headers for an event: credential headers keep their name only."""
    return {name: REDACTED if is_secret_header(name, value) else value for name, value in headers}


@dataclass(slots=True)
class RegistryTarget:
    """The registry version proposed calls are re-validated against (``--registry``).

    Attributes:
        name: The registry.
        version: ``None``: the version the registry's channels give each session
            (sticky by session id, so a canary share gets canary); else a
            version number or ``draft``.
    """

    name: str
    version: str | None = None


@dataclass(slots=True)
class SessionStart:
    """What a new session is created with."""

    title: str
    model: str
    system: str
    tools: list[Any]
    meta: dict[str, Any]


@dataclass(slots=True)
class Write:
    """One commit: events ``(type, data)``, messages from index ``first_index``, outcomes."""

    conversation: Conversation
    run_id: str
    first_seq: int
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    first_index: int = 0
    start: SessionStart | None = None
    revalidate: Message | None = None
    meta: dict[str, Any] | None = None
    secrets: Secrets = field(default_factory=Secrets)


class _Flush:
    """A marker in the write queue: set when every write before it is committed."""

    def __init__(self) -> None:
        self.done = threading.Event()


class Recorder:
    """The proxy's serial database writer.

    Args:
        store: The open database (its lock serialises every user).
        registry: Re-validate proposed calls against this registry, if given.
    """

    def __init__(self, store: RegistryStore, registry: RegistryTarget | None = None) -> None:
        self.store = store
        self.sessions = SessionStore.for_store(store)
        self.registry = registry
        self._queue: queue.SimpleQueue[Write | _Flush | None] = queue.SimpleQueue()
        self._versions: dict[str, tuple[Registry, str]] = {}
        self._meta: dict[str, dict[str, Any]] = {}
        self._pending = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="studio-proxy-writer", daemon=True)
        self._thread.start()
        self.failures = 0
        """Writes that failed (logged; the proxy keeps forwarding)."""
        self.listeners: list[Callable[[str], None]] = []
        """Called on the writer thread with a session's id after each commit of it
        (the GUI's live view, when the proxy runs in its process)."""

    # ---------------------------------------------------------------- called on the loop

    def submit(self, write: Write) -> None:
        """Queue one commit; returns when it is queued, not done."""
        with self._lock:
            self._pending += 1
        self._queue.put(write)

    @property
    def pending(self) -> int:
        """Writes queued and not committed yet."""
        with self._lock:
            return self._pending

    async def below(self, limit: int, poll: float = 0.002) -> None:
        """Return once fewer than ``limit`` writes are queued (the event loop keeps running)."""
        while self.pending >= limit:
            await asyncio.sleep(poll)

    def flush(self, timeout: float | None = 30.0) -> None:
        """Wait until every write queued before is committed (from any thread but the writer).

        Raises:
            TimeoutError: they were not committed within ``timeout`` seconds.
        """
        marker = _Flush()
        self._queue.put(marker)
        if not marker.done.wait(timeout):
            raise TimeoutError("the proxy's writes were not committed in time")

    def close(self) -> None:
        """Commit what is queued, then stop the worker."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    # ---------------------------------------------------------------- the worker

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Under load, writes queue up while one commits: take them together, so
            # the writes of one session in a row become one transaction.
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            writes: list[Write] = []
            for item in batch:
                if isinstance(item, Write):
                    writes.append(item)
                    continue
                self._commit(writes)
                writes = []
                if item is None:
                    return
                item.done.set()
            self._commit(writes)

    def _commit(self, writes: list[Write]) -> None:
        start = 0
        while start < len(writes):
            sid = writes[start].conversation.id
            end = start + 1
            while end < len(writes) and writes[end].conversation.id == sid:
                end += 1
            group = writes[start:end]
            try:
                self._write(group)
            except Exception:  # the proxy must keep forwarding whatever storage does
                self.failures += len(group)
                log.exception("proxy: could not record an exchange of session %s", sid)
            finally:
                with self._lock:
                    self._pending -= len(group)
            start = end

    def _write(self, group: list[Write]) -> None:
        """The writes of one session, in order: at most three transactions."""
        conversation = group[0].conversation
        sid = conversation.id
        events: list[tuple[int, str, str, dict[str, Any]]] = []
        messages: list[tuple[int, str, dict[str, Any]]] = []
        outcomes: list[Outcome] = []
        meta_update: dict[str, Any] = {}
        for write in group:
            secrets = write.secrets
            kinds = list(write.events)
            if write.revalidate is not None and self.registry is not None:
                data, found = self._revalidate(sid, write.revalidate)
                kinds.append(("proxy.revalidated", data))
                outcomes += found
            messages += [
                (write.first_index + i, write.run_id, secrets.value(message_to_dict(m)))
                for i, m in enumerate(write.messages)
            ]
            events += [
                (write.first_seq + i, write.run_id, kind, secrets.value(data))
                for i, (kind, data) in enumerate(kinds)
            ]
            meta_update.update(write.meta or {})
        first = group[0]
        if first.start is not None:
            start = first.start
            parent_id, parent_index = conversation.parent or (None, None)
            meta = first.secrets.value({**start.meta, **meta_update})
            self.sessions.create_session(
                session_id=sid,
                registry=self.registry.name if self.registry else "",
                version=self._version_label(sid),
                profile=start.model,
                title=first.secrets.text(start.title),
                system=first.secrets.text(start.system),
                parent_session_id=parent_id,
                parent_message_index=parent_index,
                source=SOURCE_PROXY,
                tools=first.secrets.value(start.tools),
                meta=meta,
                status="recorded",
            )
            self._remember_meta(sid, meta)
            meta_update = {}
        new_meta = None
        if messages:
            # The session list reads its counts from meta, never the messages: keep
            # them with the message count they were taken at (studio.ui.sessions.session_list).
            known = self._known_meta(sid)
            meta_update["problems_at"] = max(
                int(known.get("problems_at") or 0), max(idx for idx, _, _ in messages) + 1
            )
            meta_update["calls"] = int(known.get("calls") or 0) + sum(
                len(m.tool_calls) for w in group for m in w.messages
            )
            meta_update.setdefault("problems", int(known.get("problems") or 0))
        if meta_update:
            known = self._known_meta(sid)
            updated = {**known, **meta_update}
            self._remember_meta(sid, updated)
            new_meta = updated if updated != known else None
        # One transaction: the messages and the counts that describe them.
        self.sessions.append_batch(sid, events, messages, outcomes, meta=new_meta)
        for listener in list(self.listeners):
            try:
                listener(sid)
            except Exception:  # a listener's failure must not stop the recording
                log.exception("proxy: a listener failed on session %s", sid)

    def _known_meta(self, sid: str) -> dict[str, Any]:
        known = self._meta.get(sid)
        if known is None:
            known = self.sessions.get_session(sid).meta
            self._remember_meta(sid, known)
        return known

    def _remember_meta(self, sid: str, meta: dict[str, Any]) -> None:
        # Bounded: a forgotten session's meta is read back from the database.
        self._meta.pop(sid, None)
        self._meta[sid] = meta
        while len(self._meta) > META_CACHE:
            self._meta.pop(next(iter(self._meta)))

    def _version_label(self, sid: str) -> str:
        if self.registry is None:
            return ""
        try:
            return self._registry_for(sid)[1]
        except Exception as exc:  # a registry with nothing published: record without it
            log.warning("proxy: no version of %s to check against: %s", self.registry.name, exc)
            return ""

    def _registry_for(self, sid: str) -> tuple[Registry, str]:
        assert self.registry is not None
        cached = self._versions.get(sid)
        if cached is not None:
            return cached
        target = self.registry
        if target.version == "draft":
            found = (self.store.draft_registry(target.name), "draft")
        elif target.version is not None:
            number = int(target.version)
            found = (self.store.load_version(target.name, number).registry, str(number))
        else:
            from studio.release.resolve import resolve

            resolution = resolve(self.store, target.name, sid)
            found = (resolution.document, str(resolution.version))
        if len(self._versions) > 4096:
            self._versions.clear()
        self._versions[sid] = found
        return found

    def _revalidate(self, sid: str, message: Message) -> tuple[dict[str, Any], list[Outcome]]:
        assert self.registry is not None
        registry, version = self._registry_for(sid)
        report = revalidate([message], registry, version=version, session_id=sid)
        outcomes = []
        for row in report.rows:
            tool = registry.tool(row.tool)
            failed = row.status in (FAILS, TOOL_GONE)
            outcomes.append(
                Outcome(
                    sid,
                    row.call_id,
                    registry.name,
                    version,
                    row.tool,
                    "rejected" if failed else "ok",
                    row.error_code,
                    0.0,
                    "",
                    risk=tool.risk.value if tool is not None else "",
                )
            )
        data = {
            "registry": registry.name,
            "version": version,
            "counts": report.counts,
            "rows": [r.to_dict() for r in report.rows],
        }
        return data, outcomes


def recorded_conversations(
    sessions: SessionStore, *, kind: str, upstream: str, limit: int = RESUME_LIMIT
) -> list[Conversation]:
    """The newest proxy sessions recorded for this upstream, oldest first, as conversations.

    A proxy started again knows them, so an agent that goes on after a restart
    goes on in the same session.
    """
    found: list[Conversation] = []
    for info in sessions.list_sessions(source=SOURCE_PROXY):
        if len(found) >= limit:
            break
        meta = info.meta
        if meta.get("kind") != kind or meta.get("upstream") != upstream:
            continue
        messages = [message_from_dict(m) for m in sessions.messages(info.id)]
        parent = (
            (info.parent_session_id, info.parent_message_index or 0)
            if info.parent_session_id
            else None
        )
        found.append(
            Conversation(
                info.id,
                digests(messages),
                seq=sessions.next_seq(info.id),
                header_key=str(meta.get("session_header") or ""),
                parent=parent,
                broken_requests=int(meta.get("broken_requests") or 0),
            )
        )
    return found[::-1]


def session_start(
    messages: Sequence[Message], body: Mapping[str, Any], meta: dict[str, Any]
) -> SessionStart:
    """Title (the first user text), model, system text and tools of a new session."""
    title = ""
    for message in messages:
        if message.role is Role.USER and message.text.strip():
            title = " ".join(message.text.split())
            if len(title) > TITLE_CHARS:
                title = title[: TITLE_CHARS - 1] + "…"
            break
    system = "\n\n".join(m.text for m in messages if m.role is Role.SYSTEM and m.text)
    tools = body.get("tools")
    model = body.get("model")
    return SessionStart(
        title, str(model or ""), system, list(tools) if isinstance(tools, list) else [], meta
    )
