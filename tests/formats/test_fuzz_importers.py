"""Fuzzing every tool importer: hostile input ends in a FormatError, never in another exception.

Inputs are arbitrary JSON-ish values and mutations of valid exports of every
format (a wrong type at any position, integers over 4,300 digits, lone
surrogates, nesting far past the limit, line breaks in names). Bounded so the
whole suite runs in a few seconds.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.cli import main
from studio.contract import Registry
from studio.formats import FormatError, export_registry, import_path, import_text
from studio.formats.base import MAX_DEPTH, load_json
from tests.formats.conftest import _query_invoices, _search_policy

TEXT_FORMATS = ("auto", "studio", "openai", "openai-responses", "anthropic", "gemini", "mcp")
EXPORTS = ("studio", "openai", "openai-responses", "anthropic", "gemini", "mcp")
# FUZZ_EXAMPLES=5000 for a long local run; CI keeps the default small.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

HUGE = "__HUGE_INT__"
DEEP = "__DEEP__"
HOSTILE: list[Any] = [None, True, 0, -1, 1.5, 2**60, "", "a\nb", "\ud800", "x\udfffy", [], {},
                      [None], {"": None}, HUGE, DEEP, "Infinity"]  # fmt: skip

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
    | st.sampled_from(["\ud800", "a\nb", "type", "object", "function", HUGE, DEEP])
)
KEYS = ["tools", "type", "function", "name", "parameters", "input_schema", "inputSchema",
        "functionDeclarations", "properties", "format", "jsonrpc", "result", "description",
        "annotations", "items", "required", "\ud800", "a\nb"]  # fmt: skip
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=25,
)


def _registry() -> Registry:
    return Registry(name="travel", tools=(_search_policy(), _query_invoices()))


VALID = {fmt: json.loads(export_registry(_registry(), fmt).text or "") for fmt in EXPORTS}


def to_text(value: Any, depth: int = 2 * MAX_DEPTH) -> str:
    """JSON text of ``value`` with the markers made hostile (huge ints, deep nesting)."""
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


@st.composite
def mutated_exports(draw: st.DrawFn) -> tuple[str, Any]:
    fmt = draw(st.sampled_from(EXPORTS))
    value = VALID[fmt]
    for _ in range(draw(st.integers(1, 3))):
        positions = _positions(value)
        path = positions[draw(st.integers(0, len(positions) - 1))]
        new = draw(st.sampled_from(HOSTILE) | json_values)
        value = mutate(value, path, new)
    return fmt, value


def _import(text: str, fmt: str) -> None:
    try:
        import_text(text, fmt)
    except FormatError as exc:
        message = str(exc)
        assert "\n" not in message and message
        message.encode("utf-8")  # printable on any UTF-8 stream: no lone surrogate


@SETTINGS
@given(value=json_values, fmt=st.sampled_from(TEXT_FORMATS))
def test_arbitrary_values_raise_only_format_errors(value: Any, fmt: str) -> None:
    _import(to_text(value), fmt)


@SETTINGS
@given(case=mutated_exports(), fmt=st.sampled_from(["auto", "same"]))
def test_mutated_exports_raise_only_format_errors(case: tuple[str, Any], fmt: str) -> None:
    source_fmt, value = case
    _import(to_text(value), source_fmt if fmt == "same" else fmt)


@settings(
    max_examples=max(EXAMPLES // 3, 10), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_mutated_registry_folders_raise_only_format_errors(data: st.DataObject) -> None:
    files = export_registry(_registry(), "dir").files or {}
    rel = data.draw(st.sampled_from(sorted(files)))
    doc = json.loads(files[rel])
    positions = _positions(doc)
    path = positions[data.draw(st.integers(0, len(positions) - 1))]
    new = data.draw(st.sampled_from(HOSTILE) | json_values)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, content in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            text = to_text(mutate(doc, path, new)) if name == rel else content
            (root / name).write_text(text, "utf-8")
        try:
            import_path(root)
        except FormatError as exc:
            assert "\n" not in str(exc)
            str(exc).encode("utf-8")


# ---------------------------------------------------------------------- named cases


def _deep_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    node = schema
    for _ in range(levels):
        child: dict[str, Any] = {"type": "object", "properties": {}}
        node["properties"]["a"] = child
        node = child
    return schema


def _openai(**function: Any) -> str:
    return json.dumps({"tools": [{"type": "function", "function": {"name": "get_a", **function}}]})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_openai(parameters={"type": "object", "properties": {"n": {"maximum": HUGE}}}),
         "line 1 column 128: an integer of 5000 digits is too long"),
        (_openai(description="\ud800"),
         "tools[0].function.description: a string holds a lone surrogate"),
        (json.dumps({"tools": [{"type": "function", "function": {"name": "a\ud800"}}]}),
         "tools[0].function.name: a string holds a lone surrogate"),
        (_openai(parameters=_deep_schema(250)),
         "objects and arrays are nested more than 100 levels deep"),
        ("[" * 100_000 + "]" * 100_000, "line 1 column 101: objects and arrays are nested"),
        (json.dumps({"tools": {"get_a": {}}}), "tools: must be an array of tools, not an object"),
        (json.dumps({"tools": [{"type": "function", "function": {"name": "get\na"}}]}),
         "tools[0].function.name: 'get\\na' holds a line break"),
    ],
)  # fmt: skip
def test_hostile_documents_are_one_located_line(text: str, expected: str) -> None:
    with pytest.raises(FormatError) as info:
        import_text(to_text(json.loads(text)) if len(text) < 100_000 else text)
    assert expected in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_every_format_refuses_a_schema_nested_250_deep(fmt: str) -> None:
    doc = VALID["studio" if fmt == "auto" else fmt]
    deep = json.dumps(_deep_schema(250))
    text = json.dumps(doc).replace('"properties": {', f'"properties": {{"deep": {deep}, ', 1)
    with pytest.raises(FormatError, match="nested more than 100 levels deep"):
        import_text(text, fmt)


def test_the_loader_locates_what_it_refuses() -> None:
    with pytest.raises(FormatError) as info:
        load_json('{\n  "a": [1,\n    ' + "1" * 4301 + "]}", "f.json")
    assert (info.value.line, info.value.column) == (3, 5)
    with pytest.raises(FormatError) as info:
        load_json('{"a": {"b\\ud800": 1}}', "f.json")
    assert info.value.path == 'a["b\\ud800"]' and str(info.value).startswith("f.json: a[")


def test_a_registry_name_with_a_line_break_is_refused() -> None:
    doc = {**VALID["studio"], "name": "travel\nevil"}
    with pytest.raises(FormatError, match=r"name: 'travel\\nevil' holds a line break"):
        import_text(json.dumps(doc))
    with pytest.raises(FormatError, match="the registry name given"):
        import_text(json.dumps(VALID["openai"]), name="a\nb")


# ---------------------------------------------------------------------- the CLI


HOSTILE_FILES = {
    "huge.json": to_text({"tools": [{"name": "get_a", "input_schema": {"maximum": HUGE}}]}),
    "surrogate.json": json.dumps({"tools": [{"name": "get_a", "description": "\ud800"}]}),
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "nonlist.json": json.dumps({"tools": 7}),
    "newline.json": json.dumps({"tools": [{"name": "get\nx", "input_schema": {}}]}),
    "bad\nname.json": "{",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_cli_import_of_a_hostile_file_is_one_line_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE_FILES[name], "utf-8")
    code = main(["--db", str(tmp_path / "s.db"), "import", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert err.count("\n") == 1 and err.startswith("studio: ") and "Traceback" not in err


def test_cli_import_of_a_random_mutation_never_crashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(7)
    for i in range(6):
        fmt = rng.choice(EXPORTS)
        positions = _positions(VALID[fmt])
        value = mutate(VALID[fmt], rng.choice(positions), rng.choice(HOSTILE))
        path = tmp_path / f"m{i}.json"
        path.write_text(to_text(value), "utf-8")
        code = main(["--db", str(tmp_path / "s.db"), "import", str(path), "--registry", f"m{i}"])
        _, err = capsys.readouterr()
        assert code in (0, 2) and "Traceback" not in err
        assert code == 0 or err.count("\n") == 1
