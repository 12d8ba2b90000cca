"""From the CLI: studio import of skills and agent cards, lint, publish, diff, export, run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.skills.package import read_skill_folder, write_skills_zip
from tests.agents.a2a_server import running_agent
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"
SKILL = EXAMPLES / "skills" / "travel-reimbursement"
CARD = EXAMPLES / "agents" / "expense-audit.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "studio.sqlite3"
    tools = tmp_path / "tools.json"
    # The example's tools only (the bundled example may carry skills too).
    import dataclasses
    import json

    from studio.contract import parse_registry
    from studio.contract.document import registry_to_dict

    registry = parse_registry(json.loads((EXAMPLES / "travel-reimbursement.json").read_text()))
    plain = dataclasses.replace(registry, skills=(), agents=())
    tools.write_text(json.dumps(registry_to_dict(plain), ensure_ascii=False))
    assert run(capsys, "--db", str(path), "import", str(tools))[0] == 0
    return path


def test_import_skills_folder_zip_and_card(db: Path, tmp_path: Path, capsys) -> None:
    code, out, _ = run(
        capsys, "--db", str(db), "import", str(SKILL), "--registry", "travel-reimbursement"
    )
    assert code == 0, out
    assert "added 1 skill(s) to travel-reimbursement: travel-reimbursement — catalogue" in out
    write_skills_zip([read_skill_folder(SKILL)], tmp_path / "skills.zip")
    code, out, _ = run(
        capsys, "--db", str(db), "import", str(tmp_path / "skills.zip"), "--registry", "other"
    )
    assert code == 0 and "created registry other" in out
    code, out, _ = run(
        capsys, "--db", str(db), "import", str(CARD), "--registry", "travel-reimbursement"
    )
    assert code == 0 and "added remote agent expense-audit-agent" in out
    with RegistryStore.open(db) as store:
        draft = store.draft_registry("travel-reimbursement")
    assert [s.name for s in draft.skills] == ["travel-reimbursement"]
    assert [a.name for a in draft.agents] == ["expense-audit-agent"]


def test_import_card_from_url(db: Path, capsys) -> None:
    with running_agent() as base:
        code, out, _ = run(
            capsys, "--db", str(db), "import", "--url", base, "--registry", "travel-reimbursement"
        )
    assert code == 0 and f"{base}/a2a (streaming;" in out


def test_bad_input_is_one_line(db: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad-skill"
    bad.mkdir()
    (bad / "SKILL.md").write_bytes(b"---\nname: bad-skill\ndescription: \xff\n---\n")
    code, _, err = run(
        capsys, "--db", str(db), "import", str(bad), "--registry", "travel-reimbursement"
    )
    assert code == 2
    assert err.strip().count("\n") == 0 and "bad-skill/SKILL.md:3: not UTF-8" in err
    code, _, err = run(capsys, "--db", str(db), "import", str(SKILL))
    assert code == 2 and "--registry NAME" in err
    code, _, err = run(
        capsys, "--db", str(db), "import", "--url", "http://127.0.0.1:9", "--registry", "x"
    )
    assert code == 2 and "cannot fetch the Agent Card" in err


def test_lint_publish_diff_export(db: Path, tmp_path: Path, capsys) -> None:
    reg = "travel-reimbursement"
    run(capsys, "--db", str(db), "import", str(SKILL), "--registry", reg)
    run(capsys, "--db", str(db), "import", str(CARD), "--registry", reg)
    code, out, _ = run(capsys, "--db", str(db), "lint", reg, "--fail-on", "never")
    assert "skill-catalogue-cost" in out and "tokens resident" in out
    assert run(capsys, "--db", str(db), "publish", reg, "--notes", "skills")[0] == 0
    # plant a dangling reference and a description change in the draft
    edited = tmp_path / "travel-reimbursement"
    shutil.copytree(SKILL, edited)
    text = (edited / "SKILL.md").read_text(encoding="utf-8")
    text = text.replace("不处理采购报销", "也处理采购报销") + "\n再用 `query_budget` 查预算。\n"
    (edited / "SKILL.md").write_text(text, encoding="utf-8")
    run(capsys, "--db", str(db), "import", str(edited), "--registry", reg)
    code, out, _ = run(capsys, "--db", str(db), "lint", reg, "--fail-on", "never")
    assert "'query_budget', which is not a tool of this registry" in out
    code, out, _ = run(capsys, "--db", str(db), "diff", reg, "1", "draft")
    assert "skill.description-changed" in out or "description (how the model chooses it)" in out
    assert "[-不-]{+也+}" in out
    code, out, _ = run(
        capsys,
        "--db",
        str(db),
        "export",
        reg,
        "--version",
        "1",
        "--format",
        "dir",
        "--out",
        str(tmp_path / "repo"),
    )
    assert code == 0
    assert (tmp_path / "repo/skills/travel-reimbursement/SKILL.md").read_bytes() == (
        SKILL / "SKILL.md"
    ).read_bytes()
    assert (tmp_path / "repo/agents/expense-audit-agent.json").exists()


def test_run_loads_the_skill_and_delegates(db: Path, capsys, monkeypatch) -> None:
    reg = "travel-reimbursement"
    monkeypatch.setenv("SCRIPTED_KEY", "sk-test")
    run(capsys, "--db", str(db), "import", str(SKILL), "--registry", reg)
    with running_agent() as base:
        run(capsys, "--db", str(db), "import", "--url", base, "--registry", reg)
        turns = [
            Turn(tool_calls=[ToolCall("load_skill", '{"name": "travel-reimbursement"}')]),
            Turn(
                tool_calls=[
                    ToolCall("delegate_to_expense_audit_agent", '{"message": "审核 INV-102"}')
                ]
            ),
            Turn(text="审核需要项目编号，请提供。"),
        ]
        with ScriptedServer(turns) as server:
            assert main(["profiles", "add", "scripted", "--kind", "openai-chat", "--base-url",
                         server.base_url + "/v1", "--model", "m", "--api-key-env", "SCRIPTED_KEY",
                         "--db", str(db)]) == 0  # fmt: skip
            capsys.readouterr()
            code, out, _ = run(
                capsys,
                "run",
                reg,
                "--profile",
                "scripted",
                "--prompt",
                "帮我报销打车超标",
                "--db",
                str(db),
            )
    assert code == 0, out
    assert "load_skill" in out
    assert "a2a expense-audit-agent: input-required — 请提供这笔报销的项目编号" in out


def test_skills_command_lists_and_measures(db: Path, capsys) -> None:
    reg = "travel-reimbursement"
    run(capsys, "--db", str(db), "import", str(SKILL), "--registry", reg)
    run(capsys, "--db", str(db), "import", str(CARD), "--registry", reg)
    code, out, _ = run(capsys, "--db", str(db), "skills", reg)
    assert code == 0
    assert out.startswith("skill\ttravel-reimbursement\t处理差旅费用报销")
    assert "agent\texpense-audit-agent\t" in out
    assert "tokens resident" in out and "without progressive disclosure" in out
    code, _, err = run(capsys, "--db", str(db), "skills", "nope")
    assert code == 2 and "does not exist" in err


def test_a_name_that_could_leave_its_folder_is_refused(db: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "evil"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: ../evil\ndescription: d\n---\n", encoding="utf-8")
    code, _, err = run(
        capsys, "--db", str(db), "import", str(bad), "--registry", "travel-reimbursement"
    )
    assert code == 2 and "cannot be stored" in err
