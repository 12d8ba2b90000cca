"""Pairing analysis: is every tool call answered, and answered where a provider expects?

Works on the internal message list (:mod:`studio.sessions.model`). Each problem
names its position (message index, part index) and, for the rules a provider
enforces, the error that provider returns for such a history (DESIGN §6).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

import orjson

from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart

# Read per message: an enum member looked up on its class costs ~0.2 µs (Python 3.11).
_SYSTEM, _USER, _ASSISTANT, _TOOL = Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL


class PairingKind(StrEnum):
    """What is wrong with a call/result pairing."""

    CALL_WITHOUT_RESULT = "call-without-result"
    RESULT_WITHOUT_CALL = "result-without-call"
    RESULT_NOT_IN_PRECEDING_CALLS = "result-not-in-preceding-calls"
    DUPLICATE_CALL_ID = "duplicate-call-id"
    DUPLICATE_RESULT_ID = "duplicate-result-id"
    RESULT_NOT_DIRECTLY_AFTER = "result-not-directly-after"
    RESULT_NOT_FIRST = "result-not-first"
    COUNT_MISMATCH = "count-mismatch"
    INVALID_ARGUMENTS_JSON = "invalid-arguments-json"


@dataclass(frozen=True, slots=True)
class Position:
    """Where in the session: message index and part index within it."""

    message: int
    part: int | None = None

    def __str__(self) -> str:
        return f"messages[{self.message}]" + (
            f".parts[{self.part}]" if self.part is not None else ""
        )


@dataclass(frozen=True, slots=True)
class PairingProblem:
    """One pairing problem.

    Attributes:
        kind: What is wrong.
        position: Where (the call, or the result, concerned).
        call_id: The tool call id involved.
        message: What is wrong, for people.
        provider_errors: Provider → the error message that provider returns
            when this history is sent (only for rules a provider enforces).
        related: Other positions involved (the partner, the first duplicate).
    """

    kind: PairingKind
    position: Position
    call_id: str
    message: str
    provider_errors: dict[str, str] = field(default_factory=dict)
    related: tuple[Position, ...] = ()


@dataclass(frozen=True, slots=True)
class Pair:
    """A call and the result answering it (either may be missing)."""

    call_id: str
    call: Position | None
    result: Position | None


@dataclass(frozen=True, slots=True)
class PairingReport:
    """Pairs by id, in call order, and the problems found."""

    pairs: tuple[Pair, ...]
    problems: tuple[PairingProblem, ...]

    def problems_at(self, message: int) -> list[PairingProblem]:
        """Problems located in message ``message`` (for flags shown in place)."""
        return [p for p in self.problems if p.position.message == message]

    def partner_of(self, position: Position) -> Position | None:
        """The position paired with ``position`` (for hover highlighting)."""
        for pair in self.pairs:
            if pair.call == position:
                return pair.result
            if pair.result == position:
                return pair.call
        return None


_set_message, _set_part = vars(Position)["message"].__set__, vars(Position)["part"].__set__
_set_call_id, _set_call = vars(Pair)["call_id"].__set__, vars(Pair)["call"].__set__
_set_result = vars(Pair)["result"].__set__


def _position(message: int, part: int) -> Position:
    """``Position(message, part)`` set through its slots (~30 % faster than the frozen
    dataclass's ``__init__``); one per call and per result of a session."""
    position = object.__new__(Position)
    _set_message(position, message)
    _set_part(position, part)
    return position


def _pair(call_id: str, call: Position | None, result: Position | None) -> Pair:
    """``Pair(call_id, call, result)`` the way :func:`_position` builds a position."""
    pair = object.__new__(Pair)
    _set_call_id(pair, call_id)
    _set_call(pair, call)
    _set_result(pair, result)
    return pair


def _openai_unanswered(ids: Sequence[str]) -> str:
    return (
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        + ", ".join(ids)
    )


_OPENAI_ORPHAN = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'."
)


def _anthropic_unanswered(index: int, ids: Sequence[str]) -> str:
    return (
        f"messages.{index}: `tool_use` ids were found without `tool_result` blocks immediately "
        f"after: {', '.join(ids)}. Each `tool_use` block must have a corresponding "
        "`tool_result` block in the next message."
    )


def _anthropic_unexpected(index: int, call_id: str) -> str:
    return (
        f"messages.{index}.content: unexpected `tool_use_id` found in `tool_result` blocks: "
        f"{call_id}. Each `tool_result` block must have a corresponding `tool_use` block in "
        "the previous message."
    )


def _with_file_id(problem: PairingProblem, renumbered: dict[str, str]) -> PairingProblem:
    """Name a renumbered call by the id in the user's file first, then the studio's."""
    original = renumbered.get(problem.call_id)
    if original is None or f"{original!r} (renumbered" in problem.message:
        return problem
    shown = f"{original!r} (renumbered {problem.call_id!r})"
    return replace(problem, message=problem.message.replace(repr(problem.call_id), shown))


