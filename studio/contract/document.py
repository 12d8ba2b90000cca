"""The studio's own JSON document form of tools and registries.

``tool_to_dict``/``registry_to_dict`` produce the normalised document (every
field present, in a fixed order) whose canonical JSON is hashed.
``parse_tool``/``parse_registry`` accept documents with any field omitted,
check everything, and raise :class:`ContractError` listing each problem with
its JSON path; they never let a ``KeyError`` or ``TypeError`` escape.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any, TypeVar

from studio.contract.model import (
    ANNOTATION_HINTS,
    DEFAULT_TIMEOUT_SECONDS,
    FALLBACK_MODES,
    NAME_PATTERN,
    TASK_SUPPORT_VALUES,
    Deprecation,
    ErrorSpec,
    Example,
    Execution,
    Idempotency,
    JSONDict,
    Permission,
    Registry,
    RegistrySettings,
    RetryPolicy,
    RiskTier,
    TimeoutTier,
    ToolContract,
)
from studio.contract.problems import ContractError, Problem, join_path, json_kind
from studio.contract.provider_options import (
    ANTHROPIC_CACHE_PLACEMENTS,
    CALLERS,
    GEMINI_MODES,
    GeminiSettings,
    ProviderOptions,
    ProviderSettings,
)
from studio.contract.render import template_problems
from studio.contract.schema_checks import check_output_schema, check_parameters

REGISTRY_FORMAT = "tool-registry-studio/registry@1"
TOOL_FORMAT = "tool-registry-studio/tool@1"

_NAME_RE = re.compile(NAME_PATTERN)
_TOOL_KEYS = (
    "name",
    "title",
    "summary",
    "usage",
    "preconditions",
    "returns",
    "errors",
    "examples",
    "description",
    "parameters",
    "risk",
    "execution",
    "permissions",
    "tags",
    "domain",
    "deprecated",
    "output_schema",
    "icons",
    "annotations",
    "meta",
    "provider",
)

T = TypeVar("T")


# --------------------------------------------------------------------------- to dict


def tool_to_dict(tool: ToolContract) -> JSONDict:
    """The normalised document of a tool (every field, fixed key order)."""
    ex = tool.execution
    return {
        "name": tool.name,
        "title": tool.title,
        "summary": tool.summary,
        "usage": tool.usage,
        "preconditions": tool.preconditions,
        "returns": tool.returns,
        "errors": [
            {"code": e.code, "meaning": e.meaning, "retryable": e.retryable, "hint": e.hint}
            for e in tool.errors
        ],
        "examples": [
            {"description": e.description, "arguments": copy.deepcopy(e.arguments)}
            for e in tool.examples
        ],
        "description": tool.description,
        "parameters": copy.deepcopy(tool.parameters),
        "risk": tool.risk.value,
        "execution": {
            "timeout_tier": ex.timeout_tier.value,
            "timeout_seconds": ex.timeout_seconds,
            "retry": {
                "max_attempts": ex.retry.max_attempts,
                "backoff_base_seconds": ex.retry.backoff_base_seconds,
                "backoff_cap_seconds": ex.retry.backoff_cap_seconds,
            },
            "idempotency": {
                "required": ex.idempotency.required,
                "key_template": ex.idempotency.key_template,
            },
            # Only when set, so the documents (and content hashes) of other tools stay as they were.
            **({"fallback": ex.fallback} if ex.fallback else {}),
            **(
                {"fallback_max_age_seconds": ex.fallback_max_age_seconds}
                if ex.fallback_max_age_seconds is not None
                else {}
            ),
            **({"task_support": ex.task_support} if ex.task_support else {}),
        },
        "permissions": [{"role": p.role, "scenario": p.scenario} for p in tool.permissions],
        "tags": list(tool.tags),
        "domain": tool.domain,
        "deprecated": (
            None
            if tool.deprecated is None
            else {"replacement": tool.deprecated.replacement, "reason": tool.deprecated.reason}
        ),
        # The MCP fields only when set, so the documents (and hashes) of other tools stay as
        # they were.
        **(
            {"output_schema": copy.deepcopy(tool.output_schema)}
            if tool.output_schema is not None
            else {}
        ),
        **({"icons": copy.deepcopy(list(tool.icons))} if tool.icons else {}),
        **({"annotations": copy.deepcopy(tool.annotations)} if tool.annotations else {}),
        **({"meta": copy.deepcopy(tool.meta)} if tool.meta else {}),
        **(
            {"provider": provider_options_to_dict(tool.provider)}
            if not tool.provider.is_default()
            else {}
        ),
    }


def settings_to_dict(settings: RegistrySettings) -> JSONDict:
    """The document form of registry settings."""
    return {
        "verbs": list(settings.verbs),
        "description_template": settings.description_template,
        **copy.deepcopy(settings.extra),
    }


def provider_options_to_dict(options: ProviderOptions) -> JSONDict:
    """The document form of a tool's provider options: only what differs from the default."""
    out: JSONDict = {}
    if options.strict is not None:
        out["strict"] = options.strict
    if options.defer_loading:
        out["defer_loading"] = True
    if options.input_examples:
        out["input_examples"] = True
    if options.allowed_callers:
        out["allowed_callers"] = list(options.allowed_callers)
    if options.namespace:
        out["namespace"] = options.namespace
    if options.eager_input_streaming is not None:
        out["eager_input_streaming"] = options.eager_input_streaming
    return out


