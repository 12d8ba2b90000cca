"""A parallel lint's child runs the security rules and the ambiguity index: the serial report."""

from __future__ import annotations

import pytest

from studio.lint import Linter, lint_registry, parallel
from studio.lint import engine as lint_engine
from studio.lint.report import to_json
from tests.lint._fixtures import example


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    if not parallel.can_fork():
        pytest.skip("forking is not available here (not Linux, one CPU, or threads running)")
    monkeypatch.setattr(lint_engine, "FORK_MIN_TOOLS", 1)


@pytest.mark.parametrize("name", ["order-service", "travel-reimbursement"])
def test_the_child_share_gives_the_serial_report(forking: None, name: str) -> None:
    reg = example(name)
    linter = Linter(reg)
    assert linter._indexed_rules(forked=True) and linter._indexed_rules(forked=False)
    assert to_json(lint_registry(reg, parallel=True)) == to_json(lint_registry(reg))


def test_a_failing_child_leaves_its_tools_to_the_parent(
    forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self, tools, ctx):  # type: ignore[no-untyped-def]
        raise RuntimeError("child failed")

    reg = example("order-service")
    serial = to_json(lint_registry(reg))
    monkeypatch.setattr(Linter, "_child_work", broken)
    assert to_json(lint_registry(reg, parallel=True)) == serial


def test_the_shared_work_is_done_before_the_fork(
    forking: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both processes read it from the parent's caches; a failure there costs only that."""
    from studio.lint.cache import memo_slots
    from studio.lint.rules._common import summary_text

    reg = example("order-service")
    serial = to_json(lint_registry(reg))
    lint_engine._prepare_shared(reg.tools, reg.settings)
    for tool in reg.tools:
        slots = memo_slots(tool)
        assert "schemas" in slots and "properties" in slots
        assert summary_text(tool) == slots["summary-text"]

    def broken(name: str) -> tuple[str, ...]:
        raise RuntimeError("no words today")

    monkeypatch.setattr("studio.lint.text.split_identifier", broken)
    assert to_json(lint_registry(reg, parallel=True)) == serial
