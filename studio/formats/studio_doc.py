"""The studio's own registry document (``tool-registry-studio/registry@1``)."""

from __future__ import annotations

from typing import Any

from studio.contract import (
    ContractError,
    Registry,
    RegistrySettings,
    ToolContract,
    parse_registry,
    registry_to_dict,
    tool_to_dict,
)
from studio.formats.base import ExportResult, FormatError, Note, dump_json, kind_of

NAME = "studio"


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """The normalised tool document; nothing is lost."""
    return tool_to_dict(tool), []


def export_registry(registry: Registry) -> ExportResult:
    """The whole registry document, pretty-printed."""
    return ExportResult(dump_json(registry_to_dict(registry)), None, [])


def import_registry(data: Any, source: str, name: str | None, fallback: str) -> Registry:
    """Parse a registry document.

    Args:
        data: The decoded document.
        source: Name for messages.
        name: Registry name to use instead of the document's.
        fallback: Name to use when the document has none.

    Raises:
        FormatError: listing every problem with its path in the document.
    """
    if not isinstance(data, dict):
        raise FormatError(f"{source}: a registry document must be an object, not {kind_of(data)}")
    if name or not data.get("name"):
        data = {**data, "name": name or fallback}
    try:
        return parse_registry(data)
    except ContractError as exc:
        raise FormatError.from_contract_error(exc, source) from exc
