"""Package names that load their module when first used (PEP 562).

A package such as :mod:`registry_db` or :mod:`studio.runtime` re-exports names
from several modules, but importing one small leaf of it must not pull in the
rest (sqlite-utils, the HTTP client, the agent loop). Its ``__init__`` lists
where each name lives and hands the lookups to :class:`LazyExports`; this module
imports nothing but :mod:`importlib`, so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from importlib import import_module
from typing import Any


class LazyExports:
    """The module-level ``__getattr__``/``__dir__`` of a package with lazily loaded names.

    Args:
        package: The package's ``__name__`` (for the error message).
        homes: Module path → the names it provides.
        namespace: The package's ``globals()``: a name, once loaded, is stored
            there so later lookups skip ``__getattr__``.
    """

    def __init__(
        self,
        package: str,
        homes: Mapping[str, Iterable[str]],
        namespace: MutableMapping[str, Any],
    ) -> None:
        self._package = package
        self._home_of = {name: module for module, names in homes.items() for name in names}
        self._namespace = namespace

    def load(self, name: str) -> Any:
        """Import ``name``'s module and return the name; AttributeError when it is not exported."""
        module = self._home_of.get(name)
        if module is None:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        self._namespace[name] = value  # later lookups skip __getattr__
        return value

    def names(self, public: Iterable[str]) -> list[str]:
        """What ``dir(package)`` shows: what is loaded so far and every public name."""
        return sorted(set(self._namespace) | set(public))
