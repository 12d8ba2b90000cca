"""The plain OpenAI reader (openai_plain) stores what the generic reader stores, byte for byte.

Random logs of OpenAI chat conversations, most plain and many with one odd thing
each (what the generic reader repairs, warns about, renumbers, or another format's
shape), are read both ways — ``import_sessions(..., for_storing=True)`` and the
generic reading — and stored in two databases: every row (timestamps masked), the
sessions' messages, origins, titles, warnings and problem counts must be equal.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from registry_db import RegistryStore
from registry_db.sessions import SessionStore
from studio.sessions.importers import import_sessions
from studio.sessions.importers.openai_plain import PlainSession, read_plain
from studio.sessions.library import content_hash, problem_count, store_imported
from tests.sessions.helpers import stored_rows

_ODD = (
    "none", "none", "none", "none", "vendor", "name", "refusal", "duplicate-id", "blank-id",
    "bad-arguments", "array-arguments", "twice-encoded", "object-arguments", "content-list",
    "developer", "type-key", "parts-key", "ids-list", "legacy-call", "is-error", "system-key",
    "title", "tools", "functions", "anthropic-tools", "extra-call-key", "extra-function-key",
    "stray-result", "late-result", "result-twice", "integer-id", "unknown-role", "not-a-dict",
    "write-twice", "timeout-retry", "format-key", "empty", "long-number", "function-role",
)  # fmt: skip


def _call(rng: random.Random, call_id: Any, name: str) -> dict[str, Any]:
    args = json.dumps({"q": rng.choice(["taxi", "酒店", "a\nb"]), "n": rng.randint(0, 9)})
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def _conversation(rng: random.Random, n: int) -> dict[str, Any]:
    odd = _ODD[n % len(_ODD)]
    messages: list[Any] = []
    if rng.random() < 0.8:
        messages.append({"role": "system", "content": rng.choice(["You help.", "", "助手"])})
    turns = rng.randint(0, 4)
    for t in range(turns):
        messages.append({"role": "user", "content": rng.choice([f"Q{t} 报销?", "  ", "x" * 90])})
        k = rng.randint(0, 3)
        names = ["query_invoices", "search_policy", "create_ticket", "get_weather"]
        calls = [_call(rng, f"call_{n}_{t}_{i}", rng.choice(names)) for i in range(k)]
        content = rng.choice([None, "", "Let me look."])
        assistant: dict[str, Any] = {"role": "assistant", "content": content}
        if calls or rng.random() < 0.3:
            assistant["tool_calls"] = calls
        messages.append(assistant)
        answered = calls if rng.random() < 0.8 else calls[: rng.randint(0, len(calls))]
        order = list(answered)
        if rng.random() < 0.3:
            rng.shuffle(order)
        for call in order:
            body = rng.choice(['{"ok": true}', "clause 4.2", '{"status": "UNKNOWN"}', "Error: x"])
            tool: dict[str, Any] = {"role": "tool", "tool_call_id": call["id"], "content": body}
            if rng.random() < 0.3:
                tool["name"] = call["function"]["name"]
            messages.append(tool)
        if rng.random() < 0.6:
            messages.append({"role": "assistant", "content": f"Done {t} — 完成."})
    data: dict[str, Any] = {"model": rng.choice(["gpt-4o", "gpt-4.1"]), "messages": messages}
    if rng.random() < 0.3:
        data["temperature"] = 0.2
    _make_odd(rng, odd, data, n)
    return data


def _make_odd(rng: random.Random, odd: str, data: dict[str, Any], n: int) -> None:
    messages = data["messages"]
    calls = [c for m in messages if isinstance(m, dict) for c in m.get("tool_calls") or ()]
    tools = [m for m in messages if isinstance(m, dict) and m.get("role") == "tool"]
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    if odd == "vendor" and messages:
        rng.choice(messages)["x_trace"] = {"id": n}
    elif odd == "name" and users:
        users[0]["name"] = "alice"
    elif odd == "refusal":
        for m in messages:
            if m.get("role") == "assistant":
                m["refusal"] = None
    elif odd == "duplicate-id" and len(calls) > 1:
        calls[1]["id"] = calls[0]["id"]
    elif odd == "blank-id" and calls:
        calls[0]["id"] = rng.choice(["", " ", None])
    elif odd == "bad-arguments" and calls:
        calls[0]["function"]["arguments"] = "{not json"
    elif odd == "array-arguments" and calls:
        calls[0]["function"]["arguments"] = rng.choice(["[1, 2]", "3", "null", '"x"'])
    elif odd == "twice-encoded" and calls:
        calls[0]["function"]["arguments"] = json.dumps(calls[0]["function"]["arguments"])
    elif odd == "object-arguments" and calls:
        calls[0]["function"]["arguments"] = {"q": "taxi"}
    elif odd == "content-list" and users:
        users[0]["content"] = [{"type": "text", "text": "hi"}, {"type": "image_url"}]
    elif odd == "developer" and messages:
        messages[0]["role"] = "developer"
    elif odd == "type-key" and messages:
        messages[-1]["type"] = "message"
    elif odd == "parts-key" and messages:
        messages[-1]["parts"] = []
    elif odd == "ids-list" and tools:
        tools[0]["tool_call_ids"] = [tools[0]["tool_call_id"]]
        tools[0]["tool_call_id"] = rng.choice([None, tools[0]["tool_call_id"]])
    elif odd == "legacy-call":
        messages.append({"role": "assistant", "content": None,
                         "function_call": {"name": "get_weather", "arguments": "{}"}})  # fmt: skip
    elif odd == "is-error" and tools:
        tools[0]["is_error"] = rng.choice([True, False, 1])
    elif odd == "system-key":
        data["system"] = "Be brief."
    elif odd == "title":
        data["title"] = rng.choice(["Trip 会议", "", 7, None])
    elif odd == "tools":
        data["tools"] = rng.choice([[], [{"type": "function", "function": {"name": "f"}}], "x"])
    elif odd == "functions":
        data["functions"] = rng.choice([[{"name": "f", "parameters": {}}], {}, []])
        data["tools"] = rng.choice([[], None])
    elif odd == "anthropic-tools":
        data["tools"] = [{"name": "f", "input_schema": {"type": "object"}}]
    elif odd == "extra-call-key" and calls:
        calls[0]["original_id"] = "call_0"
    elif odd == "extra-function-key" and calls:
        calls[0]["function"]["strict"] = True
    elif odd == "stray-result":
        messages.insert(1, {"role": "tool", "tool_call_id": "call_nowhere", "content": "x"})
    elif odd == "late-result" and tools:
        late = tools[0]
        messages.remove(late)
        messages.append(late)
    elif odd == "result-twice" and tools:
        messages.insert(messages.index(tools[0]) + 1, dict(tools[0]))
    elif odd == "integer-id" and calls:
        calls[0]["id"] = 41
    elif odd == "unknown-role" and messages:
        messages[-1]["role"] = rng.choice(["robot", 3])
    elif odd == "not-a-dict":
        messages.append(rng.choice(["text", 5, None, []]))
    elif odd in ("write-twice", "timeout-retry"):
        args = '{"ticket": "T-1"}'
        first = {
            "role": "tool",
            "tool_call_id": f"w{n}a",
            "content": '{"status": "UNKNOWN"}' if odd == "timeout-retry" else "created",
        }
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"w{n}a", "type": "function",
                 "function": {"name": "create_ticket", "arguments": args}}]},
            first,
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"w{n}b", "type": "function",
                 "function": {"name": "create_ticket", "arguments": args}}]},
            {"role": "tool", "tool_call_id": f"w{n}b", "content": "created"},
        ]  # fmt: skip
    elif odd == "format-key":
        data["format"] = rng.choice(["openai-chat", "other"])
    elif odd == "empty":
        messages.clear()
    elif odd == "long-number" and calls:
        calls[0]["function"]["arguments"] = '{"n": 123456789012345678901234}'
    elif odd == "function-role" and tools:
        tools[0]["role"] = "function"


def _store(db: Path, outcome: Any) -> list[str]:
    with RegistryStore.open(db) as store:
        sessions = SessionStore.for_store(store)
        with sessions.batch():
            for imported in outcome.sessions:
                store_imported(sessions, imported, file="log.jsonl")
    return stored_rows(db)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(16)
    path = tmp_path_factory.mktemp("plain") / "log.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for n in range(240):
            f.write(json.dumps(_conversation(rng, n), ensure_ascii=n % 2 == 0) + "\n")
    return path


def test_the_plain_reader_stores_what_the_generic_reader_stores(log: Path, tmp_path: Path) -> None:
    fast = import_sessions(log, for_storing=True)
    slow = import_sessions(log)
    plain = [s for s in fast.sessions if isinstance(s, PlainSession)]
    assert 90 < len(plain) < len(fast.sessions)  # both readers had their share
    assert [str(e) for e in fast.errors] == [str(e) for e in slow.errors]
    assert _store(tmp_path / "fast.sqlite3", fast) == _store(tmp_path / "slow.sqlite3", slow)


def test_a_plain_session_is_the_session_the_generic_reader_makes(log: Path) -> None:
    fast = import_sessions(log, for_storing=True)
    slow = import_sessions(log)
    assert len(fast.sessions) == len(slow.sessions)
    for a, b in zip(fast.sessions, slow.sessions, strict=True):
        assert a.message_count == b.message_count == len(b.messages)
        assert (a.line, a.title, a.meta, a.tools, a.source_format) == (
            b.line, b.title, b.meta, b.tools, b.source_format
        )  # fmt: skip
        assert [str(w) for w in a.warnings] == [str(w) for w in b.warnings]
        assert a.messages == b.messages
        assert a.origins == b.origins
        assert content_hash(a) == content_hash(b)
        if isinstance(a, PlainSession) and a.pairing is not None:
            assert a.pairing <= problem_count(b.messages)


def test_the_pairing_count_of_the_reading_is_the_analysis_count(log: Path) -> None:
    from studio.sessions.pairing import pairing_problems

    counted = 0
    for session in import_sessions(log, for_storing=True).sessions:
        if isinstance(session, PlainSession) and session.pairing is not None:
            assert session.pairing == len(pairing_problems(session.messages)), session.line
            counted += session.pairing > 0
    assert counted > 10  # turns left unanswered, wholly or in part, were counted


def test_what_is_not_plain_is_left_to_the_generic_reader() -> None:
    plain: dict[str, Any] = {"messages": [{"role": "user", "content": "hi"}]}
    assert read_plain(plain, 1) is not None
    odd: Any
    for odd in (
        [plain],
        {**plain, "system": "x"},
        {**plain, "format": "openai-chat"},
        {"messages": []},
        {"messages": [{"role": "developer", "content": "x"}]},
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]},
        {"messages": [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "function": {"name": "f", "arguments": '"{}"'}}]}]},
    ):  # fmt: skip
        assert read_plain(odd, 1) is None, odd


def test_a_plain_import_through_the_cli_prints_what_it_stored(log: Path, tmp_path: Path) -> None:
    import contextlib
    import io

    from studio.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["--db", str(tmp_path / "cli.sqlite3"), "sessions", "import", str(log)])
    assert code == 1  # some conversations are refused (empty, unknown roles)
    lines = out.getvalue().splitlines()
    imported = [line for line in lines if line.startswith("imported ")]
    again = [line for line in lines if line.startswith("already imported ")]  # the same content
    stored = stored_rows(tmp_path / "cli.sqlite3")
    assert len(imported) == sum(row.startswith("sessions ") for row in stored)
    assert len(imported) + len(again) == len(import_sessions(log).sessions)


def test_an_import_leaves_every_reference_whole(log: Path, tmp_path: Path) -> None:
    """An import without --replace inserts with foreign keys unchecked (its rows refer only
    to the session it inserted just before); the file still passes the check."""
    import contextlib
    import io

    from studio.cli import main

    db, part = tmp_path / "fk.sqlite3", tmp_path / "part.jsonl"
    part.write_text("".join(log.read_text(encoding="utf-8").splitlines(True)[:60]), "utf-8")
    for extra in ([], ["--replace"]):
        with contextlib.redirect_stdout(io.StringIO()):
            main(["--db", str(db), "sessions", "import", str(part), *extra])
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        orphans = "SELECT count(*) FROM messages WHERE session_id NOT IN (SELECT id FROM sessions)"
        assert conn.execute(orphans).fetchone()[0] == 0
    finally:
        conn.close()


def _nest(depth: int) -> Any:
    """Containers ``depth`` deep (lists and objects in turn)."""
    value: Any = 0
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _deep_lines() -> list[dict[str, Any]]:
    """Conversations holding a value as deep as the studio reads (100 levels in all), and one
    level deeper, at each place the plain reader does not walk itself."""
    user = {"role": "user", "content": "hi"}
    call = {"id": "c1", "type": "function", "function": {"name": "get_x", "arguments": "{}"}}
    answer = {"role": "tool", "tool_call_id": "c1", "content": "ok"}
    out = []
    for extra_level in (0, 1):
        # (where, the level of the object holding the value)
        places: list[tuple[str, int]] = [
            ("meta", 1), ("tools", 1), ("vendor", 3), ("user-ignored", 3), ("tool-name", 3),
            ("call-type", 5), ("call-vendor", 5), ("function-vendor", 6),
        ]  # fmt: skip
        for where, level in places:
            deep = _nest(100 - level + extra_level)
            c = json.loads(json.dumps(call))
            messages: list[dict[str, Any]] = [
                dict(user), {"role": "assistant", "content": None, "tool_calls": [c]},
                dict(answer),
            ]  # fmt: skip
            data: dict[str, Any] = {"model": "m", "messages": messages}
            if where == "meta":
                data["trace"] = deep
            elif where == "tools":  # in the list: one level lower
                data["tools"] = [_nest(100 - level - 1 + extra_level)]
            elif where == "vendor":
                messages[0]["x_trace"] = deep
            elif where == "user-ignored":
                messages[0]["tool_call_id"] = deep
            elif where == "tool-name":
                messages[2]["name"] = deep
            elif where == "call-type":
                c["type"] = deep
            elif where == "call-vendor":
                c["x_index"] = deep
            else:
                c["function"]["strict"] = deep
            out.append(data)
    return out


def test_the_plain_reader_refuses_what_nests_too_deep_as_the_loader_does(tmp_path: Path) -> None:
    """The plain reader vouches for a line's nesting itself (the loader's walk is skipped for
    what it reads): a value as deep as allowed is read, one level deeper is refused with the
    loader's message, wherever it is; so for a first line (read as a document first) and a
    line after single-message lines."""
    lines = _deep_lines()
    single = [{"role": "user", "content": "one"}, {"role": "assistant", "content": "two"}]
    for name, rows in (
        ("deep.jsonl", lines),
        ("first.jsonl", [lines[-1], *lines[:3]]),
        ("after-single.jsonl", [*single, lines[-2], *single, lines[0]]),
    ):
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        fast = import_sessions(path, for_storing=True)
        slow = import_sessions(path)
        assert [str(e) for e in fast.errors] == [str(e) for e in slow.errors], name
        assert [(s.line, s.messages, s.meta, s.tools) for s in fast.sessions] == [
            (s.line, s.messages, s.meta, s.tools) for s in slow.sessions
        ], name
    deep = import_sessions(tmp_path / "deep.jsonl", for_storing=True)
    assert sum(isinstance(s, PlainSession) for s in deep.sessions) == 8  # as deep as allowed
    assert len(deep.errors) == 8 and all("deep" in str(e) for e in deep.errors), deep.errors
