"""Reading an OpenAPI document (JSON or YAML) under the same limits as every import.

JSON goes through :func:`studio.formats.base.load_json`. YAML is parsed with
``yaml.safe_load`` (the C loader when PyYAML has it; no Python objects, no
tags beyond the core schema) and then brought to the JSON the rest of the
studio holds: keys become strings (YAML reads ``200:`` as an integer), dates
and timestamps become ISO text, and the same refusals as for JSON apply —
integers over :data:`~studio.formats.base.MAX_INT_DIGITS` digits, nesting
deeper than :data:`~studio.formats.base.MAX_DEPTH` and lone surrogates
(:func:`~studio.formats.base.check_json_value`), plus non-finite numbers and
documents whose aliases expand past :data:`MAX_NODES` values (a "billion
laughs" document is refused, never expanded).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import yaml

from studio.formats.base import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    FormatError,
    check_json_value,
    json_problem,
    load_json,
)

# How many values (objects, arrays and scalars) a YAML document may expand to.
# Okta's 730-operation document holds ~400,000; aliases could claim billions.
MAX_NODES = 5_000_000

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_document(text: str, source: str) -> Any:
    """Decode an OpenAPI document: JSON when it starts with ``{``, else YAML.

    Raises:
        FormatError: naming ``source`` and, for syntax errors, line and column.
    """
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return load_json(text, source)
    try:
        raw = yaml.load(text, Loader=_Loader)  # CSafeLoader/SafeLoader: no Python objects
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        detail = str(exc.problem or exc.context or "not valid YAML")
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        error = json_problem(source, detail, line=line, column=column)
        error.malformed = True
        raise error from None
    except RecursionError:
        raise json_problem(
            source, f"objects and arrays are nested more than {MAX_DEPTH} levels deep"
        ) from None
    except (yaml.YAMLError, ValueError) as exc:  # e.g. an integer Python refuses to convert
        if "integer string conversion" in str(exc):
            detail = f"an integer is too long (at most {MAX_INT_DIGITS} digits)"
            raise json_problem(source, detail) from None
        raise json_problem(source, f"not valid YAML: {exc}") from None
    value = _to_json(raw, source)
    check_json_value(value, source)
    return value


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_NODES


def _to_json(raw: Any, source: str) -> Any:
    """The JSON value of a YAML tree, walked without recursion past MAX_DEPTH."""
    budget = _Budget()
    return _convert(raw, source, budget, 0, [])


def _convert(node: Any, source: str, budget: _Budget, depth: int, path: list[str]) -> Any:
    budget.left -= 1
    if budget.left < 0:
        raise json_problem(
            source, f"the YAML document expands to more than {MAX_NODES:,} values (aliases?)"
        )
    if depth > MAX_DEPTH:
        detail = f"objects and arrays are nested more than {MAX_DEPTH} levels deep"
        raise json_problem(source, detail, path=".".join(path[:8]))
    if isinstance(node, dict):
        return {
            _key(k): _convert(v, source, budget, depth + 1, [*path, _key(k)])
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_convert(v, source, budget, depth + 1, [*path, str(i)]) for i, v in enumerate(node)]
    if isinstance(node, bool) or node is None or isinstance(node, str):
        return node
    if isinstance(node, int):
        if len(str(abs(node))) > MAX_INT_DIGITS:
            raise json_problem(
                source,
                f"an integer is too long (at most {MAX_INT_DIGITS} digits)",
                path=".".join(path),
            )
        return node
    if isinstance(node, float):
        if not math.isfinite(node):
            raise json_problem(source, f"{node} is not a JSON number", path=".".join(path))
        return node
    if isinstance(node, dt.date | dt.datetime):
        return node.isoformat()
    if isinstance(node, bytes):
        raise json_problem(source, "binary (!!binary) values are not JSON", path=".".join(path))
    raise FormatError(f"{source}: {type(node).__name__} values are not JSON")


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, dt.date | dt.datetime):
        return key.isoformat()
    return str(key)