def _duplicate_errors(call_id: str, index: int, part: int) -> dict[str, str]:
    """What each provider does with a call id used twice in one history."""
    return {
        "anthropic": f"messages.{index}.content.{part}: `tool_use` ids must be unique",
        "openai": f"Duplicate value for 'tool_call_id' of {call_id}: results pair with the "
        "first call of that id only",
        "openai-responses": f"Duplicate item: a function_call with call_id {call_id} is "
        "already in the input",
        "gemini": "accepted (ids are optional); responses are paired by order and name",
    }


def _invalid_arguments_effects(index: int, part: int) -> dict[str, str]:
    """What each provider does with arguments that are not a JSON object."""
    return {
        "openai": "accepted as sent (arguments are a string); the model reads its own "
        "invalid JSON back",
        "openai-responses": "accepted as sent (arguments are a string)",
        "anthropic": f"messages.{index}.content.{part}.tool_use.input: Input should be a "
        "valid dictionary (the studio sends {} instead, with a note)",
        "gemini": "functionCall.args must be an object: the request is refused "
        "(Invalid JSON payload received)",
    }


def _gemini_count(calls: int, responses: int) -> str:
    return (
        "Please ensure that the number of function response parts is equal to the number of "
        f"function call parts of the function call turn. (calls: {calls}, responses: {responses})"
    )


def analyse_pairing(messages: Sequence[Message]) -> PairingReport:
    """Find every pairing problem in ``messages``.

    Args:
        messages: The session's messages in order (system messages included or not).

    Return:
        The pairs (one per distinct call id, plus results with no call) and the
        problems, ordered by position.
    """
    return _analyse(messages, with_pairs=True)


def pairing_problems(messages: Sequence[Message]) -> tuple[PairingProblem, ...]:
    """``analyse_pairing(messages).problems`` without building the pairs (one per call),
    for what only counts or lists the problems (every imported session's problem count).

    A session whose every turn is plainly answered (:func:`_plainly_paired`) has none:
    that one pass costs about half the full analysis.
    """
    if _plainly_paired(messages):
        return ()
    return _analyse(messages, with_pairs=False).problems


def _plainly_paired(messages: Sequence[Message]) -> bool:
    """True only when no rule of :func:`analyse_pairing` can find a problem; False sends
    the session to the full analysis (so anything unusual may simply answer False).

    Plain means: parts other than text only in assistant turns of calls (unique,
    non-empty ids, no renumbering, arguments a JSON object when a string) and in the
    tool messages right after each such turn, which hold results only and answer
    exactly that turn's calls, each id once in the session; no other message holds a
    result. tests/sessions/test_import_stored.py checks the implication on random
    sessions.
    """
    if messages and any([type(p) is ToolCallPart for p in messages[-1].parts]):
        return False  # a log cut mid-turn (the usual problem): no pass to find it out
    seen_calls: set[str] = set()
    seen_results: set[str] = set()
    count = len(messages)
    mi = 0
    while mi < count:
        message = messages[mi]
        parts = message.parts
        mi += 1
        if all([type(p) is TextPart for p in parts]):
            continue
        if message.role is not _ASSISTANT:
            return False
        turn: set[str] = set()
        for part in parts:
            if type(part) is TextPart:
                continue
            if type(part) is not ToolCallPart or part.extra:
                return False
            call_id, arguments = part.id, part.arguments
            if type(call_id) is not str or not call_id or call_id in seen_calls:
                return False
            if isinstance(arguments, str) and not _is_json_object(arguments):
                return False
            seen_calls.add(call_id)
            turn.add(call_id)
        answered: set[str] = set()
        while mi < count and messages[mi].role is _TOOL and messages[mi].parts:
            for part in messages[mi].parts:
                if type(part) is not ToolResultPart:
                    return False
                result_id = part.id
                if result_id not in turn or result_id in seen_results:
                    return False
                seen_results.add(result_id)
                answered.add(result_id)
            mi += 1
        if answered != turn:
            return False
    return True


