"""The compiled-regex cache of ``studio lint``: same patterns, from a file, never required."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.lint import regex_cache

PATTERNS = [
    (r"(?P<verb>get|fetch)\s+(?P<obj>\w+)", re.IGNORECASE),
    (r"[\u4e00-\u9fff]{2,}|查询|删除", 0),
    (r"(?=[a-z])(?:\bdo not tell\b(?! the)\n)", re.VERBOSE | re.IGNORECASE),
    (r"(a)(b)?(?:c)", 0),
]
TEXTS = ["Fetch orders now", "查询报销信息", "do not tell", "abc ab", "GET x", "", "ac"]


@pytest.fixture
def cache_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "regex.marshal"
    yield path
    regex_cache.uninstall()


def _unique(pattern: str, n: int) -> str:
    """A pattern no other test (nor re's own cache) has compiled."""
    return f"{pattern}|never-{n}-{id(object())}"


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert (a.pattern, a.flags, a.groups, dict(a.groupindex)) == (
        b.pattern,
        b.flags,
        b.groups,
        dict(b.groupindex),
    )
    for text in TEXTS:
        assert [m.span() for m in a.finditer(text)] == [m.span() for m in b.finditer(text)]
        assert [m.groups() for m in a.finditer(text)] == [m.groups() for m in b.finditer(text)]


def test_saved_patterns_come_back_the_same(cache_file: Path) -> None:
    sources = [(_unique(p, i), f) for i, (p, f) in enumerate(PATTERNS)]
    assert regex_cache.install(cache_file)
    first = [re.compile(p, f) for p, f in sources]
    regex_cache.save()
    regex_cache.uninstall()
    assert regex_cache._compiler.compile is not regex_cache._cached_compile
    assert cache_file.stat().st_size > 0

    regex_cache.install(cache_file)
    assert all((p, f) in regex_cache._state["entries"] for p, f in sources)
    again = [regex_cache._compiler.compile(p, f) for p, f in sources]  # from the file
    assert not regex_cache._state["added"]
    regex_cache.uninstall()
    plain = [regex_cache._compiler.compile(p, f) for p, f in sources]
    for a, b, c in zip(first, again, plain, strict=True):
        _same(a, c)
        _same(b, c)


def test_a_damaged_file_or_entry_compiles_as_usual(cache_file: Path) -> None:
    cache_file.write_bytes(b"not marshal data")
    assert regex_cache.install(cache_file)
    source = _unique("x+y", 0)
    regex_cache._state["entries"][(source, 0)] = (0, [1, 2, 3], 0, {}, (None,))  # invalid code
    _same(regex_cache._compiler.compile(source, 0), regex_cache._ORIGINAL(source, 0))
    regex_cache.save()  # the damaged entry is replaced
    regex_cache.uninstall()
    regex_cache.install(cache_file)
    assert regex_cache._state["entries"][(source, 0)][1] != [1, 2, 3]


def test_off_with_the_token_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STUDIO_TOKEN_CACHE", "off")
    assert regex_cache.default_path() is None
    assert not regex_cache.install()
    monkeypatch.setenv("STUDIO_TOKEN_CACHE", str(tmp_path / "tokens.sqlite3"))
    path = regex_cache.default_path()
    assert path is not None and path.parent == tmp_path


def test_the_lint_command_fills_it_and_leaves_re_as_it_was(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from studio.cli import main

    monkeypatch.setenv("STUDIO_TOKEN_CACHE", str(tmp_path / "tokens.sqlite3"))
    tools = tmp_path / "tools.json"
    tools.write_text(
        '[{"type": "function", "function": {"name": "get_order", "description": "Gets data.",'
        ' "parameters": {"type": "object", "properties": {}}}}]',
        encoding="utf-8",
    )
    main(["lint", str(tools), "--fail-on", "never"])
    first = capsys.readouterr().out
    assert regex_cache._compiler.compile is regex_cache._ORIGINAL
    main(["lint", str(tools), "--fail-on", "never"])
    assert capsys.readouterr().out == first
    assert regex_cache._compiler.compile is regex_cache._ORIGINAL
