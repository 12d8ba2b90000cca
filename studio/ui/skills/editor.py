"""The skill editor: front matter as a form, the body as Markdown with a live preview, the files.

Every edit goes through one :class:`QUndoStack` as a :class:`SkillEditCommand`
(name, description, allowed-tools, body, files alike), so undo walks back
across all of them. Only the edited part of ``SKILL.md`` is re-rendered (see
:mod:`studio.skills.model`), so saving an untouched skill writes the same bytes.
The spec's problems (name rules, description length) show under the form as
located lines, updated as you type.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from studio.skills.catalogue import catalogue_line
from studio.skills.markdown import render_html
from studio.skills.model import SKILL_FILE, Skill, with_body, with_files, with_front_matter
from studio.skills.spec import DESCRIPTION_MAX, validate_skill
from studio.ui.skills.commands import SkillEditCommand

PREVIEW_DELAY_MS = 150
"""The preview re-renders this long after the last keystroke (not on every one)."""


def _folder_for(filename: str) -> str:
    """Where an added file goes: scripts for code, references for documents, else assets."""
    lower = filename.lower()
    if lower.endswith((".py", ".sh", ".js", ".ts", ".rb", ".ps1")):
        return "scripts"
    if lower.endswith((".md", ".txt", ".rst", ".pdf")):
        return "references"
    return "assets"


class SkillEditorWidget(QWidget):
    """Edits one skill; ``skill_changed`` carries the edited skill after every change."""

    skill_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._skill: Skill | None = None
        self._folder: str | None = None
        self._loading = False
        self.undo_stack = QUndoStack(self)
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._render_preview)
        self._build()
        self.setEnabled(False)

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        self.toolbar = QToolBar(self)
        self.undo_action = self.undo_stack.createUndoAction(self, self.tr("Undo"))
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_stack.createRedoAction(self, self.tr("Redo"))
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.toolbar.addAction(action)
        self.title = QLabel(self)
        self.title.setObjectName("skillTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("lowercase-with-hyphens"))
        self.description_edit = QPlainTextEdit(self)
        self.description_edit.setUndoRedoEnabled(False)  # the skill's undo stack does it
        self.description_edit.setPlaceholderText(
            self.tr("What the skill does and when to use it (and when not).")
        )
        self.description_edit.setFixedHeight(self.fontMetrics().lineSpacing() * 5)
        self.description_count = QLabel(self)
        self.allowed_edit = QLineEdit(self)
        self.allowed_edit.setPlaceholderText(self.tr("tool names, separated by spaces"))
        self.other_keys = QLabel(self)
        self.other_keys.setWordWrap(True)
        self.other_keys.setTextFormat(Qt.TextFormat.PlainText)
        self.problems = QLabel(self)
        self.problems.setObjectName("skillProblems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)

        form = QFormLayout()
        # Labels above their fields: the form keeps its width for the text at 900 px too.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        form.addRow(self.tr("Name"), self.name_edit)
        form.addRow(self.tr("Description"), self.description_edit)
        form.addRow(self.description_count)
        form.addRow(self.tr("Allowed tools"), self.allowed_edit)
        form.addRow(self.tr("Other keys"), self.other_keys)

        self.files = QListWidget(self)
        self.files.setObjectName("skillFiles")
        self.files.setMaximumHeight(self.fontMetrics().lineSpacing() * 10)
        self.add_file_button = QPushButton(self.tr("Add file…"), self)
        self.remove_file_button = QPushButton(self.tr("Remove file"), self)
        self.add_file_button.clicked.connect(self._pick_file)
        self.remove_file_button.clicked.connect(self._remove_selected_file)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_file_button)
        buttons.addWidget(self.remove_file_button)
        buttons.addStretch(1)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(form)
        left_layout.addWidget(self.problems)
        left_layout.addWidget(QLabel(self.tr("Files in the skill's folder"), left))
        left_layout.addWidget(self.files)
        left_layout.addLayout(buttons)
        left_layout.addStretch(1)

        self.body_edit = QPlainTextEdit(self)
        self.body_edit.setObjectName("skillBody")
        self.body_edit.setUndoRedoEnabled(False)
        self.body_edit.setPlaceholderText(self.tr("The steps, in Markdown."))
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("skillPreview")
        self.preview.setOpenLinks(False)
        body_split = QSplitter(Qt.Orientation.Horizontal, self)
        body_split.addWidget(self._titled(self.tr("Body (Markdown)"), self.body_edit))
        body_split.addWidget(self._titled(self.tr("Preview"), self.preview))

        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.addWidget(left)
        self.split.addWidget(body_split)
        self.split.setStretchFactor(0, 2)
        self.split.setStretchFactor(1, 5)
        left.setMinimumWidth(200)
        self._sized = False

        layout = QVBoxLayout(self)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.toolbar)
        layout.addLayout(header)
        layout.addWidget(self.split, 1)

        self.name_edit.textEdited.connect(lambda text: self._edit("name", name=text.strip()))
        self.description_edit.textChanged.connect(self._description_edited)
        self.allowed_edit.textEdited.connect(self._allowed_edited)
        self.body_edit.textChanged.connect(self._body_edited)

    def showEvent(self, event: QShowEvent) -> None:
        """The first time: the form gets ~a third of the width, the body and preview the rest."""
        super().showEvent(event)
        if not self._sized and self.split.width() > 0:
            self._sized = True
            width = self.split.width()
            self.split.setSizes([int(width * 0.34), width - int(width * 0.34)])

    def _titled(self, title: str, widget: QWidget) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(title, box))
        layout.addWidget(widget, 1)
        return box

    # ------------------------------------------------------------------ public

    @property
    def skill(self) -> Skill | None:
        """The skill as edited so far."""
        return self._skill

    def set_skill(self, skill: Skill | None, folder: str | None = None) -> None:
        """Show ``skill`` (None: nothing) and start a fresh undo history."""
        self.undo_stack.clear()
        self._folder = folder
        self.setEnabled(skill is not None)
        self._show(skill)

    def add_file(self, relpath: str, data: bytes) -> None:
        """Add (or replace) a file of the folder, undoably."""
        if self._skill is None or relpath == SKILL_FILE:
            return
        files = dict(self._skill.files)
        files[relpath] = data
        self._push(
            with_files(self._skill, files), self.tr("Add %1").replace("%1", relpath), "files"
        )

    def remove_file(self, relpath: str) -> None:
        """Remove a file of the folder, undoably (``SKILL.md`` stays)."""
        if self._skill is None:
            return
        files = {k: v for k, v in self._skill.files if k != relpath}
        if len(files) != len(self._skill.files):
            self._push(
                with_files(self._skill, files), self.tr("Remove %1").replace("%1", relpath), "files"
            )

    # ------------------------------------------------------------------ edits

    def _edit(self, field: str, **changes: object) -> None:
        if self._loading or self._skill is None:
            return
        after = with_front_matter(self._skill, **changes)
        self._push(after, self.tr("Edit %1").replace("%1", field), field)

    def _description_edited(self) -> None:
        self._edit("description", description=self.description_edit.toPlainText())

    def _allowed_edited(self, text: str) -> None:
        value = " ".join(text.split()) or None
        self._edit("allowed-tools", allowed_tools=value)

    def _body_edited(self) -> None:
        if self._loading or self._skill is None:
            return
        after = with_body(self._skill, self.body_edit.toPlainText())
        self._push(after, self.tr("Edit body"), "body")

    def _push(self, after: Skill, label: str, field: str) -> None:
        assert self._skill is not None
        if after is self._skill:
            return
        self.undo_stack.push(SkillEditCommand(self._apply, self._skill, after, label, field))

    def _apply(self, skill: Skill) -> None:
        """Called by the commands: show ``skill`` and announce it."""
        self._show(skill)
        self.skill_changed.emit(skill)

    def _pick_file(self) -> None:
        from pathlib import Path

        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, self.tr("Add a file to the skill"))
        if path:
            source = Path(path)
            self.add_file(f"{_folder_for(source.name)}/{source.name}", source.read_bytes())

    def _remove_selected_file(self) -> None:
        item = self.files.currentItem()
        if item is not None:
            self.remove_file(str(item.data(Qt.ItemDataRole.UserRole)))

    # ------------------------------------------------------------------ display

    def _show(self, skill: Skill | None) -> None:
        self._skill = skill
        self._loading = True
        try:
            self._set_text(self.name_edit, skill.name if skill else "")
            self._set_plain(self.description_edit, skill.description if skill else "")
            allowed = " ".join(skill.allowed_tools) if skill else ""
            self._set_text(self.allowed_edit, allowed)
            self._set_plain(self.body_edit, skill.body if skill else "")
        finally:
            self._loading = False
        self.title.setText(skill.name if skill else self.tr("No skill selected"))
        self._show_meta(skill)
        self._show_files(skill)
        self._preview_timer.start()

    @staticmethod
    def _set_text(edit: QLineEdit, text: str) -> None:
        if edit.text() != text:
            edit.setText(text)
            if not edit.hasFocus():
                edit.setCursorPosition(0)  # show the beginning of a long list

    @staticmethod
    def _set_plain(edit: QPlainTextEdit, text: str) -> None:
        if edit.toPlainText() != text:
            cursor = edit.textCursor().position()
            edit.setPlainText(text)
            moved = edit.textCursor()
            moved.setPosition(min(cursor, len(text)))
            edit.setTextCursor(moved)

    def _show_meta(self, skill: Skill | None) -> None:
        if skill is None:
            self.description_count.clear()
            self.other_keys.clear()
            self.problems.clear()
            return
        from studio.contract.tokens import estimate_tokens

        tokens = estimate_tokens(catalogue_line(skill))
        self.description_count.setText(
            self.tr("%1 / %2 characters · ~%3 tokens in every request")
            .replace("%1", str(len(skill.description)))
            .replace("%2", str(DESCRIPTION_MAX))
            .replace("%3", str(tokens))
        )
        others = [
            k for k in skill.front_matter if k not in ("name", "description", "allowed-tools")
        ]
        self.other_keys.setText(", ".join(others) if others else self.tr("none"))
        problems = validate_skill(skill, self._folder)
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))

    def _show_files(self, skill: Skill | None) -> None:
        self.files.clear()
        if skill is None:
            return
        entries = [
            (SKILL_FILE, len(skill.text.encode("utf-8"))),
            *((p, len(d)) for p, d in skill.files),
        ]
        for path, size in entries:
            item = QListWidgetItem(f"{path}    {size:,} B", self.files)
            item.setData(Qt.ItemDataRole.UserRole, path)
            if path.startswith("scripts/"):
                item.setToolTip(
                    self.tr("Listed to the model; runs only through an executor you configure")
                )

    def _render_preview(self) -> None:
        scroll = self.preview.verticalScrollBar().value()
        self.preview.setHtml(render_html(self._skill.body) if self._skill else "")
        self.preview.verticalScrollBar().setValue(scroll)

    def actions_for_menu(self) -> list[QAction]:
        """Undo and redo, for a host window's Edit menu."""
        return [self.undo_action, self.redo_action]
