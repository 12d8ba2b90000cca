"""The lint's fast paths give exactly what the straightforward code they replace gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from studio.lint import scores
from studio.lint.rules import ambiguity, consistency, description, schema
from studio.lint.rules._common import sentences
from studio.lint.text import (
    _CJK_CLASS,
    _TOKEN,
    STOPWORDS,
    has_cjk,
    may_contain,
    token_count,
    tokenize,
)

_ONE_CJK = re.compile(f"[{_CJK_CLASS}]")

_PIECES = [
    "get_order",
    "queryOrderList",
    "Orders",
    "the",
    "of",
    "ONLY",
    "at most",
    "Up To",
    "must",
    "irreversibly",
    "Cannot be undone",
    "can’t be",
    "always prefer this",
    "most powerful",
    "don't",
    "it's",
    "user’s",
    "e.g.",
    "X-1024",
    "2024",
    "１２",
    "订单",
    "查询订单",
    "的",
    "最多",
    "不可逆",
    "。",
    "，",
    "；",
    "！",
    "?",
    ".",
    ";",
    "!",
    " ",
    "  ",
    "\n",
    "\t",
    "\u3000",
    "-",
    "İ",
    "ı",
    "ſ",
    "\u212a",
    "K",
    "k",
    "ß",
    "é",
    "Σ",
    "_",
    "<",
    "≤",
    "ｱ",
    "한국",
    "\u200b",
]
_TEXT = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.characters(max_codepoint=0x7F), st.characters()),
    max_size=30,
).map("".join)


def _reference_tokenize(text: str, *, drop_stopwords: bool = True) -> list[str]:
    tokens: list[str] = []
    for match in _TOKEN.finditer(text):
        run = match.group()
        if _ONE_CJK.match(run):
            if len(run) == 1:
                tokens.append(run)
            else:
                tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            word = run.lower()
            if not drop_stopwords or word not in STOPWORDS:
                tokens.append(word)
    if drop_stopwords:
        tokens = [t for t in tokens if t not in STOPWORDS]
    return tokens


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.booleans())
def test_tokenize_equals_the_match_walk(text: str, drop: bool) -> None:
    assert tokenize(text, drop_stopwords=drop) == _reference_tokenize(text, drop_stopwords=drop)
    assert token_count(text) == len(_reference_tokenize(text, drop_stopwords=False))


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_has_cjk_equals_a_search_for_one_cjk_character(text: str) -> None:
    assert has_cjk(text) is (_ONE_CJK.search(text) is not None)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_sentence_split_equals_the_lookbehind_first_pattern(text: str) -> None:
    original = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
    assert sentences(text) == [s.strip() for s in original.split(text) if s and s.strip()]


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.sampled_from(["get_order", "order", "Query_2", "a", "get-order", "订单", "x.y"]))
def test_mentions_equal_the_word_bounded_pattern(text: str, name: str) -> None:
    info = ambiguity._ToolInfo(text, False, ("", ()), "")
    assert info.mentions(name) == (ambiguity._mention_pattern(name).search(text) is not None)


_NEEDLED = [
    (description._LIMIT_CUES, description._LIMIT_NEEDLES),
    (scores._LIMITS, scores._LIMIT_NEEDLES),
    (consistency._DESTRUCTIVE_PHRASES, consistency._DESTRUCTIVE_NEEDLES),
]
# The security rules' phrase needles have their own differential test
# (tests/lint/test_rules_security.py::test_phrase_needles_never_hide_a_match).


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.sampled_from(range(len(_NEEDLED))))
def test_needle_prefilters_never_hide_a_match(text: str, which: int) -> None:
    pattern, needles = _NEEDLED[which]
    if pattern.search(text):
        assert may_contain(needles, text)


def test_needle_prefilters_cover_every_alternative_on_its_phrases() -> None:
    phrases = [
        "At most 10",
        "up to 5",
        "only",
        "Maximum",
        "min",
        "limits",
        "no more than",
        "can't",
        "cannot",
        "must",
        "Requires",
        "between",
        "range",
        "not supported",
        "unsupported",
        "except",
        "within",
        "per call",
        "≤ 3",
        "> 2",
        "never",
        "default",
        "最多",
        "以内",
        "Irreversible",
        "permanently",
        "cannot be undone",
        "can’t be recovered",
        "no undo",
        "永久删除",
        "always use this",
        "the best",
        "best-in-class",
        "most accurate",
        "superior to",
        "better than any",
        "#1",
        "number one",
        "world class",
        "officially recommended",
        "首选",
        "<IMPORTANT>",
        "ignore previous",
        "do not tell the user",
    ]
    for pattern, needles in _NEEDLED:
        for phrase in phrases:
            for variant in (phrase, phrase.upper(), f"x {phrase} y"):
                if pattern.search(variant):
                    assert may_contain(needles, variant), (pattern.pattern[:30], variant)


_SCHEMAS = st.recursive(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(
                ["string", "integer", "number", "boolean", "object", "array", "null", ["string"]]
            ),
            "enum": st.lists(st.sampled_from(["a", "b", 1, True, None]), max_size=3),
            "format": st.just("date"),
            "description": st.just("d"),
            "minimum": st.just(0),
            "x-injected": st.just("session.user"),
        },
    ),
    lambda inner: st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "array"]),
            "properties": st.dictionaries(st.sampled_from(["a", "b", "x-c"]), inner, max_size=3),
            "required": st.lists(st.sampled_from(["a", "b", "x-c"]), max_size=2),
            "additionalProperties": st.sampled_from([False, True, {"type": "string"}]),
            "items": inner,
        },
    ),
    max_leaves=6,
)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(0, 2), st.sampled_from("ab")),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "x-c", "d"]), inner, max_size=3),
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(_SCHEMAS, _VALUES)
def test_surely_valid_never_hides_a_validation_error(shape: dict, value: object) -> None:
    if schema._surely_valid(shape, value):
        stripped = schema._strip_extensions(shape)
        assert next(iter(Draft202012Validator(stripped).iter_errors(value)), None) is None


def test_ascii_tokenize_by_split_finds_the_regexs_words() -> None:
    """An ASCII text without an apostrophe is split, not searched: the same words, in order."""
    import random
    import string

    from studio.lint import text as text_module

    rng = random.Random(7)
    alphabet = string.printable
    samples = ["Get the user's 2 orders", "a_b-c.d/e\tF\nG\x1cH", "", "  ", "ID42 x-ray"]
    samples += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(3000)
    ]
    for sample in samples:
        expected = text_module._LATIN_WORD.findall(sample.lower())
        assert text_module.tokenize(sample, drop_stopwords=False) == expected, sample


def test_boilerplate_sentence_words_by_split_are_the_regexs_words() -> None:
    import random
    import re
    import string

    from studio.lint.rules.cost import _sentence_entry

    rng = random.Random(11)
    alphabet = string.ascii_letters + string.digits + ' \t\n.,;:!?-/()[]{}<>@#$%^&*+=|~`"\\'
    for _ in range(3000):
        sentence = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        words = re.findall(r"\w+", sentence.lower())
        assert _sentence_entry("p", sentence) == ("p", sentence, len(words), " ".join(words))


def test_ascii_word_counts_and_sets_by_split_are_the_regexs() -> None:
    import random
    import string

    from studio.lint import text as text_module

    rng = random.Random(5)
    alphabet = string.printable
    for _ in range(3000):
        sample = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        words = text_module._LATIN_WORD.findall(sample)
        assert text_module.token_count(sample) == len(words)
        assert text_module.text_length(sample).latin_words == len(words)
        low = {w.lower() for w in words} - text_module.STOPWORDS
        assert text_module.latin_word_set(sample) == low


def test_ident_words_are_the_regexs_words() -> None:
    """The security rules' identifier-like words of an ASCII text, by a byte translation
    and a split, are the ones ``_IDENT_WORD`` finds; other texts go to the regex."""
    import random
    import string

    from studio.lint.rules.security import _IDENT_WORD, ident_words

    rng = random.Random(13)
    samples = [
        "see get_order.",
        "-a-b-",
        "a..b",
        "--.",
        "x.-y",
        "v1.2.3-beta",
        "_x_",
        "调用 get_x。",
    ]
    samples += [
        "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 80)))
        for _ in range(5000)
    ]
    for sample in samples:
        assert ident_words(sample) == frozenset(_IDENT_WORD.findall(sample)), sample
