"""The table of ``studio`` commands: a leaf module, so ``studio --help`` imports no feature.

Each command names the module of ``studio.cli`` that registers it (``add_parsers``)
and the one-line help the top-level ``--help`` shows. The command that runs imports
only its own module; the top-level help is built from this table alone
(tests/test_import_discipline.py checks that it matches what the modules register).
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    # command: (module in studio.cli, help shown by `studio --help`), in --help order
    "registries": ("registries", "list registries"),
    "import": ("registry", "import tools from a file or folder"),
    "export": ("registry", "export a draft or a version"),
    "publish": ("registry", "publish the draft as a new version"),
    "versions": ("registry", "list published versions"),
    "profiles": ("run", "model profiles"),
    "run": ("run", "run a model against a registry, headless"),
    "lint": ("lint", "lint a registry (by name) or a file or folder of tool definitions"),
    "diff": ("diff", "what changes between two versions"),
    "channel": ("release", "release channels of a registry"),
    "resolve": ("release", "which version a subject gets"),
    "serve": ("serve", "serve published versions over HTTP"),
    "proxy": (
        "proxy",
        "record an agent's model calls: point the agent here instead of its provider",
    ),
    "mcp": ("mcp", "serve registries over MCP, pull from MCP"),
    "sessions": ("sessions", "recorded and imported sessions"),
    "eval": ("evals", "eval sets and tool discoverability"),
    "skills": ("skills", "skills and remote agents of a registry"),
}