def registry_to_dict(registry: Registry) -> JSONDict:
    """The normalised registry document, tools in registry order.

    ``skills`` and ``agents`` appear only when the registry has some, so a
    registry of tools alone keeps the document, and the content hash, it had
    before skills existed.
    """
    out: JSONDict = {
        "format": REGISTRY_FORMAT,
        "name": registry.name,
        "title": registry.title,
        "description": registry.description,
        "settings": settings_to_dict(registry.settings),
        "tools": [tool_to_dict(t) for t in registry.tools],
    }
    if registry.skills or registry.agents:
        from studio.contract.skills_document import agent_to_dict, skill_to_dict

        if registry.skills:
            out["skills"] = [skill_to_dict(s) for s in registry.skills]
        if registry.agents:
            out["agents"] = [agent_to_dict(a) for a in registry.agents]
    return out


def tool_hash(tool: ToolContract) -> str:
    """Content hash of one tool's normalised document."""
    from studio.contract.canonical import content_hash

    return content_hash(tool_to_dict(tool))


def registry_hash(registry: Registry) -> str:
    """Content hash of a registry's normalised document."""
    from studio.contract.canonical import content_hash

    return content_hash(registry_to_dict(registry))


# --------------------------------------------------------------------------- parse


class _Reader:
    """Reads typed fields from a dict, recording problems instead of raising."""

    def __init__(self, data: Any, path: str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        if isinstance(data, dict):
            self.data: dict[str, Any] = data
        else:
            self.data = {}
            problems.append(Problem(path, f"must be an object, not {json_kind(data)}"))

    def where(self, key: str | int) -> str:
        return join_path(self.path, key)

    def fail(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.where(key), message))

    def text(self, key: str, default: str = "") -> str:
        value = self.data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, str):
            self.fail(key, f"must be a string, not {json_kind(value)}")
            return default
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, not {json_kind(value)}")
            return default
        return value

    def number(self, key: str, default: float, minimum: float = 0.0) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(key, f"must be a number, not {json_kind(value)}")
            return default
        if value < minimum:
            self.fail(key, f"must be at least {minimum:g}")
            return default
        return value

    def integer(self, key: str, default: int, minimum: int = 0) -> int:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be an integer, not {json_kind(value)}")
            return default
        if value < minimum:
            self.fail(key, f"must be at least {minimum}")
            return default
        return value

    def choice(self, key: str, enum: type[T], default: T) -> T:
        value = self.data.get(key, getattr(default, "value", default))
        try:
            return enum(value)  # type: ignore[call-arg]
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in enum)  # type: ignore[attr-defined]
            self.fail(key, f"{value!r} is not one of {allowed}")
            return default

    def items(self, key: str, parse: Callable[[_Reader], T | None]) -> tuple[T, ...]:
        value = self.data.get(key)
        if value is None:  # absent (most tools have no errors, examples, permissions…)
            return ()
        if not isinstance(value, list):
            self.fail(key, f"must be an array, not {json_kind(value)}")
            return ()
        out = []
        for i, item in enumerate(value):
            parsed = parse(_Reader(item, join_path(self.path, key, i), self.problems))
            if parsed is not None:
                out.append(parsed)
        return tuple(out)

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(key, "must be an array of strings")
            return ()
        return tuple(value)

    def child(self, key: str) -> _Reader:
        return _Reader(self.data.get(key, {}), self.where(key), self.problems)

    def unknown_keys(self, known: tuple[str, ...]) -> None:
        for key in self.data:
            if key not in known:
                self.fail(key, "is not a known field")


