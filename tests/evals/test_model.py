"""Cases and matchers: validated with the JSON path of each problem; scored with reasons."""

from __future__ import annotations

from typing import Any

import pytest

from studio.evals import (
    Call,
    CaseError,
    EvalSetError,
    case_to_json,
    dump_case,
    evaluate,
    match_case,
    parse_case,
    parse_set,
)
from studio.evals.matchers import Matcher
from studio.evals.paths import PathError, lookup, parse_path

CTX = {"role": "employee", "values": {"employee_id": "E-1001", "today": "2026-11-30"}}


def case(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "c1",
        "user": "我上周打车的发票能报吗",
        "context": CTX,
        "expect": {
            "kind": "tool",
            "calls": [
                {
                    "tool": "query_invoices",
                    "args": {
                        "category": {"equals": "taxi"},
                        "start_date": {"date": {"from": "today-8", "to": "today-6"}},
                        "employee_id": {"absent": True},
                    },
                }
            ],
        },
        "must_not": ["create_reimbursement_ticket"],
    }
    data.update(overrides)
    return data


def problems(data: Any) -> list[str]:
    with pytest.raises(CaseError) as info:
        parse_case(data)
    return [str(p) for p in info.value.problems]


def test_a_case_round_trips_through_its_line() -> None:
    parsed = parse_case(case())
    line = dump_case(parsed)
    assert parse_case(__import__("json").loads(line)) == parsed
    assert dump_case(parse_case(case_to_json(parsed))) == line
    assert parsed.context.today == "2026-11-30"
    assert parsed.expect.tools == ("query_invoices",)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"id": ""}, "id: must not be empty"),
        ({"user": 3}, "user: must be a string"),
        ({"expect": {"kind": "maybe"}}, "expect.kind: must be one of tool, tools, no_tool, ask"),
        ({"expect": {"kind": "no_tool", "calls": []}}, "expect.calls: an no_tool expectation"),
        (
            {"expect": {"kind": "tools", "calls": [{"tool": "a"}], "order": "random"}},
            "expect.order",
        ),
        ({"turns": [{"role": "system", "content": "x"}]}, "turns[0].role: must be one of"),
        ({"must_not": ["query_invoices"]}, "must_not[0]: query_invoices is also expected"),
        ({"tags": ["zh", "zh"]}, "tags: lists a value twice"),
        ({"colour": "red"}, "colour: unknown key"),
        ({"context": {"values": {"today": "yesterday"}}}, "context.values.today: must be a date"),
    ],
)
def test_bad_cases_name_the_path(change: dict[str, Any], expected: str) -> None:
    found = problems(case(**change))
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            {"amount": {"number": "118.5"}},
            "expect.calls[0].args.amount.number: must be a finite number",
        ),
        (
            {"amount": {"number": 1, "within": -1}},
            "expect.calls[0].args.amount.within: must be a number ≥ 0",
        ),
        (
            {"x": {"regex": "(a)\\1"}},
            "expect.calls[0].args.x.regex: the regex uses a backreference",
        ),
        (
            {"x": {"date": "2026-02-30"}},
            "expect.calls[0].args.x.date: '2026-02-30' is not a calendar date",
        ),
        ({"x": {"date": {"from": "today", "to": "today-1"}}}, "args.x.date: from is after to"),
        ({"x": {"schema": {"type": "nope"}}}, "args.x.schema: not a valid JSON Schema"),
        ({"x": {"present": False}}, "args.x.present: must be true"),
        ({"x": {"equals": 1, "one_of": [1]}}, "args.x: needs exactly one of"),
        ({"x[": {"present": True}}, 'args["x["]: bad argument path'),
        ({"x": {"one_of": []}}, "args.x.one_of: must be a non-empty array"),
    ],
)
def test_bad_matchers_name_the_path(args: dict[str, Any], expected: str) -> None:
    data = case(expect={"kind": "tool", "calls": [{"tool": "t", "args": args}]})
    found = problems(data)
    assert any(expected in p for p in found), found


def test_a_relative_date_needs_today() -> None:
    data = case(
        context={},
        expect={"kind": "tool", "calls": [{"tool": "t", "args": {"d": {"date": "today"}}}]},
    )
    assert any("needs context.values.today" in p for p in problems(data))


def test_paths() -> None:
    assert parse_path("$.a.b[0]") == ("a", "b", 0)
    assert parse_path("invoice_ids[1]") == ("invoice_ids", 1)
    assert parse_path('["客户 编号"].x') == ("客户 编号", "x")
    assert lookup({"a": [{"b": 2}]}, parse_path("a[0].b")) == (True, 2)
    assert lookup({"a": []}, parse_path("a[0]")) == (False, None)
    for bad in ("", "$", "a..b", "a[x]", "a b"):
        with pytest.raises(PathError):
            parse_path(bad)


@pytest.mark.parametrize(
    ("matcher", "value", "passed"),
    [
        (Matcher("v", "equals", 1), 1.0, True),
        (Matcher("v", "equals", 1), True, False),
        (Matcher("v", "equals", {"a": [1]}), {"a": [1]}, True),
        (Matcher("v", "one_of", ["in_review", "submitted"]), "submitted", True),
        (Matcher("v", "regex", "^R-\\d{5}$"), "R-55821", True),
        (Matcher("v", "regex", "^R-\\d{5}$"), "r55821", False),
        (Matcher("v", "number", 118.5, 0.01), 118.49, True),
        (Matcher("v", "number", 118.5), "118.5", False),
        (Matcher("v", "number", 118.5), 118.5, True),
        (Matcher("v", "date", "today-7"), "2026-11-23", True),
        (Matcher("v", "date", {"from": "today-8", "to": "today-6"}), "2026-11-25", False),
        (Matcher("v", "date", "2026-11-23"), "2026/11/23", False),
        (Matcher("v", "schema", {"type": "array", "minItems": 2}), ["a"], False),
        (Matcher("v", "present", True), None, True),
    ],
)
def test_matchers_evaluate(matcher: Matcher, value: Any, passed: bool) -> None:
    result = evaluate(matcher, {"v": value}, "2026-11-30")
    assert result.passed is passed, result.reason
    assert result.reason


