"""Reading imported files and writing exports without following links or hanging.

Every file an import reads goes through :func:`read_text`: it must be a
regular file (a FIFO would block the read forever, ``/dev/zero`` would fill
memory) of at most :data:`MAX_FILE_BYTES`. Inside a registry folder nothing is
followed: :class:`Folder` opens each entry relative to the folder with
``O_NOFOLLOW``, so a symbolic link (to a file or a folder) is refused with its
name instead of being read or written through. Writes go to a temporary file
in the same folder that then replaces the target, so a reader never sees half a
file and a link at the target is never written through.

The folder the user names (``--out``, the folder imported) is taken as given,
like any path on a command line; only what lies inside it is guarded.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from studio.formats.base import FormatError, json_problem

# The largest file an import reads; a tool registry of 10,000 tools is ~30 MiB.
MAX_FILE_BYTES = 64 * 1024 * 1024

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_BASE_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
# Relative opens need dir_fd support (POSIX); elsewhere paths are checked with lstat.
_DIR_FD = os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def link_refused(shown: str) -> FormatError:
    """The error for a symbolic link met inside a folder."""
    return FormatError(f"{shown}: is a symbolic link; links inside the folder are not followed")


def open_regular(
    path: str | os.PathLike[str],
    shown: str,
    *,
    dir_fd: int | None = None,
    follow: bool = True,
    limit: int | None = None,
) -> int:
    """Open a regular file for reading; the caller closes the descriptor.

    Args:
        path: The file (relative to ``dir_fd`` when given).
        shown: How messages name it.
        follow: False: a symbolic link is refused, never followed.
        limit: The largest size accepted, in bytes (default :data:`MAX_FILE_BYTES`).

    Raises:
        FormatError: when it is missing, a link (``follow=False``), a folder, a
            FIFO, a device or a socket, larger than ``limit``, or unreadable.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        # Checked before opening: opening a device or a FIFO can have effects.
        info = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow)
    except FileNotFoundError:
        raise FormatError(f"{shown}: file not found") from None
    except OSError as exc:
        raise FormatError(f"{shown}: cannot be read: {exc.strerror or exc}") from None
    if not follow and stat.S_ISLNK(info.st_mode):
        raise link_refused(shown)
    _check_regular(info, shown, limit)
    flags = os.O_RDONLY | _NONBLOCK | _BASE_FLAGS | (0 if follow else _NOFOLLOW)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise link_refused(shown) from None
        raise FormatError(f"{shown}: cannot be read: {exc.strerror or exc}") from None
    try:
        # Again on what was opened: the entry may have changed since the stat.
        _check_regular(os.fstat(fd), shown, limit)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_regular(info: os.stat_result, shown: str, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise FormatError(f"{shown}: is {_kind(info.st_mode)}, not a regular file; not read")
    if info.st_size > limit:
        raise _too_big(shown, limit)


def _too_big(shown: str, limit: int) -> FormatError:
    return FormatError(f"{shown}: is larger than {_size(limit)}, the most an import reads")


def read_bytes(
    path: str | os.PathLike[str],
    shown: str,
    *,
    dir_fd: int | None = None,
    follow: bool = True,
    limit: int | None = None,
) -> bytes:
    """The content of a regular file of at most ``limit`` bytes (see :func:`open_regular`)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    fd = open_regular(path, shown, dir_fd=dir_fd, follow=follow, limit=limit)
    try:
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, 1024 * 1024)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise _too_big(shown, limit)
            chunks.append(chunk)
    except OSError as exc:
        raise FormatError(f"{shown}: cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode_text(data: bytes, shown: str) -> str:
    """UTF-8 text (a BOM is dropped); bad bytes are a located :class:`FormatError`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise json_problem(
            shown, f"is not UTF-8 text (byte 0x{data[start]:02x})", line=line, column=column
        ) from None


def read_text(
    path: str | os.PathLike[str],
    shown: str,
    *,
    dir_fd: int | None = None,
    follow: bool = True,
    limit: int | None = None,
) -> str:
    """The UTF-8 text of a regular file (see :func:`open_regular`)."""
    return decode_text(read_bytes(path, shown, dir_fd=dir_fd, follow=follow, limit=limit), shown)


class Folder:
    """A folder whose entries are read and written without following links.

    Open it with :meth:`open` (a context manager). ``shown`` is how messages
    name the folder; entries are named ``shown/name``.
    """

    def __init__(self, path: Path, shown: str, fd: int | None) -> None:
        self.path = path
        self.shown = shown
        self._fd = fd

    @classmethod
    @contextmanager
    def open(cls, path: Path, shown: str | None = None) -> Iterator[Folder]:
        """The folder ``path`` (followed if it is itself a link: the user named it)."""
        shown = str(path) if shown is None else shown
        fd = None
        if _DIR_FD:
            try:
                fd = os.open(path, os.O_RDONLY | _DIRECTORY | _BASE_FLAGS)
            except NotADirectoryError:
                raise FormatError(f"{shown}: is not a folder") from None
            except FileNotFoundError:
                raise FormatError(f"{shown}: folder not found") from None
            except OSError as exc:
                raise FormatError(f"{shown}: cannot be opened: {exc.strerror or exc}") from None
        elif not path.is_dir():
            raise FormatError(f"{shown}: is not a folder")
        try:
            yield cls(path, shown, fd)
        finally:
            if fd is not None:
                os.close(fd)

    def _name(self, name: str) -> str:
        return name if self._fd is not None else str(self.path / name)

    def where(self, name: str) -> str:
        """How messages name an entry."""
        return f"{self.shown}/{name}" if self.shown else name

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry's own status (a link is not followed), or None when it is absent."""
        try:
            return os.stat(self._name(name), dir_fd=self._fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise FormatError(
                f"{self.where(name)}: cannot be read: {exc.strerror or exc}"
            ) from None

    def names(self) -> list[str]:
        """The entries' names (not followed, not sorted)."""
        try:
            return os.listdir(self._fd if self._fd is not None else self.path)
        except OSError as exc:
            raise FormatError(f"{self.shown}: cannot be listed: {exc.strerror or exc}") from None

    def read_text(self, name: str, shown: str | None = None, limit: int | None = None) -> str:
        """A regular file of the folder; a link is refused (see :func:`open_regular`)."""
        shown = self.where(name) if shown is None else shown
        if self._fd is None and os.path.islink(self._name(name)):
            raise link_refused(shown)
        return read_text(self._name(name), shown, dir_fd=self._fd, follow=False, limit=limit)

    @contextmanager
    def subfolder(self, name: str, *, create: bool = False) -> Iterator[Folder | None]:
        """A folder inside this one (None when absent and not ``create``); links are refused."""
        info = self.lstat(name)
        if info is None and create:
            try:
                os.mkdir(self._name(name), dir_fd=self._fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise FormatError(
                    f"{self.where(name)}: cannot be created: {exc.strerror or exc}"
                ) from None
            info = self.lstat(name)
        if info is None:
            yield None
            return
        if stat.S_ISLNK(info.st_mode):
            raise link_refused(self.where(name))
        if not stat.S_ISDIR(info.st_mode):
            raise FormatError(f"{self.where(name)}: is {_kind(info.st_mode)}, not a folder")
        fd = None
        if self._fd is not None:
            try:
                fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _BASE_FLAGS,
                             dir_fd=self._fd)  # fmt: skip
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise link_refused(self.where(name)) from None
                raise FormatError(
                    f"{self.where(name)}: cannot be opened: {exc.strerror or exc}"
                ) from None
        try:
            yield Folder(self.path / name, self.where(name), fd)
        finally:
            if fd is not None:
                os.close(fd)

    def check_writable(self, name: str) -> None:
        """Refuse to write ``name`` when it is a link or anything but a regular file."""
        info = self.lstat(name)
        if info is None:
            return
        if stat.S_ISLNK(info.st_mode):
            raise link_refused(self.where(name))
        if not stat.S_ISREG(info.st_mode):
            raise FormatError(f"{self.where(name)}: is {_kind(info.st_mode)}; not overwritten")

    def write_bytes(self, name: str, data: bytes) -> None:
        """Replace ``name`` atomically: a temporary file in the folder, then a rename.

        The rename replaces the directory entry itself, so a link there would be
        replaced, not written through; :meth:`check_writable` refuses links first.
        """
        import secrets  # here: reading a file (every session import) needs no hmac, random

        self.check_writable(name)
        tmp = f".{name}.{secrets.token_hex(4)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BASE_FLAGS
        try:
            fd = os.open(self._name(tmp), flags, 0o644, dir_fd=self._fd)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            os.replace(self._name(tmp), self._name(name), src_dir_fd=self._fd,
                       dst_dir_fd=self._fd)  # fmt: skip
        except OSError as exc:
            self._discard(tmp)
            raise FormatError(
                f"{self.where(name)}: cannot be written: {exc.strerror or exc}"
            ) from None

    def _discard(self, name: str) -> None:
        with suppress(OSError):
            os.unlink(self._name(name), dir_fd=self._fd)

    def remove(self, name: str) -> None:
        """Delete a regular file of the folder (a link is refused, never followed)."""
        self.check_writable(name)
        try:
            os.unlink(self._name(name), dir_fd=self._fd)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise FormatError(
                f"{self.where(name)}: cannot be deleted: {exc.strerror or exc}"
            ) from None


def write_file(out: Path, data: bytes) -> None:
    """Write a single-file export atomically; a link or special file at ``out`` is refused."""
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FormatError(f"{parent}: cannot be created: {exc.strerror or exc}") from None
    with Folder.open(parent) as folder:
        folder.shown = str(parent) if str(parent) != "." else ""
        folder.write_bytes(out.name, data)
