"""The translation machinery: languages, translators, the catalogue files, the lint catalogue."""

from __future__ import annotations

import importlib.util
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QApplication, QDialogButtonBox

import studio.lint  # noqa: F401 - registers the rules  # noqa: F401 - registers the rules
from studio.contract import parse_registry
from studio.lint import lint_registry
from studio.lint.model import RULES
from studio.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
TS = i18n.translations_dir() / "studio_zh_CN.ts"
QM = i18n.translations_dir() / "studio_zh_CN.qm"
LINT = i18n.translations_dir() / "lint_zh_CN.json"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\d")  # {name} for str.format, %1 for arg()


@pytest.fixture
def english_after(qapp: QApplication):
    yield qapp
    i18n.apply_language(qapp, "en")


def _update_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "update_translations", ROOT / "scripts" / "update_translations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_available_languages_put_system_first() -> None:
    codes = [code for code, _label in i18n.available_languages()]
    assert codes == ["system", "en", "zh_CN"]
    assert dict(i18n.available_languages())["zh_CN"] == "简体中文"


def test_system_resolves_from_the_locale() -> None:
    assert i18n.resolve_language("system", QLocale(QLocale.Language.Chinese)) == "zh_CN"
    assert i18n.resolve_language("system", QLocale("zh_TW")) == "zh_CN"
    assert i18n.resolve_language("system", QLocale(QLocale.Language.German)) == "en"
    with pytest.raises(ValueError, match="unknown language 'fr': choose one of system, en"):
        i18n.resolve_language("fr")


def test_apply_language_switches_and_does_not_stack(english_after: QApplication) -> None:
    app = english_after
    assert i18n.apply_language(app, "zh_CN") == "zh_CN"
    assert i18n.current_language() == "zh_CN" and i18n.is_chinese()
    assert QCoreApplication.translate("NewRegistryDialog", "New registry") == "新建注册表"
    # Qt's own strings come from qtbase_zh_CN.qm.
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
    assert i18n.apply_language(app, "zh_CN") == "zh_CN"  # twice: still one pair installed
    assert i18n.apply_language(app, "en") == "en"
    assert QCoreApplication.translate("NewRegistryDialog", "New registry") == "New registry"


def test_a_missing_catalogue_keeps_english(
    english_after: QApplication, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(i18n, "translations_dir", lambda: tmp_path)
    assert i18n.apply_language(english_after, "zh_CN") == "en"
    assert i18n.current_language() == "en"


def test_the_committed_qm_is_the_compiled_ts(tmp_path: Path) -> None:
    """Run ``python scripts/update_translations.py --release`` when this fails."""
    script = _update_script()
    fresh = tmp_path / "studio_zh_CN.qm"
    script.lrelease(TS, fresh)
    assert fresh.read_bytes() == QM.read_bytes(), "studio_zh_CN.qm is older than the .ts"


def test_every_message_is_translated_with_its_placeholders() -> None:
    root = ET.parse(TS).getroot()
    unfinished, broken = [], []
    for context in root.iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            assert translation is not None
            if translation.get("type") in ("obsolete", "vanished"):
                continue
            forms = [f.text or "" for f in translation.iter("numerusform")] or [
                translation.text or ""
            ]
            if translation.get("type") == "unfinished" or not all(forms):
                unfinished.append(f"{name}: {source!r}")
            for text in forms:
                if sorted(_PLACEHOLDER.findall(source)) != sorted(_PLACEHOLDER.findall(text)):
                    broken.append(f"{name}: {source!r} -> {text!r}")
    assert not broken, "placeholders differ:\n" + "\n".join(broken)
    assert not unfinished, (
        f"{len(unfinished)} untranslated (python scripts/update_translations.py, then translate "
        f"them in {TS.name}):\n" + "\n".join(unfinished)
    )


def test_the_lint_catalogue_covers_every_rule(english_after: QApplication) -> None:
    catalogue = json.loads(LINT.read_text(encoding="utf-8"))
    missing = [rule_id for rule_id in RULES if rule_id not in catalogue]
    assert not missing, f"add their category and rationale to {LINT.name}: {missing}"
    assert all(entry.get("rationale") and entry.get("category") for entry in catalogue.values())
    rule = next(iter(RULES.values()))
    assert i18n.lint_text(rule.id, "rationale", rule.rationale) == rule.rationale
    i18n.apply_language(english_after, "zh_CN")
    assert i18n.lint_text(rule.id, "rationale", rule.rationale) == catalogue[rule.id]["rationale"]
    assert i18n.lint_text("no-such-rule", "title", "English") == "English"


def test_lint_messages_are_shown_in_chinese(english_after: QApplication) -> None:
    registry = parse_registry(
        json.loads((ROOT / "resources" / "examples" / "order-service.json").read_text("utf-8"))
    )
    findings = list(lint_registry(registry, profile="openai").findings)
    message = findings[0].message
    assert i18n.lint_message(message) == message  # English: as the rule wrote it
    i18n.apply_language(english_after, "zh_CN")
    shown = [i18n.lint_message(f.message) for f in findings]
    translated = [s for s, f in zip(shown, findings, strict=True) if s != f.message]
    # The flawed example hits most rules; the all-placeholder pair messages stay English.
    assert len(translated) >= 0.9 * len(findings), [
        f.message for f in findings if f.message in shown
    ]
    limitations = next(
        s for s, f in zip(shown, findings, strict=True) if f.rule_id == "desc-no-limitations"
    )
    assert limitations.startswith("描述没有说明任何限制")
    # The rules' own words inside a message are translated too (fragments).
    idempotency = next(
        s
        for s, f in zip(shown, findings, strict=True)
        if f.rule_id == "risk-write-without-idempotency"
    )
    assert idempotency.startswith("此写入工具不要求幂等键")
    assert i18n.lint_message(
        "Parameter 'type' is ambiguous; name what it identifies or holds."
    ) == ("参数 'type' 含义不明；请在名称中说明它标识或存放什么。")


def test_lint_message_patterns_follow_the_rules() -> None:
    """``python scripts/update_translations.py --messages lint|diff|note`` lists what is missing."""
    script = _update_script()
    for templates, missing in (
        (script.lint_message_templates(), script.untranslated_messages("lint")),
        (script.diff_message_templates(), script.untranslated_messages("diff")),
        (script.note_message_templates(), script.untranslated_messages("note")),
    ):
        assert len(templates) > 40
        assert len(missing) <= 0.1 * len(templates), missing


def test_diff_messages_are_shown_in_chinese(english_after: QApplication) -> None:
    message = "summary edited (what the model reads)"
    assert i18n.diff_message(message, "desc.summary-changed") == message
    i18n.apply_language(english_after, "zh_CN")
    assert i18n.diff_message(message, "desc.summary-changed") == "摘要已编辑（模型读到的内容）"
    assert (
        i18n.diff_message("risk tier read → write (changes confirmation before a call)")
        == "风险等级 只读 → 写入（改变调用前的确认）"
    )
    assert i18n.diff_message("not a diff message") == "not a diff message"


def test_import_and_export_notes_are_shown_in_chinese(english_after: QApplication) -> None:
    note = "not representable in OpenAI tools: title"
    assert i18n.note_message(note) == note
    i18n.apply_language(english_after, "zh_CN")
    assert i18n.note_message(note) == "无法在 OpenAI tools 中表示：标题"
    assert i18n.note_message("schema 'x' depth (7); cut there to {}") == (
        "Schema 'x' depth（7）；已在此处截断为 {}"
    )
