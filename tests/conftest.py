"""Test-wide setup: Qt runs offscreen, and no test touches the user's data directory."""

from __future__ import annotations

import gc
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Point the default database and platformdirs at a temporary home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("STUDIO_DB", raising=False)


@pytest.fixture(autouse=True, scope="session")
def _collect_garbage_on_the_main_thread():
    """As the app does (studio.ui.gc_guard): no automatic collection in other threads.

    Test servers and workers run threads; an automatic collection started
    there could destroy Qt objects of the GUI thread (a crash). Collection
    runs after every test instead, on the main thread.
    """
    # Everything imported so far (Qt, the studio, the tests) lives for the
    # whole session: freezing it keeps the per-test full collection cheap.
    gc.collect()
    gc.freeze()
    gc.disable()
    yield
    gc.enable()
    gc.unfreeze()


_FULL_COLLECTION_EVERY = 50
_tests_since_full_collection = 0


@pytest.fixture(autouse=True)
def _collect_after_each_test(request: pytest.FixtureRequest):
    """Collect the test's garbage; outside Qt tests the whole heap only every 50 tests.

    Everything a test allocates is still in the young generations when it
    ends (nothing collects automatically), so collecting those frees its
    cycles. A full collection walks every object the session holds — caches,
    module fixtures, pytest's reports — and, done after each of 3,000+
    tests, was most of some tests' time. A test with Qt objects still gets
    the full collection at once: a widget left to a later collection keeps its
    timers and queued events alive into the next tests.
    """
    global _tests_since_full_collection
    yield
    _tests_since_full_collection += 1
    qt = "qapp" in request.fixturenames
    if qt or _tests_since_full_collection >= _FULL_COLLECTION_EVERY:
        _tests_since_full_collection = 0
        gc.collect()
    else:
        gc.collect(1)


@pytest.fixture
def estimated_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Token counts as without bpe-openai: loading a tokenizer fails, every profile is estimated."""
    from studio.contract import token_count

    def unavailable(encoding: str):
        raise ImportError(f"no {encoding} tokenizer in this test")

    monkeypatch.setattr(token_count, "_load_encoding", unavailable)
    monkeypatch.setattr(token_count, "_counters", {})
    # Settled now, so nothing loads in the background while or after the test runs.
    assert token_count.token_method("openai") == "estimate"


@pytest.fixture
def exact_tokens() -> None:
    """The exact o200k_base path for the openai profiles (skipped without bpe-openai)."""
    pytest.importorskip("bpe_openai")
    from studio.contract import token_count

    assert token_count.token_method("openai") == "o200k_base", "bpe-openai is installed but fails"
