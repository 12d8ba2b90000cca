"""``studio registries|import|export|publish|versions``: registries in and out of the database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry_db import RegistryStore
from studio.cli import evals
from studio.cli.common import Subcommands, UsageError, load_registry
from studio.cli.publish_review import add_review_options
from studio.contract import Registry

IMPORT_FORMATS = (
    "auto",
    "studio",
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
    "dir",
    "openapi",
)
EXPORT_FORMATS = IMPORT_FORMATS[1:-1]


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio registries``, ``import``, ``export``, ``publish`` and ``versions``."""
    p = sub.add_parser("registries", parents=[common], help="list registries")
    p.set_defaults(handler=_cmd_registries)

    p = sub.add_parser("import", parents=[common], help="import tools from a file or folder")
    p.add_argument(
        "file", metavar="FILE", nargs="?", help="tools, a skills folder/zip or an agent card"
    )
    p.add_argument(
        "--url", metavar="URL", help="an A2A agent card: the agent's base URL or its card"
    )
    p.add_argument("--registry", metavar="NAME", help="registry name (default: from the file)")
    p.add_argument("--format", choices=IMPORT_FORMATS, default="auto")
    p.add_argument(
        "--replace-draft",
        action="store_true",
        help="replace the draft of an existing registry (published versions are kept)",
    )
    openapi = p.add_argument_group("OpenAPI documents (--format openapi, or detected)")
    openapi.add_argument("--include-tag", metavar="T", nargs="+", action="extend",
                         default=[], help="import only operations with one of these tags",
                         )  # fmt: skip
    openapi.add_argument("--include-path", metavar="GLOB", nargs="+", action="extend",
                         default=[], help="import only operations whose path matches "
                         "(e.g. '/pets/*')")  # fmt: skip
    openapi.add_argument("--exclude-deprecated", action="store_true",
                         help="leave deprecated operations out")  # fmt: skip
    openapi.add_argument("--base-url", metavar="URL",
                         help="targets use this base URL instead of the document's first "
                         "server")  # fmt: skip
    openapi.add_argument("--executor", choices=("mock", "http"), default="mock",
                         help="what the imported tools run on in the Playground (default: mock; "
                         "their HTTP targets are stored either way)")  # fmt: skip
    p.set_defaults(handler=_cmd_import)

    p = sub.add_parser("export", parents=[common], help="export a draft or a version")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--version", metavar="N|draft", default="draft")
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    p.add_argument("--out", metavar="PATH", help="file or folder (default: stdout)")
    p.set_defaults(handler=_cmd_export)

    p = sub.add_parser("publish", parents=[common], help="publish the draft as a new version")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--notes", default="")
    p.add_argument("--semver", metavar="X.Y.Z")
    p.add_argument("--author", metavar="NAME", help="who publishes (default: the OS user)")
    add_review_options(p)
    p.set_defaults(handler=_cmd_publish)

    p = sub.add_parser("versions", parents=[common], help="list published versions")
    p.add_argument("registry", metavar="REGISTRY")
    p.set_defaults(handler=_cmd_versions)


def _cmd_registries(store: RegistryStore, args: argparse.Namespace) -> int:
    rows = store.list_registries()
    if not rows:
        print("no registries")
    for info in rows:
        latest = f"v{info.latest_version}" if info.latest_version else "unpublished"
        print(f"{info.name}\t{info.tool_count} tools\t{latest}\t{info.title}")
    return 0


