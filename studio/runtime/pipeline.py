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
Python validator's words, :mod:`studio.runtime.validators`). A call whose
arguments are a JSON object goes through the top-level plan of
:mod:`studio.runtime.call_plan` (orjson, flat loops, no record built for a step
that changed nothing): a typical call costs a few microseconds.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from studio.contract import Registry, RiskTier, ToolContract, canonical_json
from studio.contract.model import InjectedField, injected_fields
from studio.runtime.aliases import NamePlan, map_names, map_planned
from studio.runtime.call_plan import CallPlan, copy_arguments, is_plain_object, parse_object
from studio.runtime.coerce import CoercePlan, Note, coerce, coerce_planned
from studio.runtime.context import SessionContext
from studio.runtime.fill import FillPlan
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


class StepRecord(NamedTuple):
    """What one step did: ``changes`` lists each change with its reason.

    A named tuple, not a frozen dataclass: as immutable, and built in half the
    time (a call builds one per step that changed something).
    """

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
    pipeline then walks the schema itself, as it did before plans. ``plan`` is
    made of those two (None when either is, or when the root has no properties)
    and does their top level in flat loops.
    """

    contract: ToolContract
    schema: dict[str, Any]
    schema_hash: str
    validator: SchemaValidator
    names: NamePlan | None = None
    coercions: CoercePlan | None = None
    injected: tuple[InjectedField, ...] = ()
    defaults: tuple[tuple[str, Any], ...] = ()
    plan: CallPlan | None = None
    fills: FillPlan | None = None
    permitted: set[tuple[str, str]] = field(default_factory=set, compare=False, repr=False)
    """(role, scenario) pairs found allowed to call the tool (the contract does not change)."""

    @classmethod
    def compile(cls, tool: ToolContract) -> CompiledTool:
        return cls(tool, *_parameters_plan(tool.parameters))


_PlanParts = tuple[
    dict[str, Any],
    str,
    SchemaValidator,
    NamePlan | None,
    CoercePlan | None,
    tuple[InjectedField, ...],
    tuple[tuple[str, Any], ...],
    CallPlan | None,
    FillPlan,
]

_PLANS: dict[bytes, tuple[dict[str, Any], _PlanParts]] = {}
_PLANS_KEPT = 8192


def _parameters_plan(parameters: dict[str, Any]) -> _PlanParts:
    """What a tool's calls need from its parameters, compiled once per content.

    Every pipeline over a registry (a run, an eval case, a revalidated session)
    compiles the same parameters: they share one plan (~0.2 ms a tool). The key
    is the parameters' sorted JSON (orjson: a few µs); the parameters kept with
    the plan must also equal them (a tuple and a list write the same JSON).
    """
    try:
        key = orjson.dumps(parameters, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # not JSON orjson writes (orjson.JSONEncodeError is a TypeError)
        return _compile_parameters(parameters)
    kept = _PLANS.get(key)
    if kept is not None and kept[0] == parameters:
        return kept[1]
    parts = _compile_parameters(parameters)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[key] = (parameters, parts)
    return parts


def _compile_parameters(parameters: dict[str, Any]) -> _PlanParts:
    schema = strip_extensions(parameters)
    digest, validator = validator_for(schema)
    props = parameters.get("properties") or {}
    defaults = tuple(
        (name, sub["default"])
        for name, sub in props.items()
        if isinstance(sub, dict) and "default" in sub
    )
    names, coercions = NamePlan.of(parameters), CoercePlan.of(parameters)
    injected = injected_fields(parameters)
    return (
        schema,
        digest,
        validator,
        names,
        coercions,
        injected,
        defaults,
        CallPlan.of(names, coercions),
        FillPlan(injected, defaults),
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
        raw = call.arguments
        parsed = parse_object(raw) if type(raw) is str else None
        if parsed is not None:  # (1) a JSON object as written: nothing to repair
            out.parsed = parsed
            out.steps.append(_PARSED)
        else:
            parsed = self._parse(call, out)
            if out.error is not None:
                return out
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
        contract = tool.contract
        # (3) aliases and enum aliases, (4) lossless coercion
        # The call plan is made of the name and coercion plans: a tool stripped of
        # them (the differential test's reference) walks the schema, as before plans.
        plan, planned = tool.plan, tool.names is not None and tool.coercions is not None
        if plan is not None and planned and type(parsed) is dict:
            args, changes, notes = plan.arrange(parsed)
        else:
            args, changes, notes = _walk(tool, parsed)
        out.steps += (
            _RESOLVED,
            StepRecord(3, "aliases", True, tuple(changes)) if changes else _NO_ALIASES,
            _coercion_record(notes) if notes else _NO_COERCION,
        )
        # (5) defaults and injected values
        fills = tool.fills or FillPlan(tool.injected, tool.defaults)
        filled, error = fills.apply(args, self.context, contract.name)
        if error is not None:
            out.steps.append(StepRecord(5, "defaults_and_injected", False, tuple(filled)))
            out.error = error
            return out
        out.steps.append(
            StepRecord(5, "defaults_and_injected", True, tuple(filled)) if filled else _NO_FILL
        )
        # (6) validate
        validator = tool.validator
        plain = is_plain_object(args) if type(args) is dict else is_plain_json(args)
        if plain:
            errors = [] if validator.passes_fast(args) else validator.errors_of_plain(args)
        else:
            errors = sorted(validator.iter_errors(args), key=lambda e: list(e.absolute_path))
        if errors:
            out.error = _invalid_arguments(errors, out)
            return out
        # (7) permission
        context = self.context
        caller = (context.role, context.scenario)
        if contract.permissions and caller not in tool.permitted:
            denied = check_permission(contract, context)
            if denied is not None:
                out.steps += (_VALID, StepRecord(7, "permission", False))
                out.error = denied
                return out
            if len(tool.permitted) < 64:
                tool.permitted.add(caller)
        out.steps += (_VALID, _PERMITTED)
        out.arguments = args
        # (9) idempotency key for writes (the risk gate, step 8, runs in the loop)
        idem = contract.execution.idempotency
        if contract.risk is not RiskTier.READ or idem.required:
            self._key(out, args, message_id, self.session_id if session_id is None else session_id)
        return out

    def _key(self, out: Prepared, args: dict[str, Any], message_id: str, session_id: str) -> None:
        """Step 9: the idempotency key of a write, from the contract's template."""
        assert out.tool is not None
        contract = out.tool.contract
        template = (
            contract.execution.idempotency.key_template
            or "{session_id}:{message_id}:{tool}:{args_hash}"
        )
        values = _Placeholders(
            session_id=session_id,
            message_id=message_id,
            tool=contract.name,
            args_hash=args_hash(args),
            call_id=out.call.id,
        )
        out.idempotency_key = template.format_map(values)
        out.steps.append(
            StepRecord(
                9,
                "idempotency",
                True,
                ({"action": "key", "to": out.idempotency_key, "reason": f"template {template}"},),
            )
        )

    def _parse(self, call: ToolCallPart, out: Prepared) -> Any:
        """Step 1 the long way (repairs, errors): the parsed arguments, or ``out.error``."""
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
            return None
        out.parsed = parsed
        if not isinstance(parsed, dict):
            out.steps.append(StepRecord(1, "parse", False))
            out.error = ToolError(
                "INVALID_ARGUMENTS_JSON",
                f"arguments must be a JSON object, not {type(parsed).__name__}",
                retryable=True,
                hint="Send the arguments as a JSON object of parameter names to values.",
            )
            return None
        out.steps.append(
            StepRecord(
                1, "parse", True, tuple({"action": "repaired", "reason": r} for r in repairs)
            )
        )
        return parsed