def _parse_error(r: _Reader) -> ErrorSpec | None:
    code = r.text("code")
    if not code:
        r.fail("code", "an error needs a code")
    return ErrorSpec(code, r.text("meaning"), r.boolean("retryable", False), r.text("hint"))


def _parse_example(r: _Reader) -> Example | None:
    args = r.data.get("arguments", {})
    if not isinstance(args, dict):
        r.fail("arguments", "must be an object of argument values")
        args = {}
    return Example(r.text("description"), copy.deepcopy(args))


def _parse_permission(r: _Reader) -> Permission | None:
    role = r.text("role")
    if not role:
        r.fail("role", "a permission needs a role ('*' for any)")
    return Permission(role, r.text("scenario", "*") or "*")


def _parse_execution(r: _Reader) -> Execution:
    tier = r.choice("timeout_tier", TimeoutTier, TimeoutTier.READ)
    defaults = Execution.for_tier(tier)
    retry = r.child("retry")
    idem = r.child("idempotency")
    fallback = r.text("fallback")
    if fallback and fallback not in FALLBACK_MODES:
        shown = ", ".join(repr(m) for m in FALLBACK_MODES)
        r.fail("fallback", f"{fallback!r} is not one of {shown} (or empty for none)")
        fallback = ""
    max_age: float | None = None
    if r.data.get("fallback_max_age_seconds") is not None:
        max_age = r.number("fallback_max_age_seconds", 1.0)  # 1.0: reported already
        if max_age <= 0:
            r.fail("fallback_max_age_seconds", "must be more than 0 seconds")
            max_age = None
        elif not fallback:
            r.fail("fallback_max_age_seconds", "applies only with a fallback ('last_success')")
    task_support = r.text("task_support")
    if task_support and task_support not in TASK_SUPPORT_VALUES:
        shown = ", ".join(repr(m) for m in TASK_SUPPORT_VALUES)
        r.fail("task_support", f"{task_support!r} is not one of {shown} (or empty)")
        task_support = ""
    return Execution(
        timeout_tier=tier,
        timeout_seconds=r.number("timeout_seconds", DEFAULT_TIMEOUT_SECONDS[tier]),
        retry=RetryPolicy(
            max_attempts=retry.integer("max_attempts", defaults.retry.max_attempts, 1),
            backoff_base_seconds=retry.number(
                "backoff_base_seconds", defaults.retry.backoff_base_seconds
            ),
            backoff_cap_seconds=retry.number(
                "backoff_cap_seconds", defaults.retry.backoff_cap_seconds
            ),
        ),
        idempotency=Idempotency(
            required=idem.boolean("required", defaults.idempotency.required),
            key_template=idem.text("key_template", defaults.idempotency.key_template),
        ),
        fallback=fallback,
        fallback_max_age_seconds=max_age,
        task_support=task_support,
    )


def _read_icon(r: _Reader) -> JSONDict | None:
    src = r.text("src")
    if not src:
        r.fail("src", "an icon needs a src (a URL or a data: URI)")
    r.text("mimeType")
    r.text("theme")
    if "sizes" in r.data:
        r.strings("sizes")
    return copy.deepcopy(r.data) if src else None


def _read_annotations(r: _Reader) -> JSONDict:
    for key in ANNOTATION_HINTS:
        if key in r.data and not isinstance(r.data[key], bool):
            r.fail(key, f"must be true or false, not {json_kind(r.data[key])}")
    r.text("title")
    return copy.deepcopy(r.data)


_PROVIDER_KEYS = (
    "strict",
    "defer_loading",
    "input_examples",
    "allowed_callers",
    "namespace",
    "eager_input_streaming",
)
_NAMESPACE_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _optional_bool(r: _Reader, key: str) -> bool | None:
    value = r.data.get(key)
    if value is None or isinstance(value, bool):
        return value
    r.fail(key, f"must be true, false or null, not {json_kind(value)}")
    return None


