"""Registry-as-code: ``registry.json``, ``tools/<name>.json`` and ``evals/<set>.jsonl``.

Skills live under ``skills/<name>/`` as the package itself (``SKILL.md``,
``scripts/``, ``references/``, ``assets/``, byte for byte) and remote agents as
``agents/<name>.json`` (the Agent Card as imported); the manifest lists them
under ``skills``/``agents`` only when there are some (issue #18).

One file per tool keeps reviews and merges small in git. Files hold the
normalised documents (key order of :func:`studio.contract.tool_to_dict`,
indent 2, trailing newline, LF endings), so exporting an unchanged registry
rewrites identical bytes and importing the folder gives the same hash.
Eval sets (:func:`eval_files`, :func:`read_eval_sets`) are JSONL text kept
byte for byte; they are validated by :mod:`studio.evals`, not here.
"""

from __future__ import annotations

import dataclasses
import stat
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from studio.contract import (
    ContractError,
    Problem,
    Registry,
    RegistrySettings,
    ToolContract,
    join_path,
    parse_registry,
    parse_tool,
    settings_to_dict,
    tool_to_dict,
)
from studio.contract.document import REGISTRY_FORMAT
from studio.formats.base import (
    ExportResult,
    FormatError,
    Note,
    dump_json,
    has_control,
    kind_of,
    load_json,
)
from studio.formats.files import Folder, link_refused

NAME = "dir"
DIR_FORMAT = "tool-registry-studio/registry-dir@1"
MANIFEST = "registry.json"
TOOLS_DIR = "tools"
EVALS_DIR = "evals"
EVAL_SUFFIX = ".jsonl"
SKILLS_DIR = "skills"
AGENTS_DIR = "agents"
# Non-UTF-8 skill files (images under assets/) travel through the text file
# map as surrogate escapes and are written back as the same bytes.
_BYTES = "surrogateescape"


def tool_file(name: str) -> str:
    """Relative path of a tool's file (names are already safe file names)."""
    return f"{TOOLS_DIR}/{name}.json"


def eval_file(name: str) -> str:
    """Relative path of an eval set's file."""
    return f"{EVALS_DIR}/{name}{EVAL_SUFFIX}"


def eval_files(sets: dict[str, str]) -> dict[str, str]:
    """The files of eval sets (name → JSONL text), to add to an export's files.

    Raises:
        FormatError: a set name is not a safe file name, or two differ only in case.
    """
    seen: dict[str, str] = {}
    for name in sets:
        if not _safe_name(name):
            raise FormatError(f"{name!r} is not an eval set name")
        other = seen.setdefault(name.lower(), name)
        if other != name:
            raise FormatError(
                f"eval sets {other!r} and {name!r} differ only in case; their files would "
                "collide on case-insensitive file systems"
            )
    return {eval_file(name): text for name, text in sets.items()}


def read_eval_sets(path: Path) -> dict[str, str]:
    """The eval sets of a registry folder: ``evals/<set>.jsonl`` → name → text, sorted by name.

    Links inside the folder are refused, never followed; each file must be a
    regular file of at most :data:`studio.formats.files.MAX_FILE_BYTES`. A
    folder without ``evals/`` has none.
    """
    with Folder.open(path) as folder:
        folder.shown = ""
        with folder.subfolder(EVALS_DIR) as evals:
            if evals is None:
                return {}
            names = sorted(n for n in evals.names() if n.endswith(EVAL_SUFFIX) and _safe_name(n))
            return {n.removesuffix(EVAL_SUFFIX): evals.read_text(n) for n in names}


def write_eval_sets(sets: dict[str, str], out: Path) -> list[str]:
    """Write eval sets into ``out/evals/`` (created), leaving everything else alone.

    ``out`` is normally a registry folder; its tools and manifest are not
    touched. Links are refused before anything is written, as in
    :func:`write_files`.

    Return:
        The files written, relative to ``out``.
    """
    files = eval_files(sets)
    if out.is_symlink() and not out.exists():
        raise FormatError(f"{out}: is a broken symbolic link")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FormatError(f"{out}: cannot be created: {exc.strerror or exc}") from None
    names = [rel.rpartition("/")[2] for rel in files]
    with Folder.open(out) as folder:
        with folder.subfolder(EVALS_DIR) as existing:
            if existing is not None:
                for name in names:
                    existing.check_writable(name)
        with folder.subfolder(EVALS_DIR, create=True) as evals:
            assert evals is not None  # created above
            for name, content in zip(names, files.values(), strict=True):
                evals.write_bytes(name, content.encode("utf-8"))
    return list(files)


