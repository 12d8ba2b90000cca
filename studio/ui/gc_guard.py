"""Run Python's cyclic garbage collector on the GUI thread only.

Automatic collection starts in whichever thread happens to allocate when a
threshold is crossed: a lint or diff worker, a test server thread. If that
collection frees a QObject created on the GUI thread (a view caught in a
reference cycle), Qt destroys it on the wrong thread — "Timers cannot be
stopped from another thread" at best, a segmentation fault at worst. So the
automatic collector is switched off and a timer on the GUI thread collects
instead, generation by generation, with the interpreter's own thresholds.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class MainThreadGarbageCollector(QObject):
    """Owns the GUI-thread collection timer; create one per application."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = 500) -> None:
        super().__init__(parent)
        self._threshold = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._timer.start(interval_ms)

    def check(self) -> None:
        """Collect the generations whose allocation counts crossed their thresholds."""
        count0, count1, count2 = gc.get_count()
        if count0 > self._threshold[0]:
            gc.collect(0)
            if count1 > self._threshold[1]:
                gc.collect(1)
                if count2 > self._threshold[2]:
                    gc.collect(2)

    def stop(self) -> None:
        """Stop the timer and give collection back to the interpreter."""
        self._timer.stop()
        gc.enable()
