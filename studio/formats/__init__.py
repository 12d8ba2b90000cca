"""Import and export of tool definitions (DESIGN §3, §6).

Each format lives in its own module with the same small surface
(``export_tool``, ``export_registry`` and an import function); this package
keeps the registry of formats and the public API the UI and CLI call.

Name handling on import: a provider tool name that breaks
``^[a-zA-Z0-9_-]{1,64}$`` is sanitised (runs of other characters become
``_``) with a ``guessed`` note; a name with no ASCII letter or digit left, or
one that collides with another tool, fails the import with a FormatError
naming the tool's path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from studio.lazy_exports import LazyExports

if TYPE_CHECKING:
    from studio.contract import Registry, RegistrySettings, ToolContract
    from studio.formats.base import ExportResult, FormatError, ImportResult, Note
    from studio.formats.detect import detect_format
    from studio.formats.files import MAX_FILE_BYTES
    from studio.formats.openai import to_openai_strict
    from studio.formats.provider import ToolCollector

# The public names below load their module when first used (PEP 562), and the
# format modules load when a format is first looked up (:func:`_format`):
# importing ``studio.formats.base`` (the session importers do) or one format
# must not import every format, the provider layer and the risk vocabulary.
_HOMES = {
    "studio.formats.base": ("ExportResult", "FormatError", "ImportResult", "Note"),
    "studio.formats.detect": ("detect_format",),
    "studio.formats.files": ("MAX_FILE_BYTES",),
    "studio.formats.openai": ("to_openai_strict",),
}
_EXPORTS = LazyExports(__name__, _HOMES, globals())

FORMAT_NAMES: tuple[str, ...] = (
    "studio",
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
    "dir",
)

# Formats read but never written: OpenAPI documents (issue #17).
IMPORT_ONLY_FORMATS: tuple[str, ...] = ("openapi",)
_YAML_SUFFIXES = (".yaml", ".yml")


def _openapi() -> Any:
    """The OpenAPI importer, imported when an OpenAPI document is read (YAML, $ref
    resolution: ~50 ms that the other formats, and the session importers that share
    :mod:`studio.formats.base`, need not pay)."""
    from studio.formats import openapi

    return openapi


# Registry name of an import_text() whose document names none.
DEFAULT_IMPORT_NAME = "imported"


class _ToolImporter(Protocol):
    """A format's ``import_tools`` (``owned``: see :class:`ToolCollector`)."""

    def __call__(self, data: Any, source: str, *, owned: bool = False) -> ToolCollector: ...


@dataclass(frozen=True)
class _Format:
    """One format's exporter of a tool and of a registry, and its importer if it has one.

    (A docstring also spares ``dataclass`` computing a signature for the class's
    documentation at import: ``inspect.signature`` over the callables, ~0.7 ms.)
    """

    export_tool: Callable[[ToolContract, RegistrySettings, str], tuple[Any, list[Note]]]
    export_registry: Callable[[Registry], ExportResult]
    import_tools: _ToolImporter | None = None


# Format name → the module that reads and writes it (``dir``: a registry folder).
_FORMAT_MODULES: dict[str, str] = {
    "studio": "studio_doc",
    "openai": "openai",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "mcp": "mcp",
    "dir": "folder",
}
_WRITE_ONLY = ("studio", "dir")  # read by import_registry / import_dir, not import_tools
_FORMATS: dict[str, _Format] = {}


def _format(fmt: str) -> _Format:
    """The format ``fmt``, its module imported on the first lookup."""
    found = _FORMATS.get(fmt)
    if found is not None:
        return found
    module_name = _FORMAT_MODULES.get(fmt)
    if module_name is None:
        from studio.formats.base import FormatError

        known = ", ".join(FORMAT_NAMES)
        raise FormatError(f"unknown format {fmt!r}; known formats: {known}")
    module = import_module(f"{__name__}.{module_name}")
    importer = None if fmt in _WRITE_ONLY else module.import_tools
    found = _FORMATS[fmt] = _Format(module.export_tool, module.export_registry, importer)
    return found


def export_registry(registry: Registry, fmt: str) -> ExportResult:
    """Export a whole registry.

    Args:
        registry: The registry to export.
        fmt: One of :data:`FORMAT_NAMES`.

    Return:
        ``text`` for single-document formats, ``files`` for ``dir``, and a note
        for everything the format cannot carry.

    Raises:
        FormatError: for an unknown format, or a registry the format cannot hold.
    """
    return _format(fmt).export_registry(registry)


def export_tool(
    tool: ToolContract, fmt: str, settings: RegistrySettings | None = None
) -> tuple[Any, list[Note]]:
    """One tool as the format writes it (a JSON value), for preview panes.

    Note paths are relative to the tool (``parameters``; empty for the tool).
    For ``studio`` and ``dir`` the value is the normalised tool document.
    """
    if settings is None:
        from studio.contract.model import RegistrySettings

        settings = RegistrySettings()
    return _format(fmt).export_tool(tool, settings, "")


