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
from urllib.parse import quote

from registry_db.channels import STABLE, Channel
from registry_db.errors import NotFoundError
from registry_db.models import Version
from registry_db.store import RegistryStore
from studio.contract import Registry
from studio.contract.audience import Audience, for_audience
from studio.formats import FORMAT_NAMES, FormatError, export_registry
from studio.release.channels import choose_channel, release_state

SERVING_FORMATS: tuple[str, ...] = tuple(f for f in FORMAT_NAMES if f != "dir")
"""Formats a resolution can be exported in (single-document formats)."""


class NoVersionError(NotFoundError):
    """The registry has nothing published to serve."""


PROVIDER_FORMATS = ("openai", "openai-responses", "anthropic", "gemini")
"""Formats whose requests can restrict the choice instead of the list (``choice`` mode)."""


@dataclass(frozen=True, slots=True)
class AudienceQuery:
    """Whom a resolution's tools are for (issue #17): ``--role/--scenario`` or ``?role=&scenario=``.

    Attributes:
        role: The caller's role ("" matches only ``*`` permissions).
        scenario: The business scenario ("" likewise).
        restrict: ``filter`` sends only the permitted tools; ``choice`` sends all
            of them (a prompt cache over the full list stays warm) with the
            provider's allowed-tools choice (:mod:`studio.formats.audience`).
    """

    role: str = ""
    scenario: str = ""
    restrict: str = "filter"

    @property
    def audience(self) -> Audience:
        return Audience(self.role, self.scenario)

    def check(self, fmt: str) -> None:
        """Raises FormatError for a mode or a mode/format pair that cannot be served."""
        if self.restrict not in ("filter", "choice"):
            raise FormatError(f"restrict must be filter or choice, not {self.restrict!r}")
        if self.restrict == "choice" and fmt not in PROVIDER_FORMATS:
            raise FormatError(
                f"restrict=choice needs a provider format ({', '.join(PROVIDER_FORMATS)}), "
                f"not {fmt!r}"
            )


def audience_tools(document: Registry, fmt: str, query: AudienceQuery) -> dict[str, Any]:
    """The resolution fields for ``query``: ``tools``, the choice restriction and ``audience``.

    ``filter`` exports only the permitted tools in ``fmt`` (the same shape as an
    unrestricted resolve); ``choice`` exports every tool and adds the request
    field that restricts the choice (``tool_choice`` or ``toolConfig``).

    Raises:
        FormatError: a bad mode, or ``choice`` for a format that is not a provider request.
    """
    query.check(fmt)
    permitted = for_audience(document, query.audience)
    block: dict[str, Any] = {
        "role": query.role,
        "scenario": query.scenario,
        "restrict": query.restrict,
        "allowed": [t.name for t in permitted.tools],
        "of": len(document.tools),
    }
    if query.restrict == "filter":
        return {"tools": export_tools(permitted, fmt), "audience": block}
    from studio.formats.audience import audience_request

    request = audience_request(document, fmt, query.audience, "choice")
    # Anthropic has no choice restriction: audience_request fell back to the filter.
    sent = document if request.sent == len(document.tools) else permitted
    fields: dict[str, Any] = {"tools": export_tools(sent, fmt)}
    fields.update((k, v) for k, v in request.fields.items() if k != "tools")
    if request.notes:
        block["notes"] = [n.message for n in request.notes]
    fields["audience"] = block
    return fields


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
        self._exports: dict[tuple[str, int, str, AudienceQuery | None], Any] = {}
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

    def tools(
        self,
        store: RegistryStore,
        registry: str,
        number: int,
        fmt: str,
        audience: AudienceQuery | None = None,
    ) -> Any:
        """The tools of that version in ``fmt`` as a JSON value (cached; treat as read-only).

        With ``audience``, the :func:`audience_tools` fields (``tools``,
        ``audience`` and any choice restriction) for it, cached per audience.
        """
        key = (registry, number, fmt, audience)
        with self._lock:
            if key in self._exports:
                return self._exports[key]
        document = self.version(store, registry, number).registry
        if audience is None:
            value = export_tools(document, fmt)
        else:
            value = audience_tools(document, fmt, audience)
        with self._lock:
            if len(self._exports) >= 1024:  # audiences come from requests: keep it bounded
                self._exports.clear()
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


def skill_catalogue(document: Registry, registry: str, number: int) -> list[dict[str, Any]]:
    """The skills a resolution carries: name, description and where to fetch the body.

    Only the catalogue travels with every resolve (progressive disclosure: the
    bodies are ~40x larger and load on demand); ``body`` is the serving API's
    path of that version's skill, immutable like the version itself.
    """
    return [
        {
            "name": s.name,
            "description": s.description,
            "allowed_tools": list(s.allowed_tools),
            "body": f"/v1/registries/{quote(registry, safe='')}/versions/{number}"
            f"/skills/{quote(s.name, safe='')}",
        }
        for s in document.skills
    ]


def skill_body_document(document: Registry, registry: str, number: int, name: str) -> dict:
    """One skill of a version in full (body and file names), as the skills endpoint returns it.

    Raises:
        NotFoundError: the version holds no skill of that name.
    """
    skill = document.skill(name)
    if skill is None:
        raise NotFoundError(f"version {number} of {registry!r} has no skill {name!r}")
    return {
        "registry": registry,
        "version": number,
        "name": skill.name,
        "description": skill.description,
        "allowed_tools": list(skill.allowed_tools),
        "body": skill.body,
        "files": list(skill.file_names()),
    }


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


def resolution_document(
    resolution: Resolution,
    fmt: str,
    tools: Any | None = None,
    *,
    audience: AudienceQuery | None = None,
) -> dict:
    """The JSON body the resolve endpoint and ``studio resolve`` print.

    With ``audience``, ``tools`` holds what that audience is sent and an
    ``audience`` block names the permitted tools (:func:`audience_tools`).
    """
    doc = {
        "registry": resolution.registry,
        "channel": resolution.channel,
        "version": resolution.version,
        "semver": resolution.semver,
        "content_hash": resolution.content_hash,
        "format": fmt,
    }
    if audience is not None:
        doc.update(audience_tools(resolution.document, fmt, audience))
    else:
        doc["tools"] = export_tools(resolution.document, fmt) if tools is None else tools
    if resolution.document.skills:
        doc["skills"] = skill_catalogue(
            resolution.document, resolution.registry, resolution.version
        )
    return doc


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
        if version.registry.skills:
            entries[-1]["skills"] = skill_catalogue(version.registry, registry, channel.version)
    return {"registry": registry, "format": fmt, "channels": entries}
