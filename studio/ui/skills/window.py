"""A window of its own for a registry's skills and agents (``studio skills REGISTRY``).

Until the main window hosts the :class:`SkillsPanel` beside its tool list, this
opens the panel alone, with the user's theme and language, on the same database.
"""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from studio.ui.skills.panel import SkillsPanel


def run_skills_window(store: Any, registry: str) -> int:
    """Show the skills panel of ``registry`` until its window closes; the exit code."""
    from studio.ui.app import (
        APP_NAME,
        ORG_NAME,
        apply_palette,
        apply_saved_language,
        install_qt_message_filter,
    )
    from studio.ui.style import StudioStyle

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setStyle(StudioStyle())
    install_qt_message_filter()
    apply_palette(app, str(QSettings().value("ui/theme", "system")))
    apply_saved_language(app)
    panel = SkillsPanel(store, registry)
    panel.setWindowTitle(
        QApplication.translate("SkillsPanel", "Skills and remote agents — %1").replace(
            "%1", registry
        )
    )
    panel.resize(1280, 800)
    panel.show()
    return int(app.exec())
