"""The pull behind File → Import from MCP server…, as a job of the registry worker.

:func:`pull_job` runs on the registry worker: it lists the server, maps its tools and
returns the import (or a refusal worded for the dialog, or :data:`CANCELLED`); the
caller stores it like a file import. Phase lines reach the dialog through a
:class:`StepRelay`, whose signal is queued to the GUI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Signal

from registry_db import RegistryStore, StoreError
from studio.formats import FormatError, ImportResult
from studio.mcp.client import PullError
from studio.mcp.drift import DriftReport, check_drift
from studio.mcp.pull import PullCancelled, list_blocking, pull_registry
from studio.ui.dialogs.mcp_import_dialog import McpCheckRequest, McpImportRequest
from studio.ui.diff.sides import DRAFT, DiffSide, load_side
from studio.ui.diff.worker import DiffRequest, DiffResult
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
        message = QCoreApplication.translate("McpJobs", "Nothing imported: {error}.").format(
            error=exc
        )
        if exc.stderr:
            message += (
                "\n\n"
                + QCoreApplication.translate("McpJobs", "The server's standard error ended with:")
                + "\n"
                + exc.stderr
            )
        return Refused(message, exc)
    except FormatError as exc:
        return Refused(format_error_text(request.source_label, exc), exc)


@dataclass(frozen=True)
class DriftOutcome:
    """A finished drift check: the report, and the diff as the Diff mode shows it."""

    report: DriftReport
    result: DiffResult


def check_job(
    store: RegistryStore,
    registry: str,
    side: DiffSide,
    request: McpCheckRequest,
    cancel: threading.Event,
    step: Callable[[str], None],
) -> DriftOutcome | Refused | Cancelled:
    """Check the live server of ``request`` against ``side`` of ``registry`` (on the worker)."""
    try:
        step(
            QCoreApplication.translate("McpJobs", "Loading {side} of {registry}…").format(
                side=side.label, registry=registry
            )
        )
        pinned = load_side(store, registry, side)
        listing = list_blocking(
            request.target,
            timeout=request.timeout,
            progress=lambda line: step(line[:1].upper() + line[1:] + "…"),
            cancelled=cancel.is_set,
        )
        step(QCoreApplication.translate("McpJobs", "Comparing…"))
        report = check_drift(pinned, listing, pinned_label=side.label)
    except PullCancelled:
        return CANCELLED
    except PullError as exc:
        message = QCoreApplication.translate("McpJobs", "Nothing checked: {error}.").format(
            error=exc
        )
        if exc.stderr:
            message += (
                "\n\n"
                + QCoreApplication.translate("McpJobs", "The server's standard error ended with:")
                + "\n"
                + exc.stderr
            )
        return Refused(message, exc)
    except FormatError as exc:
        return Refused(format_error_text(request.target.label(), exc), exc)
    except StoreError as exc:
        return Refused(
            QCoreApplication.translate("McpJobs", "Nothing checked: {error}").format(error=exc), exc
        )
    # The Diff mode names B by the diff's own label ("live"); DRAFT only fills the slot.
    diff_request = DiffRequest(registry, side, DRAFT, lint_profile=None)
    return DriftOutcome(
        report, DiffResult(diff_request, report.diff, report.pinned_view, report.live)
    )
