"""Schema hygiene: what providers reject and what makes a model fill arguments wrongly.

These rules run on raw imported tools too, so they never assume the schema
is valid: every keyword is type-checked before use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

from studio.contract.model import ToolContract
from studio.contract.problems import join_path
from studio.editing.edits import MISSING, SetPropertyKey, SetRequired
from studio.lint.model import Hit, LintContext, QuickFix, Severity, tool_rule
from studio.lint.regex import compile_cues
from studio.lint.rules._common import (
    SchemaNode,
    cached_hits,
    description_of,
    injected_names,
    injected_paths,
    iter_schemas,
    json_repr,
    memo,
    model_parameters,
    option_int,
    params_of,
    text,
    visible_properties,
)
from studio.lint.rules._common import _walk_schemas as walk_schemas
from studio.lint.rules._schema_errors import UNDECIDED, top_level_error

CATEGORY = "schema"

STANDARD_TYPES = frozenset(("string", "number", "integer", "boolean", "array", "object", "null"))

# Non-standard type → (replacement type, extra keywords); None removes ``type``.
TYPE_FIXES: dict[str, tuple[str | None, dict[str, Any]]] = {
    "dict": ("object", {}),
    "map": ("object", {}),
    "json": ("object", {}),
    "float": ("number", {}),
    "double": ("number", {}),
    "decimal": ("number", {}),
    "int": ("integer", {}),
    "long": ("integer", {}),
    "str": ("string", {}),
    "text": ("string", {}),
    "bool": ("boolean", {}),
    "list": ("array", {}),
    "tuple": ("array", {}),
    "date": ("string", {"format": "date"}),
    "datetime": ("string", {"format": "date-time"}),
    "any": (None, {}),
}


def _tool(tool: ToolContract) -> str:
    return text(tool.name)


def _visible_nodes(tool: ToolContract) -> Iterator[SchemaNode]:
    """Subschemas the model sees: injected properties are stripped on export."""
    hidden = injected_paths(tool)
    for node in iter_schemas(tool):
        if hidden and any(
            node.json_path == h or node.json_path.startswith((h + ".", h + "[")) for h in hidden
        ):
            continue
        yield node


def _is_object(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" or isinstance(schema.get("properties"), dict)


@tool_rule(
    "schema-root-not-object",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""Every provider (OpenAI, Anthropic, Gemini, MCP inputSchema) requires the
    parameters of a tool to be a JSON Schema with "type": "object" at the root; arguments
    are always a JSON object of named values. Wrap a bare value in an object property.""",
)
def check_root(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    params = tool.parameters
    if not isinstance(params, dict):
        yield Hit(_tool(tool), "parameters", "The parameters are not a JSON object schema.")
    elif params.get("type") != "object":
        found = json_repr(params["type"]) if "type" in params else "without a type"
        yield Hit(
            _tool(tool),
            "parameters.type",
            f'The root of the parameters is {found}, not "object"; make it an object '
            "schema with named properties.",
        )


@tool_rule(
    "schema-nonstandard-type",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""JSON Schema knows seven types: string, number, integer, boolean, array,
    object and null. Names from programming languages (dict, float, int, str, any, date)
    are rejected by strict validators and providers, or silently ignored so the model
    gets no type at all. Use the JSON Schema type (date → string with format date).""",
    has_fix=True,
)
def check_types(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for node in iter_schemas(tool):
        typ = node.schema.get("type")
        if typ is None:
            continue
        names = typ if isinstance(typ, list) else [typ]
        bad = [t for t in names if not (isinstance(t, str) and t in STANDARD_TYPES)]
        if not bad:
            continue
        shown = ", ".join(json_repr(t) for t in bad)
        fix = None
        if isinstance(typ, str) and typ.lower() in TYPE_FIXES and node.edit_path:
            new, extra = TYPE_FIXES[typ.lower()]
            edits = [SetPropertyKey(node.edit_path, "type", MISSING if new is None else new)]
            edits += [SetPropertyKey(node.edit_path, k, v) for k, v in extra.items()]
            label = f"Use type {new}" if new else "Remove the type"
            fix = QuickFix(label, tuple(edits))
        suggestion = ""
        if isinstance(typ, str) and typ.lower() in TYPE_FIXES:
            new, extra = TYPE_FIXES[typ.lower()]
            suggestion = f" (use {json_repr(new)}" + (
                f" with format {json_repr(extra['format'])})" if extra else ")"
            )
            if new is None:
                suggestion = " (leave the type out, or name the real type)"
        yield Hit(
            _tool(tool),
            join_path(node.json_path, "type"),
            f"Type {shown} is not a JSON Schema type; use string, number, integer, boolean, "
            f"array, object or null{suggestion}.",
            fix=fix,
        )


@tool_rule(
    "schema-required-undefined",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A name in "required" that is not a property can never be supplied
    correctly: with additionalProperties false every call fails validation, and without it
    the model is asked for a value it has no description of. Usually a property was
    renamed and "required" was not updated.""",
    has_fix=True,
)
def check_required(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for node in iter_schemas(tool):
        required = node.schema.get("required")
        if required is None:
            continue
        if not isinstance(required, list):
            yield Hit(
                _tool(tool),
                join_path(node.json_path, "required"),
                '"required" must be a list of property names.',
            )
            continue
        props = node.schema.get("properties")
        props = props if isinstance(props, dict) else {}
        for i, name in enumerate(required):
            if isinstance(name, str) and name in props:
                continue
            fix = None
            if isinstance(name, str) and node.edit_path is not None:
                fix = QuickFix(
                    f"Remove {name} from required", (SetRequired((*node.edit_path, name), False),)
                )
            yield Hit(
                _tool(tool),
                join_path(node.json_path, "required", i),
                f"{name!r} is required but is not a property; define it or remove it from "
                "required.",
                fix=fix,
            )


def _json_type_ok(value: Any, typ: str) -> bool:
    if typ == "string":
        return isinstance(value, str)
    if typ == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if typ == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if typ == "boolean":
        return isinstance(value, bool)
    if typ == "null":
        return value is None
    if typ == "array":
        return isinstance(value, list)
    if typ == "object":
        return isinstance(value, dict)
    return True


@tool_rule(
    "schema-enum-type-mismatch",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""An enum value that does not match the declared type (the number 1 in a
    string enum, "true" in a boolean enum) can never validate, so the model is offered a
    choice that always fails; an empty enum accepts nothing at all.""",
)
def check_enum_types(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for node in iter_schemas(tool):
        enum = node.schema.get("enum")
        if enum is None:
            continue
        path = join_path(node.json_path, "enum")
        if not isinstance(enum, list) or not enum:
            yield Hit(
                _tool(tool), path, "The enum is empty or not a list; list the allowed values."
            )
            continue
        typ = node.schema.get("type")
        types = [t for t in (typ if isinstance(typ, list) else [typ]) if isinstance(t, str)]
        if not types:
            continue
        bad = [v for v in enum if not any(_json_type_ok(v, t) for t in types)]
        if bad:
            yield Hit(
                _tool(tool),
                path,
                f"Enum values {json_repr(bad[:3])} do not match type {json_repr(typ)}; make the "
                "values and the "
                "type agree.",
            )


def _dedupe(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for v in values:
        if not any(v == s and type(v) is type(s) for s in seen):
            seen.append(v)
    return seen


@tool_rule(
    "schema-enum-duplicate",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A repeated enum value is invalid JSON Schema (enum items should be unique)
    and some providers reject it; values that differ only in case ("Paid" and "paid")
    make the model guess which spelling the backend wants.""",
    has_fix=True,
)
def check_enum_duplicates(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for node in iter_schemas(tool):
        enum = node.schema.get("enum")
        if not isinstance(enum, list) or len(enum) < 2:
            continue
        unique = _dedupe(enum)
        path = join_path(node.json_path, "enum")
        if len(unique) < len(enum):
            fix = None
            if node.edit_path is not None:
                fix = QuickFix(
                    "Remove duplicate enum values",
                    (SetPropertyKey(node.edit_path, "enum", unique),),
                )
            yield Hit(
                _tool(tool), path, "The enum lists a value twice; remove the duplicates.", fix=fix
            )
            continue
        folded: dict[str, str] = {}
        for v in enum:
            if isinstance(v, str):
                other = folded.setdefault(v.casefold(), v)
                if other != v:
                    yield Hit(
                        _tool(tool),
                        path,
                        f"Enum values {json_repr(other)} and {json_repr(v)} differ only in case; "
                        "keep one spelling.",
                    )
                    break


@tool_rule(
    "schema-array-without-items",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""An array without "items" lets the model put anything in it: strings where
    ids objects were meant, nested lists, mixed types. OpenAI strict mode and Gemini
    require "items" (an error for those profiles). Say what each element is.""",
)
def check_array_items(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    strict = ctx.profile in ("openai-strict", "gemini")
    for node in _visible_nodes(tool):
        typ = node.schema.get("type")
        is_array = typ == "array" or (isinstance(typ, list) and "array" in typ)
        if is_array and not isinstance(node.schema.get("items"), dict | bool):
            if "prefixItems" in node.schema:
                continue
            yield Hit(
                _tool(tool),
                node.json_path,
                'The array has no "items" schema; say what type each element is.',
                severity=Severity.ERROR if strict else None,
            )


@tool_rule(
    "schema-additional-properties",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Without "additionalProperties": false an object accepts any extra key, so a
    misspelled or invented argument (orderID for order_id) passes validation and is
    silently ignored by the backend. OpenAI strict mode requires it on every object (an
    error for that profile). Free-form objects without declared properties are left
    alone, since closing them would reject every value.""",
    has_fix=True,
)
def check_additional_properties(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    strict = ctx.profile == "openai-strict"
    for node in _visible_nodes(tool):
        schema = node.schema
        if not _is_object(schema) or not isinstance(schema.get("properties"), dict):
            continue
        if "additionalProperties" in schema or "unevaluatedProperties" in schema:
            continue
        fix = None
        if node.edit_path is not None:
            fix = QuickFix(
                "Add additionalProperties: false",
                (SetPropertyKey(node.edit_path, "additionalProperties", False),),
            )
        where = "The parameters object" if node.json_path == "parameters" else "This object"
        yield Hit(
            _tool(tool),
            node.json_path,
            f"{where} does not set additionalProperties: false, so unknown keys pass "
            "silently; add it.",
            fix=fix,
            severity=Severity.ERROR if strict else None,
        )


def _strip_extensions(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _strip_extensions(v)
            for k, v in value.items()
            if not (isinstance(k, str) and k.startswith("x-"))
        }
    if isinstance(value, list):
        return [_strip_extensions(v) for v in value]
    return value


# Keywords that never make a value invalid (annotations; ``format`` is one too, as
# the validator is built without a format checker).
_ANNOTATIONS = frozenset(
    (
        "description",
        "title",
        "default",
        "examples",
        "format",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    )
)
_SIMPLE_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


def _plain_properties(props: Any) -> bool:
    """A ``properties`` map the validator sees as is (no x- names, which it never sees)."""
    return isinstance(props, dict) and all(
        isinstance(k, str) and not k.startswith("x-") for k in props
    )


def _surely_valid(schema: Any, value: Any, depth: int = 0) -> bool:
    """True only when ``value`` certainly validates against ``schema`` (Draft 2020-12).

    A cheap check for the common plain schemas (type, properties, required,
    additionalProperties, items, string enums); anything else answers False
    and is left to the real validator, so a True never hides an error.
    """
    if not isinstance(schema, dict) or depth > 16:
        return False
    for key, sub in schema.items():
        if not isinstance(key, str):
            return False
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "type":
            if sub == "integer":
                if type(value) is not int:
                    return False
            elif sub == "number":
                if type(value) is not int and type(value) is not float:
                    return False
            else:
                kinds = _SIMPLE_TYPES.get(sub) if isinstance(sub, str) else None
                if kinds is None or type(value) not in kinds:
                    return False
        elif key == "properties":
            if not _plain_properties(sub):
                return False
            if isinstance(value, dict):
                for name, item in value.items():
                    if name in sub and not _surely_valid(sub[name], item, depth + 1):
                        return False
        elif key == "required":
            if not isinstance(sub, list) or not all(isinstance(r, str) for r in sub):
                return False
            if isinstance(value, dict) and not all(r in value for r in sub):
                return False
        elif key == "additionalProperties":
            if sub is False:
                props = schema.get("properties", {})
                if not _plain_properties(props):
                    return False
                if isinstance(value, dict) and any(k not in props for k in value):
                    return False
            elif sub is not True:
                return False
        elif key == "items":
            if not isinstance(sub, dict):
                return False
            if isinstance(value, list) and not all(
                _surely_valid(sub, item, depth + 1) for item in value
            ):
                return False
        elif key == "enum":
            if not (
                isinstance(sub, list)
                and isinstance(value, str)
                and all(isinstance(e, str) for e in sub)
                and value in sub
            ):
                return False
        else:
            return False
    return True


def _first_error(schema: Any, value: Any) -> str | None:
    """The first validation error of ``value`` against ``schema``; None when valid or unknowable."""
    if _surely_valid(schema, value):
        return None
    quick = top_level_error(schema, value) if isinstance(schema, dict) else UNDECIDED
    if quick is not UNDECIDED:
        return cast("str | None", quick)
    # Imported here: jsonschema costs a twentieth of a second to import, and most
    # values are judged without it (``_surely_valid``, ``top_level_error``).
    from studio.contract.patterns import BoundedValidator

    try:
        # Examples are user text too: pattern keywords must not backtrack without bound.
        validator = BoundedValidator(_strip_extensions(schema))
        error = next(iter(validator.iter_errors(value)), None)
    except Exception:  # a broken schema is another rule's finding, not a crash
        return None
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path)
    message = _error_text(error)
    return f"{where}: {message}" if where else message


def _error_text(error: Any) -> str:
    """A validation error in JSON terms (``null is not of type "string"``, not ``None …``)."""
    kind, instance, expected = error.validator, error.instance, error.validator_value
    if kind == "type":
        return f"{json_repr(instance)} is not of type {json_repr(expected)}"
    if kind == "enum":
        return f"{json_repr(instance)} is not one of {json_repr(expected)}"
    if kind == "const":
        return f"{json_repr(instance)} is not {json_repr(expected)}"
    return str(error.message)


@tool_rule(
    "schema-invalid-default",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""A default or example that fails its own schema teaches the model a value
    the validator rejects, and a default the runtime fills in makes every call that omits
    the argument fail. Defaults, schema examples and the tool's example calls must
    validate (x- extensions ignored; injected properties need not appear in examples).""",
)
def check_defaults(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    # Validation depends on the tool alone and is the costliest check: once per tool object.
    return iter(memo(tool, "schema-invalid-default", lambda: tuple(_default_hits(tool))))


def _default_hits(tool: ToolContract) -> Iterator[Hit]:
    name = _tool(tool)
    for node in iter_schemas(tool):
        schema = node.schema
        if "default" in schema:
            error = _first_error(
                {k: v for k, v in schema.items() if k != "default"}, schema["default"]
            )
            if error:
                yield Hit(
                    name,
                    join_path(node.json_path, "default"),
                    f"The default {json_repr(schema['default'])} fails its own schema ({error}); "
                    "fix "
                    "the default or the schema.",
                )
        examples = schema.get("examples")
        if isinstance(examples, list) and node.json_path != "parameters":
            bare = {k: v for k, v in schema.items() if k != "examples"}
            for i, value in enumerate(examples):
                error = _first_error(bare, value)
                if error:
                    yield Hit(
                        name,
                        join_path(node.json_path, "examples", i),
                        f"The example {json_repr(value)} fails its own schema ({error}); fix it.",
                    )
    params = params_of(tool)
    if not tool.examples or not params:
        return
    # Examples show what the model sends: injected properties (at any depth) are not in them.
    model_schema = model_parameters(tool, keep_injected=True) if injected_paths(tool) else params
    for i, example in enumerate(tool.examples):
        args = getattr(example, "arguments", None)
        error = _first_error(model_schema, args)
        if error:
            yield Hit(
                name,
                join_path("examples", i, "arguments"),
                f"Example call {i + 1} does not validate against the parameters ({error}); fix "
                "the example or the schema.",
            )


_VALUE = r"[`'\"“‘]?[\w.\-]{1,40}[`'\"”’]?"
_LIST_SEP = r"\s*(?:,|、|/|\||，|\bor\b|\band\b|或|和|或者)\s*"
_PROSE_LISTS: list[tuple[re.Pattern[str], str, int]] = [
    # (pattern, a literal every match holds, how many times)
    # "one of a, b, c" / "one of: a | b" / "either a or b"
    (
        compile_cues(
            rf"\b(?:one of|any of|either|possible values(?: are)?|allowed values(?: are)?"
            rf"|valid values(?: are)?|values?:)\s*[:：]?\s*"
            rf"(?P<list>{_VALUE}(?:{_LIST_SEP}{_VALUE})+)",
            re.IGNORECASE,
        ),
        "",
        0,
    ),
    (
        re.compile(
            rf"(?:可选值|取值|可选|可以是|取值范围|枚举值)\s*(?:为|是|有)?\s*[:：]?\s*"
            rf"(?P<list>{_VALUE}(?:{_LIST_SEP}{_VALUE})+)"
        ),
        "",
        0,
    ),
    # a bare slash or "or" chain of three or more: "order/user/product", "sms or email or push"
    (
        re.compile(
            rf"(?:^|[\s(（:：])(?P<list>{_VALUE}(?:\s*/\s*{_VALUE}){{2,}})(?=$|[\s).,;，。)）])"
        ),
        "/",
        2,
    ),
    (
        re.compile(
            rf"(?:^|[\s(（:：])(?P<list>{_VALUE}(?:\s+or\s+{_VALUE}){{2,}})(?=$|[\s).,;，。)）])"
        ),
        "or",
        2,
    ),
]
_SPLIT = re.compile(_LIST_SEP)


def prose_values(description: str) -> list[str] | None:
    """The finite value list written in prose in ``description``, or None."""
    for pattern, needle, count in _PROSE_LISTS:
        if count and description.count(needle) < count:
            continue  # every match holds ``count`` of ``needle``
        match = pattern.search(description)
        if not match:
            continue
        raw = _SPLIT.split(match.group("list"))
        values = [v.strip("`'\"“”‘’ .") for v in raw]
        values = [v for v in values if v]
        if len(values) >= 2 and len(set(values)) == len(values):
            if any(v.lower() in ("and", "or", "etc") for v in values):
                continue
            return values
    return None


@tool_rule(
    "schema-enum-in-prose",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""A finite list of values written in the description ("one of pending, paid,
    shipped", "可选值：出租车、酒店", "order/user/product") is only a hint: the model may
    still send "Shipped" or "delivered" and nothing rejects it. An enum makes the list
    binding and shows the model exactly which spellings exist.""",
    has_fix=True,
)
def check_prose_enum(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    return cached_hits(tool, "schema-enum-in-prose", lambda: _check_prose_enum_hits(tool, ctx))


def _check_prose_enum_hits(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    for ref in visible_properties(tool):
        schema = ref.schema
        if "enum" in schema or "const" in schema or schema.get("type") not in ("string", None):
            continue
        values = prose_values(description_of(schema))
        if not values:
            continue
        fix = QuickFix(
            f"Turn into enum {json_repr(values)}", (SetPropertyKey(ref.path, "enum", values),)
        )
        yield Hit(
            _tool(tool),
            ref.at("description"),
            f"The description of {ref.name!r} lists its values ({', '.join(values)}) in prose; "
            "make them an enum.",
            fix=fix,
        )


@tool_rule(
    "schema-all-required",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""When every one of three or more parameters is required, the model must
    produce a value for each even when the user gave none, so it invents filters, dates
    and ids. Make optional what has a sensible default or can be left out (injected
    properties do not count). Not applied to openai-strict, where every property must be
    required and optional ones are written as nullable.""",
    profiles=("openai", "anthropic", "gemini", "mcp"),
)
def check_all_required(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    params = params_of(tool)
    props = params.get("properties")
    required = params.get("required")
    if not isinstance(props, dict) or not isinstance(required, list):
        return
    injected = injected_names(tool)
    visible = [p for p in props if p not in injected]
    if len(visible) >= 3 and all(p in required for p in visible):
        yield Hit(
            _tool(tool),
            "parameters.required",
            f"All {len(visible)} parameters are required, so the model must invent values the "
            "user did not give; make the optional ones optional.",
        )


# Object nesting the profiles accept. OpenAI structured outputs documented 5 levels when
# strict mode launched (10 in newer models); we keep 5. Gemini documents no number but
# rejects or degrades on deep schemas, so we assume 4. Elsewhere 6 is a readability limit.
MAX_DEPTH = {"openai-strict": 5, "gemini": 4, "openai": 6, "anthropic": 6, "mcp": 6}


@tool_rule(
    "schema-too-deep",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""Deeply nested objects are filled less reliably by models and hit provider
    limits: OpenAI strict mode documented at most 5 levels of object nesting, and Gemini is
    assumed here to accept 4; other profiles get 6 as a readability limit (option
    schema.max_depth). The root object is level 1. Flatten, or split the tool.""",
)
def check_depth(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    limit = option_int(ctx, "schema.max_depth", MAX_DEPTH.get(ctx.profile, 6))
    deepest: SchemaNode | None = None
    for node in _visible_nodes(tool):
        deeper = deepest is None or node.depth > deepest.depth
        if _is_object(node.schema) and node.depth > limit and deeper:
            deepest = node
    if deepest is not None:
        yield Hit(
            _tool(tool),
            deepest.json_path,
            f"Objects are nested {deepest.depth} levels deep (limit {limit} for "
            f"{ctx.profile}); flatten the parameters.",
            severity=Severity.ERROR if ctx.profile == "openai-strict" else None,
        )


# OpenAI structured outputs (strict function calling), keywords documented as unsupported
# when strict mode launched (August 2024). Newer models accept some of them (pattern,
# format, minimum/maximum, minItems/maxItems), but this conservative list works everywhere.
STRICT_UNSUPPORTED = frozenset(
    (
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "patternProperties",
        "unevaluatedProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
        "minItems",
        "maxItems",
        "uniqueItems",
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
    )
)


@tool_rule(
    "schema-strict-unsupported",
    category=CATEGORY,
    severity=Severity.ERROR,
    rationale="""OpenAI strict mode accepts only a subset of JSON Schema. We check the
    conservative list documented when it launched (August 2024): no minLength, maxLength,
    pattern, format, minimum, maximum, exclusive bounds, multipleOf, minItems, maxItems,
    uniqueItems, contains, patternProperties, propertyNames, min/maxProperties,
    unevaluated*, allOf, not, if/then/else, dependent*; anyOf not at the root; and every
    property required (write optional ones as nullable: "type": ["string", "null"]).
    Newer models accept some of these keywords; move the constraint into the description
    to be safe.""",
    profiles=("openai-strict",),
    has_fix=True,
)
def check_strict_subset(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    name = _tool(tool)
    params = params_of(tool)
    if "anyOf" in params:
        yield Hit(
            name,
            "parameters.anyOf",
            "Strict mode does not accept anyOf at the root; use one object schema.",
        )
    for node in _visible_nodes(tool):
        schema = node.schema
        for key in sorted(k for k in schema if k in STRICT_UNSUPPORTED):
            yield Hit(
                name,
                join_path(node.json_path, key),
                f'Strict mode does not support "{key}"; state the constraint in the '
                "description instead.",
            )
        props = schema.get("properties")
        if not isinstance(props, dict):
            continue
        required = schema.get("required")
        required = required if isinstance(required, list) else []
        hidden = injected_paths(tool)
        injected = {p for p in props if join_path(node.json_path, "properties", p) in hidden}
        for prop, sub in props.items():
            if prop in required or prop in injected or not isinstance(sub, dict):
                continue
            fix = None
            typ = sub.get("type")
            nullable_ok = "enum" not in sub and "const" not in sub
            if (
                node.edit_path is not None
                and nullable_ok
                and isinstance(typ, str)
                and typ in STANDARD_TYPES
            ):
                path = (*node.edit_path, prop)
                fix = QuickFix(
                    f"Make {prop} required and nullable",
                    (SetPropertyKey(path, "type", [typ, "null"]), SetRequired(path, True)),
                )
            yield Hit(
                name,
                join_path(node.json_path, "properties", prop),
                f"Strict mode requires every property to be required; make {prop!r} required "
                'and nullable ("type": [..., "null"]).',
                fix=fix,
            )


@tool_rule(
    "output-schema-required-undefined",
    category=CATEGORY,
    severity=Severity.WARNING,
    rationale="""An MCP output schema promises what structuredContent holds; clients and
    agents validate results against it and read its property descriptions. A name in
    "required" that no property defines promises a value nobody described, and a client
    that validates results rejects every result without it. Usually a result property was
    renamed and "required" was not updated.""",
)
def check_output_required(tool: ToolContract, ctx: LintContext) -> Iterator[Hit]:
    output = getattr(tool, "output_schema", None)
    if not isinstance(output, dict):
        return
    nodes: list[SchemaNode] = []
    walk_schemas(output, "output_schema", None, 1, nodes)
    for node in nodes:
        required = node.schema.get("required")
        if not isinstance(required, list):
            continue
        props = node.schema.get("properties")
        props = props if isinstance(props, dict) else {}
        for i, name in enumerate(required):
            if isinstance(name, str) and name not in props:
                yield Hit(
                    _tool(tool),
                    join_path(node.json_path, "required", i),
                    f"Results must hold {name!r}, but the output schema does not define it; "
                    "define the property or remove it from required.",
                )
