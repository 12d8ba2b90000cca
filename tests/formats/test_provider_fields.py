"""The 2026 provider tool fields: modelled, exported as each SDK types them, imported back.

The official SDKs' request types are the yardstick: every exported entry is
validated with pydantic against ``anthropic.types.ToolParam`` and
``openai.types.responses`` ``FunctionToolParam`` / ``NamespaceToolParam`` and
may hold no key those types do not define.
"""

from __future__ import annotations

import json
from typing import Any, get_type_hints

import pytest
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam, NamespaceToolParam
from openai.types.responses.namespace_tool_param import ToolFunction
from pydantic import TypeAdapter

from studio.contract import ContractError, parse_registry, parse_tool
from studio.contract.document import provider_settings, registry_to_dict, tool_hash, tool_to_dict
from studio.formats import export_registry, import_text

SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_id": {"type": "string", "description": "Invoice id, e.g. INV-2031."},
        "limit": {"type": "integer", "minimum": 1},
        "employee_id": {"type": "string", "x-injected": "session.employee_id"},
    },
    "required": ["invoice_id"],
}


def _tool(name: str, **provider: Any) -> dict[str, Any]:
    return {
        "name": name,
        "summary": f"Looks up {name}.",
        "parameters": SCHEMA,
        "examples": [
            {
                "description": "one invoice",
                "arguments": {"invoice_id": "INV-1", "employee_id": "E7"},
            },
            {"description": "bad", "arguments": {"invoice_id": 5}},
        ],
        **({"provider": provider} if provider else {}),
    }


def _registry(*tools: dict[str, Any], provider: dict[str, Any] | None = None) -> Any:
    settings = {"provider": provider} if provider else {}
    return parse_registry({"name": "r", "settings": settings, "tools": list(tools)})


def _keys(typed: Any) -> set[str]:
    return {k.rstrip("_") for k in get_type_hints(typed)} | {"async"}


def test_defaults_leave_documents_and_hashes_as_they_were():
    tool = parse_tool(_tool("get_invoice"))
    assert "provider" not in tool_to_dict(tool)
    assert tool_hash(tool) == tool_hash(parse_tool(_tool("get_invoice", strict=None)))


def test_options_round_trip_through_the_document():
    options = {
        "strict": True,
        "defer_loading": True,
        "input_examples": True,
        "allowed_callers": ["direct", "code_execution_20260120"],
        "namespace": "billing",
        "eager_input_streaming": False,
    }
    tool = parse_tool(_tool("get_invoice", **options))
    assert tool_to_dict(tool)["provider"] == options


@pytest.mark.parametrize(
    ("provider", "where"),
    [
        ({"strict": "yes"}, "provider.strict"),
        ({"allowed_callers": ["robot"]}, "provider.allowed_callers[0]"),
        ({"namespace": "has space"}, "provider.namespace"),
        ({"deferred": True}, "provider.deferred"),
    ],
)
def test_bad_options_are_located(provider: dict[str, Any], where: str):
    with pytest.raises(ContractError) as caught:
        parse_tool(_tool("get_invoice", **provider))
    assert [p.path for p in caught.value.problems] == [where]


def test_bad_registry_provider_settings_are_located():
    with pytest.raises(ContractError) as caught:
        _registry(_tool("a"), provider={"gemini": {"mode": "MAYBE"}})
    assert "settings.provider.gemini.mode" in str(caught.value)


def test_anthropic_export_is_what_the_sdk_types_and_imports_back():
    registry = _registry(
        _tool(
            "get_invoice",
            strict=True,
            defer_loading=True,
            input_examples=True,
            allowed_callers=["direct", "programmatic"],
            eager_input_streaming=True,
        ),
        _tool("list_invoices"),
        provider={"anthropic": {"cache_control": "tools"}},
    )
    result = export_registry(registry, "anthropic")
    entries = json.loads(result.text)
    adapter = TypeAdapter(ToolParam)
    for entry in entries:
        adapter.validate_python(entry)
        assert set(entry) <= _keys(ToolParam)
    first = entries[0]
    assert first["strict"] is True and first["defer_loading"] is True
    assert first["allowed_callers"] == ["direct", "code_execution_20260521"]
    assert first["eager_input_streaming"] is True
    # The injected field is not the model's to send; the invalid example is not sent.
    assert first["input_examples"] == [{"invoice_id": "INV-1"}]
    assert any("examples[1]" in n.path and "not sent" in n.message for n in result.notes)
    assert "cache_control" not in first
    assert entries[-1]["cache_control"] == {"type": "ephemeral"}

    back = import_text(result.text, "anthropic").registry
    options = back.tools[0].provider
    assert (options.strict, options.defer_loading, options.input_examples) == (True, True, True)
    assert options.allowed_callers == ("direct", "code_execution_20260521")
    assert provider_settings(back.settings).anthropic_cache == "tools"
    again = json.loads(export_registry(back, "anthropic").text)
    assert again[0]["input_examples"] == first["input_examples"]
    assert again[-1]["cache_control"] == {"type": "ephemeral"}


