"""Learned second opinion on tool poisoning: a linear model over hashed character n-grams.

Why: the phrase and grammar rules (:mod:`security`, :mod:`security_grammar`)
find what they were written for, but on fresh wording they found about half
of the poisoned tools at first sight (README of ``tests/data/security``). A
linear classifier over character 1–4-grams of the *normalised* text (no word
segmentation, so Chinese, English and mixed text work alike) generalises to
phrasings neither the rules nor their authors have seen; the two detectors are
combined by the lint run (either one fires → a finding).

The model is a plain weight vector (``resources/lint/security_model.npz``,
written by ``benchmarks/train_security_model.py``): scoring a text is a dot
product between the weights and the counts of its hashed n-grams, divided by
the square root of the n-gram count. Hashing is a multiplicative hash of the
code points computed with numpy for every n-gram of a tool at once, so no
scikit-learn is imported at lint time and a tool costs a handful of array
operations. Every slot of the tool (description, usage, each parameter
description, enum value, default …), every sentence of a slot and the tool's
whole text are scored from one pass of cumulative sums; the best scoring unit
decides and is quoted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from studio.lint.rules.security_normalise import normalise

MODEL_PATH = Path(__file__).resolve().parents[3] / "resources" / "lint" / "security_model.npz"

MAX_N = 4
"""Character n-grams of length 1 … MAX_N."""
_MULT = np.uint32(0x9E3779B1)  # Fibonacci hashing: the top bits of code × this
_STEP = np.uint32(1_000_003)  # combines the code points of one n-gram
_IS_PUNCT = np.zeros(0x10000, dtype=bool)
_IS_PUNCT[[ord(c) for c in ".!?;。！？；"]] = True
_SEPARATOR = 0x0A  # joins a tool's slots (a line break, as in the whole text)

MIN_CHARS = 12
"""Units shorter than this are not scored on their own (they still count in the whole)."""


def hashed(codes: np.ndarray, bits: int) -> list[np.ndarray]:
    """Feature indices of every n-gram of ``codes``: element ``n-1`` holds the ``n``-grams.

    The ``n``-gram starting at ``i`` is at index ``i`` of the ``n``-th array.
    Arithmetic wraps in uint32 on purpose (a hash, not a number; half the
    memory traffic of uint64 on a megabyte of text).
    """
    shift = np.uint32(32 - bits)
    out = []
    h = codes + np.uint32(1)
    with np.errstate(over="ignore"):
        for n in range(1, MAX_N + 1):
            if n > 1:
                h = h[:-1] * _STEP + codes[n - 1 :] + np.uint32(n)
            out.append((h * _MULT) >> shift)
    return out


def prepare(joined: str, skip_first: bool = False) -> str:
    """The text the model reads from a tool's normalised joined text (one line per slot).

    Lower case; ``skip_first`` drops the first line (the tool's name: an
    identifier, not prose). Nothing more, so a tool costs one string copy.
    """
    value = joined.lower()
    return value.partition("\n")[2] if skip_first else value


def tool_text(slots: Sequence[tuple[str, str]]) -> str:
    """:func:`prepare` of a tool's (path, text) slots, normalised here (training, tests)."""
    joined = normalise("\n".join(v for _, v in slots))
    return prepare(joined, bool(slots) and slots[0][0] == "name")


