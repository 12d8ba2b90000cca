"""Tool contract model: typed contracts, documents, canonical JSON and hashes.

The names below are loaded when first used (PEP 562): importing a leaf such as
``studio.contract.problems`` or ``studio.contract.canonical`` (the session
importers, the storage layer) must not pull in the document parser, the
rendering of descriptions and the skills package reader as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from studio.lazy_exports import LazyExports

if TYPE_CHECKING:
    from studio.contract.canonical import canonical_json, content_hash
    from studio.contract.document import (
        REGISTRY_FORMAT,
        parse_registry,
        parse_settings,
        parse_tool,
        registry_hash,
        registry_to_dict,
        settings_to_dict,
        tool_hash,
        tool_to_dict,
    )
    from studio.contract.model import (
        DEFAULT_DESCRIPTION_TEMPLATE,
        DEFAULT_VERBS,
        Deprecation,
        ErrorSpec,
        Example,
        Execution,
        Idempotency,
        Permission,
        Registry,
        RegistrySettings,
        RetryPolicy,
        RiskTier,
        TimeoutTier,
        ToolContract,
    )
    from studio.contract.problems import ContractError, Problem, join_path
    from studio.contract.render import render_description

_HOMES = {
    "studio.contract.canonical": ("canonical_json", "content_hash"),
    "studio.contract.document": (
        "REGISTRY_FORMAT",
        "parse_registry",
        "parse_settings",
        "parse_tool",
        "registry_hash",
        "registry_to_dict",
        "settings_to_dict",
        "tool_hash",
        "tool_to_dict",
    ),
    "studio.contract.model": (
        "DEFAULT_DESCRIPTION_TEMPLATE",
        "DEFAULT_VERBS",
        "Deprecation",
        "ErrorSpec",
        "Example",
        "Execution",
        "Idempotency",
        "Permission",
        "Registry",
        "RegistrySettings",
        "RetryPolicy",
        "RiskTier",
        "TimeoutTier",
        "ToolContract",
    ),
    "studio.contract.problems": ("ContractError", "Problem", "join_path"),
    "studio.contract.render": ("render_description",),
}
_EXPORTS = LazyExports(__name__, _HOMES, globals())

__all__ = [
    "DEFAULT_DESCRIPTION_TEMPLATE",
    "DEFAULT_VERBS",
    "REGISTRY_FORMAT",
    "ContractError",
    "Deprecation",
    "ErrorSpec",
    "Example",
    "Execution",
    "Idempotency",
    "Permission",
    "Problem",
    "Registry",
    "RegistrySettings",
    "RetryPolicy",
    "RiskTier",
    "TimeoutTier",
    "ToolContract",
    "canonical_json",
    "content_hash",
    "join_path",
    "parse_registry",
    "parse_settings",
    "parse_tool",
    "registry_hash",
    "registry_to_dict",
    "render_description",
    "settings_to_dict",
    "tool_hash",
    "tool_to_dict",
]


def __getattr__(name: str) -> Any:
    return _EXPORTS.load(name)


def __dir__() -> list[str]:
    return _EXPORTS.names(__all__)
