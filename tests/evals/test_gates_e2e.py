"""The gates through the whole stack: the eval runner, the providers, a loopback model server.

The loopback server picks tools by the overlap of the prompt with each tool's
name and description, so the example's rich descriptions beat a terse,
overlapping rewrite of them — and a publish that goes back to the terse
descriptions is refused, the way CI would see it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from registry_db import RegistryStore, seed_examples
from registry_db.profiles import ProfileRepository
from studio.cli import main
from studio.evals.gates import EXIT_PROMOTE_REFUSED, EXIT_PUBLISH_REFUSED, EXIT_REGRESSION
from studio.providers import ModelParams, ModelProfile, ProviderKind
from tests.evals.loopback_model import Behaviour, LoopbackModel

REG = "travel-reimbursement"
TERSE = {
    "search_policy": "Search data.",
    "query_invoices": "Query records.",
    "query_tickets": "Query records.",
    "create_reimbursement_ticket": "Create a record.",
}


def terse(registry):  # type: ignore[no-untyped-def]
    tools = tuple(
        dataclasses.replace(
            t, title="", summary=TERSE[t.name], usage="", preconditions="", returns="",
            errors=(), examples=(), description="",
        )
        for t in registry.tools
    )  # fmt: skip
    return dataclasses.replace(registry, tools=tools)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def server() -> Iterator[LoopbackModel]:
    with LoopbackModel(Behaviour(seed=3)) as model:
        yield model


@pytest.fixture
def db(tmp_path: Path, server: LoopbackModel, monkeypatch) -> Iterator[str]:
    """v1 = terse descriptions; the draft = the example's rich ones; a loopback profile."""
    monkeypatch.setenv("H4_LOOPBACK_KEY", "not-a-real-key")
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        seed_examples(store)  # v1 is the example's flawed original: terse, overlapping
        ProfileRepository(store).add(
            ModelProfile(
                "loop",
                ProviderKind.OPENAI_CHAT,
                server.base_url,
                "loopback",
                "H4_LOOPBACK_KEY",
                ModelParams(stream=True),
            )
        )
    yield str(path)


def test_publish_gate_passes_a_better_draft_and_refuses_going_back(db, capsys, server) -> None:
    code, out, _ = run(capsys, "--db", db, "publish", REG, "--require-evals", "core",
                       "--profile", "loop")  # fmt: skip
    assert code == 0, out
    assert f"{REG}@draft vs {REG}@1" in out and "— better" in out
    with RegistryStore.open(db) as store:
        evals = store.list_versions(REG)[-1].review["evals"]  # type: ignore[index]
        assert evals["verdict"] == "better" and evals["fixed"] > evals["broken"]
        store.replace_draft(REG, store.load_version(REG, 1).registry)  # back to the original
    sent = len(server.received)
    code, out, err = run(capsys, "--db", db, "publish", REG, "--require-evals", "core",
                         "--profile", "loop")  # fmt: skip
    assert code == EXIT_PUBLISH_REFUSED, out + err
    assert "— worse" in out and f"significantly worse than {REG}@2" in err
    # v2 and the terse draft were both asked before (as draft and as v1): all from the cache.
    assert len(server.received) == sent
    with RegistryStore.open(db) as store:
        assert len(store.list_versions(REG)) == 2


def test_diff_behavioural_section_and_a_report_of_the_stored_run(db, capsys) -> None:
    code, out, _ = run(capsys, "--db", db, "diff", REG, "draft", "1", "--evals", "core",
                       "--profile", "loop", "--lint-profile", "none", "--fail-on",
                       "behavioural")  # fmt: skip
    assert code == EXIT_REGRESSION
    assert f"{REG}@v1 vs {REG}@draft" in out and "— worse" in out
    with RegistryStore.open(db) as store:
        from studio.evals.runs import list_runs

        run_id = list_runs(store, REG)[0].run_id
    code, out, _ = run(capsys, "--db", db, "eval", "report", run_id, "--format", "json")
    data = json.loads(out)
    assert code == 0 and {g["variant"] for g in data["groups"]} == {f"{REG}@draft", f"{REG}@v1"}
    assert data["comparison"]["verdict"] == "worse"
    groups = {g["variant"]: g for g in data["groups"]}
    draft, v1 = groups[f"{REG}@draft"], groups[f"{REG}@v1"]
    assert [g["variant"] for g in data["groups"]] == [f"{REG}@draft", f"{REG}@v1"]  # A, B
    assert draft["selection"] > v1["selection"] and draft["cost"]["tokens_in_per_case"] > 0
    code, out, _ = run(capsys, "--db", db, "eval", "report", run_id, "--format", "junit",
                       "--fail-on", "regression")  # fmt: skip
    assert code == EXIT_REGRESSION
    root = ET.fromstring(out)
    assert len(root.findall("testsuite")) == 2 and root.findall(".//failure")


def test_promote_gate_refuses_a_worse_canary_through_the_runner(db, capsys) -> None:
    with RegistryStore.open(db) as store:
        store.publish(REG, notes="rich", semver="1.1.0")  # v2: the rich descriptions
        store.replace_draft(REG, terse(store.draft_registry(REG)))
        store.publish(REG, notes="terse again", semver="1.2.0")  # v3
    assert run(capsys, "--db", db, "channel", REG, "set", "stable", "--version", "2")[0] == 0
    assert run(capsys, "--db", db, "channel", REG, "set", "canary", "--version", "3",
               "--share", "10")[0] == 0  # fmt: skip
    code, out, err = run(capsys, "--db", db, "channel", REG, "promote",
                         "--require-evals", "core", "--profile", "loop")  # fmt: skip
    assert code == EXIT_PROMOTE_REFUSED, out + err
    assert f"{REG}@3#canary vs {REG}@2#stable" in out and "— worse" in out
    assert "details: studio eval report " in out
    run_id = out.split("details: studio eval report ")[1].split()[0]
    code, out, _ = run(capsys, "--db", db, "eval", "report", run_id, "--format", "md")
    assert code == 0 and f"**{REG}@3#canary vs {REG}@2#stable" in out
    code, out, _ = run(capsys, "--db", db, "channel", REG, "show")
    assert out.startswith("stable\tv2\t")
