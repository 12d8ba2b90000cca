"""One piece of work that whichever of two forked processes is free first takes.

A forking lint (``Linter(parallel=True)``) gives its child the security rules
and the pairwise ambiguity index, and keeps the other rules. How long each side
takes shifts with the registry (and with every change to the rules), so the
index is not given to either side in advance: each offers to take it when its
own share is done, and only the first succeeds. The side that finishes first
then works while the other finishes, instead of one waiting idle.

The token is one byte in a pipe made before the fork: reading it is atomic, so
exactly one process gets it; the other reads nothing.
"""

from __future__ import annotations

import os


class Claim:
    """A token for one piece of work, shared by a process and the children it forks.

    Made before the fork; :meth:`take` is True in exactly one process, once.
    """

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        try:
            os.write(write_fd, b"1")
        finally:
            os.close(write_fd)  # once the byte is taken, a read sees the end of the pipe
        os.set_blocking(read_fd, False)
        self._fd: int | None = read_fd

    def take(self) -> bool:
        """True for the first caller of all processes sharing the token; False afterwards."""
        if self._fd is None:
            return False
        try:
            return os.read(self._fd, 1) == b"1"
        except (BlockingIOError, OSError):
            return False

    def close(self) -> None:
        """Release this process's end of the token (taken or not)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
