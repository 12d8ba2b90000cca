"""Eval sets of a registry in the database: validated on the way in and on the way out."""

from __future__ import annotations

from dataclasses import dataclass

from registry_db import RegistryStore
from registry_db.evals import EvalSetStore, StoredEvalSet
from studio.evals.jsonl import EvalSet, build_set, parse_set
from studio.evals.model import EvalCase


@dataclass(frozen=True, slots=True)
class EvalSetSummary:
    """A stored set as listed: name, case count, revision, when it changed."""

    name: str
    case_count: int
    revision: int
    updated_at: str
    sha256: str


class EvalStore:
    """The eval sets of the registries in one database.

    Every text is validated (:func:`studio.evals.jsonl.parse_set`) before it is
    stored and again when loaded, so a set in the database always parses.
    """

    def __init__(self, store: RegistryStore) -> None:
        self._sets = EvalSetStore.for_store(store)

    def summaries(self, registry: str) -> list[EvalSetSummary]:
        """The registry's sets, sorted by name (NotFoundError for an unknown registry)."""
        return [
            EvalSetSummary(s.name, s.case_count, s.revision, s.updated_at, s.sha256)
            for s in self._sets.list(registry)
        ]

    def stored(self, registry: str, name: str) -> StoredEvalSet:
        """The stored row (text, revision…) of one set."""
        return self._sets.get(registry, name)

    def load(self, registry: str, name: str) -> EvalSet:
        """One set, parsed; NotFoundError when absent, EvalSetError when it does not validate."""
        return parse_set(name, self._sets.get(registry, name).text)

    def load_all(self, registry: str) -> list[EvalSet]:
        """Every set of the registry, parsed, sorted by name."""
        return [parse_set(s.name, s.text) for s in self._sets.list(registry)]

    def save_text(
        self, registry: str, name: str, text: str, *, expected_revision: int | None = None
    ) -> EvalSet:
        """Validate ``text`` and store it unchanged under ``name``.

        Raises:
            EvalSetError: the text does not validate (nothing is written).
            NotFoundError: the registry does not exist.
            ConflictError: ``expected_revision`` is not the stored one.
        """
        parsed = parse_set(name, text)
        self._sets.save(
            registry, name, text, len(parsed.cases), expected_revision=expected_revision
        )
        return parsed

    def save_cases(
        self,
        registry: str,
        name: str,
        cases: list[EvalCase],
        *,
        expected_revision: int | None = None,
    ) -> EvalSet:
        """Store cases built in code (one :func:`~studio.evals.model.dump_case` line each)."""
        built = build_set(name, cases)
        return self.save_text(registry, name, built.text, expected_revision=expected_revision)

    def delete(self, registry: str, name: str) -> None:
        self._sets.delete(registry, name)
