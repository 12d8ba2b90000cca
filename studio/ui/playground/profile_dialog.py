"""Add or edit a model profile (the API key goes to the keyring, never the database)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.providers import ModelParams, ModelProfile, ProviderKind
from studio.ui.style import theme_colour


class ProfileDialog(QDialog):
    """Name, kind, base URL, model, key source and default parameters of a profile.

    Args:
        profile: The profile to edit, or None for a new one.
    """

    def __init__(self, profile: ModelProfile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            self.tr("Edit model profile") if profile else self.tr("Add model profile")
        )
        self.name_edit = QLineEdit(profile.name if profile else "")
        self.kind_combo = QComboBox()
        for kind in ProviderKind:
            self.kind_combo.addItem(kind.value, kind)
        self.base_url_edit = QLineEdit(profile.base_url if profile else "http://localhost:11434/v1")
        # A whole URL in view (it was clipped): wide enough for a typical provider URL.
        self.base_url_edit.setMinimumWidth(
            self.base_url_edit.fontMetrics().horizontalAdvance(
                "https://generativelanguage.example/v1beta"
            )
        )
        self.model_edit = QLineEdit(profile.model if profile else "")
        self.key_env_edit = QLineEdit(profile.api_key_env or "" if profile else "")
        self.key_env_edit.setPlaceholderText(self.tr("e.g. OPENAI_API_KEY (empty: system keyring)"))
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("optional: saved in the system keyring"))
        params = profile.params if profile else ModelParams()
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(-0.01, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setSpecialValueText(self.tr("default"))
        self.temperature.setValue(params.temperature if params.temperature is not None else -0.01)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 200_000)
        self.max_tokens.setValue(params.max_tokens or 1024)
        if profile:
            self.kind_combo.setCurrentIndex(self.kind_combo.findData(profile.kind))
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme_colour('error_fg', self)}")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("&Name"), self.name_edit)
        form.addRow(self.tr("&Kind"), self.kind_combo)
        form.addRow(self.tr("&Base URL"), self.base_url_edit)
        form.addRow(self.tr("&Model"), self.model_edit)
        form.addRow(self.tr("API key &variable"), self.key_env_edit)
        form.addRow(self.tr("API &key"), self.key_edit)
        form.addRow(self.tr("&Temperature"), self.temperature)
        form.addRow(self.tr("Max &tokens"), self.max_tokens)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self.result_profile: ModelProfile | None = None

    def profile(self) -> ModelProfile:
        """The profile the fields describe; raises ValueError naming the bad field."""
        temperature = self.temperature.value()
        params = ModelParams(
            temperature=None if temperature < 0 else round(temperature, 2),
            max_tokens=self.max_tokens.value(),
        )
        return ModelProfile(
            self.name_edit.text().strip(),
            self.kind_combo.currentData(),
            self.base_url_edit.text().strip(),
            self.model_edit.text().strip(),
            self.key_env_edit.text().strip() or None,
            params,
        )

    def api_key(self) -> str:
        return self.key_edit.text()

    def _accept(self) -> None:
        try:
            profile = self.profile()
            if not profile.model:
                raise ValueError("a profile needs a model name")
        except ValueError as exc:
            self.error_label.setText(str(exc))
            return
        self.result_profile = profile
        self.accept()
