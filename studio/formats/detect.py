"""Telling formats apart by the shape of a decoded JSON document."""

from __future__ import annotations

from typing import Any

from studio.contract.document import REGISTRY_FORMAT
from studio.formats.base import FormatError, kind_of

# Keys only a studio tool document has; a provider entry never carries them.
_STUDIO_ONLY = frozenset(
    {
        "summary",
        "usage",
        "preconditions",
        "returns",
        "errors",
        "examples",
        "risk",
        "execution",
        "permissions",
        "tags",
        "domain",
        "deprecated",
    }
)
_STUDIO_KEYS = _STUDIO_ONLY | {"name", "title", "description", "parameters"}


def _entry_format(entry: Any) -> str | None:
    """The format one tool entry looks like, or None when it could be several."""
    if not isinstance(entry, dict):
        return None
    if entry.get("type") == "function":
        if isinstance(entry.get("function"), dict):
            return "openai"
        if "name" in entry:
            return "openai-responses"
    if "input_schema" in entry:
        return "anthropic"
    if "inputSchema" in entry:
        return "mcp"
    if "functionDeclarations" in entry or "function_declarations" in entry:
        return "gemini"
    keys = set(entry)
    if keys & _STUDIO_ONLY and keys <= _STUDIO_KEYS:
        return "studio"
    if "name" in entry and keys <= {"name", "description", "parameters", "parametersJsonSchema"}:
        return "gemini"  # a bare function declaration
    return None


def _list_format(entries: list[Any], where: str) -> str:
    kinds = {_entry_format(e) for e in entries}
    known = {k for k in kinds if k is not None}
    # Built-in tools (web search, googleSearch …) have no name; they sit beside
    # function tools in real requests and must not make the list ambiguous.
    builtin_only = all(
        _entry_format(e) is not None or (isinstance(e, dict) and "name" not in e) for e in entries
    )
    if len(known) == 1 and builtin_only:
        return known.pop()
    if not entries:
        raise FormatError(f"{where} is an empty list of tools; pass --format to say which format")
    seen = ", ".join(sorted(k for k in kinds if k)) or "nothing known"
    raise FormatError(
        f"cannot tell the format of {where} (its entries look like: {seen}); "
        "pass --format to say which"
    )


def detect_format(data: Any) -> str:
    """The format name a decoded document is in.

    A folder is ``dir``; that is decided by :func:`studio.formats.import_path`
    before any JSON is read.

    Raises:
        FormatError: when the shape matches no format, or more than one.
    """
    if isinstance(data, list):
        kind = _list_format(data, "the document")
        if kind == "studio":
            raise FormatError("a bare list of studio tools is not a registry document")
        return kind
    if not isinstance(data, dict):
        raise FormatError("cannot tell the format: the document is neither an object nor a list")
    if data.get("format") == REGISTRY_FORMAT:
        return "studio"
    if isinstance(data.get("openapi"), str) or "swagger" in data:
        return "openapi"  # the importer refuses Swagger 2.0 with a clear message
    if "functionDeclarations" in data or "function_declarations" in data:
        return "gemini"
    result = data.get("result") if "jsonrpc" in data else None
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        return "mcp"
    tools = data.get("tools")
    if "tools" in data and not isinstance(tools, list):
        raise FormatError(f"tools: must be an array of tools, not {kind_of(tools)}")
    if isinstance(tools, list):
        if not tools and "name" in data:
            return "studio"  # only a registry document names itself
        return _list_format(tools, "'tools'")
    raise FormatError(
        "cannot tell the format: no 'format', 'tools' or 'functionDeclarations' key; "
        "pass --format to say which"
    )
