"""Helpers shared by the rule modules: walking schemas, reading text, options.

Rules see contracts that may come straight from an import, so nothing here
assumes a valid schema: non-dict property schemas, a missing ``properties``
and non-string descriptions are skipped, never raised on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from studio.contract.model import (
    DEFAULT_DESCRIPTION_TEMPLATE,
    InjectedField,
    RegistrySettings,
    ToolContract,
    injected_fields,
)
from studio.contract.problems import join_path
from studio.editing.edits import ITEMS
from studio.lint.cache import memo, memo_slots, render_cached
from studio.lint.model import LintContext
from studio.lint.text import search_with_needles

PropertyPath = tuple[str, ...]
T = TypeVar("T")

_MAX_DEPTH = 32
"""Walks stop here; a pathological (or cyclic-looking) import must not hang a lint."""


def json_repr(value: Any, limit: int = 80) -> str:
    """A JSON value as a message shows it: as JSON (``null``, ``true``, ``"taxi"``, ``[1, 2]``).

    Python's ``repr`` would show ``None``, ``True`` and ``'taxi'``, which the
    person fixing the schema never wrote. Longer than ``limit`` characters,
    the text is cut with ``…``.
    """
    try:
        shown = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # not JSON (NaN, a set …): say what it is
        shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


@dataclass(frozen=True, slots=True, init=False)
class PropertyRef:
    """One property found in a tool's parameters.

    Attributes:
        name: The property's key.
        schema: Its schema (always a dict; non-dict schemas are not yielded).
        path: Edit path (``("invoice", "[]", "id")``) for quick fixes.
        json_path: Where it is in the tool document
            (``parameters.properties.invoice.items.properties.id``).
        parent: The object schema holding it.
        top_level: True for properties of the root object.
    """

    name: str
    schema: dict[str, Any]
    path: PropertyPath
    json_path: str
    parent: dict[str, Any]
    top_level: bool

    def __init__(
        self,
        name: str,
        schema: dict[str, Any],
        path: PropertyPath,
        json_path: str,
        parent: dict[str, Any],
        top_level: bool,
    ) -> None:
        # The dataclass's own __init__ through the slots' setters, as Hit's (see
        # studio.lint.model): the walks build one per property and one SchemaNode per
        # subschema, 13,447 for 2,000 public tools, 8 -> 5 ms.
        _set_ref_name(self, name)
        _set_ref_schema(self, schema)
        _set_ref_path(self, path)
        _set_ref_json_path(self, json_path)
        _set_ref_parent(self, parent)
        _set_ref_top_level(self, top_level)

    @property
    def injected(self) -> bool:
        """True when the value comes from the session, so the model never sees it."""
        return isinstance(self.schema.get("x-injected"), str)

    def at(self, key: str) -> str:
        """JSON path of one keyword of this property (``….description``)."""
        return self.json_path + _key_suffix(key)  # the path is never empty


_set_ref_name = vars(PropertyRef)["name"].__set__
_set_ref_schema = vars(PropertyRef)["schema"].__set__
_set_ref_path = vars(PropertyRef)["path"].__set__
_set_ref_json_path = vars(PropertyRef)["json_path"].__set__
_set_ref_parent = vars(PropertyRef)["parent"].__set__
_set_ref_top_level = vars(PropertyRef)["top_level"].__set__


def params_of(tool: ToolContract) -> dict[str, Any]:
    """The tool's parameters when they are a dict, else an empty dict."""
    return tool.parameters if isinstance(tool.parameters, dict) else {}


def iter_properties(tool: ToolContract) -> Iterator[PropertyRef]:
    """Every property of the tool's parameters, nested ones included (pre-order)."""
    return iter(all_properties(tool))


def all_properties(tool: ToolContract) -> tuple[PropertyRef, ...]:
    """:func:`iter_properties` as a tuple, walked once per tool object."""
    slots = memo_slots(tool)
    out = slots.get("properties")
    if out is None:
        found: list[PropertyRef] = []
        _walk_props(params_of(tool), (), "parameters", 0, found)
        out = slots["properties"] = tuple(found)
    return out


