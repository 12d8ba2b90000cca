"""Typed model of a tool contract and of a registry document (DESIGN §3).

The model is immutable: edits build new objects with :func:`dataclasses.replace`
(see :mod:`studio.contract.edits`). ``parameters`` is a plain JSON Schema dict;
treat it as read-only and copy before changing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from studio.contract.problems import join_path
from studio.contract.provider_options import ProviderOptions

if TYPE_CHECKING:  # annotations only: a registry without skills or agents never loads them
    from studio.agents.model import RemoteAgent
    from studio.skills.model import Skill

JSONDict = dict[str, Any]

NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,64}$"
"""The strictest tool-name rule common to the providers we export to."""

DEFAULT_VERBS: tuple[str, ...] = (
    "get",
    "list",
    "query",
    "search",
    "create",
    "update",
    "delete",
    "call",
    "send",
)


class RiskTier(StrEnum):
    """How much confirmation a call needs before it runs."""

    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"


class TimeoutTier(StrEnum):
    """Execution class; picks the default timeout and retry policy."""

    READ = "read"
    WRITE = "write"
    BATCH = "batch"


DEFAULT_TIMEOUT_SECONDS: dict[TimeoutTier, float] = {
    TimeoutTier.READ: 3.0,
    TimeoutTier.WRITE: 8.0,
    TimeoutTier.BATCH: 30.0,
}

# Reads may be retried once; writes are never retried blindly, because a
# timed-out write has an unknown outcome that must be reconciled first.
DEFAULT_MAX_ATTEMPTS: dict[TimeoutTier, int] = {
    TimeoutTier.READ: 2,
    TimeoutTier.WRITE: 1,
    TimeoutTier.BATCH: 1,
}

# A write's key names its intent (DESIGN §3): {message_id} is the user message the
# model's turn serves, so the same write with the same canonical arguments, re-issued
# anywhere in that user turn, keeps its key (studio.runtime.idempotency). {call_id}
# would give every attempt a new key, so the backend could not deduplicate.
DEFAULT_IDEMPOTENCY_KEY_TEMPLATE = "{session_id}:{message_id}:{tool}:{args_hash}"

FALLBACK_LAST_SUCCESS = "last_success"
"""Soft fallback of a read tool: when a call fails with a system error (timeout, 429,
5xx …), the last successful result for the same arguments is returned, marked stale."""
FALLBACK_MODES: tuple[str, ...] = (FALLBACK_LAST_SUCCESS,)

TASK_SUPPORT_VALUES: tuple[str, ...] = ("forbidden", "optional", "required")
"""MCP ``execution.taskSupport`` values (2025-11-25)."""
ANNOTATION_HINTS: tuple[str, ...] = (
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
)
"""The boolean MCP tool annotations."""


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One documented error a tool can return."""

    code: str
    meaning: str = ""
    retryable: bool = False
    hint: str = ""


