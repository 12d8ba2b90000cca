"""The ``studio`` command: no arguments opens the GUI; subcommands run headless.

Exit codes: 0 on success, 2 on bad input (with a one-line reason on stderr) and
when the database cannot be opened (not SQLite, damaged, a directory, unreadable),
1 when the database fails during a command.

Each module of this package adds the subcommands of one feature and their handlers
(``add_parsers``); a subcommand's parser carries its handler as the ``handler`` default.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence

from registry_db import (
    DatabaseOpenError,
    RegistryStore,
    StoreError,
    default_db_path,
    open_default_store,
    resolve_db_path,
)
from studio.cli import diff, evals, lint, mcp, proxy, registry, release, run, serve, sessions
from studio.cli.common import Handler, UsageError

__all__ = ["UsageError", "main"]

# In the order `studio --help` lists their commands.
_FEATURES = (registry, run, lint, diff, release, serve, proxy, mcp, sessions, evals)


def _parser() -> argparse.ArgumentParser:
    # --db is accepted before or after the subcommand; the subcommand's copy
    # uses SUPPRESS so it does not overwrite a value given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="database file (default: $STUDIO_DB, else the embedded database)",
    )
    parser = argparse.ArgumentParser(
        prog="studio",
        description="Tool Registry Studio. Without a command, opens the GUI.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for feature in _FEATURES:
        feature.add_parsers(sub, common)
    return parser


def _open_store(args: argparse.Namespace) -> RegistryStore:
    path = resolve_db_path(getattr(args, "db", None))
    # Only the embedded default database is seeded with the examples; a file
    # named by --db or $STUDIO_DB is the user's own and starts empty.
    return open_default_store(path, seed=path == default_db_path())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``studio`` console script."""
    args = _parser().parse_args(argv)
    if args.command is None:
        from studio.ui.app import run_gui

        db = getattr(args, "db", None)
        return run_gui(resolve_db_path(db) if db else None)
    handler: Handler = args.handler
    try:
        store = _open_store(args)
    except DatabaseOpenError as exc:
        print(f"studio: {exc}", file=sys.stderr)
        return 2
    except (StoreError, OSError, sqlite3.Error) as exc:
        path = resolve_db_path(getattr(args, "db", None))
        print(f"studio: cannot open the database {path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    try:
        return handler(store, args)
    except (UsageError, StoreError) as exc:
        print(f"studio: {exc}", file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as exc:  # e.g. a page damaged after the file opened
        print(f"studio: database error in {store.path}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. `studio export … | head`
        return 0
    finally:
        store.close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
