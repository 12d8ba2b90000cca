"""The rollout simulator agrees with serving."""

from __future__ import annotations

from registry_db import RegistryStore
from registry_db.channels import Channel
from studio.release import (
    generate_subjects,
    parse_subjects,
    release_state,
    resolve,
    set_canary,
    simulate,
)

from .conftest import REGISTRY


def test_parse_subjects() -> None:
    text = "alice\nbob, carol;dave  eve\n\nalice\n"
    assert parse_subjects(text) == ["alice", "bob", "carol", "dave", "eve"]


def test_generate_subjects_is_reproducible_with_a_seed() -> None:
    a = generate_subjects(100, seed=7)
    assert a == generate_subjects(100, seed=7)
    assert len(set(a)) == 100
    assert all(s.startswith("user-") for s in a)


def test_simulation_matches_resolve(store: RegistryStore) -> None:
    set_canary(store, REGISTRY, version=3, share=30)
    subjects = generate_subjects(300, seed=1)
    sim = simulate(release_state(store, REGISTRY).channels, subjects)
    assert sim.total == 300
    assert sum(sim.split.values()) == 300
    for a in sim.assignments:
        assert a.channel == resolve(store, REGISTRY, a.subject).channel
        assert (a.bucket <= 30) == (a.channel == "canary")
    assert 20 < sim.percent("canary") < 40


def test_preview_of_a_share_before_setting_it() -> None:
    channels = [
        Channel("r", "stable", 1, 100, "", ""),
        Channel("r", "canary", 2, 0, "fixed-salt", ""),
    ]
    subjects = generate_subjects(1000, seed=3)
    low = simulate(channels, subjects)
    channels[1] = Channel("r", "canary", 2, 50, "fixed-salt", "")
    high = simulate(channels, subjects)
    assert low.split == {"stable": 1000, "canary": 0}
    assert 400 < high.split["canary"] < 600
    assert all(a.version == 2 for a in high.assignments if a.channel == "canary")
