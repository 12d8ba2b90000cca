"""Learned second opinion on tool poisoning: a linear model over hashed character n-grams and words.

Why: the phrase and grammar rules (:mod:`security`, :mod:`security_grammar`)
find what they were written for, but on fresh wording they found about half
of the poisoned tools at first sight (README of ``tests/data/security``). A
linear classifier over character 1–4-grams of the *normalised* text (no word
segmentation, so Chinese, English and mixed text work alike) generalises to
phrasings neither the rules nor their authors have seen; Latin word unigrams
and bigrams beside them tell "ignore case" from "ignore previous", which
character 4-grams cannot. The two detectors are combined by the lint run
(either one fires → a finding).

The model is a plain weight vector (``resources/lint/security_model.npz``,
written by ``benchmarks/train_security_model.py``): scoring a text is a dot
product between the weights and the counts of its hashed features, scaled by
:func:`scale` of their count. Hashing is a multiplicative hash of the code
points (words: a polynomial hash from one prefix sum) computed with numpy for
every feature of a batch of tools at once, so no scikit-learn is imported at
lint time and a registry costs a handful of array operations. The tool's
whole text decides; its best scoring sentence is what the message quotes.
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


_IS_WORD = np.zeros(0x10000, dtype=bool)
_IS_WORD[[ord(c) for c in "abcdefghijklmnopqrstuvwxyz0123456789_"]] = True
_IS_WORD[0xC0:0x250] = True  # accented Latin letters
_IS_WORD[[0xD7, 0xF7]] = False  # × ÷
_P = np.uint32(0x01000193)
_P_INV = np.uint32(pow(0x01000193, -1, 1 << 32))
_UNIGRAM_SALT = np.uint32(0x5BD1E995)
_BIGRAM_SALT = np.uint32(0x27D4EB2F)


_POWERS: list[np.ndarray] = []


def _powers(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``P**k`` and ``P**-k`` for k = 0 … n (at least), uint32; kept and grown by doubling."""
    if not _POWERS or len(_POWERS[0]) <= n:
        size = max(1 << 16, 1 << n.bit_length())
        with np.errstate(over="ignore"):
            out = []
            for base in (_P, _P_INV):
                seq = np.full(size + 1, base, dtype=np.uint32)
                seq[0] = 1
                out.append(np.multiply.accumulate(seq, dtype=np.uint32))
        _POWERS[:] = out
    return _POWERS[0], _POWERS[1]


def words(codes: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Starts, ends and feature indices of the Latin word unigrams and bigrams of ``codes``.

    Why: character 4-grams cannot tell "ignore case" from "ignore previous"
    (the deciding word is five characters away); word pairs can. A word is a
    run of Latin letters, digits and ``_``; Chinese needs no words here (its
    character n-grams already are words). Bigrams join consecutive words of
    one line. Word hashes are position independent polynomial hashes computed
    for every word at once from one prefix sum (uint32 arithmetic wraps on
    purpose): ``h(s, e) = P**e * (S[e] - S[s])`` with ``S[k] = Σ_{j<k} c_j P**-(j+1)``.
    """
    n = len(codes)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        return empty, empty, np.zeros(0, dtype=np.uint32)
    isw = _IS_WORD[np.minimum(codes, 0xFFFF)]
    edge = np.diff(np.concatenate(([False], isw, [False])).astype(np.int8))
    ws = np.flatnonzero(edge == 1)
    we = np.flatnonzero(edge == -1)
    if len(ws) == 0:
        return empty, empty, np.zeros(0, dtype=np.uint32)
    shift = np.uint32(32 - bits)
    pw, inv = _powers(n)
    with np.errstate(over="ignore"):
        pre = np.concatenate(([np.uint32(0)], np.cumsum(codes * inv[1 : n + 1], dtype=np.uint32)))
        h = pw[we] * (pre[we] - pre[ws])
        uni = ((h ^ _UNIGRAM_SALT) * _MULT) >> shift
        breaks = np.flatnonzero(codes == _SEPARATOR)
        same_line = np.searchsorted(breaks, ws[1:]) == np.searchsorted(breaks, we[:-1])
        bi = ((h[:-1] * _STEP + h[1:] + _BIGRAM_SALT) * _MULT) >> shift
    return (
        np.concatenate((ws, ws[:-1][same_line])),
        np.concatenate((we, we[1:][same_line])),
        np.concatenate((uni, bi[same_line])),
    )


SHRINK = 0.0
"""Added to a text's feature count before the square root that scales its score.

A pseudo-count would pull short texts (few features, scores that swing on a
word: "Deletes the user account and all its orders.") towards the bias.
Measured at 200 (README of ``tests/data/security``): fewer look-alikes
reported but as much recall lost, no better trade-off; kept at 0, the hook
kept so training and lint time scale alike.
"""


def scale(count: np.ndarray | int) -> np.ndarray | float:
    """What the weights' sum of a text with ``count`` features is multiplied by."""
    return 1.0 / np.sqrt(np.maximum(count, 1) + SHRINK)


def features(text: str, bits: int) -> np.ndarray:
    """Every feature index of ``text``: its character 1–4-grams, then its word uni- and bigrams."""
    codes = codes_of(text)
    return np.concatenate((*hashed(codes, bits), words(codes, bits)[2]))


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

    def score(self, text: str) -> float:
        """The score (a logit) of one text, every n-gram and word of it counted."""
        ix = features(text, self.bits)
        return float(self.weights[ix].sum() * scale(len(ix))) + self.bias

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
        # Words never cross the line break between two texts: each belongs to one text.
        starts, _, ix = words(codes, self.bits)
        owner = np.searchsorted(firsts, starts, side="right") - 1
        size = len(texts)
        total += np.bincount(owner, self.weights[ix], minlength=size)[long_enough]
        count += np.bincount(owner, minlength=size)[long_enough]
        best[long_enough] = total * scale(count) + self.bias
        return best

    def top_ngrams(self, span: str, k: int = 3) -> list[str]:
        """The ``k`` n-grams or words of ``span`` that push its score up the most (distinct).

        A character 4-gram cut out of a Latin word is shown as that whole word
        ("tes" of "deletes" reads as nothing); Chinese 4-grams are shown as they are.
        """
        codes = codes_of(span)
        inside = np.append(_IS_WORD[np.minimum(codes, 0xFFFF)], False)
        best: dict[str, float] = {}
        for n, ix in enumerate(hashed(codes, self.bits), start=1):
            if n < MAX_N:
                continue
            w = self.weights[ix]
            for i in np.argsort(-w)[: 4 * k]:
                a, b = int(i), int(i) + n
                while a > 0 and inside[a - 1] and inside[a]:
                    a -= 1
                while b < len(span) and inside[b] and inside[b - 1]:
                    b += 1
                gram = span[a:b]
                if w[i] > 0 and gram.strip() and gram not in best:
                    best[gram] = float(w[i])
        starts, ends, ix = words(codes, self.bits)
        w = self.weights[ix]
        for i in np.argsort(-w)[: 4 * k]:
            gram = span[starts[i] : ends[i]]
            if w[i] > 0 and best.get(gram, -np.inf) < w[i]:
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
    scores = [m.score(value[a:b]) for a, b in zip(starts, ends, strict=True)]
    parts = [i for i in range(len(starts)) if ends[i] - starts[i] < len(value)]
    pick = max(parts, key=lambda i: scores[i]) if parts else len(starts) - 1
    clause = value[starts[pick] : ends[pick]].replace("\n", " / ")
    return Suspicion(clause, whole, tuple(m.top_ngrams(clause)))
