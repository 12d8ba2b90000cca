"""The security rules' yes/no RE2 tests answer exactly as ``search`` does."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import pytest
import re2  # type: ignore[import-untyped]

from studio.lint.rules._security_phrases import _loose, book, normalise
from studio.lint.rules.security_grammar import _plain, grammar
from studio.lint.rules.security_re2 import SET_LIMIT, Seen, seen

_DATA = Path(__file__).resolve().parents[1] / "data" / "security"


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """Strings of the security corpora's tools, raw and normalised: a twelfth of the
    poisoned ones and a 120th of the benign ones (each of ~200 tests runs on all)."""
    out: set[str] = set()
    for path in sorted(_DATA.glob("*.jsonl")):
        strings = [
            s
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
            for s in _strings(json.loads(line).get("tool"))
        ]
        out.update(strings[::120] if path.name.startswith("benign") else strings[::12])
    return sorted(out | {normalise(t) for t in out})


def _seens() -> list[Seen]:
    """Every yes/no test of the security rules: each module's own (found in its globals,
    so a new one is checked without being listed here), the grammar's and the phrases'."""
    import studio.lint.rules as rules_package

    found: list[Seen] = []
    for info in pkgutil.iter_modules(rules_package.__path__):
        if info.name.startswith(("security", "_security")):
            module = importlib.import_module(f"studio.lint.rules.{info.name}")
            found += [v for v in vars(module).values() if isinstance(v, Seen)]
    assert len(found) >= 20
    found += [_plain(c.plain) for c in grammar().checks.values() if c.plain is not None]
    found += [loose for p in book().phrases if (loose := _loose(p.source)) is not None]
    return found


def test_every_yes_no_test_agrees_with_search_on_the_corpora(texts: list[str]) -> None:
    assert len(texts) > 500
    for test in _seens():
        for value in texts:
            assert test.in_text(value) == (test.regexp.search(value) is not None), (
                test.regexp.pattern[:60],
                value[:80],
            )


def test_long_texts_go_through_search_and_agree() -> None:
    test = seen(r"ignore (?:all )?previous", _caseless())
    filler = "benign words " * (SET_LIMIT // 10)
    assert len(filler) > SET_LIMIT
    assert test.in_text(filler + "IGNORE previous rules")
    assert not test.in_text(filler)
    assert test.in_text("please Ignore all previous")
    assert not test.in_text("")


def test_anchors_and_multiline_flags_behave_as_in_search() -> None:
    test = seen(r"(?m)^to$|(?-i:[a-z]To\b)", _caseless())
    for value in ("a\nto\nb", "sendTo x", "TO", "into", "sendto", "to do"):
        assert test.in_text(value) == (test.regexp.search(value) is not None), value


def _caseless() -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    return options


def test_long_run_answers_as_re2s_run_of_24_non_spaces(texts: list[str]) -> None:
    """``\\S{24}`` as RE2 reads it: \\v, NBSP, U+2028 and Chinese are not ``\\s``."""
    from studio.lint.rules.security_encoded import long_run

    run = re2.compile(r"\S{24}")
    cases = [
        "a" * 23,
        "a" * 24,
        "a" * 23 + " b",
        "a" * 12 + "\v" + "b" * 11,
        "a" * 12 + "\u00a0" + "b" * 11,
        "a" * 12 + "\u2028" + "b" * 11,
        "汉" * 24,
        "汉" * 23 + "\t汉",
        "x\r\n" * 30,
        "",
    ]
    for value in [*texts, *cases]:
        assert long_run(value) == (run.search(value) is not None), value[:60]