def _walk_props(
    schema: dict[str, Any], path: PropertyPath, json_path: str, depth: int, out: list[PropertyRef]
) -> None:
    if depth > _MAX_DEPTH:
        return
    props = schema.get("properties")
    if isinstance(props, dict):
        base = json_path + ".properties"
        for name, sub in props.items():
            if not isinstance(name, str) or not isinstance(sub, dict):
                continue
            sub_path = (*path, name)
            sub_json = base + _key_suffix(name)
            out.append(PropertyRef(name, sub, sub_path, sub_json, schema, not path))
            _walk_props(sub, sub_path, sub_json, depth + 1, out)
    items = schema.get("items")
    if isinstance(items, dict):
        _walk_props(items, (*path, ITEMS), json_path + ".items", depth + 1, out)


def visible_properties(tool: ToolContract) -> Iterator[PropertyRef]:
    """Properties the model sees: injected top-level ones and their children are left out."""
    slots = memo_slots(tool)
    out = slots.get("visible-properties")
    if out is None:
        out = slots["visible-properties"] = tuple(_visible_properties(tool))
    return iter(out)


def _visible_properties(tool: ToolContract) -> Iterator[PropertyRef]:
    hidden: set[PropertyPath] = set()
    for ref in all_properties(tool):
        if hidden and any(ref.path[: len(h)] == h for h in hidden):
            continue
        if ref.injected:
            hidden.add(ref.path)
            continue
        yield ref


@dataclass(frozen=True, slots=True, init=False)
class SchemaNode:
    """Any subschema (objects, items, combinators), with where it is."""

    schema: dict[str, Any]
    json_path: str
    edit_path: PropertyPath | None
    """Edit path when the node is the root, a property or an ``items`` schema."""
    depth: int
    """Object nesting depth: the root object is 1."""

    def __init__(
        self, schema: dict[str, Any], json_path: str, edit_path: PropertyPath | None, depth: int
    ) -> None:
        # Through the slots' setters, as PropertyRef's.
        _set_node_schema(self, schema)
        _set_node_json_path(self, json_path)
        _set_node_edit_path(self, edit_path)
        _set_node_depth(self, depth)


_set_node_schema = vars(SchemaNode)["schema"].__set__
_set_node_json_path = vars(SchemaNode)["json_path"].__set__
_set_node_edit_path = vars(SchemaNode)["edit_path"].__set__
_set_node_depth = vars(SchemaNode)["depth"].__set__


_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_SINGLE = ("items", "not", "if", "then", "else", "additionalProperties", "contains")
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")


def iter_schemas(tool: ToolContract) -> Iterator[SchemaNode]:
    """Every dict subschema of the parameters, the root first (walked once per tool object)."""
    return iter(all_schemas(tool))


def all_schemas(tool: ToolContract) -> tuple[SchemaNode, ...]:
    """:func:`iter_schemas` as a tuple, walked once per tool object."""
    slots = memo_slots(tool)
    out = slots.get("schemas")
    if out is None:
        params = tool.parameters
        found: list[SchemaNode] = []
        if isinstance(params, dict):
            _walk_schemas(params, "parameters", (), 1, found)
        out = slots["schemas"] = tuple(found)
    return out


_SUBSCHEMA_KEYS = frozenset((*_SUBSCHEMA_MAPS, *_SUBSCHEMA_SINGLE, *_SUBSCHEMA_LISTS))


def _walk_schemas(
    schema: dict[str, Any],
    json_path: str,
    edit_path: PropertyPath | None,
    depth: int,
    out: list[SchemaNode],
) -> None:
    """Append ``schema`` and its subschemas to ``out``, pre-order."""
    if depth > _MAX_DEPTH:
        return
    out.append(SchemaNode(schema, json_path, edit_path, depth))
    if _SUBSCHEMA_KEYS.isdisjoint(schema):
        return  # a leaf, as most are
    is_object = schema.get("type") == "object" or isinstance(schema.get("properties"), dict)
    child_depth = depth + 1 if is_object else depth
    for key in _SUBSCHEMA_MAPS:
        mapping = schema.get(key)
        if not isinstance(mapping, dict):
            continue
        base = json_path + _key_suffix(key)
        for name, sub in mapping.items():
            if isinstance(sub, dict) and isinstance(name, str):
                sub_edit = (
                    (*edit_path, name) if key == "properties" and edit_path is not None else None
                )
                _walk_schemas(sub, base + _key_suffix(name), sub_edit, child_depth, out)
    for key in _SUBSCHEMA_SINGLE:
        sub = schema.get(key)
        if isinstance(sub, dict):
            sub_edit = (*edit_path, ITEMS) if key == "items" and edit_path is not None else None
            _walk_schemas(sub, json_path + _key_suffix(key), sub_edit, depth, out)
    for key in _SUBSCHEMA_LISTS:
        subs = schema.get(key)
        if isinstance(subs, list):
            base = json_path + _key_suffix(key)
            for i, sub in enumerate(subs):
                if isinstance(sub, dict):
                    _walk_schemas(sub, f"{base}[{i}]", None, depth, out)


