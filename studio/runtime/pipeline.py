"""The argument pipeline: from a model's tool call to arguments ready to execute.

Steps 1–7 and 9 of DESIGN §5 are pure and run here; the risk gate (8),
execution (10), shaping (11) and pairing (12) need the run and live in
:mod:`studio.runtime.loop`. Every step leaves a :class:`StepRecord` saying
what changed and why; the first failing step stops the pipeline with a
:class:`~studio.runtime.results.ToolError` the model can read.

Tools are compiled once per registry (:class:`CompiledTool`): the schema with
``x-`` keys stripped, a plan of the parameters (alias maps, enum synonyms, types
to coerce to, defaults and injected fields, so a call does not re-derive them)
and a validator cached by the schema's content hash (``jsonschema-rs`` with the
Python validator's words, :mod:`studio.runtime.validators`): a typical call costs
a few tens of microseconds.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
from dataclasses import dataclass, field
from typing import Any

from studio.contract import Registry, RiskTier, ToolContract, canonical_json
from studio.contract.model import INJECTED_ITEMS, InjectedField
from studio.runtime.coerce import CoercePlan, coerce, coerce_planned
from studio.runtime.context import SessionContext
from studio.runtime.policy import check_permission
from studio.runtime.repair import ArgumentsParseError, parse_arguments
from studio.runtime.results import ToolError
from studio.runtime.validators import SchemaValidator, is_plain_json, validator_for
from studio.sessions.model import ToolCallPart

__all__ = [
    "ArgumentPipeline",
    "CompiledTool",
    "Prepared",
    "StepRecord",
    "args_hash",
    "strip_extensions",
    "validator_for",
]

_SCHEMA_KEYWORDS_WITH_NAMES = ("properties", "patternProperties", "$defs", "definitions")


def strip_extensions(schema: Any) -> Any:
    """A copy of ``schema`` without ``x-`` keys (property *names* are kept)."""
    if isinstance(schema, list):
        return [strip_extensions(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key.startswith("x-"):
            continue
        if key in _SCHEMA_KEYWORDS_WITH_NAMES and isinstance(value, dict):
            out[key] = {name: strip_extensions(sub) for name, sub in value.items()}
        else:
            out[key] = strip_extensions(value)
    return out


def args_hash(arguments: Any) -> str:
    """Short SHA-256 of the canonical JSON of ``arguments`` (16 hex digits)."""
    return hashlib.sha256(canonical_json(arguments)).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class StepRecord:
    """What one step did: ``changes`` lists each change with its reason."""

    step: int
    name: str
    ok: bool = True
    changes: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "name": self.name, "ok": self.ok, "changes": list(self.changes)}


@dataclass(frozen=True, slots=True)
class CompiledTool:
    """A tool ready for calls: its schema, validator and the plan of its parameters.

    ``names`` and ``coercions`` are None for a schema too deep to plan; the
    pipeline then walks the schema itself, as it did before plans.
    """

    contract: ToolContract
    schema: dict[str, Any]
    schema_hash: str
    validator: SchemaValidator
    names: _NamePlan | None = None
    coercions: CoercePlan | None = None
    injected: tuple[InjectedField, ...] = ()
    defaults: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def compile(cls, tool: ToolContract) -> CompiledTool:
        schema = strip_extensions(tool.parameters)
        digest, validator = validator_for(schema)
        props = tool.parameters.get("properties") or {}
        defaults = tuple(
            (name, sub["default"])
            for name, sub in props.items()
            if isinstance(sub, dict) and "default" in sub
        )
        return cls(
            tool,
            schema,
            digest,
            validator,
            _NamePlan.of(tool.parameters),
            CoercePlan.of(tool.parameters),
            tool.injected_fields(),
            defaults,
        )


@dataclass(slots=True)
class Prepared:
    """The pipeline's outcome for one call."""

    call: ToolCallPart
    tool: CompiledTool | None = None
    parsed: Any = None
    arguments: dict[str, Any] = field(default_factory=dict)
    steps: list[StepRecord] = field(default_factory=list)
    error: ToolError | None = None
    idempotency_key: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def name(self) -> str:
        return self.tool.contract.name if self.tool else self.call.name

    @property
    def risk(self) -> RiskTier:
        return self.tool.contract.risk if self.tool else RiskTier.READ

    def signature(self) -> tuple[str, str]:
        """(tool, canonical args hash) for the loop guard."""
        args = self.arguments if self.ok else self.parsed
        try:
            return self.name, args_hash(args if args is not None else self.call.arguments)
        except (TypeError, ValueError):
            return self.name, str(self.call.arguments)


