"""Reading skill packages from folders and zips, and writing them back byte for byte.

A package is untrusted input (downloaded from a marketplace, mailed as a zip),
so reading refuses what could reach outside the package or exhaust memory:
entry names with ``..``, absolute or drive paths (zip slip), symbolic links
(in a folder or stored in a zip), files over :data:`MAX_FILE_BYTES`, packages
over :data:`MAX_TOTAL_BYTES` or :data:`MAX_FILES`, and a ``SKILL.md`` that is
not UTF-8. Each refusal is one :class:`SkillError` line naming the file.
"""

from __future__ import annotations

import os
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from studio.skills.model import (
    SKILL_FILE,
    Skill,
    SkillError,
    check_front_matter_size,
    parse_skill,
)

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_TOTAL_BYTES = 50 * 1024 * 1024
MAX_FILES = 2_000
SKIPPED_DIRS = frozenset({".git", "__pycache__", ".DS_Store"})
"""Folders that are tooling debris, never part of a skill."""

_ZIP_SUFFIXES = (".zip", ".skill")
_EPOCH = (1980, 1, 1, 0, 0, 0)


def safe_relpath(name: str, shown: str) -> str:
    """``name`` as a relative POSIX path inside a package.

    Raises:
        SkillError: absolute, drive-lettered, with backslashes or ``..`` (zip slip).
    """
    if "\\" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise SkillError(f"{shown}: {name!r} is not a relative path inside the package (refused)")
    parts = PurePosixPath(name).parts
    if not parts or any(p in ("..", "") for p in parts) or "\x00" in name:
        raise SkillError(f"{shown}: {name!r} points outside the package (zip slip refused)")
    return "/".join(p for p in parts if p != ".")


