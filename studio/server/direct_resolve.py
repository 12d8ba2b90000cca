"""Resolve answers written by the HTTP protocol itself, before any ASGI machinery.

A resolve answer is pre-rendered bytes (:mod:`studio.server.fast_resolve`),
yet going through uvicorn's ASGI path it still cost a request ~10 µs of the
served process's CPU that a bare app does not spend on its own bytes: a
``RequestResponseCycle``, an ``asyncio.Event`` and a ``Task`` per request, the
proxy-headers middleware, two ASGI messages and two regular expressions per
response header. At 50 connections that was the gap between ``studio serve``
and a bare uvicorn app (0.6× its requests a second).

:class:`DirectResolveMixin` (on uvicorn's httptools protocol) answers a
plain resolve request as soon as its head is parsed: the same lookup as the
ASGI fast path (:meth:`ResolveFastPath.lookup`, so the same bucketing per
request, audience rules, ETag and 304), the same head uvicorn would write
(cached per answer until uvicorn's ``date`` header changes, once a second),
one socket write, and uvicorn's own bookkeeping after a response (request
count, keep-alive timer). Whatever is not exactly that case goes through
uvicorn unchanged: another method or path, HTTP/1.0 or ``Connection: close``,
a request body, ``Expect``, an upgrade, a response still being written on
the connection (pipelining keeps its order), a client not reading (write
flow control paused), the concurrency limit reached, an access log on, or
any query the fast path leaves to Starlette.
"""

from __future__ import annotations

from typing import Any

import httptools
import uvicorn

from studio.server.fast_resolve import RenderedResolve, ResolveFastPath, etag_matches

try:
    from uvicorn.protocols.http.httptools_impl import HEADER_RE, HEADER_VALUE_RE, STATUS_LINE
except ImportError:  # pragma: no cover - another uvicorn: see supports()
    HEADER_RE = HEADER_VALUE_RE = STATUS_LINE = None  # type: ignore[assignment]

WRITTEN_FOR = ((0, 54), (0, 55))
"""The uvicorn versions (major, minor) whose protocol internals the mixin was written
and tested against: it reads and drives the protocol's private state (``cycle``,
``pipeline``, ``flow``, the keep-alive timer), which uvicorn may change in any release."""


def supports(version: str = uvicorn.__version__) -> bool:
    """True when direct answers may be mixed into this uvicorn's protocol.

    Another version serves every request through uvicorn's ASGI path: the
    same answers, only without the shortcut, until the mixin is checked
    against it and the version added to :data:`WRITTEN_FOR`.
    """
    try:
        major, minor = (int(part) for part in version.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) in WRITTEN_FOR and STATUS_LINE is not None


_PREFIX = b"/v1/registries/"
_SUFFIX = b"/resolve"
_BODY_HEADERS = (b"content-length", b"transfer-encoding")
_MAX_HEADS = 4096


class ResponseHeads:
    """Each answer's response head as uvicorn would write it, rebuilt when its date changes.

    uvicorn replaces ``server_state.default_headers`` (its ``date`` header)
    once a second; a head is kept until then. Keyed by the answer's identity
    (answers are cached objects; the entry keeps the answer alive, so its id
    is not reused while the entry stands).
    """

    def __init__(self) -> None:
        self._defaults: object = None
        self._heads: dict[tuple[int, int], tuple[RenderedResolve, bytes | None]] = {}

    def head(self, rendered: RenderedResolve, status: int, defaults: list[Any]) -> bytes | None:
        """The head of ``rendered`` answered with ``status``; None when uvicorn would refuse it."""
        if defaults is not self._defaults:
            self._defaults = defaults
            self._heads = {}
        key = (id(rendered), status)
        entry = self._heads.get(key)
        if entry is None or entry[0] is not rendered:
            headers = rendered.ok_headers if status == 200 else rendered.not_modified_headers
            entry = (rendered, _render_head(status, [*defaults, *headers]))
            if len(self._heads) >= _MAX_HEADS:
                self._heads = {}
            self._heads[key] = entry
        return entry[1]


