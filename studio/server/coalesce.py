"""One socket write per small response instead of two.

uvicorn writes a response's head when the app sends ``http.response.start``
and its body when the app sends ``http.response.body``: two ``send`` system
calls, each delivering a TCP segment (the served sockets have TCP_NODELAY).
On loopback at 50 connections that second call was a fifth of the resolve
server's time. :class:`CoalescingTransport` holds a response head back until
the body follows in the same event-loop turn (what Starlette's responses and
the resolve fast path do) and writes both at once; a head whose body does not
follow at once (a stream, a long poll) goes out on the next turn by itself,
so nothing waits longer than one turn of the loop.

Only a body up to :data:`MAX_COALESCED_BODY` is joined to its head: joining
copies the body, and a 1,000-tool MCP listing (~1 MB) copied per response
cost more than the second system call it saved.
"""

from __future__ import annotations

import asyncio
from typing import Any

_HEAD_START = b"HTTP/1."
_HEAD_END = b"\r\n\r\n"
MAX_COALESCED_BODY = 65_536


class CoalescingTransport:
    """A transport proxy merging a response head with the write right after it.

    Everything but ``write``, ``writelines``, ``close`` and ``abort`` is the
    wrapped transport's own; pending bytes always go out before the
    connection closes.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._head: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        head = self._head
        if head is not None:
            self._head = None
            if len(data) <= MAX_COALESCED_BODY:
                self._transport.write(head + bytes(data))
                return
            self._transport.write(head)
            self._transport.write(data)
            return
        if isinstance(data, bytes) and data.startswith(_HEAD_START) and data.endswith(_HEAD_END):
            self._head = data
            self._loop.call_soon(self._flush)
            return
        self._transport.write(data)

    def write_response(self, head: bytes, body: bytes) -> None:
        """A whole response at once (the protocol's direct resolve answers)."""
        self._flush()
        if len(body) <= MAX_COALESCED_BODY:
            self._transport.write(head + body)
        else:
            self._transport.write(head)
            self._transport.write(body)

    def writelines(self, chunks: Any) -> None:
        self._flush()
        self._transport.writelines(chunks)

    def _flush(self) -> None:
        head, self._head = self._head, None
        if head is not None and not self._transport.is_closing():
            self._transport.write(head)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._head = None
        self._transport.abort()

    def is_closing(self) -> bool:
        # Asked several times a request: a method of its own, not a __getattr__ miss.
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
