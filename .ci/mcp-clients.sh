#!/usr/bin/env bash
# Third-party MCP clients for the tests in tests/mcp (issue #13): the MCP Inspector's
# CLI (npm @modelcontextprotocol/inspector), which tests/mcp/test_serve_inspector.py
# points at `studio mcp serve … --stdio` and at /mcp/{registry}. Cached in
# .ci/cache (ignored by git); a second run only checks that it is there.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p cache

if [ ! -f cache/npm/node_modules/@modelcontextprotocol/inspector/package.json ]; then
  npm install --silent --no-audit --no-fund --prefix cache/npm @modelcontextprotocol/inspector
fi
