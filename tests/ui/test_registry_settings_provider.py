"""Registry settings: Anthropic cache placement, OpenAI namespaces, Gemini mode (#17)."""

from __future__ import annotations

import json

from studio.contract import (
    DEFAULT_DESCRIPTION_TEMPLATE,
    DEFAULT_VERBS,
    Registry,
    RegistrySettings,
    ToolContract,
)
from studio.contract.document import provider_settings
from studio.contract.provider_options import GeminiSettings, ProviderSettings
from studio.formats import export_registry
from studio.ui.dialogs.registry_settings_dialog import (
    RegistrySettingsDialog,
    RegistrySettingsRequest,
    parse_namespaces,
    settings_with_provider,
)

STORED = ProviderSettings("none", {"crm": "Customer records"}, GeminiSettings(""))


def _dialog(qtbot, provider: ProviderSettings | None = STORED) -> RegistrySettingsDialog:
    current = RegistrySettingsRequest(
        "T", "D", DEFAULT_VERBS, DEFAULT_DESCRIPTION_TEMPLATE, provider
    )
    dlg = RegistrySettingsDialog("claims", current, None)
    qtbot.addWidget(dlg)
    return dlg


def test_the_dialog_edits_the_provider_options(qtbot) -> None:
    dlg = _dialog(qtbot)
    assert dlg.namespaces_edit.toPlainText() == "crm: Customer records"
    dlg.cache_combo.setCurrentIndex(dlg.cache_combo.findData("tools"))
    dlg.namespaces_edit.setPlainText("crm: Customer records\n\nbilling: 账单与发票")
    dlg.gemini_combo.setCurrentIndex(dlg.gemini_combo.findData("VALIDATED"))
    assert dlg.save_button.isEnabled()
    assert dlg.request().provider == ProviderSettings(
        "tools", {"crm": "Customer records", "billing": "账单与发票"}, GeminiSettings("VALIDATED")
    )


def test_a_bad_namespace_blocks_saving_with_its_line(qtbot) -> None:
    dlg = _dialog(qtbot)
    dlg.namespaces_edit.setPlainText("crm: ok\nbad name: no")
    assert not dlg.save_button.isEnabled()
    assert "line 2" in dlg.namespaces_problem.text()
    assert dlg.namespaces_problem.isVisibleTo(dlg)
    assert parse_namespaces("a: 1\na: 2")[1] and parse_namespaces("")[0] == {}


def test_without_stored_options_the_group_is_hidden_and_nothing_changes(qtbot) -> None:
    dlg = _dialog(qtbot, None)
    assert dlg.request().provider is None


def test_settings_round_trip_and_reach_the_exports() -> None:
    base = RegistrySettings(extra={"lint": {"disabled": ["x"]}})
    chosen = ProviderSettings("tools", {"crm": "Customer records"}, GeminiSettings("ANY"))
    settings = settings_with_provider(base, chosen)
    assert settings.extra["lint"] == {"disabled": ["x"]}
    assert provider_settings(settings) == chosen
    # All default: the key is removed again.
    assert "provider" not in settings_with_provider(settings, ProviderSettings()).extra
    assert settings_with_provider(settings, None) is settings
    tool = ToolContract(
        name="get_customer",
        summary="Get one customer.",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
    )
    registry = Registry("crm", settings=settings, tools=(tool,))
    anthropic = json.loads(export_registry(registry, "anthropic").text or "null")
    assert anthropic[-1]["cache_control"] == {"type": "ephemeral"}
    gemini = json.loads(export_registry(registry, "gemini").text or "null")
    assert gemini["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"
