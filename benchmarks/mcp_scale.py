"""MCP pull benchmark: pull 1,000 tools from a local stdio server into a registry.

Run: ``python benchmarks/mcp_scale.py [--tools 1000] [--page-size 100] [--repeat 3]``

Target (issue #13): pulling 1,000 tools from a local stdio server ≤ 2 s.

What is timed is what ``studio mcp pull --stdio`` does: start the server process,
let the SDK negotiate the era (``server/discover``, 2026-07-28), page through
``tools/list`` (``--page-size`` tools a page), close the server, and map every tool
to a contract (the metaschema check of each input and output schema included). The
database write is timed separately (it is the same as any import). The server is the
SDK's low-level ``Server`` (this script with ``--serve``), so its own start-up
(importing the SDK, ~0.3 s) is in the number, as it would be for a real server.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DOMAINS = ("invoice", "ticket", "policy", "trip", "receipt", "employee", "budget", "hotel")
VERBS = ("get", "list", "query", "search", "create", "update", "delete", "send")


def generated_tools(count: int) -> list[dict[str, Any]]:
    """``count`` varied MCP tool definitions (every field the pull maps, some of them)."""
    tools = []
    for i in range(count):
        verb, domain = VERBS[i % len(VERBS)], DOMAINS[(i // len(VERBS)) % len(DOMAINS)]
        read = verb in ("get", "list", "query", "search")
        tool: dict[str, Any] = {
            "name": f"{verb}_{domain}_{i}",
            "title": f"{verb.title()} {domain} #{i}",
            "description": f"{verb.title()} a {domain} record of the travel-reimbursement "
            f"system (shard {i}). Use for {domain} questions; dates are YYYY-MM-DD.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    f"{domain}_id": {"type": "string", "description": f"The {domain} id"},
                    "start_date": {"type": "string", "format": "date"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    "category": {"type": "string", "enum": ["taxi", "hotel", "train", "flight"]},
                },
                "required": [f"{domain}_id"],
            },
            "annotations": {
                "readOnlyHint": read,
                "destructiveHint": verb == "delete",
                "openWorldHint": False,
            },
        }
        if i % 2 == 0:
            tool["outputSchema"] = {
                "type": "object",
                "properties": {"id": {"type": "string"}, "amount": {"type": "number"}},
                "required": ["id"],
            }
        if i % 5 == 0:
            tool["_meta"] = {"com.example/shard": i}
        tools.append(tool)
    return tools


def serve(tools_file: Path, page_size: int) -> None:
    """Serve the tools of ``tools_file`` over stdio (the SDK's low-level Server)."""
    import anyio
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.types import ListToolsResult, PaginatedRequestParams, Tool

    tools = [Tool.model_validate(t) for t in json.loads(tools_file.read_text("utf-8"))]

    async def list_tools(
        ctx: ServerRequestContext, params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + page_size
        return ListToolsResult(
            tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None
        )

    server = Server("bench-server", version="1.0", on_list_tools=list_tools)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


def pull_once(command: str, count: int) -> tuple[float, float, float, int]:
    """(listing s, mapping s, store s, pages) of one pull."""
    import anyio

    from registry_db import RegistryStore
    from studio.mcp.client import StdioTarget, list_server_tools
    from studio.mcp.mapping import registry_from_listing

    target = StdioTarget.parse(command)
    t0 = time.perf_counter()
    listing = anyio.run(lambda: list_server_tools(target, timeout=60))
    t1 = time.perf_counter()
    result = registry_from_listing(listing, "bench")
    t2 = time.perf_counter()
    assert len(result.registry.tools) == count, len(result.registry.tools)
    with tempfile.TemporaryDirectory() as tmp, RegistryStore.open(Path(tmp) / "b.db") as store:
        store.import_registry(result.registry)
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, listing.pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.page_size)
        return
    import shlex

    with tempfile.TemporaryDirectory() as tmp:
        tools_file = Path(tmp) / "tools.json"
        tools_file.write_text(json.dumps(generated_tools(args.tools)), "utf-8")
        command = shlex.join(
            [sys.executable, __file__, "--serve", str(tools_file), "--page-size",
             str(args.page_size)]
        )  # fmt: skip
        pull_once(command, args.tools)  # warm-up: imports, metaschema compiled
        runs = [pull_once(command, args.tools) for _ in range(args.repeat)]
    pages = runs[0][3]
    listing = statistics.median(r[0] for r in runs)
    mapping = statistics.median(r[1] for r in runs)
    storing = statistics.median(r[2] for r in runs)
    total = listing + mapping
    print(
        f"pull of {args.tools} tools, {pages} page(s) of {args.page_size}, median of {args.repeat}:"
    )
    print(f"  start + negotiate + list: {listing:.3f} s")
    print(f"  map to contracts:         {mapping:.3f} s")
    verdict = "ok" if total <= 2 else "MISSED"
    print(f"  pull total:               {total:.3f} s  (target ≤ 2 s: {verdict})")
    print(f"  store in the database:    {storing:.3f} s")


if __name__ == "__main__":
    main()
