"""The interface language: English (the source strings) or Simplified Chinese.

Strings in the UI are English in the code, wrapped in ``self.tr()`` or
``QCoreApplication.translate()``; ``resources/translations/studio_zh_CN.ts``
holds their Chinese and ``studio_zh_CN.qm`` is its compiled form (committed,
and a test checks it is current). Installing a translator makes Qt send a
``LanguageChange`` event to every widget, so the shell can rebuild its texts
without a restart.

Qt's own strings (the OK/Cancel of standard dialog buttons, the context menu
of a line edit) come from Qt's ``qtbase_zh_CN.qm``, shipped in the PySide6
wheel; it is installed beside ours.

What the headless core writes is not a Qt string, and stays English in the
CLI and the reports; the UI shows it translated from JSON catalogues beside
the ``.ts``: lint categories and rationales (:func:`lint_text`,
``lint_zh_CN.json``), lint finding messages (:func:`lint_message`), diff change
messages (:func:`diff_message`) and import/export notes (:func:`note_message`),
the last three by one pattern per message template of the core.

To refresh the catalogue after changing UI strings, and to list core
messages that have no translation yet::

    python scripts/update_translations.py
    python scripts/update_translations.py --messages lint   # or diff, note
"""

from __future__ import annotations

import json
import logging
import re
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

_log = logging.getLogger(__name__)

SYSTEM = "system"
ENGLISH = "en"
CHINESE = "zh_CN"

# The label of each choice is written in its own language, as language
# menus do: a reader who cannot read the current language still finds theirs.
_LANGUAGES: tuple[tuple[str, str], ...] = (
    (SYSTEM, "System"),
    (ENGLISH, "English"),
    (CHINESE, "简体中文"),
)

# The translators installed now (kept referenced: Qt does not own them, and a
# collected translator would silently turn the UI back to English).
_installed: list[QTranslator] = []
_current = ENGLISH


def available_languages() -> list[tuple[str, str]]:
    """The choices of View → Language: ``(code, label)``, "system" first."""
    return list(_LANGUAGES)


def current_language() -> str:
    """The language the UI shows now: ``"en"`` or ``"zh_CN"`` (never "system")."""
    return _current


def is_chinese() -> bool:
    """True when the UI shows Simplified Chinese."""
    return _current == CHINESE


def translations_dir() -> Path:
    """The folder of the studio's ``.ts`` sources and ``.qm`` catalogues."""
    return Path(str(resources.files("resources"))) / "translations"


def resolve_language(code: str, system_locale: QLocale | None = None) -> str:
    """The language ``code`` means: "system" becomes "en" or "zh_CN".

    Any Chinese locale resolves to Simplified Chinese: Traditional readers
    read it far more easily than English, and it is the only Chinese there is.

    Raises:
        ValueError: ``code`` is not one of :func:`available_languages`.
    """
    if code == SYSTEM:
        locale = system_locale if system_locale is not None else QLocale.system()
        return CHINESE if locale.language() == QLocale.Language.Chinese else ENGLISH
    if code in (ENGLISH, CHINESE):
        return code
    choices = ", ".join(known for known, _label in _LANGUAGES)
    raise ValueError(f"unknown language {code!r}: choose one of {choices}")


def apply_language(app: QCoreApplication, code: str) -> str:
    """Show the UI in ``code`` ("system", "en" or "zh_CN"); return the language applied.

    Previous translators are removed first, so switching back and forth does
    not stack them. When the studio's catalogue cannot be loaded (a broken
    install), the UI stays English and the reason is logged: English is
    still a working UI, a half-translated one is not.

    Raises:
        ValueError: ``code`` is not a known language.
    """
    global _current
    effective = resolve_language(code)
    for translator in _installed:
        app.removeTranslator(translator)
        translator.deleteLater()
    _installed.clear()
    _current = ENGLISH
    if effective == ENGLISH:
        return ENGLISH
    studio = QTranslator(app)
    catalogue = translations_dir() / f"studio_{effective}.qm"
    if not studio.load(str(catalogue)):
        _log.warning(
            "cannot load the %s translation %s: the UI stays English", effective, catalogue
        )
        studio.deleteLater()
        return ENGLISH
    qt_base = QTranslator(app)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt_base.load(f"qtbase_{effective}", qt_dir):
        app.installTranslator(qt_base)
        _installed.append(qt_base)
    else:
        _log.info(
            "Qt's own %s strings not found in %s: standard buttons stay English", effective, qt_dir
        )
        qt_base.deleteLater()
    # Ours last: the translator installed last is asked first.
    app.installTranslator(studio)
    _installed.append(studio)
    _current = effective
    return effective


def translate(context: str, text: str, n: int = -1) -> str:
    """``QCoreApplication.translate`` for module-level code (functions, not QObjects)."""
    return QCoreApplication.translate(context, text, None, n)


