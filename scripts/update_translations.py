"""Refresh the UI translations: lupdate over studio/ui, then lrelease.

``pyside6-lupdate`` (from the PySide6 wheel) collects every ``self.tr()`` and
``QCoreApplication.translate()`` string of ``studio/ui/**/*.py`` into
``resources/translations/studio_zh_CN.ts``, keeping the translations already
written and marking strings that left the code as obsolete (dropped with
``--no-obsolete``). ``pyside6-lrelease`` then compiles the ``.ts`` into the
``.qm`` the app loads. Both files are committed; ``tests/ui/test_i18n.py``
fails when the ``.qm`` is not the compiled ``.ts``.

Lint finding messages are not Qt strings: ``lint_messages_zh_CN.json`` holds
one regular expression per message template of ``studio/lint/rules`` (the
English sentence with its ``{...}`` fields as groups) and its translation.
``--messages lint`` lists the templates that have none yet, with the pattern
to add; ``--messages diff`` and ``--messages note`` do the same for
``diff_messages_zh_CN.json`` (``studio/diff``) and ``note_messages_zh_CN.json``
(the import/export notes of ``studio/formats``).

Usage::

    python scripts/update_translations.py                  # lupdate + lrelease
    python scripts/update_translations.py --release        # lrelease only
    python scripts/update_translations.py --messages lint  # untranslated lint messages
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UI_DIR = ROOT / "studio" / "ui"
TRANSLATIONS = ROOT / "resources" / "translations"
LANGUAGES = ("zh_CN",)


def qt_tool(name: str) -> str:
    """The path of ``pyside6-<name>`` beside this Python (the venv), else on PATH."""
    beside = Path(sys.executable).parent / f"pyside6-{name}"
    if beside.exists():
        return str(beside)
    found = shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"pyside6-{name} not found: install PySide6 in this environment")
    return found


def ui_sources() -> list[Path]:
    """Every Python file of the UI package, sorted (a stable .ts order)."""
    return sorted(UI_DIR.rglob("*.py"))


def lupdate(ts_path: Path, *, no_obsolete: bool = False) -> None:
    """Collect the UI strings into ``ts_path`` (existing translations are kept)."""
    command = [qt_tool("lupdate"), "-locations", "none"]
    if no_obsolete:
        command.append("-no-obsolete")
    command += [str(path.relative_to(ROOT)) for path in ui_sources()]
    command += ["-ts", str(ts_path)]
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True)


def lrelease(ts_path: Path, qm_path: Path) -> None:
    """Compile ``ts_path`` into ``qm_path``."""
    command = [qt_tool("lrelease"), "-silent", str(ts_path), "-qm", str(qm_path)]
    subprocess.run(command, check=True, capture_output=True, text=True)


def _template(message: ast.expr) -> str | None:
    """A message literal as a template: f-string fields as ``{0}``, ``{1}``… (None: not one)."""
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return message.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(message, ast.JoinedStr):
        return None
    parts, field = [], 0
    for value in message.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
        else:
            parts.append(f"{{{field}}}")
            field += 1
    return "".join(parts)


def _call_messages(folder: Path, position: dict[str, int]) -> list[tuple[str, str]]:
    """``(file:line, template)`` of the message argument of calls named in ``position``."""
    found = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            index = position.get(name)
            if index is None or len(node.args) <= index:
                continue
            template = _template(node.args[index])
            if template is not None:
                found.append((f"{path.name}:{node.lineno}", template))
    return found


def lint_message_templates() -> list[tuple[str, str]]:
    """``(file:line, template)`` of every message of a rule's ``Hit``, fields as ``{0}``."""
    return _call_messages(ROOT / "studio" / "lint" / "rules", {"Hit": 2})


def diff_message_templates() -> list[tuple[str, str]]:
    """``(file:line, template)`` of every classified change's message in ``studio.diff``."""
    return _call_messages(ROOT / "studio" / "diff", {"Change": 6, "add": 5})


def template_pattern(template: str) -> str:
    """The regular expression matching the messages built from ``template``."""
    out, pos = [], 0
    for match in re.finditer(r"(?<!\{)\{(\d+)\}(?!\})", template):
        out.append(re.escape(template[pos : match.start()].replace("{{", "{").replace("}}", "}")))
        out.append(f"(?P<p{match.group(1)}>.*?)")
        pos = match.end()
    out.append(re.escape(template[pos:].replace("{{", "{").replace("}}", "}")))
    return "".join(out)


def note_message_templates() -> list[tuple[str, str]]:
    """``(file:line, template)`` of every import/export note written in ``studio.formats``."""
    calls = {"Note": 1, "note": 1, "_note": 1, "lost": 1, "guessed": 1}
    return _call_messages(ROOT / "studio" / "formats", calls)


_TEMPLATES = {
    "lint": lint_message_templates,
    "diff": diff_message_templates,
    "note": note_message_templates,
}


def untranslated_messages(kind: str = "lint", language: str = "zh_CN") -> list[tuple[str, str]]:
    """Templates without a pattern in ``<kind>_messages_<language>.json`` (all-field ones aside)."""
    path = TRANSLATIONS / f"{kind}_messages_{language}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    known = {entry["pattern"] for entry in data["messages"]}
    templates = _TEMPLATES[kind]()
    return [
        (where, template)
        for where, template in templates
        if re.sub(r"\{\d+\}|[\W_]", "", template) and template_pattern(template) not in known
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", action="store_true", help="only compile the .ts files")
    parser.add_argument(
        "--no-obsolete", action="store_true", help="drop strings gone from the code"
    )
    parser.add_argument(
        "--messages",
        choices=sorted(_TEMPLATES),
        help="list the lint, diff or note messages without a translation",
    )
    args = parser.parse_args(argv)
    if args.messages:
        for where, template in untranslated_messages(args.messages):
            print(f"{where}: {template}\n    pattern: {template_pattern(template)}")
        return 0
    for language in LANGUAGES:
        ts_path = TRANSLATIONS / f"studio_{language}.ts"
        if not args.release:
            lupdate(ts_path, no_obsolete=args.no_obsolete)
        lrelease(ts_path, TRANSLATIONS / f"studio_{language}.qm")
        print(f"{ts_path.relative_to(ROOT)}: updated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
