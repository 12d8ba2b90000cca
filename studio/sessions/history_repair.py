"""Repair a message history: the smallest change that makes it valid for a provider.

The implementation behind :func:`studio.sessions.doctor.repair` (import it
from there). See that module for what a repair does; positions in changes
are those of the input history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from studio.runtime.repair import ArgumentsParseError, parse_arguments
from studio.sessions.model import Message, Part, Role, ToolCallPart, ToolResultPart
from studio.sessions.pairing import Position
from studio.sessions.wire import WIRE_FORMATS

PROVIDERS = WIRE_FORMATS
NO_RESULT = json.dumps({"error": "NO_RESULT", "note": "added by repair"})
"""The content of the result :func:`repair` adds for a call that never got one."""


@dataclass(frozen=True, slots=True)
class Change:
    """One change a repair made: what, where (in the input), to which call, and why."""

    action: str
    """``re-id``, ``add-result``, ``move-result``, ``reattach-result``, ``drop-result``,
    ``fix-arguments``, ``split-message`` or ``drop-message``."""
    position: Position
    call_id: str
    why: str

    def __str__(self) -> str:
        return f"{self.position}: {self.action} {self.call_id}: {self.why}".replace(" : ", ": ")

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "position": str(self.position),
            "message_index": self.position.message,
            "part_index": self.position.part,
            "call_id": self.call_id,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class RepairResult:
    """The repaired history and every change made (empty when it was valid)."""

    messages: list[Message]
    changes: list[Change] = field(default_factory=list)
    provider: str = "openai"

    @property
    def changed(self) -> bool:
        return bool(self.changes)


def repair(messages: Sequence[Message], provider: str = "openai") -> RepairResult:
    """The smallest change that makes ``messages`` valid for ``provider``.

    Args:
        messages: The history (internal messages, system messages included).
        provider: ``openai``, ``openai-responses``, ``anthropic`` or ``gemini``.
            The structural rules are the same for all four (results directly
            after their call, one per call, ids unique); arguments must be
            JSON objects for all (Anthropic and Gemini refuse anything else,
            the OpenAI formats echo invalid JSON back to the model).

    Return:
        :class:`RepairResult`; ``messages`` is a new list (the input is not changed).

    Raises:
        ValueError: for an unknown provider.
    """
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; use {', '.join(PROVIDERS)}")
    changes: list[Change] = []
    msgs = _unique_ids(list(messages), changes)
    msgs = _fix_arguments(msgs, changes)
    msgs = _place_results(msgs, changes)
    changes.sort(key=lambda c: (c.position.message, c.position.part or 0))
    return RepairResult(msgs, changes, provider)


def _unique_ids(msgs: list[Message], changes: list[Change]) -> list[Message]:
    """Reused or empty call ids get fresh ones; each result follows its call's new id."""
    seen: set[str] = {c.id for m in msgs for c in m.tool_calls}
    reused_in_file: dict[str, int] = {}
    for m in msgs:
        for c in m.tool_calls:
            if "original_id" in c.extra:
                key = str(c.extra["original_id"])
                reused_in_file[key] = reused_in_file.get(key, 0) + 1
    for m in msgs:  # an original id also counts when another call still carries it
        for c in m.tool_calls:
            if c.id in reused_in_file and "original_id" not in c.extra:
                reused_in_file[c.id] += 1
    used: set[str] = set()
    open_calls: dict[str, list[str]] = {}  # id in the input → current ids not yet answered
    out: list[Message] = []
    for mi, msg in enumerate(msgs):
        parts: list[Part] = []
        for pi, part in enumerate(msg.parts):
            if (
                isinstance(part, ToolCallPart)
                and reused_in_file.get(str(part.extra.get("original_id", "")), 0) > 1
            ):
                # An importer already gave this reused id a unique one: keep it, and let
                # the pairing check stop reporting the reuse (the provider never sees it).
                was = str(part.extra["original_id"])
                extra = {k: v for k, v in part.extra.items() if k != "original_id"}
                part = ToolCallPart(
                    part.id, part.name, part.arguments, {**extra, "repaired_from_id": was}
                )
                changes.append(
                    Change(
                        "re-id",
                        Position(mi, pi),
                        was,
                        f"the file reuses this id; keeps the unique {part.id!r}",
                    )
                )
            if isinstance(part, ToolCallPart):
                original = part.id
                if original in used or not original.strip():
                    n, base = 1, original or "call"
                    while f"{base}_r{n}" in seen:
                        n += 1
                    new = f"{base}_r{n}"
                    seen.add(new)
                    reason = "empty" if not original.strip() else "used by an earlier call"
                    changes.append(
                        Change(
                            "re-id",
                            Position(mi, pi),
                            original,
                            f"the id is {reason}; renamed {new!r} (its result follows it)",
                        )
                    )
                    part = ToolCallPart(
                        new, part.name, part.arguments, {**part.extra, "repaired_from_id": original}
                    )
                used.add(part.id)
                open_calls.setdefault(original, []).append(part.id)
            elif isinstance(part, ToolResultPart):
                queue = open_calls.get(part.id) or []
                if queue:
                    target = queue.pop(0)
                    if target != part.id:
                        changes.append(
                            Change(
                                "re-id",
                                Position(mi, pi),
                                part.id,
                                f"result follows its call, renamed {target!r}",
                            )
                        )
                        part = ToolResultPart(
                            target,
                            part.content,
                            part.is_error,
                            part.name,
                            {**part.extra, "repaired_from_id": part.id},
                        )
            parts.append(part)
        out.append(Message(msg.role, tuple(parts), msg.extra))
    return out


