"""Whether an import is of an OpenAPI document: ``--format openapi``, or detected under ``auto``.

An OpenAPI document is imported apart from the other formats (its operations
are picked and its HTTP targets stored), so ``studio import`` and the GUI's
import dialog decide first whether a file is one, alike: from the format
and the file name, then for a JSON file from its parsed document's top-level
keys (:func:`document_is_openapi`, like :func:`studio.formats.detect_format`;
a key-sorted document names "openapi" after its components, past any head a
quicker probe would read).
"""

from __future__ import annotations

from pathlib import Path

from studio.formats.base import FormatError

YAML_SUFFIXES = (".yaml", ".yml")
"""Only OpenAPI documents are imported from YAML, so the suffix alone decides."""


def is_openapi_import(path: Path, fmt: str) -> bool:
    """True when ``path`` (a file or folder) is to be imported as an OpenAPI document.

    ``fmt`` is the format asked for (``auto`` to detect); the content is read
    only for a file under ``auto`` whose name does not decide.
    """
    if fmt == "openapi":
        return True
    if fmt != "auto" or path.is_dir():
        return False
    if path.suffix.lower() in YAML_SUFFIXES:
        return True
    return document_is_openapi(path)


def document_is_openapi(path: Path) -> bool:
    """The parsed JSON document is OpenAPI; False when it does not read (the import says why)."""
    from studio.formats import files
    from studio.formats.base import load_json
    from studio.formats.detect import detect_format

    try:
        head = files.read_text(path, path.name)
        return detect_format(load_json(head, path.name)) == "openapi"
    except FormatError:
        return False
