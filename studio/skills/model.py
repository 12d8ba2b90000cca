"""A skill (Agent Skills format): ``SKILL.md`` front matter and body plus the folder's files.

The text of ``SKILL.md`` is the source of truth: a skill read from a folder and
written back gives the same bytes, because nothing is re-rendered unless it was
edited. :func:`with_front_matter` re-renders only the front matter (key order
kept); :func:`with_body` replaces only the body. The parsed fields (``name``,
``description``, ``allowed_tools``, ``front_matter``, ``body``) are derived from
the text once, when the skill is built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from studio.contract.tree_size import grows_past

SKILL_FILE = "SKILL.md"
"""The one required file of a skill folder."""

_FENCE = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^---[ \t]*\r?$\n?", re.MULTILINE)


class SkillError(ValueError):
    """A skill package or ``SKILL.md`` cannot be read; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill package.

    Attributes:
        text: ``SKILL.md`` exactly as read (or as last rendered after an edit).
        files: The folder's other files, relative POSIX path → bytes, sorted by path.
        name: ``name`` from the front matter ("" when missing).
        description: ``description`` from the front matter ("" when missing).
        allowed_tools: ``allowed-tools`` split on spaces (a list is accepted too).
        front_matter: Every front-matter key in the order written.
        body: The Markdown after the front matter.
        body_line: 1-based line of ``SKILL.md`` where the body starts (for located messages).
    """

    text: str
    files: tuple[tuple[str, bytes], ...] = ()
    name: str = ""
    description: str = ""
    allowed_tools: tuple[str, ...] = ()
    front_matter: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1

    def file(self, relpath: str) -> bytes | None:
        """The bytes of one of the folder's files, or None."""
        return next((data for path, data in self.files if path == relpath), None)

    def file_names(self) -> tuple[str, ...]:
        """Every file of the package, ``SKILL.md`` first."""
        return (SKILL_FILE, *(path for path, _ in self.files))


def split_skill_md(text: str) -> tuple[str, str, int]:
    """Split ``SKILL.md`` into its front-matter YAML text and body.

    Return:
        (yaml_text, body, body_line): body_line is the 1-based line where the body starts.

    Raises:
        SkillError: no front matter, or it is never closed.
    """
    opening = _FENCE.match(text)
    if opening is None:
        raise SkillError(
            "SKILL.md:1: must start with '---' (YAML front matter with name and description)"
        )
    closing = _CLOSE.search(text, opening.end())
    if closing is None:
        raise SkillError(
            "SKILL.md:1: the front matter opened by '---' is never closed by a '---' line"
        )
    yaml_text = text[opening.end() : closing.start()]
    body_line = text.count("\n", 0, closing.end()) + 1
    return yaml_text, text[closing.end() :], body_line


def parse_skill(text: str, files: dict[str, bytes] | None = None) -> Skill:
    """Build a skill from the text of its ``SKILL.md`` and its other files.

    Raises:
        SkillError: the front matter is not YAML or not a mapping (with its line).
    """
    import yaml  # loaded when a skill is first read, not with the contract model

    yaml_text, body, body_line = split_skill_md(text)
    try:
        # The C loader when PyYAML has it: the same safe schema, faster, and deep
        # nesting is its "maximum nesting depth" error rather than a slow RecursionError.
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(yaml_text, Loader=loader) if yaml_text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 2
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise SkillError(f"SKILL.md:{line}: front matter: {problem}") from None
    except RecursionError:  # PyYAML composes nested collections recursively
        raise SkillError(
            "SKILL.md:2: front matter: lists and mappings are nested too deeply (refused)"
        ) from None
    if not isinstance(data, dict):
        raise SkillError("SKILL.md:2: front matter must be a mapping of keys to values")
    front = {str(k): v for k, v in data.items()}
    name = front.get("name")
    description = front.get("description")
    return Skill(
        text=text,
        files=tuple(sorted((files or {}).items())),
        name=name if isinstance(name, str) else "",
        description=description if isinstance(description, str) else "",
        allowed_tools=_allowed_tools(front.get("allowed-tools")),
        front_matter=front,
        body=body,
        body_line=body_line,
    )


MAX_FRONT_MATTER_VALUES = 100_000
"""YAML aliases share one value many times; a "billion laughs" front matter would
expand to 10^9 values the first time a diff or a dump walks it."""


def check_front_matter_size(skill: Skill) -> None:
    """Refuse a front matter whose YAML aliases expand past :data:`MAX_FRONT_MATTER_VALUES`.

    Checked when a package is read (import), not when a stored skill is
    loaded: a registry already holding one must still open.

    Raises:
        SkillError: located at the front matter.
    """
    if grows_past(skill.front_matter, MAX_FRONT_MATTER_VALUES, count_keys=True):
        raise SkillError(
            f"SKILL.md:2: front matter: its aliases expand past {MAX_FRONT_MATTER_VALUES:,} "
            "values (refused)"
        )


def _allowed_tools(value: Any) -> tuple[str, ...]:
    """``allowed-tools`` is a space-separated string in the spec; lists are common too."""
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value if v is not None)
    return ()


def render_front_matter(front: dict[str, Any]) -> str:
    """The YAML of a front matter, keys in the given order, Chinese kept readable."""
    import yaml

    return yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=10_000)


def with_front_matter(skill: Skill, **changes: Any) -> Skill:
    """The skill with some front-matter keys set (``allowed_tools`` → ``allowed-tools``).

    Only the front matter is re-rendered; the body's text is kept as it was.
    A value of None removes the key.
    """
    front = dict(skill.front_matter)
    for key, value in changes.items():
        key = key.replace("_", "-")
        if value is None:
            front.pop(key, None)
        else:
            front[key] = value
    if front == skill.front_matter:
        return skill
    text = f"---\n{render_front_matter(front)}---\n{skill.body}"
    return parse_skill(text, dict(skill.files))


def with_body(skill: Skill, body: str) -> Skill:
    """The skill with a new Markdown body; the front matter's text is kept as it was."""
    if body == skill.body:
        return skill
    head = skill.text[: len(skill.text) - len(skill.body)] if skill.body else skill.text
    if not head.endswith("\n"):
        head += "\n"
    return parse_skill(head + body, dict(skill.files))


def with_files(skill: Skill, files: dict[str, bytes]) -> Skill:
    """The skill with another set of folder files (``SKILL.md`` is not among them)."""
    return parse_skill(skill.text, files)


def new_skill(name: str, description: str, body: str = "") -> Skill:
    """A fresh skill with the two required keys."""
    front = {"name": name, "description": description}
    return parse_skill(f"---\n{render_front_matter(front)}---\n{body}")
