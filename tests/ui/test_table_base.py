"""RowTableModel sorts its own rows; persistent indexes follow their row."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPersistentModelIndex, Qt

from studio.ui.models.table_base import RowTableModel


class Words(RowTableModel[str]):
    columns = (("Word", str),)

    def sort_key(self, row: str, column: int) -> Any:
        return row


def test_equal_rows_keep_their_own_persistent_indexes_through_a_sort(qapp, qtmodeltester) -> None:
    word = "same"
    model = Words()
    model.set_rows(["zeta", word, word, "alpha"])  # one object twice
    first, second = (QPersistentModelIndex(model.index(r, 0)) for r in (1, 2))
    model.sort(0, Qt.SortOrder.AscendingOrder)
    assert [model.index(r, 0).data() for r in range(4)] == ["alpha", "same", "same", "zeta"]
    assert (first.row(), second.row()) == (1, 2)  # ties keep the given order
    model.sort(0, Qt.SortOrder.DescendingOrder)
    assert [model.index(r, 0).data() for r in range(4)] == ["zeta", "same", "same", "alpha"]
    assert (first.row(), second.row()) == (1, 2)
    qtmodeltester.check(model)


def test_a_model_without_sort_keys_keeps_the_given_order(qapp) -> None:
    class Plain(RowTableModel[str]):
        columns = (("Word", str),)

    model = Plain()
    model.set_rows(["b", "a"])
    model.sort(0, Qt.SortOrder.AscendingOrder)
    assert [model.index(r, 0).data() for r in range(2)] == ["b", "a"]
