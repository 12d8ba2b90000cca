"""Tool contract model: typed contracts, documents, canonical JSON and hashes."""

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