def _fix_arguments(msgs: list[Message], changes: list[Change]) -> list[Message]:
    out = []
    for mi, msg in enumerate(msgs):
        parts: list[Part] = []
        for pi, part in enumerate(msg.parts):
            if isinstance(part, ToolCallPart) and isinstance(part.arguments, str):
                fixed = _object_arguments(part.arguments)
                if fixed is not None:
                    text, why = fixed
                    changes.append(Change("fix-arguments", Position(mi, pi), part.id, why))
                    part = ToolCallPart(
                        part.id,
                        part.name,
                        text,
                        {**part.extra, "original_arguments": part.arguments},
                    )
            parts.append(part)
        out.append(Message(msg.role, tuple(parts), msg.extra))
    return out


def _object_arguments(raw: str) -> tuple[str, str] | None:
    """``(new arguments, why)`` for arguments that are not a JSON object, else None."""
    try:
        if isinstance(json.loads(raw), dict):
            return None
    except ValueError:
        pass
    try:
        value, repairs = parse_arguments(raw)
    except ArgumentsParseError:
        value, repairs = None, []
    if isinstance(value, dict):
        done = ", ".join(repairs) or "re-encoded"
        return json.dumps(value, ensure_ascii=False), f"arguments were not valid JSON; {done}"
    return "{}", "arguments are not a JSON object and cannot be repaired; replaced by {}"


def _place_results(msgs: list[Message], changes: list[Change]) -> list[Message]:
    """Every call answered once, directly after its turn; everything else where it was."""
    call_turn: dict[str, int] = {}
    call_name: dict[str, str] = {}
    for mi, msg in enumerate(msgs):
        if msg.role is Role.ASSISTANT:
            for c in msg.tool_calls:
                call_turn.setdefault(c.id, mi)
                call_name[c.id] = c.name
    # The answer of each call: the first result with its id, wherever it is.
    answer: dict[str, tuple[int, int, ToolResultPart]] = {}
    dropped: set[tuple[int, int]] = set()
    for mi, msg in enumerate(msgs):
        for pi, part in enumerate(msg.parts):
            if not isinstance(part, ToolResultPart):
                continue
            if part.id in call_turn and part.id not in answer:
                answer[part.id] = (mi, pi, part)
            elif part.id in call_turn:
                dropped.add((mi, pi))
                changes.append(
                    Change("drop-result", Position(mi, pi), part.id, "the call is already answered")
                )
            else:
                target = _reattach_target(msgs, mi, part, call_turn, answer)
                if target is None:
                    dropped.add((mi, pi))
                    changes.append(
                        Change("drop-result", Position(mi, pi), part.id, "no call has this id")
                    )
                else:
                    answer[target] = (
                        mi,
                        pi,
                        ToolResultPart(
                            target,
                            part.content,
                            part.is_error,
                            part.name,
                            {**part.extra, "repaired_from_id": part.id},
                        ),
                    )
                    changes.append(
                        Change(
                            "reattach-result",
                            Position(mi, pi),
                            part.id,
                            f"no call has this id; the one unanswered "
                            f"{part.name or 'call'} of the turn before is "
                            f"{target!r}",
                        )
                    )
    out: list[Message] = []
    mi = 0
    while mi < len(msgs):
        msg = msgs[mi]
        calls = msg.tool_calls if msg.role is Role.ASSISTANT else ()
        if not calls:
            kept = _without_results(msg, mi, changes)
            if kept is not None:
                out.append(kept)
            elif msg.parts:
                changes.append(
                    Change("drop-message", Position(mi), "", "nothing left once its results moved")
                )
            mi += 1
            continue
        out.append(msg)
        block_end = result_block_end(msgs, mi)
        ids = [c.id for c in calls]
        if _block_is_valid(msgs, mi, block_end, ids, answer, dropped):
            out.extend(msgs[mi + 1 : block_end])
            mi = block_end
            continue
        results: list[Part] = []
        for cid in ids:
            if cid in answer:
                rmi, rpi, part = answer[cid]
                if not (mi < rmi < block_end):
                    changes.append(
                        Change(
                            "move-result",
                            Position(rmi, rpi),
                            cid,
                            f"moved directly after its call at messages[{mi}]",
                        )
                    )
                results.append(part)
            else:
                results.append(
                    ToolResultPart(
                        cid, NO_RESULT, True, call_name.get(cid, ""), {"added_by": "repair"}
                    )
                )
                changes.append(
                    Change(
                        "add-result",
                        Position(mi, _part_index(msg, cid)),
                        cid,
                        "the call never got a result; closed with NO_RESULT",
                    )
                )
        out.append(Message(Role.TOOL, tuple(results)))
        # What else the block held (a user's text after the results) comes after them.
        for bmi in range(mi + 1, block_end):
            rest = _without_results(msgs[bmi], bmi, changes, split_note=True)
            if rest is not None:
                out.append(rest)
        mi = block_end
    return out