def test_responses_export_groups_namespaces_and_round_trips():
    registry = _registry(
        _tool("get_invoice", strict=True, namespace="billing", defer_loading=True),
        _tool("list_invoices", namespace="billing", allowed_callers=["programmatic"]),
        _tool("get_weather"),
        provider={"openai": {"namespaces": {"billing": "Invoices and payments."}}},
    )
    text = export_registry(registry, "openai-responses").text
    entries = json.loads(text)
    assert [e["type"] for e in entries] == ["namespace", "function"]
    space = entries[0]
    TypeAdapter(NamespaceToolParam).validate_python(space)
    assert space["name"] == "billing" and space["description"] == "Invoices and payments."
    strict_fn = space["tools"][0]
    # Strict mode: every property required, the optional one nullable, no extra keys.
    params = strict_fn["parameters"]
    assert strict_fn["strict"] is True and params["additionalProperties"] is False
    assert params["required"] == ["invoice_id", "limit"]
    assert params["properties"]["limit"]["type"] == ["integer", "null"]
    assert space["tools"][1]["allowed_callers"] == ["programmatic"]
    # FunctionToolParam types ``strict`` as required; the API reads an absent one as "strict
    # when the schema allows it" (the namespace function type says so): the same keys otherwise.
    TypeAdapter(ToolFunction).validate_python(entries[1])
    TypeAdapter(FunctionToolParam).validate_python({**entries[1], "strict": None})
    assert set(entries[1]) <= _keys(FunctionToolParam)

    back = import_text(text, "openai-responses").registry
    assert [t.name for t in back.tools] == ["get_invoice", "list_invoices", "get_weather"]
    assert back.tools[0].provider.namespace == "billing"
    assert back.tools[0].provider.strict is True and back.tools[0].provider.defer_loading
    # The strict form is undone: the contract keeps ``limit`` optional and not null.
    assert back.tools[0].parameters["required"] == ["invoice_id"]
    assert back.tools[0].parameters["properties"]["limit"]["type"] == "integer"
    assert provider_settings(back.settings).namespaces == {"billing": "Invoices and payments."}
    assert json.loads(export_registry(back, "openai-responses").text) == entries


def test_responses_keeps_the_output_schema():
    tool = {**_tool("get_invoice"), "output_schema": {"type": "object", "properties": {}}}
    result = export_registry(_registry(tool), "openai-responses")
    assert json.loads(result.text)[0]["output_schema"] == {"type": "object", "properties": {}}
    assert not any("output schema" in n.message for n in result.notes)
    chat = export_registry(_registry(tool), "openai")
    assert any("output schema" in n.message for n in chat.notes)


def test_chat_sends_strict_and_says_what_it_drops():
    registry = _registry(_tool("get_invoice", strict=True, defer_loading=True, namespace="b"))
    result = export_registry(registry, "openai")
    entry = json.loads(result.text)[0]
    TypeAdapter(ChatCompletionFunctionToolParam).validate_python(entry)
    assert entry["function"]["strict"] is True
    assert entry["function"]["parameters"]["additionalProperties"] is False
    dropped = [n.message for n in result.notes if "cannot express" in n.message]
    assert dropped == ["OpenAI tools cannot express: deferred loading, namespace"]


def test_gemini_calling_mode_round_trips_and_tool_options_are_dropped_with_a_note():
    registry = _registry(
        _tool("get_invoice", strict=True), provider={"gemini": {"mode": "VALIDATED"}}
    )
    result = export_registry(registry, "gemini")
    request = json.loads(result.text)
    assert request["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED"}}
    assert request["tools"][0]["functionDeclarations"][0]["name"] == "get_invoice"
    assert any("cannot express: strict mode" in n.message for n in result.notes)
    back = import_text(result.text, "gemini").registry
    assert provider_settings(back.settings).gemini.mode == "VALIDATED"
    plain = export_registry(_registry(_tool("get_invoice")), "gemini")
    assert "functionDeclarations" in json.loads(plain.text)


def test_registry_document_keeps_provider_settings():
    registry = _registry(_tool("a"), provider={"anthropic": {"cache_control": "tools"}})
    assert registry_to_dict(registry)["settings"]["provider"] == {
        "anthropic": {"cache_control": "tools"}
    }
