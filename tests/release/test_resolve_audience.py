"""Permission-scoped resolve (issue #17): ``studio resolve --role --scenario``, ``?role=``.

A real SQLite file, a real server on 127.0.0.1: a narrow audience gets fewer
tools (and fewer tokens), ``choice`` keeps the full list and restricts the
provider's choice, and each audience has its own cached answer and ETag.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from registry_db import RegistryStore, UpsertTool
from studio.cli import main
from studio.contract import Permission, RiskTier, ToolContract
from studio.contract.tokens import estimate_tokens
from studio.server import ServerThread

REGISTRY = "expenses"


def _tool(name: str, *perms: tuple[str, str]) -> ToolContract:
    return ToolContract(
        name=name,
        summary=f"Does {name.replace('_', ' ')} for the expense desk.",
        parameters={"type": "object", "properties": {"id": {"type": "string"}}},
        risk=RiskTier.READ,
        permissions=tuple(Permission(r, s) for r, s in perms),
    )


TOOLS = [
    _tool("submit_claim", ("employee", "reimbursement")),
    _tool("approve_claim", ("manager", "reimbursement")),
    _tool("list_policies"),  # open to everyone
    _tool("export_ledger", ("finance", "*")),
    _tool("query_claims_zh", ("员工", "报销")),
]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    path = tmp_path / "audience.sqlite3"
    with RegistryStore.open(path) as store:
        store.create_registry(REGISTRY, title="Expenses")
        store.save_draft(REGISTRY, [UpsertTool(t) for t in TOOLS])
        store.publish(REGISTRY, notes="v1", semver="1.0.0")
    yield str(path)


def _resolve(db: str, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:
    code = main(["--db", db, "resolve", REGISTRY, *args])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


def _names(tools: list) -> list[str]:
    return [t["function"]["name"] for t in tools]


def test_cli_role_and_scenario_send_only_the_permitted_tools(db: str, capsys) -> None:
    code, full, _ = _resolve(db, capsys)
    assert code == 0 and len(full["tools"]) == 5 and "audience" not in full
    code, doc, err = _resolve(db, capsys, "--role", "employee", "--scenario", "reimbursement")
    assert code == 0
    assert _names(doc["tools"]) == ["submit_claim", "list_policies"]
    assert doc["audience"]["allowed"] == ["submit_claim", "list_policies"]
    assert doc["audience"]["of"] == 5
    assert "2 of 5 tools" in err
    # Fewer tools, fewer tokens.
    assert (
        estimate_tokens(json.dumps(doc["tools"])) < estimate_tokens(json.dumps(full["tools"])) / 2
    )
    code, doc, _ = _resolve(db, capsys, "--role", "finance", "--scenario", "audit")
    assert _names(doc["tools"]) == ["list_policies", "export_ledger"]
    code, doc, _ = _resolve(db, capsys, "--role", "员工", "--scenario", "报销")
    assert _names(doc["tools"]) == ["list_policies", "query_claims_zh"]


def test_cli_choice_keeps_every_tool_and_restricts_the_choice(db: str, capsys) -> None:
    args = ("--role", "employee", "--scenario", "reimbursement", "--restrict", "choice")
    code, doc, _ = _resolve(db, capsys, *args)
    assert code == 0 and len(doc["tools"]) == 5
    choice = doc["tool_choice"]
    assert choice["type"] == "allowed_tools"
    named = [t["function"]["name"] for t in choice["allowed_tools"]["tools"]]
    assert named == ["submit_claim", "list_policies"]
    code, doc, _ = _resolve(db, capsys, *args, "--format", "gemini")
    config = doc["toolConfig"]["functionCallingConfig"]
    assert config["allowedFunctionNames"] == ["submit_claim", "list_policies"]
    assert config["mode"] == "VALIDATED"
    code, doc, _ = _resolve(db, capsys, *args, "--format", "anthropic")
    assert [t["name"] for t in doc["tools"]] == ["submit_claim", "list_policies"]
    assert "no allowed-tools choice" in doc["audience"]["notes"][0]


def test_cli_bad_audience_options_are_one_line(db: str, capsys) -> None:
    code, _, err = _resolve(db, capsys, "--restrict", "choice")
    assert code == 2 and "--restrict needs" in err and "Traceback" not in err
    code, _, err = _resolve(db, capsys, "--role", "x", "--restrict", "choice", "--format", "mcp")
    assert code == 2 and "restrict=choice needs a provider format" in err


@pytest.fixture
def http(db: str) -> Iterator[httpx.Client]:
    store = RegistryStore.open(db)
    server = ServerThread(store, token=None).start()
    try:
        with httpx.Client(base_url=server.url) as client:
            yield client
    finally:
        server.stop()
        store.close()


def test_endpoint_role_and_scenario(http: httpx.Client) -> None:
    url = f"/v1/registries/{REGISTRY}/resolve"
    full = http.get(url)
    narrow = http.get(url, params={"role": "employee", "scenario": "reimbursement"})
    assert full.status_code == narrow.status_code == 200
    assert _names(narrow.json()["tools"]) == ["submit_claim", "list_policies"]
    assert len(full.json()["tools"]) == 5
    assert narrow.headers["etag"] != full.headers["etag"]
    # Another audience is not served the first one's cached answer.
    manager = http.get(url, params={"role": "manager", "scenario": "reimbursement"})
    assert _names(manager.json()["tools"]) == ["approve_claim", "list_policies"]
    assert manager.headers["etag"] != narrow.headers["etag"]
    again = http.get(url, params={"role": "employee", "scenario": "reimbursement"},
                     headers={"If-None-Match": narrow.headers["etag"]})  # fmt: skip
    assert again.status_code == 304
    zh = http.get(url, params={"role": "员工", "scenario": "报销"})
    assert _names(zh.json()["tools"]) == ["list_policies", "query_claims_zh"]
    choice = http.get(url, params={"role": "employee", "scenario": "reimbursement",
                                   "restrict": "choice", "format": "openai-responses"})  # fmt: skip
    body = choice.json()
    assert len(body["tools"]) == 5
    assert [t["name"] for t in body["tool_choice"]["tools"]] == ["submit_claim", "list_policies"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"restrict": "choice"}, "restrict needs role"),
        ({"role": "a", "restrict": "sometimes"}, "restrict must be filter or choice"),
        ({"role": "a", "restrict": "choice", "format": "mcp"}, "needs a provider format"),
    ],
)
def test_endpoint_bad_audience_is_400(http: httpx.Client, params: dict, message: str) -> None:
    answer = http.get(f"/v1/registries/{REGISTRY}/resolve", params=params)
    assert answer.status_code == 400
    assert message in answer.json()["error"]["message"]


def test_the_export_cache_stays_bounded_under_many_audiences(db: str) -> None:
    from studio.release.resolve import AudienceQuery, VersionCache

    with RegistryStore.open(db) as store:
        cache = VersionCache()
        for i in range(1100):
            cache.tools(store, REGISTRY, 1, "openai", AudienceQuery(f"role-{i}", "x"))
        assert len(cache._exports) <= 1024
        value = cache.tools(
            store, REGISTRY, 1, "openai", AudienceQuery("employee", "reimbursement")
        )
        assert value["audience"]["allowed"] == ["submit_claim", "list_policies"]