def pieces(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends of the sentences and lines of ``codes`` that have 12+ characters.

    A sentence ends after . ! ? ; or their Chinese forms, a line at a line
    break (not part of either side); a leading space is dropped.
    """
    n = len(codes)
    after = np.flatnonzero(_IS_PUNCT[np.minimum(codes, 0xFFFF)]) + 1
    breaks = np.flatnonzero(codes == _SEPARATOR)
    cut_at = np.concatenate((after, breaks))
    order = np.argsort(cut_at, kind="stable")
    ends = np.concatenate((cut_at[order], [n]))
    starts = np.concatenate(([0], np.concatenate((after, breaks + 1))[order]))
    inside = starts < n
    starts[inside] += codes[starts[inside]] == 32
    keep = ends - starts >= MIN_CHARS
    return starts[keep], ends[keep]


def spans(text: str) -> tuple[list[int], list[int]]:
    """Each sentence or line of ``text`` (:func:`pieces`) and, unless that is all, the whole."""
    s, e = pieces(codes_of(text))
    starts, ends = s.tolist(), e.tolist()
    whole = len(starts) == 1 and starts[0] == 0 and ends[0] == len(text)
    if not whole and len(text) >= MIN_CHARS:
        starts.append(0)
        ends.append(len(text))
    return starts, ends


def codes_of(text: str) -> np.ndarray:
    """The code points of ``text`` as an int array."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def span_sums(
    values: Sequence[np.ndarray], starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per span [start, end): the sum of ``values`` over its n-grams, and how many there are.

    ``values[n-1][i]`` belongs to the n-gram starting at ``i``; an n-gram is in a
    span when it starts and ends inside it. One cumulative sum over the n-grams
    starting at each position, minus the few longer n-grams that start in the
    last characters of a span and run past its end.
    """
    size = len(values[0])
    per_position = np.zeros(size + 1)
    for vals in values:
        per_position[: len(vals)] += vals
    cum = np.concatenate(([0.0], np.cumsum(per_position[:size])))
    total = cum[ends] - cum[starts]
    length = ends - starts
    count = np.zeros(len(starts))
    for n, vals in enumerate(values, start=1):
        count += np.maximum(length - n + 1, 0)
        padded = np.concatenate((vals, np.zeros(n)))
        for back in range(1, n):  # n-grams starting at end - back run past the end
            at = ends - back
            total -= np.where(at >= starts, padded[np.maximum(at, 0)], 0.0)
    return total, count


@dataclass(frozen=True, slots=True)
class Model:
    """Weights over ``2**bits`` hashed n-gram features, a bias and two score thresholds."""

    weights: np.ndarray
    bias: float
    bits: int
    warning: float
    error: float

    def score_texts(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per text (see :func:`prepare`): the score (a logit) of each of its :func:`spans`."""
        out = []
        for value in texts:
            s, e = spans(value)
            if not s:
                out.append(np.zeros(0))
                continue
            values = [self.weights[ix] for ix in hashed(codes_of(value), self.bits)]
            total, count = span_sums(values, np.array(s), np.array(e))
            out.append(total / np.sqrt(np.maximum(count, 1.0)) + self.bias)
        return out

    def best_scores(self, texts: Sequence[str]) -> np.ndarray:
        """Per text: the score of the whole text (``-inf`` when shorter than MIN_CHARS).

        The whole text decides, not its best sentence: a sentence alone is short
        and short texts score erratically ("Never logs passwords."). All texts
        are hashed and summed in one pass, so numpy's per-call cost is paid once
        per batch, not once per tool.
        """
        codes = codes_of("\n".join(texts))
        lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
        firsts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
        best = np.full(len(texts), -np.inf)
        long_enough = lengths >= MIN_CHARS
        if not long_enough.any():
            return best
        values = [self.weights[ix] for ix in hashed(codes, self.bits)]
        st = firsts[long_enough]
        total, count = span_sums(values, st, st + lengths[long_enough])
        best[long_enough] = total / np.sqrt(np.maximum(count, 1.0)) + self.bias
        return best

    def top_ngrams(self, span: str, k: int = 3) -> list[str]:
        """The ``k`` longest n-grams of ``span`` that push its score up the most (distinct)."""
        codes = codes_of(span)
        best: dict[str, float] = {}
        for n, ix in enumerate(hashed(codes, self.bits), start=1):
            if n < MAX_N:
                continue
            w = self.weights[ix]
            for i in np.argsort(-w)[: 4 * k]:
                gram = span[i : i + n]
                if w[i] > 0 and gram.strip() and gram not in best:
                    best[gram] = float(w[i])
        chosen: list[str] = []
        for gram, _ in sorted(best.items(), key=lambda kv: -kv[1]):
            gram = gram.strip()
            if any(gram in c or c in gram for c in chosen):
                continue
            chosen.append(gram)
            if len(chosen) == k:
                break
        return chosen


@lru_cache(maxsize=1)
def model(path: Path = MODEL_PATH) -> Model | None:
    """The shipped model, loaded once (None when the file is missing or unreadable)."""
    try:
        with np.load(path) as data:
            return Model(
                weights=data["weights"].astype(np.float32),
                bias=float(data["bias"]),
                bits=int(data["bits"]),
                warning=float(data["warning"]),
                error=float(data["error"]),
            )
    except (OSError, KeyError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class Suspicion:
    """A flagged tool: its best sentence, the whole text's score, and why."""

    clause: str
    score: float
    ngrams: tuple[str, ...]


_CACHE: dict[str, Suspicion | None] = {}
_CACHE_LIMIT = 50_000


def is_cached(value: str) -> bool:
    """Whether ``value`` (a prepared text) was scored already."""
    return value in _CACHE


def suspicions(texts: Sequence[str], m: Model | None = None) -> list[Suspicion | None]:
    """Per prepared text: what to report when its score reaches the warning threshold.

    Cached by text (the editor re-lints unchanged tools after each edit); the
    texts not cached yet are scored in one batch.
    """
    m = m or model()
    if m is None:
        return [None] * len(texts)
    missing = list(dict.fromkeys(t for t in texts if t not in _CACHE))
    if missing:
        if len(_CACHE) + len(missing) > _CACHE_LIMIT:
            _CACHE.clear()
        for value, best in zip(missing, m.best_scores(missing).tolist(), strict=True):
            _CACHE[value] = _best(value, best, m) if best >= m.warning else None
    return [_CACHE.get(t) for t in texts]


def _best(value: str, whole: float, m: Model) -> Suspicion:
    """What the message quotes: the best scoring sentence of a flagged text."""
    starts, ends = spans(value)
    scores = m.score_texts([value])[0]
    parts = [i for i in range(len(starts)) if ends[i] - starts[i] < len(value)]
    pick = max(parts, key=lambda i: scores[i]) if parts else len(starts) - 1
    clause = value[starts[pick] : ends[pick]].replace("\n", " / ")
    return Suspicion(clause, whole, tuple(m.top_ngrams(clause)))
