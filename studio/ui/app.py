"""Starting the GUI: the application object, palettes, error handling."""

from __future__ import annotations

import gc
import logging
import sys
import traceback
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Literal

from PySide6.QtCore import QMessageLogContext, QSettings, Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox

from studio.ui.gc_guard import MainThreadGarbageCollector
from studio.ui.style import StudioStyle

# The storage (registry_db) and the window are imported by the functions that
# need them, after _scan_sources_quickly() below has run.

_log = logging.getLogger(__name__)

APP_NAME = "Tool Registry Studio"
ORG_NAME = "ToolRegistryStudio"
Theme = Literal["light", "dark", "system"]

_DARK = {
    QPalette.ColorRole.Window: "#2b2d30",
    QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1e1f22",
    QPalette.ColorRole.AlternateBase: "#26282b",
    QPalette.ColorRole.ToolTipBase: "#3c3f41",
    QPalette.ColorRole.ToolTipText: "#e6e6e6",
    QPalette.ColorRole.PlaceholderText: "#8c8f94",
    QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#35373b",
    QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Light: "#4a4d52",
    QPalette.ColorRole.Midlight: "#3e4145",
    QPalette.ColorRole.Mid: "#2f3134",
    QPalette.ColorRole.Dark: "#1b1c1e",
    QPalette.ColorRole.Shadow: "#101112",
    QPalette.ColorRole.Highlight: "#2f65ca",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#6ea8ff",
    QPalette.ColorRole.LinkVisited: "#b48cff",
}
_DARK_DISABLED = {
    QPalette.ColorRole.WindowText: "#7a7d82",
    QPalette.ColorRole.Text: "#7a7d82",
    QPalette.ColorRole.ButtonText: "#7a7d82",
    QPalette.ColorRole.Highlight: "#3a3d41",
    QPalette.ColorRole.HighlightedText: "#9a9da2",
}


def _scan_sources_quickly() -> None:
    """Make PySide's check of every later import a plain search of the file.

    PySide looks for the text "PySide6" in the source of each module imported
    after it (to scope its opt-in ``__feature__`` switches, which the studio
    does not use), through ``inspect.getsource``, keeping every file's lines in
    ``linecache``: ~25 ms of the studio's start (~140 modules) and more at a
    mode's first show (the playground's HTTP stack). Searching the file's bytes
    gives the same answer. Nothing changes when PySide's helper is not there.
    """
    try:
        from PySide6.support import feature
    except ImportError:
        return
    if not callable(getattr(feature, "_mod_uses_pyside", None)):
        return

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return False  # built-in, extension or source-less: getsource fails alike
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return False

    feature._mod_uses_pyside = uses_pyside


_scan_sources_quickly()


def dark_palette() -> QPalette:
    """A dark palette with readable contrast for text, disabled text and selections."""
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role, colour in _DARK_DISABLED.items():
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(colour))
    return palette


def system_prefers_dark() -> bool:
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() == Qt.ColorScheme.Dark


def apply_palette(app: QApplication, theme: Theme | str) -> str:
    """Apply the ``light``, ``dark`` or ``system`` palette and its style; return the one applied."""
    if theme == "system":
        theme = "dark" if system_prefers_dark() else "light"
    if theme != "dark":
        theme = "light"
    apply_style(app, dark=theme == "dark")
    if theme == "dark":
        app.setPalette(dark_palette())
    else:
        app.setPalette(app.style().standardPalette())
    return theme


def apply_style(app: QApplication, *, dark: bool) -> None:
    """Fusion; on a dark palette :class:`StudioStyle`, Fusion with visible check outlines.

    StudioStyle's ``drawPrimitive`` is Python, called for every primitive Qt
    draws (about 90 before the window's first paint: ~10 ms), and changes
    nothing on a light palette: there, Fusion draws alone.
    """
    current = app.style()
    if dark and not isinstance(current, StudioStyle):
        app.setStyle(StudioStyle())
    elif not dark and (isinstance(current, StudioStyle) or current.name().lower() != "fusion"):
        app.setStyle("Fusion")


# Qt messages that say nothing to a user or developer of the studio: the
# offscreen and some Wayland platforms print this for every dialog shown.
_QT_NOISE = ("This plugin does not support propagateSizeHints",)