@dataclass(frozen=True, slots=True)
class Example:
    """An example call: what the user wanted and the arguments that serve it."""

    description: str = ""
    arguments: JSONDict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Retry with exponential backoff and full jitter.

    ``max_attempts`` counts the first try, so 1 means "never retry".
    """

    max_attempts: int = 1
    backoff_base_seconds: float = 0.5
    backoff_cap_seconds: float = 8.0


@dataclass(frozen=True, slots=True)
class Idempotency:
    """Whether calls carry an idempotency key, and how it is built."""

    required: bool = False
    key_template: str = ""


@dataclass(frozen=True, slots=True)
class Execution:
    """Timeout tier, timeout, retry policy and idempotency of a tool."""

    timeout_tier: TimeoutTier = TimeoutTier.READ
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS[TimeoutTier.READ]
    retry: RetryPolicy = field(default_factory=lambda: RetryPolicy(max_attempts=2))
    idempotency: Idempotency = field(default_factory=Idempotency)
    fallback: str = ""
    """"" (none) or :data:`FALLBACK_LAST_SUCCESS`; read tools only."""
    fallback_max_age_seconds: float | None = None
    """Oldest cached result the fallback may return; None: any the cache still holds."""
    task_support: str = ""
    """MCP ``execution.taskSupport`` as a pulled server declared it (``forbidden``,
    ``optional``, ``required``); "" when not declared."""

    @classmethod
    def for_tier(cls, tier: TimeoutTier) -> Execution:
        """The house defaults for a tier (DESIGN §3)."""
        idem = (
            Idempotency(True, DEFAULT_IDEMPOTENCY_KEY_TEMPLATE)
            if tier is TimeoutTier.WRITE
            else Idempotency()
        )
        return cls(
            timeout_tier=tier,
            timeout_seconds=DEFAULT_TIMEOUT_SECONDS[tier],
            retry=RetryPolicy(max_attempts=DEFAULT_MAX_ATTEMPTS[tier]),
            idempotency=idem,
        )


@dataclass(frozen=True, slots=True)
class Permission:
    """A (role, scenario) pair allowed to call the tool; ``*`` matches any."""

    role: str
    scenario: str = "*"


@dataclass(frozen=True, slots=True)
class Deprecation:
    """Marks a tool as deprecated, optionally naming its replacement."""

    replacement: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ToolContract:
    """The contract of one tool, as designed in the studio.

    Description blocks (``summary`` … ``examples``) are what authors write; the
    text a model sees is rendered from them (:mod:`studio.contract.render`).
    ``description`` holds free text, typically from an import, and is used
    when no blocks are filled in.
    """

    name: str
    title: str = ""
    summary: str = ""
    usage: str = ""
    preconditions: str = ""
    returns: str = ""
    errors: tuple[ErrorSpec, ...] = ()
    examples: tuple[Example, ...] = ()
    description: str = ""
    parameters: JSONDict = field(default_factory=lambda: {"type": "object", "properties": {}})
    risk: RiskTier = RiskTier.READ
    execution: Execution = field(default_factory=Execution)
    permissions: tuple[Permission, ...] = ()
    tags: tuple[str, ...] = ()
    domain: str = ""
    deprecated: Deprecation | None = None
    output_schema: JSONDict | None = None
    """JSON Schema (2020-12, root ``object``) of the structured result; None when not declared."""
    icons: tuple[JSONDict, ...] = ()
    """MCP icons (``{"src", "mimeType"?, "sizes"?, "theme"?}``), kept as authored."""
    annotations: JSONDict = field(default_factory=dict)
    """MCP tool annotations (``readOnlyHint`` …) as authored where they say more than (or
    differ from) what ``risk`` implies; the rest is derived from the risk tier on export."""
    meta: JSONDict = field(default_factory=dict)
    """MCP ``_meta``, kept opaque: exported as it was imported, never interpreted."""
    provider: ProviderOptions = field(default_factory=ProviderOptions)
    """Options only some providers' tool definitions express (strict, deferred loading,
    input examples, allowed callers, namespace): :mod:`studio.contract.provider_options`."""

    def has_blocks(self) -> bool:
        """True when any structured description block is filled in."""
        return bool(
            self.summary
            or self.usage
            or self.preconditions
            or self.returns
            or self.errors
            or self.examples
        )

    def injected_properties(self) -> dict[str, str]:
        """Top-level property name → session context path for injected fields.

        Nested injected fields (``claim.employee_id``) are in :meth:`injected_fields`.
        """
        return {
            f.path[0]: f.source for f in self.injected_fields() if len(f.path) == 1 and f.fillable
        }

    def injected_fields(self) -> tuple[InjectedField, ...]:
        """Every ``x-injected`` property at any depth (see :func:`injected_fields`)."""
        return injected_fields(self.parameters)


INJECTED_ITEMS = "[]"
"""Segment of an :attr:`InjectedField.path` standing for every element of an array."""

INJECTION_TRANSPARENT = ("anyOf", "oneOf", "allOf")
"""Combinators whose branches describe the same value, so injected paths go through them."""
# Keywords whose subschemas injected paths cannot reach (a value there has no
# fixed path): injected_fields reports them; the diff's model view walks them
# the same way (studio.diff.registry_diff), so both read these tuples.
INJECTION_OPAQUE_MAPS = ("patternProperties", "$defs", "definitions", "dependentSchemas")
INJECTION_OPAQUE_LISTS = ("prefixItems",)
INJECTION_OPAQUE_SINGLES = (
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
)
MAX_INJECTED_DEPTH = 64
"""How deep injected fields are looked for; deeper schemas are refused by the contract check."""


@dataclass(frozen=True, slots=True)
class InjectedField:
    """A property marked ``x-injected``: the runtime fills it, the model never sees it.

    Attributes:
        path: Where the value is in the arguments: property names, and
            :data:`INJECTED_ITEMS` for every element of an array
            (``("lines", "[]", "employee_id")``).
        source: The session context path (``session.employee_id``); "" when
            ``x-injected`` is not a string.
        json_path: Where the property is in the tool document
            (``parameters.properties.claim.properties.employee_id``).
        reachable: The property is reached only through ``properties``,
            ``items``, ``anyOf``, ``oneOf`` and ``allOf``, so its place in the
            arguments is known. Inside ``$defs``, ``patternProperties``,
            ``additionalProperties`` … it is not: exports still hide it, the
            contract check refuses it and the runtime refuses the call.
    """

    path: tuple[str, ...]
    source: str
    json_path: str
    reachable: bool = True

    @property
    def name(self) -> str:
        """The property's own name."""
        return self.path[-1]

    @property
    def fillable(self) -> bool:
        """The runtime can fill it: reachable, with a context path."""
        return self.reachable and bool(self.source)

    def display(self) -> str:
        """The argument path as the runtime reports it: ``$.lines[].employee_id``."""
        return "$" + "".join("[]" if p == INJECTED_ITEMS else f".{p}" for p in self.path)


