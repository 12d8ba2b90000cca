"""Files of imports and exports: no link is followed, no special file is read, sizes are capped."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

import pytest

from studio.contract import Registry
from studio.formats import FormatError, export_registry, import_path, write_export
from studio.formats import files as files_module

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and FIFOs")


def _export(registry: Registry, out: Path) -> None:
    write_export(export_registry(registry, "dir"), out)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@posix_only
def test_dir_export_refuses_a_linked_tools_folder_and_deletes_nothing(
    travel: Registry, tmp_path: Path
):
    out, elsewhere = tmp_path / "reg", tmp_path / "elsewhere"
    _export(travel, out)
    elsewhere.mkdir()
    (elsewhere / "precious.json").write_text('{"mine": true}')
    for f in (out / "tools").iterdir():
        f.unlink()
    (out / "tools").rmdir()
    (out / "tools").symlink_to(elsewhere, target_is_directory=True)
    before = _tree(out)
    with pytest.raises(FormatError) as info:
        _export(Registry(name=travel.name, tools=travel.tools[:1]), out)
    message = str(info.value)
    assert "tools" in message and "symbolic link" in message and "\n" not in message
    assert (elsewhere / "precious.json").read_text() == '{"mine": true}'
    assert sorted(p.name for p in elsewhere.iterdir()) == ["precious.json"]
    assert _tree(out) == before


@posix_only
def test_dir_export_never_writes_through_a_linked_tool_file(travel: Registry, tmp_path: Path):
    out, target = tmp_path / "reg", tmp_path / "target.json"
    _export(travel, out)
    target.write_text("outside")
    link = out / "tools" / "search_policy.json"
    link.unlink()
    link.symlink_to(target)
    with pytest.raises(FormatError, match=r"tools/search_policy\.json: is a symbolic link"):
        _export(travel, out)
    assert target.read_text() == "outside"
    assert link.is_symlink()


@posix_only
def test_dir_export_refuses_a_linked_manifest(travel: Registry, tmp_path: Path):
    out, target = tmp_path / "reg", tmp_path / "manifest.json"
    _export(travel, out)
    target.write_bytes((out / "registry.json").read_bytes())
    (out / "registry.json").unlink()
    (out / "registry.json").symlink_to(target)
    before = target.read_bytes()
    with pytest.raises(FormatError, match=r"registry\.json: is a symbolic link"):
        _export(travel, out)
    assert target.read_bytes() == before


def test_dir_export_deletes_only_files_the_previous_export_wrote(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    _export(travel, out)
    # Hand-added files: not listed in the manifest, or listed but not a tool document.
    (out / "tools" / "notes.json").write_text('{"todo": 1}')
    manifest = json.loads((out / "registry.json").read_text("utf-8"))
    dropped = manifest["tools"][-1]
    (out / "tools" / f"{dropped}.json").write_text('["replaced by hand"]')
    smaller = Registry(name=travel.name, tools=travel.tools[:2])
    _export(smaller, out)
    left = sorted(p.name for p in (out / "tools").iterdir())
    kept = {f"{t.name}.json" for t in smaller.tools} | {"notes.json", f"{dropped}.json"}
    assert left == sorted(kept)
    # The tools the previous export wrote and this one did not are gone.
    for tool in travel.tools[2:-1]:
        assert not (out / "tools" / f"{tool.name}.json").exists()


def test_dir_export_leaves_no_temporary_files(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    _export(travel, out)
    _export(travel, out)
    assert not [p for p in out.rglob(".*")]


@posix_only
def test_single_file_export_refuses_a_link(travel: Registry, tmp_path: Path):
    target, link = tmp_path / "target.json", tmp_path / "out.json"
    target.write_text("outside")
    link.symlink_to(target)
    with pytest.raises(FormatError, match="symbolic link"):
        write_export(export_registry(travel, "openai"), link)
    assert target.read_text() == "outside"


@posix_only
def test_dir_import_does_not_follow_links_out_of_the_folder(travel: Registry, tmp_path: Path):
    out, outside = tmp_path / "reg", tmp_path / "outside.json"
    _export(travel, out)
    name = travel.tools[0].name
    outside.write_bytes((out / "tools" / f"{name}.json").read_bytes())
    (out / "tools" / f"{name}.json").unlink()
    (out / "tools" / f"{name}.json").symlink_to(outside)
    with pytest.raises(FormatError) as info:
        import_path(out)
    assert str(info.value) == (
        f"tools/{name}.json: is a symbolic link; links inside the folder are not followed"
    )


@posix_only
def test_dir_import_refuses_a_linked_tools_folder(travel: Registry, tmp_path: Path):
    out, elsewhere = tmp_path / "reg", tmp_path / "elsewhere"
    _export(travel, out)
    (out / "tools").rename(elsewhere)
    (out / "tools").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(FormatError, match="tools: is a symbolic link"):
        import_path(out)


def _with_timeout(fn, seconds: float = 10.0):
    """Run ``fn`` on a thread; fail (instead of hanging the suite) when it blocks."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the import blocked"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


