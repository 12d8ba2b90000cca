"""Where the default database lives, and seeding it with the example registries.

Every command that opens the store comes through :func:`open_default_store`,
but only a database never seeded reads the examples: the document parser,
``importlib.resources`` and ``logging`` are imported by the functions that
seed, not by this module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from registry_db.paths import APP_NAME, DB_ENV_VAR, DB_FILENAME, default_db_path, resolve_db_path
from registry_db.store import RegistryStore

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from studio.contract import Registry

__all__ = [
    "APP_NAME",
    "DB_ENV_VAR",
    "DB_FILENAME",
    "default_db_path",
    "load_examples",
    "open_default_store",
    "resolve_db_path",
    "seed_example_evals",
    "seed_example_history",
    "seed_examples",
]


def _warn(message: str, *args: object) -> None:
    """Log a skipped example (logging is imported only when one is skipped)."""
    import logging

    logging.getLogger(__name__).warning(message, *args)


def _examples_directory() -> Traversable | None:
    from importlib import resources

    try:
        return resources.files("resources") / "examples"
    except ModuleNotFoundError:
        return None


def load_examples(directory: Path | Traversable | None = None) -> list[Registry]:
    """Parse every ``*.json`` registry document in ``directory`` (default: bundled examples).

    A document that does not parse is logged and skipped: a broken example must
    not stop the application from starting.
    """
    from studio.contract import ContractError, parse_registry

    folder = _examples_directory() if directory is None else directory
    if folder is None or not folder.is_dir():
        return []
    registries = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or not entry.is_file():
            continue
        try:
            registries.append(parse_registry(json.loads(entry.read_text(encoding="utf-8"))))
        except (ValueError, ContractError) as exc:  # JSONDecodeError is a ValueError
            _warn("example registry %s skipped: %s", entry.name, exc)
    return registries


def seed_examples(
    store: RegistryStore, directory: Path | Traversable | None = None, *, history: bool = True
) -> list[str]:
    """Import the example registries into a database that was never seeded and is empty.

    Args:
        store: The store to seed.
        directory: Where the ``*.json`` documents are; default ``resources/examples``.
        history: Also publish the earlier versions an example ships
            (:func:`seed_example_history`); off for a database whose versions
            the caller publishes itself.

    Return:
        The names of the registries imported (empty when seeding was not needed).
    """
    if not store.needs_seeding():
        return []
    examples = load_examples(directory)
    # With no examples at all (e.g. a build without resources) leave the
    # database unmarked, so a later build that ships them can still seed.
    if not examples:
        return []
    names = store.seed_registries(examples)
    if history:
        seed_example_history(store, examples, directory)
    seed_example_evals(store, names, directory)
    return names


HISTORY_NOTES = (
    "The original descriptions, flawed on purpose: terse and overlapping "
    "(查询报销信息 vs 查询报销相关信息), no aliases. The draft rewrites them in four "
    "blocks; run the example eval set with --a 1 --b draft to see the difference."
)


def seed_example_history(
    store: RegistryStore,
    registries: Sequence[Registry],
    directory: Path | Traversable | None = None,
) -> list[str]:
    """Publish the earlier versions an example ships (``history/<registry>/<semver>.json``).

    Each document is published in semver order as it was, then the example's
    own document becomes the draft again: a new user has a baseline version to
    run A vs B against on the spot (issue #12). A document that does not parse
    is logged and skipped.

    Return:
        ``registry@semver`` of each version published.
    """
    from studio.contract import ContractError, parse_registry

    folder = _examples_directory() if directory is None else directory
    if folder is None or not (folder / "history").is_dir():
        return []
    published = []
    for registry in registries:
        history = folder / "history" / registry.name
        if not history.is_dir():
            continue
        entries = [e for e in history.iterdir() if e.name.endswith(".json") and e.is_file()]
        for entry in sorted(entries, key=lambda e: _semver_key(e.name.removesuffix(".json"))):
            semver = entry.name.removesuffix(".json")
            try:
                earlier = parse_registry(json.loads(entry.read_text(encoding="utf-8")))
            except (ValueError, ContractError) as exc:
                _warn("example version %s/%s skipped: %s", registry.name, entry.name, exc)
                continue
            store.replace_draft(registry.name, earlier)
            store.publish(registry.name, semver=semver, notes=HISTORY_NOTES, author="examples")
            published.append(f"{registry.name}@{semver}")
        if published:
            store.replace_draft(registry.name, registry)
    return published


def _semver_key(text: str) -> tuple[int, ...]:
    parts = text.split(".")
    return tuple(int(p) if p.isdigit() else 0 for p in parts)


def seed_example_evals(
    store: RegistryStore, registries: Sequence[str], directory: Path | Traversable | None = None
) -> list[str]:
    """Store the bundled eval sets (``evals/<registry>/<set>.jsonl``) of seeded registries.

    A set that does not validate is logged and skipped, like a broken example.

    Return:
        ``registry/set`` of each set stored.
    """
    from registry_db.evals import EvalSetStore
    from studio.evals.jsonl import SUFFIX, EvalSetError, parse_set

    folder = _examples_directory() if directory is None else directory
    if folder is None or not folder.is_dir():
        return []
    evals = EvalSetStore.for_store(store)
    stored = []
    for registry in registries:
        sets = folder / "evals" / registry
        if not sets.is_dir():
            continue
        for entry in sorted(sets.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(SUFFIX) or not entry.is_file():
                continue
            name = entry.name.removesuffix(SUFFIX)
            try:
                parsed = parse_set(name, entry.read_text(encoding="utf-8"))
            except (ValueError, EvalSetError) as exc:  # UnicodeDecodeError is a ValueError
                _warn("example eval set %s/%s skipped: %s", registry, entry.name, exc)
                continue
            evals.save(registry, name, parsed.text, len(parsed.cases))
            stored.append(f"{registry}/{name}")
    return stored


def open_default_store(path: Path | None = None, *, seed: bool = True) -> RegistryStore:
    """Open ``path`` (default: :func:`resolve_db_path` of nothing) and seed it on first use."""
    store = RegistryStore.open(path if path is not None else resolve_db_path(None))
    if seed:
        seed_examples(store)
    return store
