"""Live sessions: the Sessions mode notices new messages while a proxy (or a run) records.

Two sources of news, both ending in :attr:`LiveWatch.changed` on the GUI thread:

* a poll of :meth:`SessionStore.change_marker` (newest message id, session
  count, newest session update) every :data:`POLL_MS` while the mode is shown
  — it catches ``studio proxy`` in another process and playground runs, and
  costs one small query that reads no message;
* the in-process proxy (:class:`ProxyRecording`, Sessions → "Record proxy…"):
  its recorder calls back after each commit, from its writer thread; the
  callback only emits a queued signal, so the GUI reacts within the event
  loop's next turn instead of waiting for the poll.

Either way the browser re-reads the list (one query) and, when the shown
session grew, that session's messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from registry_db import RegistryStore
from registry_db.sessions import SessionStore

if TYPE_CHECKING:  # studio.proxy loads uvicorn and httpx: only when a proxy starts
    from studio.proxy.run import ProxyThread

POLL_MS = 1000
TOLD_MS = 50
"""After the in-process proxy commits, the view looks this much later (bursts coalesce)."""
KINDS = ("openai-chat", "anthropic-messages")
"""The upstream wire formats (``studio.proxy.wire.Kind`` values)."""
POLICIES = ("forward", "repair", "refuse")
"""What to do with a broken request (``studio.proxy.policy.OnBroken`` values)."""


class LiveWatch(QObject):
    """Emits :attr:`changed` when the stored sessions change (polled, or told by the proxy)."""

    changed = Signal()
    _told = Signal()

    def __init__(self, sessions: SessionStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sessions = sessions
        self.marker: tuple[int, int, str] | None = None
        self.since: tuple[int, int, str] | None = None
        """The marker before the last change :meth:`poll` saw."""
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        # Emitted from the proxy's writer thread: queued, so it runs on ours. A burst
        # of commits becomes one poll (and one list read) a moment later.
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(TOLD_MS)
        self._soon.timeout.connect(self.poll)
        self._told.connect(self._schedule)

    def start(self) -> None:
        """Poll while the Sessions mode is shown (the marker is taken at once)."""
        if self.marker is None:
            self.marker = self.sessions.change_marker()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self._soon.stop()

    def reset(self) -> tuple[int, int, str]:
        """The list is about to be read: what is stored now is not news (returns the marker)."""
        self.marker = self.sessions.change_marker()
        return self.marker

    def _schedule(self) -> None:
        if not self._soon.isActive():
            self._soon.start()

    def tell(self, _session_id: str = "") -> None:
        """Thread-safe: something was committed (the in-process proxy's recorder calls this)."""
        self._told.emit()

    def poll(self) -> bool:
        """Check the marker; emit :attr:`changed` when it moved. Returns whether it did.

        :attr:`since` is then the marker before the change: what the receiver re-reads.
        """
        marker = self.sessions.change_marker()
        if marker == self.marker:
            return False
        self.since, self.marker = self.marker, marker
        self.changed.emit()
        return True


@dataclass(frozen=True, slots=True)
class ProxySettings:
    """What "Record proxy…" asks for (the CLI's ``studio proxy`` options)."""

    upstream: str
    kind: str
    """One of :data:`KINDS`."""
    port: int = 0
    """0: any free port."""
    on_broken: str = "forward"
    """One of :data:`POLICIES`."""


def check_upstream(url: str) -> str:
    """The upstream URL, or ValueError with a one-line reason (shown to the user)."""
    from urllib.parse import urlsplit

    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"the upstream must be an http(s) URL, not {url!r}")
    return url


class ProxyRecording(QObject):
    """The recording proxy on a thread of the GUI process, recording into the open store.

    Listens on 127.0.0.1 only. The proxy shares the store's connection and lock
    (its writer thread holds the lock for one short transaction at a time).
    """

    stateChanged = Signal(bool)

    def __init__(self, store: RegistryStore, watch: LiveWatch, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.watch = watch
        self.server: ProxyThread | None = None
        self.settings: ProxySettings | None = None

    @property
    def running(self) -> bool:
        return self.server is not None

    @property
    def url(self) -> str:
        return self.server.url if self.server is not None else ""

    def start(self, settings: ProxySettings) -> str:
        """Start listening; returns the URL an agent is pointed at.

        Raises:
            ValueError: a bad upstream URL.
            OSError: the port is taken (or not allowed).
            RuntimeError: the server did not start.
        """
        if self.server is not None:
            raise RuntimeError(f"the proxy already listens on {self.server.url}")
        # uvicorn and httpx load when a proxy starts, not with the Sessions mode.
        from studio.proxy.app import ProxyConfig
        from studio.proxy.policy import OnBroken
        from studio.proxy.run import ProxyThread
        from studio.proxy.wire import Kind

        config = ProxyConfig(
            check_upstream(settings.upstream), Kind(settings.kind), OnBroken(settings.on_broken)
        )
        server = ProxyThread(config, self.store, port=settings.port)
        if server.recorder is not None:
            server.recorder.listeners.append(self.watch.tell)
        try:
            server.start()
        except RuntimeError:
            server.stop(2.0)
            raise
        self.server, self.settings = server, settings
        self.stateChanged.emit(True)
        return server.url

    def stop(self) -> None:
        """Stop listening; what was recorded is committed first."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()
            self.stateChanged.emit(False)
