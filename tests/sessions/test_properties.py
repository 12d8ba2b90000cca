"""Property tests: random input never crashes the importer or the analysers; exports round-trip."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.sessions.check import check_session
from studio.sessions.exporters import export_text
from studio.sessions.importers import import_sessions
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.replay import SessionReplay

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=8)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
keys = st.sampled_from(["role", "content", "tool_calls", "tool_call_id", "id", "type", "function",
                        "name", "arguments", "input", "tool_use_id", "parts", "functionCall",
                        "functionResponse", "args", "response", "call_id", "output", "text",
                        "messages", "contents", "system", "tools"])  # fmt: skip
values = st.sampled_from(["user", "assistant", "tool", "model", "system", "function_call",
                          "function_call_output", "tool_use", "tool_result", "text", "call_0",
                          "", "{}", '"{}"', "{bad"])  # fmt: skip
shaped = st.recursive(
    scalars | values,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


@SETTINGS
@given(st.one_of(json_values, shaped))
def test_random_json_never_crashes_the_importer(value: Any) -> None:
    text = json.dumps(value)
    if text.lstrip()[:1] not in ("[", "{"):
        text = "[" + text + "]"
    outcome = import_sessions(text)
    for session in outcome.sessions:
        check_session(session.messages)
    jsonl = "\n".join([text, json.dumps(value), "{"])
    import_sessions(jsonl)


ids = st.sampled_from(["c1", "c2", "c3", "", "call_0"])
parts = st.one_of(
    st.builds(TextPart, st.text(max_size=10)),
    st.builds(ToolCallPart, ids, st.sampled_from(["create_ticket", "query_x", "send_mail"]),
              st.one_of(st.sampled_from(["{}", "{bad", '{"a": 1}', "[]"]),
                        st.dictionaries(st.text(max_size=3), scalars, max_size=2))),
    st.builds(ToolResultPart, ids, st.sampled_from(["ok", '{"status": "UNKNOWN"}', "timed out"]),
              st.booleans()),
)  # fmt: skip
messages = st.lists(
    st.builds(Message, st.sampled_from(list(Role)), st.lists(parts, max_size=3).map(tuple)),
    max_size=12,
)


@SETTINGS
@given(messages)
def test_random_sessions_never_crash_the_analysers(history: list[Message]) -> None:
    check = check_session(history)
    replay = SessionReplay(history, check)
    while replay.next_problem() is not None:
        pass
    assert replay.position >= -1
    for fmt in ("openai", "anthropic", "jsonl"):
        import_sessions(export_text(history, fmt))


arguments = st.dictionaries(
    st.text("abcxyz", min_size=1, max_size=4), st.integers(0, 9) | st.text(max_size=5), max_size=3
)


@st.composite
def well_formed_sessions(draw: st.DrawFn) -> list[Message]:
    """Sessions as the runtime records them: unique ids, every call answered right after."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message(Role.SYSTEM, (TextPart(draw(st.text(min_size=1, max_size=20))),)))
    n = 0
    for _ in range(draw(st.integers(1, 4))):
        out.append(Message(Role.USER, (TextPart(draw(st.text(min_size=1, max_size=20))),)))
        for _ in range(draw(st.integers(0, 2))):
            calls = []
            for _ in range(draw(st.integers(1, 3))):
                n += 1
                args = draw(arguments)
                calls.append(ToolCallPart(f"call_{n}", draw(st.sampled_from(["a_b", "q"])),
                                          json.dumps(args)))  # fmt: skip
            text = draw(st.text(max_size=10).filter(lambda s: s.strip() == s))
            out.append(Message(Role.ASSISTANT, ((TextPart(text),) if text else ()) + tuple(calls)))
            out.append(Message(Role.TOOL, tuple(
                ToolResultPart(c.id, draw(st.text(min_size=1, max_size=10))) for c in calls
            )))  # fmt: skip
        out.append(Message(Role.ASSISTANT, (TextPart(draw(st.text(min_size=1, max_size=20))),)))
    return out


def projection(history: list[Message]) -> list[tuple[Any, ...]]:
    """What every format keeps: roles, text, calls (id, name, args), results (id, content)."""
    out = []
    for m in history:
        if not m.parts:
            continue
        calls = tuple((c.id, c.name, json.loads(c.arguments) if isinstance(c.arguments, str)
                       else c.arguments) for c in m.tool_calls)  # fmt: skip
        results = tuple((r.id, r.content) for r in m.tool_results)
        if m.role is Role.TOOL and out and out[-1][0] == "tool":
            out[-1] = (*out[-1][:3], out[-1][3] + results)  # OpenAI: one message per result
            continue
        out.append((m.role.value, m.text, calls, results))
    return out


@SETTINGS
@given(well_formed_sessions(), st.sampled_from(["openai", "anthropic", "jsonl"]))
def test_export_then_import_round_trips(history: list[Message], fmt: str) -> None:
    text = export_text(history, fmt, redact=False)
    outcome = import_sessions(text)
    assert outcome.errors == []
    (session,) = outcome.sessions
    if fmt == "jsonl":
        assert session.messages == history
    else:
        assert projection(session.messages) == projection(history)
    assert check_session(session.messages).problem_count == 0
