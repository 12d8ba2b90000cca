"""A :class:`CueSearch` answers exactly as a search with its pattern does.

It tries the pattern only where one of its literals starts, so a literal list that
misses how some alternative can start would hide matches silently: each rule's
searches are compared with the plain search on generated text, on phrases of every
alternative, and on the texts of real tools (the security corpus's benign tools).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.lint import scores
from studio.lint.rules import description
from studio.lint.rules._common import CueSearch

_SEARCHES = {
    "limits": description._LIMITS,
    "usage": description._USAGE,
    "returns": description._RETURNS,
    "format": description._FORMAT,
    "scores negative": scores._NEGATIVE_CUES,
    "scores instead": scores._INSTEAD_CUES,
    "scores when": scores._WHEN_CUES,
    "scores limits": scores._LIMIT_CUES,
    "scores returns": scores._RETURN_CUES,
    "scores examples": scores._EXAMPLE_CUES,
}
_DATA = Path(__file__).resolve().parents[1] / "data" / "security" / "benign.jsonl"

_PIECES = [
    *("use ", "Use this when", "USE IT TO", "when to use", "Do not use", "don't use"),
    *("don’t use", "never use", "instead", "rather than", "only when", "Only if"),
    *("call it when", "Call before", "callwhen", "prefer", "not for", "用于", "不要使用"),
    *("请改用", "而不是", "当用户", "时", "returns", "Returning", "responds with"),
    *("outputs", "yields", "gives back", "results are", "result contains", "返回", "结果"),
    *("at most", "At Least", "up to", "maximum", "min", "limits", "no more than", "cannot"),
    *("can’t", "must", "requires", "between", "range", "not supported", "per call"),
    *("per day", "≤", "≥", "<", ">=", "never", "default", "最多", "以内", "scan", "admin"),
    *("orange", "paper ", "user", "reuse", "caller", "a", "_", "-", "'", " ", "\n", "."),
    *("avoid", "not to", "不要", "请勿", "不可", "勿用", "不用于", "而非", "如果", "用户", "If"),
    *("the user", "for", "When", "e.g.", "For example", "example:", "such as", "例如", "比如"),
    *("YYYY-MM-DD", "yy-mm", "hh:mm", "ISO 8601", "iso-8601", "RFC3339", "unix", "epoch"),
    *("format", "pattern", "i.e.", "like", "https://x", "http://", "a@b", "UUID", "digits"),
    *("prefixed", "starts with", "start with", "seconds", "milliseconds", "as returned by"),
    *("from the result", "from output", "`code`", '"quoted"', "'quoted'", "格式", "如：", "形如"),
    *("示例", "位数字", "开头"),
    *("İ", "ı", "ſ", "\u212a", "ß", "é", "订单"),
]
_TEXT = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.characters(max_codepoint=0x7F), st.characters()),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT, st.sampled_from(sorted(_SEARCHES)))
def test_found_is_the_search(text: str, which: str) -> None:
    cues = _SEARCHES[which]
    assert cues.found(text) == (cues.pattern.search(text) is not None)


def test_every_alternative_starts_with_a_literal() -> None:
    """Each piece above, alone and inside words, in every case: a match is found."""
    for name, cues in _SEARCHES.items():
        for piece in _PIECES:
            for variant in (piece, piece.upper(), piece.title(), f"x {piece} y", f"x{piece}"):
                assert cues.found(variant) == (cues.pattern.search(variant) is not None), (
                    name,
                    variant,
                )


def _real_texts() -> list[str]:
    texts = []
    with _DATA.open(encoding="utf-8") as lines:
        for line in lines:
            tool = json.loads(line)["tool"]
            texts.append(str(tool.get("description") or ""))
            props = (tool.get("parameters") or {}).get("properties") or {}
            texts.extend(
                str(p.get("description") or "") for p in props.values() if isinstance(p, dict)
            )
    return texts


def test_found_is_the_search_on_real_tools() -> None:
    texts = _real_texts()
    assert len(texts) > 1000
    for name, cues in _SEARCHES.items():
        differ = [t for t in texts if cues.found(t) != (cues.pattern.search(t) is not None)]
        assert not differ, (name, differ[:3])


def test_match_at_a_literal_sees_the_word_before_it() -> None:
    cues = CueSearch(re.compile(r"\bmax\b", re.IGNORECASE), ("max",))
    assert not cues.found("the climax")
    assert cues.found("the MAX of")
    assert not cues.found("")


def test_literals_must_not_be_empty() -> None:
    with pytest.raises(ValueError):
        CueSearch(re.compile("a"), ("a", ""))
    with pytest.raises(ValueError):
        CueSearch(re.compile("a"), ())
