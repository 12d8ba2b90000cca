"""``studio registries``: the list of registries, read with plain ``sqlite3`` when it can be.

Listing is the command people type to see where they are, so it stays near the
bare interpreter's start-up: an existing, seeded database is read through
:func:`registry_db.connection.read_registry_listing` without importing the store
(sqlite-utils, numpy, the contract model). Anything else (a new file, the embedded
database before its examples are seeded, a file the plain read cannot use) goes
through the full store, which creates, migrates, seeds and words errors as always.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from studio.cli.common import Subcommands

if TYPE_CHECKING:
    from registry_db import RegistryStore


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio registries``."""
    p = sub.add_parser("registries", parents=[common], help="list registries")
    p.set_defaults(handler=_cmd_registries, needs_store=_needs_store)


def _needs_store(args: argparse.Namespace) -> bool:
    """False when the plain read worked; its listing then rides on ``args``."""
    from registry_db.connection import read_registry_listing
    from registry_db.paths import default_db_path, resolve_db_path

    path = resolve_db_path(getattr(args, "db", None))
    listing = read_registry_listing(path)
    if listing is None or (listing.never_seeded and path == default_db_path()):
        return True
    args.listing = listing.rows
    return False


def _cmd_registries(store: RegistryStore | None, args: argparse.Namespace) -> int:
    if store is None:
        rows = args.listing
    else:
        rows = [(r.name, r.title, r.tool_count, r.latest_version) for r in store.list_registries()]
    if not rows:
        print("no registries")
    for name, title, tool_count, latest_version in rows:
        latest = f"v{latest_version}" if latest_version else "unpublished"
        print(f"{name}\t{tool_count} tools\t{latest}\t{title}")
    return 0
