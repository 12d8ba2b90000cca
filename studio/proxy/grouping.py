"""Which recorded conversation a request continues: by a header, or by its history's prefix.

Agents resend the whole history on every model call. A request continues a
conversation when its messages start with everything recorded for it (the
last request's messages plus the answer); it *forks* one when it starts with
only part of it (a regenerated answer, an edited or trimmed history): the
fork is a new session whose parent is the old one. A request that matches
nothing starts a new conversation.

With a grouping header (``X-Studio-Session`` by default) the header value
names the conversation instead, and the same rules decide continue or fork.

Messages are compared by a rolling digest of their content (role, text,
calls, results — not vendor fields, which SDKs add or drop when they send an
answer back). Memory is bounded: the least recently used conversations are
forgotten past ``limit`` (a request continuing one of them starts a new
session).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from studio.sessions.model import Message, ToolCallPart, ToolResultPart

DEFAULT_LIMIT = 1000
"""Conversations kept in memory for grouping."""


def message_key(message: Message) -> bytes:
    """What identifies a message's content, whatever its vendor fields."""
    calls, results = [], []
    for part in message.parts:
        if isinstance(part, ToolCallPart):
            args = part.arguments
            text = args if isinstance(args, str) else json.dumps(args, sort_keys=True)
            calls.append((part.id, part.name, text))
        elif isinstance(part, ToolResultPart):
            results.append((part.id, part.content, part.is_error))
    key = [message.role.value, message.text, calls, results]
    return json.dumps(key, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")


def next_digest(previous: bytes, message: Message) -> bytes:
    return hashlib.blake2b(previous + message_key(message), digest_size=16).digest()


def digests(messages: Sequence[Message]) -> list[bytes]:
    """The rolling digest after each message."""
    out, current = [], b""
    for message in messages:
        current = next_digest(current, message)
        out.append(current)
    return out


@dataclass(eq=False, slots=True)
class Conversation:
    """One recorded conversation (one studio session) as the proxy tracks it.

    Attributes:
        id: The session id.
        digests: The rolling digest after each recorded message.
        seq: The sequence number of the session's next event.
        header_key: The grouping header's value, when grouped by header.
        parent: ``(session id, message index)`` when it forked from another.
        broken_requests: Requests of it that broke the pairing rules.
        exchanges: Model calls recorded.
    """

    id: str
    digests: list[bytes] = field(default_factory=list)
    seq: int = 1
    header_key: str = ""
    parent: tuple[str, int] | None = None
    broken_requests: int = 0
    exchanges: int = 0

    def take_seq(self, count: int = 1) -> int:
        """Reserve ``count`` event numbers; returns the first."""
        first = self.seq
        self.seq += count
        return first


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a request goes.

    Attributes:
        conversation: The conversation it continues (or the new one).
        start: Messages before this index are recorded already; the rest are new.
        created: A new session must be created (new conversation or fork).
    """

    conversation: Conversation
    start: int
    created: bool


class Grouper:
    """Places requests into conversations (call from one thread: the event loop)."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self._conversations: OrderedDict[str, Conversation] = OrderedDict()
        self._by_digest: dict[bytes, Conversation] = {}
        self._by_header: dict[str, Conversation] = {}

    def __len__(self) -> int:
        return len(self._conversations)

    def place(self, history: list[bytes], header_key: str = "") -> Placement:
        """The conversation for a request whose messages have the digests ``history``."""
        if header_key:
            known = self._by_header.get(header_key)
            if known is not None:
                shared = _common_prefix(known.digests, history)
                if shared == len(known.digests):
                    return self._continue(known, history, shared)
                return self._new(history, header_key, parent=(known.id, shared))
            return self._new(history, header_key)
        for length in range(len(history), 0, -1):
            known = self._by_digest.get(history[length - 1])
            if known is None or len(known.digests) < length:
                continue
            if known.digests[length - 1] != history[length - 1]:
                continue
            if length == len(known.digests):
                return self._continue(known, history, length)
            return self._new(history, parent=(known.id, length))
        return self._new(history)

    def adopt(self, conversation: Conversation) -> None:
        """Know ``conversation`` (recorded before a restart) so requests can continue it."""
        self._conversations[conversation.id] = conversation
        self._conversations.move_to_end(conversation.id)
        for digest in conversation.digests:
            self._by_digest[digest] = conversation
        if conversation.header_key:
            self._by_header[conversation.header_key] = conversation
        while len(self._conversations) > self.limit:
            _, old = self._conversations.popitem(last=False)
            self._forget(old)

    def answered(self, conversation: Conversation, message: Message) -> None:
        """Record that ``message`` (the model's answer) was appended to ``conversation``."""
        previous = conversation.digests[-1] if conversation.digests else b""
        digest = next_digest(previous, message)
        conversation.digests.append(digest)
        self._by_digest[digest] = conversation

    def _continue(self, conversation: Conversation, history: list[bytes], start: int) -> Placement:
        for digest in history[start:]:
            self._by_digest[digest] = conversation
        conversation.digests.extend(history[start:])
        self._conversations.move_to_end(conversation.id)
        return Placement(conversation, start, created=False)

    def _new(
        self, history: list[bytes], header_key: str = "", parent: tuple[str, int] | None = None
    ) -> Placement:
        conversation = Conversation(
            uuid.uuid4().hex, list(history), header_key=header_key, parent=parent
        )
        self._conversations[conversation.id] = conversation
        for digest in history:
            self._by_digest[digest] = conversation
        if header_key:
            self._by_header[header_key] = conversation
        while len(self._conversations) > self.limit:
            _, old = self._conversations.popitem(last=False)
            self._forget(old)
        return Placement(conversation, 0, created=True)

    def _forget(self, conversation: Conversation) -> None:
        for digest in conversation.digests:
            if self._by_digest.get(digest) is conversation:
                del self._by_digest[digest]
        key = conversation.header_key
        if key and self._by_header.get(key) is conversation:
            del self._by_header[key]


def _common_prefix(a: Sequence[bytes], b: Sequence[bytes]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
