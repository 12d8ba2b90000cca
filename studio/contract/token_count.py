"""Token counts for a target: exact where an offline tokenizer exists, else the estimate.

One API for every count the studio shows (lint, preview, diff):

- :func:`count_tokens` counts a text for a target profile;
- :func:`token_method` says how: an encoding name such as ``o200k_base`` for
  an exact count, or :data:`ESTIMATE` for the offline heuristic of
  :func:`studio.contract.tokens.estimate_tokens`;
- :func:`token_counter` gives both at once, resolved once, for loops.

OpenAI targets (the lint profiles ``openai`` and ``openai-strict``, the
preview formats ``openai`` and ``openai-responses``) are counted with
``o200k_base`` when the optional package ``bpe-openai`` is installed (the
``exact-tokens`` extra). Anthropic, Gemini and MCP targets have no public
offline tokenizer for current models and are always estimated; so is every
target when ``bpe-openai`` is missing or fails to load. The exact path is never
required.

Loading an encoding costs about half a second and ~140 MB, so it happens on
first use only, once per process, under a lock (the GUI lints in a worker
thread while the GUI thread counts for the preview). :func:`exact_ready` tells
without loading whether it is done; :func:`preload` loads in the background.

The linter counts through :func:`cached_token_counter`: exact counts are kept
on disk by ``(encoding, sha256 of the text)`` (:mod:`studio.contract.token_cache`),
so a lint whose texts were all counted before never loads the tokenizer. When
``bpe-openai`` is installed but turns out broken only at a missing count, that
count is estimated (and logged); the counts already stored stay exact.

An exact count is exact for the text it is given, nothing more: providers wrap
tool definitions in their own internal format before the model sees them, so
"N tokens (o200k_base)" of a definition means the o200k_base tokens of the
definition as the studio exports it, not the provider's bill.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Iterator, Sequence

from studio.contract.token_cache import TokenCache, digest, shared_cache
from studio.logs import logger

ESTIMATE = "estimate"
"""The method name of the offline heuristic."""

O200K = "o200k_base"

PROFILE_ENCODINGS: dict[str, str] = {
    "openai": O200K,
    "openai-strict": O200K,
    "openai-responses": O200K,
}
"""Targets (lint profiles and preview formats) with an exact offline tokenizer."""

_KNOWN_IDS: dict[str, tuple[str, list[int]]] = {
    O200K: ("tiktoken is great!", [83, 8251, 2488, 382, 2212, 0]),
}
"""A text and its token ids per encoding (as tiktoken gives them): checked on load,
so a tokenizer that does not reproduce them is never reported as exact."""

_PIECE_CHARS = 40_000
"""Longest text handed to the tokenizer in one call (bpe-openai refuses texts of
1,000,000 characters or 200,000 tokens; 40,000 characters stay below both)."""

Counter = Callable[[str], int]


def _estimator() -> Counter:
    """:func:`studio.contract.tokens.estimate_tokens`, its module imported on first use.

    Compiling that module's patterns costs ~10 ms of every process, and a lint
    whose counts all come from the disk cache never estimates.
    """
    from studio.contract.tokens import estimate_tokens

    return estimate_tokens


_lock = threading.Lock()
_counters: dict[str, Counter | None] = {}
"""Encoding name → exact counter, or None once loading it has failed."""
_waiters_lock = threading.Lock()
_waiters: dict[str, list[Callable[[], None]]] = {}
"""Encodings :func:`preload` is loading → callbacks for when it is done."""


def encoding_for(profile: str | None) -> str | None:
    """The exact encoding a target uses when available (None: always estimated)."""
    return PROFILE_ENCODINGS.get(profile) if profile else None


def token_counter(profile: str | None) -> tuple[Counter, str]:
    """The counting function for a target and its method, resolved once.

    May load the tokenizer (blocking, once per process; see the module docstring).

    Args:
        profile: A lint profile or preview format (``openai``, ``anthropic``…);
            None or an unknown name is estimated.

    Return:
        ``(count, method)``: ``count(text)`` is the token count and ``method``
        the encoding name, or :data:`ESTIMATE`.
    """
    encoding = encoding_for(profile)
    if encoding is not None:
        counter = _exact_counter(encoding)
        if counter is not None:
            return counter, encoding
    return _estimator(), ESTIMATE


def cached_token_counter(profile: str | None) -> tuple[Counter, str]:
    """:func:`token_counter` with exact counts read from and kept in the disk cache.

    Never loads the tokenizer itself: the returned counter loads it on the
    first count missing from the cache. Same counts and method as
    :func:`token_counter` (see the module docstring for a tokenizer that
    turns out broken only then).

    Args:
        profile: A lint profile or preview format.

    Return:
        ``(count, method)`` as :func:`token_counter` gives them.
    """
    encoding = encoding_for(profile)
    if encoding is None:
        return _estimator(), ESTIMATE
    counters = _counters
    if encoding in counters:
        loaded = counters[encoding]
        if loaded is None:
            return _estimator(), ESTIMATE
        cache = shared_cache() if getattr(loaded, "cacheable", False) else None
        return (loaded if cache is None else _through_cache(encoding, cache)), encoding
    cache = shared_cache()
    if cache is None or not _installed():
        return token_counter(profile)
    return _through_cache(encoding, cache), encoding


def count_all(profile: str | None, texts: Sequence[str]) -> tuple[list[int], str]:
    """Counts of many texts as :func:`cached_token_counter`'s counter gives them, and the method.

    The same counts, the stored ones read from the disk cache in a few queries
    instead of one per text (a 2,000-tool lint counts 6,000 texts); the
    counter counts only what is missing (loading the tokenizer then).
    """
    count, method = cached_token_counter(profile)
    cache = shared_cache()
    known = _cached_counters.get((method, id(cache))) if cache is not None else None
    if cache is None or known is None or known[1] is not count:
        return [count(text) for text in texts], method
    keys = [digest(text) if text else b"" for text in texts]
    stored = cache.get_many(method, [key for key in keys if key])
    counts: list[int] = []
    for text, key in zip(texts, keys, strict=True):
        found = stored.get(key) if key else 0
        counts.append(found if found is not None else count(text))
    return counts, method


def cached_token_method(profile: str | None) -> str:
    """How :func:`cached_token_counter` counts for ``profile``; never loads the tokenizer."""
    return cached_token_counter(profile)[1]


def flush_token_cache() -> None:
    """Write the counts made since the last flush to the disk cache (also done at exit)."""
    cache = shared_cache()
    if cache is not None:
        cache.flush()


def count_tokens(text: str, profile: str | None) -> int:
    """Tokens of ``text`` for a target: exact when :func:`token_method` names an encoding.

    Args:
        text: Any text (special-token markers such as ``<|endoftext|>`` count
            as the plain text they are).
        profile: A lint profile or preview format.
    """
    count, _method = token_counter(profile)
    return count(text)


def token_method(profile: str | None) -> str:
    """How :func:`count_tokens` counts for ``profile``: an encoding name or ``estimate``."""
    return token_counter(profile)[1]


def exact_ready(profile: str | None) -> bool:
    """True when ``profile`` has an exact tokenizer loaded; never loads, never blocks."""
    encoding = encoding_for(profile)
    return encoding is not None and _counters.get(encoding) is not None


def exact_settled(profile: str | None) -> bool:
    """True when counting for ``profile`` cannot block: no exact encoding, or loading is over."""
    encoding = encoding_for(profile)
    return encoding is None or encoding in _counters


def preload(profile: str | None, on_done: Callable[[], None] | None = None) -> bool:
    """Load ``profile``'s tokenizer in a daemon thread unless that is settled already.

    Args:
        profile: The target.
        on_done: Called from the loading thread once loading is over (loaded
            or failed). Calls while a load is running join it: one thread per
            encoding, every ``on_done`` called once.

    Return:
        True when the load is (now) running; False when there was nothing to load.
    """
    encoding = encoding_for(profile)
    if encoding is None or encoding in _counters:
        return False
    with _waiters_lock:
        waiting = _waiters.get(encoding)
        if waiting is not None:  # a load is running: wait for it
            if on_done is not None:
                waiting.append(on_done)
            return True
        _waiters[encoding] = [on_done] if on_done is not None else []

    def run() -> None:
        try:
            _exact_counter(encoding)
        finally:
            with _waiters_lock:
                callbacks = _waiters.pop(encoding, [])
            for callback in callbacks:
                try:
                    callback()
                except Exception:  # one failing callback must not starve the others
                    logger(__name__).exception("tokenizer preload callback failed")

    threading.Thread(target=run, name=f"load-{encoding}", daemon=True).start()
    return True


def format_count(tokens: int, method: str, *, grouped: bool = False) -> str:
    """``"≈ 1234 tokens (estimate)"`` or ``"1234 tokens (o200k_base)"``.

    Args:
        tokens: The count.
        method: What :func:`token_method` returned.
        grouped: Group thousands (``1,234``), for the GUI.
    """
    number = f"{tokens:,}" if grouped else str(tokens)
    if method == ESTIMATE:
        return f"≈ {number} tokens (estimate)"
    return f"{number} tokens ({method})"


# ---------------------------------------------------------------- loading

_bpe_installed: bool | None = None


def _installed() -> bool:
    """Whether bpe-openai can be imported, found without importing it."""
    global _bpe_installed
    if _bpe_installed is None:
        _bpe_installed = importlib.util.find_spec("bpe_openai") is not None
    return _bpe_installed


_cached_counters: dict[tuple[str, int], tuple[TokenCache, Counter]] = {}


def _through_cache(encoding: str, cache: TokenCache) -> Counter:
    """A counter for ``encoding`` that reads the cache first and loads the tokenizer on a miss."""
    known = _cached_counters.get((encoding, id(cache)))
    if known is not None and known[0] is cache:
        return known[1]

    def count(text: str) -> int:
        if not text:
            return 0
        key = digest(text)
        tokens = cache.get(encoding, key)
        if tokens is not None:
            return tokens
        exact = _exact_counter(encoding)
        if exact is None:  # installed but broken, found only now: estimated, not stored
            return _estimator()(text)
        tokens = exact(text)
        if getattr(exact, "cacheable", False):
            cache.put(encoding, key, tokens)
        return tokens

    _cached_counters[(encoding, id(cache))] = (cache, count)
    return count


def _exact_counter(encoding: str) -> Counter | None:
    counters = _counters  # one dict throughout, even if tests swap the module's
    try:
        return counters[encoding]
    except KeyError:
        pass
    with _lock:
        if encoding not in counters:  # another thread may have loaded it meanwhile
            try:
                counters[encoding] = _load_encoding(encoding)
            except ImportError:
                logger(__name__).debug(
                    "bpe-openai is not installed: %s counts are estimated", encoding
                )
                counters[encoding] = None
            except Exception:  # a broken install must never break counting
                logger(__name__).warning(
                    "cannot load %s; token counts are estimated", encoding, exc_info=True
                )
                counters[encoding] = None
        return counters[encoding]


def _load_encoding(encoding: str) -> Counter:
    """The exact counter of ``encoding`` from bpe-openai (raises when unavailable)."""
    import bpe_openai  # type: ignore[import-untyped, import-not-found, unused-ignore]

    encode = bpe_openai.get_encoding(encoding).encode_ordinary
    text, ids = _KNOWN_IDS[encoding]
    if encode(text) != ids:
        raise RuntimeError(f"bpe-openai's {encoding} does not reproduce tiktoken's token ids")

    def count(text: str) -> int:
        if len(text) <= _PIECE_CHARS:
            return len(encode(text))
        return sum(len(encode(piece)) for piece in _pieces(text))

    # Only the genuine tokenizer's counts go to the disk cache (not a stand-in's).
    count.cacheable = True  # type: ignore[attr-defined]
    return count


def _pieces(text: str) -> Iterator[str]:
    """``text`` in pieces of at most :data:`_PIECE_CHARS` characters, cut at pretoken bounds.

    A space between two non-space characters always starts a pretoken in the
    o200k_base split pattern (no pattern runs across it), and BPE never merges
    across pretokens, so the pieces' counts add up to the whole text's count.
    A piece with no such space (a single word of tens of thousands of
    characters) is cut at the limit, which may miscount by a token per cut.
    """
    start, n = 0, len(text)
    while n - start > _PIECE_CHARS:
        end = start + _PIECE_CHARS
        cut = text.rfind(" ", start + _PIECE_CHARS // 2, end)
        while cut > start and (text[cut - 1].isspace() or text[cut + 1].isspace()):
            cut = text.rfind(" ", start + _PIECE_CHARS // 2, cut)
        if cut <= start:
            cut = end
        yield text[start:cut]
        start = cut
    yield text[start:]
