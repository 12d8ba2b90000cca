"""TF-IDF similarity between tool descriptions, with an incremental index.

Each tool becomes a bag of tokens (:func:`studio.lint.text.tokenize`: Latin
words, CJK bigrams) from its name words, rendered description and parameter
names and descriptions. Weights are ``(1 + ln tf) · idf`` with the smoothed
``idf = ln((1 + N) / (1 + df)) + 1``, vectors are L2-normalised and compared by
cosine.

Candidate pairs never come from all pairs. Tokens are ordered rarest first;
a tool's *prefix* is the shortest run of its rarest tokens whose remaining
tail has norm below the watch threshold ``t``. Two tools with cosine ≥ ``t``
must share a token in both prefixes (the tail alone cannot reach ``t``), so an
inverted index over prefix tokens finds every such pair exactly (the
"All-Pairs" prefix filter). Tokens held by more than ``max_df_share`` of the
tools (at least :data:`MIN_MAX_DF`, at most :data:`MAX_DF_CAP`) are not used to
generate candidates: a pair is considered only when its rarest shared token
is under that limit, in full builds and incremental updates alike.

The index keeps every pair scoring at least ``threshold − margin`` (the
*watch list*). An edit of one tool re-scores that tool against the tools
sharing one of its prefix tokens, and re-scores the watch list (document
frequencies moved a little); it never visits all pairs. Small indexes
(≤ :data:`SMALL_INDEX` tools) are simply rebuilt, which is exact and cheap.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, KeysView
from dataclasses import dataclass, fields
from itertools import accumulate
from operator import attrgetter, mul

from studio.contract.model import ToolContract
from studio.contract.render import render_description
from studio.lint.text import split_identifier, tokenize

MIN_MAX_DF = 10
"""Tokens in at most this many tools always count for candidates (small registries)."""

MAX_DF_CAP = 50
"""Tokens in more tools than this never generate candidates, whatever the share.

