"""Shared set-up of the Evals mode tests: a terse version of the example, a loopback profile.

The terse version is published here (whatever versions the seeded example
ships), so the tests' A is always the same flawed document and B the rich draft.
"""

from __future__ import annotations

import dataclasses

from registry_db import RegistryStore
from registry_db.profiles import ProfileRepository
from studio.providers import ModelParams, ModelProfile, ProviderKind
from tests.evals.loopback_model import LoopbackModel

REGISTRY = "travel-reimbursement"
TERSE = {
    "search_policy": "Search data.",
    "query_invoices": "Query records.",
    "query_tickets": "Query records.",
    "create_reimbursement_ticket": "Create a record.",
}

__all__ = ["REGISTRY", "add_profile", "add_terse_version"]


def add_terse_version(store: RegistryStore) -> str:
    """Publish the draft's tools with terse, overlapping descriptions; the draft stays rich.

    Returns the new version's number as a variant spec (``"3"``).
    """
    good = store.draft_registry(REGISTRY)
    tools = tuple(
        dataclasses.replace(
            t, title="", summary=TERSE.get(t.name, "Do it."), usage="", preconditions="",
            returns="", errors=(), examples=(), description="",
        )
        for t in good.tools
    )  # fmt: skip
    store.replace_draft(REGISTRY, dataclasses.replace(good, tools=tools))
    info = store.publish(REGISTRY, notes="terse")
    store.replace_draft(REGISTRY, good)
    return str(info.number)


def add_profile(store: RegistryStore, server: LoopbackModel, wire: str = "openai") -> str:
    """A stored model profile that talks to the loopback server (its key from the environment)."""
    kind = ProviderKind.OPENAI_CHAT if wire == "openai" else ProviderKind.ANTHROPIC_MESSAGES
    env = "OPENAI_API_KEY" if wire == "openai" else "ANTHROPIC_API_KEY"
    profile = ModelProfile(f"loop-{wire}", kind, server.base_url, "loopback", env,
                           ModelParams(stream=True))  # fmt: skip
    ProfileRepository(store).add(profile)
    return profile.name
