"""Trim a message history to a token budget without separating a call from its result.

The implementation behind :func:`studio.sessions.doctor.trim` (import it from there).

Tokens are counted for a target when one is named (``profile``): exactly where
the studio has that target's tokenizer offline (OpenAI targets with
``bpe-openai``, see :mod:`studio.contract.token_count`), else with the
four-characters-per-token estimate. :attr:`TrimResult.method` says which, so
every report can label an estimate as one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from studio.contract.token_count import ESTIMATE, token_counter
from studio.sessions.history_repair import Change, repair, result_block_end
from studio.sessions.model import (
    Message,
    Role,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    message_to_dict,
)
from studio.sessions.pairing import analyse_pairing


@dataclass(frozen=True, slots=True)
class TrimResult:
    """A trimmed history.

    Attributes:
        messages: What is kept (system messages, the summary if any, the tail).
        kept_tokens: Estimated tokens of ``messages``.
        total_tokens: Estimated tokens of the input.
        dropped: How many input messages were left out.
        cut_at: Index (in the input) of the first message of the kept tail.
        fits: False when even the shortest safe tail exceeds the budget.
        changes: Repairs made first, when the input had pairing problems.
        method: How tokens were counted: an encoding name (``o200k_base``) for
            an exact count, ``estimate``, or ``custom`` (the caller's ``count``).
    """

    messages: list[Message]
    kept_tokens: int
    total_tokens: int
    dropped: int
    cut_at: int
    fits: bool
    changes: list[Change] = field(default_factory=list)
    method: str = ESTIMATE

    @property
    def estimated(self) -> bool:
        return self.method == ESTIMATE

    def tokens_label(self) -> str:
        """``kept 120 of 900 tokens (o200k_base)`` or ``… (estimated)``."""
        how = "estimated" if self.estimated else self.method
        return f"kept {self.kept_tokens} of {self.total_tokens} tokens ({how})"


MESSAGE_OVERHEAD = 3
"""Tokens a chat format adds around each message (role and separators; OpenAI's
published rule of thumb), added to an exact count of the message's texts."""


def estimate_tokens(message: Message) -> int:
    """A provider-neutral estimate: about four characters of JSON per token."""
    return max(1, len(json.dumps(message_to_dict(message), ensure_ascii=False)) // 4)


def message_text(message: Message) -> str:
    """What of a message the model reads as text: texts, call names and arguments, results."""
    pieces: list[str] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            pieces.append(part.text)
        elif isinstance(part, ToolCallPart):
            arguments = part.arguments
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments, ensure_ascii=False)
            pieces += [part.name, arguments]
        elif isinstance(part, ToolResultPart):
            pieces.append(part.content)
    return "\n".join(p for p in pieces if p)


def message_counter(profile: str | None) -> tuple[Callable[[Message], int], str]:
    """Tokens of one message for ``profile`` and how they are counted.

    Exact (the encoding's name) where :func:`studio.contract.token_count.token_counter`
    has the target's tokenizer — that may load it once, ~0.5 s — else
    :func:`estimate_tokens` and ``estimate``.
    """
    counter, method = token_counter(profile)
    if method == ESTIMATE:
        return estimate_tokens, ESTIMATE

    def count(message: Message) -> int:
        return MESSAGE_OVERHEAD + counter(message_text(message))

    return count, method


def safe_cut_points(messages: Sequence[Message]) -> list[int]:
    """Indexes a history may start at without separating a call from its result.

    Before a user turn, or after a complete call/result group (an assistant
    turn and the results that answer it); never inside a group.
    """
    points: list[int] = []
    messages = list(messages)
    mi = 0
    while mi < len(messages):
        msg = messages[mi]
        if msg.role is Role.USER and not msg.tool_results:
            points.append(mi)
        if msg.role is Role.ASSISTANT and msg.tool_calls:
            end = result_block_end(messages, mi)
            if end < len(messages) and end not in points:
                points.append(end)
            mi = max(end, mi + 1)
            continue
        mi += 1
    return sorted(p for p in set(points) if messages[p].role is not Role.TOOL)


def trim(
    messages: Sequence[Message],
    max_tokens: int,
    *,
    keep_system: bool = True,
    summary: str | None = None,
    count: Callable[[Message], int] | None = None,
    profile: str | None = None,
) -> TrimResult:
    """Keep the most recent messages that fit ``max_tokens``, cut at a safe point.

    The library call an agent runtime makes before each request.

    Args:
        max_tokens: The budget for the kept messages (system and summary included).
        keep_system: Keep the leading system messages (always counted).
        summary: Text standing for what was cut, kept as a user message at the cut.
        count: Tokens of one message; default: :func:`message_counter` of ``profile``.
        profile: The target counted for (``openai``, ``anthropic``…): exact where
            its tokenizer is available, else (and with None) the estimate.

    Return:
        :class:`TrimResult`; its messages always pass the pairing check (a
        history with pairing problems is repaired first, see ``changes``).
    """
    method = "custom"
    if count is None:
        count, method = message_counter(profile)
    changes: list[Change] = []
    history = list(messages)
    if analyse_pairing(history).problems:
        fixed = repair(history)
        history, changes = fixed.messages, fixed.changes
    head = 0
    while keep_system and head < len(history) and history[head].role is Role.SYSTEM:
        head += 1
    system = history[:head]
    body = history[head:]
    sizes = [count(m) for m in body]
    fixed_cost = sum(count(m) for m in system)
    total = fixed_cost + sum(sizes)
    points = [0, *(p for p in safe_cut_points(body) if p > 0)]
    note = Message(Role.USER, (TextPart(f"[Summary of the earlier conversation] {summary}"),))
    chosen, fits = points[-1] if points else 0, False
    suffix = [0] * (len(sizes) + 1)  # tokens of body[i:]
    for i in range(len(sizes) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + sizes[i]
    for point in points:
        cost = fixed_cost + suffix[point]
        if point > 0 and summary:
            cost += count(note)
        if cost <= max_tokens:
            chosen, fits = point, True
            break
    kept = system + ([note] if summary and chosen > 0 else []) + body[chosen:]
    kept_tokens = fixed_cost + suffix[chosen] + (count(note) if summary and chosen > 0 else 0)
    return TrimResult(kept, kept_tokens, total, chosen, head + chosen, fits, changes, method)