def _analyse(messages: Sequence[Message], *, with_pairs: bool) -> PairingReport:
    problems: list[PairingProblem] = []
    calls: dict[str, Position] = {}
    results: dict[str, Position] = {}

    first_by_original: dict[str, Position] = {}
    renumbered: dict[str, str] = {}  # call id → the id the user's file has
    # One pass over the parts collects what the turn rules read per message (the
    # calls and results of each, its provider index): Message.tool_calls and
    # .tool_results build a tuple per access.
    wire_index: list[int] = []
    calls_of: list[tuple[ToolCallPart, ...]] = []
    results_of: list[tuple[ToolResultPart, ...]] = []
    wire = 0
    for mi, msg in enumerate(messages):
        wire_index.append(wire)
        if msg.role is not _SYSTEM:
            wire += 1
        parts = msg.parts
        if len(parts) == 1 and type(parts[0]) is TextPart:  # most messages: nothing to pair
            calls_of.append(())
            results_of.append(())
            continue
        its_calls: tuple[ToolCallPart, ...] = ()
        its_results: tuple[ToolResultPart, ...] = ()
        for pi, part in enumerate(parts):
            if isinstance(part, ToolCallPart):
                its_calls += (part,)
                pos = _position(mi, pi)  # per call or result only: text parts need none
                # The id as the file had it: an importer renumbers reused ids
                # (keeping the original in extra) so the pairs stay readable.
                original = str(part.extra.get("original_id", part.id))
                if original != part.id:
                    renumbered.setdefault(part.id, original)
                if part.id in calls or (original and original in first_by_original):
                    first = calls.get(part.id) or first_by_original[original]
                    renamed = (
                        f" (renumbered to {part.id!r} on import)" if original != part.id else ""
                    )
                    problems.append(
                        PairingProblem(
                            PairingKind.DUPLICATE_CALL_ID,
                            pos,
                            part.id,
                            f"call id {original!r} was already used at {first}{renamed}",
                            _duplicate_errors(original, wire_index[mi], pi),
                            (first,),
                        )
                    )
                if part.id not in calls:
                    calls[part.id] = pos  # the first call of each id, in session order
                if original:
                    first_by_original.setdefault(original, pos)
                if isinstance(part.arguments, str) and not _is_json_object(part.arguments):
                    problems.append(
                        PairingProblem(
                            PairingKind.INVALID_ARGUMENTS_JSON,
                            pos,
                            part.id,
                            f"arguments of {part.name} are not a JSON object: "
                            f"{_json_error(part.arguments)}",
                            _invalid_arguments_effects(wire_index[mi], pi),
                        )
                    )
            elif isinstance(part, ToolResultPart):
                its_results += (part,)
                pos = _position(mi, pi)
                if part.id in results:
                    problems.append(
                        PairingProblem(
                            PairingKind.DUPLICATE_RESULT_ID,
                            pos,
                            part.id,
                            f"call {part.id!r} is answered twice (first at {results[part.id]})",
                            related=(results[part.id],),
                        )
                    )
                else:
                    results[part.id] = pos
        calls_of.append(its_calls)
        results_of.append(its_results)

    problems.extend(_turn_rules(messages, calls, wire_index, calls_of, results_of, set(results)))
    problems = [_with_file_id(p, renumbered) for p in problems] if renumbered else problems

    pairs: list[Pair] = []
    if with_pairs:  # dicts keep insertion order: the calls, then the results with no call
        pairs = [_pair(cid, pos, results.get(cid)) for cid, pos in calls.items()]
        pairs.extend(_pair(rid, None, pos) for rid, pos in results.items() if rid not in calls)
    problems.sort(key=lambda p: (p.position.message, p.position.part or 0, p.kind.value))
    return PairingReport(tuple(pairs), tuple(problems))


