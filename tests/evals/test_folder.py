"""Eval sets in the registry-as-code folder: evals/<set>.jsonl, byte for byte, links refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studio.contract import parse_registry
from studio.formats import FormatError
from studio.formats.folder import (
    eval_files,
    export_registry,
    import_dir,
    read_eval_sets,
    write_eval_sets,
    write_files,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
CORE = (EXAMPLES / "evals" / "travel-reimbursement" / "core.jsonl").read_text("utf-8")
ODD = '{"id":"a",  "user":"你好", "expect":{"kind":"no_tool"}}\r\n\n'


def _registry():
    return parse_registry(json.loads((EXAMPLES / "travel-reimbursement.json").read_text("utf-8")))


def test_a_folder_export_carries_the_sets_and_reads_back_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "reg"
    files = export_registry(_registry()).files
    files.update(eval_files({"core": CORE, "odd": ODD}))
    write_files(files, out)
    assert (out / "evals" / "odd.jsonl").read_bytes() == ODD.encode()
    assert read_eval_sets(out) == {"core": CORE, "odd": ODD}
    import_dir(out)  # the tools still import
    write_files(files, out)  # again: same bytes
    assert (out / "evals" / "core.jsonl").read_bytes() == CORE.encode()


def test_writing_sets_alone_leaves_the_tools_alone(tmp_path: Path) -> None:
    out = tmp_path / "reg"
    write_files(export_registry(_registry()).files, out)
    before = sorted(p.name for p in (out / "tools").iterdir())
    assert write_eval_sets({"core": CORE}, out) == ["evals/core.jsonl"]
    assert sorted(p.name for p in (out / "tools").iterdir()) == before
    assert read_eval_sets(out) == {"core": CORE}
    assert read_eval_sets(tmp_path) == {}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_links_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "reg"
    (out / "evals").mkdir(parents=True)
    target = tmp_path / "elsewhere.jsonl"
    target.write_text("secret", "utf-8")
    (out / "evals" / "core.jsonl").symlink_to(target)
    with pytest.raises(FormatError, match="link"):
        read_eval_sets(out)
    with pytest.raises(FormatError, match="link"):
        write_eval_sets({"core": CORE}, out)
    assert target.read_text("utf-8") == "secret"


@pytest.mark.parametrize("name", ["../x", ".hidden", "a/b"])
def test_unsafe_set_names_are_refused(name: str) -> None:
    with pytest.raises(FormatError):
        eval_files({name: ""})
