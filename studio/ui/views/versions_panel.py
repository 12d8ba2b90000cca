"""The published versions of the open registry, with Publish and Open read-only."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from registry_db import VersionInfo

COLUMNS = (
    "#",
    str(QT_TRANSLATE_NOOP("Columns", "Semver")),
    str(QT_TRANSLATE_NOOP("Columns", "Published")),
    str(QT_TRANSLATE_NOOP("Columns", "Author")),
    str(QT_TRANSLATE_NOOP("Columns", "Tools")),
    str(QT_TRANSLATE_NOOP("Columns", "Hash")),
    str(QT_TRANSLATE_NOOP("Columns", "Notes")),
    str(QT_TRANSLATE_NOOP("Columns", "Review")),
)
_NOTES = COLUMNS.index("Notes")
_REVIEW = COLUMNS.index("Review")
_NUMBER_ROLE = Qt.ItemDataRole.UserRole + 1


def short_hash(content_hash: str) -> str:
    """The first 12 hex digits of a hash, without its ``sha256:`` prefix."""
    return content_hash.rpartition(":")[2][:12]


class VersionsPanel(QWidget):
    """Lists versions (newest first); emits requests, never talks to the store.

    Signals:
        publishRequested(): the Publish… button was pressed.
        openRequested(int): open that version read-only.
        compareRequested(int): compare that version with the draft.
    """

    publishRequested = Signal()
    openRequested = Signal(int)
    compareRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        self._shown: tuple[str | None, list[VersionInfo]] = (None, [])
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(_NOTES, QHeaderView.ResizeMode.Stretch)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda *_: self._open_selected())

        self.publish_button = QPushButton()
        self.publish_button.clicked.connect(self.publishRequested)
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self._open_selected)
        self.compare_button = QPushButton()
        self.compare_button.clicked.connect(self._compare_selected)
        self._retranslate()

        buttons = QHBoxLayout()
        buttons.addWidget(self.heading, 1)
        buttons.addWidget(self.compare_button)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.publish_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.tree, 1)
        self._update_buttons()

    def changeEvent(self, event: QEvent) -> None:
        # The window keeps this panel across a language switch: its texts follow.
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)

    def _retranslate(self) -> None:
        self.tree.setHeaderLabels([QCoreApplication.translate("Columns", c) for c in COLUMNS])
        self.publish_button.setText(self.tr("Publish…"))
        self.publish_button.setToolTip(
            self.tr("Publish the saved draft as a new immutable version")
        )
        self.open_button.setText(self.tr("Open read-only"))
        self.open_button.setToolTip(self.tr("Look at the selected version without changing it"))
        self.compare_button.setText(self.tr("Compare…"))
        self.compare_button.setToolTip(self.tr("Diff the selected version against the draft"))
        selected = self.selected_version()
        self.set_versions(*self._shown)
        if selected is not None:
            self.select_version(selected)

    def set_versions(self, registry: str | None, versions: Sequence[VersionInfo]) -> None:
        """Show ``versions`` of ``registry`` (None: nothing open)."""
        self._shown = (registry, list(versions))
        self.tree.clear()
        if registry is None:
            self.heading.setText(self.tr("No registry open"))
        elif versions:
            self.heading.setText(
                self.tr("{count} published version(s) of {registry}").format(
                    count=len(versions), registry=registry
                )
            )
        else:
            self.heading.setText(
                self.tr("{registry} has no published version yet").format(registry=registry)
            )
        for info in sorted(versions, key=lambda v: v.number, reverse=True):
            # Here, not at the top: studio.diff is not imported before the first paint (#16).
            from studio.ui.diff.review import review_summary, review_tooltip

            item = QTreeWidgetItem(
                [
                    str(info.number),
                    info.semver or "",
                    info.created_at.replace("T", " ")[:19],
                    info.author,
                    str(info.tool_count),
                    short_hash(info.content_hash),
                    info.notes.splitlines()[0] if info.notes else "",
                    review_summary(info.review),
                ]
            )
            item.setToolTip(_REVIEW, review_tooltip(info.review))
            item.setData(0, _NUMBER_ROLE, info.number)
            item.setToolTip(5, info.content_hash)
            item.setToolTip(6, info.notes)
            self.tree.addTopLevelItem(item)
        self._update_buttons()

    def selected_version(self) -> int | None:
        items = self.tree.selectedItems()
        return int(items[0].data(0, _NUMBER_ROLE)) if items else None

    def select_version(self, number: int) -> None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, _NUMBER_ROLE) == number:
                self.tree.setCurrentItem(item)
                return

    def set_publish_enabled(self, enabled: bool) -> None:
        self.publish_button.setEnabled(enabled)

    def _update_buttons(self) -> None:
        self.open_button.setEnabled(self.selected_version() is not None)
        self.compare_button.setEnabled(self.selected_version() is not None)

    def _open_selected(self) -> None:
        number = self.selected_version()
        if number is not None:
            self.openRequested.emit(number)

    def _compare_selected(self) -> None:
        number = self.selected_version()
        if number is not None:
            self.compareRequested.emit(number)
