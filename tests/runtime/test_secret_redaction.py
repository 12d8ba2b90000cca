"""Secrets read for a call, and the model API key, are never stored, shown or sent to the model.

An upstream that echoes the request's headers (here a loopback server that
answers with them, as error or success) must not get an ``{env:NAME}`` value
into tool results, messages, ``run_events``, ``--events`` output or the
model's context. Literal credentials are refused wherever a header looks
like one (by name or by value).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from registry_db import RegistryStore, load_examples
from registry_db.executors import ExecutorStore, SecretInTargetError
from registry_db.sessions import SessionStore
from studio.cli import main
from studio.providers import OpenAIChatClient, ProviderError
from studio.providers.base import ModelRequest
from studio.providers.profiles import ModelProfile, test_connection
from studio.runtime import (
    ExecutionRequest,
    HttpExecutor,
    HttpTarget,
    Run,
    RunConfig,
    execute_with_policy,
)
from studio.runtime.http_targets import check_target
from studio.sessions.model import Message, Role, TextPart
from studio.sessions.redact import REDACTED, Secrets, is_secret_header, literal_credential
from tests.providers.scripted_server import ScriptedServer, ToolCall, Turn
from tests.runtime.helpers import CONTEXT, travel_mocks, travel_registry

SECRET = "tok_9fQ2xLr7Vb3Kp8Wz1Hs6Jd4"
OTHER = "trace-5e1f7a9c2b"
API_KEY = "sk-proj-Q7vM2nX8pL4rT9wK3yB6cJ1hF5dG0aZ"


class EchoServer:
    """Answers every request with its headers as JSON, under the status its path names.

    ``/status/500/…`` answers 500, ``/status/401/…`` 401, anything else 200;
    ``/text/…`` answers ``text/plain`` (the headers as ``Name: value`` lines,
    padded so a secret straddles the 500-character cut of error messages).
    """

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        self.extra: dict[str, Any] = {}
        """Added to every JSON answer (what the upstream says on its own)."""
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> EchoServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                headers = dict(self.headers.items())
                owner.received.append(headers)
                parts = self.path.split("/")
                status = int(parts[2]) if len(parts) > 2 and parts[1] == "status" else 200
                if "/text/" in self.path:
                    first = sorted(headers, key=lambda k: k != "Authorization")
                    lines = [f"{k}: {headers[k]}" for k in first]
                    pad = 500 - len("\nAuthorization: Bearer ") - len(SECRET) // 2
                    body = ("x" * pad + "\n" + "\n".join(lines)).encode()
                    kind = "text/plain"
                else:
                    answer = {"error": "denied", "you_sent": headers, "as_text": repr(headers)}
                    body = json.dumps({**answer, **owner.extra}).encode()
                    kind = "application/json"
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"


@pytest.fixture
def echo() -> Iterator[EchoServer]:
    with EchoServer() as server:
        yield server


HEADERS = {"Authorization": "Bearer {env:ECHO_TOKEN}", "X-Trace": "{env:ECHO_TRACE}",
           "Accept": "application/json"}  # fmt: skip
ENVIRON = {"ECHO_TOKEN": SECRET, "ECHO_TRACE": OTHER}


def run_call(echo: EchoServer, path: str, tool: str = "search_policy"):
    t = travel_registry().tool(tool)
    target = HttpTarget(echo.base_url + path, "GET", HEADERS)
    executor = HttpExecutor({t.name: target}, [echo.base_url], environ=ENVIRON)

    async def go():
        try:
            return await execute_with_policy(executor, ExecutionRequest(t, {"query": "taxi"}),
                                             sleep=lambda _s: asyncio.sleep(0))  # fmt: skip
        finally:
            await executor.aclose()

    return asyncio.run(go())


def leaks(text: str, *secrets: str) -> list[str]:
    """Each secret, or a piece of 8+ characters of it, found in ``text``."""
    found = []
    for secret in secrets:
        pieces = {secret[i : i + 8] for i in range(len(secret) - 7)}
        found += [p for p in pieces if p in text]
    return found


# ---------------------------------------------------------------------------- the executor


ECHO_PATHS = ["/status/500/policy", "/status/401/policy", "/status/429/x", "/policy",
              "/text/policy", "/status/404/text/policy"]  # fmt: skip


@pytest.mark.parametrize("path", ECHO_PATHS)
def test_every_string_of_the_outcome_is_redacted(echo: EchoServer, path: str) -> None:
    outcome = run_call(echo, path)
    assert echo.received and echo.received[0]["Authorization"] == f"Bearer {SECRET}"
    shown = json.dumps([outcome.body, outcome.error and outcome.error.to_result()])
    assert leaks(shown, SECRET, OTHER) == [], shown
    assert REDACTED in shown


def test_a_read_retried_after_500_stays_redacted(echo: EchoServer) -> None:
    outcome = run_call(echo, "/status/503/policy")
    assert outcome.attempts > 1 and len(echo.received) == outcome.attempts
    assert outcome.error is not None and leaks(json.dumps(outcome.error.to_result()), SECRET) == []


def test_secrets_cover_escaped_and_encoded_echoes() -> None:
    secret = 'a"b/c d+é%9'
    secrets = Secrets([secret, "abc"])  # too short to redact: kept
    echoed = {"raw": secret, "json": json.dumps(secret), "url": "q=a%22b%2Fc%20d%2B%C3%A9%259",
              "form": "a%22b%2Fc+d%2B%C3%A9%259", secret: "key", "n": [1, "abc"]}  # fmt: skip
    out = secrets.value(echoed)
    assert leaks(json.dumps(out, ensure_ascii=False), secret) == [] and "a%22b" not in str(out)
    assert out["n"] == [1, "abc"]
    assert not Secrets([None, ""])
    from_headers = Secrets.from_headers({"Authorization": "Bearer abcdef", "X-Tenant": "acme"})
    assert from_headers.text("Bearer abcdef / abcdef / acme") == f"{REDACTED} / {REDACTED} / acme"


# ---------------------------------------------------------------------------- a whole run


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "studio.sqlite3"
    with RegistryStore.open(path) as store:
        store.seed_registries(load_examples())
    monkeypatch.setenv("SCRIPTED_KEY", API_KEY)
    for name, value in ENVIRON.items():
        monkeypatch.setenv(name, value)
    return path


def configure(db: Path, echo: EchoServer, path: str) -> None:
    with RegistryStore.open(db) as store:
        ExecutorStore.for_store(store).save_http_target(
            "travel-reimbursement", "search_policy",
            {"method": "GET", "url": echo.base_url + path, "headers": HEADERS},
            allowed_base_urls=[echo.base_url],
        )  # fmt: skip


def run_cli(db: Path, server: ScriptedServer, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["profiles", "add", "scripted", "--kind", "openai-chat", "--base-url",
                 server.base_url + "/v1", "--model", "m", "--api-key-env", "SCRIPTED_KEY",
                 "--db", str(db)]) == 0  # fmt: skip
    capsys.readouterr()
    main(["run", "travel-reimbursement", "--profile", "scripted", "--prompt", "taxi limit?",
          "--events", "jsonl", "--db", str(db)])  # fmt: skip
    return capsys.readouterr().out


def stored_bytes(db: Path) -> bytes:
    """Every byte the database wrote: the file and any journal or WAL beside it."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


