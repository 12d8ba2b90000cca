"""Reading server-sent events out of bytes that pass through, without changing them.

The proxy forwards every chunk of a streamed answer to the agent as it
arrives; a :class:`SSEReader` is handed the same chunks afterwards and yields
each complete event (its ``event:`` name and joined ``data:`` lines), however
the chunks cut the stream (mid-line, mid-character, ``\\r\\n`` or ``\\n``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

MAX_EVENT_BYTES = 16 * 1024 * 1024
"""An event longer than this is dropped (the bytes still pass through to the agent)."""


@dataclass(frozen=True, slots=True)
class SSEvent:
    """One server-sent event: ``event`` is empty when the stream named none."""

    event: str
    data: str


class SSEReader:
    """Incremental SSE parser (the WHATWG event-stream rules the providers use)."""

    __slots__ = ("_buffer", "_data", "_event", "_size")

    def __init__(self) -> None:
        self._buffer = b""
        self._event = ""
        self._data: list[str] = []
        self._size = 0

    def feed(self, chunk: bytes) -> Iterator[SSEvent]:
        """The events completed by ``chunk``."""
        buffer = self._buffer + chunk if self._buffer else chunk
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end < 0:
                break
            line = buffer[start:end]
            start = end + 1
            if line.endswith(b"\r"):
                line = line[:-1]
            event = self._line(line)
            if event is not None:
                yield event
        rest = buffer[start:]
        if len(rest) > MAX_EVENT_BYTES:  # a line that never ends: drop it, keep reading
            rest = b""
        self._buffer = rest

    def _line(self, raw: bytes) -> SSEvent | None:
        if not raw:
            if not self._data and not self._event:
                return None
            event = SSEvent(self._event, "\n".join(self._data))
            self._event, self._data, self._size = "", [], 0
            return event
        line = raw.decode("utf-8", "replace")
        if line.startswith(":"):
            return None  # a comment (keep-alive)
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._size += len(value)
            if self._size <= MAX_EVENT_BYTES:
                self._data.append(value)
        elif name == "event":
            self._event = value
        return None