def _read_provider(r: _Reader) -> ProviderOptions:
    r.unknown_keys(_PROVIDER_KEYS)
    callers = r.strings("allowed_callers")
    for i, caller in enumerate(callers):
        if caller not in CALLERS:
            r.problems.append(
                Problem(
                    join_path(r.path, "allowed_callers", i),
                    f"{caller!r} is not one of {', '.join(CALLERS)}",
                )
            )
    namespace = r.text("namespace")
    if namespace and not _NAMESPACE_RE.fullmatch(namespace):
        r.fail("namespace", f"{namespace!r} must be letters, digits, _ and - (≤ 64)")
    return ProviderOptions(
        strict=_optional_bool(r, "strict"),
        defer_loading=r.boolean("defer_loading", False),
        input_examples=r.boolean("input_examples", False),
        allowed_callers=tuple(c for c in callers if c in CALLERS),
        namespace=namespace if _NAMESPACE_RE.fullmatch(namespace or "-") else "",
        eager_input_streaming=_optional_bool(r, "eager_input_streaming"),
    )


def provider_settings(settings: RegistrySettings) -> ProviderSettings:
    """The registry-wide provider options in ``settings.extra["provider"]`` (checked on parse)."""
    data = settings.extra.get("provider")
    if not isinstance(data, dict):
        return ProviderSettings()
    return _read_provider_settings(_Reader(data, "settings.provider", []))


def _read_provider_settings(r: _Reader) -> ProviderSettings:
    r.unknown_keys(("anthropic", "openai", "gemini"))
    anthropic = r.child("anthropic")
    anthropic.unknown_keys(("cache_control",))
    cache = anthropic.text("cache_control", "none")
    if cache not in ANTHROPIC_CACHE_PLACEMENTS:
        anthropic.fail(
            "cache_control", f"{cache!r} is not one of {', '.join(ANTHROPIC_CACHE_PLACEMENTS)}"
        )
        cache = "none"
    openai = r.child("openai")
    openai.unknown_keys(("namespaces",))
    namespaces: dict[str, str] = {}
    raw = openai.data.get("namespaces", {})
    if not isinstance(raw, dict):
        openai.fail("namespaces", f"must be an object of name → description, not {json_kind(raw)}")
    else:
        for name, description in raw.items():
            if not _NAMESPACE_RE.fullmatch(name):
                openai.fail("namespaces", f"{name!r} must be letters, digits, _ and - (≤ 64)")
            elif not isinstance(description, str):
                openai.fail("namespaces", f"{name}: the description must be a string")
            else:
                namespaces[name] = description
    gemini = r.child("gemini")
    gemini.unknown_keys(("mode",))
    mode = gemini.text("mode")
    if mode and mode not in GEMINI_MODES:
        gemini.fail("mode", f"{mode!r} is not one of {', '.join(GEMINI_MODES)}")
        mode = ""
    return ProviderSettings(cache, namespaces, GeminiSettings(mode))


def _read_opaque_object(r: _Reader, key: str, owned: bool = False) -> JSONDict:
    value = r.data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        r.fail(key, f"must be an object, not {json_kind(value)}")
        return {}
    return value if owned else _json_copy(value)


# What a tool without ``execution`` or ``provider`` gets. Both are frozen all the
# way down, so every such tool shares one object (per tier): building them per
# tool (four dataclasses) was a fifth of reading 2,000 public tools' fields.
_HOUSE_EXECUTION = {tier: Execution.for_tier(tier) for tier in TimeoutTier}
_NO_PROVIDER_OPTIONS = ProviderOptions()


