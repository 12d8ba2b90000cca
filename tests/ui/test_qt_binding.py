"""The Qt binding itself: faults the studio cannot work around, caught before users meet them."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget


def test_qt_calls_that_return_nothing_leave_none_alive(qapp: QApplication) -> None:
    # PySide6 6.12.0 on Python 3.11 released a reference to None on each such
    # call; None's count (a few thousand) ran out and the process aborted.
    obj, widget = QObject(), QWidget()
    before = sys.getrefcount(None)
    for _ in range(300):
        obj.setObjectName("probe")
        widget.setEnabled(True)
        qapp.processEvents()
    assert sys.getrefcount(None) >= before - 10
