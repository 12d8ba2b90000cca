"""A rough, offline estimate of how many tokens a text costs a model.

This is an **estimate**, not a tokenizer: it needs no network and no
vocabulary file, and it is meant for "≈ N tokens" hints in the studio. Where an
exact offline tokenizer exists (OpenAI targets with bpe-openai installed),
:mod:`studio.contract.token_count` uses it instead.

Calibrated against o200k_base (``benchmarks/token_estimate.py``: 814 texts from
the example registries, generated tools, the README and Chinese prose), the
estimate runs high and almost never low (3 texts of 814, by one token each):

==============  ===========  ==========  ====================
kind            mean signed  mean abs    token-weighted total
==============  ===========  ==========  ====================
English prose   +11 %        12 %        +14 %
Chinese prose   +35 %        35 %        +39 %
mixed prose     +29 %        29 %        +25 %
JSON            +35 %        35 %        +29 %
==============  ===========  ==========  ====================

It counts one token per CJK character and about one per two punctuation
characters, where o200k_base holds many CJK words and JSON pairs such as
``":"`` whole. The constants are kept (the tests pin them): a budget check
that errs high is the safe side, and other models' tokenizers (no public
offline one exists for current Claude or Gemini models) are not o200k_base.

The heuristic, per run of characters:

- CJK ideographs, kana and hangul: about one token per character.
- Latin letters: a word of up to six letters is one token (BPE vocabularies
  hold common short words whole); each further ~4 letters add a word-piece.
  Digits are split in groups of three, as GPT-style tokenizers do.
- Punctuation and symbols: a run costs one token per two characters (BPE
  vocabularies hold pairs such as ``":`` and ``},``); runs of one repeated
  character (``----``) cost one token per four.
- Whitespace: a single space is free (it is folded into the next token); a
  newline with the indentation after it costs one token; other runs of
  spaces cost one token per four.
"""

from __future__ import annotations

import math
import re

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # half-width and full-width forms
    "\u3000-\u303f"  # CJK punctuation
)

_TOKEN_RE = re.compile(
    rf"(?P<cjk>[{_CJK}])"
    rf"|(?P<digits>\d+)"
    rf"|(?P<word>[^\W\d_{_CJK}]+)"
    r"|(?P<newline>\n[ \t]*)"
    r"|(?P<space>[ \t\r\f\v]+)"
    r"|(?P<repeat>(?P<rch>[^\w\s])(?P=rch){2,})"
    r"|(?P<punct>[^\w\s]+)"
    r"|(?P<other>.)",
    re.DOTALL,
)

_WHOLE_WORD_CHARS = 6
_LATIN_CHARS_PER_TOKEN = 4
_DIGITS_PER_TOKEN = 3
_SPACES_PER_TOKEN = 4

# ---------------------------------------------------------------- counting
#
# ``_TOKEN_RE`` defines the pieces (the first alternative that matches wins)
# and the rules above their cost. Walking its matches in Python is slow, so the
# pieces are counted with C-level string operations instead, with results
# identical to that walk (tests/contract/test_tokens.py keeps it and compares
# on random mixed text):
#
# - CJK characters that are always pieces of their own and that no other piece
#   runs across (``_CJK_SPLIT_RE``) are counted and cut out; the parts between
#   them are estimated one by one.
# - Plain ASCII text (no tab, CR, VT, FF, double space or \x1c-\x1f, and no
#   punctuation run starting with a character repeated three times) is split
#   by class with ``bytes.translate``: letters, digits and punctuation form
#   maximal runs of their own class, each run one piece; a newline is a piece;
#   single spaces are free; every underscore is a piece of its own.
# - Other text is segmented by one ``findall`` of the same alternation, and
#   the cost of each distinct piece is looked up in a table (a piece's cost
#   depends on the piece alone: the alternative that matched it in the text is
#   the one that matches it on its own, as no alternative looks ahead).

_SEGMENT_RE = re.compile(
    rf"([{_CJK}]|\d+|[^\W\d_{_CJK}]+|\n[ \t]*|[ \t\r\f\v]+|([^\w\s])\2{{2,}}|[^\w\s]+|.)",
    re.DOTALL,
)
"""``_TOKEN_RE`` without names: ``findall`` gives (piece, repeated char) pairs."""

