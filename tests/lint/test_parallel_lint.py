"""A parallel lint (ambiguity index in a forked child) gives the serial lint's report."""

from __future__ import annotations

import dataclasses

import pytest

from studio.lint import Linter, lint_registry, parallel
from studio.lint import engine as lint_engine
from tests.lint._fixtures import example


def _same(a, b) -> None:  # type: ignore[no-untyped-def]
    assert a.findings == b.findings
    assert a.similar == b.similar
    assert a.counts == b.counts


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fork for any registry size, and count the forks."""
    if not parallel.can_fork():
        pytest.skip("forking is not available here (not Linux, one CPU, or threads running)")
    monkeypatch.setattr(lint_engine, "FORK_MIN_TOOLS", 1)
    made: list[int] = []
    original = parallel.Forked.__init__

    def counting(self, compute):  # type: ignore[no-untyped-def]
        made.append(1)
        original(self, compute)

    monkeypatch.setattr(parallel.Forked, "__init__", counting)
    return made


@pytest.mark.parametrize("name", ["order-service", "travel-reimbursement"])
def test_parallel_report_equals_serial(forks: list[int], name: str) -> None:
    reg = example(name)
    _same(lint_registry(reg, parallel=True), lint_registry(reg))
    assert forks == [1]


def test_editing_after_a_parallel_lint_builds_the_index(forks: list[int]) -> None:
    reg = example("order-service")
    fast, slow = Linter(reg, parallel=True), Linter(reg)
    tool = next(t for t in reg.tools if t.name == "getOrderDetail")
    edited = dataclasses.replace(tool, summary="Gets order.")
    _same(fast.update_tool("getOrderDetail", edited), slow.update_tool("getOrderDetail", edited))


def test_a_failing_child_leaves_the_parent_to_compute(
    forks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self, tools):  # type: ignore[no-untyped-def]
        raise RuntimeError("child failed")

    reg = example("order-service")
    serial = lint_registry(reg)
    monkeypatch.setattr(Linter, "_pairs_and_hits", broken)
    _same(lint_registry(reg, parallel=True), serial)
