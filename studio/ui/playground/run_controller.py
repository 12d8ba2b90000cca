"""Bridges one :class:`studio.runtime.Run` at a time to Qt signals on the GUI thread.

The run is an asyncio task on the qasync loop (the GUI thread's loop), so its
``on_event`` callback already runs on the GUI thread: events are re-emitted as
signals as they happen. Nothing here waits: :meth:`start` schedules the run
and a watcher task that reports the end; :meth:`stop` cancels.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from registry_db.sessions import SessionStore
from studio.providers import ModelClient, ModelProfile, client_for
from studio.runtime import Approver, Run, RunConfig, RunEvent, RunResult
from studio.sessions.export import ExportFormat, export_session
from studio.sessions.model import message_from_dict

_log = logging.getLogger(__name__)

ClientFactory = Callable[[ModelProfile], ModelClient]


class RunController(QObject):
    """Starts, stops and reports runs; keeps the session of the last one.

    Args:
        sessions: Where sessions are stored.
        client_factory: Makes the model client of a profile (tests may wrap it).
        approver: Decides write/destructive calls (the view passes the dialog).

    Signals:
        runStarted(Run): A run was scheduled (its messages hold any prefix).
        eventReceived(RunEvent): Every event, right after it is persisted.
        runFinished(RunResult): The run ended (completed, partial, failed, cancelled).
        busyChanged(bool): A run started or ended.
        agentUpdate(str, str, str): A delegation's streamed (agent, state, text).
    """

    runStarted = Signal(object)
    eventReceived = Signal(object)
    runFinished = Signal(object)
    busyChanged = Signal(bool)
    agentUpdate = Signal(str, str, str)

    def __init__(
        self,
        sessions: SessionStore,
        *,
        client_factory: ClientFactory = client_for,
        approver: Approver | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.sessions = sessions
        self.client_factory = client_factory
        self.approver = approver
        self.run: Run | None = None
        self.session_id: str | None = None
        self.system = ""
        self.result: RunResult | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._busy = False

    @property
    def busy(self) -> bool:
        """True from :meth:`start` until the run has ended and its client is closed."""
        return self._busy

    def start(
        self,
        config: RunConfig,
        profile: ModelProfile,
        prompt: str | None,
        *,
        from_message: int | None = None,
    ) -> Run:
        """Schedule a run (on a new session, or branched from ``from_message`` of the last one).

        Raises:
            RuntimeError: A run is in progress, or there is no session to branch from.
        """
        if self.busy:
            raise RuntimeError("a run is in progress; stop it first")
        session_id = self.session_id
        if from_message is not None and session_id is None:
            raise RuntimeError("there is no session to run again from")
        from studio.runtime.capabilities import with_capabilities

        # The catalogue, load_skill and delegate_to_<agent>, as studio run has them (issue #18).
        config = with_capabilities(config, on_agent_update=self.agentUpdate.emit)
        client = self.client_factory(profile)
        kwargs: dict[str, Any] = {"approver": self.approver, "on_event": self._on_event}
        try:
            if from_message is not None and session_id is not None:
                run = Run.from_session(
                    client, config, self.sessions, session_id, from_message, **kwargs
                )
            else:
                run = Run(
                    client, config, sessions=self.sessions, title=(prompt or "")[:80], **kwargs
                )
        except Exception:
            # The run never starts, so _watch never closes its clients: close them here.
            asyncio.get_running_loop().create_task(_close_clients(client, config))
            raise
        self.run = run
        self.session_id = run.session_id
        self.system = config.system
        self.result = None
        self.runStarted.emit(run)
        run.start(prompt or None)
        self._watcher = asyncio.get_running_loop().create_task(self._watch(run, client, config))
        self._busy = True
        self.busyChanged.emit(True)
        return run

    def stop(self) -> None:
        """Cancel the in-flight request and pending tool calls (run.cancelled follows)."""
        if self.run is not None and self.busy:
            self.run.cancel()

    def _on_event(self, event: RunEvent) -> None:
        self.eventReceived.emit(event)

    async def _watch(self, run: Run, client: ModelClient, config: RunConfig) -> None:
        try:
            result = await run.wait()
        except asyncio.CancelledError:
            result = None
        finally:
            await _close_clients(client, config)
        if result is not None:
            self.result = result
        self._busy = False
        if result is not None:
            self.runFinished.emit(result)
        self.busyChanged.emit(False)

    def export(self, fmt: ExportFormat) -> dict[str, Any]:
        """The current session as OpenAI or Anthropic messages JSON."""
        if self.session_id is None:
            raise RuntimeError("no session to export yet")
        messages = [message_from_dict(m) for m in self.sessions.messages(self.session_id)]
        return export_session(messages, fmt, system=self.system)


async def _close_clients(client: ModelClient, config: RunConfig) -> None:
    """Close the model client and the run's HTTP executors (their connection pools)."""
    closers = [client.aclose]
    for executor in {id(e): e for e in config.executors.values()}.values():
        aclose = getattr(executor, "aclose", None)
        if aclose is not None:
            closers.append(aclose)
    for close in closers:
        try:
            await close()
        except Exception:  # closing a broken connection must not hide the run's end
            _log.exception("closing a client of the run failed")
