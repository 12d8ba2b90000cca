"""Eval sets in the database: validated on the way in, the same bytes on the way out."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry_db import ConflictError, NotFoundError, RegistryStore, seed_examples
from studio.evals import EvalSetError, parse_case
from studio.evals.store import EvalStore

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
CORE = EXAMPLES / "evals" / "travel-reimbursement" / "core.jsonl"
LINE = '{"id":"a","user":"hi","expect":{"kind":"no_tool"}}\n'


@pytest.fixture
def store(tmp_path: Path) -> RegistryStore:
    s = RegistryStore.open(tmp_path / "studio.sqlite3")
    seed_examples(s)
    yield s
    s.close()


def test_the_example_set_is_seeded_with_its_exact_bytes(store: RegistryStore) -> None:
    evals = EvalStore(store)
    summary, skills = evals.summaries("travel-reimbursement")  # skills: issue #18's cases
    assert skills.name == "skills"
    assert summary.name == "core" and summary.case_count >= 60
    assert evals.load("travel-reimbursement", "core").text.encode() == CORE.read_bytes()
    assert evals.summaries("order-service") == []


def test_save_validates_and_keeps_text(store: RegistryStore) -> None:
    evals = EvalStore(store)
    text = "  " + LINE + "\n"
    evals.save_text("travel-reimbursement", "smoke", text)
    assert evals.stored("travel-reimbursement", "smoke").text == text
    with pytest.raises(EvalSetError, match=r"line 1: expect\.kind"):
        evals.save_text("travel-reimbursement", "smoke", '{"id":"a","user":"x","expect":{}}')
    assert evals.stored("travel-reimbursement", "smoke").text == text  # nothing lost
    with pytest.raises(NotFoundError):
        evals.save_text("nope", "smoke", LINE)


def test_stale_revision_is_a_conflict(store: RegistryStore) -> None:
    evals = EvalStore(store)
    evals.save_text("travel-reimbursement", "s", LINE, expected_revision=0)
    with pytest.raises(ConflictError):
        evals.save_text("travel-reimbursement", "s", LINE, expected_revision=0)
    case = parse_case({"id": "b", "user": "yo", "expect": {"kind": "ask"}})
    saved = evals.save_cases("travel-reimbursement", "s", [case], expected_revision=1)
    assert saved.text == '{"id": "b", "user": "yo", "expect": {"kind": "ask"}}\n'
    assert evals.stored("travel-reimbursement", "s").revision == 2


def test_sets_survive_a_reopen_and_go_with_their_registry(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = RegistryStore.open(path)
    seed_examples(store)
    EvalStore(store).save_text("order-service", "x", LINE)
    store.close()
    store = RegistryStore.open(path)
    assert [s.name for s in EvalStore(store).summaries("order-service")] == ["x"]
    store.delete_registry("order-service")
    with pytest.raises(NotFoundError):
        EvalStore(store).summaries("order-service")
    assert store.connection.execute("SELECT count(*) FROM eval_sets").fetchone()[0] == 2
    EvalStore(store).delete("travel-reimbursement", "core")
    with pytest.raises(NotFoundError):
        EvalStore(store).delete("travel-reimbursement", "core")
    store.close()
