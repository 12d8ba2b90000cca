"""MCP tool definitions ↔ tool contracts.

The field-by-field rules live in :mod:`studio.formats.mcp` (one place for the file
import, the pull and the serve side); this module turns a :class:`ServerListing`
into a registry, keeps where it came from, and lists what could not be mapped.

Where an import came from is kept in the registry settings under ``mcp_source``:
server name and version, negotiated protocol version and era, and the command or URL
(environment values and header values only as ``{env:NAME}`` references).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract
from studio.formats import FormatError
from studio.formats.base import ImportResult, Note
from studio.formats.mcp import export_tool, import_tools
from studio.formats.provider import sanitise_name
from studio.mcp.client import MODERN_VERSIONS, HttpTarget, ServerListing, StdioTarget, Target

SOURCE_KEY = "mcp_source"
"""Key of the registry settings that records where a pull came from."""
FORMAT = "mcp-pull"


def registry_from_listing(listing: ServerListing, name: str | None = None) -> ImportResult:
    """The registry a server's listing maps to, with every note.

    Args:
        listing: What the server listed.
        name: Registry name (default: from the server's name, else ``mcp-server``).

    Raises:
        FormatError: a tool the contract cannot hold (every problem listed, each at
            ``tools[i]…`` in the listing).
    """
    source = f"{listing.server_name or 'server'} tools/list"
    collector = import_tools({"tools": list(listing.tools)}, source)
    if collector.problems:
        raise FormatError.from_problems(collector.problems, source)
    registry_name = name or sanitise_name(listing.server_name or "") or "mcp-server"
    settings = RegistrySettings(extra={SOURCE_KEY: listing.source()})
    title = listing.server_name
    if listing.server_version:
        title += f" {listing.server_version}"
    registry = Registry(
        name=registry_name,
        title=title,
        description=f"Pulled from {_where(listing.target)} over MCP {listing.protocol_version}.",
        settings=settings,
        tools=tuple(collector.tools),
    )
    notes = list(collector.notes)
    notes.extend(_header_notes(listing.tools, listing.protocol_version))
    notes.append(
        Note(
            "",
            f"{len(registry.tools)} tools from {listing.server_name or 'an unnamed server'} "
            f"{listing.server_version} over {listing.era}, {listing.pages} page(s)"
            + (
                f"; cache hint ttlMs={listing.ttl_ms} cacheScope={listing.cache_scope}"
                if listing.ttl_ms
                else ""
            ),
            "info",
        )
    )
    return ImportResult(registry, notes, FORMAT)


def target_from_source(source: Any) -> Target | None:
    """The server a registry was pulled from (its ``mcp_source`` settings), or None.

    Environment values and header values come back as stored: references such as
    ``{env:NAME}``, read again when the connection opens.
    """
    if not isinstance(source, dict):
        return None
    command, args, env = source.get("command"), source.get("args"), source.get("env")
    if source.get("transport") == "stdio" and isinstance(command, str):
        return StdioTarget(
            command,
            tuple(str(a) for a in args) if isinstance(args, list) else (),
            tuple((str(k), str(v)) for k, v in env.items()) if isinstance(env, dict) else (),
        )
    url, headers = source.get("url"), source.get("headers")
    if isinstance(url, str):
        pairs = headers.items() if isinstance(headers, dict) else ()
        return HttpTarget(url, tuple((str(k), str(v)) for k, v in pairs))
    return None


def tool_to_mcp(tool: ToolContract, settings: RegistrySettings | None = None) -> dict[str, Any]:
    """The MCP tool definition of a contract, as ``tools/list`` shows it."""
    entry, _notes = export_tool(tool, settings or RegistrySettings())
    return entry


def mcp_view(registry: Registry) -> Registry:
    """``registry`` as a server would list it: exported to MCP and read back.

    What a server cannot say (permissions, aliases, description blocks as blocks,
    timeouts) is gone on both sides of a drift check, so only what an MCP client
    sees is compared.
    """
    entries = [tool_to_mcp(t, registry.settings) for t in registry.tools]
    collector = import_tools({"tools": entries}, registry.name)
    if collector.problems:
        raise FormatError.from_problems(collector.problems, registry.name)
    return replace(registry, tools=tuple(collector.tools))


def _where(target: dict[str, Any]) -> str:
    if target.get("transport") == "stdio":
        return "`" + " ".join([str(target.get("command", "")), *target.get("args", [])]) + "`"
    return str(target.get("url", "a server"))


def _header_notes(tools: tuple[dict[str, Any], ...], protocol_version: str) -> list[Note]:
    """A note per tool whose input properties mirror into ``Mcp-Param-*`` headers, and a
    warning per tool whose ``x-mcp-header`` a 2026-07-28 client would refuse."""
    from mcp.shared.inbound import find_invalid_x_mcp_header

    notes = []
    for i, entry in enumerate(tools):
        schema = entry.get("inputSchema")
        props = (schema.get("properties") if isinstance(schema, dict) else None) or {}
        mirrored = [n for n, p in props.items() if isinstance(p, dict) and "x-mcp-header" in p]
        if not mirrored:
            continue
        where = f"tools[{i}].inputSchema"
        invalid = find_invalid_x_mcp_header(schema)
        if invalid is not None:
            dropped = " (this server speaks it: its own clients do not see the tool)"
            notes.append(
                Note(
                    where,
                    f"invalid x-mcp-header ({invalid}): a 2026-07-28 client drops this tool"
                    + (dropped if protocol_version in MODERN_VERSIONS else ""),
                    "info",
                )
            )
        else:
            notes.append(
                Note(
                    where,
                    f"x-mcp-header kept on {', '.join(mirrored)} (mirrored into Mcp-Param-* "
                    "headers by 2026-07-28 clients)",
                    "info",
                )
            )
    return notes
