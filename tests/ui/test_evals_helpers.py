"""Shared set-up of the Evals mode tests: the example registry, a terse v1, a loopback profile."""

from __future__ import annotations

from registry_db import RegistryStore
from registry_db.profiles import ProfileRepository
from studio.providers import ModelParams, ModelProfile, ProviderKind
from tests.evals.loopback_model import LoopbackModel
from tests.evals.test_runner import REGISTRY, make_terse_version

__all__ = ["REGISTRY", "add_profile", "make_terse_version"]


def add_profile(store: RegistryStore, server: LoopbackModel, wire: str = "openai") -> str:
    """A stored model profile that talks to the loopback server (its key from the environment)."""
    kind = ProviderKind.OPENAI_CHAT if wire == "openai" else ProviderKind.ANTHROPIC_MESSAGES
    env = "OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY"
    profile = ModelProfile(f"loop-{wire}", kind, server.base_url, "loopback", env,
                           ModelParams(stream=True))  # fmt: skip
    ProfileRepository(store).add(profile)
    return profile.name
