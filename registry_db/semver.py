"""Semantic version labels of published versions (``X.Y.Z`` or ``X.Y.Z-pre``)."""

from __future__ import annotations

import re

from registry_db.errors import InvalidSemverError

_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
    r"(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?$"
)

# A precedence key: (major, minor, patch, is_release, prerelease identifiers).
# A release sorts after its pre-releases; numeric identifiers sort before
# alphanumeric ones (SemVer 2.0.0 §11).
SemverKey = tuple[int, int, int, int, tuple[tuple[int, int, str], ...]]


def semver_key(text: str) -> SemverKey:
    """The precedence key of a semantic version.

    Raises:
        InvalidSemverError: when ``text`` is not ``X.Y.Z`` or ``X.Y.Z-pre``.
    """
    match = _SEMVER.fullmatch(text)
    if match is None:
        raise InvalidSemverError(
            f"{text!r} is not a semantic version (expected X.Y.Z or X.Y.Z-pre, e.g. 1.4.0)"
        )
    major, minor, patch, pre = match.groups()
    identifiers = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in (pre.split(".") if pre else ())
    )
    return int(major), int(minor), int(patch), 0 if pre else 1, identifiers


def check_next_semver(new: str, previous: str | None) -> None:
    """Require ``new`` to be well formed and greater than ``previous`` (when there is one).

    Raises:
        InvalidSemverError: naming both versions when ``new`` does not come after ``previous``.
    """
    key = semver_key(new)
    if previous is not None and key <= semver_key(previous):
        raise InvalidSemverError(
            f"semver {new} must be greater than the previous version's {previous}"
        )
