"""The suggested semver bump of a diff (DESIGN §7).

Any breaking change → major; any behavioural or compatible (additive) change →
minor; metadata only, or nothing → patch. The reasons are the rule ids of the
deciding class, in first-seen order, so they can be stored with the version.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from studio.diff.model import Change, ChangeClass, Suggestion

LEVELS = ("major", "minor", "patch")

_DECIDES = {
    "major": (ChangeClass.BREAKING,),
    "minor": (ChangeClass.BEHAVIOURAL, ChangeClass.COMPATIBLE),
    "patch": (ChangeClass.METADATA,),
}

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$")


def suggest_semver(changes: Iterable[Change]) -> Suggestion:
    """The bump ``changes`` call for, with the rule ids that decided it.

    Args:
        changes: Every change of a diff.

    Return:
        ``Suggestion("major" | "minor" | "patch", reasons)``; reasons are empty
        when there is no change at all.
    """
    changes = list(changes)
    for level in LEVELS:
        classes = _DECIDES[level]
        reasons = tuple(dict.fromkeys(c.rule_id for c in changes if c.klass in classes))
        if reasons:
            return Suggestion(level, reasons)
    return Suggestion("patch", ())


def next_semver(previous: str | None, level: str) -> str:
    """The version after ``previous`` for a bump of ``level`` (``1.0.0`` when there is none).

    A pre-release of the same core is released rather than bumped past:
    ``2.0.0-rc.1`` + major → ``2.0.0``.

    Raises:
        ValueError: ``previous`` is not ``X.Y.Z[-pre]`` or ``level`` is unknown.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bump {level!r}; expected one of {', '.join(LEVELS)}")
    if previous is None:
        return "1.0.0"
    match = _VERSION.fullmatch(previous)
    if match is None:
        raise ValueError(f"{previous!r} is not a semantic version (X.Y.Z)")
    major, minor, patch = (int(g) for g in match.groups())
    if "-" in previous:
        return f"{major}.{minor}.{patch}"
    if level == "major":
        return f"{major + 1}.0.0"
    if level == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"
