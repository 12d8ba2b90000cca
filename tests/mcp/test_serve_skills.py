"""Skills served: the resolve catalogue (HTTP) and MCP prompts/resources via the SDK's Client."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from registry_db import RegistryStore
from studio.server import create_app

from .serve_helpers import REGISTRY, published_db, stdio_params

SKILL = "travel-reimbursement"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return published_db(tmp_path / "serve.sqlite3")


def _latest(db: Path) -> int:
    with RegistryStore.open(db) as store:
        latest = store.latest_version(REGISTRY)
        assert latest is not None
        return latest.number


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_resolve_carries_the_catalogue_and_the_body_url_answers(db: Path) -> None:
    async def go() -> list[httpx.Response]:
        with RegistryStore.open(db) as store:
            app = create_app(store)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://s") as client:
                first = await client.get(f"/v1/registries/{REGISTRY}/resolve?format=openai")
                again = await client.get(f"/v1/registries/{REGISTRY}/resolve?format=openai")
                role = await client.get(
                    f"/v1/registries/{REGISTRY}/resolve?format=openai&role=employee"
                )
                body_url = first.json()["skills"][0]["body"]
                body = await client.get(body_url)
                missing = await client.get(body_url.rsplit("/", 1)[0] + "/no-such-skill")
                return [first, again, role, body, missing]

    first, again, role, body, missing = _run(go())
    assert first.status_code == 200
    catalogue = first.json()["skills"]
    assert [s["name"] for s in catalogue] == [SKILL]
    assert "差旅费用报销" in catalogue[0]["description"]
    assert "instructions" not in catalogue[0] and "body_text" not in catalogue[0]
    assert again.content == first.content  # the pre-rendered body, skills included
    assert role.json()["skills"] == catalogue  # an audience resolve carries it too
    assert body.status_code == 200
    full = body.json()
    assert full["name"] == SKILL and "search_policy" in full["body"]
    assert "scripts/calc_over_limit.py" in full["files"]
    assert missing.status_code == 404 and "no-such-skill" in missing.json()["error"]["message"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_mcp_serves_skills_as_prompts_and_resources(db: Path, mode: str) -> None:
    version = _latest(db)

    async def go() -> Any:
        async with Client(stdio_params(db, "--version", str(version)), mode=mode) as client:
            prompts = await client.list_prompts()
            prompt = await client.get_prompt(SKILL, {"task": "报销打车费"})
            resources = await client.list_resources()
            uri = next(r.uri for r in resources.resources if str(r.uri).endswith("SKILL.md"))
            skill_md = await client.read_resource(uri)
            with pytest.raises(MCPError) as unknown:
                await client.get_prompt("annual-leave")
            return prompts, prompt, resources, skill_md, unknown.value

    prompts, prompt, resources, skill_md, unknown = _run(go())
    assert [p.name for p in prompts.prompts] == [SKILL]
    assert "出差" in (prompts.prompts[0].description or "")
    text = prompt.messages[0].content.text
    assert "search_policy" in text and text.endswith("Task: 报销打车费")
    names = [r.name for r in resources.resources]
    assert f"{SKILL}/SKILL.md" in names and f"{SKILL}/scripts/calc_over_limit.py" in names
    assert skill_md.contents[0].text.startswith("---")
    assert "annual-leave" in str(unknown)


def test_the_mcp_inspector_lists_and_gets_the_skill_prompt(db: Path) -> None:
    from .test_serve_inspector import INSPECTOR, _inspect

    if not INSPECTOR.exists():
        pytest.skip(f"the MCP Inspector is not installed at {INSPECTOR}: run .ci/mcp-clients.sh")
    import sys

    target = [sys.executable, "-m", "studio.cli", "mcp", "serve", REGISTRY, "--version",
              str(_latest(db)), "--stdio", "--db", str(db)]  # fmt: skip
    listing = _inspect(INSPECTOR, target, "prompts/list")
    assert [p["name"] for p in listing["prompts"]] == [SKILL]
    got = _inspect(INSPECTOR, target, "prompts/get", "--prompt-name", SKILL)
    assert "search_policy" in got["messages"][0]["content"]["text"]
    resources = _inspect(INSPECTOR, target, "resources/list")
    assert f"skill://{SKILL}/SKILL.md" in [r["uri"] for r in resources["resources"]]
