"""The registry and tool list models follow the store and the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from registry_db import RegistryStore, UpsertTool
from studio.contract import RiskTier, ToolContract
from studio.editing import DraftWorkspace, EditTool, InsertTool, RemoveTool, SetField
from studio.ui.models.registry_list_model import RegistryListModel
from studio.ui.models.tool_list_model import DIRTY_MARKER, ToolFilterModel, ToolListModel

TOOLS = [
    ToolContract("search_policy", title="Search policy", summary="Search policy clauses."),
    ToolContract("query_invoices", title="Invoices", summary="Find the employee's invoices."),
    ToolContract(
        "create_reimbursement_ticket",
        title="File a claim",
        summary="File a reimbursement claim.",
        risk=RiskTier.WRITE,
    ),
]


@pytest.fixture(autouse=True)
def _app(qapp):
    """Decoration icons are pixmaps, which need the application object."""
    return qapp


@pytest.fixture
def store(tmp_path: Path) -> RegistryStore:
    store = RegistryStore.open(tmp_path / "studio.sqlite3")
    store.create_registry("travel", title="Travel reimbursement")
    store.create_registry("orders")
    store.save_draft("travel", [UpsertTool(t) for t in TOOLS])
    yield store
    store.close()


@pytest.fixture
def workspace(store: RegistryStore) -> DraftWorkspace:
    return DraftWorkspace.load(store, "travel")


def _names(model) -> list[str]:
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def test_registry_list_model(qtmodeltester, store: RegistryStore) -> None:
    model = RegistryListModel(store.list_registries())
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    row = model.row_of("travel")
    index = model.index(row, 0)
    assert index.data() == "Travel reimbursement"
    assert index.data(RegistryListModel.NameRole) == "travel"
    assert "3 tools" in index.data(Qt.ItemDataRole.ToolTipRole)
    # An untitled registry shows its name.
    assert model.index(model.row_of("orders"), 0).data() == "orders"
    model.set_registries([])
    qtmodeltester.check(model)
    assert model.rowCount() == 0


def test_tool_list_model_rows_and_roles(qtmodeltester, workspace: DraftWorkspace) -> None:
    model = ToolListModel(workspace)
    qtmodeltester.check(model)
    assert _names(model) == [t.name for t in TOOLS]
    write = model.index(2, 0)
    assert write.data(ToolListModel.RiskRole) == "write"
    assert not write.data(Qt.ItemDataRole.DecorationRole).isNull()
    assert write.data(ToolListModel.DirtyRole) is False
    assert write.data(ToolListModel.KeyRole) == workspace.entries[2].key


def test_tool_list_model_follows_inserts_and_removes(
    qtmodeltester, qtbot, workspace: DraftWorkspace
) -> None:
    model = ToolListModel(workspace)
    entry = workspace.new_entry(ToolContract("new_tool"))
    with qtbot.wait_signal(model.rowsInserted):
        workspace.run(InsertTool(1, entry))
    qtmodeltester.check(model)
    assert model.rowCount() == 4
    assert model.index(1, 0).data() == f"{DIRTY_MARKER} new_tool"
    assert model.index(1, 0).data(ToolListModel.DirtyRole) is True

    with qtbot.wait_signal(model.rowsRemoved):
        undo = workspace.run(RemoveTool(workspace.entries[0].key))
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    workspace.run(undo)
    qtmodeltester.check(model)
    assert model.index(0, 0).data() == "search_policy"  # back where it was saved


def test_tool_list_model_marks_edits_and_clears_on_save(
    qtbot, store: RegistryStore, workspace: DraftWorkspace
) -> None:
    model = ToolListModel(workspace)
    key = workspace.entries[1].key
    with qtbot.wait_signal(model.dataChanged):
        workspace.run(EditTool(key, SetField("summary", "Changed.")))
    assert model.index(1, 0).data() == f"{DIRTY_MARKER} query_invoices"
    assert model.index(0, 0).data() == "search_policy"
    with qtbot.wait_signal(model.dataChanged):
        workspace.save(store)
    assert model.index(1, 0).data() == "query_invoices"


def test_detached_model_ignores_the_workspace(qtbot, workspace: DraftWorkspace) -> None:
    model = ToolListModel(workspace)
    model.detach()
    with qtbot.assert_not_emitted(model.rowsInserted):
        workspace.run(InsertTool(0, workspace.new_entry(ToolContract("later_tool"))))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QUERY", ["query_invoices"]),  # name, case-insensitive
        ("file a", ["create_reimbursement_ticket"]),  # title
        ("clauses", ["search_policy"]),  # summary
        ("nothing-like-this", []),
        ("", [t.name for t in TOOLS]),
    ],
)
def test_filter_proxy_matches_name_title_or_summary(
    qtmodeltester, workspace: DraftWorkspace, text: str, expected: list[str]
) -> None:
    proxy = ToolFilterModel()
    proxy.setSourceModel(ToolListModel(workspace))
    proxy.setFilterFixedString(text)
    qtmodeltester.check(proxy)
    assert _names(proxy) == expected


def test_filter_proxy_follows_source_changes(qtmodeltester, workspace: DraftWorkspace) -> None:
    proxy = ToolFilterModel()
    proxy.setSourceModel(ToolListModel(workspace))
    proxy.setFilterFixedString("query")
    workspace.run(InsertTool(3, workspace.new_entry(ToolContract("query_tickets"))))
    qtmodeltester.check(proxy)
    assert _names(proxy) == ["query_invoices", f"{DIRTY_MARKER} query_tickets"]
