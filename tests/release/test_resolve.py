"""resolve(): stable by default, canary by bucket, sticky across releases."""

from __future__ import annotations

import pytest

from registry_db import NotFoundError, RegistryStore
from studio.formats import FormatError
from studio.release import (
    NoVersionError,
    VersionCache,
    bucket,
    promote,
    release_state,
    resolution_document,
    resolve,
    rollback,
    set_canary,
    snapshot_document,
)

from .conftest import REGISTRY

SUBJECTS = [f"user-{i}" for i in range(400)]


def test_no_channels_resolves_latest_as_stable(store: RegistryStore) -> None:
    r = resolve(store, REGISTRY, "user-1")
    assert (r.channel, r.version, r.semver) == ("stable", 3, "1.2.0")
    assert r.content_hash == store.latest_version(REGISTRY).content_hash
    assert r.document.name == REGISTRY


def test_no_subject_is_stable_even_at_full_share(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=100)
    assert resolve(store, REGISTRY, None).channel == "stable"
    assert resolve(store, REGISTRY, "").channel == "stable"
    assert resolve(store, REGISTRY, "someone").channel == "canary"


def test_share_zero_means_stable(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=0)
    assert {resolve(store, REGISTRY, s).channel for s in SUBJECTS[:100]} == {"stable"}


def test_canary_cohort_matches_bucketing(store: RegistryStore) -> None:
    salt = set_canary(store, REGISTRY, version=3, share=20).channel("canary").salt
    cache = VersionCache()
    for subject in SUBJECTS:
        r = resolve(store, REGISTRY, subject, cache=cache)
        expected = "canary" if bucket(salt, subject) <= 20 else "stable"
        assert r.channel == expected
        assert r.version == (3 if expected == "canary" else 2)


def test_cohort_stays_canary_across_releases(store: RegistryStore, publish_versions) -> None:
    set_canary(store, REGISTRY, version=2, share=15)
    first = {s for s in SUBJECTS if resolve(store, REGISTRY, s).channel == "canary"}
    rollback(store, REGISTRY)  # canary to 0 %
    set_canary(store, REGISTRY, version=3, share=15)
    second = {s for s in SUBJECTS if resolve(store, REGISTRY, s).channel == "canary"}
    assert first == second and first
    promote(store, REGISTRY)
    publish_versions(store, REGISTRY, 1)
    set_canary(store, REGISTRY, version=4, share=30)
    third = {s for s in SUBJECTS if resolve(store, REGISTRY, s).channel == "canary"}
    assert first <= third


def test_stable_is_pinned_after_publishing_more(store: RegistryStore, publish_versions) -> None:
    set_canary(store, REGISTRY, version=3, share=10)
    publish_versions(store, REGISTRY, 1)
    assert release_state(store, REGISTRY).stable_version == 2
    assert resolve(store, REGISTRY).version == 2


def test_errors(store: RegistryStore) -> None:
    with pytest.raises(NotFoundError):
        resolve(store, "nope", "x")
    store.create_registry("empty")
    with pytest.raises(NoVersionError):
        resolve(store, "empty", "x")
    with pytest.raises(FormatError):
        resolution_document(resolve(store, REGISTRY), "dir")


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "mcp", "gemini", "studio"])
def test_resolution_document_formats(store: RegistryStore, fmt: str) -> None:
    doc = resolution_document(resolve(store, REGISTRY, "u"), fmt)
    assert doc["format"] == fmt and doc["version"] == 3
    assert "search_policy" in str(doc["tools"])


def test_snapshot_lists_live_channels(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=10)
    snap = snapshot_document(store, REGISTRY, "openai")
    assert [(c["name"], c["version"], c["share"]) for c in snap["channels"]] == [
        ("stable", 2, 100),
        ("canary", 3, 10),
    ]
    assert snap["channels"][1]["salt"]
    rollback(store, REGISTRY)
    snap = snapshot_document(store, REGISTRY, "openai")
    assert [c["name"] for c in snap["channels"]] == ["stable"]
