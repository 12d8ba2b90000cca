"""An imported OpenAPI registry, run against a local server built from the same document.

The server knows only the document: it answers a request whose method and
path match an operation (path templates as patterns) and records what it
got. Each tool is called through the stored targets, read back the way the
Playground reads them (:func:`studio.runtime.http_targets.configured_targets`),
and the request must be the one the document describes.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from registry_db import RegistryStore
from registry_db.executors import ExecutorStore
from studio.formats import files
from studio.formats.openapi import ImportOptions, import_openapi_text, read_document
from studio.formats.openapi_schema import Refs
from studio.runtime.executors import ExecutionRequest, HttpExecutor
from studio.runtime.http_targets import configured_targets

DATA = Path(__file__).parent.parent / "data" / "openapi"


class DocumentServer:
    """A loopback server answering the operations of one OpenAPI document."""

    def __init__(self, document: dict[str, Any], prefix: str) -> None:
        self.routes = []
        for path, item in document["paths"].items():
            pattern = re.sub(r"\\\{[^{}]+\\\}", "[^/]+", re.escape(prefix + path))
            for method in item:
                if method in ("get", "put", "post", "delete", "patch", "head"):
                    self.routes.append((method.upper(), re.compile(pattern + "$"), path))
        self.received: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                split = urlsplit(self.path)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                match = [
                    p for m, rx, p in server.routes if m == self.command and rx.match(split.path)
                ]
                server.received.append({
                    "method": self.command, "path": split.path, "operation": match[:1],
                    "query": parse_qs(split.query, keep_blank_values=True),
                    "headers": dict(self.headers), "body": json.loads(raw) if raw else None,
                })  # fmt: skip
                status = 200 if match else 404
                self.send_response(status)
                self.send_header("content-type", "application/json")
                payload = json.dumps({"ok": bool(match)}).encode()
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}{prefix}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[DocumentServer] = []

    def start(document: dict[str, Any], prefix: str) -> DocumentServer:
        servers.append(DocumentServer(document, prefix))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def sample(schema: dict[str, Any]) -> Any:
    """A value of ``schema`` good enough to fill a URL, header or body."""
    if schema.get("enum"):
        return next(v for v in schema["enum"] if v is not None)
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "string") if isinstance(kind, list) else kind
    if kind == "array":  # one element: a list query parameter is repeated per element
        return [sample(schema.get("items") or {})]
    return {"integer": 7, "number": 1.5, "boolean": True, "object": {}}.get(kind or "string", "abc")


def run_all(name: str, tmp_path: Path, serve: Any, prefix: str, **options: Any):
    text = files.read_text(DATA / name, name)
    document = read_document(text, name)
    server = serve(document, prefix)
    imported = import_openapi_text(
        text, name, options=ImportOptions(base_url=server.base, **options)
    )
    store = RegistryStore.open(tmp_path / "studio.db")
    executors = ExecutorStore.for_store(store)
    registry = imported.result.registry
    executors.import_with_targets(
        store, registry, imported.targets,
        allowed_base_urls=imported.allowed_base_urls, executor="http",
    )  # fmt: skip
    settings = executors.settings(registry.name)
    tools = {t.name: t for t in registry.tools}
    targets = configured_targets(
        ((t, e.executor, e.http) for t, e in settings.tools.items()),
        tools, settings.allowed_base_urls,
    )  # fmt: skip
    environ = {
        "TWILIO_VERIFY_ACCOUNT_SID_AUTH_TOKEN": "c2lkOnRva2Vu",
        "OKTA_ADMIN_MANAGEMENT_API_API_TOKEN": "SSWS-token",
        "OKTA_ADMIN_MANAGEMENT_API_OAUTH2": "oauth-token",
    }
    executor = HttpExecutor(targets, settings.allowed_base_urls, environ=environ)
    calls = []

    async def call_all() -> None:
        for tool in registry.tools:
            props = tool.parameters.get("properties") or {}
            args = {k: sample(v) for k, v in props.items()}
            calls.append((tool, args, await executor.execute(ExecutionRequest(tool, args))))
        await executor.aclose()

    asyncio.run(call_all())
    store.close()
    return document, imported, server.received, calls


def check_requests(document, imported, received, calls) -> None:
    refs = Refs(document, "")
    assert len(received) == len(calls)
    for (tool, _args, answer), got in zip(calls, received, strict=True):
        meta = tool.meta["openapi"]
        assert answer == {"ok": True}, (tool.name, got["path"])
        assert got["method"] == meta["method"]
        assert got["operation"] == [meta["path"]]
        item = document["paths"][meta["path"]]
        params = [
            refs.deref(p, "")
            for p in [
                *item.get("parameters", []),
                *item[meta["method"].lower()].get("parameters", []),
            ]
        ]
        query = {p["name"] for p in params if p["in"] == "query"}
        assert set(got["query"]) == query, tool.name  # every query parameter, by its own name
        body = imported.targets[tool.name].get("body")
        if isinstance(body, dict):
            assert set(got["body"]) == set(body), tool.name


def test_petstore_expanded_sends_what_the_document_describes(tmp_path: Path, serve) -> None:
    document, imported, received, calls = run_all(
        "petstore-expanded-3.0.json", tmp_path, serve, "/v2"
    )
    check_requests(document, imported, received, calls)
    by_tool = {c[0].name: r for c, r in zip(calls, received, strict=True)}
    assert by_tool["find_pets"]["query"] == {"tags": ["abc"], "limit": ["7"]}
    assert by_tool["add_pet"]["body"] == {"name": "abc", "tag": "abc"}
    assert by_tool["delete_pet"]["method"] == "DELETE"
    assert by_tool["find_pet_by_id"]["path"] == "/v2/pets/7"


def test_twilio_sends_basic_auth_from_the_environment(tmp_path: Path, serve) -> None:
    document, imported, received, calls = run_all(
        "twilio_verify_v2.json", tmp_path, serve, "", include_tags=("VerifyV2Verification",)
    )
    assert calls, "the tag selects the verification operations"
    check_requests(document, imported, received, calls)
    assert all(r["headers"]["Authorization"] == "Basic c2lkOnRva2Vu" for r in received)


def test_a_slice_of_okta_sends_what_the_document_describes(tmp_path: Path, serve) -> None:
    document, imported, received, calls = run_all(
        "okta-management-2026.06.2.yaml", tmp_path, serve, "", include_tags=("Application",)
    )
    assert len(calls) == 7
    check_requests(document, imported, received, calls)
    assert {r["headers"]["Authorization"] for r in received} == {"SSWS-token"}
