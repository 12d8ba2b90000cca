"""Long-lived serving data kept out of the cyclic garbage collector's sight.

A served version (its 1,000 tool models, its rendered listing and resolve
bodies) is immutable and cached for the life of the process, but it is built
on first use, after ``studio serve`` froze its start-up heap. Left in the
collector's generations, every full collection under load walked it again:
measured at 50 connections, 20–200 ms pauses of the event loop, which were
the MCP endpoint's p99. :func:`settle` moves everything alive into the
permanent generation once such a cache entry is built (``gc.freeze``: no
collection, so it costs microseconds; reference counting still frees what is
dropped later).

Only a serving process opts in (:func:`enable`, called by
:func:`studio.server.run.serve`): a test run or the GUI embedding a
:class:`~studio.server.ServerThread` keeps its collector as it is.
"""

from __future__ import annotations

import gc

_enabled = False


def enable() -> None:
    """Let :func:`settle` freeze the heap (this process is a server)."""
    global _enabled
    _enabled = True


def settle() -> None:
    """Freeze what is alive now, when enabled: call after building a long-lived cache entry."""
    if _enabled:
        gc.freeze()