def test_missing_and_absent() -> None:
    assert evaluate(Matcher("v", "equals", 1), {}).reason == "missing"
    assert evaluate(Matcher("v", "absent", True), {}).passed
    failed = evaluate(Matcher("employee_id", "absent", True), {"employee_id": "E-2002"})
    assert not failed.passed and "E-2002" in failed.reason


def test_match_case_selection_arguments_and_must_not() -> None:
    parsed = parse_case(case())
    good = Call(
        "query_invoices", {"category": "taxi", "start_date": "2026-11-23", "end_date": "2026-11-29"}
    )
    assert match_case(parsed, [good]).passed

    wrong_args = Call("query_invoices", {"category": "hotel", "start_date": "2026-11-23"})
    result = match_case(parsed, [wrong_args])
    assert result.selection_passed and not result.arguments_passed
    assert result.failures() == ['query_invoices.category (equals): "hotel", expected "taxi"']

    # The forbidden tool fails the case even with the expected call made.
    forbidden = match_case(parsed, [good, Call("create_reimbursement_ticket", {})])
    assert not forbidden.passed and not forbidden.selection_passed
    assert "must_not: called 1 time(s)" in forbidden.failures()

    other = match_case(parsed, [Call("query_tickets", {})])
    assert other.failures() == ["selection: not called (called: query_tickets)"]


def test_match_case_picks_the_best_of_several_calls() -> None:
    parsed = parse_case(case())
    calls = [
        Call("query_invoices", {"category": "hotel"}),
        Call("query_invoices", {"category": "taxi", "start_date": "2026-11-22"}),
    ]
    assert match_case(parsed, calls).passed


def test_no_tool_ask_and_sequence() -> None:
    no_tool = parse_case(case(expect={"kind": "no_tool"}, must_not=[]))
    assert match_case(no_tool, []).passed
    assert not match_case(no_tool, [Call("search_policy", {"query": "x"})]).passed
    ask = parse_case(case(expect={"kind": "ask"}))
    assert match_case(ask, [], reply="哪几张发票？").passed
    assert not match_case(ask, [], reply="好的。").passed
    seq = parse_case(
        case(
            expect={"kind": "tools", "order": "sequence", "calls": [{"tool": "a"}, {"tool": "b"}]},
            must_not=[],
        )
    )
    assert match_case(seq, [Call("a"), Call("b")]).passed
    assert not match_case(seq, [Call("b"), Call("a")]).passed
    as_set = parse_case(
        case(
            expect={"kind": "tools", "order": "set", "calls": [{"tool": "a"}, {"tool": "b"}]},
            must_not=[],
        )
    )
    assert match_case(as_set, [Call("b"), Call("a")]).passed
    assert not match_case(as_set, [Call("a"), Call("a")]).passed


def test_a_set_names_the_line_and_path_of_each_problem() -> None:
    good = dump_case(parse_case(case()))
    bad = dump_case(parse_case(case(id="c2"))).replace('"taxi"', '"taxi"}, "x": {"number": "1"')
    text = f"{good}\n\n{{not json\n{bad}\n{good}\n"
    with pytest.raises(EvalSetError) as info:
        parse_set("core", text)
    shown = [str(p) for p in info.value.problems]
    assert shown[0].startswith("line 3: not JSON")
    assert shown[1] == "line 4: expect.calls[0].args.x.number: must be a finite number"
    assert shown[2] == "line 5: id: 'c1' is already used on line 1"
    assert "eval set core: line 3" in str(info.value)


def test_hostile_json_in_a_set_is_a_located_problem_not_a_crash() -> None:
    huge = "9" * 5000
    text = (
        f'{{"id": "c1", "user": "hi", "n": {huge}}}\n'
        '{"id": "c2", "user": "\\ud800"}\n' + "[" * 200 + "]" * 200 + "\n"
    )
    with pytest.raises(EvalSetError) as info:
        parse_set("core", text)
    shown = [str(p) for p in info.value.problems]
    assert shown[0].startswith("line 1: an integer of 5000 digits is too long")
    assert shown[1].startswith("line 2: user: a string holds a lone surrogate")
    assert shown[2].startswith("line 3: ") and "nested more than" in shown[2]


def test_a_set_keeps_its_text_byte_for_byte() -> None:
    line = '{"user":"hi",  "id":"a", "expect":{"kind":"no_tool"}, "tags":["en"]}'
    other = line.replace('"a"', '"b"')
    text = f"{line}\r\n\n{other}"
    parsed = parse_set("odd.set-1", text)
    assert parsed.text == text and [c.id for c in parsed.cases] == ["a", "b"]


@pytest.mark.parametrize("name", ["", ".hidden", "a/b", "core.jsonl", "x" * 65])
def test_bad_set_names(name: str) -> None:
    with pytest.raises(EvalSetError):
        parse_set(name, "")


def test_a_set_knows_the_line_of_each_case() -> None:
    line = dump_case(parse_case(case()))
    parsed = parse_set("s", f"\n\n{line}\n")
    assert parsed.lines == (3,) and parsed.line_of("c1") == 3 and parsed.line_of("x") is None
