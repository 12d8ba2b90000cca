"""parse_canonical: the fast path gives exactly the bytes of the reference RFC 8785 code."""

from __future__ import annotations

import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.contract.canonical import canonical_json, parse_canonical

# Characters where a naive serialiser goes wrong: control characters, quotes and
# backslashes, the top of the BMP, characters beyond it (UTF-16 key order), CJK.
_CHARS = st.sampled_from(list('aZ_ 0"\\/\n\t\x00\x1f\x7f\u2028é中\ue000\uffff\U0001f600\U00010000'))
_TEXT = st.text(_CHARS, max_size=6)
_NUMBERS = st.one_of(
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.integers(min_value=2**53, max_value=2**60),  # refused by RFC 8785
    st.floats(allow_nan=False, allow_infinity=False),
)
_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), _NUMBERS, _TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=20,
)


def _reference(value: object) -> bytes | type[Exception]:
    try:
        return rfc8785.dumps(value)
    except ValueError as exc:
        return type(exc)


@settings(max_examples=600, deadline=None)
@given(value=_JSON, ascii_only=st.booleans())
def test_same_bytes_as_the_reference(value: object, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    expected = _reference(json.loads(text))
    if isinstance(expected, bytes):
        parsed, canonical = parse_canonical(text)
        assert canonical == expected
        assert parsed == json.loads(text)
    else:
        with pytest.raises(expected):
            parse_canonical(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"\\uffff": 1, "\\ud83d\\ude00": 2}',  # escaped pair: UTF-16 order puts it first
        '{"b": 1.0, "a": [1e-7, 100]}',
        '{"x": "\\udc00"}',  # a lone surrogate: not canonicalisable
        "[NaN]",
        "[9007199254740993]",
        # Floats at the edges of the fast path: integral ones beyond 2**53, the 1e16 and
        # 1e-4 bounds of plain notation, negative zero.
        "[9561180023443494.0, 1e16, 9999999999999998.0, 0.0001, 0.00009999, -0.0, 8.0, 118.5]",
    ],
)
def test_the_cases_the_fast_path_hands_to_the_reference(text: str) -> None:
    expected = _reference(json.loads(text))
    if isinstance(expected, bytes):
        assert parse_canonical(text)[1] == expected == canonical_json(json.loads(text))
    else:
        with pytest.raises(ValueError):
            parse_canonical(text)


def test_malformed_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_canonical('{"a": ')
