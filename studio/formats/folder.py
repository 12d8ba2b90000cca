"""Registry-as-code: a folder with ``registry.json`` and ``tools/<name>.json``.

One file per tool keeps reviews and merges small in git. Files hold the
normalised documents (key order of :func:`studio.contract.tool_to_dict`,
indent 2, trailing newline, LF endings), so exporting an unchanged registry
rewrites identical bytes and importing the folder gives the same hash.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from studio.contract import (
    ContractError,
    Problem,
    Registry,
    RegistrySettings,
    ToolContract,
    join_path,
    parse_registry,
    parse_tool,
    settings_to_dict,
    tool_to_dict,
)
from studio.contract.document import REGISTRY_FORMAT
from studio.formats.base import ExportResult, FormatError, Note, dump_json, kind_of, load_json

NAME = "dir"
DIR_FORMAT = "tool-registry-studio/registry-dir@1"
MANIFEST = "registry.json"
TOOLS_DIR = "tools"


def tool_file(name: str) -> str:
    """Relative path of a tool's file (names are already safe file names)."""
    return f"{TOOLS_DIR}/{name}.json"


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """The content of one tool file; nothing is lost."""
    return tool_to_dict(tool), []


def export_registry(registry: Registry) -> ExportResult:
    """The files of the registry folder.

    Raises:
        FormatError: when two tool names differ only in case, since their files
            would overwrite each other on macOS and Windows.
    """
    seen: dict[str, str] = {}
    for tool in registry.tools:
        other = seen.setdefault(tool.name.lower(), tool.name)
        if other != tool.name:
            raise FormatError(
                f"tools {other!r} and {tool.name!r} differ only in case; their files would "
                "collide on case-insensitive file systems"
            )
    manifest = {
        "format": DIR_FORMAT,
        "name": registry.name,
        "title": registry.title,
        "description": registry.description,
        "settings": settings_to_dict(registry.settings),
        "tools": [t.name for t in registry.tools],
    }
    files = {MANIFEST: dump_json(manifest)}
    files.update({tool_file(t.name): dump_json(tool_to_dict(t)) for t in registry.tools})
    return ExportResult(None, files, [])


def is_registry_dir(path: Path) -> bool:
    """True when ``path`` is a folder this format wrote (its manifest says so)."""
    try:
        manifest = load_json((path / MANIFEST).read_text("utf-8"), MANIFEST)
    except (OSError, UnicodeDecodeError, FormatError):
        return False
    return isinstance(manifest, dict) and manifest.get("format") == DIR_FORMAT


def write_files(files: dict[str, str], out: Path) -> None:
    """Write a registry folder, removing tool files of tools that no longer exist.

    Raises:
        FormatError: when ``out`` is a file, or a non-empty folder that is not a
            registry folder (writing there could mix our files with someone else's).
    """
    if out.exists() and not out.is_dir():
        raise FormatError(f"{out}: is a file; the 'dir' format writes a folder")
    if out.is_dir() and any(out.iterdir()) and not is_registry_dir(out):
        raise FormatError(
            f"{out}: folder is not empty and is not a registry folder (no {MANIFEST})"
        )
    for rel, content in files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        # Bytes, not text mode: LF endings on every platform keep git diffs clean.
        target.write_bytes(content.encode("utf-8"))
    tools_dir = out / TOOLS_DIR
    if tools_dir.is_dir():
        for stale in tools_dir.glob("*.json"):
            if f"{TOOLS_DIR}/{stale.name}" not in files:
                stale.unlink()


def _read(path: Path, rel: str) -> Any:
    try:
        text = (path / rel).read_text("utf-8-sig")
    except FileNotFoundError as exc:
        raise FormatError(f"{rel}: file not found in {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"{rel}: cannot be read: {exc}") from exc
    return load_json(text, rel)


def import_dir(path: Path, name: str | None = None) -> tuple[Registry, list[Note]]:
    """Read a registry folder back.

    Problems keep registry paths (``tools[2].parameters.type``) on
    ``FormatError.problems``; the message names the file to fix.
    """
    manifest = _read(path, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != DIR_FORMAT:
        raise FormatError(f"{MANIFEST}: format: expected {DIR_FORMAT!r}")
    names = manifest.get("tools", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise FormatError(
            f"{MANIFEST}: tools: must be an array of tool names, not {kind_of(names)}"
        )
    problems: list[Problem] = []
    lines: list[str] = []
    docs = []
    for i, tool_name in enumerate(names):
        rel = tool_file(tool_name)
        if "/" in tool_name or "\\" in tool_name or tool_name.startswith("."):
            raise FormatError(f"{MANIFEST}: tools[{i}]: {tool_name!r} is not a tool name")
        data = _read(path, rel)
        base = f"tools[{i}]"
        found: list[Problem] = []
        if isinstance(data, dict) and data.get("name") != tool_name:
            found.append(
                Problem(
                    join_path(base, "name"), f"{data.get('name')!r} does not match the file name"
                )
            )
        try:
            parse_tool(data, base)
        except ContractError as exc:
            found.extend(exc.problems)
        for p in found:
            problems.append(p)
            lines.append(f"{rel}: {p.path[len(base) + 1 :] or '(document)'}: {p.message}")
        docs.append(data)
    if problems:
        raise FormatError("; ".join(lines), problems)
    notes = [
        Note(f"{TOOLS_DIR}/{f.name}", f"not listed in {MANIFEST}; not imported", "lost")
        for f in sorted((path / TOOLS_DIR).glob("*.json"))
        if f.stem not in names
    ]
    doc = {
        "format": REGISTRY_FORMAT,
        "name": manifest.get("name") or path.resolve().name,
        "title": manifest.get("title", ""),
        "description": manifest.get("description", ""),
        "settings": manifest.get("settings", {}),
        "tools": docs,
    }
    try:
        # Tools were checked above; the registry-level checks (names, settings) remain.
        registry = parse_registry(doc, check_schema=False)
    except ContractError as exc:
        raise FormatError.from_contract_error(exc, MANIFEST) from exc
    if name:
        registry = dataclasses.replace(registry, name=name)
    return registry, notes
