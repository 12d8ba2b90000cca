"""A console-script lint leaves without the interpreter's teardown: same output, same codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lint._fixtures import EXAMPLES


def _studio(*argv: str, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, STUDIO_TOKEN_CACHE=str(tmp_path / "tokens.sqlite3"))
    return subprocess.run(
        [sys.executable, "-m", "studio.cli", *argv], capture_output=True, env=env, check=False
    )


def test_output_and_exit_code_are_the_in_process_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio.cli import main

    target, code = str(EXAMPLES / "order-service.json"), 1
    done = _studio("lint", target, "--format", "json", tmp_path=tmp_path)
    assert done.returncode == code and done.stderr == b""
    assert main(["lint", target, "--format", "json"]) == code
    assert json.loads(done.stdout) == json.loads(capsys.readouterr().out)
    text = _studio("lint", target, tmp_path=tmp_path)
    assert text.returncode == code and text.stdout.decode().endswith(" rounds\n")


def test_a_reader_gone_early_gets_no_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, STUDIO_TOKEN_CACHE=str(tmp_path / "tokens.sqlite3"))
    lint = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", "lint", str(EXAMPLES / "order-service.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert lint.stdout is not None and lint.stderr is not None
    lint.stdout.read(10)
    lint.stdout.close()  # as `| head -c 10` does
    assert b"Traceback" not in lint.stderr.read()
    lint.wait(timeout=30)


def test_the_float_check_walks_subclasses_and_passes_over_float_free_lists() -> None:
    from studio.cli.lint import _orjson_safe
    from studio.lint.report import FloatFreeList

    class Mapping(dict):  # type: ignore[type-arg]
        pass

    assert _orjson_safe({"a": [1.5, {"b": 2.0}]})
    assert not _orjson_safe({"a": [1e-7]})
    assert not _orjson_safe({"a": Mapping(b=[float("nan")])})
    assert not _orjson_safe([(1, 2), [3, [1e20]]])
    assert _orjson_safe({"findings": FloatFreeList([{"tool": "x", "related": ["y"]}])})


def test_the_json_report_marks_only_its_findings_float_free() -> None:
    from studio.lint import lint_registry
    from studio.lint.report import FloatFreeList, to_json
    from tests.lint._fixtures import example

    doc = to_json(lint_registry(example("order-service")))
    marked = [k for k, v in doc.items() if isinstance(v, FloatFreeList)]
    assert marked == ["findings", "suppressed"]
    for finding in doc["findings"]:
        assert not any(isinstance(v, float) for v in finding.values())
