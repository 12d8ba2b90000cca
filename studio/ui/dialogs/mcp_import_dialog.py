"""File → Import from MCP server…: a command (stdio) or a URL (streamable HTTP) to pull from.

Mirrors ``studio mcp pull``. The environment of a command and the headers of a URL
are entered one per line; secrets are written as ``{env:NAME}`` references, read
when the connection opens and never stored (a credential written out is refused).
The dialog stays open while the pull runs (see :class:`~studio.ui.registry_jobs.JobDialog`):
a line per phase (starting, connecting, listing page N), Cancel, and on failure the
one-sentence reason with the server's last stderr lines.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QWidget,
)

from studio.mcp.client import HttpTarget, PullError, StdioTarget, Target
from studio.ui.dialogs.new_registry_dialog import ERROR_STYLE, registry_name_problem
from studio.ui.registry_jobs import JobDialog


@dataclass(frozen=True)
class McpImportRequest:
    """What to pull and where to put it; mirrors ``studio mcp pull``.

    Attributes:
        target: The server (command or URL; secrets as ``{env:NAME}``).
        name: Registry name; None takes the server's name.
        replace_draft: Replace the draft when the registry exists.
        timeout: Seconds for the whole listing.
    """

    target: Target
    name: str | None = None
    replace_draft: bool = False
    timeout: float = 30.0

    @property
    def source_label(self) -> str:
        """How the summary names the source."""
        return self.target.label()


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def mcp_import_target(use_url: bool, where: str, extra: str) -> Target:
    """The target the entries describe.

    Raises:
        PullError: what is wrong with them, in one sentence.
    """
    if not where.strip():
        raise PullError(
            QCoreApplication.translate("McpImportDialog", "Enter a URL.")
            if use_url
            else QCoreApplication.translate(
                "McpImportDialog", "Enter the command that starts the server."
            )
        )
    if use_url:
        return HttpTarget.parse(where.strip(), lines_of(extra))
    return StdioTarget.parse(where, lines_of(extra))


def mcp_import_problem(
    use_url: bool, where: str, extra: str, name: str, replace_draft: bool, existing: Collection[str]
) -> str | None:
    """Why the entered pull cannot start, or None."""
    try:
        mcp_import_target(use_url, where, extra)
    except PullError as exc:
        message = str(exc)
        return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
    if name:
        problem = registry_name_problem(name)
        if problem:
            return problem
        if name in existing and not replace_draft:
            return QCoreApplication.translate(
                "McpImportDialog",
                "A registry named {name!r} already exists: tick 'Replace its draft' "
                "or enter another name.",
            ).format(name=name)
    return None


class McpImportDialog(JobDialog):
    """Collects an :class:`McpImportRequest` and shows the pull running.

    Args:
        existing: Names of the registries that exist.
        parent: The owning window.

    Signals:
        submitted(McpImportRequest): Import was pressed with a valid request.
        cancelRequested: Cancel (or Esc) was pressed while the pull runs.
    """

    def __init__(self, existing: Collection[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import from MCP server"))
        self._existing = frozenset(existing)

        self.intro = intro = QLabel(
            self.tr(
                "Pull the tools a live MCP server lists: start it with a command (stdio) or "
                "reach it by URL (streamable HTTP). Write secrets as {env:NAME}: they are read "
                "from the environment when connecting and never stored."
            )
        )
        intro.setWordWrap(True)
        self.command_radio = QRadioButton(self.tr("&Command (stdio)"))
        self.url_radio = QRadioButton(self.tr("&URL (streamable HTTP)"))
        self.command_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.command_radio)
        group.addButton(self.url_radio)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.command_radio)
        kind_row.addWidget(self.url_radio)
        kind_row.addStretch(1)

        self.where_edit = QLineEdit()
        self.extra_label = QLabel()
        self.extra_edit = QPlainTextEdit()
        self.extra_edit.setTabChangesFocus(True)
        lines = self.extra_edit.fontMetrics().lineSpacing()
        self.extra_edit.setFixedHeight(lines * 4 + 12)
        self.extra_label.setBuddy(self.extra_edit)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(self.tr("the server's name"))
        self.replace_check = QCheckBox(self.tr("Replace its draft if the registry exists"))
        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(1, 600)
        self.timeout_spin.setValue(30)
        self.timeout_spin.setSuffix(self.tr(" s"))
        self.problem_label.setStyleSheet(ERROR_STYLE)

        form = self.form = QFormLayout()
        form.addRow("", kind_row)
        self.where_label = QLabel()
        self.where_label.setBuddy(self.where_edit)
        form.addRow(self.where_label, self.where_edit)
        form.addRow(self.extra_label, self.extra_edit)
        form.addRow(self.tr("&Registry name:"), self.name_edit)
        form.addRow("", self.replace_check)
        form.addRow(self.tr("&Timeout:"), self.timeout_spin)

        self._lay_out(self.tr("Import"), intro, form)

        self.command_radio.toggled.connect(self._on_kind_changed)
        self.where_edit.textChanged.connect(self._on_edited)
        self.extra_edit.textChanged.connect(self._on_edited)
        self.name_edit.textChanged.connect(self._on_edited)
        self.replace_check.toggled.connect(self._on_edited)
        self._on_kind_changed()
        self.resize(600, 380)

    @property
    def use_url(self) -> bool:
        return self.url_radio.isChecked()

    def set_target(self, target: Target) -> None:
        """Fill the entries from ``target`` (a registry's remembered source)."""
        if isinstance(target, HttpTarget):
            self.url_radio.setChecked(True)
            self.where_edit.setText(target.url)
            self.extra_edit.setPlainText("\n".join(f"{n}: {v}" for n, v in target.headers))
        else:
            self.command_radio.setChecked(True)
            self.where_edit.setText(target.label())
            self.extra_edit.setPlainText(
                "\n".join(n if v is None else f"{n}={v}" for n, v in target.env)
            )

    def problem(self) -> str | None:
        """Why the pull cannot start, or None."""
        return mcp_import_problem(
            self.use_url,
            self.where_edit.text(),
            self.extra_edit.toPlainText(),
            self.name_edit.text().strip(),
            self.replace_check.isChecked(),
            self._existing,
        )

    def request(self) -> McpImportRequest:
        target = mcp_import_target(
            self.use_url, self.where_edit.text(), self.extra_edit.toPlainText()
        )
        return McpImportRequest(
            target,
            self.name_edit.text().strip() or None,
            self.replace_check.isChecked(),
            self.timeout_spin.value(),
        )

    def inputs(self) -> list[QWidget]:
        return [
            self.command_radio,
            self.url_radio,
            self.where_edit,
            self.extra_edit,
            self.name_edit,
            self.replace_check,
            self.timeout_spin,
        ]

    def _on_kind_changed(self, *_args: object) -> None:
        if self.use_url:
            self.where_label.setText(self.tr("&URL:"))
            self.where_edit.setPlaceholderText(self.tr("https://host/mcp"))
            self.extra_label.setText(self.tr("&Headers:"))
            self.extra_edit.setPlaceholderText(self.tr("Authorization: Bearer {env:MCP_TOKEN}"))
        else:
            self.where_label.setText(self.tr("Co&mmand:"))
            self.where_edit.setPlaceholderText(self.tr("uvx mcp-server-time"))
            self.extra_label.setText(self.tr("&Environment:"))
            self.extra_edit.setPlaceholderText(
                self.tr("API_KEY={env:MY_API_KEY}\nPATH_TO_PASS_THROUGH")
            )
        self._on_edited()

    def _entered(self) -> str:
        return self.where_edit.text()


@dataclass(frozen=True)
class McpCheckRequest:
    """Which pinned version to check a live server against; mirrors ``studio mcp check``.

    Attributes:
        pinned: Index into the pinned choices the dialog was given.
        target: The server.
        timeout: Seconds for the whole listing.
    """

    pinned: int
    target: Target
    timeout: float = 30.0


class McpCheckDialog(McpImportDialog):
    """Collects an :class:`McpCheckRequest`: a server and the version it is pinned to.

    Args:
        registry: The registry checked.
        pinned: Labels of the versions and channels to check against (newest first).
        parent: The owning window.
    """

    def __init__(self, registry: str, pinned: list[str], parent: QWidget | None = None) -> None:
        super().__init__((), parent)
        self.setWindowTitle(
            self.tr("Check {registry} against its MCP server").format(registry=registry)
        )
        self.ok_button.setText(self.tr("Check"))
        self.intro.setText(
            self.tr(
                "Compare what the live MCP server lists now with a pinned version of "
                "{registry}: every changed tool is named with its description word diff, and "
                "the live descriptions are checked for poisoning. Write secrets as "
                "{{env:NAME}}: they are read from the environment when connecting and never "
                "stored."
            ).format(registry=registry)
        )
        self.pinned_combo = QComboBox()
        self.pinned_combo.addItems(pinned)
        self.form.insertRow(1, self.tr("&Pinned:"), self.pinned_combo)
        self.form.setRowVisible(self.name_edit, False)
        self.form.setRowVisible(self.replace_check, False)
        self._validate()

    def problem(self) -> str | None:
        combo = getattr(self, "pinned_combo", None)  # None while the base class builds
        if combo is not None and combo.count() == 0:
            return self.tr(
                "The registry has no published version to check against; publish one first."
            )
        try:
            mcp_import_target(self.use_url, self.where_edit.text(), self.extra_edit.toPlainText())
        except PullError as exc:
            message = str(exc)
            return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
        return None

    def request(self) -> McpCheckRequest:  # type: ignore[override]
        target = mcp_import_target(
            self.use_url, self.where_edit.text(), self.extra_edit.toPlainText()
        )
        return McpCheckRequest(self.pinned_combo.currentIndex(), target, self.timeout_spin.value())

    def inputs(self) -> list[QWidget]:
        return [*super().inputs(), self.pinned_combo]
