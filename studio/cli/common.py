"""What the command modules share: the usage error, the handler type, a registry by version."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # the database and the contract model only for commands that use them
    from registry_db import RegistryStore
    from studio.contract import Registry

Handler: TypeAlias = "Callable[[RegistryStore, argparse.Namespace], int]"
"""Runs one parsed command against the open store and returns its exit code
(the store is None when the parser's ``needs_store`` said it is not needed)."""

# argparse does not make the subparsers action public; the alias names it once.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit code 2."""


def load_registry(store: RegistryStore, name: str, version: str) -> Registry:
    """The draft or a published version of a registry, as ``--version`` names it.

    Args:
        store: The open database.
        name: Registry name.
        version: ``draft`` or a version number.

    Return:
        The registry; a version that is not a number is a :class:`UsageError`.
    """
    if version == "draft":
        return store.draft_registry(name)
    try:
        number = int(version)
    except ValueError:
        raise UsageError(f"--version must be a number or 'draft', not {version!r}") from None
    return store.load_version(name, number).registry