@posix_only
def test_dir_import_refuses_a_fifo_without_hanging(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    _export(travel, out)
    name = travel.tools[0].name
    (out / "tools" / f"{name}.json").unlink()
    os.mkfifo(out / "tools" / f"{name}.json")
    with pytest.raises(FormatError, match=r"FIFO .*not a regular file"):
        _with_timeout(lambda: import_path(out))


@posix_only
def test_dir_import_refuses_a_device(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    _export(travel, out)
    (out / "registry.json").unlink()
    (out / "registry.json").symlink_to("/dev/zero")
    with pytest.raises(FormatError, match="symbolic link"):
        _with_timeout(lambda: import_path(out))


@posix_only
@pytest.mark.parametrize("fmt", ["auto", "openai"])
def test_single_file_import_refuses_fifos_and_devices(tmp_path: Path, fmt: str):
    fifo = tmp_path / "tools.json"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match=r"tools\.json: is a FIFO"):
        _with_timeout(lambda: import_path(fifo, fmt))
    with pytest.raises(FormatError, match="zero: is a device"):
        _with_timeout(lambda: import_path(Path("/dev/zero"), fmt))


def test_oversized_files_are_refused_with_the_limit(
    travel: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(files_module, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"tools": [], "pad": "x" * 2000}))
    with pytest.raises(FormatError, match=r"big\.json: is larger than 1000 bytes"):
        import_path(big)
    out = tmp_path / "reg"
    _export(travel, out)
    with pytest.raises(FormatError, match="is larger than 1000 bytes"):
        import_path(out)


def test_the_size_cap_is_64_mib():
    assert files_module.MAX_FILE_BYTES == 64 * 1024 * 1024


def test_a_file_that_is_not_utf8_is_located(tmp_path: Path):
    bad = tmp_path / "tools.json"
    bad.write_bytes(b'{\n  "tools": ["\xff"]\n}')
    with pytest.raises(FormatError, match=r"tools\.json: line 2 column 14: is not UTF-8"):
        import_path(bad)


EXAMPLE = (
    Path(__file__).resolve().parents[2] / "resources" / "examples" / "travel-reimbursement.json"
)


@posix_only
def test_cli_export_into_a_linked_tools_folder_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    from studio.cli import main

    db, out, elsewhere = str(tmp_path / "s.db"), tmp_path / "reg", tmp_path / "elsewhere"
    assert main(["--db", db, "import", str(EXAMPLE)]) == 0
    assert main(["--db", db, "export", "travel-reimbursement", "--format", "dir",
                 "--out", str(out)]) == 0  # fmt: skip
    elsewhere.mkdir()
    (elsewhere / "keep.json").write_text("{}")
    for f in (out / "tools").iterdir():
        f.unlink()
    (out / "tools").rmdir()
    (out / "tools").symlink_to(elsewhere, target_is_directory=True)
    capsys.readouterr()
    code = main(["--db", db, "export", "travel-reimbursement", "--format", "dir",
                 "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err and "symbolic link" in err
    assert (elsewhere / "keep.json").exists()