def _read_tool(r: _Reader, check_schema: bool = True, owned: bool = False) -> ToolContract | None:
    r.unknown_keys(_TOOL_KEYS)
    name = r.text("name")
    if not name:
        r.fail("name", "a tool needs a name")
    elif not _NAME_RE.fullmatch(name):
        r.fail("name", f"{name!r} must match {NAME_PATTERN} (letters, digits, _ and -, ≤ 64)")
    params = r.data.get("parameters", {"type": "object", "properties": {}})
    if check_schema:
        r.problems.extend(check_parameters(params, r.where("parameters")))
    risk = r.choice("risk", RiskTier, RiskTier.READ)
    if "execution" in r.data:
        execution = _parse_execution(r.child("execution"))
        if execution.fallback and risk is not RiskTier.READ:
            r.problems.append(
                Problem(
                    join_path(r.where("execution"), "fallback"),
                    f"a {risk.value} tool cannot have a soft fallback: a cached earlier result "
                    "would report a change that may not have happened; only read tools may",
                )
            )
    else:
        execution = _HOUSE_EXECUTION[
            TimeoutTier.READ if risk is RiskTier.READ else TimeoutTier.WRITE
        ]
    output_schema = r.data.get("output_schema")
    if output_schema is not None and check_schema:
        r.problems.extend(check_output_schema(output_schema, r.where("output_schema")))
    annotations = _read_annotations(r.child("annotations")) if "annotations" in r.data else {}
    dep_raw = r.data.get("deprecated")
    deprecated = None
    if dep_raw is True:
        deprecated = Deprecation()
    elif dep_raw not in (None, False):
        dep = r.child("deprecated")
        deprecated = Deprecation(dep.text("replacement"), dep.text("reason"))
    return ToolContract(
        name=name,
        title=r.text("title"),
        summary=r.text("summary"),
        usage=r.text("usage"),
        preconditions=r.text("preconditions"),
        returns=r.text("returns"),
        errors=r.items("errors", _parse_error),
        examples=r.items("examples", _parse_example),
        description=r.text("description"),
        # Trusted documents (check_schema=False) are freshly decoded rows that
        # nobody else holds, as are owned ones: copying them again only slows
        # large loads down.
        parameters=(params if owned or not check_schema else _json_copy(params))
        if isinstance(params, dict)
        else {},
        risk=risk,
        execution=execution,
        permissions=r.items("permissions", _parse_permission),
        tags=r.strings("tags"),
        domain=r.text("domain"),
        deprecated=deprecated,
        output_schema=(output_schema if owned else _json_copy(output_schema))
        if isinstance(output_schema, dict)
        else None,
        icons=r.items("icons", _read_icon),
        annotations=annotations,
        meta=_read_opaque_object(r, "meta", owned),
        provider=_read_provider(r.child("provider"))
        if "provider" in r.data
        else _NO_PROVIDER_OPTIONS,
    )


# I-JSON (RFC 7493) numbers: what RFC 8785 can canonicalise and every parser reads exactly.
_MAX_SAFE_INTEGER = 2**53 - 1


def _json_copy(value: Any) -> Any:
    """A deep copy of a decoded JSON value, as ``copy.deepcopy`` makes it, several times faster.

    Importing 2,000 tools copied ~58,000 nodes through ``deepcopy``'s generic
    machinery (memo dict, dispatch per node): a fifth of the import. Dicts,
    lists and scalars are copied here; anything else (a Python caller's tuple,
    a shared or cyclic structure too deep to walk) goes to ``copy.deepcopy``.
    """
    try:
        return _copy_node(value)
    except (_NotJSON, RecursionError):
        return copy.deepcopy(value)


class _NotJSON(Exception):
    """A value :func:`_copy_node` leaves to ``copy.deepcopy``."""


_SCALARS = (str, int, float, bool, type(None))


def _copy_node(node: Any) -> Any:
    kind = type(node)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _copy_node(v) for k, v in node.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else _copy_node(v) for v in node]
    if kind in _SCALARS:
        return node
    raise _NotJSON


def _has_bad_number(value: Any) -> bool:
    """Whether ``value`` holds a number :func:`_number_problems` reports (no paths built)."""
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            stack.extend(node.values())
        elif kind is list:
            stack.extend(node)
        elif kind is str or kind is bool or node is None:
            continue
        elif kind is int:
            if abs(node) > _MAX_SAFE_INTEGER:
                return True
        elif kind is float:
            if node != node or node in (float("inf"), float("-inf")):
                return True
        elif isinstance(node, (dict, list, int, float)):  # subclasses: the full walk decides
            return True
    return False


