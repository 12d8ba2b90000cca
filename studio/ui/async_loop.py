"""The asyncio loop of the GUI: qasync's QEventLoop, plus async-generator finalization.

qasync (0.28) runs asyncio on the Qt event loop but does not install
``sys.set_asyncgen_hooks`` as asyncio's own loops do. Without them an
abandoned async generator (httpx's SSE streams, say) is finalized
synchronously by the garbage collector, outside any task, and its cleanup
fails with "no running event loop". :class:`StudioEventLoop` installs
asyncio's hooks while it runs, so such generators are closed in a task and
:meth:`shutdown_asyncgens` can close the rest before the loop is closed.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import qasync


class StudioEventLoop(qasync.QEventLoop):  # type: ignore[misc, name-defined]
    """A :class:`qasync.QEventLoop` that finalizes async generators like asyncio does."""

    _saved_hooks: Any = None

    def _before_run_forever(self) -> None:
        super()._before_run_forever()
        self._saved_hooks = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(
            firstiter=self._asyncgen_firstiter_hook, finalizer=self._asyncgen_finalizer_hook
        )

    def _after_run_forever(self) -> None:
        if self._saved_hooks is not None:
            sys.set_asyncgen_hooks(*self._saved_hooks)
            self._saved_hooks = None
        super()._after_run_forever()

    def close_cleanly(self) -> None:
        """Close open async generators, then the loop (call when it is not running)."""
        if self.is_closed():
            return
        if self._asyncgens:  # asyncio's set of live async generators (firstiter hook)
            # RuntimeError: the application quit under us, nothing more can run.
            with contextlib.suppress(RuntimeError):
                self.run_until_complete(self.shutdown_asyncgens())
        self.close()