def _cmd_import(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.cli.capabilities import import_capabilities
    from studio.formats import FormatError, import_path
    from studio.formats.base import one_line
    from studio.formats.openapi_detect import is_openapi_import

    handled = import_capabilities(store, args)  # skills (SKILL.md) and A2A agent cards
    if handled is not None:
        return handled
    path = Path(args.file)
    if not path.exists() and not path.is_symlink():
        raise UsageError(f"{one_line(str(path))}: no such file or folder")
    if is_openapi_import(path, args.format):
        return _import_openapi(store, path, args)
    if args.include_tag or args.include_path or args.exclude_deprecated or args.base_url:
        raise UsageError(
            "--include-tag, --include-path, --exclude-deprecated and --base-url apply to "
            "OpenAPI documents only"
        )
    try:
        result = import_path(path, args.format, name=args.registry)
    except FormatError as exc:
        raise UsageError(str(exc)) from exc
    registry: Registry = result.registry
    exists = exists_unless_refused(store, registry.name, args.replace_draft)
    # A registry folder's evals/<set>.jsonl: all checked before anything is stored.
    eval_sets = evals.read_folder_sets(path) if path.is_dir() else []
    store.import_registry(registry, replace_draft=args.replace_draft)
    evals.store_folder_sets(store, registry.name, eval_sets)
    for note in result.notes:
        where = f"{note.path}: " if note.path else ""
        print(one_line(f"note: {where}{note.message}"))
    verb = "replaced the draft of" if exists else "imported"
    print(f"{verb} {registry.name}: {len(registry.tools)} tools ({result.format})")
    return 0


def exists_unless_refused(
    store: RegistryStore, name: str, replace_draft: bool, verb: str = "import"
) -> bool:
    """Whether registry ``name`` exists; if it does, UsageError unless ``--replace-draft``.

    Shared by ``studio import`` and ``studio mcp pull`` (``verb``: how the message
    names the command's action).
    """
    from registry_db import NotFoundError

    try:
        store.get_registry(name)
    except NotFoundError:
        return False
    if not replace_draft:
        raise UsageError(
            f"registry {name!r} already exists; pass --replace-draft to replace its "
            f"draft (published versions are kept) or --registry NAME to {verb} under another name"
        )
    return True


def _import_openapi(store: RegistryStore, path: Path, args: argparse.Namespace) -> int:
    """Import an OpenAPI document: the draft and every tool's HTTP target in one transaction."""
    from registry_db.executors import ExecutorStore
    from studio.formats import FormatError, files
    from studio.formats.base import one_line
    from studio.formats.openapi import ImportOptions, import_openapi_text

    options = ImportOptions(
        include_tags=tuple(args.include_tag),
        include_paths=tuple(args.include_path),
        exclude_deprecated=args.exclude_deprecated,
        base_url=args.base_url,
    )
    try:
        text = files.read_text(path, path.name)
        imported = import_openapi_text(text, path.name, name=args.registry, options=options)
    except FormatError as exc:
        raise UsageError(str(exc)) from exc
    registry = imported.result.registry
    exists = exists_unless_refused(store, registry.name, args.replace_draft)
    ExecutorStore.for_store(store).import_with_targets(
        store,
        registry,
        imported.targets,
        allowed_base_urls=imported.allowed_base_urls,
        replace_draft=args.replace_draft,
        executor=args.executor,
    )
    for note in imported.result.notes:
        where = f"{note.path}: " if note.path else ""
        print(one_line(f"note: [{note.kind}] {where}{note.message}"))
    verb = "replaced the draft of" if exists else "imported"
    print(
        f"{verb} {registry.name}: {len(registry.tools)} tools (openapi); "
        f"{len(imported.targets)} HTTP targets stored (executor: {args.executor}); "
        f"allowed base URLs: {', '.join(imported.allowed_base_urls) or 'none'}"
    )
    return 0


def _cmd_export(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.formats import FormatError, export_registry, write_export
    from studio.formats.base import one_line

    registry = load_registry(store, args.registry, args.version)
    try:
        result = export_registry(registry, args.format)
        if args.out:
            write_export(result, Path(args.out))
    except FormatError as exc:
        raise UsageError(str(exc)) from exc
    if args.out and args.format == "dir":
        evals.export_folder_sets(store, args.registry, Path(args.out))
    if args.out:
        print(f"wrote {one_line(args.out)}", file=sys.stderr)
    elif result.text is not None:
        sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
    else:
        raise UsageError(f"format {args.format!r} writes a folder: give --out PATH")
    for note in result.notes:
        where = f"{note.path}: " if note.path else ""
        print(one_line(f"note: {where}{note.message}"), file=sys.stderr)
    return 0


def _cmd_publish(store: RegistryStore, args: argparse.Namespace) -> int:
    """Review (diff summary, semver, gates; see :mod:`studio.cli.publish_review`), then publish."""
    from studio.cli.publish_review import review_and_publish

    return review_and_publish(store, args)


def _cmd_versions(store: RegistryStore, args: argparse.Namespace) -> int:
    store.get_registry(args.registry)
    versions = store.list_versions(args.registry)
    if not versions:
        print(f"{args.registry} has no published versions")
    for v in versions:
        print(
            f"{v.number}\t{v.semver or '-'}\t{v.created_at}\t{v.author}\t"
            f"{v.tool_count} tools\t{v.content_hash[:19]}\t{v.notes}"
        )
    return 0
