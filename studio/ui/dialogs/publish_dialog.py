"""Asks for release notes and a semantic version, shows the review, then publishes.

With a :class:`~studio.ui.diff.sides.PublishBaseline` the dialog shows the
diff of the saved draft against the stable channel's version, pre-fills the
suggested semver, and keeps Publish disabled until every breaking change is
acknowledged; the review goes to the store with the version.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from registry_db import StoreError, VersionInfo
from studio.diff import CLASS_ORDER, Change, RegistryDiff, ToolStatus, next_semver
from studio.ui.diff.diff_models import (
    CLASS_COLOURS,
    class_word,
    semver_word,
    short_value,
    status_word,
    tool_title,
)
from studio.ui.diff.review import breaking_changes, build_review
from studio.ui.diff.sides import PublishBaseline
from studio.ui.i18n import diff_message


@dataclass(frozen=True)
class PublishRequest:
    """What the author entered: release notes, an optional semver and the review."""

    notes: str
    semver: str | None
    review: dict[str, Any] | None = field(default=None, compare=False)


Publisher = Callable[[PublishRequest], VersionInfo]


@dataclass(frozen=True)
class ReviewedPublisher:
    """A publisher that comes with what the dialog should review first.

    Attributes:
        publish: Stores the version (gets the request with its review).
        baseline: The diff against the stable version; None when it could
            not be computed (the dialog then asks for notes and semver only).
        author: Who acknowledges the breaking changes.
    """

    publish: Publisher
    baseline: PublishBaseline | None
    author: str = ""
    evals: Any = None  # studio.ui.evals.publish_section.PublishEvals: offer the eval gate

    def __call__(self, request: PublishRequest) -> VersionInfo:
        return self.publish(request)


_ACK_ROLE = Qt.ItemDataRole.UserRole + 1


class PublishDialog(QDialog):
    """Collects a :class:`PublishRequest` and runs ``publish`` on OK.

    A refused publish (e.g. ``InvalidSemverError``) is shown inside the dialog
    and the dialog stays open with what was typed, so nothing is lost.

    Args:
        registry: Name of the registry being published.
        tool_count: How many tools the version will hold.
        publish: Called with the request; returns the new version or raises
            ``StoreError``.
        parent: The owning window.
        baseline: The diff to review; None for the plain dialog.
        author: Who acknowledges the breaking changes (stored in the review).
    """

    def __init__(
        self,
        registry: str,
        tool_count: int,
        publish: Publisher,
        parent: QWidget | None = None,
        baseline: PublishBaseline | None = None,
        author: str = "",
        evals: Any = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Publish {registry}").format(registry=registry))
        self._publish = publish
        self.baseline = baseline
        self.author = author
        self.published: VersionInfo | None = None

        intro = QLabel(
            self.tr(
                "Publish the saved draft of <b>{registry}</b> ({tool_count} tools) as a new "
                "immutable version. Agents and reviewers will see exactly this snapshot."
            ).format(registry=html.escape(registry), tool_count=tool_count)
        )
        intro.setWordWrap(True)
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setPlaceholderText(
            self.tr("What changed and why (shown in the version list)")
        )
        self.semver_edit = QLineEdit()
        self.semver_edit.setPlaceholderText(self.tr("optional, e.g. 1.2.0"))
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #d64545;")
        self.error_label.hide()

        form = QFormLayout()
        form.addRow(self.tr("Release notes:"), self.notes_edit)
        form.addRow(self.tr("Semantic version:"), self.semver_edit)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Publish"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        self.ack_list = QListWidget()
        self.eval_section: Any = None
        if baseline is not None:
            self._build_review(layout, baseline)
            if evals is not None:  # the eval gate beside the review (issue #12)
                from studio.ui.evals.publish_section import PublishEvalSection

                self.eval_section = PublishEvalSection(evals, baseline, self)
                layout.addWidget(self.eval_section)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(640, 620 if baseline is not None else 320)
        self._update_publish()

    # ------------------------------------------------------------------ review

    def _build_review(self, layout: QVBoxLayout, baseline: PublishBaseline) -> None:
        diff = baseline.diff
        self.baseline_label = QLabel(html.escape(baseline.note))
        self.baseline_label.setWordWrap(True)
        counts = " ".join(
            f'<span style="color:{CLASS_COLOURS[k]}"><b>{diff.counts[k]}</b> {class_word(k)}</span>'
            for k in CLASS_ORDER
        )
        reasons = ", ".join(diff.semver.reasons) or self.tr("no changes")
        self.summary_label = QLabel(
            self.tr("{counts}<br>Suggested bump: <b>{level}</b> — {reasons}").format(
                counts=counts, level=semver_word(diff.semver.level), reasons=html.escape(reasons)
            )
        )
        self.summary_label.setWordWrap(True)
        self.changes_view = QTextBrowser()
        self.changes_view.setHtml(_changes_html(diff))
        self.changes_view.setMinimumHeight(90)
        layout.addWidget(self.baseline_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.changes_view, 2)

        breaking = breaking_changes(diff)
        if breaking:
            self.ack_heading = QLabel(
                self.tr(
                    "<b>Acknowledge each breaking change ({count})</b> — callers built for "
                    "{baseline} may fail after this release:"
                ).format(count=len(breaking), baseline=html.escape(baseline.label))
            )
            self.ack_heading.setWordWrap(True)
            for change in breaking:
                item = QListWidgetItem(_ack_text(change))
                item.setToolTip(diff_message(change.message, change.rule_id))
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                item.setData(_ACK_ROLE, change)
                self.ack_list.addItem(item)
            self.ack_list.setWordWrap(True)
            self.ack_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self.ack_list.itemChanged.connect(lambda _item: self._update_publish())
            self.ack_all_button = QPushButton(self.tr("Acknowledge all"))
            self.ack_all_button.clicked.connect(self.acknowledge_all)
            layout.addWidget(self.ack_heading)
            layout.addWidget(self.ack_list, 1)
            layout.addWidget(self.ack_all_button, 0, Qt.AlignmentFlag.AlignLeft)
        try:
            suggested = next_semver(baseline.previous_semver, diff.semver.level)
        except ValueError:  # an unusual earlier label: let the author choose
            suggested = ""
        self.semver_edit.setText(suggested)
        # The review takes the room: notes stay a few lines tall.
        self.notes_edit.setMaximumHeight(90)
        self.semver_edit.setToolTip(
            self.tr("Suggested from {previous} and a {level} bump").format(
                previous=baseline.previous_semver or self.tr("no earlier semver"),
                level=semver_word(diff.semver.level),
            )
        )

    def ack_items(self) -> list[QListWidgetItem]:
        return [self.ack_list.item(i) for i in range(self.ack_list.count())]

    def acknowledged(self) -> list[Change]:
        """The breaking changes ticked so far."""
        return [
            item.data(_ACK_ROLE)
            for item in self.ack_items()
            if item.checkState() == Qt.CheckState.Checked
        ]

    def acknowledge_all(self) -> None:
        for item in self.ack_items():
            item.setCheckState(Qt.CheckState.Checked)

    def missing_acknowledgements(self) -> int:
        return self.ack_list.count() - len(self.acknowledged())

    def _update_publish(self) -> None:
        missing = self.missing_acknowledgements()
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        button.setEnabled(missing == 0)
        button.setToolTip(
            self.tr("Acknowledge the {missing} remaining breaking change(s) first").format(
                missing=missing
            )
            if missing
            else ""
        )

    # ------------------------------------------------------------------ publishing

    def request(self) -> PublishRequest:
        semver = self.semver_edit.text().strip()
        review = None
        if self.baseline is not None:
            review = build_review(self.baseline.diff, self.acknowledged(), self.author)
            if self.eval_section is not None and self.eval_section.review_record():
                review = {**review, "evals": self.eval_section.review_record()}
        return PublishRequest(self.notes_edit.toPlainText().strip(), semver or None, review)

    def accept(self) -> None:
        if self.missing_acknowledgements():
            return
        try:
            self.published = self._publish(self.request())
        except StoreError as exc:
            self.error_label.setText(self.tr("Not published: {exc}").format(exc=exc))
            self.error_label.show()
            return
        super().accept()


def _ack_text(change: Change) -> str:
    registry = QCoreApplication.translate("PublishDialog", "(registry)")
    where = f"{change.tool or registry} · {change.path or '—'}"
    return f"{change.rule_id} — {where}\n{diff_message(change.message, change.rule_id)}"


def _changes_html(diff: RegistryDiff) -> str:
    rows: list[str] = []
    for change in diff.registry_changes:
        rows.append(_change_row(QCoreApplication.translate("PublishDialog", "(registry)"), change))
    for tool in diff.tools:
        if tool.status is ToolStatus.UNCHANGED:
            continue
        if not tool.changes:
            rows.append(f"<tr><td>{html.escape(tool_title(tool))}</td><td colspan=3>"
                        f"{status_word(tool.status)}</td></tr>")  # fmt: skip
        for change in tool.changes:
            rows.append(_change_row(tool_title(tool), change))
    if not rows:
        return (
            "<p><i>"
            + QCoreApplication.translate("PublishDialog", "Nothing changed since the baseline.")
            + "</i></p>"
        )
    return "<table cellspacing=0 cellpadding=3>" + "".join(rows) + "</table>"


def _change_row(where: str, change: Change) -> str:
    colour = CLASS_COLOURS[change.klass]
    values = f"{short_value(change.before, 40)} → {short_value(change.after, 40)}"
    return (
        f"<tr><td>{html.escape(where)}</td>"
        f'<td style="color:{colour}">{class_word(change.klass)}</td>'
        f"<td><code>{html.escape(change.rule_id)}</code></td>"
        f"<td>{html.escape(diff_message(change.message, change.rule_id))} "
        f"<small>({html.escape(values)})</small></td></tr>"
    )
