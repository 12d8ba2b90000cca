"""Run one computation in a forked child while the parent does other work.

A whole-registry lint from the command line does independent things: the
per-tool rules and the pairwise ambiguity index. On a machine with a second
core the index and the security rules (one scan of each tool's text, with
matchers whose warm-up is then paid once) run in a child process forked from
the linting one — same modules, same registry, no pickling of inputs — while
the parent runs the other rules; only the child's result (findings per tool,
pairs and hits) comes back through a pipe (see ``Linter(parallel=True)``).
The child's CPU time is the parent's to account for: it is waited for, so
``wait4``/``getrusage(RUSAGE_CHILDREN)`` of whoever started the lint count it.

Only where forking is safe and worth it: Linux (``fork`` with the default
start method), one thread alive (a forked child inherits only the calling
thread; locks held by others would stay locked), two or more CPUs. Anything
that goes wrong in the child — an exception, a result that cannot be pickled,
a child killed — makes :meth:`Forked.result` return None and the caller
compute the value itself, so the outcome never depends on the fork.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from studio.logs import logger

T = TypeVar("T")


def can_fork() -> bool:
    """True when :class:`Forked` may fork here (Linux, one thread, two CPUs or more)."""
    return (
        sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and threading.active_count() == 1
        and (os.cpu_count() or 1) >= 2
    )


class Forked(Generic[T]):
    """``compute()`` started in a forked child; :meth:`result` collects its value.

    Args:
        compute: What the child computes; its value must pickle.
    """

    def __init__(self, compute: Callable[[], T]) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's exit hooks
            code = 0
            try:
                os.close(read_fd)
                data = pickle.dumps(compute(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_fd, "wb") as out:
                    out.write(data)
            except BaseException:  # anything: the parent computes it itself
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        self._pid = pid
        self._read_fd = read_fd

    def result(self) -> T | None:
        """The child's value, or None when it failed (the caller then computes it)."""
        try:
            with os.fdopen(self._read_fd, "rb") as source:
                data = source.read()
        finally:
            _pid, status = os.waitpid(self._pid, 0)
        if os.waitstatus_to_exitcode(status) != 0 or not data:
            logger(__name__).debug(
                "forked lint child failed (status %s); computing in the parent", status
            )
            return None
        try:
            return pickle.loads(data)  # our own child's bytes
        except Exception:  # a truncated pipe: compute it here instead
            logger(__name__).debug("forked lint child sent an unreadable result", exc_info=True)
            return None