@lru_cache(maxsize=65536)
def _key_suffix(name: str) -> str:
    """What :func:`join_path` appends to a non-empty path for the key ``name`` (``.name``,
    ``["客户 编号"]``), once per name: the walks join a path for every property."""
    return join_path("_", name)[1:]


def text(value: Any) -> str:
    """``value`` when it is a string, else ``""`` (imports may hold anything)."""
    return value if isinstance(value, str) else ""


def description_of(schema: dict[str, Any]) -> str:
    """A property's description, or ``""``."""
    return text(schema.get("description")).strip()


def rendered(tool: ToolContract, settings: RegistrySettings | None = None) -> str:
    """The description text the model sees (cached per tool object, never raises)."""
    template = settings.description_template if settings is not None else ""
    template = template if isinstance(template, str) and template else DEFAULT_DESCRIPTION_TEMPLATE
    try:
        return render_cached(tool, template)
    except Exception:  # a broken import must not break the lint
        return "\n\n".join(
            text(t) for t in (tool.summary, tool.usage, tool.returns, tool.description) if t
        )


def cached_hits(tool: ToolContract, key: Any, compute: Callable[[], Iterable[T]]) -> Iterator[T]:
    """The hits ``compute()`` yields, computed once per tool object and ``key``.

    For rules whose result depends on the tool alone (or on the tool and what
    ``key`` holds): the editor re-lints unchanged tools after every edit.
    """
    slots = memo_slots(tool)
    hits = slots.get(key)
    if hits is None:
        hits = slots[key] = tuple(compute())
    return iter(hits)


def tool_texts(tool: ToolContract) -> list[tuple[str, str]]:
    """Every piece of text of a tool with its path (cached; see :func:`_tool_texts`)."""
    return memo(tool, "texts", lambda: _tool_texts(tool))


_TOOL_TEXT_FIELDS = ("name", "title", "summary", "usage", "preconditions", "returns", "description")


def _tool_texts(tool: ToolContract) -> list[tuple[str, str]]:
    """Every piece of text of a tool with its path: blocks, errors, examples, schema text.

    (path, text) for the name, title, summary … description, each error's
    meaning and hint, each example's description and string arguments, and in
    the parameters every description, title, string enum value, default and
    example.
    """
    out: list[tuple[str, str]] = []
    add = out.append
    for field in _TOOL_TEXT_FIELDS:
        value = text(getattr(tool, field, ""))
        if value:
            add((field, value))
    for i, err in enumerate(tool.errors or ()):
        for key in ("code", "meaning", "hint"):
            value = text(getattr(err, key, ""))
            if value:
                add((f"errors[{i}].{key}", value))
    for i, ex in enumerate(tool.examples or ()):
        value = text(getattr(ex, "description", ""))
        if value:
            add((f"examples[{i}].description", value))
        args = getattr(ex, "arguments", None)
        if isinstance(args, dict):
            _strings_in(args, f"examples[{i}].arguments", 0, out)
    # Paths are joined by hand (each key below is a plain identifier and a node's path
    # is never empty), as join_path would: ~20,000 texts at 2,000 tools.
    for node in iter_schemas(tool):
        schema = node.schema
        where = node.json_path
        for key in ("description", "title"):
            found = schema.get(key)
            if found and isinstance(found, str):
                add((f"{where}.{key}", found))
        if _TEXT_LIST_KEYS.isdisjoint(schema):
            continue  # no enum, examples, default, const or properties
        for key in ("enum", "examples"):
            values = schema.get(key)
            if isinstance(values, list):
                for j, v in enumerate(values):
                    if isinstance(v, str) and v:
                        add((f"{where}.{key}[{j}]", v))
        for key in ("default", "const"):
            found = schema.get(key)
            if found and isinstance(found, str):
                add((f"{where}.{key}", found))
        props = schema.get("properties")
        if isinstance(props, dict):
            base = where + ".properties"
            for name in props:
                if isinstance(name, str):
                    add((base + _key_suffix(name), name))
    return out