It keeps candidate generation near linear on big registries: a near-duplicate
pair practically always shares some distinctive token."""

SMALL_INDEX = 64
"""Up to this many tools an update rebuilds the index instead of patching it."""

WATCH_MARGIN = 0.15


@dataclass(frozen=True, slots=True)
class SimilarPair:
    """Two tools a model may confuse, as the "similar tools" view shows them.

    Attributes:
        a: The tool that comes first in the registry.
        b: The other tool.
        score: TF-IDF cosine of their descriptions (0–1).
        shared_terms: The few distinctive content words both descriptions use,
            rarest first (no stopwords, generic words, numbers or ids).
        a_mentions_b: ``a``'s description tells the two apart (names ``b``
            or says what to use "instead").
        b_mentions_a: The same for ``b``.
        near_duplicate: The descriptions reach the similarity threshold, or
            their summaries say the same thing (short and Chinese texts too).
        confusable_names: The names say the same thing (same verb class and
            nouns) or differ by one character.
        summary_score: Dice similarity of what the two summaries say (verb
            classes and content words, 0–1).
        cloned_blocks: Description blocks (``summary``, ``usage``,
            ``description``) whose text is the same in both tools.
        duplicate: The tools are the same to a model: same description and
            same parameters (one function imported twice).
        severity: How confusable the pair is, as a lint severity value
            (``error``, ``warning``, ``info``), or ``""`` when both
            descriptions tell the tools apart.
    """

    a: str
    b: str
    score: float
    shared_terms: tuple[str, ...]
    a_mentions_b: bool
    b_mentions_a: bool
    near_duplicate: bool = False
    confusable_names: bool = False
    summary_score: float = 0.0
    cloned_blocks: tuple[str, ...] = ()
    duplicate: bool = False
    severity: str = ""

    def __reduce__(self) -> tuple[type[SimilarPair], tuple[object, ...]]:
        """Pickled as the constructor's arguments: a forked lint's child sends
        thousands of pairs, and a frozen dataclass's default state (one
        ``object.__setattr__`` per field from Python) takes twice as long."""
        return (SimilarPair, _pair_fields(self))


_pair_fields = attrgetter(*(f.name for f in fields(SimilarPair)))


def _fold_plural(token: str) -> str:
    out = token
    if token.isascii() and len(token) > 3 and token.isalpha():
        if token.endswith("ies") and len(token) > 4:
            out = token[:-3] + "y"
        elif token.endswith("s") and not token.endswith(("ss", "us", "is")):
            out = token[:-1]
    return out


class _NormCache(dict[str, str]):
    """Folded tokens, computed on first lookup (at most 200,000 kept)."""

    def __missing__(self, token: str) -> str:
        out = _fold_plural(token)
        if len(self) < 200_000:
            self[token] = out
        return out


_norm_cache = _NormCache()
_normalised = _norm_cache.__getitem__


def normalise_token(token: str) -> str:
    """Fold simple English plurals (``orders`` → ``order``); CJK is kept."""
    return _normalised(token)


def normalised_terms(tokens: Iterable[str]) -> Counter[str]:
    """``Counter(normalise_token(t) for t in tokens)``, without a Python call per known token.

    Numbers stay terms: two tools that share an example id are likely copies.
    They are never *shown* as shared terms (see the ambiguity rules).
    """
    return Counter(map(_normalised, tokens))


def tool_text(tool: ToolContract, template: str, rendered: str | None = None) -> str:
    """The text compared for similarity: name words, rendered description, parameters.

    ``rendered``, when given, is ``render_description(tool, template)`` already computed.
    """
    if rendered is None:
        rendered = render_description(tool, template)
    parts = [" ".join(split_identifier(tool.name)), rendered]
    props = tool.parameters.get("properties") if isinstance(tool.parameters, dict) else None
    if isinstance(props, dict):
        for pname, schema in props.items():
            parts.append(" ".join(split_identifier(str(pname))))
            if isinstance(schema, dict) and isinstance(schema.get("description"), str):
                parts.append(schema["description"])
    return "\n".join(parts)


def tool_terms(tool: ToolContract, template: str) -> Counter[str]:
    """Term frequencies of a tool's similarity text."""
    return normalised_terms(tokenize(tool_text(tool, template)))


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class _TfWeights(dict[int, float]):
    """``1 + ln(count)`` per term count, computed once per count (the same floats)."""

    def __missing__(self, count: int) -> float:
        weight = self[count] = 1.0 + math.log(count)
        return weight


_tf_weights = _TfWeights()


