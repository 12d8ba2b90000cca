"""``resolve(store, registry, subject)``: which version a subject gets (DESIGN §7).

No subject, no canary or a canary at 0 % all mean stable. Stable serves its
pinned version, or the newest published one while it was never set. A
:class:`Snapshot` is the same decision's inputs (every live channel with its
salt, share and tools) for runtimes that resolve locally.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from registry_db.channels import STABLE, Channel
from registry_db.errors import NotFoundError
from registry_db.models import Version
from registry_db.store import RegistryStore
from studio.contract import Registry
from studio.formats import FORMAT_NAMES, FormatError, export_registry
from studio.release.channels import choose_channel, release_state

SERVING_FORMATS: tuple[str, ...] = tuple(f for f in FORMAT_NAMES if f != "dir")
"""Formats a resolution can be exported in (single-document formats)."""


class NoVersionError(NotFoundError):
    """The registry has nothing published to serve."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """The version a subject gets.

    Attributes:
        registry: The registry's name.
        channel: The channel that decided (``stable``, ``canary``, …).
        version: The version number served.
        semver: Its semantic version, if one was given.
        content_hash: Its content hash.
        document: The registry document of that version.
    """

    registry: str
    channel: str
    version: int
    semver: str | None
    content_hash: str
    document: Registry


class VersionCache:
    """Verified versions by (registry, number); versions are immutable, so never stale."""

    def __init__(self, limit: int = 64) -> None:
        self._limit = limit
        self._versions: dict[tuple[str, int], Version] = {}
        self._exports: dict[tuple[str, int, str], Any] = {}
        self._lock = threading.Lock()

    def version(self, store: RegistryStore, registry: str, number: int) -> Version:
        """Version ``number`` of ``registry``, loaded (and hash-checked) once."""
        key = (registry, number)
        with self._lock:
            cached = self._versions.get(key)
        if cached is not None:
            return cached
        loaded = store.load_version(registry, number)
        with self._lock:
            if len(self._versions) >= self._limit:
                self._versions.clear()
                self._exports.clear()
            self._versions[key] = loaded
        return loaded

    def tools(self, store: RegistryStore, registry: str, number: int, fmt: str) -> Any:
        """The tools of that version in ``fmt`` as a JSON value (cached; treat as read-only)."""
        key = (registry, number, fmt)
        with self._lock:
            if key in self._exports:
                return self._exports[key]
        value = export_tools(self.version(store, registry, number).registry, fmt)
        with self._lock:
            self._exports[key] = value
        return value


def export_tools(document: Registry, fmt: str) -> Any:
    """A registry's tools in a provider format, as a JSON value.

    Raises:
        FormatError: unknown or folder format, or a registry the format cannot hold.
    """
    if fmt not in SERVING_FORMATS:
        raise FormatError(f"unknown format {fmt!r}; use one of {', '.join(SERVING_FORMATS)}")
    result = export_registry(document, fmt)
    return json.loads(result.text or "null")


def serving_channels(store: RegistryStore, registry: str) -> list[Channel]:
    """Stable (with its effective version) and every live channel, in choice order.

    Raises:
        NotFoundError: no such registry.
        NoVersionError: nothing published yet.
    """
    state = release_state(store, registry)
    if state.stable_version is None:
        raise NoVersionError(f"registry {registry!r} has no published version")
    stable = state.channels[0]
    channels = [Channel(registry, STABLE, state.stable_version, 100, stable.salt,
                        stable.updated_at)]  # fmt: skip
    channels += [c for c in state.channels[1:] if c.version is not None and c.share > 0]
    return channels


def resolve(
    store: RegistryStore,
    registry: str,
    subject: str | None = None,
    *,
    cache: VersionCache | None = None,
) -> Resolution:
    """The channel and version serving ``subject``.

    Raises:
        NotFoundError: no such registry.
        NoVersionError: nothing published yet.
    """
    channels = serving_channels(store, registry)
    name = choose_channel(channels, subject)
    number = next(c.version for c in channels if c.name == name)
    assert number is not None
    version = (
        cache.version(store, registry, number) if cache else store.load_version(registry, number)
    )
    return Resolution(
        registry, name, number, version.info.semver, version.info.content_hash, version.registry
    )


def resolution_document(resolution: Resolution, fmt: str, tools: Any | None = None) -> dict:
    """The JSON body the resolve endpoint and ``studio resolve`` print."""
    return {
        "registry": resolution.registry,
        "channel": resolution.channel,
        "version": resolution.version,
        "semver": resolution.semver,
        "content_hash": resolution.content_hash,
        "format": fmt,
        "tools": export_tools(resolution.document, fmt) if tools is None else tools,
    }


def snapshot_document(
    store: RegistryStore, registry: str, fmt: str, *, cache: VersionCache | None = None
) -> dict[str, Any]:
    """Every live channel with salt, share and tools in ``fmt``: all a client needs to resolve.

    Raises:
        NotFoundError, NoVersionError, FormatError.
    """
    if fmt not in SERVING_FORMATS:
        raise FormatError(f"unknown format {fmt!r}; use one of {', '.join(SERVING_FORMATS)}")
    cache = cache or VersionCache()
    entries = []
    for channel in serving_channels(store, registry):
        assert channel.version is not None
        version = cache.version(store, registry, channel.version)
        entries.append({
            "name": channel.name,
            "version": channel.version,
            "share": channel.share,
            "salt": channel.salt,
            "semver": version.info.semver,
            "content_hash": version.info.content_hash,
            "tools": cache.tools(store, registry, channel.version, fmt),
        })  # fmt: skip
    return {"registry": registry, "format": fmt, "channels": entries}
