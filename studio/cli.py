"""The ``studio`` command: no arguments opens the GUI; subcommands run headless.

Exit codes: 0 on success, 2 on bad input (with a one-line reason on stderr),
1 when the database itself fails.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from registry_db import (
    RegistryStore,
    StoreError,
    default_db_path,
    open_default_store,
    resolve_db_path,
)
from registry_db.channel_log import PUBLISH
from studio.contract import Registry

if TYPE_CHECKING:
    from registry_db.channels import ChannelEvent

IMPORT_FORMATS = (
    "auto",
    "studio",
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
    "dir",
)
EXPORT_FORMATS = IMPORT_FORMATS[1:]


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit code 2."""


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

    sub.add_parser("registries", parents=[common], help="list registries")

    p = sub.add_parser("import", parents=[common], help="import tools from a file or folder")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--registry", metavar="NAME", help="registry name (default: from the file)")
    p.add_argument("--format", choices=IMPORT_FORMATS, default="auto")
    p.add_argument(
        "--replace-draft",
        action="store_true",
        help="replace the draft of an existing registry (published versions are kept)",
    )

    p = sub.add_parser("export", parents=[common], help="export a draft or a version")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--version", metavar="N|draft", default="draft")
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    p.add_argument("--out", metavar="PATH", help="file or folder (default: stdout)")

    p = sub.add_parser("publish", parents=[common], help="publish the draft as a new version")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--notes", default="")
    p.add_argument("--semver", metavar="X.Y.Z")
    p.add_argument("--author", metavar="NAME", help="who publishes (default: the OS user)")

    p = sub.add_parser("versions", parents=[common], help="list published versions")
    p.add_argument("registry", metavar="REGISTRY")

    p = sub.add_parser("profiles", parents=[common], help="model profiles")
    profiles = p.add_subparsers(dest="profiles_command", metavar="ACTION", required=True)
    pa = profiles.add_parser("add", parents=[common], help="add a model profile")
    pa.add_argument("name", metavar="NAME")
    pa.add_argument("--kind", choices=("openai-chat", "anthropic-messages"), required=True)
    pa.add_argument("--base-url", metavar="URL", required=True)
    pa.add_argument("--model", metavar="M", required=True)
    pa.add_argument("--api-key-env", metavar="VAR", help="environment variable with the key")
    profiles.add_parser("list", parents=[common], help="list model profiles")

    p = sub.add_parser("run", parents=[common], help="run a model against a registry, headless")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--profile", metavar="NAME", required=True)
    p.add_argument("--version", metavar="N|draft", default="draft")
    p.add_argument("--prompt", metavar="TEXT", required=True)
    p.add_argument("--system", metavar="TEXT", default="")
    p.add_argument("--context", metavar="KEY=VALUE", action="append", default=[])
    p.add_argument("--approve", choices=("none", "write", "all"), default="none")
    p.add_argument("--phrase", metavar="TEXT", default="", help="typed for destructive calls")
    p.add_argument("--max-tool-calls", metavar="N", type=int, default=20)
    p.add_argument("--events", choices=("jsonl", "text"), default="text")

    from studio.lint.model import PROFILES

    p = sub.add_parser(
        "lint",
        parents=[common],
        help="lint a registry (by name) or a file or folder of tool definitions",
    )
    p.add_argument("target", metavar="REGISTRY|FILE")
    p.add_argument("--version", metavar="N|draft", default="draft")
    p.add_argument("--profile", choices=PROFILES, default="openai")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "never"),
        default="error",
        help="exit with 1 when a finding reaches this level (default: error)",
    )

    p = sub.add_parser("diff", parents=[common], help="what changes between two versions")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("a", metavar="A", help="'draft', a version number or a channel name")
    p.add_argument("b", metavar="B", help="'draft', a version number or a channel name")
    p.add_argument("--format", choices=("text", "md", "json"), default="text")
    p.add_argument(
        "--fail-on",
        choices=("breaking", "behavioural", "never"),
        default="never",
        help="exit with 1 when a change reaches this class (default: never)",
    )
    p.add_argument(
        "--profile",
        choices=(*PROFILES, "none"),
        default="openai",
        help="lint profile for the lint delta and the token method ('none' skips linting)",
    )
    p.add_argument(
        "--confirm-rename", metavar="OLD=NEW", action="append", default=[],
        help="treat OLD (in A) → NEW (in B) as a rename",
    )  # fmt: skip
    p.add_argument(
        "--reject-rename", metavar="OLD=NEW", action="append", default=[],
        help="never treat OLD → NEW as a rename",
    )  # fmt: skip
    p = sub.add_parser("channel", parents=[common], help="release channels of a registry")
    p.add_argument("registry", metavar="REGISTRY")
    channel = p.add_subparsers(dest="channel_command", metavar="ACTION", required=True)
    channel.add_parser("show", parents=[common], help="channels, recent events and the guard")
    pc = channel.add_parser("set", parents=[common], help="point a channel at a version")
    pc.add_argument("channel", metavar="CHANNEL", help="canary, stable or another name")
    pc.add_argument("--version", metavar="N", type=int, required=True)
    pc.add_argument("--share", metavar="S", type=int, help="percent of subjects (0-100)")
    pc = channel.add_parser("promote", parents=[common], help="make the canary's version stable")
    pc.add_argument("--channel", metavar="NAME", default="canary")
    pc = channel.add_parser(
        "rollback", parents=[common], help="canary to 0 %%, or stable to its previous version"
    )
    pc.add_argument("--channel", metavar="NAME", default="canary")
    for action in ("set", "promote", "rollback"):
        channel.choices[action].add_argument(
            "--why", metavar="TEXT", default="", help="reason, kept in the log"
        )
        channel.choices[action].add_argument(
            "--who", metavar="NAME", help="who acts (default: the OS user)"
        )

    from studio.release import SERVING_FORMATS

    p = sub.add_parser("resolve", parents=[common], help="which version a subject gets")
    p.add_argument("registry", metavar="REGISTRY")
    p.add_argument("--subject", metavar="ID", help="user or session id (none: stable)")
    p.add_argument("--format", choices=SERVING_FORMATS, default="openai")

    p = sub.add_parser("serve", parents=[common], help="serve published versions over HTTP")
    p.add_argument("--host", default="127.0.0.1", help="interface (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="TCP port; 0 picks a free one")
    p.add_argument(
        "--token-file", metavar="FILE", help="bearer token for POST /v1/outcomes (else refused)"
    )

    from studio.cli_sessions import add_sessions_parser

    add_sessions_parser(sub, common)
    return parser


def _open_store(args: argparse.Namespace) -> RegistryStore:
    path = resolve_db_path(getattr(args, "db", None))
    # Only the embedded default database is seeded with the examples; a file
    # named by --db or $STUDIO_DB is the user's own and starts empty.
    return open_default_store(path, seed=path == default_db_path())


def _cmd_registries(store: RegistryStore, args: argparse.Namespace) -> int:
    rows = store.list_registries()
    if not rows:
        print("no registries")
    for info in rows:
        latest = f"v{info.latest_version}" if info.latest_version else "unpublished"
        print(f"{info.name}\t{info.tool_count} tools\t{latest}\t{info.title}")
    return 0


def _cmd_import(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.formats import FormatError, import_path

    path = Path(args.file)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    try:
        result = import_path(path, args.format, name=args.registry)
    except FormatError as exc:
        raise UsageError(str(exc)) from exc
    registry: Registry = result.registry
    exists = any(r.name == registry.name for r in store.list_registries())
    if exists and not args.replace_draft:
        raise UsageError(
            f"registry {registry.name!r} already exists; pass --replace-draft to replace its "
            "draft (published versions are kept) or --registry NAME to import under another name"
        )
    store.import_registry(registry, replace_draft=args.replace_draft)
    for note in result.notes:
        print(f"note: {note.path}: {note.message}" if note.path else f"note: {note.message}")
    verb = "replaced the draft of" if exists else "imported"
    print(f"{verb} {registry.name}: {len(registry.tools)} tools ({result.format})")
    return 0


def _load_registry(store: RegistryStore, name: str, version: str) -> Registry:
    if version == "draft":
        return store.draft_registry(name)
    try:
        number = int(version)
    except ValueError:
        raise UsageError(f"--version must be a number or 'draft', not {version!r}") from None
    return store.load_version(name, number).registry


def _cmd_lint(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.formats import FormatError, import_path
    from studio.lint import Severity, lint_registry
    from studio.lint.report import to_json, to_sarif, to_text

    path = Path(args.target)
    if path.exists():
        if args.version != "draft":
            raise UsageError(f"--version applies to registries in the database, not to {path}")
        try:
            registry = import_path(path).registry
        except FormatError as exc:
            raise UsageError(str(exc)) from exc
    elif any(sep in args.target for sep in ("/", "\\")) or path.suffix == ".json":
        raise UsageError(f"{path}: no such file or folder")
    else:
        registry = _load_registry(store, args.target, args.version)
    report = lint_registry(registry, profile=args.profile)
    if args.format == "text":
        sys.stdout.write(to_text(report))
    else:
        doc = to_json(report) if args.format == "json" else to_sarif(report, registry)
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    if args.fail_on != "never" and report.reaches(Severity(args.fail_on)):
        return 1
    return 0


def _cmd_export(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.formats import export_registry, write_export

    if args.version == "draft":
        registry = store.draft_registry(args.registry)
    else:
        try:
            number = int(args.version)
        except ValueError:
            raise UsageError(
                f"--version must be a number or 'draft', not {args.version!r}"
            ) from None
        registry = store.load_version(args.registry, number).registry
    result = export_registry(registry, args.format)
    if args.out:
        write_export(result, Path(args.out))
        print(f"wrote {args.out}", file=sys.stderr)
    elif result.text is not None:
        sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
    else:
        raise UsageError(f"format {args.format!r} writes a folder: give --out PATH")
    for note in result.notes:
        where = f"{note.path}: " if note.path else ""
        print(f"note: {where}{note.message}", file=sys.stderr)
    return 0


def _cmd_publish(store: RegistryStore, args: argparse.Namespace) -> int:
    info = store.publish(args.registry, notes=args.notes, semver=args.semver, author=args.author)
    semver = f" ({info.semver})" if info.semver else ""
    print(f"published {args.registry} version {info.number}{semver} {info.content_hash}")
    return 0


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


def _cmd_profiles(store: RegistryStore, args: argparse.Namespace) -> int:
    from registry_db.profiles import ProfileRepository
    from studio.providers import ModelProfile, ProviderKind

    repo = ProfileRepository(store)
    if args.profiles_command == "list":
        rows = repo.list_profiles()
        if not rows:
            print("no model profiles")
        for profile in rows:
            key = f"key from ${profile.api_key_env}" if profile.api_key_env else "key from keyring"
            print(
                f"{profile.name}\t{profile.kind.value}\t{profile.base_url}\t{profile.model}\t{key}"
            )
        return 0
    try:
        profile = ModelProfile(
            args.name, ProviderKind(args.kind), args.base_url, args.model, args.api_key_env
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    repo.add(profile)
    print(f"added profile {profile.name} ({profile.kind.value}, {profile.model})")
    return 0


def _cmd_run(store: RegistryStore, args: argparse.Namespace) -> int:
    import asyncio
    import json

    from registry_db.profiles import ProfileRepository
    from registry_db.sessions import SessionStore
    from studio.providers import client_for
    from studio.runtime import (
        MockExecutor,
        MockSpecError,
        Run,
        RunConfig,
        RunEvent,
        SessionContext,
        auto_approver,
        event_to_json,
        example_mocks,
        parse_mocks,
    )

    if args.max_tool_calls < 1:
        raise UsageError("--max-tool-calls must be at least 1")
    if args.version == "draft":
        registry = store.draft_registry(args.registry)
    else:
        try:
            registry = store.load_version(args.registry, int(args.version)).registry
        except ValueError:
            raise UsageError(
                f"--version must be a number or 'draft', not {args.version!r}"
            ) from None
    profile = ProfileRepository(store).get(args.profile)
    sessions = SessionStore.for_store(store)
    specs = sessions.mock_specs(args.registry)
    if not specs:
        # Mocks load on first use; bundled examples ship the reimbursement story.
        document = example_mocks(args.registry)
        if document is not None:
            specs = {"": document.get("context", {}), **document.get("tools", {})}
            sessions.set_mock_specs(args.registry, specs)
    try:
        mocks = parse_mocks({"tools": {k: v for k, v in specs.items() if k}})
        context = SessionContext.from_dict(specs.get("", {})).with_pairs(args.context)
    except (MockSpecError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    config = RunConfig(
        registry, version=args.version, profile=profile.name, system=args.system,
        params=profile.params, context=context, mock=MockExecutor(mocks.tools),
        max_tool_calls=args.max_tool_calls,
    )  # fmt: skip

    def show(event: RunEvent) -> None:
        if args.events == "jsonl":
            print(json.dumps(event_to_json(event), ensure_ascii=False), flush=True)
        elif event.type != "message.delta":
            data = event.data()
            brief = {k: v for k, v in data.items() if k not in ("request", "raw_request", "steps")}
            print(f"{event.seq:>4} {event.type:<20} {json.dumps(brief, ensure_ascii=False)[:200]}")

    async def go() -> str:
        client = client_for(profile)
        try:
            run = Run(
                client,
                config,
                sessions=sessions,
                on_event=show,
                approver=auto_approver(args.approve, args.phrase),
                title=args.prompt[:80],
            )
            result = await run.execute(args.prompt)
        finally:
            await client.aclose()
        if args.events == "text":
            if result.messages and result.messages[-1].text:
                print(result.messages[-1].text)
            print(f"session {result.session_id}: {result.status} {result.reason}".rstrip())
        return result.status

    status = asyncio.run(go())
    return 0 if status == "completed" else 1


def _diff_side(store: RegistryStore, name: str, spec: str) -> tuple[Registry, str]:
    """The registry a diff side names, and its label: draft, a version or a channel."""
    if spec == "draft":
        return store.draft_registry(name), "draft"
    number = spec[1:] if spec[:1] in ("v", "V") and spec[1:].isdigit() else spec
    if number.isdigit():
        return store.load_version(name, int(number)).registry, f"v{int(number)}"
    from studio.release import release_state

    store.get_registry(name)
    state = release_state(store, name)
    channel = state.channel(spec)  # ChannelError (a StoreError) names the unknown channel
    version = state.stable_version if channel.name == "stable" else channel.version
    if version is None:
        raise UsageError(f"channel {spec!r} of {name} has no version yet")
    return store.load_version(name, version).registry, f"{spec} (v{version})"


def _rename_pairs(values: list[str], option: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values:
        old, sep, new = value.partition("=")
        if not sep or not old or not new:
            raise UsageError(f"{option} expects OLD=NEW, not {value!r}")
        pairs[old] = new
    return pairs


def _cmd_diff(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.diff import ChangeClass, diff_registries, to_json, to_markdown, to_text

    a, a_label = _diff_side(store, args.registry, args.a)
    b, b_label = _diff_side(store, args.registry, args.b)
    try:
        diff = diff_registries(
            a, b, a_label=a_label, b_label=b_label,
            confirmed_renames=_rename_pairs(args.confirm_rename, "--confirm-rename"),
            rejected_renames=_rename_pairs(args.reject_rename, "--reject-rename"),
            lint_profile=None if args.profile == "none" else args.profile,
        )  # fmt: skip
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if args.format == "json":
        sys.stdout.write(json.dumps(to_json(diff), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(to_markdown(diff) if args.format == "md" else to_text(diff))
    if args.fail_on != "never" and diff.reaches(ChangeClass(args.fail_on)):
        return 1
    return 0


def _channel_text(state: dict) -> str:
    version = state.get("version")
    return f"v{version} at {state.get('share')} %" if version is not None else "unset"


def _version_text(state: dict) -> str:
    version, semver = state.get("version"), state.get("semver")
    if version is None:
        return "none"
    return f"v{version} ({semver})" if semver else f"v{version}"


def _event_line(event: ChannelEvent) -> str:
    """One log line: when, who, what (action and channel), before -> after, why."""
    why = f"\t{event.why}" if event.why else ""
    if event.action == PUBLISH:  # no channel; before/after are versions, not channel states
        what, before, after = event.action, _version_text(event.before), _version_text(event.after)
    else:
        what = f"{event.action} {event.channel}"
        before, after = _channel_text(event.before), _channel_text(event.after)
    return f"{event.created_at}\t{event.who}\t{what}\t{before} -> {after}{why}"


def _cmd_channel(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.release import (
        channel_events,
        guard_for_registry,
        promote,
        release_state,
        rollback,
        set_channel,
    )

    name = args.registry
    action = args.channel_command
    if action == "set":
        if args.share is None and args.channel != "stable":
            raise UsageError(f"--share is required for channel {args.channel!r}")
        state = set_channel(store, name, args.channel, version=args.version, share=args.share,
                            who=args.who, why=args.why)  # fmt: skip
    elif action == "promote":
        state = promote(store, name, args.channel, who=args.who, why=args.why)
    elif action == "rollback":
        state = rollback(store, name, args.channel, who=args.who, why=args.why)
    else:
        state = release_state(store, name)
    for c in state.channels:
        if c.name == "stable":
            version = state.stable_version
            where = "" if state.stable_pinned or version is None else " (latest, not pinned)"
            print(f"stable\t{f'v{version}' if version else '-'}{where}\t100 %")
        else:
            print(f"{c.name}\t{f'v{c.version}' if c.version else '-'}\t{c.share} %")
    if action == "show":
        for event in channel_events(store, name)[-10:]:
            print(_event_line(event))
        report = guard_for_registry(store, name)
        if report is not None:
            rec = report.recommendation
            print(f"guard: {rec.action}: {rec.reason}")
    return 0


def _cmd_resolve(store: RegistryStore, args: argparse.Namespace) -> int:
    import json

    from studio.release import resolution_document, resolve

    resolution = resolve(store, args.registry, args.subject)
    doc = resolution_document(resolution, args.format)
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    return 0


def _cmd_serve(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.server import read_token_file, serve

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, not {args.port}")
    token = None
    if args.token_file:
        try:
            token = read_token_file(Path(args.token_file))
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
    else:
        print("studio: no --token-file: outcome reports will be refused", file=sys.stderr)

    def ready(url: str) -> None:
        print(f"listening on {url}", flush=True)

    try:
        serve(store, host=args.host, port=args.port, token=token, on_ready=ready)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc}") from exc
    return 0


def _cmd_sessions(store: RegistryStore, args: argparse.Namespace) -> int:
    from studio.cli_sessions import run_sessions_command

    return run_sessions_command(store, args)


_COMMANDS: dict[str, Callable[[RegistryStore, argparse.Namespace], int]] = {
    "sessions": _cmd_sessions,
    "profiles": _cmd_profiles,
    "run": _cmd_run,
    "registries": _cmd_registries,
    "import": _cmd_import,
    "export": _cmd_export,
    "publish": _cmd_publish,
    "versions": _cmd_versions,
    "lint": _cmd_lint,
    "diff": _cmd_diff,
    "channel": _cmd_channel,
    "resolve": _cmd_resolve,
    "serve": _cmd_serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``studio`` console script."""
    args = _parser().parse_args(argv)
    if args.command is None:
        from studio.ui.app import run_gui

        db = getattr(args, "db", None)
        return run_gui(resolve_db_path(db) if db else None)
    try:
        store = _open_store(args)
    except (StoreError, OSError) as exc:
        print(f"studio: cannot open the database: {exc}", file=sys.stderr)
        return 1
    try:
        return _COMMANDS[args.command](store, args)
    except (UsageError, StoreError) as exc:
        print(f"studio: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `studio export … | head`
        return 0
    finally:
        store.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
