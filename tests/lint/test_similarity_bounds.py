"""The full build's bounds (tighter prefixes, the norm bound from the rarest shared token).

They only skip work: every pair the build keeps must be exactly the pairs a
brute force over all pairs finds — cosine at least the watch score, and a
rarest shared token held by no more tools than the candidate limit.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from studio.lint.similarity import SimilarityIndex

VOCABULARY = [f"w{i}" for i in range(400)]
# Zipf-like weights: a few words in most tools (over the candidate limit), a long rare tail.
WEIGHTS = [1.0 / (i + 1) ** 0.9 for i in range(len(VOCABULARY))]


def _docs(rng: random.Random, count: int) -> list[tuple[str, Counter[str]]]:
    """Random tools, a third of them copies of an earlier one edited a little or a lot."""
    docs: list[tuple[str, Counter[str]]] = []
    for i in range(count):
        if docs and rng.random() < 0.35:
            terms = Counter(rng.choice(docs)[1])
            for word in rng.sample(sorted(terms), rng.randint(0, len(terms) // 2)):
                del terms[word]
            for _ in range(rng.randint(1, 12)):
                terms[rng.choices(VOCABULARY, WEIGHTS)[0]] += 1
        else:
            terms = Counter(rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(3, 30)))
        docs.append((f"t{i:03d}", terms))
    return docs


def _brute_force(index: SimilarityIndex) -> dict[frozenset[str], float]:
    max_df = index._max_df()
    out = {}
    for a, b in combinations(sorted(index._tf), 2):
        shared = index.shared_words(a, b)
        if not shared or min(shared)[0] > max_df:
            continue
        score = index.score(a, b)
        if score >= index.watch:
            out[frozenset((a, b))] = score
    return out


@pytest.mark.parametrize(("seed", "count", "share"), [(3, 150, 0.2), (5, 260, 0.1), (9, 90, 1.0)])
def test_build_keeps_exactly_the_brute_force_pairs(seed: int, count: int, share: float) -> None:
    index = SimilarityIndex(0.6, max_df_share=share)
    index.build(_docs(random.Random(seed), count))
    got = {frozenset((a, b)): s for a, b, s in index.similar(index.watch)}
    want = _brute_force(index)
    assert got.keys() == want.keys()
    assert all(abs(got[k] - want[k]) < 1e-12 for k in got)
    # Common words exist, and pairs were found: the cases exercise the limit and the bounds.
    assert any(index.df(t) > index._max_df() for t in index._postings)
    assert len(got) >= 5


def test_build_handles_empty_and_single_tools() -> None:
    index = SimilarityIndex(0.6)
    index.build([])
    assert index.similar() == []
    index.build([("only", Counter({"x": 1})), ("empty", Counter())])
    assert index.similar() == []


def test_the_build_computes_the_same_vectors_as_one_tool_at_a_time() -> None:
    index = SimilarityIndex(0.6, max_df_share=0.2)
    index.build(_docs(random.Random(13), 120))
    built = {name: list(vec.items()) for name, vec in index._vectors.items()}
    index._reset_weights()
    alone = {name: list(index._vector(name).items()) for name in index._tf}
    assert built == alone  # float for float, in the same token order


def test_groups_add_all_equals_adding_one_key_at_a_time() -> None:
    from studio.lint.rules._pairs import _Groups

    rng = random.Random(17)
    one, many = _Groups(), _Groups()
    for i in range(60):
        keys = {f"k{rng.randint(0, 80)}" for _ in range(rng.randint(0, 6))}
        name = f"tool{i % 45}"
        for key in keys:
            one.add(key, name)
        many.add_all(keys, name)
    assert dict(one.shared()) == dict(many.shared())
    assert all(one.size(f"k{k}") == many.size(f"k{k}") for k in range(81))


def test_groups_add_all_takes_repeated_keys_and_names_variants_once() -> None:
    from studio.lint.rules._pairs import AmbiguityState, _Groups

    rng = random.Random(19)
    one, many = _Groups(), _Groups()
    for i in range(60):
        keys = [f"k{rng.randint(0, 40)}" for _ in range(rng.randint(0, 8))]  # repeats
        name = f"tool{i % 45}"
        for key in keys:
            one.add(key, name)
        many.add_all(keys, name)
    assert dict(one.shared()) == dict(many.shared())
    assert all(one.size(f"k{k}") == many.size(f"k{k}") for k in range(41))
    # "aab…" loses the same letter twice: the variant is listed twice, held once.
    variants = AmbiguityState._deletions("aabcdef")
    assert variants.count("abcdef") == 2
    assert set(variants) == {"aabcdef"} | {"aabcdef"[:i] + "aabcdef"[i + 1 :] for i in range(7)}


@pytest.mark.parametrize(("seed", "count", "share"), [(3, 150, 0.2), (9, 90, 1.0)])
def test_a_build_without_the_watch_list_gives_the_same_pairs(
    seed: int, count: int, share: float
) -> None:
    docs = _docs(random.Random(seed), count)
    watched = SimilarityIndex(0.6, max_df_share=share)
    watched.build(docs)
    once = SimilarityIndex(0.6, max_df_share=share)
    once.build(docs, incremental=False)
    assert once.similar() == watched.similar()  # the same pairs, scores and order
    assert len(once.similar()) >= 5
    # Pairs under the threshold are the watch list's only.
    assert len(once.similar(once.watch)) < len(watched.similar(watched.watch))


def test_an_update_of_an_index_built_without_the_watch_list_stays_exact() -> None:
    rng = random.Random(21)
    docs = dict(_docs(rng, 140))
    live = SimilarityIndex(0.6, max_df_share=1.0, small_index=16)
    live.build(docs.items(), incremental=False)
    for step in range(12):
        name = rng.choice(sorted(docs))
        if step % 3 == 0:
            live.update(name, None, None)
            del docs[name]
        else:
            docs[name] = Counter(docs[rng.choice(sorted(docs))]) + Counter({f"w{step}": 1})
            live.update(name, name, docs[name])
    fresh = SimilarityIndex(0.6, max_df_share=1.0)
    fresh.build(docs.items())
    # At the threshold, as for an index built with its watch list (test_similarity).
    got = {frozenset((a, b)): s for a, b, s in live.similar()}
    want = {frozenset((a, b)): s for a, b, s in fresh.similar()}
    assert len(got) >= 5
    assert got.keys() == want.keys()
    assert all(abs(got[k] - want[k]) < 1e-12 for k in got)


def _unit_sets(rng: random.Random, count: int) -> list[tuple[str, frozenset[str]]]:
    """Short texts' units: a verb class, a few words (some common), near copies edited."""
    out: list[tuple[str, frozenset[str]]] = []
    for i in range(count):
        if out and rng.random() < 0.4:
            units = set(rng.choice(out)[1])
            units ^= {
                rng.choices(VOCABULARY[:60], WEIGHTS[:60])[0] for _ in range(rng.randint(0, 2))
            }
        else:
            words = rng.choices(VOCABULARY[:60], WEIGHTS[:60], k=rng.randint(0, 9))
            units = {*words, rng.choice(["@read", "@create", "@delete"])}
        out.append((f"s{i:03d}", frozenset(units)))
    return out


@pytest.mark.parametrize(("seed", "overlap", "cap"), [(1, True, 20), (2, False, 20), (4, True, 6)])
def test_short_text_build_keeps_exactly_the_brute_force_pairs(
    seed: int, overlap: bool, cap: int
) -> None:
    from studio.lint.similarity import ShortTextIndex, _short_score

    index = ShortTextIndex(0.75, cap, overlap=overlap)
    docs = _unit_sets(random.Random(seed), 220)
    index.build(docs)
    sets = dict(docs)
    postings = index._postings
    want = {}
    for (a, sa), (b, sb) in combinations(sorted(sets.items()), 2):
        # A pair needs a shared word held by at most ``cap`` tools (verb classes never count).
        if not any(not u.startswith("@") and len(postings[u]) <= cap for u in sa & sb):
            continue
        score = _short_score(sa, sb, 0.75 - 1e-12, overlap)
        if score >= 0.75 - 1e-12:
            want[(a, b)] = score
    assert index.pairs() == want
    assert len(want) >= 10