@cache
def _lint_catalogue(language: str) -> dict[str, dict[str, str]]:
    path = translations_dir() / f"lint_{language}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        _log.warning("cannot read the lint translations %s: %s", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


_Patterns = tuple[
    list[tuple[tuple[str, ...], re.Pattern[str], str]], list[tuple[str, re.Pattern[str], str]]
]
_GROUP = re.compile(r"\(\?P<\w+>\.\*\?\)|\(\?P<\w+>\[\^ \]\+\?\)")


@cache
def _message_patterns(catalogue: str, language: str) -> _Patterns:
    """``(literal parts, pattern, template)`` per message, and ``(pattern, text)`` per fragment.

    A message's fields are often words of the rules themselves ("write",
    "the caller's identity"): the fragments translate those inside the
    values a message pattern captured.
    """
    path = translations_dir() / f"{catalogue}_{language}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        messages = []
        for entry in data["messages"]:
            pattern = re.compile(entry["pattern"], re.DOTALL)
            # The fixed words between the fields: a message lacking one is not
            # tried (a regular expression per message and template is slow).
            parts = tuple(
                part
                for raw in _GROUP.split(entry["pattern"])
                if len(part := re.sub(r"\\(.)", r"\1", raw)) >= 3
            )
            messages.append((parts, pattern, entry["zh"]))
        fragments = [
            (_needle(pattern), re.compile(pattern), text) for pattern, text in data["fragments"]
        ]
    except (OSError, ValueError, KeyError, TypeError, re.error) as exc:
        _log.warning("cannot read the message translations %s: %s", path, exc)
        return [], []
    return messages, fragments


# Per rule, the message patterns that matched its messages so far: tried first
# (a rule has one to three templates; scanning all of them costs ~60 µs).
_rule_patterns: dict[tuple[str, str, str], list[int]] = {}


@lru_cache(maxsize=65536)
def _translated_message(catalogue: str, language: str, message: str, rule_id: str) -> str:
    messages = _message_patterns(catalogue, language)[0]
    known = _rule_patterns.setdefault((catalogue, language, rule_id), [])
    for indexes in (known, range(len(messages))):
        for index in indexes:
            parts, pattern, template = messages[index]
            if not all(part in message for part in parts):
                continue
            match = pattern.fullmatch(message)
            if match is None:
                continue
            if index not in known:
                known.append(index)
            values = tuple(
                _translated_value(catalogue, language, value) for value in match.groups()
            )
            return _fill(template, values)
    return message


@lru_cache(maxsize=65536)
def _translated_value(catalogue: str, language: str, value: str) -> str:
    """A field of a message with the rules' own words in it translated (fragments)."""
    for needle, fragment, text in _message_patterns(catalogue, language)[1]:
        if needle in value:
            value = fragment.sub(text, value)
    return value


def _needle(pattern: str) -> str:
    """The longest fixed text of ``pattern``: a value without it cannot match."""
    pieces = re.split(r"\\[dwsSWD]|[\^$()\[\]*+?{}|.]", re.sub(r"\\([^dwsSWD])", r"\1", pattern))
    return max(pieces, key=len)


def _fill(template: str, values: tuple[str, ...]) -> str:
    """``template`` with ``{0}``, ``{1}``… replaced by ``values`` (no other brace is special)."""
    return re.sub(r"\{(\d+)\}", lambda m: values[int(m.group(1))], template)


def lint_message(message: str, rule_id: str = "") -> str:
    """A lint finding's message in the UI language (``rule_id`` makes it faster).

    Messages are English sentences built by the rules (the CLI and the
    reports keep them so); ``lint_messages_<lang>.json`` holds one pattern
    per message template with its translation. What is interpolated (names,
    values, the linter's own words) stays as the rule wrote it; a message no
    pattern matches is shown in English.
    """
    if _current == ENGLISH:
        return message
    return _translated_message("lint_messages", _current, message, rule_id)


def note_message(message: str) -> str:
    """An import or export note (``studio.formats.Note``) in the UI language.

    As :func:`lint_message`, from ``note_messages_<lang>.json``.
    """
    if _current == ENGLISH:
        return message
    return _translated_message("note_messages", _current, message, "")


def diff_message(message: str, rule_id: str = "") -> str:
    """A classified change's message (``studio.diff``) in the UI language.

    As :func:`lint_message`, from ``diff_messages_<lang>.json``: the Markdown
    and JSON reports keep the English the diff wrote.
    """
    if _current == ENGLISH:
        return message
    return _translated_message("diff_messages", _current, message, rule_id)


def lint_text(rule_id: str, field: str, english: str) -> str:
    """A lint rule's ``field`` ("category" or "rationale") in the UI language.

    ``english`` is returned when the UI is English or the rule has no
    translation yet (a new rule is readable before it is translated).
    """
    if _current == ENGLISH:
        return english
    entry = _lint_catalogue(_current).get(rule_id, {})
    text = entry.get(field) if isinstance(entry, dict) else None
    return text if isinstance(text, str) and text else english
