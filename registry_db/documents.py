"""Canonical JSON of stored drafts and versions, and rows turned back into contracts.

Each draft row keeps its tool's canonical JSON, so a registry's canonical
document can be assembled by concatenation instead of re-canonicalising every
tool on publish: a JCS object is its members in sorted key order, and a JCS
array is its canonical elements joined with ``,``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from studio.contract import (
    REGISTRY_FORMAT,
    Registry,
    RegistrySettings,
    ToolContract,
    canonical_json,
    parse_settings,
    parse_tool,
    registry_to_dict,
    settings_to_dict,
    tool_to_dict,
)
from studio.contract.canonical import hash_bytes

_REGISTRY_KEYS = ("description", "format", "name", "settings", "title", "tools")

# Assembly is only valid while the registry document has exactly these keys;
# if studio.contract ever adds one, fall back to full canonicalisation rather
# than publish documents whose hash differs from registry_hash().
ASSEMBLY_MATCHES_CONTRACT = tuple(sorted(registry_to_dict(Registry(name="x")))) == _REGISTRY_KEYS


def tool_json(tool: ToolContract) -> tuple[str, str]:
    """The canonical JSON text of a tool's document and its content hash."""
    canonical = canonical_json(tool_to_dict(tool))
    return canonical.decode("utf-8"), hash_bytes(canonical)


def settings_json(settings: RegistrySettings) -> str:
    """The canonical JSON text of registry settings, as stored in ``registries``."""
    return canonical_json(settings_to_dict(settings)).decode("utf-8")


def load_tool(document_json: str) -> ToolContract:
    """A tool read back from a draft row (checked when it was saved, so not again)."""
    return parse_tool(json.loads(document_json), check_schema=False)


def load_settings(text: str) -> RegistrySettings:
    """Registry settings read back from ``registries.settings_json``."""
    return parse_settings(json.loads(text))


def assemble_registry_json(
    *,
    name: str,
    title: str,
    description: str,
    settings_text: str,
    tool_texts: Sequence[str],
) -> bytes:
    """The canonical JSON of a registry document from already-canonical parts.

    Args:
        name: Registry name.
        title: Registry title.
        description: Registry description.
        settings_text: Canonical JSON of the settings (``registries.settings_json``).
        tool_texts: Canonical JSON of each tool, in registry order.

    Return:
        Bytes equal to ``canonical_json(registry_to_dict(registry))``.
    """
    if not ASSEMBLY_MATCHES_CONTRACT:
        registry = Registry(
            name=name,
            title=title,
            description=description,
            settings=load_settings(settings_text),
            tools=tuple(load_tool(t) for t in tool_texts),
        )
        return canonical_json(registry_to_dict(registry))
    return b"".join(
        (
            b'{"description":',
            canonical_json(description),
            b',"format":',
            canonical_json(REGISTRY_FORMAT),
            b',"name":',
            canonical_json(name),
            b',"settings":',
            settings_text.encode("utf-8"),
            b',"title":',
            canonical_json(title),
            b',"tools":[',
            ",".join(tool_texts).encode("utf-8"),
            b"]}",
        )
    )
