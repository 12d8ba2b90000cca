"""One pull from start to registry, blocking, for callers without an event loop (the GUI worker).

:func:`pull_registry` lists a server (:func:`studio.mcp.client.list_server_tools`) in its
own event loop, polls a cancel flag while it waits, and maps the listing to a registry
(:func:`studio.mcp.mapping.registry_from_listing`). Storing it is the caller's business,
as for any import.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio

from studio.formats.base import ImportResult
from studio.mcp.client import Progress, ServerListing, Target, list_server_tools
from studio.mcp.mapping import registry_from_listing

CANCEL_POLL_SECONDS = 0.05


class PullCancelled(Exception):
    """The pull stopped because it was cancelled; nothing was imported."""


def pull_registry(
    target: Target,
    *,
    name: str | None = None,
    timeout: float = 30.0,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    mode: str = "auto",
) -> ImportResult:
    """List ``target`` and map its tools to a registry.

    Args:
        target: The server.
        name: Registry name (default: from the server's name).
        timeout: Seconds for the whole listing.
        progress: Receives a line per phase (called on this thread).
        cancelled: Polled while the pull waits; True stops it (the server is shut down).
        mode: The SDK ``Client`` mode (see :func:`list_server_tools`).

    Raises:
        PullError: the server could not be listed (one sentence, and its stderr).
        PullCancelled: ``cancelled`` said so.
        studio.formats.FormatError: a tool the contract cannot hold.
    """
    listing = list_blocking(
        target, timeout=timeout, progress=progress, cancelled=cancelled, mode=mode
    )
    if progress is not None:
        progress(f"mapping {len(listing.tools):,} tools")
    return registry_from_listing(listing, name)


def list_blocking(
    target: Target,
    *,
    timeout: float = 30.0,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    mode: str = "auto",
) -> ServerListing:
    """:func:`list_server_tools` in its own event loop, stopped when ``cancelled()``.

    Raises:
        PullError: the server could not be listed.
        PullCancelled: ``cancelled`` said so.
    """

    async def run() -> ServerListing | None:
        listing: ServerListing | None = None
        error: Exception | None = None
        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                while not cancelled():
                    await anyio.sleep(CANCEL_POLL_SECONDS)
                tg.cancel_scope.cancel()

            async def work() -> None:
                nonlocal listing, error
                try:
                    listing = await list_server_tools(
                        target, timeout=timeout, progress=progress, mode=mode
                    )
                except Exception as exc:  # raised below, not wrapped in an ExceptionGroup
                    error = exc
                tg.cancel_scope.cancel()

            tg.start_soon(watch)
            tg.start_soon(work)
        if error is not None:
            raise error
        return listing

    if cancelled():
        raise PullCancelled
    listing = anyio.run(run)
    if listing is None or cancelled():
        raise PullCancelled
    return listing