def injected_fields(parameters: Any, base: str = "parameters") -> tuple[InjectedField, ...]:
    """Every property marked ``x-injected`` in a parameter schema, at any depth.

    The one definition of "injected" that the exporters (hide them), the lint
    (what the model sees), the contract check (where they may be) and the
    runtime (fill them, drop what the model sent) share. Children of an
    injected property are not listed: the whole property is the session's.

    Args:
        parameters: A tool's ``parameters`` (anything: malformed input yields nothing).
        base: JSON path of ``parameters``, used for :attr:`InjectedField.json_path`.
    """
    out: list[InjectedField] = []
    _walk_injected(parameters, (), base, True, 0, out)
    return tuple(out)


def _walk_injected(
    node: Any,
    data_path: tuple[str, ...],
    json_path: str,
    reachable: bool,
    depth: int,
    out: list[InjectedField],
) -> None:
    if not isinstance(node, dict) or depth > MAX_INJECTED_DEPTH:
        return
    depth += 1
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                if not isinstance(sub, dict) or not isinstance(name, str):
                    continue
                where = join_path(json_path, "properties", name)
                if "x-injected" in sub:
                    source = sub["x-injected"]
                    source = source if isinstance(source, str) else ""
                    out.append(InjectedField((*data_path, name), source, where, reachable))
                    continue
                _walk_injected(sub, (*data_path, name), where, reachable, depth, out)
        elif key == "items" and isinstance(value, dict):
            where = join_path(json_path, "items")
            _walk_injected(value, (*data_path, INJECTED_ITEMS), where, reachable, depth, out)
        elif key in INJECTION_TRANSPARENT and isinstance(value, list):
            for i, sub in enumerate(value):
                where = join_path(json_path, key, i)
                _walk_injected(sub, data_path, where, reachable, depth, out)
        elif key in INJECTION_OPAQUE_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(name, str):
                    where = join_path(json_path, key, name)
                    _walk_injected(sub, data_path, where, False, depth, out)
        elif key in INJECTION_OPAQUE_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                _walk_injected(sub, data_path, join_path(json_path, key, i), False, depth, out)
        elif key in INJECTION_OPAQUE_SINGLES and isinstance(value, dict):
            _walk_injected(value, data_path, join_path(json_path, key), False, depth, out)


DEFAULT_DESCRIPTION_TEMPLATE = """{summary}

Use when: {usage}

Preconditions: {preconditions}

Returns: {returns}

Errors:
{errors}

Examples:
{examples}

{description}"""
"""Default rendering template.

A paragraph (text between blank lines) whose placeholders all render empty
is dropped, so a tool without ``preconditions`` shows no "Preconditions:" line.
``{description}`` renders only for tools that have no blocks at all.
"""


@dataclass(frozen=True, slots=True)
class RegistrySettings:
    """Per-registry settings that shape rendering and linting."""

    verbs: tuple[str, ...] = DEFAULT_VERBS
    description_template: str = DEFAULT_DESCRIPTION_TEMPLATE
    extra: JSONDict = field(default_factory=dict)
    """Settings owned by other parts (e.g. lint configuration), kept verbatim."""


@dataclass(frozen=True, slots=True)
class Registry:
    """A registry document: metadata plus ordered tools, skills and remote agents."""

    name: str
    title: str = ""
    description: str = ""
    settings: RegistrySettings = field(default_factory=RegistrySettings)
    tools: tuple[ToolContract, ...] = ()
    skills: tuple[Skill, ...] = ()
    """Skill packages (SKILL.md); in the document only when there are some (issue #18)."""
    agents: tuple[RemoteAgent, ...] = ()
    """Remote agents (A2A Agent Cards); in the document only when there are some."""

    def tool(self, name: str) -> ToolContract | None:
        """The tool called ``name``, or None."""
        return next((t for t in self.tools if t.name == name), None)

    def skill(self, name: str) -> Skill | None:
        """The skill called ``name``, or None."""
        return next((s for s in self.skills if s.name == name), None)

    def agent(self, name: str) -> RemoteAgent | None:
        """The remote agent keyed ``name``, or None."""
        return next((a for a in self.agents if a.name == name), None)
