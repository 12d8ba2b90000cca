"""The GUI-thread garbage collector."""

from __future__ import annotations

import gc
import threading
import weakref

from studio.ui.gc_guard import MainThreadGarbageCollector


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collection_happens_on_the_gui_timer_not_in_other_threads(qtbot) -> None:
    was_enabled = gc.isenabled()
    gc.enable()
    collector = MainThreadGarbageCollector(interval_ms=10)
    try:
        assert not gc.isenabled(), "automatic collection is off while the guard runs"
        refs = []

        def make_garbage() -> None:
            for _ in range(5000):  # far past generation 0's threshold
                obj = _Cycle()
                refs.append(weakref.ref(obj))

        worker = threading.Thread(target=make_garbage)
        worker.start()
        worker.join()
        assert any(r() is not None for r in refs), "nothing was collected in the worker"
        qtbot.waitUntil(lambda: all(r() is None for r in refs), timeout=5000)
    finally:
        collector.stop()
        if not was_enabled:
            gc.disable()
