"""``studio --help`` and ``studio registries`` import only what they use (issue 16).

They run in a fresh interpreter, as a user runs them; the child prints the modules
it imported and the test checks that the heavy ones (the validators, the HTTP
client, the linter, the runtime, Qt, MCP, numpy, sqlite-utils) are not among them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from registry_db import RegistryStore
from studio.cli import main
from studio.cli.commands import COMMANDS

HEAVY = (
    "jsonschema",
    "httpx",
    "studio.lint",
    "studio.runtime",
    "PySide6",
    "mcp",
    "numpy",
    "sqlite_utils",
    "studio.contract",
)

# Runs main() and reports every module imported, whatever main printed or raised.
_CHILD = """
import json, sys
from studio.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""


def _imported_by(*argv: str) -> tuple[str, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stderr.rpartition("MODULES ")[2])
    return done.stdout, set(modules)


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_top_level_help_imports_no_feature() -> None:
    out, modules = _imported_by("--help")
    assert "registries" in out and "sessions" in out
    assert _heavy(modules) == []
    assert not any(m.split(".")[0] == "registry_db" for m in modules)


def test_registries_reads_the_file_without_the_store(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite3"
    with RegistryStore.open(db) as store:
        store.create_registry("weather", "Weather tools")
    out, modules = _imported_by("registries", "--db", str(db))
    assert out == "weather\t0 tools\tunpublished\tWeather tools\n"
    assert _heavy(modules) == []


def test_registries_of_a_new_file_goes_through_the_store(tmp_path: Path, capsys) -> None:
    # No file yet: the full store creates and migrates it; the listing is the same.
    db = tmp_path / "new.sqlite3"
    assert main(["registries", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "no registries\n"
    assert db.is_file()
    assert main(["registries", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "no registries\n"


def test_embedded_database_is_seeded_before_it_is_listed(capsys) -> None:
    assert main(["registries"]) == 0
    first = capsys.readouterr().out
    assert "travel-reimbursement\t" in first
    assert main(["registries"]) == 0  # now the plain read
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("module", sorted({module for module, _ in COMMANDS.values()}))
def test_the_command_table_matches_what_the_modules_register(module: str) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    import_module(f"studio.cli.{module}").add_parsers(sub, argparse.ArgumentParser(add_help=False))
    registered = {action.dest: action.help for action in sub._choices_actions}
    listed = {c: summary for c, (home, summary) in COMMANDS.items() if home == module}
    for command, summary in listed.items():
        assert registered.get(command) == summary, command
    # registry.py still registers `registries` (its full-store handler); the table
    # sends the command to studio.cli.registries.
    unlisted = set(registered) - set(COMMANDS)
    assert unlisted == set(), f"studio.cli.{module} registers {unlisted} not in COMMANDS"


def test_sessions_import_and_check_make_no_request_machinery(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]  # fmt: skip
    log.write_text(json.dumps({"messages": messages}) + "\n", encoding="utf-8")
    # The import creates the database (migrations run with plain sqlite3); check reads it.
    db = str(tmp_path / "s.sqlite3")
    for argv in (("sessions", "import", str(log)), ("sessions", "check", str(log))):
        _, modules = _imported_by(*argv, "--db", db)
        unwanted = ("httpx", "studio.runtime.executors", "studio.runtime.loop", "studio.lint")
        assert [m for m in unwanted if m in modules] == [], argv
        tops = {m.split(".")[0] for m in modules}
        assert tops.isdisjoint({"PySide6", "mcp", "numpy", "sqlite_utils", "click", "dateutil"})
        # The session importers share studio.formats.base, not the tool formats.
        assert "studio.formats.anthropic" not in modules, argv
        assert "studio.formats.openai" not in modules, argv
        # Reading messages needs no contract model (nor the agents and skills models it
        # loads); a --db file not named like the default needs no platformdirs.
        model = ("studio.contract.model", "studio.agents", "studio.skills", "platformdirs")
        assert [m for m in model if m in modules] == [], argv


_LEAF_CHILD = """
import json, sys
import studio.formats.base, studio.contract.problems, studio.contract.canonical
print(json.dumps(sorted(sys.modules)))
"""


def test_package_leaves_import_without_their_siblings() -> None:
    """studio.formats and studio.contract load their names and formats when first used."""
    done = subprocess.run(
        [sys.executable, "-c", _LEAF_CHILD], capture_output=True, text=True, timeout=60, check=True
    )
    modules = set(json.loads(done.stdout))
    formats = {m for m in modules if m.startswith("studio.formats.")}
    assert formats == {"studio.formats.base"}
    assert "studio.contract.document" not in modules
    assert "studio.contract.render" not in modules


def test_lazy_package_names_resolve_to_their_homes() -> None:
    import studio.contract
    import studio.formats
    from studio.contract.model import ToolContract
    from studio.formats.base import FormatError

    for package in (studio.contract, studio.formats):
        assert set(package.__all__) <= set(dir(package))
        for name in package.__all__:
            getattr(package, name)
    assert studio.contract.ToolContract is ToolContract
    assert studio.formats.FormatError is FormatError
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = studio.formats.nothing