@pytest.mark.parametrize("path", ["/status/500/policy", "/status/403/policy", "/policy"])
def test_an_echoed_secret_reaches_no_store_output_or_model(
    db: Path, echo: EchoServer, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    configure(db, echo, path)
    turns = [Turn(tool_calls=[ToolCall("search_policy", '{"query": "taxi"}')]),
             Turn(text="Done.")]  # fmt: skip
    with ScriptedServer(turns) as server:
        out = run_cli(db, server, capsys)
        to_model = [json.dumps(r.body) for r in server.model_requests]
    assert echo.received and echo.received[0]["Authorization"] == f"Bearer {SECRET}"
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events[-1]["type"] == "run.completed", events[-1]
    completed = next(e["data"] for e in events if e["type"] == "tool_call.completed")
    assert REDACTED in json.dumps(completed["result"])
    assert REDACTED in to_model[-1]  # the model saw the result, redacted
    for where, text in [("events output", out), ("model requests", "".join(to_model)),
                        ("database", stored_bytes(db).decode("latin-1"))]:  # fmt: skip
        assert leaks(text, SECRET, OTHER, API_KEY) == [], where
    with RegistryStore.open(db) as store:
        rows = store.connection.execute(
            "SELECT (SELECT group_concat(message_json, '') FROM messages) ||"
            " (SELECT group_concat(data_json, '') FROM run_events)"
        ).fetchone()
    assert rows[0] and REDACTED in rows[0] and leaks(rows[0], SECRET, OTHER, API_KEY) == []


@pytest.mark.parametrize(
    "turn",
    [
        Turn(status=401, error_body=json.dumps(
            {"error": {"message": f"Incorrect API key provided: {API_KEY}",
                       "type": "invalid_request_error", "code": "invalid_api_key",
                       "you_sent": f"Authorization: Bearer {API_KEY}"}})),
        Turn(text="Let me", stream_error=("server_error", f"upstream refused key {API_KEY}")),
    ],
    ids=["401-body", "stream-error"],
)  # fmt: skip
def test_a_model_server_echoing_the_api_key_does_not_get_it_stored(
    db: Path, capsys: pytest.CaptureFixture[str], turn: Turn
) -> None:
    with ScriptedServer([turn], validate=False) as server:
        out = run_cli(db, server, capsys)
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events[-1]["type"] == "run.failed", events[-1]
    assert REDACTED in json.dumps(events[-1]["data"])
    assert leaks(out, API_KEY) == []
    assert leaks(stored_bytes(db).decode("latin-1"), API_KEY) == []


def test_provider_errors_never_carry_the_key() -> None:
    body = json.dumps({"error": {"message": f"bad key {API_KEY}", "type": "auth"}}).encode()
    transport = httpx.MockTransport(lambda request: httpx.Response(401, content=body))
    client = OpenAIChatClient("http://model.test/v1", "m", API_KEY, transport=transport)
    request = ModelRequest((Message(Role.USER, (TextPart("hi"),)),))

    async def go() -> ProviderError:
        try:
            async for _ in client.stream(request):
                pass
        except ProviderError as exc:
            return exc
        finally:
            await client.aclose()
        raise AssertionError("no error")

    error = asyncio.run(go())
    assert leaks(f"{error} {error.message} {error.body} {error.__context__}", API_KEY) == []
    assert REDACTED in error.message and client.secrets.text(API_KEY) == REDACTED
    profile = ModelProfile("p", "openai-chat", "http://model.test/v1", "m")
    result = asyncio.run(test_connection(profile, transport=transport, api_key=API_KEY))
    assert not result.ok and leaks(result.message, API_KEY) == []


# ---------------------------------------------------------------------------- literal credentials

TOKEN_VALUES = ["Bearer abc123", "Basic dXNlcjpwYXNz", "sk-live-4f9a8b7c6d5e", "ghp_" + "a1" * 12,
                "xoxb-1234-5678-abcdef", "AKIAIOSFODNN7EXAMPLE", "q8Zr2Lk9Vx3Wm7Pn4Ty6Hb1Jc5",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"]  # fmt: skip


CREDENTIAL_NAMES = ["X-Auth-Key", "X-Access-Key", "x_api_key", "XApiKey", "X-Session-Id",
                    "X-CSRF-Token", "X-Hub-Signature", "X-Client-Credential",
                    "Proxy-Authorization", "X-Passwd"]  # fmt: skip


@pytest.mark.parametrize("name", CREDENTIAL_NAMES)
def test_credential_named_headers_refuse_literals(name: str, tmp_path: Path) -> None:
    assert is_secret_header(name)
    assert literal_credential(name, "abc")
    assert not literal_credential(name, "Bearer {env:API_TOKEN}")
    t = travel_registry().tool("search_policy")
    problems = check_target(HttpTarget("https://api.example/p", "GET", {name: "k-123"}), t,
                            ["https://api.example"])  # fmt: skip
    assert [str(p) for p in problems if p.severity == "error"] == [
        f"headers.{name}: would store a credential in the database; reference an environment "
        "variable instead, e.g. Bearer {env:SEARCH_POLICY_TOKEN}"
    ]
    with RegistryStore.open(tmp_path / "studio.sqlite3") as store:
        store.create_registry("r")
        with pytest.raises(SecretInTargetError, match=f"literal {name} value"):
            ExecutorStore.for_store(store).save_http_target(
                "r", "t", {"url": "https://api.example/p", "headers": {name: "k-123"}}
            )


@pytest.mark.parametrize("value", TOKEN_VALUES)
def test_token_shaped_values_are_refused_whatever_the_header(value: str, tmp_path: Path) -> None:
    assert literal_credential("X-Custom", value)
    t = travel_registry().tool("search_policy")
    problems = check_target(HttpTarget("https://api.example/p", "GET", {"X-Custom": value}), t,
                            ["https://api.example"])  # fmt: skip
    errors = [str(p) for p in problems if p.severity == "error"]
    assert errors == ["headers.X-Custom: would store a credential in the database (the value "
                      "looks like a token); reference an environment variable instead, e.g. "
                      "Bearer {env:SEARCH_POLICY_TOKEN}"]  # fmt: skip
    with RegistryStore.open(tmp_path / "studio.sqlite3") as store:
        store.create_registry("r")
        with pytest.raises(SecretInTargetError, match="literal X-Custom value"):
            ExecutorStore.for_store(store).save_http_target(
                "r", "t", {"url": "https://api.example/p", "headers": {"X-Custom": value}}
            )


@pytest.mark.parametrize(
    ("name", "value"),
    [("X-Tenant", "acme"), ("Accept", "application/json"), ("Idempotency-Key", "{idempotency_key}"),
     ("X-Author", "Jane Doe"), ("User-Agent", "studio/1.0 (+https://example.org/bot)"),
     ("Content-Type", "application/vnd.api+json; charset=utf-8"), ("X-Query", "{query}"),
     ("Authorization", "Bearer {env:API_TOKEN}"), ("X-Api-Key", "{env:API_KEY}")],
)  # fmt: skip
def test_ordinary_headers_and_env_references_are_accepted(name: str, value: str) -> None:
    assert not literal_credential(name, value)


def test_the_snapshot_hides_a_token_shaped_value_under_any_name() -> None:
    t = travel_registry().tool("search_policy")
    headers = {"X-Custom": "{query}", "Idempotency-Key": "{idempotency_key}"}
    target = HttpTarget("https://api.example/p", "GET", headers)
    executor = HttpExecutor({t.name: target}, ["https://api.example"])
    request = ExecutionRequest(t, {"query": "ghp_" + "b2" * 12}, idempotency_key="s:1:k")
    headers = executor.snapshot(request)["headers"]
    assert headers == {"X-Custom": "***", "Idempotency-Key": "s:1:k"}
    asyncio.run(executor.aclose())


def test_the_runs_secrets_are_redacted_from_the_outcome_too(echo: EchoServer) -> None:
    # An upstream that knows the model API key (a proxy, a shared gateway) and says it.
    t = travel_registry().tool("search_policy")
    target = HttpTarget(echo.base_url + "/status/500/p", "GET", {"X-Model-Key": "{query}"})
    executor = HttpExecutor({t.name: target}, [echo.base_url], environ={})
    run_secrets = OpenAIChatClient("http://model.test/v1", "m", API_KEY).secrets

    async def go():
        try:
            return await execute_with_policy(
                executor, ExecutionRequest(t, {"query": API_KEY}),
                sleep=lambda _s: asyncio.sleep(0), secrets=run_secrets,
            )  # fmt: skip
        finally:
            await executor.aclose()

    outcome = asyncio.run(go())
    assert echo.received[0]["X-Model-Key"] == API_KEY
    assert outcome.error is not None and REDACTED in outcome.error.message
    assert leaks(json.dumps(outcome.error.to_result()), API_KEY) == []


def test_an_upstream_that_says_the_model_api_key_does_not_get_it_stored(
    tmp_path: Path, echo: EchoServer
) -> None:
    echo.extra = {"gateway": {"upstream_key": API_KEY}}
    t = travel_registry().tool("search_policy")
    http = HttpExecutor({t.name: HttpTarget(echo.base_url + "/p?q={query}", "GET")},
                        [echo.base_url], environ={})  # fmt: skip
    turns = [Turn(tool_calls=[ToolCall("search_policy", '{"query": "taxi"}')]),
             Turn(text="Done.")]  # fmt: skip
    db = tmp_path / "studio.sqlite3"

    async def go():
        with ScriptedServer(turns) as server:
            model = OpenAIChatClient(server.base_url + "/v1", "m", API_KEY)
            cfg = RunConfig(travel_registry(), context=CONTEXT, mock=travel_mocks(),
                            executors={t.name: http})  # fmt: skip
            with RegistryStore.open(db) as store:
                try:
                    result = await Run(model, cfg, sessions=SessionStore.for_store(store)).execute(
                        "taxi limit?"
                    )
                finally:
                    await model.aclose()
                    await http.aclose()
            return result, [json.dumps(r.body) for r in server.model_requests]

    result, to_model = asyncio.run(go())
    assert result.status == "completed", result.reason
    assert REDACTED in to_model[-1]
    assert leaks("".join(to_model), API_KEY) == []
    assert leaks(stored_bytes(db).decode("latin-1"), API_KEY) == []
