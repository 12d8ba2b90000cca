"""``studio eval compare`` / ``studio eval report`` on runs stored in a real database."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from registry_db import RegistryStore, StoreError, seed_examples
from registry_db.eval_runs import EvalRunStore
from studio.cli.common import UsageError
from studio.cli.evals_compare import add_parsers
from studio.evals.gates import EXIT_BROKEN, EXIT_REGRESSION
from studio.evals.runs import attempt_row
from tests.evals.synthetic import attempt


def _store_run(store: RegistryStore, run_id: str, attempts: list) -> None:
    runs = EvalRunStore.for_store(store)
    runs.open_run(run_id, "travel-reimbursement", "core", {"repeat": 1})
    runs.put_attempts(run_id, [attempt_row(a) for a in attempts])


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "studio.sqlite3"
    store = RegistryStore.open(path)
    seed_examples(store)
    # Run "ab": B fixes 20 cases and breaks none (significant); run "worse": B breaks 15.
    ab = []
    worse = []
    for i in range(40):
        ab.append(attempt(f"c{i}", variant="travel@1", passed=i >= 20, run_id="ab"))
        ab.append(attempt(f"c{i}", variant="travel@draft", run_id="ab"))
        worse.append(attempt(f"c{i}", variant="A", run_id="worse"))
        worse.append(attempt(f"c{i}", variant="B", passed=i >= 15, run_id="worse"))
    _store_run(store, "ab", ab)
    _store_run(store, "worse", worse)
    _store_run(store, "only-a", [x for x in worse if x.variant == "A"])
    _store_run(store, "only-b", [x for x in worse if x.variant == "B"])
    store.close()
    return path


def cli(db: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Parse with the module's own parsers (as ``studio eval`` wires them) and run the handler."""
    common = argparse.ArgumentParser(add_help=False)
    parser = argparse.ArgumentParser(prog="studio eval")
    add_parsers(parser.add_subparsers(dest="eval_command", required=True), common)
    args = parser.parse_args(list(argv))
    store = RegistryStore.open(db)
    try:
        code = args.handler(store, args)
    except (UsageError, StoreError) as exc:
        print(f"studio: {exc}", file=__import__("sys").stderr)
        code = 2
    finally:
        store.close()
    out, err = capsys.readouterr()
    return code, out, err


def test_report_of_a_two_variant_run_is_better_and_passes_the_gate(db, capsys) -> None:
    code, out, _ = cli(db, capsys, "report", "ab", "--fail-on", "regression")
    assert code == 0
    assert out.startswith("travel-reimbursement/core · run ab\n")
    assert "travel@draft vs travel@1: 50.0 % → 100.0 %" in out and "— better" in out


def test_regression_and_broken_have_their_own_exit_codes(db, capsys) -> None:
    code, out, _ = cli(db, capsys, "compare", "--run", "worse", "--fail-on", "regression")
    assert code == EXIT_REGRESSION and "— worse" in out
    code, _, _ = cli(db, capsys, "compare", "--run", "worse", "--fail-on", "broken")
    assert code == EXIT_BROKEN
    code, _, _ = cli(db, capsys, "compare", "--run", "worse", "--a", "B", "--b", "A",
                     "--fail-on", "regression")  # fmt: skip
    assert code == 0
    code, _, _ = cli(db, capsys, "compare", "--run", "worse")
    assert code == 0  # --fail-on never


def test_compare_two_runs_writes_junit_to_a_file(db, tmp_path, capsys) -> None:
    out_file = tmp_path / "report.xml"
    code, out, err = cli(db, capsys, "compare", "only-a", "only-b", "--format", "junit",
                         "--output", str(out_file), "--fail-on", "broken")  # fmt: skip
    assert code == EXIT_BROKEN and out == "" and f"wrote {out_file}" in err
    root = ET.parse(out_file).getroot()
    failures = root.findall(".//failure")
    assert len(failures) == 15


