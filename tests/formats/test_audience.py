"""Permission-scoped tool sets on the example registry, in each provider's request shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openai.types.chat import ChatCompletionToolChoiceOptionParam
from openai.types.responses import ToolChoiceAllowedParam
from pydantic import TypeAdapter

from studio.contract import parse_registry
from studio.contract.audience import Audience, audiences, for_audience, permits
from studio.contract.token_count import count_tokens
from studio.formats import FormatError
from studio.formats.audience import audience_request

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "travel-reimbursement.json"
FINANCE = Audience("finance", "reimbursement")
EMPLOYEE = Audience("employee", "reimbursement")


@pytest.fixture(scope="module")
def registry():
    return parse_registry(json.loads(EXAMPLE.read_text(encoding="utf-8")))


def test_an_audience_gets_only_what_it_may_call(registry):
    assert [t.name for t in for_audience(registry, EMPLOYEE).tools] == [
        t.name for t in registry.tools
    ]
    assert [t.name for t in for_audience(registry, FINANCE).tools] == [
        "search_policy",
        "query_tickets",
    ]
    assert for_audience(registry, Audience()).tools == ()
    assert audiences(registry) == [FINANCE, EMPLOYEE][::-1]


def test_wildcards_and_open_tools():
    reg = parse_registry(
        {
            "name": "r",
            "tools": [
                {"name": "open_tool"},
                {"name": "any_scenario", "permissions": [{"role": "agent", "scenario": "*"}]},
                {"name": "any_role", "permissions": [{"role": "*", "scenario": "support"}]},
            ],
        }
    )
    tools = {t.name: t for t in reg.tools}
    assert permits(tools["open_tool"], Audience())
    assert permits(tools["any_scenario"], Audience("agent", "billing"))
    assert not permits(tools["any_scenario"], Audience("viewer", "billing"))
    assert permits(tools["any_role"], Audience("viewer", "support"))


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "gemini"])
def test_a_narrow_audience_costs_fewer_tokens(registry, fmt: str):
    full = audience_request(registry, fmt, EMPLOYEE)
    narrow = audience_request(registry, fmt, FINANCE)
    assert (full.sent, narrow.sent) == (4, 2)
    full_tokens = count_tokens(json.dumps(full.fields, ensure_ascii=False), None)
    narrow_tokens = count_tokens(json.dumps(narrow.fields, ensure_ascii=False), None)
    assert narrow_tokens < 0.75 * full_tokens


def test_chat_choice_sends_every_tool_and_restricts_the_choice(registry):
    request = audience_request(registry, "openai", FINANCE, mode="choice")
    assert request.sent == 4 and len(request.fields["tools"]) == 4
    choice = request.fields["tool_choice"]
    TypeAdapter(ChatCompletionToolChoiceOptionParam).validate_python(choice)
    names = [t["function"]["name"] for t in choice["allowed_tools"]["tools"]]
    assert names == ["search_policy", "query_tickets"]


def test_responses_choice_is_typed_as_the_sdk_types_it(registry):
    choice = audience_request(registry, "openai-responses", FINANCE, "choice").fields["tool_choice"]
    TypeAdapter(ToolChoiceAllowedParam).validate_python(choice)
    assert [t["name"] for t in choice["tools"]] == ["search_policy", "query_tickets"]


def test_gemini_choice_uses_allowed_function_names_in_a_constraining_mode(registry):
    fields = audience_request(registry, "gemini", FINANCE, "choice").fields
    config = fields["toolConfig"]["functionCallingConfig"]
    assert config == {
        "mode": "VALIDATED",
        "allowedFunctionNames": ["search_policy", "query_tickets"],
    }
    assert len(fields["tools"][0]["functionDeclarations"]) == 4


def test_anthropic_has_no_choice_restriction_so_it_is_filtered_with_a_note(registry):
    request = audience_request(registry, "anthropic", FINANCE, "choice")
    assert request.sent == 2 and "tool_choice" not in request.fields
    assert [n.kind for n in request.notes] == ["lost"]


def test_unknown_mode_and_format_are_refused(registry):
    with pytest.raises(FormatError, match="unknown audience mode 'all'"):
        audience_request(registry, "openai", FINANCE, "all")
    with pytest.raises(FormatError, match="not a provider request format"):
        audience_request(registry, "mcp", FINANCE)