def _render_head(status: int, headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """uvicorn's head for a keep-alive response with a length (None: a header it refuses)."""
    content = [STATUS_LINE[status]]
    for name, value in headers:
        if HEADER_RE.search(name) or HEADER_VALUE_RE.search(value):
            return None  # uvicorn's ASGI path raises its own error for it
        content += [name.lower(), b": ", value, b"\r\n"]
    content.append(b"\r\n")
    return b"".join(content)


class DirectResolveMixin:
    """Answers plain resolve requests from ``on_headers_complete`` (see the module).

    Mixed in before uvicorn's ``HttpToolsProtocol``; ``resolve_fast_path``
    and ``response_heads`` are set on the class built for a server.
    ``direct_answers`` counts this connection's direct answers: the
    head-deadline guard reads it to see that a head was complete although
    no ``cycle`` was made for it.
    """

    resolve_fast_path: ResolveFastPath | None = None
    response_heads: ResponseHeads
    direct_answers = 0
    _direct_pending = False
    # uvicorn's HttpToolsProtocol attributes
    parser: Any
    transport: Any
    cycle: Any
    pipeline: Any
    flow: Any
    url: bytes
    headers: list[tuple[bytes, bytes]]
    expect_100_continue: bool
    access_log: bool
    root_path: str
    limit_concurrency: int | None
    connections: Any
    tasks: Any
    server_state: Any
    loop: Any
    timeout_keep_alive: float
    timeout_keep_alive_task: Any

    def on_headers_complete(self) -> None:
        if not self._answer_directly():
            super().on_headers_complete()  # type: ignore[misc]

    def on_body(self, body: bytes) -> None:
        if not self._direct_pending:
            super().on_body(body)  # type: ignore[misc]

    def on_message_complete(self) -> None:
        if self._direct_pending:  # answered already; there is no cycle to tell
            self._direct_pending = False
            return
        super().on_message_complete()  # type: ignore[misc]

    def _answer_directly(self) -> bool:
        """Write the answer of a plain resolve request now; False leaves it to uvicorn."""
        fast = self.resolve_fast_path
        cycle = self.cycle
        if (
            fast is None
            or (cycle is not None and not cycle.response_complete)
            or self.pipeline
            or self.flow.write_paused
            or self.expect_100_continue
            or self.access_log
            or self.root_path
            or self.transport.is_closing()
        ):
            return False
        parser = self.parser
        if (
            parser.get_method() != b"GET"
            or parser.get_http_version() != "1.1"
            or not parser.should_keep_alive()
            or parser.should_upgrade()
        ):
            return False
        limit = self.limit_concurrency
        if limit is not None and (len(self.connections) >= limit or len(self.tasks) >= limit):
            return False  # uvicorn answers 503
        try:
            url = httptools.parse_url(self.url)
        except httptools.HttpParserError:
            return False
        raw_path: bytes = url.path
        if not raw_path.startswith(_PREFIX) or not raw_path.endswith(_SUFFIX):
            return False
        if b"%" in raw_path or not raw_path.isascii():
            return False  # uvicorn unquotes or refuses it
        if_none_match = None
        for name, value in self.headers:
            if name == b"if-none-match":
                if if_none_match is None:  # the first one, as the ASGI path reads it
                    if_none_match = value.decode("latin-1")
            elif name in _BODY_HEADERS:
                return False
        try:
            rendered = fast.lookup(raw_path.decode("ascii"), url.query or b"")
        except Exception:  # raised out of a parser callback it would be a 400: let the app answer
            return False
        if rendered is None:
            return False
        if if_none_match is not None and etag_matches(if_none_match, rendered.etag):
            status, body = 304, b""
        else:
            status, body = 200, rendered.body
        head = self.response_heads.head(rendered, status, self.server_state.default_headers)
        if head is None:
            return False
        self.transport.write_response(head, body)
        self._direct_pending = True
        self.direct_answers += 1
        self._response_complete()
        return True

    def _response_complete(self) -> None:
        """uvicorn's ``on_response_complete`` with no pipeline (checked before answering)."""
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
        self.flow.resume_reading()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive,
            self.timeout_keep_alive_handler,  # type: ignore[attr-defined]
        )