def export_tool(
    tool: ToolContract, settings: RegistrySettings, path: str = ""
) -> tuple[dict[str, Any], list[Note]]:
    """The content of one tool file; nothing is lost."""
    return tool_to_dict(tool), []


def export_registry(registry: Registry) -> ExportResult:
    """The files of the registry folder.

    Raises:
        FormatError: when two tool names differ only in case, since their files
            would overwrite each other on macOS and Windows.
    """
    seen: dict[str, str] = {}
    for tool in registry.tools:
        other = seen.setdefault(tool.name.lower(), tool.name)
        if other != tool.name:
            raise FormatError(
                f"tools {other!r} and {tool.name!r} differ only in case; their files would "
                "collide on case-insensitive file systems"
            )
    manifest = {
        "format": DIR_FORMAT,
        "name": registry.name,
        "title": registry.title,
        "description": registry.description,
        "settings": settings_to_dict(registry.settings),
        "tools": [t.name for t in registry.tools],
    }
    if registry.skills:
        manifest["skills"] = [s.name for s in registry.skills]
    if registry.agents:
        manifest["agents"] = [a.name for a in registry.agents]
    files = {MANIFEST: dump_json(manifest)}
    files.update({tool_file(t.name): dump_json(tool_to_dict(t)) for t in registry.tools})
    for skill in registry.skills:
        files[f"{SKILLS_DIR}/{skill.name}/SKILL.md"] = skill.text
        for rel, data in skill.files:
            files[f"{SKILLS_DIR}/{skill.name}/{rel}"] = data.decode("utf-8", _BYTES)
    for agent in registry.agents:
        files[f"{AGENTS_DIR}/{agent.name}.json"] = dump_json(agent.card)
    return ExportResult(None, files, [])


def is_registry_dir(path: Path) -> bool:
    """True when ``path`` is a folder this format wrote (its manifest says so)."""
    try:
        with Folder.open(path, "") as folder:
            return _manifest(folder) is not None
    except FormatError:
        return False


def _manifest(folder: Folder) -> dict[str, Any] | None:
    """The folder's manifest when it is one this format wrote, else None.

    Raises:
        FormatError: when ``registry.json`` is a link or not a regular file.
    """
    info = folder.lstat(MANIFEST)
    if info is None:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise link_refused(folder.where(MANIFEST))
    text = folder.read_text(MANIFEST)  # refuses a FIFO, a device, an oversized file
    try:
        manifest = load_json(text, MANIFEST)
    except FormatError:
        return None
    if isinstance(manifest, dict) and manifest.get("format") == DIR_FORMAT:
        return manifest
    return None


def _listed_tools(manifest: dict[str, Any] | None) -> list[str]:
    """The tool names a manifest lists that are safe file names."""
    names = manifest.get("tools") if manifest else None
    if not isinstance(names, list):
        return []
    return [n for n in names if isinstance(n, str) and _safe_name(n)]


def _safe_name(name: str) -> bool:
    return (
        bool(name)
        and not name.startswith(".")
        and "/" not in name
        and "\\" not in name
        and not has_control(name)
    )