_PARSED = StepRecord(1, "parse")
_RESOLVED = StepRecord(2, "resolve")
_NO_ALIASES = StepRecord(3, "aliases")
_NO_COERCION = StepRecord(4, "coerce")
_NO_FILL = StepRecord(5, "defaults_and_injected")
_VALID = StepRecord(6, "validate")
_PERMITTED = StepRecord(7, "permission")
"""The records of steps that changed nothing: shared, as records are frozen."""


def _walk(
    tool: CompiledTool, parsed: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Note]]:
    """Steps 3 and 4 on a copy of ``parsed`` by the planned or schema walkers.

    For what the call plan does not take (a dict subclass, a root without
    properties) and for a tool stripped of its plans (the differential test's
    reference, which walks the schema as before plans).
    """
    args: dict[str, Any] = copy_arguments(parsed)
    changes: list[dict[str, Any]] = []
    if tool.names is not None:
        args = map_planned(args, tool.names, "$", changes)
    else:
        args = map_names(args, tool.contract.parameters, "$", changes)
    notes: list[Note] = []
    if tool.coercions is not None:
        args = coerce_planned(args, tool.coercions, "$", notes)
    else:
        args = coerce(args, tool.contract.parameters, "$", notes)
    return args, changes, notes


def _coercion_record(notes: list[Note]) -> StepRecord:
    return StepRecord(
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


def _invalid_arguments(errors: list[Any], out: Prepared) -> ToolError:
    """Step 6's failure: its record on ``out`` and the error listing every problem."""
    problems = [
        {
            "path": "$"
            + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path),
            "message": e.message,
        }
        for e in errors
    ]
    out.steps.append(StepRecord(6, "validate", False, tuple(problems)))
    return ToolError(
        "INVALID_ARGUMENTS",
        "; ".join(f"{p['path']}: {p['message']}" for p in problems[:5]),
        retryable=True,
        hint="Fix the listed arguments to match the tool's parameters and call again.",
        details={"problems": problems},
    )


class _Placeholders(dict[str, str]):
    """Template values; an unknown placeholder stays as written."""

    def __init__(self, **values: str) -> None:
        super().__init__(values)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
