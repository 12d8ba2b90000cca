"""Verb classes: what the first word of a tool name or summary says it does.

The classes come from ``studio/lint/data/verbs.txt`` (one class per line,
English and Chinese side by side); the linter reads them through
:mod:`studio.lint.wordlists`, imports through :mod:`studio.contract.risk`.
The file is read from its place under ``studio/lint`` without importing the
linter package, so ``import studio.formats`` stays light.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

# Beside this package, as installed (wheel or editable): a path read, not
# importlib.resources, whose file reader imports zipfile (~8 ms of a CLI run).
_VERBS_TXT = Path(__file__).resolve().parent.parent / "lint" / "data" / "verbs.txt"


@lru_cache(maxsize=1)
def verb_classes() -> dict[str, str]:
    """Verb → class (``get`` → ``read``, ``预订`` → ``buy``), from ``verbs.txt``."""
    out: dict[str, str] = {}
    for line in _VERBS_TXT.read_text("utf-8").splitlines():
        body = line.split("#", 1)[0].strip()
        if ":" not in body:
            continue
        cls, words = body.split(":", 1)
        for word in words.split():
            out.setdefault(word.lower(), cls.strip())
    return out


def inflections(word: str) -> tuple[str, ...]:
    """``word`` and the base forms it may be an inflection of (gets, fetches, created)."""
    out = [word]
    n = len(word)
    if n > 3 and word.endswith("ies"):
        out.append(word[:-3] + "y")
    if n > 3 and word.endswith("es"):
        out.append(word[:-2])
    if n > 2 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    if n > 4 and word.endswith("ing"):
        out += [word[:-3], word[:-3] + "e"]
        if n > 5 and word[-4] == word[-5]:
            out.append(word[:-4])
    if n > 3 and word.endswith("ed"):
        out += [word[:-2], word[:-1]]
        if n > 4 and word[-3] == word[-4]:
            out.append(word[:-3])
        if word.endswith("ied"):
            out.append(word[:-3] + "y")
    return tuple(out)


@lru_cache(maxsize=65536)
def verb_class(word: str) -> str | None:
    """The class of a verb in any simple inflection (``fetching`` → ``read``), else None.

    Once per word: a lint of 2,000 public tools asks 13,700 times about 3,900
    words (importing guesses risk from names, the rules read first words);
    trying each inflection again cost ~3.5 ms CPU more than the cache.
    """
    classes = verb_classes()
    for form in inflections(word.lower()):
        cls = classes.get(form)
        if cls is not None:
            return cls
    return None


__all__ = ["inflections", "verb_class", "verb_classes"]
