"""Repair, convert and trim a message history — a library as well as commands.

The API other packages call (the recording proxy, an agent runtime)::

    from studio.sessions.doctor import repair, convert, trim

    fixed = repair(messages, "anthropic")     # RepairResult(messages, changes)
    for change in fixed.changes:              # Change(action, position, call_id, why)
        print(change)
    doc = convert(messages, "gemini")         # ConvertResult(document, notes)
    cut = trim(messages, max_tokens=8000)     # TrimResult(messages, kept_tokens, …)

- :func:`repair` makes the smallest change that makes a history valid for a
  provider: reused call ids get fresh ones (their results follow them),
  calls that never got a result are closed with a synthetic error result
  (:data:`NO_RESULT`), results are moved directly after their call, orphan
  results are re-attached (when the preceding turn has exactly one unanswered
  call of that tool) or dropped, duplicate results dropped, arguments that are
  not a JSON object repaired or replaced by ``{}``, and a user message that
  holds results and text is split (results first). A valid history comes
  back unchanged, with no changes. The result passes
  :func:`studio.sessions.pairing.analyse_pairing` with no problems.
- :func:`convert` writes the history in another provider's wire shape
  (:mod:`studio.sessions.wire`) with ids mapped and notes for what the
  target cannot carry.
- :func:`trim` drops the oldest messages to fit a token budget, cutting only
  at safe points (before a user turn, or after a complete call/result
  group), so a call is never separated from its result.

Positions in changes are those of the input history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from studio.sessions.history_repair import NO_RESULT, PROVIDERS, Change, RepairResult, repair
from studio.sessions.history_trim import TrimResult, estimate_tokens, safe_cut_points, trim
from studio.sessions.model import Message
from studio.sessions.wire import to_wire


@dataclass(frozen=True, slots=True)
class ConvertResult:
    """A conversation in a provider's wire shape, and what the target could not carry."""

    document: dict[str, Any]
    notes: list[str]
    target: str


def convert(messages: Sequence[Message], to: str) -> ConvertResult:
    """``messages`` as a request document of ``to`` (see :func:`studio.sessions.wire.to_wire`).

    Parallel calls stay in one assistant turn and their results in one block;
    ids are kept (``tool_call_id`` ↔ ``call_id`` ↔ ``tool_use_id``).

    Raises:
        ValueError: for an unknown target.
    """
    notes: list[str] = []
    return ConvertResult(to_wire(messages, to, notes), notes, to)


__all__ = [
    "NO_RESULT",
    "PROVIDERS",
    "Change",
    "ConvertResult",
    "RepairResult",
    "TrimResult",
    "convert",
    "estimate_tokens",
    "repair",
    "safe_cut_points",
    "trim",
]
