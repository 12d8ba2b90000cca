"""The Diff view: two sides of a registry, classified changes, word diffs, renames, deltas."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, Qt, QThreadPool, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListView,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore, StoreError
from studio.diff import CLASS_ORDER, RegistryDiff, ToolDiff, to_json, to_markdown
from studio.ui.diff.diff_models import (
    CLASS_COLOURS,
    ChangeTableModel,
    ToolDiffListModel,
    block_word,
    class_word,
    semver_word,
    status_word,
    tool_title,
)
from studio.ui.diff.renames_panel import RenamesPanel
from studio.ui.diff.side_by_side import DARK, LIGHT, Colours, block_html, json_text, lines_html
from studio.ui.diff.sides import DRAFT, DiffSide, available_sides
from studio.ui.diff.worker import DiffRequest, DiffResult, DiffRunner
from studio.ui.i18n import lint_message

FileChooser = Callable[[QWidget, str, str, str], str | None]
"""(parent, caption, suggested file name, filter) → chosen path or None."""


def ask_save_path(parent: QWidget, caption: str, suggested: str, filter_: str) -> str | None:
    """The default file chooser: a Save dialog."""
    path, _ = QFileDialog.getSaveFileName(parent, caption, suggested, filter_)
    return path or None


class SideBySide(QWidget):
    """Two read-only panes, before and after, with headings."""

    def __init__(self, left_title: str, right_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.left_title = QLabel(left_title)
        self.right_title = QLabel(right_title)
        self.left = QTextBrowser()
        self.right = QTextBrowser()
        for pane in (self.left, self.right):
            pane.setOpenLinks(False)
            pane.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.left_title, 0, 0)
        grid.addWidget(self.right_title, 0, 1)
        grid.addWidget(self.left, 1, 0)
        grid.addWidget(self.right, 1, 1)
        grid.setRowStretch(1, 1)

    def set_titles(self, left: str, right: str) -> None:
        self.left_title.setText(left)
        self.right_title.setText(right)

    def set_html(self, left: str, right: str) -> None:
        self.left.setHtml(left)
        self.right.setHtml(right)


class DiffView(QWidget):
    """Pick A and B among the draft, versions and channels; see what changes.

    The diff runs in a worker thread (linting both sides is slow); a newer
    request replaces an older one. Renames confirmed or rejected here are
    kept until the registry changes.

    Args:
        store: The open store (thread-safe).
        choose_file: Asks where to export (injectable for tests).
        pool: The thread pool for diffs (default: the global one).
        lint_profile: Profile for the lint delta; None skips linting.

    Signals:
        diffShown(object): a diff was computed and shown (the RegistryDiff).
    """

    diffShown = Signal(object)

    def __init__(
        self,
        store: RegistryStore,
        choose_file: FileChooser | None = None,
        pool: QThreadPool | None = None,
        lint_profile: str | None = "openai",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.choose_file = choose_file or ask_save_path
        self.lint_profile = lint_profile
        self.registry: str | None = None
        self.result: DiffResult | None = None
        self.confirmed: dict[str, str] = {}
        self.rejected: set[tuple[str, str]] = set()
        self.runner = DiffRunner(store, pool, self)
        self.runner.finished.connect(self._show_result)
        self.runner.failed.connect(self._show_failure)
        self._build()

    # ------------------------------------------------------------------ building

    def _build(self) -> None:
        self.a_combo = QComboBox()
        self.a_combo.setToolTip(self.tr("A: the older side"))
        self.b_combo = QComboBox()
        self.b_combo.setToolTip(self.tr("B: the newer side"))
        for combo in (self.a_combo, self.b_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.activated.connect(lambda _i: self.recompute())
        self.swap_button = QPushButton(self.tr("Swap"))
        self.swap_button.clicked.connect(self.swap)
        self.export_md_button = QPushButton(self.tr("Export Markdown…"))
        self.export_md_button.setToolTip(self.tr("Save the report for a pull request"))
        self.export_md_button.clicked.connect(self.export_markdown)
        self.export_json_button = QPushButton(self.tr("Export JSON…"))
        self.export_json_button.clicked.connect(self.export_json)
        pick = QHBoxLayout()
        pick.addWidget(QLabel(self.tr("Compare")))
        pick.addWidget(self.a_combo)
        pick.addWidget(QLabel("→"))
        pick.addWidget(self.b_combo)
        pick.addWidget(self.swap_button)
        pick.addStretch(1)
        pick.addWidget(self.export_md_button)
        pick.addWidget(self.export_json_button)

        self.counts_label = QLabel()
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self.semver_label = QLabel()
        self.semver_label.setWordWrap(True)
        self.semver_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel(self.tr("Pick a registry"))
        header = QHBoxLayout()
        header.addWidget(self.counts_label)
        header.addWidget(self.semver_label, 1)
        header.addWidget(self.status_label)

        self.tool_model = ToolDiffListModel(self)
        self.tool_list = QListView()
        self.tool_list.setModel(self.tool_model)
        self.tool_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tool_list.setMinimumWidth(170)
        self.tool_list.selectionModel().currentChanged.connect(lambda *_: self._show_tool())

        self.change_model = ChangeTableModel(self)
        self.change_table = QTableView()
        self.change_table.setModel(self.change_model)
        self.change_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.change_table.verticalHeader().hide()
        self.change_table.setWordWrap(False)
        table_header = self.change_table.horizontalHeader()
        table_header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table_header.setStretchLastSection(True)
        self.tool_heading = QLabel()
        self.tool_heading.setTextFormat(Qt.TextFormat.RichText)

        self.description_diff = SideBySide("A", "B")
        self.schema_diff = SideBySide("A", "B")
        tool_page = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.tool_heading)
        top_layout.addWidget(self.change_table, 1)
        tool_page.addWidget(top)
        tool_page.addWidget(self.description_diff)
        tool_page.setChildrenCollapsible(False)

        self.renames = RenamesPanel()
        self.renames.confirmRequested.connect(self.confirm_rename)
        self.renames.rejectRequested.connect(self.reject_rename)
        self.deltas = QTextBrowser()

        self.tabs = QTabWidget()
        self.tabs.addTab(tool_page, self.tr("Changes && description"))
        self.tabs.addTab(self.schema_diff, self.tr("Schema"))
        self.tabs.addTab(self.renames, self.tr("Renames"))
        self.tabs.addTab(self.deltas, self.tr("Lint && tokens"))

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.tool_list)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([230, 800])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(pick)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)
        self._update_buttons()

    def show_action_rows(self, shown: bool) -> None:
        """Show or hide the buttons a toolbar also carries (Swap, the exports).

        They keep working while hidden: the main window's toolbar goes through them.
        """
        for button in (self.swap_button, self.export_md_button, self.export_json_button):
            button.setVisible(shown)

    # ------------------------------------------------------------------ choosing sides

    def set_registry(self, registry: str | None) -> None:
        """Show ``registry``'s sides (default: latest version → draft) and compute."""
        if registry != self.registry:
            self.confirmed.clear()
            self.rejected.clear()
        self.registry = registry
        self._fill_sides()
        if registry is None:
            self._clear(self.tr("No registry open"))
            return
        sides = self._sides()
        a = next((s for s in sides if s.kind == "version"), DRAFT)
        self.compare(a, DRAFT)

    def refresh_sides(self) -> None:
        """Re-read versions and channels (after a publish), keeping the picked sides."""
        a, b = self.side_a(), self.side_b()
        self._fill_sides()
        if a is not None and b is not None:
            self._select(self.a_combo, a)
            self._select(self.b_combo, b)

    def _sides(self) -> list[DiffSide]:
        return [self.a_combo.itemData(i) for i in range(self.a_combo.count())]

    def _fill_sides(self) -> None:
        sides: list[DiffSide] = []
        if self.registry is not None:
            try:
                sides = available_sides(self.store, self.registry)
            except StoreError as exc:
                self.status_label.setText(self.tr("Cannot list versions: {exc}").format(exc=exc))
        for combo in (self.a_combo, self.b_combo):
            combo.clear()
            for side in sides:
                label = self.tr("draft") if side.kind == "draft" else side.label
                combo.addItem(label, side)

    @staticmethod
    def _select(combo: QComboBox, side: DiffSide) -> bool:
        for i in range(combo.count()):
            if combo.itemData(i) == side:
                combo.setCurrentIndex(i)
                return True
        return False

    def side_a(self) -> DiffSide | None:
        return self.a_combo.currentData()

    def side_b(self) -> DiffSide | None:
        return self.b_combo.currentData()

    def compare(self, a: DiffSide, b: DiffSide) -> None:
        """Pick ``a`` and ``b`` and compute their diff."""
        if not self._select(self.a_combo, a) or not self._select(self.b_combo, b):
            self.refresh_sides()
            self._select(self.a_combo, a)
            self._select(self.b_combo, b)
        self.recompute()

    def compare_version(self, number: int) -> None:
        """Version ``number`` against the draft."""
        self.compare(DiffSide("version", number), DRAFT)

    def swap(self) -> None:
        a, b = self.side_a(), self.side_b()
        if a is not None and b is not None:
            self.compare(b, a)

    def recompute(self) -> None:
        """Compute the diff of the picked sides with the current rename decisions."""
        a, b = self.side_a(), self.side_b()
        if self.registry is None or a is None or b is None:
            return
        request = DiffRequest(
            self.registry,
            a,
            b,
            dict(self.confirmed),
            frozenset(self.rejected),
            self.lint_profile,
        )
        self.status_label.setText(self.tr("Computing…"))
        self.runner.submit(request)

    # ------------------------------------------------------------------ renames

    def confirm_rename(self, old: str, new: str) -> None:
        """Treat ``old`` → ``new`` as a rename and recompute."""
        self.rejected.discard((old, new))
        self.confirmed = {o: n for o, n in self.confirmed.items() if n != new}
        self.confirmed[old] = new
        self.recompute()

    def reject_rename(self, old: str, new: str) -> None:
        """Never treat ``old`` → ``new`` as a rename, and recompute."""
        if self.confirmed.get(old) == new:
            del self.confirmed[old]
        self.rejected.add((old, new))
        self.recompute()

    # ------------------------------------------------------------------ showing

    @property
    def diff(self) -> RegistryDiff | None:
        return self.result.diff if self.result else None

    def _colours(self) -> Colours:
        dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128
        return DARK if dark else LIGHT

    def _clear(self, message: str) -> None:
        self.result = None
        self.tool_model.set_tools([])
        self.change_model.set_changes([])
        self.counts_label.clear()
        self.semver_label.clear()
        self.tool_heading.clear()
        self.description_diff.set_html("", "")
        self.schema_diff.set_html("", "")
        self.renames.set_diff(None)
        self.deltas.clear()
        self.status_label.setText(message)
        self._update_buttons()

    def _show_failure(self, message: str) -> None:
        self._clear(self.tr("Diff failed: {message}").format(message=message))

    def _show_result(self, result: DiffResult) -> None:
        previous = self.selected_tool()
        self.result = result
        diff = result.diff
        counts = " ".join(
            f'<span style="color:{CLASS_COLOURS[k]}"><b>{diff.counts[k]}</b> {class_word(k)}</span>'
            for k in CLASS_ORDER
        )
        self.counts_label.setText(counts)
        reasons = ", ".join(diff.semver.reasons) or self.tr("no changes")
        self.semver_label.setText(
            self.tr("Suggested bump: {level} — {reasons}").format(
                level=semver_word(diff.semver.level).upper(), reasons=reasons
            )
        )
        self.semver_label.setToolTip("\n".join(diff.semver.reasons))
        changed = sum(1 for t in diff.tools if t.status.value != "unchanged")
        self.status_label.setText(
            self.tr("{a_label} → {b_label} · {changed} of {count} tools differ").format(
                a_label=self._side_label(diff.a_label),
                b_label=self._side_label(diff.b_label),
                changed=changed,
                count=len(diff.tools),
            )
        )
        self.tool_model.set_tools(diff.tools)
        self.renames.set_diff(diff)
        self.tabs.setTabText(2, self.tr("Renames ({count})").format(count=len(diff.renames)))
        a_label, b_label = self._side_label(diff.a_label), self._side_label(diff.b_label)
        self.description_diff.set_titles(a_label, b_label)
        self.schema_diff.set_titles(a_label, b_label)
        self.deltas.setHtml(_deltas_html(diff))
        row = self.tool_model.row_of(previous.name) if previous else -1
        if self.tool_model.rowCount() and row < 0:
            row = 0
        if row >= 0:
            self.select_tool(self.tool_model.tools()[row].name)
        else:
            self._show_tool()
        self._update_buttons()
        self.diffShown.emit(diff)

    def show_drift(self, result: DiffResult, note: str) -> None:
        """Show a diff computed elsewhere: a live MCP server against its pinned version.

        ``note`` replaces the status line (what was checked, and the verdict). The side
        pickers keep their choice; picking again computes their diff as usual.
        """
        self.runner.drop_pending()
        self._show_result(result)
        self.status_label.setText(note)

    def select_tool(self, name: str) -> bool:
        """Select the tool called ``name`` in the list; False when it did not change."""
        row = self.tool_model.row_of(name)
        if row < 0:
            return False
        self.tool_list.selectionModel().setCurrentIndex(
            self.tool_model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        return True

    def can_step_tool(self, step: int) -> bool:
        """Whether a changed tool lies ``step`` rows away (1: below, -1: above) in the list."""
        rows = self.tool_model.rowCount()
        current = self.tool_list.currentIndex()
        start = current.row() if current.isValid() else (-1 if step > 0 else rows)
        return 0 <= start + step < rows

    def step_tool(self, step: int) -> bool:
        """Select the next (``step`` 1) or previous (-1) changed tool; False at an end."""
        if not self.can_step_tool(step):
            return False
        current = self.tool_list.currentIndex()
        rows = self.tool_model.rowCount()
        start = current.row() if current.isValid() else (-1 if step > 0 else rows)
        self.tool_list.selectionModel().setCurrentIndex(
            self.tool_model.index(start + step, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect,
        )
        return True

    def selected_tool(self) -> ToolDiff | None:
        index = self.tool_list.currentIndex()
        return self.tool_model.data(index, ToolDiffListModel.ToolRole) if index.isValid() else None

    def _show_tool(self) -> None:
        tool = self.selected_tool()
        result = self.result
        if tool is None or result is None:
            self.change_model.set_changes(result.diff.registry_changes if result else [])
            self.tool_heading.setText(self.tr("Registry-level changes") if result else "")
            self.description_diff.set_html("", "")
            self.schema_diff.set_html("", "")
            return
        worst = tool.worst
        colour = CLASS_COLOURS[worst] if worst else "palette(text)"
        self.tool_heading.setText(
            self.tr('<b>{tool}</b> — <span style="color:{colour}">{status}{worst}</span>').format(
                tool=html.escape(tool_title(tool)),
                colour=colour,
                status=status_word(tool.status),
                worst=", " + class_word(worst) if worst else "",
            )
        )
        self.change_model.set_changes(tool.changes)
        self.change_table.resizeColumnsToContents()
        # Rule, path and values share the width so the message stays in view.
        room = max(400, self.change_table.viewport().width())
        for column, share in ((0, 0.24), (2, 0.24), (3, 0.2)):
            cap = int(room * share)
            if self.change_table.columnWidth(column) > cap:
                self.change_table.setColumnWidth(column, cap)
        colours = self._colours()
        old = result.a.tool(tool.old_name or tool.name)
        new = result.b.tool(tool.name) if tool.status.value != "removed" else None
        if tool.blocks:
            lefts, rights = [], []
            for block in tool.blocks:
                left, right = block_html(block, colours)
                heading = f"<p><b>{html.escape(block_word(block.block))}</b></p>"
                lefts.append(heading + left)
                rights.append(heading + right)
            self.description_diff.set_html("".join(lefts), "".join(rights))
        else:
            note = "<p><i>" + self.tr("No description block changed.") + "</i></p>"
            left_text = _description(old) if old else "<p><i>" + self.tr("(not in A)") + "</i></p>"
            right_text = _description(new) if new else "<p><i>" + self.tr("(not in B)") + "</i></p>"
            self.description_diff.set_html(note + left_text, note + right_text)
        before = json_text(old.parameters) if old else ""
        after = json_text(new.parameters) if new else ""
        self.schema_diff.set_html(*lines_html(before, after, colours))

    def _side_label(self, label: str) -> str:
        """A diff side's label as shown: the draft in the UI language, versions as named."""
        return self.tr("draft") if label == "draft" else label

    def _update_buttons(self) -> None:
        has = self.result is not None
        self.export_md_button.setEnabled(has)
        self.export_json_button.setEnabled(has)
        self.swap_button.setEnabled(self.registry is not None)

    # ------------------------------------------------------------------ export

    def export_markdown(self) -> Path | None:
        """Write the diff as Markdown where the chooser says; the path or None."""
        diff = self.diff
        if diff is None:
            return None
        return self._export(
            self.tr("Export diff as Markdown"), "md", self.tr("Markdown (*.md)"), to_markdown(diff)
        )

    def export_json(self) -> Path | None:
        """Write the diff as JSON where the chooser says; the path or None."""
        diff = self.diff
        if diff is None:
            return None
        text = json.dumps(to_json(diff), indent=2, ensure_ascii=False) + "\n"
        return self._export(self.tr("Export diff as JSON"), "json", self.tr("JSON (*.json)"), text)

    def _export(self, caption: str, ext: str, filter_: str, text: str) -> Path | None:
        diff = self.diff
        assert diff is not None
        slug = f"{diff.registry}-{diff.a_label}-to-{diff.b_label}".replace(" ", "")
        slug = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in slug)
        chosen = self.choose_file(self, caption, f"{slug}.{ext}", filter_)
        if not chosen:
            return None
        path = Path(chosen)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.status_label.setText(self.tr("Not exported: {exc}").format(exc=exc))
            return None
        self.status_label.setText(self.tr("Exported {name}").format(name=path.name))
        return path


def _description(tool: object) -> str:
    from studio.contract import ToolContract

    assert isinstance(tool, ToolContract)
    parts = [tool.summary, tool.usage, tool.description]
    text = "\n\n".join(p for p in parts if p)
    return f'<div style="white-space:pre-wrap">{html.escape(text)}</div>'


def _deltas_html(diff: RegistryDiff) -> str:
    out: list[str] = []
    ld = diff.lint_delta
    if ld is None:
        out.append(
            "<p><i>"
            + QCoreApplication.translate("DiffView", "Lint was skipped for this diff.")
            + "</i></p>"
        )
    else:
        out.append(
            "<h3>"
            + QCoreApplication.translate(
                "DiffView",
                "Lint ({profile}): {before} → {after} findings — {added} added, {fixed} fixed",
            ).format(
                profile=html.escape(ld.profile),
                before=ld.count_before,
                after=ld.count_after,
                added=len(ld.added),
                fixed=len(ld.fixed),
            )
            + "</h3>"
        )
        for title, items, colour in (
            (
                QCoreApplication.translate("DiffView", "Added"),
                ld.added,
                CLASS_COLOURS[CLASS_ORDER[0]],
            ),
            (
                QCoreApplication.translate("DiffView", "Fixed"),
                ld.fixed,
                CLASS_COLOURS[CLASS_ORDER[2]],
            ),
        ):
            if not items:
                continue
            out.append(f'<p><b style="color:{colour}">{title}</b></p><ul>')
            registry = QCoreApplication.translate("DiffView", "(registry)")
            out += [
                f"<li><code>{html.escape(i.rule_id)}</code> {html.escape(i.tool or registry)}"
                f" <code>{html.escape(i.path)}</code> — "
                f"{html.escape(lint_message(i.message, i.rule_id))}</li>"
                for i in items
            ]
            out.append("</ul>")
        if ld.gone:
            gone = QCoreApplication.translate(
                "DiffView", "{count} findings of removed tools went with them."
            )
            out.append("<p>" + gone.format(count=len(ld.gone)) + "</p>")
    td = diff.token_delta
    out.append(
        "<h3>"
        + QCoreApplication.translate(
            "DiffView", "Tokens ({method}): {before} → {after} ({delta:+d})"
        ).format(
            method=html.escape(td.method),
            before=td.total_before,
            after=td.total_after,
            delta=td.total_delta,
        )
        + "</h3><ul>"
    )
    out += [
        f"<li>{html.escape(name)}: {before} → {after} ({after - before:+d})</li>"
        for name, (before, after) in td.per_tool.items()
        if before != after
    ]
    out.append("</ul>")
    return "".join(out)
