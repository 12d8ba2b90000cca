"""``studio publish``: its review (diff, semver, stable warning), --fail-on, --ack, evals."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.evals import gates
from studio.evals.gates import EXIT_PUBLISH_REFUSED, EXIT_REVIEW_REFUSED, Side
from studio.evals.results import Attempt
from tests.evals.synthetic import attempt

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
REG = "travel-reimbursement"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path, capsys) -> str:
    path = str(tmp_path / "studio.sqlite3")
    assert run(capsys, "--db", path, "import", str(EXAMPLES / f"{REG}.json"))[0] == 0
    return path


def _drop_first_tool(db: str) -> str:
    with RegistryStore.open(db) as store:
        draft = store.draft_registry(REG)
        store.replace_draft(REG, dataclasses.replace(draft, tools=draft.tools[1:]))
        return draft.tools[0].name


def _review(db: str, number: int) -> dict:
    with RegistryStore.open(db) as store:
        review = store.list_versions(REG)[number - 1].review
    assert review is not None
    return review


def test_first_publish_prints_the_review_and_stores_it(db, capsys) -> None:
    code, out, _ = run(capsys, "--db", db, "publish", REG, "--author", "ana")
    assert code == 0
    assert out.startswith("review against nothing: 0 breaking, 0 behavioural, ")
    assert "suggested semver: 1.0.0 — minor" in out
    assert f"published {REG} version 1" in out
    review = _review(db, 1)
    assert review["format"] == "tool-registry-studio/review@1" and review["via"] == "cli"
    assert review["against"] == "nothing" and review["acknowledged_by"] == "ana"


def test_stable_following_newest_is_a_warning(db, capsys) -> None:
    run(capsys, "--db", db, "publish", REG, "--semver", "1.0.0")
    code, _, err = run(capsys, "--db", db, "publish", REG)
    assert code == 0
    assert "warning: stable follows the newest version: publishing makes v2 stable for 100 %" in err


def test_fail_on_breaking_refuses_until_acknowledged(db, capsys) -> None:
    run(capsys, "--db", db, "publish", REG, "--semver", "1.0.0")
    removed = _drop_first_tool(db)
    code, out, err = run(capsys, "--db", db, "publish", REG, "--fail-on", "breaking")
    assert code == EXIT_REVIEW_REFUSED
    assert "suggested semver: 2.0.0 — major" in out
    assert "not published: 1 breaking-or-worse change(s) not acknowledged" in err
    rule = next(line.split()[1] for line in err.splitlines() if line.startswith("  breaking"))
    with RegistryStore.open(db) as store:
        assert len(store.list_versions(REG)) == 1
    code, _, err = run(capsys, "--db", db, "publish", REG, "--fail-on", "breaking", "--ack", "nope")
    assert code == 2 and "--ack nope matches no change of this publish (its rules: " in err
    code, out, _ = run(capsys, "--db", db, "publish", REG, "--fail-on", "breaking",
                       "--ack", f"{rule}:{removed}", "--author", "bo")  # fmt: skip
    assert code == 0 and f"published {REG} version 2" in out
    review = _review(db, 2)
    assert review["acknowledged"] == [{"rule_id": rule, "tool": removed, "path": ""}]
    assert review["semver"]["level"] == "major" and review["acknowledged_by"] == "bo"


def test_pinned_stable_gets_its_own_summary_line(db, capsys) -> None:
    run(capsys, "--db", db, "publish", REG)
    run(capsys, "--db", db, "channel", REG, "set", "stable", "--version", "1")
    run(capsys, "--db", db, "publish", REG)
    _drop_first_tool(db)
    code, out, err = run(capsys, "--db", db, "publish", REG)
    assert code == 0 and "warning" not in err
    assert "review against v2 (parent): 1 breaking" in out
    assert "review against stable (v1): 1 breaking" in out
    assert _review(db, 3)["against_stable"]["against"] == "stable (v1)"


def _fake_runner(broken: int):  # type: ignore[no-untyped-def]
    """Stands in for runner_sides: the draft fails ``broken`` of 40 cases the parent passes."""

    def factory(store, registry, set_name, profile, **_):  # type: ignore[no-untyped-def]
        def run_sides(sides: Sequence[Side]) -> list[Attempt]:
            (base, _), (cand, _) = sides
            out = [attempt(f"c{i}", variant=base) for i in range(40)]
            out += [attempt(f"c{i}", variant=cand, passed=i >= broken) for i in range(40)]
            return out

        return run_sides

    return factory


def test_require_evals_refuses_a_significant_regression(db, capsys, monkeypatch) -> None:
    run(capsys, "--db", db, "publish", REG, "--semver", "1.0.0")
    monkeypatch.setattr(gates, "runner_sides", _fake_runner(broken=12))
    code, out, err = run(capsys, "--db", db, "publish", REG, "--require-evals", "core",
                         "--profile", "gpt")  # fmt: skip
    assert code == EXIT_PUBLISH_REFUSED
    assert f"{REG}@draft vs {REG}@1: 100.0 % → 70.0 %" in out and "— worse" in out
    assert f"not published: the draft is significantly worse than {REG}@1" in err
    monkeypatch.setattr(gates, "runner_sides", _fake_runner(broken=1))
    code, out, _ = run(capsys, "--db", db, "publish", REG, "--require-evals", "core",
                       "--profile", "gpt")  # fmt: skip
    assert code == 0 and "no detectable difference" in out
    evals = _review(db, 2)["evals"]
    assert evals["verdict"] == "no detectable difference" and evals["broken"] == 1
    assert evals["set"] == "core" and evals["profile"] == "gpt"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--require-evals", "core"), "--require-evals needs --profile P"),
        (("--profile", "gpt"), "--profile is for --require-evals SET"),
        (("--require-evals", "nope", "--profile", "gpt"), "has no eval set 'nope'"),
    ],
)
def test_gate_options_bad_input(db, capsys, argv, message) -> None:
    run(capsys, "--db", db, "publish", REG)
    code, _, err = run(capsys, "--db", db, "publish", REG, *argv)
    assert code == 2 and message in err


def test_behavioural_changes_are_counted_and_listed_under_fail_on_behavioural(db, capsys) -> None:
    run(capsys, "--db", db, "publish", REG, "--semver", "1.0.0")
    with RegistryStore.open(db) as store:
        draft = store.draft_registry(REG)
        tools = tuple(dataclasses.replace(t, summary=t.summary + " 新") for t in draft.tools)
        store.replace_draft(REG, dataclasses.replace(draft, tools=tools))
    code, out, _ = run(capsys, "--db", db, "publish", REG, "--fail-on", "breaking")
    assert code == 0 and "  behavioural: desc.summary-changed ×4" in out
    assert "suggested semver: 1.1.0 — minor (desc.summary-changed)" in out
    with RegistryStore.open(db) as store:
        draft = store.draft_registry(REG)
        tools = tuple(dataclasses.replace(t, summary=t.summary + "!") for t in draft.tools)
        store.replace_draft(REG, dataclasses.replace(draft, tools=tools))
    code, out, err = run(capsys, "--db", db, "publish", REG, "--fail-on", "behavioural")
    assert code == EXIT_REVIEW_REFUSED and out.count("  behavioural desc.summary-changed") == 4
    assert "4 behavioural-or-worse change(s) not acknowledged" in err
    code, _, _ = run(capsys, "--db", db, "publish", REG, "--fail-on", "behavioural",
                     "--ack", "desc.summary-changed")  # fmt: skip
    assert code == 0 and len(_review(db, 3)["acknowledged"]) == 4
