"""What a skill's Markdown body points at, read with markdown-it-py (not regexes on raw text).

Lint needs the tools a body tells the model to call (code spans such as
```search_policy```) and the files it points at (``scripts/calc.py``, links to
``references/…``); the editor needs an HTML preview. Both come from the same
token stream, so a name inside a fenced code block or a link is found the
same way the Markdown renderer sees it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

_PACKAGE_DIRS = ("scripts/", "references/", "assets/")
_FILE_RE = re.compile(r"(?:scripts|references|assets)/[\w./-]+\w")
_IDENT_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{1,63}$")


@dataclass(frozen=True, slots=True)
class BodyRef:
    """One thing the body names: ``kind`` is ``code`` (a code span) or ``file``."""

    kind: str
    text: str
    line: int
    """1-based line within the body."""


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def render_html(body: str) -> str:
    """HTML of a Markdown body (CommonMark; raw HTML in the body is escaped, not passed on)."""
    return MarkdownIt("commonmark", {"html": False}).render(body)


def body_refs(body: str) -> list[BodyRef]:
    """Code spans and package file paths named in a body, in order, with their lines."""
    out: list[BodyRef] = []
    for token in _parser().parse(body):
        line = (token.map[0] + 1) if token.map else 1
        if token.type == "fence" or token.type == "code_block":
            out.extend(BodyRef("file", m.group(0), line) for m in _FILE_RE.finditer(token.content))
            continue
        for child in token.children or ():
            if child.type == "code_inline":
                text = child.content.strip()
                kind = "file" if text.startswith(_PACKAGE_DIRS) else "code"
                out.append(BodyRef(kind, text, line))
            elif child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                if href.startswith(_PACKAGE_DIRS):
                    out.append(BodyRef("file", href.split("#", 1)[0], line))
            elif child.type == "text":
                out.extend(
                    BodyRef("file", m.group(0), line) for m in _FILE_RE.finditer(child.content)
                )
    return out


def named_identifiers(body: str) -> list[BodyRef]:
    """Code spans that look like a tool name (``query_invoices``), not paths or ``YYYY-MM-DD``."""
    return [
        r
        for r in body_refs(body)
        if r.kind == "code" and _IDENT_RE.match(r.text) and any(c.islower() for c in r.text)
    ]


def named_files(body: str) -> list[BodyRef]:
    """Package files the body points at (``scripts/calc_over_limit.py``), each once."""
    seen: set[str] = set()
    out = []
    for ref in body_refs(body):
        if ref.kind == "file" and ref.text not in seen:
            seen.add(ref.text)
            out.append(ref)
    return out
