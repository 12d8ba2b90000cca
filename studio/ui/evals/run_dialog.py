"""The run dialog: A and B (draft, a version or a channel), profiles, repetitions, budget.

What it returns is a :class:`~studio.ui.evals.run_controller.RunRequest`; the
controller resolves and checks it, so the dialog only offers what exists.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from registry_db import RegistryStore
from studio.ui.evals.run_controller import RunRequest


def variant_choices(store: RegistryStore, registry: str) -> list[tuple[str, str]]:
    """(label, spec) for the draft, each version (newest first) and each channel serving one."""
    from registry_db.channels import ChannelRepository

    out = [("draft", "draft")]
    for v in reversed(store.list_versions(registry)):
        label = f"v{v.number}" + (f" ({v.semver})" if v.semver else "")
        out.append((label, str(v.number)))
    for c in ChannelRepository(store).channels(registry):
        if c.version is not None:
            out.append((f"#{c.name} (v{c.version})", f"#{c.name}"))
    return out


class RunDialog(QDialog):
    """Ask what to run; :meth:`request` reads the answer."""

    def __init__(
        self,
        store: RegistryStore,
        registry: str,
        set_name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        from registry_db.profiles import ProfileRepository

        self.registry, self.set_name = registry, set_name
        self.setWindowTitle(self.tr("Run eval set {name}").format(name=set_name))
        choices = variant_choices(store, registry)
        self.a_combo = QComboBox()
        self.b_combo = QComboBox()
        self.b_combo.addItem(self.tr("(none: one variant)"), "")
        for label, spec in choices:
            self.a_combo.addItem(label, spec)
            self.b_combo.addItem(label, spec)
        # The usual question: the newest version (A) against the draft (B).
        if len(choices) > 1:
            self.a_combo.setCurrentIndex(1)
            self.b_combo.setCurrentIndex(1)  # "draft" after "(none)"
        self.profiles = QListWidget()
        self.profiles.setAccessibleName(self.tr("Model profiles"))
        for profile in ProfileRepository(store).list_profiles():
            item = QListWidgetItem(f"{profile.name} — {profile.model}")
            item.setData(Qt.ItemDataRole.UserRole, profile.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(
                Qt.CheckState.Checked if self.profiles.count() == 0 else Qt.CheckState.Unchecked
            )
            self.profiles.addItem(item)
        self.profiles.setMaximumHeight(self.fontMetrics().height() * 5 + 10)
        self.no_profiles = QLabel(
            self.tr("No model profile yet: add one in the Playground (Profiles…).")
        )
        self.no_profiles.setWordWrap(True)
        self.no_profiles.setVisible(self.profiles.count() == 0)
        self.repeat = _spin(1, 20, 1)
        self.concurrency = _spin(1, 64, 4)
        self.budget_requests = _spin(0, 1_000_000, 0)
        self.budget_requests.setSpecialValueText(self.tr("no limit"))
        self.budget_tokens = _spin(0, 1_000_000_000, 0)
        self.budget_tokens.setSpecialValueText(self.tr("no limit"))
        self.budget_tokens.setSingleStep(10_000)
        self.cache = QCheckBox(self.tr("Reuse cached answers for identical requests"))
        self.cache.setChecked(True)
        self.multi_step = QCheckBox(self.tr("Multi-step: play whole conversations on the mocks"))
        self.multi_step.setToolTip(
            self.tr(
                "Tools run as the registry's stored mocks until the model answers; scores "
                "end-to-end success and grounding"
            )
        )

        form = QFormLayout()
        form.addRow(self.tr("A (baseline):"), self.a_combo)
        form.addRow(self.tr("B (candidate):"), self.b_combo)
        form.addRow(self.tr("Profiles:"), self.profiles)
        form.addRow("", self.no_profiles)
        form.addRow(self.tr("Repetitions:"), self.repeat)
        form.addRow(self.tr("Concurrency:"), self.concurrency)
        form.addRow(self.tr("Budget (requests):"), self.budget_requests)
        form.addRow(self.tr("Budget (tokens):"), self.budget_tokens)
        form.addRow("", self.cache)
        form.addRow("", self.multi_step)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Run"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.profiles.itemChanged.connect(self._update_ok)
        self._update_ok()

    def checked_profiles(self) -> tuple[str, ...]:
        items = (self.profiles.item(i) for i in range(self.profiles.count()))
        return tuple(
            str(it.data(Qt.ItemDataRole.UserRole))
            for it in items
            if it.checkState() == Qt.CheckState.Checked
        )

    def set_profiles(self, names: tuple[str, ...]) -> None:
        """Check exactly ``names`` (tests and resumes)."""
        for i in range(self.profiles.count()):
            item = self.profiles.item(i)
            on = item.data(Qt.ItemDataRole.UserRole) in names
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def select_variants(self, a: str, b: str = "") -> None:
        """Choose A and B by spec."""
        self.a_combo.setCurrentIndex(max(0, self.a_combo.findData(a)))
        self.b_combo.setCurrentIndex(max(0, self.b_combo.findData(b)))

    def _update_ok(self, *_args: object) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.checked_profiles()))

    def request(self) -> RunRequest:
        b = str(self.b_combo.currentData() or "")
        a = str(self.a_combo.currentData() or "draft")
        return RunRequest(
            registry=self.registry,
            set_name=self.set_name,
            a=a,
            b="" if b == a else b,
            profiles=self.checked_profiles(),
            repeat=self.repeat.value(),
            concurrency=self.concurrency.value(),
            budget_requests=self.budget_requests.value() or None,
            budget_tokens=self.budget_tokens.value() or None,
            use_cache=self.cache.isChecked(),
            multi_step=self.multi_step.isChecked(),
        )


def _spin(low: int, high: int, value: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    return spin
