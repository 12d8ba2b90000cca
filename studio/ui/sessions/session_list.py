"""The session list from session rows and message counts only; counts of grown sessions later.

Reading every message on each refresh made the list slow with thousands of
sessions (and the live view refreshes often). :func:`list_rows` builds the
rows from ONE query (:meth:`SessionStore.list_summaries`): the problem and
call counts come from the session's meta, where the importer, the proxy's
recorder and :func:`count_sessions` keep them with the message count they
were taken at. A session that grew since (a playground run, an older proxy
recording) is listed with its last counts and named in ``stale``;
:func:`count_sessions` reads those sessions' messages — off the GUI thread —
and stores fresh counts, so the next refresh reads no message again.

Qt-free: the browser runs :func:`count_sessions` as a background job.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from registry_db.errors import NotFoundError
from registry_db.sessions import SessionStore, SessionSummary
from studio.sessions.library import SOURCE_IMPORT, SessionRow, problem_count
from studio.sessions.model import message_from_dict

MAX_COUNTED = 200
"""Sessions one background count reads at most (the rest wait for the next refresh)."""


@dataclass(frozen=True, slots=True)
class SessionList:
    """The rows, newest first, and the ids whose counts are older than their messages."""

    rows: list[SessionRow]
    stale: list[str]
    message_counts: dict[str, int]
    """Session id → its message count (the live view sees a session grow by it)."""


@dataclass(frozen=True, slots=True)
class Counts:
    """A session's counts as :func:`count_sessions` took them."""

    problems: int
    calls: int
    messages: int


def _fresh(summary: SessionSummary) -> bool:
    meta = summary.meta
    if meta.get("problems") is None or meta.get("calls") is None:
        return summary.message_count == 0
    if summary.source == SOURCE_IMPORT and meta.get("problems_at") is None:
        return True  # an import never grows; older imports kept no problems_at
    return meta.get("problems_at") == summary.message_count


def _row(summary: SessionSummary) -> SessionRow:
    info, meta = summary, summary.meta
    file = str(meta.get("file") or "")
    if file and meta.get("line") not in (None, 1):
        file = f"{file}:{meta['line']}"
    return SessionRow(info.id, info.title, info.source, info.registry, info.version,
                      str(meta.get("model") or info.profile), int(meta.get("problems") or 0),
                      summary.message_count, info.status, info.created_at,
                      int(meta.get("calls") or 0), file)  # fmt: skip


def list_rows(
    sessions: SessionStore,
    *,
    registry: str | None = None,
    source: str | None = None,
    changed_since: tuple[int, str] | None = None,
) -> SessionList:
    """The browser's rows from one query; no message is read.

    Args:
        changed_since: Only the sessions changed since this ``(message id,
            updated_at)`` (see :meth:`SessionStore.list_summaries`).
    """
    rows, stale, counts = [], [], {}
    summaries = sessions.list_summaries(registry, source=source, changed_since=changed_since)
    for summary in summaries:
        rows.append(_row(summary))
        counts[summary.id] = summary.message_count
        if not _fresh(summary):
            stale.append(summary.id)
    return SessionList(rows, stale, counts)


def count_sessions(sessions: SessionStore, ids: Iterable[str]) -> dict[str, Counts]:
    """Count problems and calls of ``ids`` from their messages and keep the counts in meta.

    Sessions deleted meanwhile are skipped. At most :data:`MAX_COUNTED` are read.
    """
    counted: dict[str, Counts] = {}
    for session_id in list(ids)[:MAX_COUNTED]:
        try:
            info = sessions.get_session(session_id)
        except NotFoundError:
            continue
        messages = [message_from_dict(m) for m in sessions.messages(session_id)]
        counts = Counts(
            problem_count(messages), sum(len(m.tool_calls) for m in messages), len(messages)
        )
        meta = {**info.meta, "problems": counts.problems, "problems_at": counts.messages,
                "calls": counts.calls}  # fmt: skip
        if meta != info.meta:
            sessions.set_meta(session_id, meta)
        counted[session_id] = counts
    return counted
