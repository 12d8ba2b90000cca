"""The ``studio`` command: no arguments opens the GUI; subcommands run headless.

Exit codes: 0 on success, 2 on bad input (with a one-line reason on stderr) and
when the database cannot be opened (not SQLite, damaged, a directory, unreadable),
1 when the database fails during a command.

Each module of this package adds the subcommands of one feature and their handlers
(``add_parsers``); a subcommand's parser carries its handler as the ``handler`` default.
Only the module of the command that runs is imported (none for the top-level help,
which :mod:`studio.cli.commands` lists), and the database only when the command needs
it: a parser may set ``needs_store`` to a function of the parsed arguments that says
whether it does. ``studio --help`` and ``studio registries`` stay near the bare
interpreter's start-up (tests/test_import_discipline.py).
"""

from __future__ import annotations

import argparse
import gc
import sqlite3
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, NoReturn, cast

from studio.cli.commands import COMMANDS
from studio.cli.common import Handler, UsageError

if TYPE_CHECKING:
    from registry_db import RegistryStore

__all__ = ["UsageError", "main"]

_NO_GC = frozenset(("lint", "sessions"))
"""Commands that build much, free little and exit: the cyclic collector is paused while
they run (it would walk everything they built again and again; ~8 % of a large lint), their
module imports included (~5 ms of a ~270 ms ``sessions import``)."""


def _command_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is not an option or the value of ``--db``."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word.startswith("--d") and "=" not in word
        else:
            return word
    return None


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
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
    entry = COMMANDS.get(_command_word(sys.argv[1:] if argv is None else argv) or "")
    if entry is not None:
        import_module(f"studio.cli.{entry[0]}").add_parsers(sub, common)
    else:
        # No command (the GUI, --help) or an unknown one (argparse says so): the
        # table alone lists the commands, without importing a feature module.
        for command, (_, summary) in COMMANDS.items():
            sub.add_parser(command, parents=[common], help=summary)
    return parser


def _open_store(args: argparse.Namespace) -> RegistryStore:
    from registry_db import open_default_store
    from registry_db.paths import DB_FILENAME, default_db_path, resolve_db_path

    path = resolve_db_path(getattr(args, "db", None))
    # Only the embedded default database is seeded with the examples; a file
    # named by --db or $STUDIO_DB is the user's own and starts empty. A file of
    # another name cannot be the default: no platformdirs import to find it.
    seed = path.name == DB_FILENAME and path == default_db_path()
    return open_default_store(path, seed=seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``studio`` console script."""
    words = sys.argv[1:] if argv is None else argv
    command = _command_word(words)
    if command in _NO_GC and gc.isenabled():
        gc.disable()
        try:
            code = _main(argv)
        finally:
            gc.enable()
            if argv is None:  # the console script, which exits next (callers in-process pass argv)
                # Frozen, what is left (every module's objects) is not walked once more by
                # the collection at exit: ~9 ms of a ~250 ms `sessions import`.
                gc.freeze()
        if argv is None and command in _NO_TEARDOWN:
            _leave(code)
        return code
    return _main(argv)


_NO_TEARDOWN = frozenset(("lint",))
"""Console-script commands that leave without the interpreter's teardown (see :func:`_leave`)."""


def _leave(code: int) -> NoReturn:
    """Exit handlers run and output flushed, then exit without freeing every object one by one.

    The teardown deallocates all a lint built (registry, caches, report): ~30 ms of a
    2,000-tool lint and ~0.1 s at 10,000, after the output is written.
    """
    import atexit
    import contextlib
    import os

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # A reader gone (`studio lint … | head`) or a closed stream: nothing left to say.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _main(argv: Sequence[str] | None) -> int:
    args = _parser(argv).parse_args(argv)
    if args.command is None:
        from registry_db.paths import resolve_db_path
        from studio.ui.app import run_gui

        db = getattr(args, "db", None)
        return run_gui(resolve_db_path(db) if db else None)
    handler: Handler = args.handler
    needs_store = getattr(args, "needs_store", None)
    if needs_store is not None and not needs_store(args):
        try:
            # Only parsers that set needs_store get here, and their handlers take None.
            return handler(cast("RegistryStore", None), args)
        except UsageError as exc:
            print(f"studio: {exc}", file=sys.stderr)
            return 2
        except sqlite3.DatabaseError as exc:  # a plain read (studio registries) went wrong
            from registry_db.paths import resolve_db_path

            path = resolve_db_path(getattr(args, "db", None))
            print(f"studio: database error in {path}: {_one_line(exc)}", file=sys.stderr)
            return 1
        except BrokenPipeError:
            return 0
    from registry_db import DatabaseOpenError, StoreError
    from registry_db.paths import resolve_db_path

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
