"""Mapping a listing to a registry: provenance, notes on what could not be mapped."""

from __future__ import annotations

from studio.mcp.client import ERA_STATELESS, ServerListing
from studio.mcp.mapping import SOURCE_KEY, registry_from_listing


def _listing(tools: list[dict], version: str = "2026-07-28") -> ServerListing:
    return ServerListing(
        tools=tuple(tools),
        server_name="Tickets Server",
        server_version="0.9",
        protocol_version=version,
        era=ERA_STATELESS,
        pages=1,
        target={"transport": "streamable-http", "url": "https://tickets.example/mcp"},
    )


def test_unknown_fields_and_an_invalid_mcp_header_are_reported():
    tool = {
        "name": "query_tickets",
        "description": "Where is my claim?",
        "inputSchema": {
            "type": "object",
            "properties": {"filters": {"type": "object", "x-mcp-header": "Filters"}},
        },
        "vendorExtension": {"x": 1},
    }
    result = registry_from_listing(_listing([tool]))
    notes = [str(n) for n in result.notes]
    assert any("keys not kept: vendorExtension" in n for n in notes), notes
    assert any("invalid x-mcp-header" in n and "drops this tool" in n for n in notes), notes
    registry = result.registry
    assert registry.name == "Tickets_Server"
    assert registry.title == "Tickets Server 0.9"
    assert registry.settings.extra[SOURCE_KEY]["url"] == "https://tickets.example/mcp"
    assert result.format == "mcp-pull"


def test_a_tool_the_contract_cannot_hold_is_a_located_problem():
    import pytest

    from studio.formats import FormatError

    bad = {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}}
    with pytest.raises(FormatError) as err:
        registry_from_listing(_listing([bad]))
    assert "tools[0].outputSchema.type" in str(err.value)
