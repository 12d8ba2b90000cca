"""Grouped word lists of the ambiguity and risk rules: ``group: word word …`` data files.

:mod:`studio.lint.wordlists` reads flat lists (stopwords, generic words);
the files here group their words, English and Chinese side by side, and a
rule asks for a group by name:

- ``destructive_verbs.txt``: irreversible and reversible destructive verbs,
  and the objects a reversible verb cannot bring back (see
  :func:`destructive_groups`).
- ``contrasts.txt``: sibling and opposite verbs or particles (start / restart /
  stop, opt in / opt out, 启用 / 停用) that tell two otherwise equal summaries
  apart (see :mod:`studio.lint.contrast`).
- ``quantities.txt``: words that say how many items a summary is about
  (all, one, several, the current one).
- ``boilerplate.txt``: patterns of text importers put around every
  description of a tool set ("This is the subfunction for tool …").

Extend the files, not the code: each rule reads every word of its group.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=16)
def grouped_lines(filename: str) -> tuple[tuple[str, str], ...]:
    """``(group, rest of the line)`` of every ``group: …`` line of a data file, in order.

    ``#`` starts a comment; lines without a ``:`` are ignored.
    """
    raw = resources.files("studio.lint").joinpath("data", filename).read_text("utf-8")
    out = []
    for line in raw.splitlines():
        body = line.split("#", 1)[0].strip()
        if ":" not in body:
            continue
        group, rest = body.split(":", 1)
        out.append((group.strip().lower(), rest.strip()))
    return tuple(out)


@lru_cache(maxsize=16)
def word_groups(filename: str) -> dict[str, frozenset[str]]:
    """Group → its whitespace-separated words (lower case), several lines per group merged."""
    out: dict[str, set[str]] = {}
    for group, rest in grouped_lines(filename):
        out.setdefault(group, set()).update(w.lower() for w in rest.split())
    return {g: frozenset(ws) for g, ws in out.items()}


def destructive_groups() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(irreversible verbs, reversible verbs, final objects) of ``destructive_verbs.txt``."""
    groups = word_groups("destructive_verbs.txt")
    empty: frozenset[str] = frozenset()
    return (
        groups.get("irreversible", empty),
        groups.get("reversible", empty),
        groups.get("final-object", empty),
    )


@lru_cache(maxsize=1)
def _boilerplate() -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(prefixes, wrapper) of ``boilerplate.txt``, each one compiled pattern (None: none)."""
    prefixes = [r for g, r in grouped_lines("boilerplate.txt") if g == "prefix"]
    wrappers = [r for g, r in grouped_lines("boilerplate.txt") if g == "wrapper"]
    flags = re.IGNORECASE | re.DOTALL
    prefix = re.compile("|".join(f"(?:{r})" for r in prefixes), flags) if prefixes else None
    wrapper = re.compile("|".join(f"(?:{r})" for r in wrappers), flags) if wrappers else None
    return prefix, wrapper


def strip_boilerplate(text: str) -> str:
    """``text`` without the generator's boilerplate it opens with (``boilerplate.txt``).

    'This is the subfunction for tool "spotify", you can use this tool.The
    description of this function is: "Get artist singles"' → "Get artist
    singles"; a text that is only boilerplate gives "". Text without any is
    returned as it is (stripped).
    """
    prefix, wrapper = _boilerplate()
    out = text.strip()
    if prefix is None:
        return out
    stripped = False
    while out:
        match = prefix.match(out)
        if match is None or not match.group():
            break
        out = out[match.end() :].lstrip()
        stripped = True
    if stripped and wrapper is not None:
        enclosed = wrapper.fullmatch(out)
        if enclosed is not None:
            inner = next((g for g in enclosed.groups() if g is not None), None)
            if inner is not None:
                out = inner.strip()
    return out


__all__ = ["destructive_groups", "grouped_lines", "strip_boilerplate", "word_groups"]
