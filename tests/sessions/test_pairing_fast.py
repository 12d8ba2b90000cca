"""Issue 16: ``pairing_problems`` (an import's problem count) says what ``analyse_pairing`` says.

Its shortcut (:func:`studio.sessions.pairing._plainly_paired`) may answer "no problem"
only where the full analysis finds none: checked on plain sessions and on thousands of
random mutations of them (calls moved, answered twice, renumbered, left unanswered …).
"""

from __future__ import annotations

import random

from studio.sessions.model import Message, Part, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.pairing import _plainly_paired, analyse_pairing, pairing_problems

ROLES = (Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL)
ARGUMENTS: tuple[str | dict[str, object], ...] = ('{"q": 1}', "{}", "[1]", "{bad", '"{}"', {"q": 1})


def _plain(rng: random.Random, turns: int) -> list[Message]:
    messages = [Message(Role.SYSTEM, (TextPart("be brief"),))]
    for t in range(turns):
        ids = [f"call_{t}_{k}" for k in range(rng.randint(1, 3))]
        text: tuple[Part, ...] = (TextPart("thinking"),) if rng.random() < 0.3 else ()
        calls = tuple(ToolCallPart(i, "search", '{"q": 1}') for i in ids)
        messages += [Message(Role.USER, (TextPart(f"question {t}"),)),
                     Message(Role.ASSISTANT, text + calls)]  # fmt: skip
        rng.shuffle(ids)
        if rng.random() < 0.5:
            messages += [Message(Role.TOOL, (ToolResultPart(i, "ok"),)) for i in ids]
        else:
            messages.append(Message(Role.TOOL, tuple(ToolResultPart(i, "ok") for i in ids)))
        messages.append(Message(Role.ASSISTANT, (TextPart("answer"),)))
    return messages


def _mutate(rng: random.Random, messages: list[Message]) -> list[Message]:
    out = list(messages)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(out))
        m = out[i]
        choice = rng.randrange(9)
        if choice == 0:  # move a message
            out.insert(rng.randrange(len(out)), out.pop(i))
        elif choice == 1:  # drop a message
            out.pop(i)
        elif choice == 2:  # repeat a message (ids used twice)
            out.insert(rng.randrange(len(out)), m)
        elif choice == 3:  # another role
            out[i] = Message(rng.choice(ROLES), m.parts, m.extra)
        elif choice == 4:  # an id changed to another one of the session (or empty)
            ids = [p.id for x in out for p in x.parts if not isinstance(p, TextPart)] + [""]
            out[i] = Message(m.role, tuple(_with_id(p, rng.choice(ids)) for p in m.parts))
        elif choice == 5:  # other arguments
            parts = tuple(
                ToolCallPart(p.id, p.name, rng.choice(ARGUMENTS)) if isinstance(p, ToolCallPart)
                else p for p in m.parts
            )  # fmt: skip
            out[i] = Message(m.role, parts)
        elif choice == 6:  # a renumbered call (the file's id kept in extra)
            parts = tuple(
                ToolCallPart(p.id, p.name, p.arguments, {"original_id": "call_0"})
                if isinstance(p, ToolCallPart) else p for p in m.parts
            )  # fmt: skip
            out[i] = Message(m.role, parts)
        elif choice == 7:  # text put before or after the parts
            text = (TextPart("note"),)
            out[i] = Message(m.role, text + m.parts if rng.random() < 0.5 else m.parts + text)
        else:  # an empty message
            out[i] = Message(m.role, ())
    return out


def _with_id(part: Part, new: str) -> Part:
    if isinstance(part, ToolCallPart):
        return ToolCallPart(new, part.name, part.arguments, part.extra)
    if isinstance(part, ToolResultPart):
        return ToolResultPart(new, part.content, part.is_error, part.name, part.extra)
    return part


def test_plain_sessions_take_the_shortcut_and_have_no_problem() -> None:
    rng = random.Random(16)
    for turns in (0, 1, 5, 40):
        messages = _plain(rng, turns)
        assert _plainly_paired(messages)
        assert analyse_pairing(messages).problems == () == pairing_problems(messages)


def test_the_shortcut_never_hides_a_problem() -> None:
    rng = random.Random(1616)
    shortcuts = problems = 0
    for _ in range(3000):
        messages = _mutate(rng, _plain(rng, rng.randint(1, 4)))
        full = analyse_pairing(messages).problems
        if _plainly_paired(messages):
            shortcuts += 1
            assert full == (), messages
        problems += bool(full)
        assert pairing_problems(messages) == full
    # Both sides were exercised: mutations that keep a session plain, and ones that do not.
    assert shortcuts > 200 and problems > 1500
