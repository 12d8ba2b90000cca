"""A module's logger, with ``logging`` imported only when something is logged.

``logging`` costs ~3 ms to import with what it pulls in; the CLI's fast commands
(``studio lint FILE``, ``studio registries``) log only when something goes wrong,
so their modules ask for their logger at that moment instead of at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging


def logger(name: str) -> logging.Logger:
    """``logging.getLogger(name)``, importing ``logging`` on the first call."""
    import logging

    return logging.getLogger(name)
