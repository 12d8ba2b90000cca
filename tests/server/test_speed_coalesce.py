"""A response head and its body leave in one write; a head alone leaves on the next loop turn."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from registry_db import RegistryStore
from studio.server import ServerThread
from studio.server.coalesce import CoalescingTransport

from .conftest import REGISTRY

HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


class Recorder:
    """The transport calls a CoalescingTransport makes."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.calls.append(("write", bytes(data)))

    def close(self) -> None:
        self.calls.append(("close", None))
        self.closing = True

    def abort(self) -> None:
        self.calls.append(("abort", None))

    def is_closing(self) -> bool:
        return self.closing

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


def test_head_and_body_go_out_together() -> None:
    async def scenario() -> list[tuple[str, Any]]:
        raw = Recorder()
        transport = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(HEAD)
        transport.write(b"ok")
        await asyncio.sleep(0)
        return raw.calls

    assert asyncio.run(scenario()) == [("write", HEAD + b"ok")]


def test_a_lone_head_leaves_on_the_next_turn_and_before_close() -> None:
    async def scenario() -> tuple[list[tuple[str, Any]], list[tuple[str, Any]], Recorder]:
        raw = Recorder()
        transport = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(HEAD)
        before = list(raw.calls)
        await asyncio.sleep(0)
        after = list(raw.calls)
        transport.write(HEAD)
        transport.close()
        assert transport.get_extra_info("peername") == "info:peername"
        return before, after, raw

    before, after, raw = asyncio.run(scenario())
    assert before == [] and after == [("write", HEAD)]
    assert raw.calls[-2:] == [("write", HEAD), ("close", None)]


def test_other_writes_pass_straight_through() -> None:
    async def scenario() -> list[tuple[str, Any]]:
        raw = Recorder()
        transport = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"data: chunk\n\n")
        transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        transport.abort()
        await asyncio.sleep(0)
        return raw.calls

    assert asyncio.run(scenario()) == [("write", b"data: chunk\n\n"), ("abort", None)]


def test_served_answers_arrive_whole(store: RegistryStore) -> None:
    with ServerThread(store) as server, httpx.Client(base_url=server.url) as http:
        for i in range(20):
            r = http.get(f"/v1/registries/{REGISTRY}/resolve", params={"subject": f"s{i}"})
            assert r.status_code == 200 and r.json()["registry"] == REGISTRY
        assert http.get("/healthz").json() == {"status": "ok"}
        missing = http.get("/v1/registries/nope/resolve")
        assert missing.status_code == 404 and "nope" in missing.json()["error"]["message"]
