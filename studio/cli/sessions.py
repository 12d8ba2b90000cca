"""``studio sessions``: import real logs, list sessions, check one (pairing, suspicious, a version).

Exit codes follow :mod:`studio.cli`: 0 fine; 1 when ``check`` finds problems
(or ``import`` had to leave parts of the file out); 2 on unreadable input.

``sessions import`` of a JSONL file stores every conversation it can read,
each with all its messages or not at all (a file's conversations are committed
in short batches, and each is reported once committed), and reports each one it
could not (file, line, path). A conversation imported before (same content) is not
stored again: it is reported as ``already imported SESSION_ID`` (``--replace``
stores it anew). A folder is searched for logs (``.json``, ``.jsonl``,
``.traj`` at any depth), so ``~/.claude/projects`` and ``~/.codex/sessions``
import as they are.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import Subcommands, UsageError, load_registry
from studio.formats.base import one_line
from studio.sessions.importers import (
    FORMATS,
    ImportedSession,
    ImportIssue,
    ImportOutcome,
    find_log_files,
    import_sessions,
)

if TYPE_CHECKING:
    from registry_db import RegistryStore
    from registry_db.sessions import SessionStore

SESSION_FORMATS = ("auto", *FORMATS)


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio sessions import|list|check|repair|convert|trim``."""
    p = sub.add_parser("sessions", parents=[common], help="recorded and imported sessions")
    actions = p.add_subparsers(dest="sessions_command", metavar="ACTION", required=True)
    pa = actions.add_parser(
        "import", parents=[common],
        help="import a log (JSON or JSONL) or every log under a folder (~/.claude/projects, "
        "~/.codex/sessions)",
    )  # fmt: skip
    pa.add_argument("file", metavar="FILE|FOLDER")
    pa.add_argument("--format", choices=SESSION_FORMATS, default="auto")
    pa.add_argument(
        "--replace", action="store_true",
        help="store a conversation imported before anew (default: skip it)",
    )  # fmt: skip
    pa.add_argument(
        "--registry", metavar="NAME",
        help="also import the tools that came with the log as this registry's draft",
    )  # fmt: skip
    pl = actions.add_parser("list", parents=[common], help="list sessions, newest first")
    pl.add_argument(
        "--source", choices=("playground", "import", "replay", "repair", "convert", "trim")
    )
    pl.add_argument("--registry", metavar="NAME")
    pc = actions.add_parser(
        "check", parents=[common],
        help="pairing problems, suspicious writes and (with --registry) re-validation",
    )  # fmt: skip
    pc.add_argument("target", metavar="FILE|FOLDER|SESSION_ID")
    pc.add_argument("--registry", metavar="NAME", help="re-validate against this registry")
    pc.add_argument("--version", metavar="N|draft", help="version to re-validate against")
    pc.add_argument("--format", choices=("text", "json"), default="text", dest="output")
    pc.add_argument("--input-format", choices=SESSION_FORMATS, default="auto")
    _add_doctor_parsers(actions, common)
    p.set_defaults(handler=_cmd_sessions, needs_store=_needs_store)


def _needs_store(args: argparse.Namespace) -> bool:
    """False for ``check`` of a file or folder with no registry named: it reads no database.

    Opening the store imports registry_db (sqlite-utils and the contract model), the
    larger part of such a check's start-up.
    """
    if args.sessions_command != "check" or args.registry or args.version:
        return True
    target = Path(args.target)
    return not (target.is_file() or target.is_dir())


def _add_doctor_parsers(actions: Subcommands, common: argparse.ArgumentParser) -> None:
    """``studio sessions repair|convert|trim`` (studio.sessions.doctor)."""
    providers = ("openai", "openai-responses", "anthropic", "gemini")
    pr = actions.add_parser(
        "repair", parents=[common],
        help="the smallest change that makes a history valid for a provider",
    )  # fmt: skip
    pr.add_argument("target", metavar="FILE|SESSION_ID")
    pr.add_argument("--provider", choices=providers, default="openai")
    pr.add_argument("--to", metavar="FILE", help="write the repaired history here (wire form)")
    pv = actions.add_parser(
        "convert", parents=[common], help="the same conversation in another wire shape"
    )
    pv.add_argument("target", metavar="FILE|SESSION_ID")
    pv.add_argument("--to", choices=providers, required=True, dest="target_format")
    pv.add_argument("--output", metavar="FILE", help="write the document here (default stdout)")
    pt = actions.add_parser(
        "trim", parents=[common],
        help="drop the oldest messages to fit a token budget, cutting only at safe points",
    )  # fmt: skip
    pt.add_argument("target", metavar="FILE|SESSION_ID")
    pt.add_argument("--max-tokens", type=int, required=True, metavar="N")
    pt.add_argument("--keep-system", action="store_true", help="always keep system messages")
    pt.add_argument("--summary", metavar="TEXT", help="stands for what was cut")
    pt.add_argument("--provider", choices=providers, default="openai")
    pt.add_argument("--to", metavar="FILE", help="write the trimmed history here (wire form)")
    for sub in (pr, pv, pt):
        sub.add_argument("--input-format", choices=SESSION_FORMATS, default="auto")


