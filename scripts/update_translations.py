"""Refresh the UI translations: lupdate over studio/ui, then lrelease.

``pyside6-lupdate`` (from the PySide6 wheel) collects every ``self.tr()`` and
``QCoreApplication.translate()`` string of ``studio/ui/**/*.py`` into
``resources/translations/studio_zh_CN.ts``, keeping the translations already
written and marking strings that left the code as obsolete (dropped with
``--no-obsolete``). ``pyside6-lrelease`` then compiles the ``.ts`` into the
``.qm`` the app loads. Both files are committed; ``tests/ui/test_i18n.py``
fails when the ``.qm`` is not the compiled ``.ts``.

Usage::

    python scripts/update_translations.py            # lupdate + lrelease
    python scripts/update_translations.py --release  # lrelease only
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", action="store_true", help="only compile the .ts files")
    parser.add_argument(
        "--no-obsolete", action="store_true", help="drop strings gone from the code"
    )
    args = parser.parse_args(argv)
    for language in LANGUAGES:
        ts_path = TRANSLATIONS / f"studio_{language}.ts"
        if not args.release:
            lupdate(ts_path, no_obsolete=args.no_obsolete)
        lrelease(ts_path, TRANSLATIONS / f"studio_{language}.qm")
        print(f"{ts_path.relative_to(ROOT)}: updated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
