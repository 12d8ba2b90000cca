"""``studio mcp pull``: servers we did not write and our own, over stdio and streamable HTTP."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from registry_db import RegistryStore
from studio.contract import RiskTier
from studio.mcp.client import HttpTarget, PullError, StdioTarget, list_server_tools
from studio.mcp.mapping import SOURCE_KEY

from .pull_helpers import (
    bearer_required,
    everything_server_command,
    http_server,
    own_server_command,
    studio,
    time_server_command,
    write_tools,
)
from .pull_server import build_server

OUTPUT = {
    "type": "object",
    "properties": {"status": {"type": "string"}, "ticket_id": {"type": "string"}},
    "required": ["ticket_id"],
}
TOOLS: list[dict[str, Any]] = [
    {
        "name": "query_tickets",
        "title": "Query tickets",
        "description": "Has my claim been filed, and where is it? Returns the ticket status.",
        "inputSchema": {
            "type": "object",
            "properties": {"ticket_id": {"type": "string", "x-mcp-header": "Ticket-Id"}},
            "required": ["ticket_id"],
        },
        "outputSchema": OUTPUT,
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "icons": [{"src": "https://example.com/ticket.svg", "mimeType": "image/svg+xml"}],
        "execution": {"taskSupport": "optional"},
        "_meta": {"com.example/team": "finance"},
    },
    {
        "name": "create_reimbursement_ticket",
        "description": "File a reimbursement ticket for an invoice over the policy limit.",
        "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
    },
    {
        "name": "search_policy",
        "description": "Search the travel policy (clause 4.2: taxi limit 80).",
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}},
    },
]


def _registry(db: Path, name: str) -> Any:
    with RegistryStore.open(db) as store:
        return store.draft_registry(name)


# ---------------------------------------------------------------------------- real servers


def test_pull_mcp_server_time_over_stdio(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    db = tmp_path / "pull.sqlite3"
    code, out, err = studio(capsys, db, "mcp", "pull", "--stdio", time_server_command())
    assert code == 0, err
    assert "pulled mcp-time: 2 tools" in out
    assert "mcp: starting" in err and "mcp: listing page 1" in err
    registry = _registry(db, "mcp-time")
    tool = registry.tool("get_current_time")
    assert tool is not None and tool.risk is RiskTier.READ
    assert tool.description.startswith("Get current time")
    assert tool.parameters["required"] == ["timezone"]
    assert tool.output_schema is not None and "datetime" in tool.output_schema["properties"]
    assert tool.annotations["openWorldHint"] is False  # kept: the tier does not imply it
    source = registry.settings.extra[SOURCE_KEY]
    assert source["server"]["name"] == "mcp-time"
    assert source["protocol_version"] == "2026-07-28"
    assert source["transport"] == "stdio"


def test_pull_server_everything_over_the_handshake_era(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "pull.sqlite3"
    command = everything_server_command()
    code, _, err = studio(capsys, db, "mcp", "pull", "--stdio", command, "--registry", "every")
    assert code == 0, err
    registry = _registry(db, "every")
    names = [t.name for t in registry.tools]
    assert "echo" in names and len(names) >= 10
    source = registry.settings.extra[SOURCE_KEY]
    assert source["server"]["name"] == "mcp-servers/everything"
    assert source["protocol_version"] == "2025-11-25"
    assert "initialize" in source["era"]

    # Everything it listed is what the MCP export of the pulled registry gives back.
    listing = anyio.run(_list, StdioTarget.parse(command))
    exported = json.loads(
        json.dumps([_export(registry, t["name"]) for t in listing.tools], sort_keys=True)
    )
    for wire, ours in zip(listing.tools, exported, strict=True):
        for key in ("name", "description", "inputSchema", "outputSchema", "icons", "_meta"):
            assert ours.get(key) == wire.get(key), (wire["name"], key)


def _export(registry: Any, name: str) -> dict[str, Any]:
    from studio.mcp.mapping import tool_to_mcp

    return tool_to_mcp(registry.tool(name), registry.settings)


async def _list(target: Any, **kwargs: Any) -> Any:
    return await list_server_tools(target, timeout=30, **kwargs)


# ---------------------------------------------------------------------------- our own server


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_pull_pages_and_maps_every_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], era: str
):
    db = tmp_path / "pull.sqlite3"
    command = own_server_command(write_tools(tmp_path / "tools.json", TOOLS), page_size=1)
    code, out, err = studio(
        capsys, db, "mcp", "pull", "--stdio", command, "--registry", "travel", "--protocol", era
    )
    assert code == 0, err
    assert "listing page 3" in err
    assert "3 tools" in out and f"MCP {era}, 3 page(s)" in out
    registry = _registry(db, "travel")
    assert [t.name for t in registry.tools] == [t["name"] for t in TOOLS]
    query = registry.tool("query_tickets")
    assert query.title == "Query tickets"
    assert query.output_schema == OUTPUT
    assert query.icons == tuple(TOOLS[0]["icons"])
    assert query.meta == {"com.example/team": "finance"}
    assert query.parameters["properties"]["ticket_id"]["x-mcp-header"] == "Ticket-Id"
    # execution is a tasks field: 2026-07-28 moved tasks out of the core protocol.
    assert query.execution.task_support == ("optional" if era == "2025-11-25" else "")
    create = registry.tool("create_reimbursement_ticket")
    assert create.risk is RiskTier.WRITE
    assert create.annotations["idempotentHint"] is False  # kept as authored
    search = registry.tool("search_policy")
    assert search.risk is RiskTier.READ  # no hints: guessed from the verb, and noted
    assert "risk tier 'read' guessed from the verb 'search'" in out
    assert registry.settings.extra[SOURCE_KEY]["server"] == {
        "name": "pull-test-server",
        "version": "1.2.3",
    }


def test_pull_refuses_an_existing_registry_without_replace_draft(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "pull.sqlite3"
    command = own_server_command(write_tools(tmp_path / "tools.json", TOOLS))
    assert studio(capsys, db, "mcp", "pull", "--stdio", command, "--registry", "t")[0] == 0
    code, _, err = studio(capsys, db, "mcp", "pull", "--stdio", command, "--registry", "t")
    assert code == 2 and "--replace-draft" in err
    code, out, _ = studio(
        capsys, db, "mcp", "pull", "--stdio", command, "--registry", "t", "--replace-draft"
    )
    assert code == 0 and "replaced the draft of t" in out


def test_pull_over_streamable_http_reads_the_token_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    secret = "s3cret-token-8c1f2a9d"
    monkeypatch.setenv("PULL_TEST_TOKEN", secret)
    app = bearer_required(build_server(TOOLS, page_size=2).streamable_http_app(), secret)
    db = tmp_path / "pull.sqlite3"
    with http_server(app) as base:
        url = f"{base}/mcp"
        code, out, err = studio(
            capsys, db, "mcp", "pull", "--url", url, "--registry", "web",
            "--header", "Authorization: Bearer {env:PULL_TEST_TOKEN}",
        )  # fmt: skip
        assert code == 0, err
        assert "3 tools" in out
        # Without the header: one sentence naming the HTTP status.
        code, _, err = studio(capsys, db, "mcp", "pull", "--url", url, "--registry", "web2")
        assert code == 1
        assert "HTTP 401" in err
        assert [line for line in err.splitlines() if line.startswith("studio:")] == [
            "studio: mcp pull: HTTP 401 (unauthorized): the server refused the credentials; "
            "check the Authorization header"
        ]
    source = _registry(db, "web").settings.extra[SOURCE_KEY]
    assert source["headers"] == {"Authorization": "Bearer {env:PULL_TEST_TOKEN}"}
    assert source["transport"] == "streamable-http"
    assert secret.encode() not in db.read_bytes()
    for wal in tmp_path.glob("pull.sqlite3*"):
        assert secret.encode() not in wal.read_bytes()


def test_a_literal_credential_header_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    code, _, err = studio(
        capsys, tmp_path / "db.sqlite3", "mcp", "pull", "--url", "http://127.0.0.1:9/mcp",
        "--header", "Authorization: Bearer abcdefgh12345678",
    )  # fmt: skip
    assert code == 2 and "{env:" in err


# ---------------------------------------------------------------------------- errors


def _error(target: Any, timeout: float = 20) -> PullError:
    with pytest.raises(PullError) as err:
        anyio.run(lambda: list_server_tools(target, timeout=timeout))
    assert "\n" not in str(err.value)
    return err.value


def test_command_not_found():
    error = _error(StdioTarget.parse("no-such-mcp-server-xyz --flag"))
    assert str(error) == "command not found: no-such-mcp-server-xyz"


def test_exit_code_and_the_last_lines_of_stderr():
    script = "import sys; print('config file missing: /etc/x.toml', file=sys.stderr); sys.exit(3)"
    error = _error(StdioTarget(sys.executable, ("-c", script)))
    assert "exited with code 3" in str(error)
    assert "config file missing: /etc/x.toml" in str(error)
    assert error.stderr == "config file missing: /etc/x.toml"


_LIAR = """
import json, sys
deep = {"type": "object"}
for _ in range(300):
    deep = {"type": "object", "properties": {"a": deep}}
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "liar", "version": "1"}}
    else:
        result = {"tools": [{"name": "query_x", "description": "MODE", "inputSchema": deep}]}
    out = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result})
    if sys.argv[1] == "surrogate":
        out = out.replace("MODE", "\\\\ud800")
    print(out, flush=True)
