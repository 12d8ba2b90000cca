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
from studio.formats.base import ExportResult, Note, dump_json
from studio.formats.provider import (
    ToolCollector,
    export_entries,
    text_field,
    tool_list,
    unknown_keys,
)
from studio.formats.schema import contract_notes, model_view

# The function keys an import reads ("strict" only to say it is not kept).
_FUNCTION_KEYS = ("name", "description", "parameters", "strict")


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
        notes += contract_notes(
            tool, path, self.label, settings.description_template, keeps_title=False
        )
        function = {"name": tool.name, "description": description, "parameters": schema}
        if self.nested_under is None:
            return {"type": "function", **function}, notes
        return {"type": "function", self.nested_under: function}, notes

    def export_registry(self, registry: Registry) -> ExportResult:
        """The ``tools`` array of a request."""
        entries, notes = export_entries(registry, self.export_tool, self.label)
        return ExportResult(dump_json(entries), None, notes)

    def import_tools(self, data: Any, source: str) -> ToolCollector:
        """Read a ``tools`` array (bare, or inside a request body).

        Tools of another type than ``function`` (built-in ones such as web
        search) are skipped with a note. Paths in notes and problems name the
        object that holds the function's fields (``tools[2].function``).
        """
        collector = ToolCollector()
        for path, entry in tool_list(data, source):
            if not isinstance(entry, dict):
                collector.problem(path, "must be an object")
                continue
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
            _note_strict(function, fpath, collector)
            doc = {
                "name": function.get("name"),
                "description": text_field(function, "description", fpath, collector),
            }
            if "parameters" in function:
                doc["parameters"] = function["parameters"]
            collector.add(doc, fpath)
        return collector


def _note_strict(function: dict[str, Any], path: str, collector: ToolCollector) -> None:
    """Strict mode is a request option, not part of a contract: say so."""
    if function.get("strict"):
        collector.note(
            join_path(path, "strict"),
            "strict mode not kept; the schema is kept as written (in strict mode every "
            "property is required and optional ones are nullable)",
            "lost",
        )