def test_json_and_html_formats_and_a_price(db, capsys) -> None:
    code, out, _ = cli(db, capsys, "report", "ab", "--format", "json", "--price", "loopback=1/4")
    data = json.loads(out)
    assert code == 0 and data["comparison"]["fixed"] == 20
    assert data["groups"][0]["cost"]["per_case"] == pytest.approx((100 + 80) / 1e6)
    code, out, _ = cli(db, capsys, "report", "ab", "--format", "html")
    assert code == 0 and out.count("<svg") == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("report", "nope"), "eval run 'nope' does not exist"),
        (("compare", "ab"), "compare needs RUN_A RUN_B, or --run RUN"),
        (("compare", "--run", "ab", "ab"), "either --run RUN or RUN_A RUN_B"),
        (("compare", "--run", "ab", "--a", "v9", "--b", "travel@1"), "variant 'v9' is not in"),
        (("compare", "ab", "worse"), "run ab has 2 variants"),
        (("report", "ab", "--price", "x"), "--price: a price is PROFILE=IN/OUT"),
        (("report", "ab", "--output", "/nonexistent/dir/r.txt"), "cannot write /nonexistent"),
    ],
)
def test_bad_input_is_one_line(db, capsys, argv, message) -> None:
    code, _, err = cli(db, capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_run_is_split_in_its_configured_order_and_roles_name_the_sides(db, capsys) -> None:
    config = {"variants": [{"name": "A", "spec": "1", "label": "travel@1"},
                           {"name": "B", "spec": "draft", "label": "travel@draft"}]}  # fmt: skip
    attempts = []
    for i in range(30):  # B's answers arrive first, as they can with concurrency
        attempts.append(attempt(f"c{i}", variant="travel@draft", run_id="ordered"))
        attempts.append(attempt(f"c{i}", variant="travel@1", passed=i >= 15, run_id="ordered"))
    store = RegistryStore.open(db)
    runs = EvalRunStore.for_store(store)
    runs.open_run("ordered", "travel-reimbursement", "core", config)
    runs.put_attempts("ordered", [attempt_row(a) for a in attempts])
    store.close()
    code, out, _ = cli(db, capsys, "report", "ordered")
    assert code == 0 and "travel@draft vs travel@1: 50.0 % → 100.0 %" in out
    code, out, _ = cli(db, capsys, "compare", "--run", "ordered", "--a", "B", "--b", "A",
                       "--fail-on", "regression")  # fmt: skip
    assert code == EXIT_REGRESSION and "travel@1 vs travel@draft" in out


def test_two_runs_of_the_same_variant_are_told_apart_by_run_id(db, capsys) -> None:
    store = RegistryStore.open(db)
    runs = EvalRunStore.for_store(store)
    for run_id, passes in (("before", 10), ("after", 30)):
        runs.open_run(run_id, "travel-reimbursement", "core", {})
        rows = [attempt(f"c{i}", variant="t@draft", passed=i < passes, run_id=run_id)
                for i in range(30)]  # fmt: skip
        runs.put_attempts(run_id, [attempt_row(a) for a in rows])
    store.close()
    code, out, _ = cli(db, capsys, "compare", "before", "after")
    assert code == 0
    assert "t@draft (run after) vs t@draft (run before): 33.3 % → 100.0 %" in out
    assert "t@draft (run before) · loopback" in out and "t@draft (run after) · loopback" in out


def test_runs_lists_the_registrys_runs(db, capsys) -> None:
    code, out, _ = cli(db, capsys, "runs", "travel-reimbursement")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert {line.split("\t")[0] for line in lines} == {"ab", "worse", "only-a", "only-b"}
    assert "\tcore\trunning\t80 attempts\t" in out
    code, out, _ = cli(db, capsys, "runs", "order-service")
    assert code == 0 and out.startswith("order-service has no eval runs")
    code, _, err = cli(db, capsys, "runs", "nope")
    assert code == 2 and "nope" in err