class SimilarityIndex:
    """Incremental TF-IDF index of tools with an inverted index for candidates."""

    def __init__(
        self,
        threshold: float = 0.6,
        *,
        max_df_share: float = 0.2,
        margin: float = WATCH_MARGIN,
        small_index: int = SMALL_INDEX,
    ) -> None:
        self.threshold = threshold
        self.watch = max(0.05, threshold - margin)
        self.max_df_share = max_df_share
        self.small_index = small_index
        self._tf: dict[str, dict[str, float]] = {}
        self._postings: dict[str, set[str]] = {}
        self._near: dict[tuple[str, str], float] = {}
        self._near_by_tool: dict[str, set[tuple[str, str]]] = {}
        self._vectors: dict[str, dict[str, float]] = {}
        self._idf_memo: dict[int, float] = {}
        # False after a build without the watch list (see build(incremental=False)).
        self._watching = True

    # ------------------------------------------------------------ stats

    def __len__(self) -> int:
        return len(self._tf)

    def __contains__(self, name: str) -> bool:
        return name in self._tf

    def df(self, token: str) -> int:
        posting = self._postings.get(token)
        return len(posting) if posting else 0

    def _max_df(self) -> int:
        return max(MIN_MAX_DF, min(MAX_DF_CAP, int(self.max_df_share * len(self._tf))))

    def _vector(self, name: str) -> dict[str, float]:
        """The normalised TF-IDF vector of a tool, cached until its weights move."""
        vec = self._vectors.get(name)
        if vec is not None:
            return vec
        n = float(len(self._tf))
        memo = self._idf_memo
        tf = self._tf[name]
        vec = {}
        sq = 0.0
        postings = self._postings
        for tok, w in tf.items():
            df = len(postings[tok])
            idf = memo.get(df)
            if idf is None:
                idf = memo[df] = math.log((1.0 + n) / (1.0 + df)) + 1.0
            x = w * idf
            vec[tok] = x
            sq += x * x
        if sq > 0:
            inv = 1.0 / math.sqrt(sq)
            for tok in vec:
                vec[tok] *= inv
        self._vectors[name] = vec
        return vec

    def _all_vectors(self, df: dict[str, int]) -> dict[str, dict[str, float]]:
        """:meth:`_vector` of every tool (cached too), each token's idf computed once.

        The same floats as :meth:`_vector`: the same products, the squares summed
        in the same order, the same scaling.
        """
        n = float(len(self._tf))
        memo = self._idf_memo
        idf: dict[str, float] = {}
        for tok, count in df.items():
            value = memo.get(count)
            if value is None:
                value = memo[count] = math.log((1.0 + n) / (1.0 + count)) + 1.0
            idf[tok] = value
        idf_of = idf.__getitem__
        vectors = self._vectors
        for name, tf in self._tf.items():
            values = list(map(mul, tf.values(), map(idf_of, tf)))
            sq = sum(map(mul, values, values))
            if sq > 0:
                inv = 1.0 / math.sqrt(sq)
                vectors[name] = {tok: x * inv for tok, x in zip(tf, values, strict=True)}
            else:
                vectors[name] = dict(zip(tf, values, strict=True))
        return vectors

    @staticmethod
    def _dot(u: dict[str, float], v: dict[str, float]) -> float:
        shared = u.keys() & v.keys()
        # The products summed in the set's order, as ``sum([u[t] * v[t] for t in shared])``.
        return sum(map(mul, map(u.__getitem__, shared), map(v.__getitem__, shared)))

    def _prefix(self, vec: dict[str, float], df: dict[str, int] | None = None) -> list[str]:
        """Rarest tokens whose tail norm stays below the watch threshold.

        ``df``, when given, holds the current document frequency of every token.
        """
        if df is None:
            postings = self._postings
            order = sorted(vec, key=lambda t: (len(postings[t]), t))
        else:
            # Stable sorts: by token, then by frequency, is the (frequency, token) order.
            order = sorted(vec)
            order.sort(key=df.__getitem__)
        limit = self.watch * self.watch
        tail = 0.0
        for i in range(len(order) - 1, -1, -1):
            tail += vec[order[i]] ** 2
            if tail >= limit:
                return order[: i + 1]
        return []

    def _eligible(self, key: tuple[str, str], max_df: int) -> bool:
        """A full build finds a pair only through a shared token held by ≤ max_df tools."""
        postings = self._postings
        shared = self._tf[key[0]].keys() & self._tf[key[1]].keys()
        return any(len(postings[t]) <= max_df for t in shared)

    def _set_pair(self, key: tuple[str, str], score: float) -> None:
        self._near[key] = score
        self._near_by_tool.setdefault(key[0], set()).add(key)
        self._near_by_tool.setdefault(key[1], set()).add(key)

    def _drop_pair(self, key: tuple[str, str]) -> None:
        del self._near[key]
        for name in key:
            keys = self._near_by_tool.get(name)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._near_by_tool[name]

    # ------------------------------------------------------------ changes

    def _insert(self, name: str, terms: Counter[str]) -> None:
        if name in self._tf:
            self._remove(name)
        self._tf[name] = dict(zip(terms, map(_tf_weights.__getitem__, terms.values()), strict=True))
        postings = self._postings
        for tok in terms:
            posting = postings.get(tok)
            if posting is None:
                postings[tok] = {name}
            else:
                posting.add(name)

    def _remove(self, name: str) -> None:
        tf = self._tf.pop(name, None)
        if tf is None:
            return
        self._vectors.pop(name, None)
        for tok in tf:
            posting = self._postings[tok]
            posting.discard(name)
            if not posting:
                del self._postings[tok]
        for key in list(self._near_by_tool.get(name, ())):
            self._drop_pair(key)

    def build(self, items: Iterable[tuple[str, Counter[str]]], *, incremental: bool = True) -> None:
        """Replace the contents and compute every watched pair (prefix filtering).

        ``incremental=False`` is for an index that is only queried, never
        updated (a whole lint from the command line): only pairs at the
        threshold are computed, not the watch list below it that updates need.
        The prefixes are cut at the threshold instead of the watch score —
        shorter, with a tighter bound, so about half the candidates of
        public tools — and :meth:`similar` at the threshold gives the same
        pairs and scores. An update of such an index first computes the watch
        list (:meth:`update` stays exact, only that one edit pays for it).
        """
        self._tf.clear()
        self._postings.clear()
        for name, terms in items:
            self._insert(name, terms)
        # At the threshold less the tolerance of similar(): the same pairs it returns.
        self._rebuild_pairs(self.watch if incremental else self.threshold - 1e-12)

    def _reset_weights(self) -> None:
        self._vectors.clear()
        self._idf_memo.clear()

    def _rebuild_pairs(self, watch: float | None = None) -> None:
        """Every watched pair, from scratch (prefix filtering and a cheap bound).

        ``watch``: the lowest score kept (default: the watch score; the
        threshold for an index that is never updated, see :meth:`build`).

        Tokens are ordered rarest first, the same order for every tool, so the
        rarest token two tools share, ``t*``, comes first in both. A pair whose
        ``t*`` lies outside one tool's prefix shares only tokens of that tool's
        tail, whose norm is below the watch score: so every watched pair
        shares ``t*`` in both prefixes, and is a candidate exactly when ``t*``
        is under the candidate limit. Before the exact score, the norms of
        both tools from ``t*`` on bound the cosine (every shared token comes at
        or after it, Cauchy–Schwarz); a candidate under that bound is dropped
        without being scored (half of them on public tools).
        """
        self._near.clear()
        self._near_by_tool.clear()
        self._reset_weights()
        if watch is None:
            watch = self.watch
        self._watching = watch <= self.watch
        max_df = self._max_df()
        postings = self._postings
        # Bounds carry a margin so rounding can never drop a pair the exact score keeps.
        limit = watch - 1e-9
        limit_sq = limit * limit
        df = {tok: len(posting) for tok, posting in postings.items()}
        vectors = self._all_vectors(df)
        # Per prefix token under the limit: the earlier tools holding it in
        # their prefix, with their norm from that token on.
        index: dict[str, list[tuple[str, float]]] = {}
        set_pair = self._set_pair
        # Each vector's keys view and __getitem__, bound once.
        parts: dict[str, tuple[KeysView[str], Callable[[str], float]]] = {}
        sqrt = math.sqrt
        for name, vec in vectors.items():
            keys = vec.keys()
            vget = vec.__getitem__
            parts[name] = (keys, vget)
            order = sorted(vec)
            order.sort(key=df.__getitem__)
            # tails[j]: the squared norm of the last j + 1 tokens (rising). The
            # prefix is every position whose tail from there reaches the limit.
            weights = list(map(vget, reversed(order)))
            tails = list(accumulate(map(mul, weights, weights)))
            size = len(order)
            end = size - bisect_left(tails, limit_sq)
            seen: set[str] = set()
            for i in range(end):
                tok = order[i]
                if df[tok] > max_df:
                    continue
                mine = sqrt(tails[size - 1 - i])
                bucket = index.get(tok)
                if bucket is None:
                    index[tok] = [(name, mine)]
                    continue
                for other, theirs in bucket:
                    if other in seen:
                        continue
                    # The first bucket holding ``other`` is the pair's rarest
                    # shared prefix token: no shared token comes before it.
                    seen.add(other)
                    if mine * theirs < limit:
                        continue
                    # ``self._dot(vec, vector(other))`` inlined.
                    ukeys, uget = parts[other]
                    shared = keys & ukeys
                    score = sum(map(mul, map(vget, shared), map(uget, shared)))
                    if score >= watch:
                        set_pair((name, other) if name < other else (other, name), score)
                bucket.append((name, mine))

    def update(
        self, old_name: str | None, name: str | None, terms: Counter[str] | None
    ) -> set[str] | None:
        """Insert, replace or remove one tool and refresh the pairs it touches.

        Args:
            old_name: The tool's name before the edit (None: a new tool).
            name: Its name after the edit (None: the tool was removed).
            terms: Its term frequencies after the edit (with ``name``).

        Return:
            The tools whose weights (and so scores and shared-term order) may
            have changed, including the edited one; None when all may have.
        """
        if not self._watching:
            # Built for queries only: the watch list this update re-scores comes first.
            self._rebuild_pairs()
        size_before = len(self._tf)
        max_df_before = self._max_df()
        old_tokens = set(self._tf.get(old_name, ())) if old_name is not None else set()
        if old_name is not None:
            self._remove(old_name)
        if name is not None and terms is not None:
            self._insert(name, terms)
        else:
            name = None
        max_df = self._max_df()
        if len(self._tf) <= self.small_index or max_df != max_df_before:
            # Small, or the candidate limit moved: rebuilding is exact and affordable.
            self._rebuild_pairs()
            return None
        dirty: set[str] | None
        if len(self._tf) != size_before:
            # N moved, so every idf moved: recompute all weights and watched pairs.
            self._reset_weights()
            dirty = None
        else:
            # Only the document frequencies of the tokens the edit added or
            # removed moved; only tools holding them change weights.
            changed = old_tokens ^ (set(terms) if terms is not None else set())
            dirty = set()
            for tok in changed:
                dirty |= self._postings.get(tok, set())
            for tool in dirty:
                self._vectors.pop(tool, None)
        keys: Iterable[tuple[str, str]]
        if dirty is None:
            keys = list(self._near)
        else:
            touched: set[tuple[str, str]] = set()
            for tool in dirty:
                touched |= self._near_by_tool.get(tool, set())
            keys = touched
        for key in keys:
            score = self._dot(self._vector(key[0]), self._vector(key[1]))
            if score >= self.watch and self._eligible(key, max_df):
                self._set_pair(key, score)
            else:
                self._drop_pair(key)
        if dirty is not None:
            dirty.update(n for n in (old_name, name) if n is not None)
            # A token that dropped to the candidate limit makes pairs of the
            # tools holding it eligible; probe those (at most max_df² / 2).
            for tok in old_tokens - set(terms or ()):
                posting = self._postings.get(tok)
                if posting is not None and len(posting) == max_df:
                    members = sorted(posting)
                    for i, a in enumerate(members):
                        for b in members[i + 1 :]:
                            key = _key(a, b)
                            if key in self._near:
                                continue
                            score = self._dot(self._vector(a), self._vector(b))
                            if score >= self.watch:
                                self._set_pair(key, score)
                                dirty.update(key)
        if name is None:
            return dirty
        vec = self._vector(name)
        seen: set[str] = {name}
        for tok in self._prefix(vec):
            posting = self._postings[tok]
            if len(posting) > max_df:
                continue
            for other in posting:
                if other in seen:
                    continue
                seen.add(other)
                score = self._dot(vec, self._vector(other))
                if score >= self.watch:
                    self._set_pair(_key(name, other), score)
        return dirty

    # ------------------------------------------------------------ queries

    def similar(self, min_score: float | None = None) -> list[tuple[str, str, float]]:
        """Pairs scoring at least ``min_score`` (default: the threshold), any order."""
        limit = self.threshold if min_score is None else min_score
        return [(a, b, s) for (a, b), s in self._near.items() if s >= limit - 1e-12]

    def score(self, a: str, b: str) -> float:
        """The current cosine of two indexed tools."""
        return self._dot(self._vector(a), self._vector(b))

    def shared_words(self, a: str, b: str, below: int | None = None) -> list[tuple[int, str]]:
        """(document frequency, token) of the tokens both tools use, any order.

        ``below``: only tokens held by fewer tools than this.
        """
        postings = self._postings
        out = [(len(postings[t]), t) for t in self._tf[a].keys() & self._tf[b].keys()]
        return out if below is None else [x for x in out if x[0] < below]

    def shared_terms(self, a: str, b: str, limit: int = 5) -> tuple[str, ...]:
        """Tokens both tools use, rarest first (ties alphabetically)."""
        ta, tb = self._tf[a], self._tf[b]
        shared = [t for t in ta if t in tb]
        shared.sort(key=lambda t: (self.df(t), t))
        return tuple(shared[:limit])