def _cmd_sessions(store: RegistryStore | None, args: argparse.Namespace) -> int:
    action = args.sessions_command
    if action in ("check", "import"):
        # Reading a log builds many small objects that refer to no one back: the cyclic
        # collector found nothing to free yet walked them all, again and again (~20 %
        # of a 60-session import's parse). Reference counting still frees them.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return _check(store, args) if action == "check" else _import(_opened(store), args)
        finally:
            if was_enabled:
                gc.enable()
    store = _opened(store)
    if action == "list":
        return _list(store, args)
    return _doctor(store, args)


def _opened(store: RegistryStore | None) -> RegistryStore:
    assert store is not None  # every action but check of a file opens it (see _needs_store)
    return store


def _doctor(store: RegistryStore, args: argparse.Namespace) -> int:
    """Repair, convert or trim one session (a file's first conversation, or a stored one)."""
    from registry_db import NotFoundError
    from registry_db.sessions import SessionStore
    from studio.sessions import doctor
    from studio.sessions.library import load_messages, store_derived
    from studio.sessions.wire import to_wire

    sessions = SessionStore.for_store(store)
    path = Path(args.target)
    parent = None
    if path.is_file():
        outcome = _read(path, args.input_format)
        messages = outcome.sessions[0].messages
        label = path.name
        if len(outcome.sessions) > 1:
            first = outcome.sessions[0].line
            print(f"note: {one_line(path.name)} holds {len(outcome.sessions)} conversations; "
                  f"the first (line {first}) is used", file=sys.stderr)  # fmt: skip
    else:
        try:
            parent = sessions.get_session(args.target)
        except NotFoundError:
            raise UsageError(f"{one_line(args.target)}: no such file or session") from None
        messages, label = load_messages(sessions, parent.id), parent.title or parent.id
    action = args.sessions_command
    notes: list[str] = []
    meta: dict[str, Any] = {"file": path.name if parent is None else ""}
    if action == "repair":
        fixed = doctor.repair(messages, args.provider)
        result, fmt = fixed.messages, args.provider
        for change in fixed.changes:
            print(f"change: {change}")
        print(f"{len(fixed.changes)} change(s) for {args.provider}")
        meta.update(provider=args.provider, changes=[c.to_dict() for c in fixed.changes])
    elif action == "trim":
        cut = doctor.trim(messages, args.max_tokens, keep_system=args.keep_system,
                          summary=args.summary, profile=args.provider)  # fmt: skip
        result, fmt = cut.messages, args.provider
        for change in cut.changes:
            print(f"change: {change}")
        print(f"{cut.tokens_label()}; "
              f"{cut.dropped} message(s) dropped, cut at messages[{cut.cut_at}]")  # fmt: skip
        if not cut.fits:
            print(f"warning: even the last safe tail needs {cut.kept_tokens} tokens "
                  f"(budget {args.max_tokens})")  # fmt: skip
        meta.update(max_tokens=args.max_tokens, kept_tokens=cut.kept_tokens,
                    total_tokens=cut.total_tokens, tokens_counted_with=cut.method)  # fmt: skip
    else:
        result, fmt = messages, args.target_format
    document = to_wire(result, fmt, notes)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    out = args.to if action != "convert" else args.output
    if out:
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {one_line(out)} ({fmt})")
    elif parent is None:
        sys.stdout.write(text)
    if parent is not None and action != "convert":
        info = store_derived(sessions, result, source=action, parent=parent,
                             title=f"{label} ({action})", meta=meta)  # fmt: skip
        print(f"saved {info.id}\t{action} of {parent.id}")
    elif parent is not None and not out:
        sys.stdout.write(text)
    if action == "trim":
        return 0 if cut.fits else 1
    return 0


def _read(
    path: Path, fmt: str, name: str | None = None, *, for_storing: bool = False
) -> ImportOutcome:
    from studio.formats import FormatError

    shown = one_line(str(path))
    if not path.exists():
        raise UsageError(f"{shown}: no such file")
    try:
        outcome = import_sessions(path, fmt, file_name=name, for_storing=for_storing)
    except FormatError as exc:  # not a regular file, too large: the message says which
        raise UsageError(str(exc)) from exc
    except (OSError, ValueError) as exc:
        raise UsageError(one_line(f"{shown}: cannot be read: {exc}")) from exc
    if not outcome.sessions:
        detail = "; ".join(str(e) for e in outcome.errors[:3]) or "no sessions found"
        raise UsageError(one_line(f"{shown}: nothing could be imported: {detail}"))
    return outcome


