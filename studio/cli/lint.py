"""``studio lint``: lint a registry in the database, or a file or folder of tool definitions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import Subcommands, UsageError, load_registry
from studio.lint.model import PROFILES

if TYPE_CHECKING:
    from registry_db import RegistryStore


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """Register ``studio lint``."""
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
    p.set_defaults(handler=_cmd_lint, needs_store=_needs_store)


def _needs_store(args: argparse.Namespace) -> bool:
    """A file or folder is linted without opening the database."""
    return not Path(args.target).exists()


def _cmd_lint(store: RegistryStore | None, args: argparse.Namespace) -> int:
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
        assert store is not None  # opened: the target is not a file (see _needs_store)
        registry = load_registry(store, args.target, args.version)
    report = lint_registry(registry, profile=args.profile, parallel=True)
    out: object
    if args.format == "text":
        out = to_text(report)
        sys.stdout.write(out)
    else:
        out = to_json(report) if args.format == "json" else to_sarif(report, registry)
        _write_json(out, json)
    # Kept until the next lint of this process: a console-script lint leaves without
    # freeing them (studio.cli._leave), and freeing a 2,000-tool report and its JSON
    # document object by object costs ~20 ms after the output is written.
    _last_output[:] = [report, out]
    if args.fail_on != "never" and report.reaches(Severity(args.fail_on)):
        return 1
    return 0


_last_output: list[object] = []
"""The last lint's report and output document (see :func:`_cmd_lint`)."""


def _write_json(doc: object, json: Any) -> None:
    """``json.dumps(doc, ensure_ascii=False, indent=2)`` and a newline, to standard output.

    orjson writes those exact bytes about 25 times faster than the json module
    (whose ``indent`` encoder is pure Python: a quarter of a second at 2,000
    tools) when the document holds nothing they spell differently; see
    :func:`_orjson_safe`. Anything else goes through the json module.
    """
    fast = _orjson_bytes(doc)
    if fast is not None:
        out = sys.stdout
        binary = getattr(out, "buffer", None)
        encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
        if binary is not None and encoding == "utf8":
            out.flush()
            binary.write(fast)
            binary.flush()
        else:
            out.write(fast.decode("utf-8"))
        return
    _write_json_slow(doc, json)


def _orjson_bytes(doc: object) -> bytes | None:
    """The document as indented JSON by orjson, or None when the json module must write it."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; the json module still works
        return None
    if not _orjson_safe(doc):
        return None
    try:
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    except (TypeError, ValueError):  # non-str keys, lone surrogates, integers past 64 bits
        return None


def _orjson_safe(doc: object) -> bool:
    """True when orjson spells every float of ``doc`` as ``repr`` does.

    Both write the shortest round-trip digits; they differ on NaN and the
    infinities (``NaN`` vs ``null``) and on exponents (``1e-05`` vs ``1e-5``),
    which ``repr`` uses below 1e-4 and from 1e16 on.
    """
    from studio.lint.report import FloatFreeList  # imported already by whoever linted

    if type(doc) is float:
        return _float_safe(doc)
    # Only containers go on the stack: the strings of a report (most of its values)
    # are passed over where they are met (half the cost of stacking them: ~15 ms at
    # 2,000 tools, after the forked child has finished). The report's findings are
    # marked float-free and not walked at all.
    stack: list[Any] = [doc]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            values: Any = value.values()
        elif kind is list or kind is tuple:
            values = value
        elif kind is FloatFreeList:
            continue
        elif isinstance(value, dict):  # a subclass, written as its base
            values = value.values()
        elif isinstance(value, (list, tuple)):
            values = value
        else:
            continue
        for item in values:
            item_kind = type(item)
            if item_kind is float:
                if not _float_safe(item):
                    return False
            elif item_kind is dict or item_kind is list or item_kind is tuple:
                stack.append(item)
            elif item_kind is not str and isinstance(item, (dict, list, tuple, float)):
                if isinstance(item, float):
                    if not _float_safe(item):
                        return False
                else:
                    stack.append(item)
    return True


def _float_safe(value: float) -> bool:
    size = abs(value)
    return size == 0.0 or 1e-4 <= size < 1e16  # NaN fails both


def _write_json_slow(doc: object, json: Any) -> None:
    """The json module's encoding, written a batch of chunks at a time.

    With ``indent`` the json module encodes in pure Python into millions of
    small strings; joined all at once they were the peak memory of a large lint
    (~130 MB at 10,000 tools). Writing them a batch at a time keeps the bytes
    and drops the peak.
    """
    encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
    write = sys.stdout.write
    batch: list[str] = []
    for chunk in encoder.iterencode(doc):
        batch.append(chunk)
        if len(batch) >= 16384:
            write("".join(batch))
            batch.clear()
    batch.append("\n")
    write("".join(batch))