SHORT_TEXT_CAP = 20
"""Units held by more than this many tools never generate short-text candidates."""


OVERLAP_RATIO = 0.5
"""The overlap criterion needs the smaller set to be at least this share of the larger."""


def _short_score(a: frozenset[str], b: frozenset[str], limit: float, overlap: bool = True) -> float:
    """Dice similarity of two unit sets, or their overlap when that reaches ``limit``.

    Dice (``2·|A∩B| / (|A|+|B|)``) for texts of similar length; when one text
    says nearly everything the other does plus a detail ("查询订单物流信息" /
    "查询订单的物流轨迹"), the overlap coefficient ``|A∩B| / min(|A|, |B|)``
    counts (unless ``overlap`` is false), if the smaller set has 3 units or
    more and is at least :data:`OVERLAP_RATIO` of the larger.
    """
    la, lb = len(a), len(b)
    inter = len(a & b) if la <= lb else len(b & a)
    dice = 2.0 * inter / (la + lb)
    if dice >= limit or not overlap:
        return dice
    small, big = (la, lb) if la <= lb else (lb, la)
    if small >= 3 and small >= OVERLAP_RATIO * big:
        coefficient = inter / small
        if coefficient >= limit:
            return coefficient
    return dice


class ShortTextIndex:
    """Near-duplicate short texts (summaries) by the similarity of their content units.

    Each tool has a set of units (:func:`studio.lint.wordlists.content_units`:
    verb classes and content words). Two tools are a pair when
    :func:`_short_score` reaches the threshold and they share a unit held by at most
    :data:`SHORT_TEXT_CAP` tools (verb classes never count: every tool has
    one). The score needs no document frequencies, so an edit re-scores only the
    edited tool against the tools sharing one of its units, plus the tools
    holding a unit whose frequency crossed the cap (rare); the pairs always
    equal what a fresh build finds.
    """

    def __init__(
        self, threshold: float = 0.75, cap: int = SHORT_TEXT_CAP, *, overlap: bool = True
    ) -> None:
        self.threshold = threshold
        self.cap = cap
        self.overlap = overlap
        # The length filter: Dice ≥ t needs min(|A|, |B|) ≥ t / (2 − t) · max(|A|, |B|).
        dice_ratio = threshold / (2.0 - threshold)
        self._ratio = min(dice_ratio, OVERLAP_RATIO) if overlap else dice_ratio
        self._sets: dict[str, frozenset[str]] = {}
        self._postings: dict[str, set[str]] = {}
        self._pairs: dict[tuple[str, str], float] = {}
        self._by_tool: dict[str, set[tuple[str, str]]] = {}

    def __len__(self) -> int:
        return len(self._sets)

    @staticmethod
    def _indexed(units: frozenset[str]) -> list[str]:
        return [u for u in units if not u.startswith("@")]

    def score(self, a: str, b: str) -> float:
        """Similarity of two indexed tools' units (:func:`_short_score`; 0 when either has none)."""
        sa, sb = self._sets.get(a), self._sets.get(b)
        if not sa or not sb:
            return 0.0
        return _short_score(sa, sb, self.threshold - 1e-12, self.overlap)

    def _set_pair(self, key: tuple[str, str], score: float) -> None:
        self._pairs[key] = score
        self._by_tool.setdefault(key[0], set()).add(key)
        self._by_tool.setdefault(key[1], set()).add(key)

    def _drop_pairs_of(self, name: str) -> None:
        for key in self._by_tool.pop(name, set()):
            self._pairs.pop(key, None)
            other = key[1] if key[0] == name else key[0]
            keys = self._by_tool.get(other)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_tool[other]

    def _refresh(self, name: str) -> None:
        """Re-score ``name`` against every candidate sharing a unit under the cap."""
        self._drop_pairs_of(name)
        mine = self._sets.get(name)
        if not mine:
            return
        cap, ratio, limit = self.cap, self._ratio, self.threshold - 1e-12
        overlap = self.overlap
        size = len(mine)
        seen = {name}
        sets = self._sets
        for unit in self._indexed(mine):
            posting = self._postings.get(unit)
            if posting is None or len(posting) > cap:
                continue
            for other in posting:
                if other in seen:
                    continue
                seen.add(other)
                theirs = sets[other]
                small, big = (size, len(theirs)) if size <= len(theirs) else (len(theirs), size)
                if small < ratio * big:
                    continue
                score = _short_score(mine, theirs, limit, overlap)
                if score >= limit:
                    self._set_pair(_key(name, other), score)

    def _insert(self, name: str, units: frozenset[str]) -> list[str]:
        self._sets[name] = units
        crossed = []
        for unit in self._indexed(units):
            posting = self._postings.setdefault(unit, set())
            posting.add(name)
            if len(posting) == self.cap + 1:
                crossed.append(unit)
        return crossed

    def _remove(self, name: str) -> list[str]:
        units = self._sets.pop(name, None)
        self._drop_pairs_of(name)
        crossed = []
        for unit in self._indexed(units or frozenset()):
            posting = self._postings.get(unit)
            if posting is None:
                continue
            posting.discard(name)
            if len(posting) == self.cap:
                crossed.append(unit)
            if not posting:
                del self._postings[unit]
        return crossed

    def build(self, items: Iterable[tuple[str, frozenset[str]]]) -> None:
        """Replace the contents and compute every pair (those :meth:`_refresh` finds).

        Each tool meets the tools before it that share a unit under the cap
        (a set intersection: on big registries most units are over it),
        counted one unit at a time (``Counter.update``). That count, plus the
        fewer of the two tools' other units (verb classes, units over the
        cap), bounds how many units they share: a candidate whose bound
        cannot reach the threshold (Dice, or the overlap where it applies) is
        not scored — two thirds of them on public tools.
        """
        self._sets.clear()
        self._postings.clear()
        self._pairs.clear()
        self._by_tool.clear()
        for name, units in items:
            self._insert(name, units)
        cap, ratio, limit = self.cap, self._ratio, self.threshold - 1e-12
        overlap = self.overlap
        postings = self._postings
        sets = self._sets
        # The units under the cap (verb classes are never in the postings).
        counted_units = {unit for unit, posting in postings.items() if len(posting) <= cap}
        # The tools met so far per unit under the cap; each tool's units left uncounted.
        earlier: dict[str, list[str]] = {}
        uncounted: dict[str, int] = {}
        for name, mine in sets.items():
            if not mine:
                continue
            counts: Counter[str] = Counter()
            counted = mine & counted_units
            for unit in counted:
                met = earlier.get(unit)
                if met is None:
                    earlier[unit] = [name]
                else:
                    counts.update(met)
                    met.append(name)
            size = len(mine)
            left = uncounted[name] = size - len(counted)
            for other, shared in counts.items():
                theirs = sets[other]
                their_size = len(theirs)
                small, big = (size, their_size) if size <= their_size else (their_size, size)
                if small < ratio * big:
                    continue
                # _short_score's expressions, with the bound for the intersection.
                their_left = uncounted[other]
                bound = shared + (left if left < their_left else their_left)
                if bound > small:
                    bound = small
                if 2.0 * bound / (size + their_size) < limit and not (
                    overlap
                    and small >= 3
                    and small >= OVERLAP_RATIO * big
                    and bound / small >= limit
                ):
                    continue
                score = _short_score(mine, theirs, limit, overlap)
                if score >= limit:
                    self._set_pair(_key(name, other), score)

    def update(self, old_name: str | None, name: str | None, units: frozenset[str] | None) -> None:
        """Insert, replace or remove one tool (as :meth:`SimilarityIndex.update`)."""
        crossed: list[str] = []
        if old_name is not None:
            crossed += self._remove(old_name)
        if name is not None and units is not None:
            crossed += self._insert(name, units)
        # A unit whose posting crossed the cap makes or breaks the eligibility of
        # pairs among its holders: re-score those (at most cap + 1 tools).
        for unit in crossed:
            for holder in list(self._postings.get(unit, ())):
                self._refresh(holder)
        if name is not None and units is not None:
            self._refresh(name)

    def pairs(self) -> dict[tuple[str, str], float]:
        """Every pair at or above the threshold (keys ordered by name)."""
        return self._pairs