def _map_names(value: Any, schema: Any, path: str, changes: list[dict[str, Any]]) -> Any:
    """Step 3, recursively: alias keys → property names; enum synonyms → enum values."""
    if not isinstance(schema, dict):
        return value
    props = schema.get("properties")
    if isinstance(value, dict) and isinstance(props, dict):
        lookup: dict[str, str] = {}
        for name, sub in props.items():
            lookup.setdefault(name.lower(), name)
            if isinstance(sub, dict):
                for alias in sub.get("x-aliases") or ():
                    lookup[alias] = name
                    lookup.setdefault(alias.lower(), name)
        for key in list(value):
            if key in props:
                continue
            target = lookup.get(key) or lookup.get(key.lower())
            if target is None:
                continue
            item = value.pop(key)
            if target in value:
                changes.append(
                    {
                        "path": f"{path}.{key}",
                        "action": "dropped",
                        "reason": f"alias of {target!r}, which is also present",
                    }
                )
                continue
            value[target] = item
            changes.append(
                {
                    "path": f"{path}.{key}",
                    "action": "renamed",
                    "to": target,
                    "reason": f"{key!r} is an alias of {target!r}",
                }
            )
        for key, sub in props.items():
            if key in value:
                value[key] = _map_names(value[key], sub, f"{path}.{key}", changes)
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [
            _map_names(v, schema["items"], f"{path}[{i}]", changes) for i, v in enumerate(value)
        ]
    enum = schema.get("enum")
    if isinstance(value, str) and isinstance(enum, list) and value not in enum:
        synonyms = schema.get("x-enum-aliases") or {}
        target = synonyms.get(value)
        reason = f"{value!r} is an enum alias of {target!r}"
        if target is None:
            lowered = {k.lower(): v for k, v in synonyms.items()}
            target = lowered.get(value.lower())
        if target is None:
            target = next(
                (e for e in enum if isinstance(e, str) and e.lower() == value.strip().lower()),
                None,
            )
            reason = f"{value!r} matches enum value {target!r} ignoring case"
        if target is not None:
            changes.append(
                {"path": path, "action": "mapped", "from": value, "to": target, "reason": reason}
            )
            return target
    return value


class _NamePlan:
    """What :func:`_map_names` reads from one schema node, read once per tool.

    ``lookup`` maps a lower-cased name or an alias to its property; enum nodes
    keep their schema, read only when a value is not one of the enum's values.
    """

    __slots__ = ("enum_schema", "items", "lookup", "props")

    def __init__(self, schema: dict[str, Any], depth: int = 0) -> None:
        if depth > 200:
            raise RecursionError("schema too deep to plan")
        props = schema.get("properties")
        self.props: dict[str, _NamePlan | None] | None = None
        self.lookup: dict[str, str] = {}
        if isinstance(props, dict):
            self.props = {}
            for name, sub in props.items():
                self.lookup.setdefault(name.lower(), name)
                if isinstance(sub, dict):
                    for alias in sub.get("x-aliases") or ():
                        self.lookup[alias] = name
                        self.lookup.setdefault(alias.lower(), name)
                    self.props[name] = _NamePlan(sub, depth + 1).useful()
                else:
                    self.props[name] = None
        items = schema.get("items")
        self.items = _NamePlan(items, depth + 1).useful() if isinstance(items, dict) else None
        self.enum_schema = schema if isinstance(schema.get("enum"), list) else None

    def useful(self) -> _NamePlan | None:
        """This plan, or None when it can change nothing (a plain leaf: no need to visit)."""
        if self.lookup or self.items is not None or self.enum_schema is not None:
            return self
        if self.props and any(sub is not None for sub in self.props.values()):
            return self
        return None

    @classmethod
    def of(cls, schema: Any) -> _NamePlan | None:
        """The plan of ``schema``; None when it cannot be planned (then the walk does it)."""
        if not isinstance(schema, dict):
            return None
        try:
            return cls(schema)
        except (RecursionError, AttributeError, TypeError):
            return None


def _map_planned(value: Any, plan: _NamePlan, path: str, changes: list[dict[str, Any]]) -> Any:
    """:func:`_map_names` on a planned schema: the same changes in the same order."""
    props = plan.props
    if props is not None and isinstance(value, dict):
        lookup = plan.lookup
        for key in [k for k in value if k not in props]:
            target = lookup.get(key) or lookup.get(key.lower())
            if target is None:
                continue
            item = value.pop(key)
            if target in value:
                changes.append(
                    {
                        "path": f"{path}.{key}",
                        "action": "dropped",
                        "reason": f"alias of {target!r}, which is also present",
                    }
                )
                continue
            value[target] = item
            changes.append(
                {
                    "path": f"{path}.{key}",
                    "action": "renamed",
                    "to": target,
                    "reason": f"{key!r} is an alias of {target!r}",
                }
            )
        for key, sub in props.items():
            if sub is not None and key in value:
                value[key] = _map_planned(value[key], sub, f"{path}.{key}", changes)
        return value
    if plan.items is not None and isinstance(value, list):
        items = plan.items
        return [_map_planned(v, items, f"{path}[{i}]", changes) for i, v in enumerate(value)]
    if plan.enum_schema is not None and isinstance(value, str):
        return _map_names(value, plan.enum_schema, path, changes)
    return value


