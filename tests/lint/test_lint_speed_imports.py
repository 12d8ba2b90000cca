"""A small `studio lint FILE` imports nothing its tools do not need (issue #11, part 6).

The mcp profile estimates tokens: the tokenizer (loaded only for a count the
disk cache lacks) is the token cache's business, tested with it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import sys
from studio.cli import main
code = main(["lint", sys.argv[1], "--format", "json", "--profile", "mcp"])
heavy = ("jsonschema", "markdown_it", "bpe_openai", "PySide6", "numpy")
print("LOADED", sorted(m for m in heavy if m in sys.modules), code)
"""


def test_a_small_lint_loads_no_heavy_module(tmp_path: Path) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "query_invoices",
                "description": "Find the invoices of a customer by status and date range.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "customer_id": {"type": "string", "description": "The customer."},
                        "status": {"type": "string", "enum": ["open", "paid"]},
                    },
                    "required": ["customer_id"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "cancel_order",
                "description": "Cancel an order that has not shipped yet.",
                "parameters": {
                    "type": "object",
                    "properties": {"order_id": {"type": "string", "description": "The order."}},
                    "required": ["order_id"],
                },
            },
        },
    ]
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(tools), encoding="utf-8")
    env_cache = tmp_path / "token-counts.sqlite3"
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(source)],
        capture_output=True,
        text=True,
        env={**_env(), "STUDIO_TOKEN_CACHE": str(env_cache)},
        check=False,
        timeout=60,
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("LOADED"))
    assert line.startswith("LOADED []"), line + out.stderr[-2000:]


def _env() -> dict[str, str]:
    import os

    root = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
