"""Importing real session logs: OpenAI chat, OpenAI Responses, Anthropic, Gemini, studio.

Typical use (the GUI runs the same in a worker)::

    cancel = threading.Event()
    outcome = import_sessions(Path("prod.jsonl"), progress=on_progress, cancel=cancel)
    for session in outcome.sessions:      # ImportedSession(messages, tools, source_format, …)
        ...
    for issue in outcome.errors:          # ImportIssue(file, line, path, message)
        print(issue)

A file holds one conversation (a JSON document) or one per line (JSONL);
JSONL whose lines are single messages is read as one conversation. Each
conversation's format is detected unless ``fmt`` names it. What cannot be
understood is reported with file, line and JSON path and left out; the rest
is imported.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.formats.base import FormatError, one_line
from studio.formats.files import open_regular
from studio.sessions.importers import openai_plain
from studio.sessions.importers.base import (
    CancelFlag,
    Conversation,
    ImportCancelled,
    ImportedSession,
    ImportIssue,
    ImportOutcome,
    Origin,
    Progress,
    Reader,
    Rejected,
    check_nesting,
    first_user_text,
    issue_path,
    parse_json,
)
from studio.sessions.importers.detect import FORMATS, detect_session_format
from studio.sessions.importers.openai_plain import PlainSession

if TYPE_CHECKING:
    from studio.sessions.importers.studio_jsonl import dump_session, session_document

_READERS = {
    "openai": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "studio": "studio_jsonl",
    "claude-code": "claude_code",
    "codex": "codex",
}
"""Format → the module under this package that reads it (``read(data, reader)``), imported
on first use: an import of plain OpenAI logs (openai_plain) needs none of them."""

_STUDIO_JSONL = frozenset({"dump_session", "session_document"})


def __getattr__(name: str) -> Any:
    """``dump_session`` and ``session_document``, from studio_jsonl on first use."""
    if name in _STUDIO_JSONL:
        return getattr(import_module("studio.sessions.importers.studio_jsonl"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _reader(fmt: str) -> Callable[[Any, Reader], Conversation | list[Conversation]]:
    read: Callable[[Any, Reader], Conversation | list[Conversation]]
    read = import_module(f"studio.sessions.importers.{_READERS[fmt]}").read
    return read


# What a folder import reads: logs and agent transcripts (SWE-agent .traj included).
LOG_SUFFIXES = (".json", ".jsonl", ".traj")
# The largest log an import reads (JSONL of many sessions is larger than a registry).
MAX_LOG_BYTES = 512 * 1024 * 1024

# A JSONL line that is one message / item / content rather than a conversation.
_CONVERSATION_KEYS = frozenset({"messages", "contents", "input", "output", "format"})


def import_sessions(
    source: str | os.PathLike[str],
    fmt: str = "auto",
    *,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
    file_name: str | None = None,
    for_storing: bool = False,
) -> ImportOutcome:
    """Read every conversation in a file (a path) or in text (a string holding JSON).

    Args:
        source: A path, or the text itself (a string starting with ``[`` or ``{``).
        fmt: ``auto`` or one of :data:`FORMATS`.
        progress: Called as ``progress(done, total)`` while reading (bytes for
            JSONL files, messages for a single document); at least once at the end.
        cancel: Checked per line and per message; when set, the import stops and
            returns what it has with ``cancelled=True``.
        file_name: The name used in issues (default: the file's name, or ``input``).
        for_storing: Read plain OpenAI chat conversations of a JSONL file straight
            into their stored form (:class:`~studio.sessions.importers.openai_plain.PlainSession`:
            the same session, its messages built on first use), for an import that
            stores them and looks at little else (``studio sessions import``).

    Return:
        The sessions and the issues that kept parts of the input out.

    Every line or document is decoded by the importers' one JSON loader
    (:func:`studio.sessions.importers.base.parse_json`): what the studio could
    not store (integers over 4,300 digits, nesting past
    :data:`studio.formats.base.MAX_DEPTH`, a lone surrogate such as
    ``"\\ud800"``) is an error with its line and place, and that conversation
    is left out whole; the other conversations of a JSONL file are imported.

    Raises:
        ValueError: for an unknown ``fmt``.
        FormatError: when the file is missing, not a regular file (a FIFO, a
            device), larger than :data:`MAX_LOG_BYTES`, or unreadable.
    """
    if fmt != "auto" and fmt not in _READERS:
        raise ValueError(f"unknown session format {fmt!r}; use auto or one of {', '.join(FORMATS)}")
    if isinstance(source, str) and source.lstrip()[:1] in ("[", "{"):
        name = file_name or "input"
        lines: Iterator[tuple[int, str]] = enumerate(source.splitlines(keepends=True), 1)
        total = len(source.encode("utf-8", errors="surrogatepass"))
        importer = _Importer(name, fmt, progress, cancel, total, for_storing=for_storing)
        return importer.run(lines, lambda: source)
    path = Path(source)
    name = file_name or path.name
    # A regular file only: a FIFO would block forever, /dev/zero would fill memory.
    fd = open_regular(path, one_line(name), limit=MAX_LOG_BYTES)
    # Bytes that are not UTF-8 come through as surrogate escapes, so the lines
    # holding them are known: each becomes U+FFFD as before, and the session
    # that holds it says so (they were replaced without a word).
    undecodable = _Undecodable()
    with os.fdopen(fd, "r", encoding="utf-8-sig", errors="surrogateescape") as handle:
        total = os.fstat(fd).st_size

        def whole() -> str:
            handle.seek(0)
            return undecodable.clean_text(handle.read(MAX_LOG_BYTES + 1))

        importer = _Importer(name, fmt, progress, cancel, total, for_storing=for_storing)
        outcome = importer.run(undecodable.clean_lines(enumerate(handle, 1)), whole)
    undecodable.report(name, outcome)
    return outcome


_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")


class _Undecodable:
    """Where a log holds bytes that are not UTF-8: line → how many."""

    def __init__(self) -> None:
        self.lines: dict[int, int] = {}

    def clean_lines(self, lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
        for number, text in lines:
            if not text.isascii() and _ESCAPED_BYTES.search(text):
                text = self._replace(text, number)
            yield number, text

    def clean_text(self, text: str) -> str:
        if text.isascii() or not _ESCAPED_BYTES.search(text):
            return text
        return "".join(
            self._replace(line, number)
            for number, line in enumerate(text.splitlines(keepends=True), 1)
        )

    def _replace(self, text: str, number: int) -> str:
        def one(match: re.Match[str]) -> str:
            self.lines[number] = self.lines.get(number, 0) + len(match.group())
            return "\ufffd" * len(match.group())

        return _ESCAPED_BYTES.sub(one, text)

    def report(self, name: str, outcome: ImportOutcome) -> None:
        """A warning on the session holding each such line (the last one starting before it)."""
        starts = sorted(outcome.sessions, key=lambda s: s.line)
        for number, count in sorted(self.lines.items()):
            holder = next((s for s in reversed(starts) if s.line <= number), None)
            if holder is None:
                continue  # that line was refused whole; its error says why
            plural = "byte that is" if count == 1 else "bytes that are"
            holder.warnings.append(ImportIssue(
                name, number, "", f"{count} {plural} not UTF-8 replaced with U+FFFD"
            ))  # fmt: skip


def find_log_files(folder: str | os.PathLike[str], *, limit: int = 10_000) -> list[Path]:
    """The log files under ``folder``, in path order, for ``sessions import FOLDER``.

    Finds ``.json``, ``.jsonl`` and ``.traj`` files at any depth — so
    ``~/.claude/projects`` (``<project>/<session>.jsonl`` and subagents'
    ``agent-*.jsonl``) and ``~/.codex/sessions`` (``YYYY/MM/DD/rollout-*.jsonl``)
    are read as they are. Hidden folders and symbolic links are skipped.
    """
    root = Path(folder)
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.endswith(LOG_SUFFIXES) and not path.is_symlink() and path.is_file():
                found.append(path)
                if len(found) >= limit:
                    return found
    return found


def import_folder(
    folder: str | os.PathLike[str],
    fmt: str = "auto",
    *,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> ImportOutcome:
    """Every log under ``folder`` (:func:`find_log_files`) as one outcome.

    Each session's ``file`` is its path relative to ``folder``; a file that
    cannot be read at all is an error of that file. ``progress`` counts files.
    """
    root = Path(folder)
    files = find_log_files(root)
    outcome = ImportOutcome()
    for done, path in enumerate(files):
        if cancel is not None and cancel.is_set():
            outcome.cancelled = True
            break
        name = one_line(str(path.relative_to(root)))
        try:
            part = import_sessions(path, fmt, cancel=cancel, file_name=name)
        except FormatError as exc:
            outcome.errors.append(ImportIssue(name, 1, "", str(exc)))
            continue
        for session in part.sessions:
            session.file = name
        outcome.sessions.extend(part.sessions)
        outcome.errors.extend(part.errors)
        outcome.cancelled = outcome.cancelled or part.cancelled
        if progress is not None:
            progress(done + 1, len(files))
    if progress is not None and not files:
        progress(1, 1)
    return outcome


class _Importer:
    def __init__(self, name: str, fmt: str, progress: Progress | None, cancel: CancelFlag | None,
                 total: int, *, for_storing: bool = False) -> None:  # fmt: skip
        self.name, self.fmt, self.progress, self.cancel = name, fmt, progress, cancel
        # A plain OpenAI conversation read into its stored form (openai_plain), where the
        # generic reader would not be asked to tick per message (no cancel flag).
        self.plain = for_storing and cancel is None and fmt in ("auto", "openai")
        self.total = max(total, 1)
        self.outcome = ImportOutcome()
        self._last_report = -1

    def _report(self, done: int, total: int, *, force: bool = False) -> None:
        if self.progress is None:
            return
        step = max(total // 200, 1)
        if force or done - self._last_report >= step:
            self._last_report = done
            self.progress(done, total)

    def run(self, lines: Iterator[tuple[int, str]], whole: Callable[[], str]) -> ImportOutcome:
        try:
            self._run(lines, whole)
        except ImportCancelled:
            self.outcome.cancelled = True
        self._report(self.total, self.total, force=True)
        return self.outcome

    def _run(self, lines: Iterator[tuple[int, str]], whole: Callable[[], str]) -> None:
        first: tuple[int, str] | None = None
        for number, text in lines:
            if text.strip():
                first = (number, text)
                break
        if first is None:
            self._error(1, "", "the input is empty")
            return
        try:
            value, plain = self._parse_line(first[0], first[1])
        except FormatError:
            self._document(whole())  # a pretty-printed document, or JSONL with a broken first line
            return
        self._jsonl(first, value, plain, lines)

    def _parse_line(self, number: int, text: str) -> tuple[Any, PlainSession | None]:
        """Line ``number`` decoded, and read as a plain OpenAI conversation when it is one
        (for storing: see ``for_storing``).

        The plain reader vouches for the nesting of what it reads (it knows the depth of
        each part); anything else is checked here, as :func:`parse_json` checks it.

        Raises:
            FormatError: the line is not JSON, or holds what the studio refuses.
        """
        if not self.plain:
            return parse_json(text), None
        value = parse_json(text, nesting=False)
        plain = openai_plain.read_plain(value, number)
        if plain is None:
            check_nesting(value, text)
        return value, plain

    def _document(self, text: str) -> None:
        if len(text) > MAX_LOG_BYTES:
            self._error(1, "", f"larger than {MAX_LOG_BYTES // (1024 * 1024)} MiB; not read")
            return
        try:
            data = parse_json(text)
        except FormatError as exc:
            rest = [ln for ln in text.splitlines() if ln.strip()]
            if len(rest) > 1 and any(_parses(ln) for ln in rest):
                self._jsonl_all(text)
                return
            self._refused(1, exc)
            return
        count = _message_count(data)
        done = 0

        def tick() -> None:
            nonlocal done
            done += 1
            self._report(done, count)

        self._conversation(data, 1, tick)

    def _jsonl_all(self, text: str) -> None:
        lines = enumerate(text.splitlines(keepends=True), 1)
        for number, line in lines:
            if line.strip():
                try:
                    value, plain = self._parse_line(number, line)
                except FormatError as exc:
                    self._refused(number, exc)
                    continue
                self._jsonl((number, line), value, plain, lines)
                return

    def _jsonl(
        self,
        first: tuple[int, str],
        value: Any,
        plain: PlainSession | None,
        lines: Iterator[tuple[int, str]],
    ) -> None:
        done = len(first[1].encode("utf-8"))
        buffer: list[Any] = []  # message-per-line entries waiting to form one conversation
        buffer_lines: list[int] = []

        def flush() -> None:
            nonlocal buffer, buffer_lines
            if buffer:
                self._conversation(buffer, buffer_lines[0], None, buffer_lines)
                buffer, buffer_lines = [], []

        def take(number: int, value: Any, plain: PlainSession | None) -> None:
            if plain is None and _is_single_message(value):
                buffer.append(value)
                buffer_lines.append(number)
                return
            flush()
            if plain is not None:
                self.outcome.sessions.append(plain)
            else:
                self._conversation(value, number, None)

        take(first[0], value, plain)
        for number, line in lines:
            self._check_cancel()
            done += len(line.encode("utf-8"))
            self._report(done, self.total)
            if not line.strip():
                continue
            try:
                value, plain = self._parse_line(number, line)
            except FormatError as exc:
                self._refused(number, exc)
                continue
            take(number, value, plain)
        flush()

    def _check_cancel(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise ImportCancelled

    def _conversation(
        self,
        data: Any,
        line: int,
        tick: Callable[[], None] | None,
        item_lines: list[int] | None = None,
    ) -> None:
        fmt = self.fmt if self.fmt != "auto" else detect_session_format(data)
        if fmt is None:
            known = ", ".join(FORMATS)
            self._error(line, "$", f"cannot tell the format of this conversation "
                        f"({_shape(data)}); pass a format ({known})")  # fmt: skip
            return
        reader = Reader(self.name, line, cancel=self.cancel, on_message=tick)
        reader.item_lines = item_lines or []
        try:
            result = _reader(fmt)(data, reader)
        except Rejected as exc:
            reader.reject(exc)
            self.outcome.errors.extend(reader.errors)
            return
        self.outcome.errors.extend(reader.errors)
        # An agent transcript may hold several conversations (branches, subagents).
        conversations = result if isinstance(result, list) else [result]
        if not any(c.messages for c in conversations):
            if not reader.errors:
                self._error(line, "$", "the conversation holds no messages")
            return
        if reader.errors:
            reader.warn("$", f"{len(reader.errors)} part(s) of this conversation could not be read "
                             "and were left out")  # fmt: skip
        for conversation in conversations:
            if not conversation.messages:
                continue
            meta = conversation.meta
            title = (conversation.title or str(meta.pop("title", "") or "")
                     or first_user_text(conversation.messages))  # fmt: skip
            origins = reader.origins if conversation.origins is None else conversation.origins
            missing = len(conversation.messages) - len(origins)
            if missing > 0:
                origins = origins + [Origin("", line)] * missing
            self.outcome.sessions.append(
                ImportedSession(conversation.messages, conversation.tools, fmt, line,
                                reader.warnings, meta, title,
                                origins[: len(conversation.messages)])
            )  # fmt: skip

    def _error(self, line: int, path: str, message: str) -> None:
        self.outcome.errors.append(ImportIssue(self.name, line, path, message))

    def _refused(self, first_line: int, exc: FormatError) -> None:
        """A document or line the loader refused: where (line, column, path) and why."""
        line = first_line + (exc.line - 1 if exc.line else 0)
        column = f" (column {exc.column})" if exc.column else ""
        what = "not JSON" if exc.malformed else "refused"
        path = issue_path(exc.path) if exc.path else ""
        self._error(line, path, f"{what}: {exc.detail}{column}")


def _parses(line: str) -> bool:
    try:
        parse_json(line)
    except FormatError:
        return False
    return True


def _is_single_message(value: Any) -> bool:
    if not isinstance(value, dict) or value.keys() & _CONVERSATION_KEYS:
        return False
    return "role" in value or "type" in value or "parts" in value


def _message_count(data: Any) -> int:
    if isinstance(data, list):
        return max(len(data), 1)
    if isinstance(data, dict):
        for key in ("messages", "contents"):
            if isinstance(data.get(key), list):
                return max(len(data[key]), 1)
        total = sum(len(data[k]) for k in ("input", "output") if isinstance(data.get(k), list))
        return max(total, 1)
    return 1


def _shape(data: Any) -> str:
    if isinstance(data, dict):
        keys = ", ".join(sorted(map(str, data))[:6])
        return f"an object with keys {keys}" if keys else "an empty object"
    if isinstance(data, list):
        return f"a list of {len(data)} entries"
    return f"a JSON {type(data).__name__}"


__all__ = [
    "FORMATS",
    "CancelFlag",
    "ImportIssue",
    "ImportOutcome",
    "ImportedSession",
    "Origin",
    "Progress",
    "detect_session_format",
    "dump_session",
    "find_log_files",
    "import_folder",
    "import_sessions",
    "session_document",
]