def write_export(result: ExportResult, out: Path) -> None:
    """Write an export: text to the file ``out``, files into the folder ``out``.

    Files are replaced atomically and never through a symbolic link: a link
    at ``out`` (a file) or inside ``out`` (a folder) is refused by name.

    Raises:
        FormatError: when ``out`` is the wrong kind of path, or a non-empty
            folder that is not a registry folder.
    """
    from studio.formats import files, folder
    from studio.formats.base import FormatError

    if result.files is not None:
        folder.write_files(result.files, out)
        return
    if out.is_dir():
        raise FormatError(f"{out}: is a folder; this format writes one file")
    files.write_file(out, (result.text or "").encode("utf-8"))


def import_path(path: Path, fmt: str = "auto", *, name: str | None = None) -> ImportResult:
    """Import a file, or a registry folder.

    Args:
        path: The file or folder.
        fmt: A format name, or ``auto`` to detect it (a folder is ``dir``).
        name: Registry name; else the document's name, else the file stem.

    The file must be a regular file (not a FIFO or a device) of at most
    :data:`MAX_FILE_BYTES`; inside a folder no link is followed. What the
    studio cannot hold (see :func:`studio.formats.base.load_json`) is refused.

    Raises:
        FormatError: naming the file and, where it applies, line and column or
            the JSON path of each problem. The message is one line.
    """
    from studio.formats import files
    from studio.formats.base import FormatError, ImportResult, load_json

    if fmt not in ("auto", *IMPORT_ONLY_FORMATS):
        _format(fmt)
    _check_name(name, "the registry name given")
    if path.is_dir():
        if fmt not in ("auto", "dir"):
            raise FormatError(f"{path}: is a folder; only the 'dir' format reads folders")
        # Here only: a file's import needs none of the folder layer (skills, zip, ~3 ms).
        from studio.formats import folder

        registry, notes = folder.import_dir(path, name)
        _check_name(registry.name, "registry.json: name")
        return ImportResult(registry, notes, "dir")
    if fmt == "dir":
        raise FormatError(f"{path}: the 'dir' format reads a folder, not a file")
    if not path.exists() and not path.is_symlink():
        raise FormatError(f"{path}: file not found")
    text = files.read_text(path, path.name)
    if fmt == "openapi" or (fmt == "auto" and path.suffix.lower() in _YAML_SUFFIXES):
        data = _openapi().read_document(text, path.name)
        return _openapi().import_openapi(data, path.name, name=name).result
    # files.read_text decodes UTF-8 strictly.
    data = load_json(text, path.name, from_utf8=True)
    return _import_data(data, fmt, path.name, name, path.stem)


def import_text(text: str, fmt: str = "auto", *, name: str | None = None) -> ImportResult:
    """Import a document given as text (pasted, or read by the caller).

    The registry is named ``name``, else the document's name, else
    :data:`DEFAULT_IMPORT_NAME`.
    """
    from studio.formats.base import FormatError, load_json

    if fmt == "dir":
        raise FormatError("the 'dir' format reads a folder; use import_path")
    if fmt not in ("auto", *IMPORT_ONLY_FORMATS):
        _format(fmt)
    _check_name(name, "the registry name given")
    source = "input"
    if fmt == "openapi":
        data = _openapi().read_document(text, source)
        return _openapi().import_openapi(data, source, name=name).result
    return _import_data(load_json(text, source), fmt, source, name, DEFAULT_IMPORT_NAME)


def _import_data(data: Any, fmt: str, source: str, name: str | None, fallback: str) -> ImportResult:
    from studio.formats import studio_doc
    from studio.formats.base import FormatError, ImportResult
    from studio.formats.detect import detect_format

    if fmt == "auto":
        try:
            fmt = detect_format(data)
        except FormatError as exc:
            raise FormatError(f"{source}: {exc}") from exc
    if fmt == "openapi":
        return _openapi().import_openapi(data, source, name=name).result
    if fmt == "studio":
        registry = studio_doc.import_registry(data, source, name, fallback)
        _check_name(registry.name, f"{source}: name")
        return ImportResult(registry, [], fmt)
    import_tools = _format(fmt).import_tools
    assert import_tools is not None  # only studio and dir lack one, both handled above
    # load_json's value, which nothing else holds: the tools keep its schemas.
    collector = import_tools(data, source, owned=True)
    return ImportResult(collector.registry(name or fallback, source), collector.notes, fmt)


def _check_name(name: str | None, where: str) -> None:
    """Refuse a registry name with a line break or another control character.

    Such a name would break every one-line listing (CLI output, logs).
    """
    if not name:
        return
    from studio.formats.base import FormatError, has_control

    if has_control(name):
        raise FormatError(
            f"{where}: {name!r} holds a line break or another control character; "
            "a registry name must be one line of printable text"
        )


__all__ = [
    "DEFAULT_IMPORT_NAME",
    "FORMAT_NAMES",
    "IMPORT_ONLY_FORMATS",
    "MAX_FILE_BYTES",
    "ExportResult",
    "FormatError",
    "ImportResult",
    "Note",
    "detect_format",
    "export_registry",
    "export_tool",
    "import_path",
    "import_text",
    "to_openai_strict",
    "write_export",
]


def __getattr__(name: str) -> Any:
    return _EXPORTS.load(name)


def __dir__() -> list[str]:
    return _EXPORTS.names(__all__)
