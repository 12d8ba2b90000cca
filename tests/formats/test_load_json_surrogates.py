"""A lone surrogate is refused whether it is escaped or, in text not from UTF-8, raw.

A file's text is decoded from UTF-8, which has no encoded surrogates: only an
escape can make one there, so that text itself is not searched. Text from
elsewhere (pasted, built by a caller) is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.formats import FormatError, import_path
from studio.formats.base import load_json

_TOOL = '[{"type": "function", "function": {"name": "get_x", "description": %s}}]'


def test_escaped_surrogate_in_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(_TOOL % '"caf\\u00e9 \\ud800 \u00e9"', "utf-8")
    with pytest.raises(FormatError, match="lone surrogate"):
        import_path(path)


def test_a_file_with_paired_escapes_and_other_scripts_loads(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(_TOOL % '"\\ud83d\\ude00 查询 \u00e9"', "utf-8")
    (tool,) = import_path(path).registry.tools
    assert tool.description == "\U0001f600 查询 é"


def test_raw_surrogate_in_text_not_from_utf8_is_refused() -> None:
    with pytest.raises(FormatError, match="lone surrogate"):
        load_json(_TOOL % '"\u00e9 \ud800"', "pasted")
