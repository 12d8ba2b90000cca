"""Parsing tool-call arguments, with the repairs models commonly need (step 1).

Repairs, tried in order and recorded by name: empty string → ``{}``, code
fences stripped, single-quoted strings and Python literals rewritten, trailing
commas dropped, double-encoded JSON decoded. An unrepairable string raises
:class:`ArgumentsParseError` with the position the parser reported for the
original text.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


class ArgumentsParseError(ValueError):
    """Arguments that are not JSON even after repair."""

    def __init__(self, message: str, *, line: int, column: int, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.position = position


def _rewrite(text: str) -> str:
    """Single quotes → double quotes, Python literals → JSON, trailing commas dropped.

    A small scanner that knows where strings are, so commas and quotes inside
    string values are left alone.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            quote, j, buf = ch, i + 1, []
            while j < n and text[j] != quote:
                if text[j] == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    # \' is not a JSON escape; inside a double-quoted result it needs none.
                    buf.append("'" if nxt == "'" else text[j : j + 2])
                    j += 2
                    continue
                buf.append('\\"' if text[j] == '"' else text[j])
                j += 1
            out.append('"' + "".join(buf) + '"')
            i = j + 1
            continue
        if ch == ",":
            k = i + 1
            while k < n and text[k].isspace():
                k += 1
            if k < n and text[k] in "}]":
                i += 1
                continue
        if ch.isalpha():
            m = re.match(r"[A-Za-z_]+", text[i:])
            assert m is not None
            word = m.group(0)
            out.append(_PY_LITERALS.get(word, word))
            i += len(word)
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse_arguments(raw: str | dict[str, Any] | None) -> tuple[Any, list[str]]:
    """Parse ``raw`` into a JSON value, repairing where possible.

    Return:
        The value (not yet checked to be an object) and the repairs applied.

    Raises:
        ArgumentsParseError: the text is not JSON even after every repair.
    """
    if isinstance(raw, dict):
        return raw, []
    if raw is None or not raw.strip():
        return {}, ["empty arguments read as {}"]
    repairs: list[str] = []
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as first:
        text = raw
        fence = _FENCE.match(text)
        if fence:
            text = fence.group(1)
            repairs.append("code fence removed")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            rewritten = _rewrite(text)
            try:
                value = json.loads(rewritten)
            except json.JSONDecodeError:
                raise ArgumentsParseError(
                    first.msg, line=first.lineno, column=first.colno, position=first.pos
                ) from None
            repairs.append("single quotes, Python literals or trailing commas fixed")
    for _ in range(2):
        if isinstance(value, str) and value.strip()[:1] in ("{", "["):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                break
            repairs.append("double-encoded JSON string decoded")
    return value, repairs