def _import(store: RegistryStore, args: argparse.Namespace) -> int:
    from registry_db.sessions import SessionStore
    from studio.formats import FormatError
    from studio.sessions.library import import_tools_as_draft

    path = Path(args.file)
    sessions = SessionStore.for_store(store)
    # A commit per batch of conversations: waiting for the disk at each (synchronous=FULL)
    # was most of a large import's time. NORMAL in WAL mode cannot damage the file;
    # a power cut may lose the last conversations, which importing the file again
    # (idempotent by content hash) brings back.
    store.connection.execute("PRAGMA synchronous=NORMAL")
    # A batch writes a few MB of pages: past the default 2 MB page cache, SQLite spills
    # them to the WAL mid-transaction and writes some twice. The cache grows only as used.
    store.connection.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
    name = one_line(path.name)
    if path.is_dir():
        files = find_log_files(path)
        if not files:
            raise UsageError(f"{one_line(str(path))}: no .json, .jsonl or .traj files found")
        print(f"{len(files)} file(s) under {one_line(str(path))}")
    else:
        files = [path]
    errors: list[ImportIssue] = []
    tools: list[Any] = []
    warned: set[int] = set()
    with _own_rows_only(store, not args.replace):
        for file in files:
            shown = one_line(str(file.relative_to(path))) if file != path else name
            try:
                outcome = _read(file, args.format, shown, for_storing=True)
            except UsageError as exc:
                if file == path:
                    raise
                errors.append(ImportIssue(shown, 1, "", str(exc)))
                continue
            _store_file(sessions, outcome, shown, args, tools, warned)
            errors.extend(outcome.errors)
    for error in errors:
        print(f"error: {error}")
    if args.registry and not tools:
        print(f"note: {name} came with no tool definitions; no draft was created")
    elif args.registry:
        try:
            registry, replaced = import_tools_as_draft(store, _unique(tools), args.registry)
        except FormatError as exc:
            raise UsageError(f"tools of {name}: {exc}") from exc
        verb = "replaced the draft of" if replaced else "created"
        print(f"{verb} registry {registry.name}: {len(registry.tools)} tools from the log")
    return 1 if errors else 0


@contextmanager
def _own_rows_only(store: RegistryStore, inserts_only: bool) -> Iterator[None]:
    """Foreign keys unchecked in the block when ``inserts_only`` (an import without --replace).

    Such an import only inserts: a session, then its messages, whose one reference is
    to that session, inserted just before in the same savepoint. SQLite looked it up
    again for each message (~2 % of a 60-session import). An import with --replace
    deletes sessions, whose references elsewhere the checks must clear (or null), so
    it keeps them; so does all that follows the block (a registry draft).
    """
    if not inserts_only:
        yield
        return
    connection = store.connection
    connection.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
    finally:
        connection.execute("PRAGMA foreign_keys=ON")


_CACHE_KIB = 64 * 1024
"""The import connection's page cache (KiB): room for a batch's pages (a 60-session
log of 12,000 messages is ~4 MB)."""

_BATCH_SECONDS = 0.25
"""How long one transaction of an import may grow: the write lock is held meanwhile."""


def _store_file(
    sessions: SessionStore,
    outcome: ImportOutcome,
    shown: str,
    args: argparse.Namespace,
    tools: list[Any],
    warned: set[int],
) -> None:
    """Store the sessions read from one file, printing each one's lines once it is committed.

    The sessions go in batches (:meth:`SessionStore.batch`: one transaction of at
    most :data:`_BATCH_SECONDS`, not one per session): each session is all or
    nothing, one that fails leaves the others stored, and what is printed is stored.
    """
    pending = iter(outcome.sessions)
    finished = False
    while not finished:
        lines: list[str] = []
        deadline = time.monotonic() + _BATCH_SECONDS
        finished = True
        with sessions.batch():
            for imported in pending:
                lines += _store_one(sessions, imported, shown, args, outcome, tools, warned)
                if time.monotonic() > deadline:
                    finished = False
                    break
        for line in lines:
            print(line)


