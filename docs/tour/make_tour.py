"""Make the screenshot tour in docs/tour/: every mode, light and dark, English and 简体中文.

Runs the real studio offscreen on a fresh database seeded with the examples,
with a little history so every mode has something to show: travel-reimbursement
published twice (a canary on v2 at 10 %) and an unsaved edit in the editor.

Usage::

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/tour/make_tour.py
    .venv/bin/python docs/tour/make_tour.py --size 900x600 --out /tmp/tour-small

Chinese text needs a CJK font (Debian: fonts-noto-cjk); where a string is not
translated yet the zh_CN shots show its English.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from registry_db import RegistryStore, UpsertTool, open_default_store  # noqa: E402
from studio.editing import EditTool, SetField  # noqa: E402
from studio.release import set_canary  # noqa: E402

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
REGISTRY = "travel-reimbursement"


def _prepare(path: Path) -> RegistryStore:
    store = open_default_store(path, seed=True)
    if not store.list_versions(REGISTRY):  # the seed may publish v1 itself
        store.publish(REGISTRY, notes="first release", semver="1.0.0", author="tour")
    rows = store.draft_tools(REGISTRY)
    row = rows[0]
    tool = row.tool
    changed = dataclasses.replace(tool, summary=tool.summary.rstrip(".") + " (v2).")
    store.save_draft(REGISTRY, [UpsertTool(changed, row.id, row.revision)])
    store.publish(REGISTRY, notes="clearer summary", semver="1.1.0", author="tour")
    latest = store.list_versions(REGISTRY)[-1].number
    set_canary(store, REGISTRY, version=latest, share=10, who="tour", why="try the clearer summary")
    _import_session(store)
    return store


# A short OpenAI-format conversation with one tool call, for the Sessions mode.
_CONVERSATION = [
    {"role": "system", "content": "You help employees with travel reimbursement."},
    {"role": "user", "content": "How much can I claim for a taxi? 打车能报销多少？"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "search_policy", "arguments": '{"query": "taxi limit"}'},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": '{"clauses": [{"id": "4.2", "title": "Local transport", "limit": 80}]}',
    },
    {"role": "assistant", "content": "Clause 4.2 sets the taxi limit at 80 CNY per trip."},
]


def _import_session(store: RegistryStore) -> None:
    from registry_db.sessions import SessionStore
    from studio.sessions.importers import import_sessions
    from studio.sessions.library import save_imported

    outcome = import_sessions(json.dumps({"messages": _CONVERSATION}), "auto")
    sessions = SessionStore.for_store(store)
    for imported in outcome.sessions:
        save_imported(sessions, imported, file="taxi.json", registry=REGISTRY, version="2")


def _settle(app: QApplication, seconds: float = 0.4) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--size", default="1280x800", help="window size, WIDTHxHEIGHT")
    parser.add_argument("--languages", default="en,zh_CN")
    parser.add_argument("--themes", default="light,dark")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setOrganizationName("ToolRegistryStudioTour")  # never the user's own settings
    app.setApplicationName("tour")
    from studio.ui.app import apply_palette, install_qt_message_filter
    from studio.ui.i18n import apply_language
    from studio.ui.main_window import MainWindow
    from studio.ui.style import StudioStyle

    install_qt_message_filter()
    app.setStyle(StudioStyle())
    with tempfile.TemporaryDirectory() as folder:
        store = _prepare(Path(folder) / "tour.sqlite3")
        written = []
        mode_titles: dict[str, str] = {}
        for language in args.languages.split(","):
            apply_language(app, language)
            for theme in args.themes.split(","):
                QSettings().setValue("ui/theme", theme)
                apply_palette(app, theme)
                window = MainWindow(store)
                window.resize(width, height)
                window.show()
                _settle(app)
                doc = window.current_document()
                window.select_tool_named("search_policy")
                entry = window.selected_entry()
                if doc is not None and entry is not None and not doc.is_dirty:
                    # A saved edit the Diff shows, and an unsaved one the Playground labels.
                    usage = entry.tool.usage + " Never use it for invoices."
                    doc.push(EditTool(entry.key, SetField("usage", usage)))
                    window.save_current()
                    doc.push(EditTool(entry.key, SetField("title", entry.tool.title + " (tour)")))
                window.editor.show_tab("overview")
                controller = window.lint_ops.current_controller()
                deadline = time.monotonic() + 20
                while controller is not None and controller.busy and time.monotonic() < deadline:
                    _settle(app, 0.1)
                # Every mode the mode bar offers, in its order.
                modes = [a.objectName().removeprefix("show_") for a in window.mode_bar.mode_actions]
                titles = {
                    # "&&" is a literal ampersand, a lone "&" marks the mnemonic.
                    a.objectName().removeprefix("show_"): re.sub(r"&(&?)", r"\1", a.text())
                    for a in window.mode_bar.mode_actions
                }
                if language == "en" or not mode_titles:
                    mode_titles = titles  # the index's headings are English
                for mode in modes:
                    window.show_mode(mode)
                    if mode == "sessions" and window.sessions_view is not None:
                        table = window.sessions_view.table
                        if table.model().rowCount():
                            table.selectRow(0)
                    _settle(app, 1.0 if mode in ("diff", "release") else 0.4)
                    target = args.out / f"{language}-{theme}-{mode}.png"
                    window.grab().save(str(target))
                    written.append(target)
                window.show_mode("editor")
                window.lint_ops.shutdown()
                window.registry_ops.shutdown()
                for view in (window.release_view, window.sessions_view):
                    if view is not None:
                        view.shutdown()
                if window.diff_view is not None:
                    window.diff_view.runner.wait()
                window.hide()
                window.deleteLater()
                _settle(app, 0.1)
        store.close()
    if args.out == Path(__file__).resolve().parent and args.size == "1280x800":
        _write_index(args.out, mode_titles, args.languages.split(","), args.themes.split(","))
    for path in written:
        print(path)
    return 0


def _write_index(folder: Path, modes: dict[str, str], languages: list[str], themes: list[str]):
    """docs/tour/README.md: every shot under a heading, in the order they were taken."""
    lines = [
        "# Screenshot tour",
        "",
        "Every mode of the studio at 1280×800, light and dark, in English and 简体中文, taken "
        "from the real application on a fresh database seeded with the examples "
        "(travel-reimbursement published twice with a canary on v2 at 10 %, one imported "
        "session, one saved and one unsaved edit). Where a string is not translated yet the "
        "zh_CN shots show its English.",
        "",
        "Made by [`make_tour.py`](make_tour.py) (Chinese text needs a CJK font; on Debian "
        "`fonts-noto-cjk`):",
        "",
        "```sh",
        "QT_QPA_PLATFORM=offscreen .venv/bin/python docs/tour/make_tour.py",
        "```",
        "",
    ]
    for language in languages:
        for theme in themes:
            name = LANGUAGES.get(language, language)
            lines += [f"## {name}, {theme}", ""]
            for mode, title in modes.items():
                lines += [f"### {title}", "", f"![{title} ({name}, {theme})]"
                          f"({language}-{theme}-{mode}.png)", ""]  # fmt: skip
    (folder / "README.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