def _number_problems(value: Any, path: str) -> list[Problem]:
    """Numbers anywhere in ``value`` that cannot be canonicalised (huge ints, NaN, ±inf)."""
    # Paths are built only for a document that has such a number: building one per
    # node (~88,000 for 2,000 tools) cost more than the rest of the walk.
    if not _has_bad_number(value):
        return []
    found: list[Problem] = []
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            stack.extend((v, join_path(where, str(k))) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, join_path(where, i)) for i, v in enumerate(node))
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int) and abs(node) > _MAX_SAFE_INTEGER:
            found.append(Problem(where, f"{node} is outside ±(2^53-1), the portable JSON range"))
        elif isinstance(node, float) and (node != node or node in (float("inf"), float("-inf"))):
            found.append(Problem(where, f"{node} is not a JSON number"))
    return sorted(found, key=lambda p: p.path)


def parse_tool(
    data: Any, path: str = "", *, check_schema: bool = True, owned: bool = False
) -> ToolContract:
    """Build a tool from its document, checking every field.

    Args:
        data: The decoded JSON document of one tool.
        path: Where the document sits, used as the prefix of problem paths.
        check_schema: Check ``parameters`` against the 2020-12 metaschema and
            our extensions. Only documents this studio stored after checking
            them (drafts and versions read back from the database) skip it;
            it dominates the cost of loading a large registry.
        owned: ``data`` was decoded for this call and nothing else holds it
            (an imported file): the tool keeps its ``parameters``,
            ``output_schema`` and ``meta`` objects instead of deep copies.
            Copying the parameters of 2,000 public tools cost ~10 ms, a tenth
            of their import.

    Return:
        The tool contract.

    Raises:
        ContractError: listing every problem found, each with its JSON path.
    """
    problems: list[Problem] = []
    tool = _read_tool(_Reader(data, path, problems), check_schema, owned)
    if check_schema:
        problems.extend(_number_problems(data, path))
    if problems or tool is None:
        raise ContractError(problems)
    return tool


def parse_settings(data: Any, path: str = "settings") -> RegistrySettings:
    """Registry settings from their document form (unknown keys kept in ``extra``)."""
    problems: list[Problem] = []
    settings = _read_settings(_Reader(data, path, problems))
    if problems:
        raise ContractError(problems)
    return settings


def _read_settings(r: _Reader) -> RegistrySettings:
    defaults = RegistrySettings()
    verbs = r.strings("verbs") if "verbs" in r.data else defaults.verbs
    template = r.text("description_template", defaults.description_template)
    for message in template_problems(template):
        r.fail("description_template", message)
    extra = {
        k: copy.deepcopy(v) for k, v in r.data.items() if k not in ("verbs", "description_template")
    }
    if "provider" in extra:
        _read_provider_settings(r.child("provider"))
    return RegistrySettings(verbs=verbs, description_template=template, extra=extra)


def parse_registry(data: Any, *, check_schema: bool = True) -> Registry:
    """Build a registry from its document, checking every tool.

    Args:
        data: The decoded registry document.
        check_schema: As for :func:`parse_tool`.

    Raises:
        ContractError: listing every problem, e.g.
            ``tools[2].parameters.properties.start_date.type: 'date' is not a JSON Schema type``.
    """
    problems: list[Problem] = []
    r = _Reader(data, "", problems)
    fmt = r.data.get("format", REGISTRY_FORMAT)
    if fmt != REGISTRY_FORMAT:
        r.fail("format", f"{fmt!r} is not {REGISTRY_FORMAT!r}")
    name = r.text("name")
    if not name:
        r.fail("name", "a registry needs a name")
    settings = _read_settings(r.child("settings"))
    tools = r.items("tools", lambda tr: _read_tool(tr, check_schema))
    if check_schema:
        problems.extend(_number_problems(r.data.get("tools"), "tools"))
    seen: dict[str, int] = {}
    for i, tool in enumerate(tools):
        if tool.name in seen:
            problems.append(
                Problem(
                    join_path("", "tools", i, "name"),
                    f"{tool.name!r} is already the name of tools[{seen[tool.name]}]",
                )
            )
        seen.setdefault(tool.name, i)
    # Imported here: reading a provider's tools (studio lint FILE) never needs the
    # skill and agent layer (zip packages, ~3 ms of imports).
    from studio.contract.skills_document import read_agents, read_skills

    skills = read_skills(r.data.get("skills"), problems)
    agents = read_agents(r.data.get("agents"), problems)
    if problems:
        raise ContractError(problems)
    return Registry(
        name=name,
        title=r.text("title"),
        description=r.text("description"),
        settings=settings,
        tools=tools,
        skills=skills,
        agents=agents,
    )
