"""The pull behind File → Import from MCP server…, as a job of the registry worker.

:func:`pull_job` runs on the registry worker: it lists the server, maps its tools and
returns the import (or a refusal worded for the dialog, or :data:`CANCELLED`); the
caller stores it like a file import. Phase lines reach the dialog through a
:class:`StepRelay`, whose signal is queued to the GUI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from studio.formats import FormatError, ImportResult
from studio.mcp.client import PullError
from studio.mcp.pull import PullCancelled, pull_registry
from studio.ui.dialogs.mcp_import_dialog import McpImportRequest
from studio.ui.registry_jobs import CANCELLED, Cancelled, Refused, format_error_text


class StepRelay(QObject):
    """Carries the pull's phase lines from the worker to the GUI thread.

    Signals:
        step(str): What the pull does now (starting …, connecting …, listing page N).
    """

    step = Signal(str)


def pull_job(
    request: McpImportRequest, cancel: threading.Event, step: Callable[[str], None]
) -> ImportResult | Refused | Cancelled:
    """List the server of ``request`` and map its tools (on the worker)."""
    try:
        return pull_registry(
            request.target,
            name=request.name,
            timeout=request.timeout,
            progress=lambda line: step(line[:1].upper() + line[1:] + "…"),
            cancelled=cancel.is_set,
        )
    except PullCancelled:
        return CANCELLED
    except PullError as exc:
        message = f"Nothing imported: {exc}."
        if exc.stderr:
            message += "\n\nThe server's standard error ended with:\n" + exc.stderr
        return Refused(message, exc)
    except FormatError as exc:
        return Refused(format_error_text(request.source_label, exc), exc)
