"""MCP: pull the tools of a live server into a registry and check a server against a pinned
version (issue #13, parts 1–2); serving a version is :mod:`studio.mcp.server`."""
