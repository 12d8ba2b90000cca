"""The Agent Skills specification's rules for ``SKILL.md`` (agentskills.io/specification).

- ``name``: required, 1-64 characters, lowercase letters, digits and hyphens,
  not starting or ending with a hyphen, no ``--``, equal to the folder's name;
- ``description``: required, non-empty, at most 1024 characters;
- ``compatibility``: at most 500 characters; ``metadata``: a mapping of strings;
  ``allowed-tools``: a space-separated string.

Each problem is one line located as ``<folder>/SKILL.md:<line>: …`` so an editor
or a terminal can jump to it. The spec allows Unicode lowercase letters in names
(NFKC); we accept them too but file names stay what the user chose.
"""

from __future__ import annotations

import unicodedata

from studio.contract.problems import hidden_code_points
from studio.skills.model import SKILL_FILE, Skill

NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500


def front_matter_line(skill: Skill, key: str) -> int:
    """1-based line of ``key:`` in ``SKILL.md`` (the opening ``---`` line when absent)."""
    for number, line in enumerate(skill.text.splitlines()[: skill.body_line], start=1):
        if line.startswith(f"{key}:"):
            return number
    return 1


def usable_name(name: str) -> bool:
    """True when ``name`` can key a skill in storage and name its folder (``skills/<name>/``).

    Weaker than the spec on purpose: a non-conforming name is a lint finding,
    but one that is empty or could leave the folder (``..``, ``/``) is refused.
    """
    return bool(name) and not name.startswith(".") and not any(c in name for c in "/\\\0")


_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
"""Controls, format characters (bidi overrides, zero-width), separators, unassigned."""


def import_refusal(skill: Skill, folder: str) -> str:
    """Why an imported skill cannot be stored under its name ("" when it can), located.

    Stricter than :func:`usable_name` (which also guards skills already stored,
    so it must not grow): an import also refuses a name that is not a string
    and one holding invisible or direction-changing characters, which could
    show the catalogue one name and mean another (``U+202E`` reverses text).
    """
    where = visible(f"{folder}/{SKILL_FILE}:{front_matter_line(skill, 'name')}")
    raw = skill.front_matter.get("name")
    if raw is None:
        return f"{where}: the front matter has no name (name: <skill-name>)"
    if not isinstance(raw, str):
        return f"{where}: name must be a string, not {_kind(raw)}"
    codes = hidden_code_points(raw, _HIDDEN_CATEGORIES)
    if codes:
        return (
            f"{where}: name holds invisible or direction-changing characters ({codes}); "
            "refused: it could read as another name"
        )
    if not usable_name(raw):
        return f"{where}: name {raw!r} cannot be stored (empty, a leading '.', '/' or '\\')"
    return ""


def visible(text: str) -> str:
    """``text`` with invisible and direction-changing characters shown as ``\\uXXXX``.

    For messages printed to a terminal: a folder named with ``U+202E`` would
    otherwise reverse the rest of the line it is printed on.
    """
    return shown(text)


def shown(text: str, *, keep_tabs: bool = False) -> str:
    """``text`` as one terminal line: line breaks, escape sequences (``ESC[31m``) and
    invisible or direction-changing characters written as ``\\n`` / ``\\uXXXX``.

    For what a package or card says about itself (a description, a URL) when a
    command prints it; ``keep_tabs`` leaves the tabs of tab-separated output.
    """
    if text.isascii() and text.isprintable():
        return text
    special = {"\n": "\\n", "\r": "\\r"} if keep_tabs else {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return "".join(
        special.get(c)
        or (
            f"\\u{ord(c):04x}"
            if unicodedata.category(c) in _HIDDEN_CATEGORIES and not (keep_tabs and c == "\t")
            else c
        )
        for c in text
    )


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def name_problems(name: str) -> list[str]:
    """What is wrong with a skill name under the spec (empty when nothing)."""
    if not name:
        return ["name is required"]
    out = []
    if len(name) > NAME_MAX:
        out.append(f"name has {len(name)} characters; the limit is {NAME_MAX}")
    normal = unicodedata.normalize("NFKC", name)
    bad = sorted(
        {c for c in normal if not (c == "-" or c.isdigit() or (c.isalpha() and c == c.lower()))}
    )
    if bad:
        shown = " ".join(repr(c) for c in bad[:5])
        out.append(f"name may hold only lowercase letters, digits and hyphens, not {shown}")
    if name.startswith("-") or name.endswith("-"):
        out.append("name must not start or end with a hyphen")
    if "--" in name:
        out.append("name must not contain consecutive hyphens ('--')")
    return out


def validate_skill(skill: Skill, folder: str | None = None) -> list[str]:
    """Every spec problem of a skill, each one located line.

    Args:
        skill: The skill.
        folder: The folder the skill came from (its name must equal ``name``);
            None when the folder name is not known.
    """
    where = f"{folder or skill.name or '?'}/{SKILL_FILE}"
    out: list[str] = []

    def add(key: str, message: str) -> None:
        out.append(f"{where}:{front_matter_line(skill, key)}: {message}")

    raw_name = skill.front_matter.get("name")
    if raw_name is not None and not isinstance(raw_name, str):
        add("name", "name must be a string")
    for message in name_problems(skill.name):
        add("name", message)
    if folder and skill.name and folder != skill.name:
        add("name", f"name {skill.name!r} differs from its folder {folder!r}")
    raw = skill.front_matter.get("description")
    if raw is not None and not isinstance(raw, str):
        add("description", "description must be a string")
    elif not (skill.description or "").strip():
        add("description", "description is required: say what the skill does and when to use it")
    elif len(skill.description) > DESCRIPTION_MAX:
        add(
            "description",
            f"description has {len(skill.description)} characters; the limit is {DESCRIPTION_MAX}",
        )
    compat = skill.front_matter.get("compatibility")
    if compat is not None and (not isinstance(compat, str) or len(compat) > COMPATIBILITY_MAX):
        add(
            "compatibility",
            f"compatibility must be a string of at most {COMPATIBILITY_MAX} characters",
        )
    meta = skill.front_matter.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        add("metadata", "metadata must be a mapping of keys to values")
    tools = skill.front_matter.get("allowed-tools")
    if tools is not None and not isinstance(tools, str | list):
        add("allowed-tools", "allowed-tools must be a space-separated string of tool names")
    return out