def write_files(files: dict[str, str], out: Path) -> None:
    """Write a registry folder, removing the files of tools that no longer exist.

    Nothing inside ``out`` is followed: a symbolic link where the export
    writes or deletes (``tools``, ``tools/x.json``, ``registry.json``) stops
    the export with a message naming the link, before anything is written.
    Each file is replaced atomically.

    Only files the previous export wrote are deleted: the tool files its
    manifest (``registry.json``) lists, and of those only regular files that
    still hold a tool document of that name. Anything else in the folder (a
    README, a stray ``tools/notes.json``) is left alone.

    Raises:
        FormatError: when ``out`` is a file, a non-empty folder that is not a
            registry folder (writing there could mix our files with someone
            else's), or holds a link or special file where the export writes.
    """
    if out.is_symlink() and not out.exists():
        raise FormatError(f"{out}: is a broken symbolic link")
    if out.exists() and not out.is_dir():
        raise FormatError(f"{out}: is a file; the 'dir' format writes a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FormatError(f"{out}: cannot be created: {exc.strerror or exc}") from None
    with Folder.open(out) as folder:
        old = _manifest(folder)
        if old is None and folder.names():
            raise FormatError(
                f"{out}: folder is not empty and is not a registry folder (no {MANIFEST})"
            )
        by_dir: dict[str, dict[str, str]] = {}
        for rel, content in files.items():
            head, _, name = rel.rpartition("/")
            by_dir.setdefault(head, {})[name] = content
        stale = {
            name
            for name in (f"{n}.json" for n in _listed_tools(old))
            if name not in by_dir.get(TOOLS_DIR, {})
        }
        # Check every target first, so a refused link leaves the folder untouched.
        for name in by_dir.get("", {}):
            folder.check_writable(name)
        if EVALS_DIR in by_dir:
            with folder.subfolder(EVALS_DIR) as existing:
                if existing is not None:
                    for name in by_dir[EVALS_DIR]:
                        existing.check_writable(name)
        if TOOLS_DIR in by_dir or stale:
            with folder.subfolder(TOOLS_DIR, create=TOOLS_DIR in by_dir) as tools:
                if tools is not None:
                    for name in [*by_dir.get(TOOLS_DIR, {}), *sorted(stale)]:
                        tools.check_writable(name)
                    for name, content in by_dir.get(TOOLS_DIR, {}).items():
                        # Bytes: LF endings on every platform keep git diffs clean.
                        tools.write_bytes(name, content.encode("utf-8"))
                    for name in sorted(stale):
                        if _wrote(tools, name):
                            tools.remove(name)
        # Eval sets: written over their files; a set no longer exported keeps its
        # file (the manifest does not list sets, so nothing says we wrote it).
        if EVALS_DIR in by_dir:
            with folder.subfolder(EVALS_DIR, create=True) as evals:
                assert evals is not None  # created above
                for name, content in by_dir[EVALS_DIR].items():
                    evals.write_bytes(name, content.encode("utf-8"))
        nested = {d for d in by_dir if d == AGENTS_DIR or d.startswith(SKILLS_DIR + "/")}
        for head in sorted(nested):
            _write_nested(folder, head, by_dir[head])
        unknown = set(by_dir) - {"", TOOLS_DIR, EVALS_DIR} - nested
        if unknown:
            raise FormatError(f"cannot write into {', '.join(sorted(unknown))}")
        # The manifest last: it records what this export wrote.
        for name, content in by_dir.get("", {}).items():
            folder.write_bytes(name, content.encode("utf-8"))


def _write_nested(folder: Folder, head: str, files: dict[str, str]) -> None:
    """Write files into ``head`` (``skills/<name>/scripts``), no level followed if a link."""
    with ExitStack() as stack:
        current = folder
        for part in head.split("/"):
            if not _safe_name(part):
                raise FormatError(f"{head}: {part!r} is not a safe folder name")
            sub = stack.enter_context(current.subfolder(part, create=True))
            assert sub is not None  # created above
            current = sub
        for name in files:
            current.check_writable(name)
        for name, content in files.items():
            current.write_bytes(name, content.encode("utf-8", _BYTES))


def _wrote(tools: Folder, name: str) -> bool:
    """True when ``tools/name`` is a tool document named after its file (what we wrote)."""
    if tools.lstat(name) is None:
        return False
    try:
        doc = load_json(tools.read_text(name), name)
    except FormatError:
        return False
    return isinstance(doc, dict) and doc.get("name") == name.removesuffix(".json")


def _read(folder: Folder, rel: str) -> Any:
    head, _, name = rel.rpartition("/")
    if not head:
        return load_json(folder.read_text(name, rel), rel)
    with folder.subfolder(head) as sub:
        if sub is None:
            raise FormatError(f"{rel}: file not found in {folder.path}")
        return load_json(sub.read_text(name, rel), rel)


def import_dir(path: Path, name: str | None = None) -> tuple[Registry, list[Note]]:
    """Read a registry folder back.

    Problems keep registry paths (``tools[2].parameters.type``) on
    ``FormatError.problems``; the message names the file to fix. Links inside
    the folder are refused, never followed; each file must be a regular file
    of at most :data:`studio.formats.files.MAX_FILE_BYTES`.
    """
    with Folder.open(path) as folder:
        folder.shown = ""  # messages name files relative to the folder
        manifest, docs, notes = _read_folder(folder)
    doc = {
        "format": REGISTRY_FORMAT,
        "name": manifest.get("name") or path.resolve().name,
        "title": manifest.get("title", ""),
        "description": manifest.get("description", ""),
        "settings": manifest.get("settings", {}),
        "tools": docs,
    }
    doc.update(_read_capabilities(path, manifest))
    try:
        # Tools were checked above; the registry-level checks (names, settings) remain.
        registry = parse_registry(doc, check_schema=False)
    except ContractError as exc:
        raise FormatError.from_contract_error(exc, MANIFEST) from exc
    if name:
        registry = dataclasses.replace(registry, name=name)
    return registry, notes


def _read_folder(folder: Folder) -> tuple[dict[str, Any], list[Any], list[Note]]:
    manifest = _read(folder, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != DIR_FORMAT:
        raise FormatError(f"{MANIFEST}: format: expected {DIR_FORMAT!r}")
    names = manifest.get("tools", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise FormatError(
            f"{MANIFEST}: tools: must be an array of tool names, not {kind_of(names)}"
        )
    problems: list[Problem] = []
    lines: list[str] = []
    docs = []
    for i, tool_name in enumerate(names):
        if not _safe_name(tool_name):
            raise FormatError(f"{MANIFEST}: tools[{i}]: {tool_name!r} is not a tool name")
        rel = tool_file(tool_name)
        data = _read(folder, rel)
        base = f"tools[{i}]"
        found: list[Problem] = []
        if isinstance(data, dict) and data.get("name") != tool_name:
            found.append(
                Problem(
                    join_path(base, "name"), f"{data.get('name')!r} does not match the file name"
                )
            )
        try:
            parse_tool(data, base)
        except ContractError as exc:
            found.extend(exc.problems)
        for p in found:
            problems.append(p)
            lines.append(f"{rel}: {p.path[len(base) + 1 :] or '(document)'}: {p.message}")
        docs.append(data)
    if problems:
        raise FormatError("; ".join(lines), problems)
    listed = set(names)
    with folder.subfolder(TOOLS_DIR) as tools:
        present = sorted(tools.names()) if tools is not None else []
    notes = [
        Note(f"{TOOLS_DIR}/{f}", f"not listed in {MANIFEST}; not imported", "lost")
        for f in present
        if f.endswith(".json") and f.removesuffix(".json") not in listed
    ]
    return manifest, docs, notes


def _listed(manifest: dict[str, Any], key: str) -> list[str]:
    names = manifest.get(key, [])
    if not isinstance(names, list) or not all(isinstance(n, str) and _safe_name(n) for n in names):
        raise FormatError(f"{MANIFEST}: {key}: must be an array of {key[:-1]} names")
    return names


def _read_capabilities(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """The ``skills``/``agents`` documents of the folder, when the manifest lists some.

    Skill folders go through :func:`studio.skills.package.read_skill_folder`,
    which refuses links, oversized files and bad UTF-8 with the file's name.
    """
    from studio.agents.card import shape_problem
    from studio.skills.document import skill_to_dict
    from studio.skills.model import SkillError
    from studio.skills.package import read_skill_folder
    from studio.skills.spec import import_refusal

    out: dict[str, Any] = {}
    skills = []
    for name in _listed(manifest, "skills"):
        folder = path / SKILLS_DIR / name
        if not folder.is_dir() or folder.is_symlink():
            raise FormatError(f"{SKILLS_DIR}/{name}: listed in {MANIFEST} but not a folder here")
        try:
            skill = read_skill_folder(folder)
        except SkillError as exc:
            raise FormatError(f"{SKILLS_DIR}/{exc}") from None
        if refusal := import_refusal(skill, name):  # e.g. a bidi override in the name
            raise FormatError(f"{SKILLS_DIR}/{refusal}")
        skills.append(skill_to_dict(skill))
    agents = []
    with Folder.open(path) as root:
        root.shown = ""
        for name in _listed(manifest, "agents"):
            rel = f"{AGENTS_DIR}/{name}.json"
            card = _read(root, rel)
            if isinstance(card, dict) and (problem := shape_problem(card)):
                raise FormatError(f"{rel}: {problem}")  # a field of the wrong type, by path
            agents.append({"name": name, "card": card})
    if skills:
        out["skills"] = skills
    if agents:
        out["agents"] = agents
    return out