_TEXT_LIST_KEYS = frozenset(("enum", "examples", "default", "const", "properties"))


def _strings_in(value: Any, path: str, depth: int, out: list[tuple[str, str]]) -> None:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        if value:
            out.append((path, value))
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                _strings_in(v, path + _key_suffix(k), depth + 1, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _strings_in(v, f"{path}[{i}]", depth + 1, out)


def option_int(ctx: LintContext, key: str, default: int) -> int:
    """An integer option from the lint configuration, ``default`` when absent or bad."""
    value = ctx.options.get(key) if isinstance(ctx.options, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return default
    return int(value)


# Whitespace after . ! ? ; (the first alternative is ``(?<=[.!?;])\s+``, written to
# test for whitespace before looking behind), or runs of CJK stops and newlines.
_SENTENCE_END = re.compile(r"\s(?<=[.!?;]\s)\s*|[。！？；\n]+")


def sentences(value: str) -> list[str]:
    """Split text into sentences (English and Chinese punctuation, line breaks)."""
    return [t for s in _SENTENCE_END.split(value) if s and (t := s.strip())]


def first_sentence(value: str) -> str:
    """The first sentence of ``value`` (``""`` for empty text): ``sentences(value)[0]``.

    Found without splitting the rest of the text (a long description has dozens of
    sentences). ``search`` from ``pos`` finds the matches ``split`` finds, and its
    lookbehind still sees the text before ``pos``.
    """
    pos = 0
    while True:
        match = _SENTENCE_END.search(value, pos)
        end = len(value) if match is None else match.start()
        sentence = value[pos:end].strip()
        if sentence:
            return sentence
        if match is None:
            return ""
        pos = match.end()


def summary_text(tool: ToolContract) -> tuple[str, str]:
    """The one-line statement of purpose and its path (cached per tool object).

    The ``summary`` block when filled in; for a tool without blocks, the first
    sentence of the free-text ``description``. Half a dozen rules ask for it.
    """
    slots = memo_slots(tool)
    found = slots.get("summary-text")
    if found is None:
        found = slots["summary-text"] = _summary_text(tool)
    return found


def _summary_text(tool: ToolContract) -> tuple[str, str]:
    summary = text(tool.summary).strip()
    if summary:
        return summary, "summary"
    if not tool.has_blocks():
        return first_sentence(text(tool.description)), "description"
    return "", "summary"


class CueSearch:
    """Whether a long alternation of cue phrases matches, tried only where a match can start.

    ``pattern.search`` runs every alternative at every position whose character
    may start one (word-bounded phrases such as ``\\bonly\\b|\\bmust\\b|…``, see
    :func:`studio.lint.regex.compile_cues`). Here one Aho–Corasick pass over the
    lower-cased text finds the few places where one of ``starts`` begins, and the
    pattern is matched at those places only (a ``match`` at a position still sees
    the character before it, so ``\\b`` means what it means in a search). On 2,000
    public tools the limitation cues went from 34 to 8 ms.

    Args:
        pattern: The cues (case-insensitive or not).
        starts: Lower-case literals every match of ``pattern`` starts with (in any
            case): for ``\\bcannot\\b|\\bper (?:call|day)\\b``, ``("can", "per ")``.
    """

    def __init__(self, pattern: re.Pattern[str], starts: tuple[str, ...]) -> None:
        import ahocorasick  # type: ignore[import-not-found]

        if not starts or not all(starts):
            raise ValueError("every match must start with one of some non-empty literals")
        self.pattern = pattern
        self.starts = starts
        self._automaton = ahocorasick.Automaton()
        for literal in starts:
            self._automaton.add_word(literal, len(literal))
        self._automaton.make_automaton()

    def found(self, value: str) -> bool:
        """``self.pattern.search(value) is not None``."""
        if not value.isascii():
            # Lower-casing may move positions (İ becomes two characters) and
            # case-insensitive matching folds a few letters lower() leaves alone
            # (ſ matches s): the literals only rule a text out.
            return search_with_needles(self.pattern, self.starts, value)
        match = self.pattern.match
        for end, size in self._automaton.iter(value.lower()):
            if match(value, end - size + 1) is not None:
                return True
        return False


def stem(word: str) -> str:
    """A crude English stem so ``orders``/``order`` and ``gets``/``get`` compare equal."""
    w = word.lower()
    for suffix in ("ies", "es", "s"):
        if len(w) > 3 and w.endswith(suffix) and not w.endswith("ss"):
            if suffix == "ies":
                return w[:-3] + "y"
            if suffix == "es" and w[-3] in "sxz":
                return w[:-2]
            return w[:-1]
    return w


def words_of(value: str) -> frozenset[str]:
    """A word list written as prose: ``words_of("a b c")`` → ``{"a", "b", "c"}``."""
    return frozenset(value.split())


def injected_names(tool: ToolContract) -> set[str]:
    """Names of top-level injected properties (robust against malformed parameters).

    A new set each call (callers may change it), from one walk per tool object.
    """
    return {f.path[0] for f in injected_fields_of(tool) if len(f.path) == 1}


def injected_fields_of(tool: ToolContract) -> tuple[InjectedField, ...]:
    """Every injected property at any depth, as the exporters and the runtime see them.

    Memoized per tool object; see :func:`studio.contract.model.injected_fields`.
    """
    slots = memo_slots(tool)
    fields = slots.get("injected-fields")
    if fields is None:
        params = params_of(tool)
        # Most tools inject nothing: a look for the key spares the walk that builds
        # a JSON path for every property (~10 ms of 2,000 public tools).
        fields = injected_fields(params) if _holds_key(params, "x-injected") else ()
        slots["injected-fields"] = fields
    return fields


def known_parameters_json(tool: ToolContract, raw: str) -> None:
    """Take note of the tool's parameters as JSON (the cost rules write it for every tool).

    A key shows in JSON as ``"x-injected"``: without that text the parameters inject
    nothing, which spares :func:`injected_fields_of` its own look (~10 ms of 2,000 tools).
    """
    slots = memo_slots(tool)
    if "injected-fields" not in slots and '"x-injected"' not in raw:
        slots["injected-fields"] = ()


def _holds_key(schema: Any, key: str) -> bool:
    """Whether any object of ``schema``, through objects and arrays, has ``key``.

    It reaches every object :func:`studio.contract.model.injected_fields`
    walks (and more), so False means that walk finds nothing.
    """
    stack = [schema]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            if key in node:
                return True
            stack.extend([v for v in node.values() if isinstance(v, (dict, list))])
        elif type(node) is list:
            stack.extend(node)
        elif isinstance(node, (dict, list)):  # a subclass: the walk decides
            return True
    return False


def injected_paths(tool: ToolContract) -> frozenset[str]:
    """JSON paths of injected properties (``parameters.properties.claim.properties.x``)."""
    slots = memo_slots(tool)
    paths = slots.get("injected-paths")
    if paths is None:
        paths = slots["injected-paths"] = frozenset(f.json_path for f in injected_fields_of(tool))
    return paths


def model_parameters(tool: ToolContract, *, keep_injected: bool = False) -> Any:
    """The parameters as a model sees them: ``x-`` keys and injected properties (at any
    depth, and their names in ``required``) removed. A new value each call.

    ``keep_injected`` keeps the injected properties and only drops them from
    ``required`` (to validate an example that may, but need not, show them).
    """
    hidden = injected_paths(tool)

    def strip(value: Any, where: str) -> Any:
        if isinstance(value, list):
            return [strip(v, join_path(where, i)) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        out: dict[Any, Any] = {}
        gone: set[str] = set()
        props = value.get("properties")
        if hidden and isinstance(props, dict):
            gone = {n for n in props if join_path(where, "properties", str(n)) in hidden}
        for key, item in value.items():
            if isinstance(key, str) and key.startswith("x-"):
                continue
            inner = join_path(where, str(key))
            if key == "properties" and gone and not keep_injected and isinstance(item, dict):
                out[key] = {
                    n: strip(v, join_path(inner, n)) for n, v in item.items() if n not in gone
                }
            elif key == "required" and gone and isinstance(item, list):
                out[key] = [r for r in item if r not in gone]
            else:
                out[key] = strip(item, inner)
        return out

    return strip(params_of(tool), "parameters")
