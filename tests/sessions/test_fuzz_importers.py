"""Hostile session logs: every importer ends in issues (or a FormatError), never a crash.

Fuzzes each session format with arbitrary JSON-ish values and with mutations
of the shipped fixtures (a wrong type at any position, huge integers, lone
surrogates, deep nesting), then stores what was imported: storing must never
fail on encoding either. Also the named cases of issue #10 item 13: a JSONL
file with one bad conversation, importing the same file twice, files that are
FIFOs or devices, and the CLI answering each hostile file with one line.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry_db import open_default_store
from registry_db.sessions import SessionStore
from studio.cli import main
from studio.formats import FormatError
from studio.sessions.importers import FORMATS, ImportOutcome, import_sessions
from studio.sessions.library import load_messages, store_imported

FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and devices")

HUGE = "__HUGE_INT__"
DEEP = "__DEEP__"
HOSTILE: list[Any] = [None, True, 0, 1.5, 2**70, "", "a\nb", "\ud800", "x\udc00", [], {},
                      [None], {"": None}, HUGE, DEEP, '{"a": "\\ud800"}', "[" * 300 + "]" * 300,
                      '{"n": ' + "7" * 5000 + "}"]  # fmt: skip
KEYS = ["role", "content", "tool_calls", "tool_call_id", "id", "type", "function", "name",
        "arguments", "input", "tool_use_id", "parts", "functionCall", "functionResponse", "args",
        "response", "call_id", "output", "text", "messages", "contents", "system", "tools",
        "format", "\ud800", "a\nb"]  # fmt: skip

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(["\ud800", "user", "assistant", "tool", "function_call", HUGE, DEEP])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=25,
)


def to_text(value: Any, depth: int = 300) -> str:
    text = json.dumps(value)
    text = text.replace(json.dumps(HUGE), "9" * 5000)
    return text.replace(json.dumps(DEEP), "[" * depth + "]" * depth)


def _positions(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _positions(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _positions(v, (*path, i))
    return out


def mutate(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: mutate(value[head], rest, new)}
    copy = list(value)
    copy[head] = mutate(value[head], rest, new)
    return copy


def _fixture_docs() -> list[Any]:
    docs = []
    for path in sorted(FIXTURES.iterdir()):
        if not path.is_file():
            continue  # agent transcript folders (test_real_logs.py)
        text = path.read_text("utf-8")
        if path.suffix == ".jsonl":
            for line in text.splitlines():
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    continue  # the fixtures hold a broken line on purpose
        else:
            docs.append(json.loads(text))
    return docs


DOCS = _fixture_docs()


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory):
    store = open_default_store(tmp_path_factory.mktemp("db") / "s.db", seed=False)
    yield SessionStore.for_store(store)
    store.close()


def _import(text: str, fmt: str) -> ImportOutcome:
    """Import text; a document that is not an object or array goes through a file."""
    if text.lstrip()[:1] in ("[", "{"):
        return import_sessions(text, fmt)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.json"
        path.write_text(text, "utf-8")
        return import_sessions(path, fmt)


def _check(outcome: ImportOutcome, sessions: SessionStore) -> None:
    for issue in [*outcome.errors, *outcome.warnings]:
        text = str(issue)
        assert "\n" not in text
        text.encode("utf-8")  # printable: no lone surrogate
    for imported in outcome.sessions:
        info, _ = store_imported(sessions, imported, file="fuzz.json")
        load_messages(sessions, info.id)


@SETTINGS
@given(value=json_values, fmt=st.sampled_from(("auto", *FORMATS)))
def test_arbitrary_values_import_or_report(value: Any, fmt: str, sessions: SessionStore) -> None:
    _check(_import(to_text(value), fmt), sessions)


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(("auto", *FORMATS)))
def test_mutated_fixtures_import_or_report(
    data: st.DataObject, fmt: str, sessions: SessionStore
) -> None:
    value = data.draw(st.sampled_from(DOCS))
    for _ in range(data.draw(st.integers(1, 3))):
        positions = _positions(value)
        path = positions[data.draw(st.integers(0, len(positions) - 1))]
        value = mutate(value, path, data.draw(st.sampled_from(HOSTILE) | json_values))
    text = to_text(value)
    if data.draw(st.booleans()):  # as one JSONL line between two good conversations
        good = json.dumps({"messages": [{"role": "user", "content": "hello"}]})
        text = f"{good}\n{text}\n{good}\n"
    _check(_import(text, fmt), sessions)


# ---------------------------------------------------------------------- named cases


def _line(content: str) -> str:
    return json.dumps({"messages": [{"role": "user", "content": content},
                                    {"role": "assistant", "content": "ok"}]})  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"role": "user", "content": "hi", "n": ' + "1" * 5000 + "}]",
         "input:1: refused: an integer of 5000 digits is too long (at most 4300) (column 41)"),
        ('[{"role": "user", "content": "\\ud800"}]',
         "input:1: $[0].content: refused: a string holds a lone surrogate"),
        ("[" * 100_000 + "]" * 100_000,
         "input:1: refused: objects and arrays are nested more than 100 levels deep (column 101)"),
        ('{"messages": [{"role": "user", "content": "hi"}],\n "x": ' + "[" * 150 + "]" * 150 + "}",
         "input:2: $.x[0][0][0][0][0][0][0]…(92 more levels): refused: objects and arrays"),
    ],
)  # fmt: skip
def test_hostile_documents_are_reported_with_their_place(text: str, expected: str) -> None:
    outcome = import_sessions(text)
    assert outcome.sessions == []
    (error,) = outcome.errors
    assert str(error).startswith(expected)


@pytest.mark.parametrize(
    "arguments",
    ['{"a": "\\ud800"}', "[" * 300 + "]" * 300, '{"n": ' + "7" * 5000 + "}"],
)
def test_arguments_the_studio_cannot_hold_are_refused_with_their_path(arguments: str) -> None:
    log = [{"role": "user", "content": "go"},
           {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "query_invoices", "arguments": arguments}}]}]  # fmt: skip
    outcome = import_sessions(json.dumps(log))
    (error,) = outcome.errors
    assert error.path == "$[1].tool_calls[0].function.arguments"
    assert error.message.startswith("arguments: ")


def test_jsonl_with_one_bad_conversation_imports_the_others_and_no_half(
    sessions: SessionStore,
) -> None:
    text = "\n".join([_line("first"), _line("bad \\ud800 text"), _line("third")]) + "\n"
    text = text.replace("bad \\\\ud800", "bad \\ud800")
    outcome = import_sessions(text, file_name="log.jsonl")
    assert [s.title for s in outcome.sessions] == ["first", "third"]
    (error,) = outcome.errors
    assert (error.line, error.path) == (2, "$.messages[0].content")
    stored = [store_imported(sessions, s, file="log.jsonl") for s in outcome.sessions]
    assert all(created for _, created in stored)
    for info, _ in stored:
        assert len(load_messages(sessions, info.id)) == 2


def test_importing_the_same_conversations_twice_stores_them_once(sessions: SessionStore) -> None:
    text = "\n".join([_line("once A"), _line("once B")]) + "\n"
    first = [store_imported(sessions, s) for s in import_sessions(text).sessions]
    again = [store_imported(sessions, s) for s in import_sessions(text).sessions]
    assert [created for _, created in first] == [True, True]
    assert [created for _, created in again] == [False, False]
    assert [i.id for i, _ in again] == [i.id for i, _ in first]
    titles = [i.title for i in sessions.list_sessions(source="import")]
    assert titles.count("once A") == 1 and titles.count("once B") == 1


def test_a_session_that_cannot_be_encoded_stores_nothing(sessions: SessionStore) -> None:
    imported = import_sessions(_line("fine")).sessions[0]
    imported.messages[0] = type(imported.messages[0])(
        imported.messages[0].role, imported.messages[0].parts, {"note": "\ud800"}
    )
    before = len(sessions.list_sessions(source="import"))
    with pytest.raises(FormatError, match="lone surrogate; not stored"):
        store_imported(sessions, imported, file="x.json")
    assert len(sessions.list_sessions(source="import")) == before


def _with_timeout(fn, seconds: float = 10.0):
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the import blocked"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@posix_only
def test_fifos_and_devices_are_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "log.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match=r"log\.jsonl: is a FIFO"):
        _with_timeout(lambda: import_sessions(fifo))
    with pytest.raises(FormatError, match="zero: is a device"):
        _with_timeout(lambda: import_sessions(Path("/dev/zero")))


def test_a_pretty_printed_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(json.loads(_line("pretty")), indent=2), "utf-8")
    outcome = import_sessions(path)
    assert [s.title for s in outcome.sessions] == ["pretty"] and outcome.errors == []


# ---------------------------------------------------------------------- the CLI


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


HOSTILE_FILES = {
    "huge.json": '[{"role": "user", "content": "hi", "n": ' + "1" * 5000 + "}]",
    "surrogate.json": '[{"role": "user", "content": "\\ud800"}]',
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "nonlist.json": json.dumps({"messages": 7}),
    "bad\nname.json": "{",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_cli_import_of_a_hostile_file_is_one_line_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE_FILES[name], "utf-8")
    code, out, err = _run(capsys, "--db", str(tmp_path / "s.db"), "sessions", "import", str(path))
    assert code == 2, out + err
    assert err.count("\n") == 1 and err.startswith("studio: ") and "Traceback" not in err


@posix_only
def test_cli_import_of_a_fifo_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "log.jsonl"
    os.mkfifo(fifo)
    code, _, err = _with_timeout(
        lambda: _run(capsys, "--db", str(tmp_path / "s.db"), "sessions", "import", str(fifo))
    )
    assert code == 2 and err.count("\n") == 1 and "is a FIFO" in err


def test_cli_second_import_reports_already_imported_for_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, path = str(tmp_path / "s.db"), tmp_path / "log.jsonl"
    bad = '{"messages": [{"role": "user", "content": "\\ud800"}]}'
    path.write_text("\n".join([_line("one"), bad, _line("two")]) + "\n", "utf-8")
    code, out, _ = _run(capsys, "--db", db, "sessions", "import", str(path))
    assert code == 1
    assert out.count("\nimported ") + out.startswith("imported ") == 2
    assert "error: log.jsonl:2: $.messages[0].content: refused" in out
    code, out, _ = _run(capsys, "--db", db, "sessions", "import", str(path))
    assert code == 1
    assert [ln.split("\t")[0].split()[0:2] for ln in out.splitlines() if "already" in ln] == [
        ["already", "imported"], ["already", "imported"],
    ]  # fmt: skip
    assert "log.jsonl:1" in out and "log.jsonl:3" in out
    code, out, _ = _run(capsys, "--db", db, "sessions", "list", "--source", "import")
    assert len(out.strip().splitlines()) == 2