def _copy_arguments(value: Any) -> Any:
    """A deep copy of parsed arguments (JSON values copy without ``copy.deepcopy``'s memo)."""
    kind = type(value)
    if kind is dict:
        return {k: _copy_arguments(v) for k, v in value.items()}
    if kind is list:
        return [_copy_arguments(v) for v in value]
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    return copy.deepcopy(value)


class ArgumentPipeline:
    """Prepares tool calls against one registry (draft or version) and session context."""

    def __init__(self, registry: Registry, context: SessionContext, session_id: str = "") -> None:
        self.registry = registry
        self.context = context
        self.session_id = session_id
        self.tools: dict[str, CompiledTool] = {
            t.name: CompiledTool.compile(t) for t in registry.tools
        }

    def prepare(
        self, call: ToolCallPart, *, message_id: str = "", session_id: str | None = None
    ) -> Prepared:
        """Run steps 1–7 and 9 on ``call``; the first failing step ends it with an error.

        Args:
            message_id: The key's ``{message_id}``: the id of the *user* message the
                call serves (the runtime passes its index), so a write re-issued in
                any model turn of that user turn keeps its key.
            session_id: The key's ``{session_id}`` when not this pipeline's session
                (a run branched from a stored session keeps the keys of the user
                turns it copied).
        """
        out = Prepared(call)
        # (1) parse
        try:
            parsed, repairs = parse_arguments(call.arguments)
        except ArgumentsParseError as exc:
            out.steps.append(StepRecord(1, "parse", False))
            out.error = ToolError(
                "INVALID_ARGUMENTS_JSON",
                f"arguments are not valid JSON: {exc.message} at line {exc.line} column "
                f"{exc.column} (char {exc.position})",
                retryable=True,
                hint="Send the arguments again as one JSON object with double-quoted keys.",
                details={"position": exc.position, "line": exc.line, "column": exc.column},
            )
            return out
        out.parsed = parsed
        if not isinstance(parsed, dict):
            out.steps.append(StepRecord(1, "parse", False))
            out.error = ToolError(
                "INVALID_ARGUMENTS_JSON",
                f"arguments must be a JSON object, not {type(parsed).__name__}",
                retryable=True,
                hint="Send the arguments as a JSON object of parameter names to values.",
            )
            return out
        out.steps.append(
            StepRecord(
                1, "parse", True, tuple({"action": "repaired", "reason": r} for r in repairs)
            )
        )
        # (2) resolve the tool name
        tool = self.tools.get(call.name)
        if tool is None:
            close = difflib.get_close_matches(call.name, list(self.tools), n=3, cutoff=0.5)
            out.steps.append(StepRecord(2, "resolve", False))
            out.error = ToolError(
                "UNKNOWN_TOOL",
                f"there is no tool named {call.name!r}",
                retryable=True,
                hint=(f"Did you mean {', '.join(close)}? " if close else "")
                + "Call one of the tools you were given.",
                details={"close_names": close},
            )
            return out
        out.tool = tool
        out.steps.append(StepRecord(2, "resolve"))
        contract = tool.contract
        args: dict[str, Any] = _copy_arguments(parsed)
        # (3) aliases and enum aliases
        changes: list[dict[str, Any]] = []
        if tool.names is not None:
            args = _map_planned(args, tool.names, "$", changes)
        else:
            args = _map_names(args, contract.parameters, "$", changes)
        out.steps.append(StepRecord(3, "aliases", True, tuple(changes)))
        # (4) lossless coercion
        notes: list[tuple[str, Any, Any]] = []
        if tool.coercions is not None:
            args = coerce_planned(args, tool.coercions, "$", notes)
        else:
            args = coerce(args, contract.parameters, "$", notes)
        out.steps.append(
            StepRecord(
                4,
                "coerce",
                True,
                tuple(
                    {
                        "path": p,
                        "action": "coerced",
                        "from": a,
                        "to": b,
                        "reason": f"lossless {type(a).__name__} → {type(b).__name__}",
                    }
                    for p, a, b in notes
                ),
            )
        )
        # (5) defaults and injected values
        error = self._fill(tool, args, out)
        if error is not None:
            out.error = error
            return out
        # (6) validate
        if is_plain_json(args):
            errors = tool.validator.errors_of_plain(args)
        else:
            errors = sorted(tool.validator.iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            problems = [
                {
                    "path": "$"
                    + "".join(
                        f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path
                    ),
                    "message": e.message,
                }
                for e in errors
            ]
            out.steps.append(StepRecord(6, "validate", False, tuple(problems)))
            out.error = ToolError(
                "INVALID_ARGUMENTS",
                "; ".join(f"{p['path']}: {p['message']}" for p in problems[:5]),
                retryable=True,
                hint="Fix the listed arguments to match the tool's parameters and call again.",
                details={"problems": problems},
            )
            return out
        out.steps.append(StepRecord(6, "validate"))
        # (7) permission
        denied = check_permission(contract, self.context)
        if denied is not None:
            out.steps.append(StepRecord(7, "permission", False))
            out.error = denied
            return out
        out.steps.append(StepRecord(7, "permission"))
        out.arguments = args
        # (9) idempotency key for writes (the risk gate, step 8, runs in the loop)
        idem = contract.execution.idempotency
        if contract.risk is not RiskTier.READ or idem.required:
            template = idem.key_template or "{session_id}:{message_id}:{tool}:{args_hash}"
            values = _Placeholders(
                session_id=self.session_id if session_id is None else session_id,
                message_id=message_id,
                tool=contract.name,
                args_hash=args_hash(args),
                call_id=call.id,
            )
            out.idempotency_key = template.format_map(values)
            out.steps.append(
                StepRecord(
                    9,
                    "idempotency",
                    True,
                    (
                        {
                            "action": "key",
                            "to": out.idempotency_key,
                            "reason": f"template {template}",
                        },
                    ),
                )
            )
        return out

    def _fill(self, tool: CompiledTool, args: dict[str, Any], out: Prepared) -> ToolError | None:
        changes: list[dict[str, Any]] = []
        contract = tool.contract
        fields = tool.injected
        broken = [f for f in fields if not f.fillable]
        if broken:
            # Fail closed: exports hide these from the model, but the runtime cannot
            # tell where they are in the arguments, so it could not drop a model value.
            where = ", ".join(f.json_path for f in broken)
            out.steps.append(StepRecord(5, "defaults_and_injected", False))
            return ToolError(
                "INVALID_CONTRACT",
                f"the contract of {contract.name} marks {where} as x-injected where the "
                "runtime cannot fill it (it needs a context path, on a property reached "
                "through properties, items, anyOf, oneOf or allOf)",
                retryable=False,
                hint="Tell the user this tool is misconfigured and cannot be called now.",
                details={"fields": [f.json_path for f in broken]},
            )
        for f in fields:
            for parent, where in _injection_targets(args, f.path[:-1], "$"):
                path = f"{where}.{f.name}"
                if f.name in parent:
                    changes.append(
                        {
                            "path": path,
                            "action": "discarded",
                            "from": parent.pop(f.name),
                            "reason": f"injected from {f.source}; the model may not set it",
                        }
                    )
                try:
                    parent[f.name] = _copy_arguments(self.context.lookup(f.source))
                except KeyError:
                    out.steps.append(StepRecord(5, "defaults_and_injected", False, tuple(changes)))
                    return ToolError(
                        "MISSING_CONTEXT_VALUE",
                        f"{path.removeprefix('$.')} comes from the session context "
                        f"({f.source}), which has no value",
                        retryable=False,
                        hint="Tell the user the session is missing this value; it cannot be "
                        "supplied in the arguments.",
                        details={"field": path.removeprefix("$."), "context_path": f.source},
                    )
                changes.append(
                    {
                        "path": path,
                        "action": "injected",
                        "from_context": f.source,
                        "reason": "x-injected",
                    }
                )
        for name, default in tool.defaults:
            if name not in args:
                args[name] = _copy_arguments(default)
                changes.append(
                    {
                        "path": f"$.{name}",
                        "action": "default",
                        "to": default,
                        "reason": "schema default",
                    }
                )
        out.steps.append(StepRecord(5, "defaults_and_injected", True, tuple(changes)))
        return None


def _injection_targets(
    value: Any, path: tuple[str, ...], where: str
) -> list[tuple[dict[str, Any], str]]:
    """The objects in ``value`` that hold the property at ``path`` + name, with their paths.

    Objects the model left out are not created: an injected field of an absent
    ``claim`` has nowhere to go (validation reports a required ``claim``).
    """
    if not path:
        return [(value, where)] if isinstance(value, dict) else []
    head, rest = path[0], path[1:]
    if head == INJECTED_ITEMS:
        if not isinstance(value, list):
            return []
        out: list[tuple[dict[str, Any], str]] = []
        for i, item in enumerate(value):
            out.extend(_injection_targets(item, rest, f"{where}[{i}]"))
        return out
    if isinstance(value, dict) and head in value:
        return _injection_targets(value[head], rest, f"{where}.{head}")
    return []


class _Placeholders(dict[str, str]):
    """Template values; an unknown placeholder stays as written."""

    def __init__(self, **values: str) -> None:
        super().__init__(values)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