def decode_skill_md(data: bytes, shown: str) -> str:
    """The text of ``SKILL.md``; bad UTF-8 is refused with its line and byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SkillError(
            f"{shown}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8"
        ) from None


class _Budget:
    """Counts files and bytes of one read so a huge package is refused early."""

    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def take(self, size: int, shown: str) -> None:
        if size > MAX_FILE_BYTES:
            raise SkillError(
                f"{shown}: {size:,} bytes; a skill file may hold at most {MAX_FILE_BYTES:,}"
            )
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES:
            raise SkillError(f"{shown}: more than {MAX_FILES:,} files in the package (refused)")
        if self.bytes > MAX_TOTAL_BYTES:
            raise SkillError(f"{shown}: the package exceeds {MAX_TOTAL_BYTES:,} bytes (refused)")


# --------------------------------------------------------------------------- folders


def read_skill_folder(folder: Path, budget: _Budget | None = None) -> Skill:
    """Read one skill folder (the folder holding ``SKILL.md``).

    Raises:
        SkillError: no ``SKILL.md``, a link, a file too large, bad UTF-8, bad front matter.
    """
    budget = budget or _Budget()
    shown_root = folder.name
    if folder.is_symlink():
        raise SkillError(f"{shown_root}: is a symbolic link; skill folders are not followed")
    skill_md = folder / SKILL_FILE
    if not skill_md.is_file() or skill_md.is_symlink():
        if skill_md.is_symlink():
            raise SkillError(f"{shown_root}/{SKILL_FILE}: is a symbolic link (refused)")
        if skill_md.exists():
            raise SkillError(f"{shown_root}/{SKILL_FILE}: is not a regular file (refused)")
        raise SkillError(f"{shown_root}: no {SKILL_FILE} in this folder")
    text = ""
    files: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        base = Path(dirpath)
        for d in dirnames:
            if (base / d).is_symlink():
                raise SkillError(f"{_shown(folder, base / d)}: is a symbolic link (refused)")
        for fname in sorted(filenames):
            if fname in SKIPPED_DIRS:
                continue
            path = base / fname
            shown = _shown(folder, path)
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                raise SkillError(f"{shown}: is a symbolic link (refused; copy the file in instead)")
            if not stat.S_ISREG(info.st_mode):
                raise SkillError(f"{shown}: is not a regular file (refused)")
            budget.take(info.st_size, shown)
            data = path.read_bytes()
            rel = path.relative_to(folder).as_posix()
            if rel == SKILL_FILE:
                text = decode_skill_md(data, shown)
            else:
                files[rel] = data
    try:
        skill = parse_skill(text, files)
        check_front_matter_size(skill)
        return skill
    except SkillError as exc:
        raise SkillError(f"{shown_root}/{exc}") from None


def _shown(root: Path, path: Path) -> str:
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def write_skill_folder(skill: Skill, folder: Path) -> list[Path]:
    """Write a skill's files under ``folder`` (created); return the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / SKILL_FILE]
    (folder / SKILL_FILE).write_bytes(skill.text.encode("utf-8"))
    for rel, data in skill.files:
        target = folder / safe_relpath(rel, f"{folder.name}/{rel}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    return written


# --------------------------------------------------------------------------- zips


def read_skills_zip(path: Path) -> list[tuple[str, Skill]]:
    """Every skill in a zip: (folder name, skill), in folder order.

    A skill's folder is the one holding its ``SKILL.md``; a ``SKILL.md`` at the
    root is a skill named after the zip.

    Raises:
        SkillError: not a zip, zip slip, links, sizes, bad UTF-8, no ``SKILL.md``.
    """
    shown_zip = path.name
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SkillError(f"{shown_zip}: not a readable zip ({exc})") from None
    budget = _Budget()
    entries: dict[str, bytes] = {}
    with archive:
        for info in archive.infolist():
            shown = f"{shown_zip}:{info.filename}"
            if info.is_dir():
                safe_relpath(info.filename.rstrip("/"), shown)
                continue
            rel = safe_relpath(info.filename, shown)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise SkillError(f"{shown}: is a symbolic link (refused)")
            if any(part in SKIPPED_DIRS for part in rel.split("/")) or rel.startswith("__MACOSX/"):
                continue
            if rel in entries:  # which copy counts would depend on the reader
                raise SkillError(f"{shown}: appears twice in the zip (refused)")
            budget.take(info.file_size, shown)
            try:
                with archive.open(info) as handle:
                    data = handle.read(MAX_FILE_BYTES + 1)
            except (RuntimeError, NotImplementedError, EOFError, OSError, zlib.error,
                    zipfile.BadZipFile, ValueError) as exc:  # fmt: skip
                # Encrypted, an unknown compression method, a bad CRC, a cut stream.
                reason = " ".join(str(exc).split()) or type(exc).__name__
                raise SkillError(f"{shown}: cannot be read from the zip ({reason})") from None
            budget.take(max(0, len(data) - info.file_size), shown)
            if len(data) > MAX_FILE_BYTES:
                raise SkillError(f"{shown}: inflates past {MAX_FILE_BYTES:,} bytes (refused)")
            entries[rel] = data
    roots = sorted(
        rel[: -len(SKILL_FILE)].rstrip("/")
        for rel in entries
        if rel == SKILL_FILE or rel.endswith("/" + SKILL_FILE)
    )
    if not roots:
        raise SkillError(f"{shown_zip}: no {SKILL_FILE} anywhere in the zip")
    out = []
    for root in roots:
        prefix = f"{root}/" if root else ""
        folder = root.rsplit("/", 1)[-1] if root else path.stem
        nested = [r for r in roots if r != root and r.startswith(prefix)]
        files = {
            rel[len(prefix) :]: data
            for rel, data in entries.items()
            if rel.startswith(prefix)
            and rel != prefix + SKILL_FILE
            and not any(rel.startswith(n + "/") for n in nested)
        }
        text = decode_skill_md(entries[prefix + SKILL_FILE], f"{shown_zip}:{prefix}{SKILL_FILE}")
        try:
            skill = parse_skill(text, files)
            check_front_matter_size(skill)
            out.append((folder, skill))
        except SkillError as exc:
            raise SkillError(f"{shown_zip}:{prefix}{exc}") from None
    return out


def write_skills_zip(skills: list[Skill], path: Path) -> None:
    """Write skills to a zip, one ``<name>/`` folder each (fixed dates: same bytes every time)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for skill in skills:
            for rel, data in ((SKILL_FILE, skill.text.encode("utf-8")), *skill.files):
                info = zipfile.ZipInfo(f"{skill.name}/{rel}", date_time=_EPOCH)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)


# --------------------------------------------------------------------------- either


def read_skills(path: Path) -> list[tuple[str, Skill]]:
    """Skills from a skill folder, a folder of skill folders, or a zip.

    Raises:
        SkillError: nothing readable there, or any package problem above.
    """
    if path.is_file() and path.suffix.lower() in _ZIP_SUFFIXES:
        return read_skills_zip(path)
    if not path.is_dir():
        raise SkillError(f"{path}: not a skill folder, a folder of skills or a .zip")
    if os.path.lexists(path / SKILL_FILE):
        return [(path.name, read_skill_folder(path))]
    budget = _Budget()
    out = []
    for base in (path, path / "skills"):
        if not base.is_dir():
            continue
        for child in sorted(base.iterdir()):
            # lexists: a SKILL.md that is a folder or a link is refused by name, not skipped.
            if child.is_dir() and os.path.lexists(child / SKILL_FILE):
                out.append((child.name, read_skill_folder(child, budget)))
        if out:
            return out
    raise SkillError(f"{path.name}: no {SKILL_FILE} in it or in its sub-folders")