_ASCII_PUNCT = "".join(chr(i) for i in range(128) if re.match(r"[^\w\s]", chr(i)))
_ASCII_PUNCT_CLASS = "[" + "".join(f"\\x{ord(c):02x}" for c in _ASCII_PUNCT) + "]"
_REPEAT = re.compile(rf"({_ASCII_PUNCT_CLASS})\1\1")
"""A punctuation character repeated three times (a cheap test for the next one)."""
_REPEAT_START = re.compile(rf"(?<!{_ASCII_PUNCT_CLASS})({_ASCII_PUNCT_CLASS})\1\1")
"""A punctuation run that starts with a character repeated three times."""
_ODD_ASCII = ("  ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def _class_table(chars: str, mark: str) -> bytes:
    return bytes(ord(mark) if chr(i) in chars else 32 for i in range(256))


_CJK_WORD_CLASS = (
    "[\\u3005-\\u3007\\u3021-\\u3029\\u3031-\\u3035\\u3038-\\u303c\\u3041-\\u3096\\u309d-\\u309f"
    "\\u30a1-\\u30fa\\u30fc-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3\\uf900-\\ufa6d"
    "\\ufa70-\\ufad9\\uff21-\\uff3a\\uff41-\\uff5a\\uff66-\\uffbe\\uffc2-\\uffc7\\uffca-\\uffcf"
    "\\uffd2-\\uffd7\\uffda-\\uffdc]"
)
"""The CJK characters (of ``_CJK``) that ``\\w`` matches and ``\\d`` does not: ideographs,
kana, hangul, full-width letters (tests/contract/test_tokens.py recomputes both classes)."""
_CJK_NON_DIGIT_CLASS = (
    "[\\u3000-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uff0f"
    "\\uff1a-\\uffef]"
)
"""The CJK characters that are not digits (all but the full-width digits)."""
_CJK_SPLIT_RE = re.compile(
    rf"{_CJK_NON_DIGIT_CLASS}(?<![^\w\s]{_CJK_NON_DIGIT_CLASS}){_CJK_NON_DIGIT_CLASS}*"
    rf"|{_CJK_WORD_CLASS}+"
)
"""CJK characters that are pieces of their own, and that no piece takes in or runs
across: word characters (a punctuation run stops at them; they are not digits
or letters of a word piece), and any non-digit CJK character right after a word
character, a space or the start (a punctuation run cannot have started before
it). The text between them can be estimated part by part."""

_LETTERS = "".join(chr(i) for i in range(128) if chr(i).isalpha())
_LETTER_TABLE = _class_table(_LETTERS, "a")
_DIGIT_TABLE = _class_table("0123456789", "0")
_PUNCT_TABLE = _class_table(_ASCII_PUNCT, ".")
_LONG_WORD = b"a" * (_WHOLE_WORD_CHARS + 1)


def _word_cost(n: int) -> int:
    return 1 + math.ceil(max(0, n - _WHOLE_WORD_CHARS) / _LATIN_CHARS_PER_TOKEN)


def _digits_cost(n: int) -> int:
    return math.ceil(n / _DIGITS_PER_TOKEN)


def _punct_cost(n: int) -> int:
    return math.ceil(n / 2)


_TABLE_SIZE = 512
_WORD_COSTS = [_word_cost(n) for n in range(_TABLE_SIZE)]
_DIGITS_COSTS = [_digits_cost(n) for n in range(_TABLE_SIZE)]
_PUNCT_COSTS = [_punct_cost(n) for n in range(_TABLE_SIZE)]


def _runs_cost(runs: list[bytes], table: list[int], cost) -> int:
    """Sum of ``cost(len(run))``, through ``table`` for the usual short runs."""
    try:
        return sum(map(table.__getitem__, map(len, runs)))
    except IndexError:
        return sum(map(cost, map(len, runs)))


def _ascii_estimate(text: str) -> int | None:
    """The estimate of plain ASCII text, or None when the text needs the general path."""
    for odd in _ODD_ASCII:
        if odd in text:
            return None
    if _REPEAT.search(text) is not None and _REPEAT_START.search(text) is not None:
        return None
    raw = text.encode("ascii")
    total = text.count("\n") + text.count("_")
    letters = raw.translate(_LETTER_TABLE)
    if _LONG_WORD in letters:
        total += _runs_cost(letters.split(), _WORD_COSTS, _word_cost)
    else:
        total += len(letters.split())
    digits = raw.translate(_DIGIT_TABLE)
    if b"0" in digits:
        total += _runs_cost(digits.split(), _DIGITS_COSTS, _digits_cost)
    total += _runs_cost(raw.translate(_PUNCT_TABLE).split(), _PUNCT_COSTS, _punct_cost)
    return total


def _piece_cost(piece: str) -> int:
    """Tokens of one piece of ``_TOKEN_RE`` (the rules of the module docstring)."""
    match = _TOKEN_RE.match(piece)  # matches the whole piece, as it did in the text
    kind = match.lastgroup if match is not None else None
    if kind == "cjk":
        return 1
    if kind == "digits":
        return _digits_cost(len(piece))
    if kind == "word":
        return _word_cost(len(piece))
    if kind == "newline":
        return 1
    if kind == "space":
        # A single space merges into the next token (" the" is one token);
        # longer runs (indentation) cost about one token per four.
        return math.ceil(len(piece) / _SPACES_PER_TOKEN) if len(piece) > 1 else 0
    if kind == "punct":
        # BPE vocabularies hold common pairs such as '":', '},' and '{"'.
        return _punct_cost(len(piece))
    if kind == "repeat":
        return math.ceil(len(piece) / _LATIN_CHARS_PER_TOKEN)
    return 1


class _PieceCosts(dict[tuple[str, str], int]):
    """Cost per (piece, repeated char) pair from ``_SEGMENT_RE``, computed on first use."""

    MAX_SIZE = 100_000

    def __missing__(self, key: tuple[str, str]) -> int:
        if len(self) >= self.MAX_SIZE:
            self.clear()
        value = self[key] = _piece_cost(key[0])
        return value


_piece_costs = _PieceCosts()


def estimate_tokens(text: str) -> int:
    """Estimate the tokens ``text`` costs a typical LLM tokenizer.

    Args:
        text: Any text: prose in any language, JSON, code.

    Return:
        A non-negative estimate; 0 only for the empty string or whitespace
        between nothing. It is a heuristic (see the module docstring), never
        an exact count for any particular model: calibrated against
        o200k_base it is about 11 % high on English prose and 35 % high on
        Chinese prose and compact JSON.
    """
    if text.isascii():
        total = _ascii_estimate(text)
        if total is not None:
            return total
        return _general_estimate(text)
    parts = _CJK_SPLIT_RE.split(text)
    if len(parts) == 1:
        return _general_estimate(text)
    total = len(text) - sum(map(len, parts))  # one per CJK character split off
    for part in parts:
        if part:
            if part.isascii():
                value = _ascii_estimate(part)
                total += _general_estimate(part) if value is None else value
            else:
                total += _general_estimate(part)
    return total


def _general_estimate(text: str) -> int:
    return sum(map(_piece_costs.__getitem__, _SEGMENT_RE.findall(text)))
