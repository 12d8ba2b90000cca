"""The undo stack's labels read in the interface language (Edit menu, toolbar)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from PySide6.QtWidgets import QApplication

from studio.contract import ToolContract
from studio.editing.edits import (
    AddProperty,
    RemoveProperty,
    RenameProperty,
    ReplaceTool,
    SetField,
    SetPropertyKey,
    SetRequired,
)
from studio.editing.workspace import InsertTool, RemoveTool
from studio.ui import i18n
from studio.ui.undo_labels import shown

TOOL = ToolContract(name="query_invoices")
FIELDS = [f.name for f in dataclasses.fields(ToolContract) if f.name != "parameters"]
LABELS = [SetField(field, None).label for field in FIELDS] + [
    SetPropertyKey(("limit",), "description", "x").label,
    SetRequired(("limit",), True).label,
    SetRequired(("limit",), False).label,
    AddProperty(("page", "size"), {"type": "integer"}).label,
    RemoveProperty(("limit",)).label,
    RenameProperty(("limit",), "max_rows").label,
    ReplaceTool(TOOL).label,
    InsertTool.text,
    RemoveTool.text,
    "Remove tool",
]


@pytest.fixture
def chinese(qapp: QApplication):
    i18n.apply_language(qapp, "zh_CN")
    yield qapp
    i18n.apply_language(qapp, "en")


def test_english_labels_are_shown_as_they_are(qapp: QApplication) -> None:
    assert [shown(label) for label in LABELS] == LABELS


@pytest.mark.parametrize("label", LABELS)
def test_every_editing_label_reads_in_chinese(chinese: QApplication, label: str) -> None:
    words = shown(label)
    # Parameter paths and names stay as they are; no English word of the sentence is left.
    left = set(re.findall(r"[A-Za-z]{3,}", words)) - {"limit", "page", "size", "max_rows", "JSON"}
    left -= {"max", "rows", "Schema", "description"}  # a JSON Schema keyword stays as it is
    assert not left, words


def test_examples_in_chinese(chinese: QApplication) -> None:
    assert shown("Edit summary") == "编辑摘要"
    assert shown("Rename parameter limit to max_rows") == "将参数 limit 重命名为 max_rows"
    assert shown("Apply quick fix: add usage") == "Apply quick fix: add usage"  # another shape
    assert shown("Edit nonsense field") == "Edit nonsense field"
