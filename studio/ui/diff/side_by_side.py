"""Side-by-side HTML of a text diff with word-level highlighting (Qt-free).

Description blocks come with their word diff (``BlockDiff.ops``: Latin words
and single CJK characters as units); JSON schemas are diffed line by line and
changed lines word by word with :func:`studio.diff.word_diff`.
"""

from __future__ import annotations

import difflib
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from studio.diff import BlockDiff, WordOp, word_diff


@dataclass(frozen=True, slots=True)
class Colours:
    """Background colours for deleted and inserted words."""

    deleted: str
    inserted: str


LIGHT = Colours(deleted="#ffc9c4", inserted="#bff0c9")
DARK = Colours(deleted="#6e1d1a", inserted="#1d5a2c")

DELETED_CLASS = "del"
INSERTED_CLASS = "ins"


def _span(text: str, klass: str, colours: Colours) -> str:
    colour = colours.deleted if klass == DELETED_CLASS else colours.inserted
    return f'<span class="{klass}" style="background-color:{colour}">{html.escape(text)}</span>'


def ops_html(ops: Sequence[WordOp], colours: Colours = LIGHT) -> tuple[str, str]:
    """The before and after texts as HTML with changed words highlighted."""
    left: list[str] = []
    right: list[str] = []
    for op in ops:
        if op.op == "equal":
            left.append(html.escape(op.before))
            right.append(html.escape(op.after))
            continue
        if op.before:
            left.append(_span(op.before, DELETED_CLASS, colours))
        if op.after:
            right.append(_span(op.after, INSERTED_CLASS, colours))
    return _pre("".join(left)), _pre("".join(right))


def _pre(body: str) -> str:
    return f'<div style="white-space:pre-wrap">{body}</div>'


def block_html(block: BlockDiff, colours: Colours = LIGHT) -> tuple[str, str]:
    """A description block's before/after HTML from its word diff."""
    return ops_html(block.ops, colours)


def json_text(value: Any) -> str:
    """Pretty JSON for the schema pane ('' for None)."""
    if value is None:
        return ""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)


def lines_html(before: str, after: str, colours: Colours = LIGHT) -> tuple[str, str]:
    """Two texts side by side: aligned lines, changed lines highlighted word by word.

    Missing lines are padded with blanks so both panes keep the same height.
    """
    a, b = before.splitlines(), after.splitlines()
    left: list[str] = []
    right: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            left += [html.escape(x) for x in a[i1:i2]]
            right += [html.escape(x) for x in b[j1:j2]]
            continue
        pairs = max(i2 - i1, j2 - j1)
        for k in range(pairs):
            old = a[i1 + k] if i1 + k < i2 else None
            new = b[j1 + k] if j1 + k < j2 else None
            if old is not None and new is not None:
                lo, ro = _line_ops(old, new, colours)
                left.append(lo)
                right.append(ro)
            else:
                left.append(_span(old, DELETED_CLASS, colours) if old is not None else "")
                right.append(_span(new, INSERTED_CLASS, colours) if new is not None else "")
    return _pre("\n".join(left)), _pre("\n".join(right))


def _line_ops(old: str, new: str, colours: Colours) -> tuple[str, str]:
    left: list[str] = []
    right: list[str] = []
    for op in word_diff(old, new):
        if op.op == "equal":
            left.append(html.escape(op.before))
            right.append(html.escape(op.after))
            continue
        if op.before:
            left.append(_span(op.before, DELETED_CLASS, colours))
        if op.after:
            right.append(_span(op.after, INSERTED_CLASS, colours))
    return "".join(left), "".join(right)
