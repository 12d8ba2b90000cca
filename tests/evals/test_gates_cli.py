"""``studio diff --evals`` and ``studio channel promote --require-evals`` with a stand-in runner."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.evals import gates
from studio.evals.gates import EXIT_PROMOTE_REFUSED, EXIT_REGRESSION, Side
from studio.evals.results import Attempt
from tests.evals.synthetic import attempt

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
REG = "travel-reimbursement"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stand_in(broken: int, calls: list | None = None):  # type: ignore[no-untyped-def]
    """runner_sides' stand-in: B fails ``broken`` of 40 cases A passes; records what ran."""

    def factory(store, registry, set_name, profile, **options):  # type: ignore[no-untyped-def]
        def run_sides(sides: Sequence[Side]) -> list[Attempt]:
            (a, _), (b, _) = sides
            if calls is not None:
                calls.append((set_name, profile, a, b))
            out = [attempt(f"c{i}", variant=a) for i in range(40)]
            return out + [attempt(f"c{i}", variant=b, passed=i >= broken) for i in range(40)]

        return run_sides

    return factory


@pytest.fixture
def db(tmp_path: Path, capsys) -> str:
    """travel-reimbursement with v1, and a draft whose first tool's summary was reworded."""
    path = str(tmp_path / "studio.sqlite3")
    assert run(capsys, "--db", path, "import", str(EXAMPLES / f"{REG}.json"))[0] == 0
    assert run(capsys, "--db", path, "publish", REG, "--semver", "1.0.0")[0] == 0
    with RegistryStore.open(path) as store:
        draft = store.draft_registry(REG)
        first = dataclasses.replace(draft.tools[0], summary="Looks things up.")
        store.replace_draft(REG, dataclasses.replace(draft, tools=(first, *draft.tools[1:])))
    return path


def test_diff_with_evals_adds_the_behavioural_section(db, capsys, monkeypatch) -> None:
    calls: list = []
    monkeypatch.setattr(gates, "runner_sides", stand_in(12, calls))
    code, out, _ = run(capsys, "--db", db, "diff", REG, "1", "draft", "--evals", "core",
                       "--profile", "gpt", "--lint-profile", "none")  # fmt: skip
    assert code == 0
    assert calls == [("core", "gpt", f"{REG}@v1", f"{REG}@draft")]
    section = out[out.index("Behaviour (eval set):") :]
    assert f"{REG}@draft vs {REG}@v1: 100.0 % → 70.0 %" in section and "— worse" in section
    assert "  broken c0 " in section
    assert "bump treats this as compatible, but it broke 12 case(s)" in section
    code, _, _ = run(capsys, "--db", db, "diff", REG, "1", "draft", "--evals", "core",
                     "--profile", "gpt", "--fail-on", "behavioural")  # fmt: skip
    assert code == EXIT_REGRESSION


def test_diff_with_evals_as_json_and_markdown(db, capsys, monkeypatch) -> None:
    monkeypatch.setattr(gates, "runner_sides", stand_in(1))
    code, out, _ = run(capsys, "--db", db, "diff", REG, "1", "draft", "--evals", "core",
                       "--profile", "gpt", "--format", "json")  # fmt: skip
    behaviour = json.loads(out)["behaviour"]
    assert code == 0 and behaviour["verdict"] == "no detectable difference"
    assert behaviour["broken"] == 1 and "not significant" in behaviour["semver_note"]
    md = ("--format", "md", "--fail-on", "behavioural")
    code, out, _ = run(capsys, "--db", db, "diff", REG, "1", "draft", "--evals", "core",
                       "--profile", "gpt", *md)  # fmt: skip
    assert code == 1  # the reworded summary is behavioural; the evals found no regression
    assert "## Behaviour (eval set)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--evals", "core"), "--evals needs --profile P"),
        (("--profile", "gpt"), "--profile 'gpt' is not a lint profile"),
        (("--evals", "nope", "--profile", "gpt"), "has no eval set 'nope'"),
    ],
)
def test_diff_evals_bad_input(db, capsys, argv, message) -> None:
    code, _, err = run(capsys, "--db", db, "diff", REG, "1", "draft", *argv)
    assert code == 2 and message in err


def test_diff_without_evals_keeps_profile_as_the_lint_profile(db, capsys) -> None:
    code, out, _ = run(capsys, "--db", db, "diff", REG, "1", "draft", "--profile", "none")
    assert code == 0 and "Behaviour" not in out


def test_promote_requires_the_canarys_eval_result(db, capsys, monkeypatch) -> None:
    assert run(capsys, "--db", db, "publish", REG)[0] == 0
    assert run(capsys, "--db", db, "channel", REG, "set", "canary", "--version", "2",
               "--share", "10")[0] == 0  # fmt: skip
    calls: list = []
    monkeypatch.setattr(gates, "runner_sides", stand_in(12, calls))
    code, out, err = run(capsys, "--db", db, "channel", REG, "promote",
                         "--require-evals", "core", "--profile", "gpt")  # fmt: skip
    assert code == EXIT_PROMOTE_REFUSED
    assert calls == [("core", "gpt", f"{REG}@1#stable", f"{REG}@2#canary")]
    assert "not promoted: v2 is significantly worse than stable v1" in err
    code, out, _ = run(capsys, "--db", db, "channel", REG, "show")
    assert out.startswith("stable\tv1\t")
    monkeypatch.setattr(gates, "runner_sides", stand_in(0))
    code, out, _ = run(capsys, "--db", db, "channel", REG, "promote",
                       "--require-evals", "core", "--profile", "gpt")  # fmt: skip
    assert code == 0 and "stable\tv2" in out


def test_promote_gate_bad_input(db, capsys) -> None:
    code, _, err = run(capsys, "--db", db, "channel", REG, "promote", "--require-evals", "core")
    assert code == 2 and "--require-evals needs --profile P" in err
    code, _, err = run(capsys, "--db", db, "channel", REG, "promote", "--profile", "gpt")
    assert code == 2 and "--profile is for --require-evals SET" in err