"""


@pytest.mark.parametrize(
    ("mode", "why"),
    [("deep", "recursion limit exceeded"), ("surrogate", "unexpected end of hex escape")],
)
def test_a_server_that_sends_what_is_not_mcp_is_one_sentence_at_once(tmp_path, mode, why):
    server = tmp_path / "liar.py"
    server.write_text(_LIAR.replace("sys.argv[1]", repr(mode)))
    error = _error(StdioTarget(sys.executable, (str(server),)), timeout=15)
    assert str(error).startswith("the server sent a message that is not valid MCP: invalid JSON")
    assert why in str(error)


def test_timeout():
    error = _error(StdioTarget(sys.executable, ("-c", "import time; time.sleep(30)")), timeout=1)
    assert str(error) == "timed out after 1 s"


def test_not_an_mcp_endpoint():
    async def html(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html")]})  # fmt: skip
        await send({"type": "http.response.body", "body": b"<html>hello</html>"})

    with http_server(html) as base:
        error = _error(HttpTarget.parse(f"{base}/"))
    assert str(error).startswith("not an MCP endpoint")
    assert "text/html" in str(error)


def test_missing_environment_variable_is_named(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("NO_SUCH_TOKEN_VAR", raising=False)
    target = HttpTarget.parse(
        "http://127.0.0.1:9/mcp", ["Authorization: Bearer {env:NO_SUCH_TOKEN_VAR}"]
    )
    assert "NO_SUCH_TOKEN_VAR is not set" in str(_error(target))


def test_env_values_reach_the_server_but_are_described_by_name(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PULL_SECRET", "hunter2-hunter2-hunter2")
    target = StdioTarget.parse(
        "server", ["API_KEY={env:PULL_SECRET}", "PASSWORD=plain-secret-1", "MODE=fast"]
    )
    assert target.environment() == {
        "API_KEY": "hunter2-hunter2-hunter2",
        "PASSWORD": "plain-secret-1",
        "MODE": "fast",
    }
    assert target.describe()["env"] == {
        "API_KEY": "{env:PULL_SECRET}",
        "PASSWORD": "{env:PASSWORD}",
        "MODE": "fast",
    }


def test_a_pulled_registry_remembers_its_server_without_secrets():
    from studio.mcp.mapping import target_from_source

    stdio = StdioTarget.parse("uvx mcp-server-time --local-timezone UTC", ["TOKEN={env:T}", "HOME"])
    assert target_from_source(stdio.describe()) == StdioTarget(
        "uvx",
        ("mcp-server-time", "--local-timezone", "UTC"),
        (("TOKEN", "{env:T}"), ("HOME", "{env:HOME}")),
    )
    http = HttpTarget.parse("https://user@host/mcp", ["Authorization: Bearer {env:T}"])
    assert target_from_source(http.describe()) == HttpTarget(
        "https://host/mcp", (("Authorization", "Bearer {env:T}"),)
    )
    assert target_from_source(None) is None


def test_pull_server_everything_over_streamable_http(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    import os
    import socket
    import subprocess
    import time

    from .pull_helpers import EVERYTHING_SERVER, third_party

    script = third_party(EVERYTHING_SERVER, "@modelcontextprotocol/server-everything (npm)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["node", str(script), "streamableHttp"],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None and time.monotonic() < deadline, "did not start"
            time.sleep(0.05)
        db = tmp_path / "pull.sqlite3"
        url = f"http://127.0.0.1:{port}/mcp"
        code, _, err = studio(capsys, db, "mcp", "pull", "--url", url, "--registry", "every")
        assert code == 0, err
        assert "mcp: connecting to" in err
        registry = _registry(db, "every")
        assert registry.tool("echo") is not None
        source = registry.settings.extra[SOURCE_KEY]
        assert source == {
            "server": {"name": "mcp-servers/everything", "version": source["server"]["version"]},
            "protocol_version": "2025-11-25",
            "era": source["era"],
            "transport": "streamable-http",
            "url": url,
        }
    finally:
        server.terminate()
        server.wait(10)


def test_a_protocol_version_the_server_does_not_speak_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    command = everything_server_command()  # speaks the 2025-11-25 handshake only
    code, _, err = studio(
        capsys, tmp_path / "db.sqlite3", "mcp", "pull", "--stdio", command,
        "--protocol", "2026-07-28",
    )  # fmt: skip
    assert code == 1
    assert (
        "studio: mcp pull: protocol version refused: the server speaks 2025-11-25, not 2026-07-28"
        in err
    )
