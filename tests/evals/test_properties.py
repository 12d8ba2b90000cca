"""Properties: any valid case survives its line; any set text comes back byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from registry_db import RegistryStore
from registry_db.defaults import seed_example_evals
from studio.evals import dump_case, parse_case, parse_set
from studio.evals.store import EvalStore

text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20).filter(
    lambda s: s.strip() != ""
)
scalar = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), text)
matcher = st.one_of(
    st.builds(lambda v: {"equals": v}, scalar),
    st.builds(lambda v: {"one_of": v}, st.lists(scalar, min_size=1, max_size=3)),
    st.builds(lambda v, w: {"number": v, "within": w}, st.integers(-99, 99), st.integers(0, 5)),
    st.just({"date": {"from": "today-7", "to": "today"}}),
    st.just({"regex": "^INV-\\d+$"}),
    st.just({"present": True}),
    st.just({"absent": True}),
)
call = st.fixed_dictionaries(
    {"tool": st.sampled_from(["a", "b", "c"])},
    optional={
        "args": st.dictionaries(st.from_regex(r"\A[a-z]{1,6}(\[[0-3]\])?\Z"), matcher, max_size=3)
    },
)
expect = st.one_of(
    st.just({"kind": "no_tool"}),
    st.just({"kind": "ask"}),
    st.builds(lambda c: {"kind": "tool", "calls": [c]}, call),
    st.builds(
        lambda cs, o: {"kind": "tools", "calls": cs, "order": o},
        st.lists(call, min_size=1, max_size=3),
        st.sampled_from(["set", "sequence"]),
    ),
)
case = st.fixed_dictionaries(
    {
        "id": text,
        "user": text,
        "context": st.just({"role": "employee", "values": {"today": "2026-11-30"}}),
        "expect": expect,
    },
    optional={
        "tags": st.lists(text, unique=True, max_size=3),
        "system": text,
        "turns": st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(["user", "assistant"]), "content": text}
            ),
            max_size=2,
        ),
        "must_not": st.just(["z"]),
        "note": text,
    },
)


@settings(max_examples=200, deadline=None)
@given(case)
def test_a_case_survives_its_line(data: dict) -> None:
    parsed = parse_case(data)
    line = dump_case(parsed)
    assert "\n" not in line
    assert parse_case(json.loads(line)) == parsed
    assert dump_case(parse_case(json.loads(line))) == line


@settings(max_examples=50, deadline=None)
@given(st.lists(case, max_size=4, unique_by=lambda d: d["id"]), st.sampled_from(["\n", "\r\n"]))
def test_a_set_is_stored_byte_for_byte(tmp_path_factory, cases: list[dict], newline: str) -> None:
    body = newline.join(
        json.dumps(c, ensure_ascii=bool(len(cases) % 2), indent=None) for c in cases
    )
    store = RegistryStore.open(tmp_path_factory.mktemp("db") / "s.sqlite3")
    store.create_registry("r")
    evals = EvalStore(store)
    evals.save_text("r", "s", body)
    assert evals.stored("r", "s").text == body
    assert evals.load("r", "s") == parse_set("s", body)
    store.close()


def test_a_broken_example_set_is_skipped(tmp_path: Path, caplog) -> None:
    folder = tmp_path / "examples"
    (folder / "evals" / "r").mkdir(parents=True)
    (folder / "evals" / "r" / "good.jsonl").write_text(
        '{"id":"a","user":"x","expect":{"kind":"ask"}}\n', "utf-8"
    )
    (folder / "evals" / "r" / "bad.jsonl").write_text('{"id":"a"}\n', "utf-8")
    store = RegistryStore.open(tmp_path / "s.sqlite3")
    store.create_registry("r")
    assert seed_example_evals(store, ["r", "absent"], folder) == ["r/good"]
    assert "example eval set r/bad.jsonl skipped" in caplog.text
    store.close()