def _reattach_target(
    msgs: list[Message],
    mi: int,
    part: ToolResultPart,
    call_turn: dict[str, int],
    answer: dict[str, tuple[int, int, ToolResultPart]],
) -> str | None:
    """The one unanswered call of the nearest turn before ``mi`` this orphan can answer."""
    for back in range(mi - 1, -1, -1):
        msg = msgs[back]
        if msg.role is Role.ASSISTANT and msg.tool_calls:
            later = {r.id for m in msgs[back + 1 :] for r in m.tool_results}
            open_calls = [c for c in msg.tool_calls if c.id not in answer and c.id not in later]
            if part.name:
                open_calls = [c for c in open_calls if c.name == part.name]
            return open_calls[0].id if len(open_calls) == 1 else None
    return None


def result_block_end(msgs: list[Message], mi: int) -> int:
    """End of the result block after the turn at ``mi`` (as the pairing check reads it)."""
    nxt = mi + 1
    while nxt < len(msgs) and msgs[nxt].role in (Role.TOOL, Role.USER):
        if not msgs[nxt].tool_results:
            break
        nxt += 1
        if msgs[nxt - 1].role is Role.USER:
            break
    return nxt


def _block_is_valid(
    msgs: list[Message],
    mi: int,
    end: int,
    ids: list[str],
    answer: dict[str, tuple[int, int, ToolResultPart]],
    dropped: set[tuple[int, int]],
) -> bool:
    found: list[str] = []
    for bmi in range(mi + 1, end):
        seen_other = False
        for bpi, part in enumerate(msgs[bmi].parts):
            if not isinstance(part, ToolResultPart):
                seen_other = True
                continue
            if seen_other or (bmi, bpi) in dropped:
                return False
            found.append(part.id)
    return sorted(found) == sorted(ids) and all(
        i in answer and answer[i][2].id == i and mi < answer[i][0] < end for i in ids
    )


def _without_results(
    msg: Message, mi: int, changes: list[Change], *, split_note: bool = False
) -> Message | None:
    """``msg`` less its results (None when nothing is left).

    Outside a valid block every result is either the answer of a call (placed
    in that call's block) or dropped, so none stays where it was.
    """
    parts = tuple(p for p in msg.parts if not isinstance(p, ToolResultPart))
    if len(parts) == len(msg.parts):
        return msg
    if not parts:
        return None
    if split_note:
        changes.append(
            Change(
                "split-message", Position(mi), "", "results moved before the rest of the message"
            )
        )
    role = Role.USER if msg.role is Role.TOOL else msg.role
    return Message(role, parts, msg.extra)


def _part_index(msg: Message, call_id: str) -> int | None:
    for pi, part in enumerate(msg.parts):
        if isinstance(part, ToolCallPart) and part.id == call_id:
            return pi
    return None
