"""User regexes cannot hang a run: mock matchers on RE2, schema patterns bounded (ReDoS)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from studio.contract import ToolContract
from studio.contract.patterns import BoundedValidator, check_linear, schema_search
from studio.runtime import ArgumentPipeline, ExecutionRequest, MockSpecError, parse_mocks
from studio.runtime.executors import MockExecutor, execute_with_policy
from studio.runtime.mock_checks import check_tool_spec, choose_response
from tests.runtime.helpers import CONTEXT, call, travel_registry

EVIL = "^(a+)+$"
# Python's re needs ~2^40 steps to reject this; RE2 needs ~41.
HOSTILE = "a" * 40 + "!"


def fast(started: float) -> bool:
    return time.perf_counter() - started < 1.0


@pytest.mark.timeout(30)
def test_a_catastrophic_mock_regex_answers_at_once_and_the_tool_timeout_holds():
    tool = travel_registry().tool("search_policy")
    tool = replace(tool, execution=replace(tool.execution, timeout_seconds=2.0))
    spec = {"responses": [{"when": [{"path": "query", "regex": EVIL}], "body": "evil"}],
            "default": {"body": "default"}}  # fmt: skip
    executor = MockExecutor(parse_mocks({"tools": {tool.name: spec}}).tools)
    started = time.perf_counter()
    outcome = asyncio.run(
        execute_with_policy(executor, ExecutionRequest(tool, {"query": HOSTILE}, call_id="c1"))
    )
    assert fast(started)
    assert outcome.error is None and outcome.body == "default"
    # …and still matches what it should.
    assert choose_response(spec, {"query": "aaaa"}) == ("responses[0]", "evil")
    assert choose_response(spec, {"query": HOSTILE}) == ("default", "default")


@pytest.mark.parametrize(
    ("regex", "reason"),
    [
        (r"^(\w+)-\1$", "backreference"),
        (r"^(?=.*\d)\w+$", "lookahead"),
        (r"(?<!INV-)\d+", "lookbehind"),
        ("(taxi", "does not compile"),
    ],
)
def test_a_regex_re2_cannot_run_is_refused_when_the_mocks_load(regex, reason):
    document = {"tools": {"query_invoices": {"responses": [
        {"body": 1}, {"when": [{"path": "category", "equals": "taxi"},
                               {"path": "category", "regex": regex}]}]}}}  # fmt: skip
    with pytest.raises(MockSpecError) as caught:
        parse_mocks(document)
    message = str(caught.value)
    assert message.startswith("tools.query_invoices.responses[1].when[1].regex: ")
    assert reason in message


@pytest.mark.parametrize(
    ("regex", "reason"),
    [(r"^(\w+)-\1$", "backreference"), (r"(?=x)", "lookahead"), (r"\Z", r"write \z")],
)
def test_the_editor_check_refuses_it_with_its_place(regex, reason):
    spec = {"responses": [{"when": [{"path": "category", "regex": regex}], "body": {}}]}
    problems = check_tool_spec(spec, travel_registry().tool("query_invoices"))
    errors = [f"{p.where}: {p.message}" for p in problems if p.severity == "error"]
    assert len(errors) == 1 and errors[0].startswith("responses[0].when[0]: the regex uses")
    assert reason in errors[0]


def test_the_example_mock_regexes_still_match_as_before():
    assert check_linear("(?i)hotel|酒店") == ""
    spec = {"responses": [{"when": [{"path": "query", "regex": "(?i)hotel|酒店"}], "body": 1}]}
    assert choose_response(spec, {"query": "HOTEL limit"})[0] == "responses[0]"
    assert choose_response(spec, {"query": "酒店标准"})[0] == "responses[0]"
    assert choose_response(spec, {"query": "taxi"})[0] == ""


def _tool(parameters: dict) -> ToolContract:
    return ToolContract(name="lookup_code", summary="Look up a code.", parameters=parameters)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("parameters", "arguments"),
    [
        ({"type": "object", "properties": {"code": {"type": "string", "pattern": EVIL}}},
         {"code": HOSTILE}),
        # ECMA-262 lookahead: not RE2, so the capped fancy-regex engine runs it.
        ({"type": "object", "properties": {"code": {"type": "string",
                                                    "pattern": "^(?=a)(a|aa)+$"}}},
         {"code": HOSTILE}),
        ({"type": "object", "patternProperties": {EVIL: {"type": "integer"}},
          "additionalProperties": False}, {HOSTILE: 1}),
        ({"type": "object", "patternProperties": {EVIL: {"type": "integer"}},
          "unevaluatedProperties": False}, {HOSTILE: 1}),
    ],
)  # fmt: skip
def test_a_hostile_schema_pattern_cannot_hang_validation(parameters, arguments):
    registry = replace(travel_registry(), tools=(_tool(parameters),))
    pipeline = ArgumentPipeline(registry, CONTEXT, "s1")
    started = time.perf_counter()
    prepared = pipeline.prepare(call("c1", "lookup_code", arguments))
    assert fast(started)
    assert prepared.error is not None and prepared.error.code == "INVALID_ARGUMENTS"


def test_schema_patterns_keep_their_meaning():
    schema = {
        "type": "object",
        "properties": {"id": {"type": "string", "pattern": r"^R-\d{5}$"},
                       "pw": {"type": "string", "pattern": r"^(?=.*\d)[a-z\d]+$"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": False,
    }  # fmt: skip
    validator = BoundedValidator(schema)
    assert validator.is_valid({"id": "R-55821", "pw": "abc1", "x-note": "ok"})
    messages = sorted(e.message for e in validator.iter_errors(
        {"id": "R-5582", "pw": "abc", "x-note": 1, "other": True}))  # fmt: skip
    assert messages == [
        "'R-5582' does not match '^R-\\\\d{5}$'",
        "'abc' does not match '^(?=.*\\\\d)[a-z\\\\d]+$'",
        "'other' does not match any of the regexes: '^x-'",
        "1 is not of type 'string'",
    ]
    assert schema_search("^R-", "R-1") and not schema_search("^R-", "xR-1")
    assert not schema_search("(unclosed", "anything")  # uncompilable: matches nothing
