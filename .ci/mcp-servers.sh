#!/usr/bin/env bash
# Third-party MCP servers for the tests in tests/mcp (issue #13): the reference
# mcp-server-time (PyPI, in its own virtual environment: it may pin another `mcp`
# major than ours) and @modelcontextprotocol/server-everything (npm). Cached in
# .ci/cache (ignored by git); a second run only checks that they are there.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p cache

if [ ! -x cache/time-venv/bin/mcp-server-time ]; then
  rm -rf cache/time-venv
  python3 -m venv cache/time-venv
  cache/time-venv/bin/pip install --quiet mcp-server-time
fi

if [ ! -f cache/npm/node_modules/@modelcontextprotocol/server-everything/package.json ]; then
  npm install --silent --no-audit --no-fund --prefix cache/npm @modelcontextprotocol/server-everything
fi
