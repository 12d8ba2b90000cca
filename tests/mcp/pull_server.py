"""A small MCP server of our own for the pull and drift tests, on the SDK's low-level ``Server``.

Run as ``python pull_server.py TOOLS.json [--page-size N]``: it serves the tools of the
JSON file (a list of MCP tool definitions, wire names) over stdio, ``page_size`` per
``tools/list`` page, in file order. :func:`build_server` gives the same server for the
streamable HTTP tests.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.types import ListToolsResult, PaginatedRequestParams, Tool


def build_server(tools: list[dict[str, Any]], page_size: int = 100) -> Server[Any]:
    """A server listing ``tools`` in pages of ``page_size`` (the cursor is the next index)."""
    parsed = [Tool.model_validate(t) for t in tools]

    async def list_tools(
        ctx: ServerRequestContext, params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + page_size
        return ListToolsResult(
            tools=parsed[start:end], next_cursor=str(end) if end < len(parsed) else None
        )

    return Server("pull-test-server", version="1.2.3", on_list_tools=list_tools)


async def _serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tools", type=Path)
    parser.add_argument("--page-size", type=int, default=100)
    args = parser.parse_args()
    tools = json.loads(args.tools.read_text(encoding="utf-8"))
    anyio.run(_serve_stdio, build_server(tools, args.page_size))


if __name__ == "__main__":
    main()
