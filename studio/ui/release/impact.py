"""What a release action does to subjects, and what a log entry did, in words.

Setting a canary while stable followed the newest version pins stable to
the version below the canary; with two versions that moved 90 % of subjects
back from v2 to v1 with no word. Before any action writes, the Release view
runs the simulator (the same channel choice as serving) over a fixed set of
synthetic subjects with the channels as they are and as they would be, and
says how many move where.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from studio.release import CANARY, PUBLISH, STABLE, Channel, ChannelEvent, simulate
from studio.release.simulator import generate_subjects

translate = QCoreApplication.translate

SIMULATED_SUBJECTS = 1000
# Fixed ids: the same action always reports the same numbers.
_SUBJECTS = generate_subjects(SIMULATED_SUBJECTS, prefix="subject-", seed=20261201)


@dataclass(frozen=True)
class Moves:
    """Subjects whose version changes: (from, to) → how many, of ``total``."""

    total: int
    moves: dict[tuple[int | None, int | None], int]

    @property
    def moved(self) -> int:
        return sum(self.moves.values())


def subject_moves(before: Sequence[Channel], after: Sequence[Channel]) -> Moves:
    """Simulate the subjects under ``before`` and ``after``; count who lands elsewhere."""
    first = simulate(before, _SUBJECTS).assignments
    second = simulate(after, _SUBJECTS).assignments
    counts = Counter(
        (a.version, b.version) for a, b in zip(first, second, strict=True) if a.version != b.version
    )
    return Moves(len(first), dict(counts))


def _v(version: int | None) -> str:
    return f"v{version}" if version is not None else translate("ReleaseImpact", "no version")


def describe_moves(moves: Moves) -> str:
    """``Of 1,000 simulated subjects, 900 move from v2 to v1.`` (or that none move)."""
    if not moves.moved:
        return translate(
            "ReleaseImpact", "No subject changes version (checked on {total:,} simulated subjects)."
        ).format(total=moves.total)
    parts = [
        translate("ReleaseImpact", "{count:,} move from {old} to {new}").format(
            count=n, old=_v(old), new=_v(new)
        )
        for (old, new), n in sorted(moves.moves.items(), key=lambda kv: -kv[1])
    ]
    return translate("ReleaseImpact", "Of {total:,} simulated subjects, {moves}.").format(
        total=moves.total, moves="; ".join(parts)
    )


def _find(channels: Sequence[Channel], name: str) -> int:
    return next((i for i, c in enumerate(channels) if c.name == name), -1)


def after_set_canary(
    channels: Sequence[Channel],
    stable_pinned: bool,
    versions: Sequence[int],
    version: int,
    share: int,
) -> list[Channel]:
    """The channels after setting the canary (stable's effective version filled in).

    Mirrors the store: while stable follows the newest version, setting a
    canary pins stable to the newest version below the canary's.
    """
    after = list(channels)
    s = _find(after, STABLE)
    if not stable_pinned and s >= 0:
        below = [n for n in versions if n < version]
        if below:
            after[s] = dataclasses.replace(after[s], version=max(below))
    c = _find(after, CANARY)
    if c >= 0:
        after[c] = dataclasses.replace(after[c], version=version, share=share)
    elif s >= 0:
        after.append(dataclasses.replace(after[s], name=CANARY, version=version, share=share))
    return after


def after_promote(channels: Sequence[Channel]) -> list[Channel]:
    """The channels after promoting the canary: stable serves its version, canary empties."""
    after = list(channels)
    s, c = _find(after, STABLE), _find(after, CANARY)
    if s >= 0 and c >= 0:
        after[s] = dataclasses.replace(after[s], version=after[c].version)
        after[c] = dataclasses.replace(after[c], version=None, share=0)
    return after


def after_rollback(
    channels: Sequence[Channel], channel: str, previous_stable: int | None
) -> list[Channel]:
    """The channels after a rollback: the canary to 0 %, or stable to ``previous_stable``."""
    after = list(channels)
    i = _find(after, channel)
    if i < 0:
        return after
    if channel == STABLE:
        if previous_stable is not None:
            after[i] = dataclasses.replace(after[i], version=previous_stable)
    else:
        after[i] = dataclasses.replace(after[i], share=0)
    return after


def previous_stable(events: Sequence[ChannelEvent]) -> int | None:
    """The version a stable rollback returns to (events oldest first), as the store replays it."""
    history: list[int] = []
    for event in events:
        if event.channel != STABLE or event.action == PUBLISH:
            continue
        version = event.after.get("version")
        if event.action == "rollback":
            if history:
                history.pop()
        elif version is not None and (not history or history[-1] != version):
            history.append(int(version))
    return history[-2] if len(history) >= 2 else None


def _state(state: dict[str, object]) -> str:
    version = state.get("version")
    if version is None:
        return translate("ReleaseImpact", "unset")
    return translate("ReleaseImpact", "v{version} at {share} %").format(
        version=version, share=state.get("share", 0)
    )


def event_words(event: ChannelEvent) -> str:
    """A log entry as a sentence: "stable pinned to v1 (it followed the newest version)"."""
    before, after = event.before, event.after
    old, new = before.get("version"), after.get("version")
    if event.action == PUBLISH:
        label = f"v{new}" + (f" ({after['semver']})" if after.get("semver") else "")
        if old is None:
            return translate("ReleaseImpact", "first version {label} published").format(label=label)
        return translate("ReleaseImpact", "{label} published (newest was v{old})").format(
            label=label, old=old
        )
    name = event.channel
    if event.action == "pin":
        return translate(
            "ReleaseImpact", "{name} pinned to v{new} (it followed the newest version)"
        ).format(name=name, new=new)
    if event.action == "promote":
        if name == STABLE:
            return translate("ReleaseImpact", "stable now serves v{new} (was {old})").format(
                new=new, old=_state(before)
            )
        return translate("ReleaseImpact", "{name} emptied after its promotion (was {old})").format(
            name=name, old=_state(before)
        )
    if event.action == "rollback":
        if name == STABLE:
            return translate("ReleaseImpact", "stable rolled back to v{new} (was v{old})").format(
                new=new, old=old
            )
        return translate("ReleaseImpact", "{name} rolled back to 0 % (was {old})").format(
            name=name, old=_state(before)
        )
    if name == STABLE:
        return translate("ReleaseImpact", "stable set to v{new} (was {old})").format(
            new=new, old=_state(before)
        )
    share = after.get("share", 0)
    return translate(
        "ReleaseImpact", "{name} set to v{new} for {share} % of subjects (was {old})"
    ).format(name=name, new=new, share=share, old=_state(before))
