"""Channel actions for gray release: set, promote, roll back, and the channel view.

Thin domain functions over :class:`registry_db.channels.ChannelRepository`;
each action is one transaction that also appends to the channel event log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from registry_db.channel_log import PUBLISH
from registry_db.channels import (
    CANARY,
    STABLE,
    Channel,
    ChannelError,
    ChannelEvent,
    ChannelRepository,
)
from registry_db.store import RegistryStore
from studio.release.bucketing import in_share


class ChannelLike(Protocol):
    """What channel selection needs of a channel (a stored one or a snapshot entry)."""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> int | None: ...
    @property
    def share(self) -> int: ...
    @property
    def salt(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ReleaseState:
    """A registry's channels as an operator sees them.

    Attributes:
        registry: The registry's name.
        channels: ``stable``, ``canary``, then any others.
        stable_version: The version stable serves: its own, or the newest
            published one while stable was never set (None before any publish).
        stable_pinned: False while stable follows the newest version.
    """

    registry: str
    channels: list[Channel]
    stable_version: int | None
    stable_pinned: bool

    def channel(self, name: str) -> Channel:
        """The channel called ``name``; raises ChannelError."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise ChannelError(f"{self.registry} has no channel {name!r}")


def choose_channel(channels: Sequence[ChannelLike], subject: str | None) -> str:
    """The name of the channel serving ``subject``.

    Non-stable channels are tried in order; the first with a version, a share
    above 0 and the subject's bucket inside that share wins. No subject, or no
    such channel, means stable.
    """
    if subject:
        for channel in channels:
            if channel.name == STABLE or channel.version is None:
                continue
            if in_share(channel.salt, subject, channel.share):
                return channel.name
    return STABLE


def release_state(store: RegistryStore, registry: str) -> ReleaseState:
    """The channels of ``registry`` with stable's effective version."""
    repo = ChannelRepository(store)
    channels = repo.channels(registry)
    stable = channels[0]
    if stable.version is not None:
        return ReleaseState(registry, channels, stable.version, True)
    return ReleaseState(registry, channels, repo.latest_version_number(registry), False)


def set_channel(
    store: RegistryStore,
    registry: str,
    channel: str,
    *,
    version: int,
    share: int | None = None,
    who: str | None = None,
    why: str = "",
) -> ReleaseState:
    """Point ``channel`` at ``version``; ``share`` defaults to 100 for stable, else 0.

    Raises:
        ChannelError: bad channel name or share.
        NotFoundError: no such registry or version.
    """
    if share is None:
        share = 100 if channel == STABLE else 0
    ChannelRepository(store).set_channel(
        registry, channel, version=version, share=share, who=who, why=why
    )
    return release_state(store, registry)


def set_canary(
    store: RegistryStore,
    registry: str,
    *,
    version: int,
    share: int,
    who: str | None = None,
    why: str = "",
) -> ReleaseState:
    """Give the canary channel ``version`` at ``share`` percent."""
    return set_channel(store, registry, CANARY, version=version, share=share, who=who, why=why)


def promote(
    store: RegistryStore,
    registry: str,
    channel: str = CANARY,
    *,
    who: str | None = None,
    why: str = "",
) -> ReleaseState:
    """Make the canary's version stable; the canary goes to 0 % with no version."""
    ChannelRepository(store).promote(registry, channel, who=who, why=why)
    return release_state(store, registry)


def rollback(
    store: RegistryStore,
    registry: str,
    channel: str = CANARY,
    *,
    who: str | None = None,
    why: str = "",
) -> ReleaseState:
    """Roll stable back to its previous version, or another channel to 0 %."""
    ChannelRepository(store).rollback(registry, channel, who=who, why=why)
    return release_state(store, registry)


def channel_events(
    store: RegistryStore, registry: str, channel: str | None = None
) -> list[ChannelEvent]:
    """The append-only log of ``registry``'s channel actions and publishes, oldest first.

    A publish entry has action ``publish`` and no channel (``""``); its
    ``before``/``after`` are versions ``{"version", "semver"}``, not channel states.
    """
    return ChannelRepository(store).events(registry, channel)


def event_change(event: ChannelEvent, *, at: str = "at") -> tuple[str, str]:
    """A log entry's before and after as text, for the CLI and the Release view.

    A channel's state reads ``v3 at 10 %`` (``at`` is the word between) or
    ``unset``; a publish, which logs the newest version rather than a channel,
    reads ``v3 (1.2.0)`` or ``none``.
    """
    if event.action == PUBLISH:
        return _version_text(event.before), _version_text(event.after)
    return _state_text(event.before, at), _state_text(event.after, at)


def _state_text(state: dict[str, Any], at: str) -> str:
    version = state.get("version")
    return f"v{version} {at} {state.get('share', 0)} %" if version is not None else "unset"


def _version_text(state: dict[str, Any]) -> str:
    version, semver = state.get("version"), state.get("semver")
    if version is None:
        return "none"
    return f"v{version} ({semver})" if semver else f"v{version}"