def _store_one(
    sessions: SessionStore,
    imported: ImportedSession,
    shown: str,
    args: argparse.Namespace,
    outcome: ImportOutcome,
    tools: list[Any],
    warned: set[int],
) -> list[str]:
    """Store one session (a savepoint of the batch); the lines that say what became of it."""
    from studio.formats import FormatError
    from studio.sessions.library import session_id_for, store_imported

    existed = args.replace and sessions.has_session(session_id_for(imported))
    try:
        info, created = store_imported(sessions, imported, file=shown,
                                       registry=args.registry or "",
                                       replace=args.replace)  # fmt: skip
    except FormatError as exc:
        outcome.errors.append(ImportIssue(shown, imported.line, "", str(exc)))
        return []
    tools.extend(imported.tools)
    if not created:
        return [f"already imported {info.id}\t{shown}:{imported.line}\t{one_line(info.title)}"]
    lines = []
    if id(imported.warnings) not in warned:  # a transcript's sessions share them
        warned.add(id(imported.warnings))
        lines += [f"warning: {warning}" for warning in imported.warnings]
    verb = "replaced" if existed else "imported"
    lines.append(f"{verb} {info.id}\t{imported.source_format}\t{imported.message_count} messages"
                 f"\t{info.meta['calls']} calls\t{info.meta['problems']} problems"
                 f"\t{one_line(info.title)}")  # fmt: skip
    return lines


def _unique(tools: list[Any]) -> list[Any]:
    seen, out = set(), []
    for tool in tools:
        key = json.dumps(tool, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(tool)
    return out


def _list(store: RegistryStore, args: argparse.Namespace) -> int:
    from registry_db.sessions import SessionStore
    from studio.sessions.library import session_rows

    rows = session_rows(SessionStore.for_store(store), source=args.source, registry=args.registry)
    if not rows:
        print("no sessions")
    for r in rows:
        where = f"{r.registry} {r.version}".strip() or "-"
        print(f"{r.id}\t{r.source}\t{where}\t{r.model or '-'}\t{r.calls} calls"
              f"\t{r.problems} problems\t{r.messages} messages\t{one_line(r.file) or '-'}"
              f"\t{r.created_at}\t{one_line(r.title)}")  # fmt: skip
    return 0


def _check(store: RegistryStore | None, args: argparse.Namespace) -> int:
    from studio.sessions.check import check_session

    targets: list[tuple[str, list[Any], dict[str, Any]]] = []
    import_errors: list[str] = []
    registry_name, version = args.registry, args.version
    path = Path(args.target)
    if path.is_file() or path.is_dir():
        files = find_log_files(path) if path.is_dir() else [path]
        if not files:
            raise UsageError(f"{one_line(str(path))}: no .json, .jsonl or .traj files found")
        for file in files:
            name = one_line(str(file.relative_to(path))) if file != path else path.name
            try:
                outcome = _read(file, args.input_format, name)
            except UsageError as exc:
                if file == path:
                    raise
                import_errors.append(str(exc))
                continue
            import_errors += [str(e) for e in outcome.errors]
            for s in outcome.sessions:
                label = f"{name}:{s.line} · {one_line(s.title)}" if s.title else f"{name}:{s.line}"
                # check_session words each origin once (str), no list of them first.
                targets.append((label, s.messages, {"origins": s.origins}))
    else:
        from registry_db import NotFoundError
        from registry_db.sessions import SessionStore
        from studio.sessions.library import load_messages, stored_origins

        assert store is not None  # not a file: _needs_store opened it
        sessions = SessionStore.for_store(store)
        try:
            info = sessions.get_session(args.target)
        except NotFoundError:
            raise UsageError(f"{one_line(args.target)}: no such file or session") from None
        # A stored session: its run's events and context (the runtime's types).
        from studio.runtime.context import SessionContext
        from studio.sessions.revalidate import recorded_prepared_arguments

        prepared = recorded_prepared_arguments(sessions.events(info.id))
        extra: dict[str, Any] = {
            "context": SessionContext.from_dict(info.context),
            "recorded_prepared": prepared,
            "origins": stored_origins(info),
        }
        targets.append((info.id, load_messages(sessions, info.id), extra))
        if version and not registry_name:
            registry_name = info.registry or None
    if version and not registry_name:
        raise UsageError("--version needs --registry (the session names no registry)")
    registry = None
    if registry_name:
        assert store is not None  # a registry named: _needs_store opened it
        registry = load_registry(store, registry_name, version or "draft")
    reports = []
    total = len(import_errors)
    for label, messages, extra in targets:
        check = check_session(messages, registry, version=version or "draft", **extra)
        total += check.problem_count
        reports.append((label, check))
    if args.output == "json":
        print(json.dumps({"problems": total, "import_errors": import_errors,
                          "sessions": [{"session": label, **c.to_dict()} for label, c in reports]},
                         ensure_ascii=False, indent=2))  # fmt: skip
    else:
        for error in import_errors:
            print(f"import error: {error}")
        for label, check in reports:
            print(f"== {label}")
            print(check.format_text())
    return 1 if total else 0
