"""Stored JSON of drafts and versions, and rows turned back into contracts.

Two texts are kept per draft tool. ``document_json`` is the document in its
authored key order: property order in a schema is what the author chose and
what a model reads, so it must survive a save. ``canonical_json`` is its
RFC 8785 form, from which a registry's canonical document — and so its hash —
is assembled by concatenation instead of re-canonicalising every tool on
publish: a JCS object is its members in sorted key order, and a JCS array is
its canonical elements joined with ``,``.
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


def ordered_json(value: object) -> str:
    """Compact JSON that keeps key order (what ``document_json`` stores)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def tool_json(tool: ToolContract) -> tuple[str, str, str]:
    """A tool's document as stored: ordered text, canonical text, content hash."""
    document = tool_to_dict(tool)
    canonical = canonical_json(document)
    return ordered_json(document), canonical.decode("utf-8"), hash_bytes(canonical)


def settings_json(settings: RegistrySettings) -> str:
    """The canonical JSON text of registry settings, as stored in ``registries``."""
    return canonical_json(settings_to_dict(settings)).decode("utf-8")


def load_tool(document_json: str) -> ToolContract:
    """A tool read back from a draft row (checked when it was saved, so not again)."""
    return parse_tool(json.loads(document_json), check_schema=False)


def load_settings(text: str) -> RegistrySettings:
    """Registry settings read back from ``registries.settings_json``."""
    return parse_settings(json.loads(text))


def assemble_registry_document(
    *,
    name: str,
    title: str,
    description: str,
    settings_text: str,
    tool_texts: Sequence[str],
) -> str:
    """The registry document in authored order (keys as ``registry_to_dict`` orders them).

    Args:
        tool_texts: Each tool's ``document_json``, in registry order.
    """
    head = ordered_json(
        {"format": REGISTRY_FORMAT, "name": name, "title": title, "description": description}
    )
    return f'{head[:-1]},"settings":{settings_text},"tools":[{",".join(tool_texts)}]}}'


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
