"""The ambiguity index of a forking lint goes to whichever process is free first: same report."""

from __future__ import annotations

import os

import pytest

from studio.lint import Linter, lint_registry, parallel
from studio.lint import engine as lint_engine
from studio.lint.claim import Claim
from studio.lint.report import to_json
from tests.lint._fixtures import example


def test_one_process_of_two_takes_the_token() -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    claim = Claim()
    pid = os.fork()
    if pid == 0:  # the child: its exit code says whether it took the token
        os._exit(0 if claim.take() else 1)
    _pid, status = os.waitpid(pid, 0)
    child_took = os.waitstatus_to_exitcode(status) == 0
    assert claim.take() is not child_took
    assert claim.take() is False  # once
    claim.close()
    assert claim.take() is False


@pytest.mark.parametrize("first", ["parent", "child"])
def test_the_report_is_the_serial_one_whoever_builds_the_index(
    first: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not parallel.can_fork():
        pytest.skip("forking is not available here (not Linux, one CPU, or threads running)")
    monkeypatch.setattr(lint_engine, "FORK_MIN_TOOLS", 1)
    parent = os.getpid()

    class Ordered(Claim):
        """The ``first`` process asks first: the other waits until it has."""

        def __init__(self) -> None:
            super().__init__()
            self.asked, self.tell = os.pipe()

        def take(self) -> bool:
            if (os.getpid() == parent) is (first == "parent"):
                took = super().take()
                os.write(self.tell, b"1")
                return took
            os.read(self.asked, 1)
            return super().take()

    monkeypatch.setattr(lint_engine, "Claim", Ordered)
    built_here: list[int] = []
    original = Linter._pairs_and_hits

    def recording(self, tools):  # type: ignore[no-untyped-def]
        built_here.append(os.getpid())  # a child's list is its own copy
        return original(self, tools)

    monkeypatch.setattr(Linter, "_pairs_and_hits", recording)
    reg = example("order-service")
    forked = lint_registry(reg, parallel=True)
    assert built_here == ([parent] if first == "parent" else [])
    assert to_json(forked) == to_json(lint_registry(reg))
    assert forked.similar


def test_scores_pickle_as_themselves() -> None:
    import pickle

    from studio.lint.scores import ToolScores

    scores = ToolScores(1, 2, 3, 4, 5, 1, conciseness=3, has_parameters=False, described=False)
    again = pickle.loads(pickle.dumps(scores, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == scores and again.tdqs == scores.tdqs