def _turn_rules(
    messages: Sequence[Message],
    calls: dict[str, Position],
    wire_index: list[int],
    calls_of: list[tuple[ToolCallPart, ...]],
    results_of: list[tuple[ToolResultPart, ...]],
    answered_anywhere: set[str],
) -> list[PairingProblem]:
    """Rules about where results sit relative to the assistant turn that made the calls.

    Args:
        calls_of: Per message, its tool calls (``Message.tool_calls``).
        results_of: Per message, its tool results (``Message.tool_results``).
        answered_anywhere: The id of every result in the session.
    """
    problems: list[PairingProblem] = []

    # Provider message indexes skip system messages (they travel separately).
    mi = 0
    while mi < len(messages):
        msg = messages[mi]
        turn_calls = calls_of[mi] if msg.role is _ASSISTANT else ()
        if turn_calls:
            turn_ids = [c.id for c in turn_calls]
            # OpenAI: the tool messages directly after; Anthropic: the very next
            # (user) message. Both collapse to "the result block right after".
            following: list[tuple[int, int, ToolResultPart]] = []
            nxt = mi + 1
            while nxt < len(messages) and messages[nxt].role in (_TOOL, _USER):
                nmsg = messages[nxt]
                if not results_of[nxt]:
                    break
                for pi, part in enumerate(nmsg.parts):
                    if isinstance(part, ToolResultPart):
                        following.append((nxt, pi, part))
                nxt += 1
                if nmsg.role is _USER:
                    break  # Anthropic: only the single next user message counts
            direct = {p.id for _, _, p in following}
            missing = [cid for cid in turn_ids if cid not in direct]
            for cid in missing:
                later = cid in answered_anywhere
                kind = (
                    PairingKind.RESULT_NOT_DIRECTLY_AFTER
                    if later
                    else PairingKind.CALL_WITHOUT_RESULT
                )
                text = (
                    f"call {cid!r} is answered, but not directly after the assistant turn"
                    if later
                    else f"call {cid!r} has no result"
                )
                problems.append(
                    PairingProblem(
                        kind,
                        calls.get(cid, Position(mi)),
                        cid,
                        text,
                        {
                            "openai": _openai_unanswered(missing),
                            "anthropic": _anthropic_unanswered(wire_index[mi], missing),
                        },
                    )
                )
            for rmi, rpi, part in following:
                if part.id not in turn_ids:
                    where = calls.get(part.id)
                    kind = (
                        PairingKind.RESULT_NOT_IN_PRECEDING_CALLS
                        if where is not None
                        else PairingKind.RESULT_WITHOUT_CALL
                    )
                    problems.append(
                        PairingProblem(
                            kind,
                            Position(rmi, rpi),
                            part.id,
                            f"result {part.id!r} does not answer a call of the preceding turn",
                            {
                                "openai": f"Invalid parameter: tool_call_id {part.id} not found "
                                "in 'tool_calls' of previous message.",
                                "anthropic": _anthropic_unexpected(wire_index[rmi], part.id),
                            },
                            (where,) if where else (),
                        )
                    )
            if following and len(direct) != len(turn_ids):
                problems.append(
                    PairingProblem(
                        PairingKind.COUNT_MISMATCH,
                        Position(mi),
                        turn_ids[0],
                        f"{len(turn_ids)} calls answered by {len(following)} results",
                        {"gemini": _gemini_count(len(turn_ids), len(following))},
                    )
                )
            mi = max(nxt, mi + 1)
            continue
        if results_of[mi]:
            problems.extend(_stray_results(messages, mi, calls, wire_index))
        mi += 1
    return problems + _result_not_first(messages, wire_index, results_of)


def _stray_results(
    messages: Sequence[Message],
    mi: int,
    calls: dict[str, Position],
    wire_index: list[int],
) -> list[PairingProblem]:
    """Results in a message that does not follow an assistant turn with calls."""
    out = []
    for pi, part in enumerate(messages[mi].parts):
        if not isinstance(part, ToolResultPart):
            continue
        where = calls.get(part.id)
        out.append(
            PairingProblem(
                PairingKind.RESULT_WITHOUT_CALL
                if where is None
                else PairingKind.RESULT_NOT_DIRECTLY_AFTER,
                Position(mi, pi),
                part.id,
                f"result {part.id!r} has no call"
                if where is None
                else f"result {part.id!r} is not directly after its call at {where}",
                {
                    "openai": _OPENAI_ORPHAN,
                    "anthropic": _anthropic_unexpected(wire_index[mi], part.id),
                },
                (where,) if where else (),
            )
        )
    return out


def _result_not_first(
    messages: Sequence[Message], wire_index: list[int], results_of: list[tuple[ToolResultPart, ...]]
) -> list[PairingProblem]:
    """Anthropic: in a user message, tool_result blocks come before any other content."""
    out = []
    for mi, msg in enumerate(messages):
        if msg.role is not _USER or not results_of[mi]:
            continue
        seen_other = False
        for pi, part in enumerate(msg.parts):
            if not isinstance(part, ToolResultPart):
                seen_other = True
            elif seen_other:
                out.append(
                    PairingProblem(
                        PairingKind.RESULT_NOT_FIRST,
                        Position(mi, pi),
                        part.id,
                        f"result {part.id!r} comes after other content in its message",
                        {
                            "anthropic": f"messages.{wire_index[mi]}.content.{pi}: tool_result "
                            "blocks must come first in the content array of a user message"
                        },
                    )
                )
    return out


def _is_json_object(text: str) -> bool:
    try:  # orjson first (~4× faster): what it decodes, json.loads decodes to the same kind
        return isinstance(orjson.loads(text), dict)
    except orjson.JSONDecodeError:
        pass  # malformed, or what only json.loads accepts (NaN, a lone surrogate)
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _json_error(text: str) -> str:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"line {exc.lineno} column {exc.colno}: {exc.msg}"
    return f"a JSON {type(value).__name__}, not an object"


def duplicate_ids(messages: Sequence[Message]) -> list[str]:
    """Call ids used by more than one tool call."""
    counts = Counter(c.id for m in messages for c in m.tool_calls)
    return [cid for cid, n in counts.items() if n > 1]
