"""Whether an import is of an OpenAPI document: ``--format openapi``, or detected under ``auto``.

An OpenAPI document is imported apart from the other formats (its operations
are picked and its HTTP targets stored), so ``studio import`` and the GUI's
import dialog decide first whether a file is one. They decide alike from the
format and the file name; what they read of a JSON file differs, so each names
its probe:

- :func:`document_is_openapi` (``studio import``): the whole document is parsed
  and its top-level keys decide, like :func:`studio.formats.detect_format`.
- :func:`head_names_openapi` (the GUI's import worker): the first 64 KiB are
  searched for an ``"openapi":`` or ``"swagger":`` key, without parsing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from studio.formats.base import FormatError

YAML_SUFFIXES = (".yaml", ".yml")
"""Only OpenAPI documents are imported from YAML, so the suffix alone decides."""

HEAD_BYTES = 65536
"""How much of a JSON file :func:`head_names_openapi` reads."""

_OPENAPI_KEY = re.compile(r'"(?:openapi|swagger)"\s*:')


def is_openapi_import(path: Path, fmt: str, content_says: Callable[[Path], bool]) -> bool:
    """True when ``path`` is to be imported as an OpenAPI document.

    Args:
        path: The file (or folder) to import.
        fmt: The format asked for (``auto`` to detect).
        content_says: Asked only for a file under ``auto`` whose name does not
            decide: :func:`document_is_openapi` or :func:`head_names_openapi`.
    """
    if fmt == "openapi":
        return True
    if fmt != "auto" or path.is_dir():
        return False
    if path.suffix.lower() in YAML_SUFFIXES:
        return True
    return content_says(path)


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


def head_names_openapi(path: Path) -> bool:
    """The file's first 64 KiB hold an ``"openapi":`` or ``"swagger":`` key.

    The file is opened like every import (a regular file only: no FIFO, no
    device); False when it cannot be (the import says why).
    """
    from studio.formats.files import open_regular

    try:
        fd = open_regular(path, path.name)
    except FormatError:
        return False
    try:
        head = os.read(fd, HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return False
    finally:
        os.close(fd)
    return _OPENAPI_KEY.search(head) is not None
