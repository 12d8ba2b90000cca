"""PhraseSet.find skips words that start no phrase: it finds what a word-by-word walk finds."""

from __future__ import annotations

import random

from studio.lint.lexicon import _LATIN_WORD, _MAX_WORDS, PhraseSet, _bases

PHRASES: dict[str, list[object]] = {
    "start": ["s"],
    "restart": ["r"],
    "opt in": ["in"],
    "opt out": ["out"],
    "opt out of": ["out-of"],
    "a single": ["one"],
    "more": ["extent", "more"],
    "关注": ["follow"],
    "取消关注": ["unfollow"],
}
FILLER = ["the", "vm", "instance", "users", "of", "a", "list", "get", "and", "or", "single", "opt"]


def _walk(phrases: PhraseSet, text: str) -> list[tuple[str, object]]:
    """The English half of find, one word at a time (the form before the skip)."""
    latin = phrases._latin
    firsts = {k.split(" ", 1)[0] for k in latin}
    words = _LATIN_WORD.findall(text.lower())
    out: list[tuple[str, object]] = []
    i, n = 0, len(words)
    while i < n:
        bases = [b for b in _bases(words[i]) if b in firsts]
        step = 1
        for size in range(min(_MAX_WORDS, n - i), 0, -1) if bases else ():
            rest = " ".join(words[i + 1 : i + size])
            hit = next((k for b in bases if (k := f"{b} {rest}" if rest else b) in latin), None)
            if hit is not None:
                out.extend((hit, label) for label in latin[hit])
                step = size
                break
        i += step
    return out


def test_find_equals_a_word_by_word_walk() -> None:
    phrases = PhraseSet(PHRASES)
    rng = random.Random(5)
    vocabulary = [*FILLER, "start", "starts", "restarted", "opting", "in", "out", "of", "all"]
    found = 0
    for _ in range(400):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 14)))
        want = _walk(phrases, text)
        assert phrases.find(text) == want, text
        found += len(want)
    assert found > 200


def test_find_takes_the_longest_phrase_and_chinese_ones() -> None:
    phrases = PhraseSet(PHRASES)
    assert phrases.find("Opting out of all lists, then restart") == [
        ("opt out of", "out-of"),
        ("restart", "r"),
    ]
    assert ("restart", "r") in phrases.find("Restarted the VM")
    assert phrases.find("取消关注用户") == [("取消关注", "unfollow")]
