"""Compiled regular expressions kept between lint processes, like bytecode.

Every ``studio lint`` compiles the same ~250 Python regular expressions (the
rules' cue lists, CJK character classes, the security phrases): ~45 ms of
CPU per process, a quarter of a 20-tool lint, paid again by every run.
Python cannot pickle a compiled pattern, but what it compiles a pattern to
is plain data: ``re._compiler.compile`` parses and optimises the pattern into
a list of integers, then hands that list to ``_sre.compile``. This module
keeps those lists in one file per interpreter build (beside the token counts'
cache, see :func:`default_path`) and, while installed, hands a known pattern's
list straight to ``_sre.compile``: the same pattern object, without the parse.

Only ``studio lint`` installs it, for the length of the command; a pattern it
has not seen is compiled as always and written to the file once the output is
out (:func:`save`). Anything unexpected — another Python, a
damaged or unreadable file, a list ``_sre`` refuses (it validates the code)
— falls back to compiling, so the patterns never depend on the file.
"""

from __future__ import annotations

import importlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

try:  # CPython's regex internals (no stubs); elsewhere the cache stays off
    _sre: Any = importlib.import_module("_sre")
    _compiler: Any = importlib.import_module("re._compiler")
except ImportError:  # pragma: no cover - other interpreters
    _sre = _compiler = None

_ORIGINAL: Any = _compiler.compile if _compiler is not None else None
"""``re._compiler.compile`` as Python has it."""

_Entry = tuple[int, list[int], int, dict[str, int], tuple[Any, ...]]
"""``_sre.compile``'s arguments after the pattern: flags, code, groups, group index and names."""

_MAX_ENTRIES = 4000
"""Past this many patterns the file starts over (old patterns of edited rules pile up)."""

_state: dict[str, Any] = {}
"""While installed: ``path``, ``entries`` (key -> entry) and ``added`` (keys new to the file)."""


def default_path() -> Path | None:
    """The cache file for this interpreter, beside the token counts' cache; None: off.

    Both are the studio's own caches of work a lint redoes every run: one
    folder (``$STUDIO_TOKEN_CACHE``'s, else the user cache directory), and
    ``STUDIO_TOKEN_CACHE=off`` turns both off.
    """
    if _compiler is None:
        return None
    from studio.contract.token_cache import default_path as token_cache_path

    tokens = token_cache_path()
    if tokens is None:
        return None
    tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}"
    return tokens.parent / f"regex-{tag}.marshal"


def install(path: Path | None = None) -> bool:
    """Serve compiled patterns from ``path`` (default: :func:`default_path`) from now on.

    Returns False (and changes nothing) where the cache cannot work.
    """
    if _state or _compiler is None:
        return bool(_state)
    path = path if path is not None else default_path()
    if path is None:
        return False
    _state.update(path=path, entries=_load(path), added=set())
    _compiler.compile = _cached_compile
    return True


def uninstall() -> None:
    """Compile patterns as Python does again (the file is not written; see :func:`save`)."""
    if _state:
        _compiler.compile = _ORIGINAL
        _state.clear()


def save() -> None:
    """Write the patterns compiled since :func:`install` (with the file's others), if any.

    The file is replaced whole (written aside, then renamed): a reader never
    sees half of it, and of two processes saving at once one wins.
    """
    if not _state or not _state["added"]:
        return
    path: Path = _state["path"]
    entries: dict[Any, _Entry] = _load(path)  # another process may have added some
    if len(entries) + len(_state["added"]) > _MAX_ENTRIES:
        entries = {}
    for key in _state["added"]:
        entries[key] = _state["entries"][key]
    _state["added"] = set()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        aside.write_bytes(marshal.dumps(entries))
        os.replace(aside, path)
    except (OSError, ValueError):  # read-only install, full disk: compile next time
        pass


def _load(path: Path) -> dict[Any, _Entry]:
    try:
        entries = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return entries if type(entries) is dict else {}


def _cached_compile(p: Any, flags: int = 0) -> Any:
    """``re._compiler.compile(p, flags)``, from the cache for a string pattern seen before."""
    kind = type(p)
    if not _state or (kind is not str and kind is not bytes) or flags & _compiler.SRE_FLAG_DEBUG:
        return _ORIGINAL(p, flags)
    key = (p, flags)
    entry = _state["entries"].get(key)
    if entry is not None:
        try:
            all_flags, code, groups, groupindex, indexgroup = entry
            return _sre.compile(p, all_flags, code, groups, dict(groupindex), indexgroup)
        except Exception:  # a damaged entry: compile it, and replace it when saved
            pass
    # What re._compiler.compile does, keeping the code it hands to _sre.compile.
    tree = _compiler._parser.parse(p, flags)
    code = _compiler._code(tree, flags)
    groupindex = tree.state.groupdict
    names: list[Any] = [None] * tree.state.groups
    for name, i in groupindex.items():
        names[i] = name
    # Plain ints: some are named constants (an int subclass marshal refuses).
    entry = (
        flags | tree.state.flags,
        list(map(int, code)),
        tree.state.groups - 1,
        dict(groupindex),
        tuple(names),
    )
    _state["entries"][key] = entry
    _state["added"].add(key)
    return _sre.compile(p, entry[0], code, entry[2], groupindex, entry[4])
