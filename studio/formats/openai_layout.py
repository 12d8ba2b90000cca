"""One writer and one reader for OpenAI function tools, in either layout.

Chat Completions nests a tool's fields under ``function``
(``{"type": "function", "function": {"name", "description", "parameters"}}``);
the Responses API puts them beside ``type``
(``{"type": "function", "name", "description", "parameters"}``). Everything
else is the same for both: the loss notes, the skipped built-in tools, the
strict-mode note. So :class:`FunctionLayout` holds it once and the format
modules only say where the fields sit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.contract import Registry, RegistrySettings, ToolContract, join_path
from studio.contract.document import provider_settings
from studio.formats.base import ExportResult, FormatError, Note, dump_json
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.provider_fields import (
    CHAT_KEEPS,
    RESPONSES_KEEPS,
    dropped_note,
    openai_fields,
    read_options,
)
from studio.formats.schema import contract_notes, model_view

# The function keys an import reads (Chat defines the first four; the rest are Responses').
_FUNCTION_KEYS = (
    "name",
    "description",
    "parameters",
    "strict",
    "defer_loading",
    "allowed_callers",
    "output_schema",
)


@dataclass(frozen=True)
class FunctionLayout:
    """Where an OpenAI format puts the fields of a function tool.

    Attributes:
        label: The format's label in notes (``OpenAI tools``).
        nested_under: The entry key that holds name, description and
            parameters (``function``), or None when they sit beside ``type``.
    """

    label: str
    nested_under: str | None = None

    def export_tool(
        self, tool: ToolContract, settings: RegistrySettings, path: str = ""
    ) -> tuple[dict[str, Any], list[Note]]:
        """One function tool entry and its loss notes."""
        description, schema, notes = model_view(tool, settings, path)
        responses = self.nested_under is None
        notes += contract_notes(
            tool,
            path,
            self.label,
            settings.description_template,
            keeps_title=False,
            keeps_output_schema=responses,
        )
        function: dict[str, Any] = {"name": tool.name, "description": description}
        strict = tool.provider.strict
        if strict:
            schema, strict_notes = _strict_schema(schema, join_path(path, "parameters"))
            notes += strict_notes
        function["parameters"] = schema
        if strict is not None:
            function["strict"] = strict
        function.update(openai_fields(tool, responses=responses))
        if responses and tool.output_schema is not None:
            function["output_schema"] = tool.output_schema
        notes += dropped_note(tool, path, self.label, RESPONSES_KEEPS if responses else CHAT_KEEPS)
        if responses:
            return {"type": "function", **function}, notes
        return {"type": "function", str(self.nested_under): function}, notes

    def export_registry(self, registry: Registry) -> ExportResult:
        """The ``tools`` array of a request (Responses: namespaced tools grouped)."""
        entries, notes = export_entries(registry, self.export_tool, self.label)
        if self.nested_under is None:
            entries, notes = _group_namespaces(registry, entries, notes)
        return ExportResult(dump_json(entries), None, notes)

    def import_tools(self, data: Any, source: str, *, owned: bool = False) -> ToolCollector:
        """Read a ``tools`` array (bare, or inside a request body).

        Tools of another type than ``function`` (built-in ones such as web
        search) are skipped with a note. Paths in notes and problems name the
        object that holds the function's fields (``tools[2].function``).
        ``owned``: as for :class:`ToolCollector`.
        """
        collector = ToolCollector(owned=owned)
        for path, entry in self._entries(data, source, collector):
            if not isinstance(entry, dict):
                collector.problem(path, "must be an object")
                continue
            namespace = entry.pop(_NAMESPACE_MARK, "")
            if entry.get("type") != "function":
                collector.note(path, f"tool of type {entry.get('type')!r} skipped", "lost")
                continue
            if self.nested_under is None:
                function, fpath = entry, path
                unknown_keys(function, ("type", *_FUNCTION_KEYS), path, collector)
            else:
                # Keys beside "type" and the nested object are not checked: Chat defines none.
                nested = entry.get(self.nested_under)
                fpath = join_path(path, self.nested_under)
                if not isinstance(nested, dict):
                    collector.problem(fpath, "must be an object with name, description, parameters")
                    continue
                function = nested
                unknown_keys(function, _FUNCTION_KEYS, fpath, collector)
            doc: dict[str, Any] = {
                "name": function.get("name"),
                "description": text_field(function, "description", fpath, collector),
            }
            if "parameters" in function:
                doc["parameters"] = function["parameters"]
            options = read_options(function, fpath, collector, provider="openai") or {}
            if function.get("strict") and isinstance(doc.get("parameters"), dict):
                doc["parameters"] = _from_strict(doc["parameters"])
            if namespace:
                options["namespace"] = namespace
            if options:
                doc["provider"] = options
            if self.nested_under is None and isinstance(function.get("output_schema"), dict):
                doc["output_schema"] = function["output_schema"]
            collector.add(doc, fpath)
        return collector

    def _entries(self, data: Any, source: str, collector: ToolCollector) -> list[tuple[str, Any]]:
        """The function entries, with the tools of Responses namespaces flattened out.

        A namespace's description becomes the registry's
        ``settings.provider.openai.namespaces`` entry.
        """
        out: list[tuple[str, Any]] = []
        for path, entry in tool_list(data, source):
            if self.nested_under is not None or not isinstance(entry, dict):
                out.append((path, entry))
                continue
            if entry.get("type") != "namespace":
                out.append((path, dict(entry)))
                continue
            name = entry.get("name")
            tools = entry.get("tools")
            if not isinstance(name, str) or not isinstance(tools, list):
                collector.problem(path, "a namespace needs a name and a tools array")
                continue
            described = entry.get("description")
            if isinstance(described, str):
                spaces = collector.settings_extra.setdefault("provider", {})
                spaces.setdefault("openai", {}).setdefault("namespaces", {})[name] = described
            for i, tool in enumerate(tools):
                item = dict(tool) if isinstance(tool, dict) else tool
                if isinstance(item, dict):
                    item[_NAMESPACE_MARK] = name
                out.append((join_path(path, "tools", i), item))
        return out


_NAMESPACE_MARK = "\x00namespace"
"""Set on entries flattened out of a namespace (a key no JSON document can hold)."""


def _strict_schema(schema: dict[str, Any], path: str) -> tuple[dict[str, Any], list[Note]]:
    """The strict form of ``schema`` (notes located under ``path``)."""
    from studio.formats.openai import to_openai_strict  # openai imports this module

    try:
        strict, notes = to_openai_strict(schema)
    except FormatError as exc:
        return schema, [Note(path, f"strict form not built: {exc}", "lost")]
    return strict, [
        Note(join_path(path, n.path) if n.path else path, n.message, n.kind) for n in notes
    ]


def _from_strict(schema: dict[str, Any]) -> dict[str, Any]:
    """Undo what strict mode demanded: optional properties are the nullable ones again.

    A strict schema lists every property as required and widens the optional
    ones with ``null``; the contract keeps them optional and non-null, which
    the strict export produces again.
    """
    from studio.formats.openai import from_openai_strict

    return from_openai_strict(schema)


def _group_namespaces(
    registry: Registry, entries: list[Any], notes: list[Note]
) -> tuple[list[Any], list[Note]]:
    """Responses entries with namespaced functions gathered into ``namespace`` tools.

    A namespace sits where its first tool was; its tools lose ``type`` only in
    as far as the namespace tool shape wants them (they keep it: ``function``).
    """
    spaces = provider_settings(registry.settings).namespaces
    out: list[Any] = []
    groups: dict[str, dict[str, Any]] = {}
    for tool, entry in zip(registry.tools, entries, strict=True):
        name = tool.provider.namespace
        if not name:
            out.append(entry)
            continue
        if name not in groups:
            if name not in spaces:
                notes.append(
                    Note(
                        "settings.provider.openai.namespaces",
                        f"namespace {name!r} has no description: the model sees an empty one",
                        "info",
                    )
                )
            groups[name] = {
                "type": "namespace",
                "name": name,
                "description": spaces.get(name, ""),
                "tools": [],
            }
            out.append(groups[name])
        groups[name]["tools"].append(entry)
    return out, notes
