"""What a diff side can be (draft, version N, a channel) and how to load it.

Qt-free: the view lists :func:`available_sides` and loads them in a worker
with :func:`load_side`; the publish dialog asks :func:`publish_baseline`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QCoreApplication

from registry_db import RegistryStore, StoreError
from studio.contract import Registry
from studio.diff import RegistryDiff, diff_registries

SideKind = Literal["draft", "version", "channel"]


@dataclass(frozen=True, slots=True)
class DiffSide:
    """One side of a diff.

    Attributes:
        kind: ``draft``, ``version`` or ``channel``.
        version: The version number (kind ``version``; for ``channel`` the
            version it serves, None while it serves none).
        channel: The channel's name (kind ``channel``).
    """

    kind: SideKind
    version: int | None = None
    channel: str = ""

    @property
    def label(self) -> str:
        """How reports name the side: ``draft``, ``v3``, ``stable (v3)``."""
        if self.kind == "draft":
            return "draft"
        if self.kind == "version":
            return f"v{self.version}"
        served = f"v{self.version}" if self.version is not None else "no version"
        return f"{self.channel} ({served})"


DRAFT = DiffSide("draft")


def available_sides(store: RegistryStore, registry: str) -> list[DiffSide]:
    """The draft, every version newest first, then channels that serve a version."""
    from studio.release import release_state  # release pulls in bucketing; only when used

    sides = [DRAFT]
    versions = store.list_versions(registry)
    sides += [DiffSide("version", v.number) for v in reversed(versions)]
    if versions:
        state = release_state(store, registry)
        for channel in state.channels:
            number = state.stable_version if channel.name == "stable" else channel.version
            if number is not None:
                sides.append(DiffSide("channel", number, channel.name))
    return sides


def load_side(store: RegistryStore, registry: str, side: DiffSide) -> Registry:
    """The registry ``side`` names (the saved draft for ``draft``).

    Raises:
        StoreError: no such registry or version, or a tampered version.
    """
    if side.kind == "draft":
        return store.draft_registry(registry)
    if side.version is None:
        raise StoreError(f"{side.label} of {registry} has no version to compare")
    return store.load_version(registry, side.version).registry


@dataclass(frozen=True, slots=True)
class PublishBaseline:
    """What a new version is compared with in the publish dialog.

    Attributes:
        diff: Saved draft against the baseline (an empty registry when
            nothing was ever published).
        label: The baseline's name (``stable (v3)``, ``v4`` or ``nothing``).
        previous_semver: The newest semver given so far (what the next one
            must exceed), None when none was ever given.
        note: Why this baseline was chosen, shown to the author.
    """

    diff: RegistryDiff
    label: str
    previous_semver: str | None
    note: str


def publish_baseline(
    store: RegistryStore, registry: str, draft: Registry | None = None
) -> PublishBaseline:
    """The saved draft of ``registry`` compared with its stable channel's version.

    Falls back to the newest version while stable serves none, and to an
    empty registry when nothing was ever published; ``note`` says which.
    Lint is skipped: the dialog needs the classified changes, quickly.
    """
    from studio.release import release_state

    b = store.draft_registry(registry) if draft is None else draft
    versions = store.list_versions(registry)
    previous_semver = next((v.semver for v in reversed(versions) if v.semver), None)
    if not versions:
        a = Registry(name=b.name, settings=b.settings)
        label = "nothing"
        note = QCoreApplication.translate(
            "PublishBaseline", "{registry} has never been published: every tool is new."
        ).format(registry=registry)
    else:
        state = release_state(store, registry)
        number = state.stable_version
        if number is None:  # pragma: no cover - versions exist, so stable follows the newest
            number = versions[-1].number
        if state.stable_pinned:
            label = f"stable (v{number})"
            note = QCoreApplication.translate(
                "PublishBaseline",
                "Compared with the version the stable channel serves (v{number}).",
            ).format(number=number)
        else:
            label = f"v{number}"
            note = QCoreApplication.translate(
                "PublishBaseline",
                "No stable channel version is set: compared with the latest version (v{number}).",
            ).format(number=number)
        a = store.load_version(registry, number).registry
    diff = diff_registries(a, b, lint_profile=None, a_label=label, b_label="draft")
    return PublishBaseline(diff, label, previous_semver, note)
