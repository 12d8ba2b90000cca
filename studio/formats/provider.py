"""Shared machinery of the provider formats (OpenAI, Anthropic, Gemini, MCP).

Exports run each tool through a format's ``export_tool`` and add the summary
note; imports feed studio-shaped tool documents to :class:`ToolCollector`,
which validates them with :func:`studio.contract.parse_tool` and reports
problems at their path in the *source* document (``tools[2].function.parameters``),
since that is the file the user has to fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from studio.contract import (
    ContractError,
    Problem,
    Registry,
    RegistrySettings,
    ToolContract,
    join_path,
    parse_tool,
)
from studio.contract.model import NAME_PATTERN
from studio.contract.risk import guess_risk
from studio.formats.base import FormatError, Note, has_control, kind_of
from studio.formats.schema import blocks_summary

ExportTool = Callable[[ToolContract, RegistrySettings, str], tuple[Any, list[Note]]]

_NAME_RE = re.compile(NAME_PATTERN)
_INVALID_RUN = re.compile(r"[^A-Za-z0-9_-]+")


def export_entries(
    registry: Registry, export_tool: ExportTool, fmt: str
) -> tuple[list, list[Note]]:
    """Every tool of ``registry`` as provider entries, with all loss notes."""
    entries = []
    notes = [blocks_summary(fmt)]
    for i, tool in enumerate(registry.tools):
        entry, tool_notes = export_tool(tool, registry.settings, f"tools[{i}]")
        entries.append(entry)
        notes.extend(tool_notes)
    return entries, notes


def tool_list(data: Any, source: str, key: str = "tools") -> list[tuple[str, Any]]:
    """``(path, entry)`` pairs from a bare list or an object holding ``key``.

    A bare list is labelled ``tools[i]``: it plays the role of the ``tools``
    array of a request, and ``[2]`` alone would read poorly in messages.
    """
    if isinstance(data, dict) and isinstance(data.get(key), list):
        items = data[key]
    elif isinstance(data, list):
        items = data
    elif isinstance(data, dict) and key in data:
        raise FormatError(f"{source}: {key}: must be an array of tools, not {kind_of(data[key])}")
    else:
        raise FormatError(f"{source}: expected a list of tools or an object with {key!r}")
    return [(f"{key}[{i}]", item) for i, item in enumerate(items)]


def sanitise_name(raw: str) -> str | None:
    """A valid tool name made from ``raw``, or None when nothing usable is left.

    Runs of forbidden characters become ``_`` (``get.weather`` → ``get_weather``);
    a name with no ASCII letter or digit at all (``查询发票``) is unusable,
    because ``____`` would name nothing a reviewer could recognise.
    """
    name = _INVALID_RUN.sub("_", raw).strip("_")[:64]
    return name if re.search(r"[A-Za-z0-9]", name) else None


class ToolCollector:
    """Validates imported tools one by one and gathers notes and problems.

    Args:
        renames: Provider key for each studio key whose name differs
            (``{"parameters": "inputSchema"}``), so problem paths name the
            key the source document really has.
        owned: The documents added were decoded for this import and nothing
            else holds them: tools keep their schemas instead of copies (see
            :func:`~studio.contract.document.parse_tool`).
    """

    def __init__(self, renames: dict[str, str] | None = None, *, owned: bool = False) -> None:
        self.renames = renames or {}
        self.owned = owned
        self.tools: list[ToolContract] = []
        self.notes: list[Note] = []
        self.problems: list[Problem] = []
        self.settings_extra: dict[str, Any] = {}
        """Registry settings an import found (``provider`` options), kept in ``settings.extra``."""
        self._seen: dict[str, str] = {}

    def note(self, path: str, message: str, kind: str = "info") -> None:
        """Record a note (``kind`` as for :class:`Note`)."""
        self.notes.append(Note(path, message, kind))  # type: ignore[arg-type]

    def problem(self, path: str, message: str) -> None:
        """Record a problem that will fail the import."""
        self.problems.append(Problem(path, message))

    def add(self, doc: dict[str, Any], path: str) -> None:
        """Validate a studio-shaped tool document found at ``path``.

        ``doc`` holds only the fields the provider gave (name, title,
        description, parameters, risk); everything else takes house defaults.
        Without a risk tier (OpenAI, Anthropic, Gemini carry none) the tier is
        guessed from the verb (:func:`studio.contract.risk.guess_risk`) and
        the guess noted: unknown is write, never silently read.
        """
        name = doc.get("name")
        if not isinstance(name, str) or not name:
            self.problem(self._where(path, "name"), f"a tool needs a name, not {kind_of(name)}")
            return
        if has_control(name):
            # Not sanitised: a line break in a name means the document is damaged.
            self.problem(
                self._where(path, "name"),
                f"{name!r} holds a line break or another control character",
            )
            return
        if not _NAME_RE.fullmatch(name):
            fixed = sanitise_name(name)
            if fixed is None:
                self.problem(
                    self._where(path, "name"),
                    f"{name!r} cannot be made a tool name ({NAME_PATTERN})",
                )
                return
            self.note(
                self._where(path, "name"),
                f"name {name!r} does not match {NAME_PATTERN}; renamed {fixed!r}",
                "guessed",
            )
            doc = {**doc, "name": fixed}
            name = fixed
        if name in self._seen:
            self.problem(
                self._where(path, "name"), f"{name!r} is already the name of {self._seen[name]}"
            )
            return
        self._seen[name] = path
        params = doc.get("parameters")
        if params is None:
            self.note(
                self._where(path, "parameters"),
                "no parameters; using an empty object schema",
                "guessed",
            )
            doc = {**doc, "parameters": {"type": "object", "properties": {}}}
        elif isinstance(params, dict) and "type" not in params:
            self.note(
                self._where(path, "parameters"), "schema has no type; assumed 'object'", "guessed"
            )
            doc = {**doc, "parameters": {"type": "object", **params}}
        if "risk" not in doc:
            description = doc.get("description")
            tier, why = guess_risk(name, description if isinstance(description, str) else "")
            doc = {**doc, "risk": tier.value}
            if why:
                self.note(path, why, "guessed")
        try:
            self.tools.append(parse_tool(doc, path, owned=self.owned))
        except ContractError as exc:
            self.problems.extend(
                Problem(self._rename(p.path, path), p.message) for p in exc.problems
            )

    def registry(self, name: str, source: str) -> Registry:
        """The registry of all tools added, or a FormatError listing every problem."""
        if self.problems:
            raise FormatError.from_problems(self.problems, source)
        settings = RegistrySettings(extra=self.settings_extra)
        return Registry(name=name, settings=settings, tools=tuple(self.tools))

    def _where(self, path: str, key: str) -> str:
        return join_path(path, self.renames.get(key, key))

    def _rename(self, problem_path: str, base: str) -> str:
        for ours, theirs in self.renames.items():
            prefix = join_path(base, ours)
            if problem_path == prefix or problem_path.startswith((prefix + ".", prefix + "[")):
                return join_path(base, theirs) + problem_path[len(prefix) :]
        return problem_path


def text_field(entry: dict[str, Any], key: str, path: str, collector: ToolCollector) -> str:
    """A string field of a provider entry; a wrong type is a problem, absence is ""."""
    value = entry.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        collector.problem(join_path(path, key), f"must be a string, not {kind_of(value)}")
        return ""
    return value


def unknown_keys(
    entry: dict[str, Any], known: tuple[str, ...], path: str, collector: ToolCollector
) -> None:
    """One note for the keys of ``entry`` the import does not keep."""
    extra = [k for k in entry if k not in known]
    if extra:
        collector.note(path, f"keys not kept: {', '.join(extra)}", "lost")