def qt_message_filter(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Print Qt's messages as Qt would, minus the known noise (:data:`_QT_NOISE`)."""
    if any(noise in message for noise in _QT_NOISE):
        return
    if mode in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
        _log.warning("Qt: %s", message)
    else:
        _log.debug("Qt: %s", message)


def install_qt_message_filter() -> None:
    """Route Qt's messages through :func:`qt_message_filter` (the log, noise dropped)."""
    qInstallMessageHandler(qt_message_filter)


def apply_saved_language(app: QApplication) -> str:
    """Show the UI in the language picked under View → Language (the system's at first)."""
    from studio.ui.language_menu import apply_language, saved_language

    return apply_language(saved_language())


def _log_file() -> Path:
    import platformdirs  # here: only the GUI's own start (not its benchmark) logs to a file

    folder = Path(platformdirs.user_log_dir("tool-registry-studio", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "studio.log"


def _configure_logging() -> Path | None:
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    path: Path | None = None
    try:
        path = _log_file()
        handlers.append(logging.FileHandler(path, encoding="utf-8"))
    except OSError:  # a read-only home must not stop the studio
        path = None
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
    )
    return path


def install_excepthook(log_path: Path | None = None) -> None:
    """Log unexpected errors and show a short message instead of crashing.

    Qt calls Python slots from C++; an exception escaping one would otherwise
    end in a traceback on stderr (or abort). The user sees one sentence and
    where the details are; the traceback goes to the log only.
    """
    showing = False

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        nonlocal showing
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        _log.error("unexpected error:\n%s", "".join(traceback.format_exception(exc_type, exc, tb)))
        if showing or QApplication.instance() is None:
            return
        showing = True
        try:
            where = f"\n\nDetails are in {log_path}." if log_path else ""
            QMessageBox.warning(
                None,
                "Something went wrong",
                f"The studio hit an unexpected error ({exc_type.__name__}: {exc}). "
                f"Your open work is still there; save it if you can.{where}",
            )
        finally:
            showing = False

    sys.excepthook = hook


def run_gui(db_path: Path | None) -> int:
    """Open the store at ``db_path`` (default database when None) and run the GUI.

    Return:
        The process exit code.
    """
    log_path = _configure_logging()
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    collecting = _pause_collection()
    try:
        install_excepthook(log_path)
        install_qt_message_filter()
        theme = QSettings().value("ui/theme", "system")
        apply_palette(app, str(theme))
        apply_saved_language(app)
        return _open_and_run(app, db_path)
    finally:
        _resume_collection(collecting)


def _pause_collection() -> bool:
    """No automatic garbage collection until the window has painted; was it on?

    The window's modules and widgets allocate enough to trigger a dozen
    collections, about 7 % of a cold start's CPU. From the window's first show
    on, :class:`MainThreadGarbageCollector` collects on the GUI thread (its
    first check comes 500 ms later: after the first paint, not before it).
    """
    collecting = gc.isenabled()
    gc.disable()
    return collecting


def _resume_collection(collecting: bool) -> None:
    """Automatic collection as it was before :func:`_pause_collection`.

    The test session keeps it off (worker threads must not collect Qt
    objects): a GUI start inside a test must not switch it back on.
    """
    if collecting:
        gc.enable()
    else:
        gc.disable()


def _open_and_run(app: QApplication, db_path: Path | None) -> int:
    """Open the store, show the main window and run the event loop until it closes."""
    from registry_db import StoreError, default_db_path, open_default_store, resolve_db_path

    path = db_path if db_path is not None else resolve_db_path(None)
    try:
        # Only the embedded default database is seeded with the examples; a
        # file named by --db or $STUDIO_DB is the user's own (as in the CLI).
        store = open_default_store(path, seed=path == default_db_path())
    except (StoreError, OSError) as exc:  # sqlite3.Error is not an OSError
        _show_open_error(path, exc)
        return 1
    except Exception as exc:  # e.g. sqlite3.DatabaseError: "file is not a database"
        _show_open_error(path, exc)
        return 1

    import asyncio  # here, not at the top: the benchmark's cold start never needs it

    from studio.ui.async_loop import StudioEventLoop
    from studio.ui.main_window import MainWindow

    # asyncio runs on the Qt event loop (qasync): model runs, streams and
    # connection tests are tasks on the GUI thread that never block it.
    loop = StudioEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(store)
    window.show()
    collector = MainThreadGarbageCollector(app)
    try:
        # app.exec() inside; closing the last window quits it.
        return int(loop.run_forever() or 0)
    finally:
        collector.stop()
        loop.close_cleanly()
        asyncio.set_event_loop(None)
        store.close()


def _show_open_error(path: Path, exc: BaseException) -> None:
    from registry_db import DatabaseOpenError

    _log.error("cannot open database %s: %s", path, exc)
    reason = exc.reason if isinstance(exc, DatabaseOpenError) else str(exc)
    QMessageBox.critical(
        None,
        "Cannot open the database",
        f"The studio could not open its database:\n{path}\n\n{reason}\n\n"
        "Check that the file is a Tool Registry Studio database and that you can write "
        "to its folder, or start with --db PATH to use another file.",
    )


def _resident_mb() -> float:
    """Resident memory of this process in MB; /proc on Linux (psutil's import alone
    costs ~50 ms of the start being measured), psutil elsewhere."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        import psutil  # type: ignore[import-untyped]

        return float(psutil.Process().memory_info().rss / 2**20)
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def benchmark_cold_start(db_path: str, registry: str) -> float:
    """Open a main window on ``registry`` and return resident memory (MB) at first paint.

    Used by ``benchmarks/registry_scale.py`` in a fresh process: it returns as
    soon as the window has painted once, so the caller can time the launch.
    """
    from PySide6.QtCore import QEvent, QObject

    from registry_db import open_default_store

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    apply_palette(app, "system")  # as run_gui does with no theme saved
    collecting = _pause_collection()  # as run_gui does
    store = open_default_store(Path(db_path), seed=False)

    from studio.ui.main_window import MainWindow

    window = MainWindow(store)
    window.open_registry(registry)
    painted: list[bool] = []

    class _PaintSpy(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(True)
            return False

    spy = _PaintSpy()
    window.installEventFilter(spy)
    window.show()
    collector = MainThreadGarbageCollector(app)
    while not painted:
        app.processEvents()
    rss = _resident_mb()
    collector.stop()
    _resume_collection(collecting)
    store.close()
    return rss
