"""Shared setup of the playground tests: a real SQLite store, the scripted server, a qasync loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from registry_db import RegistryStore
from registry_db.profiles import ProfileRepository
from studio.providers import ModelProfile, ProviderKind
from studio.runtime import ApprovalDecision
from studio.ui.playground.view import PlaygroundView
from tests.runtime.helpers import travel_registry

KEY_ENV = "PLAYGROUND_TEST_KEY"


def make_store(path) -> RegistryStore:
    store = RegistryStore.open(path)
    store.import_registry(travel_registry())
    return store


def add_profile(store: RegistryStore, base_url: str, kind: str = "openai") -> ModelProfile:
    if kind == "openai":
        profile = ModelProfile("scripted", ProviderKind.OPENAI_CHAT, base_url + "/v1",
                               "scripted-model", KEY_ENV)  # fmt: skip
    else:
        profile = ModelProfile("scripted", ProviderKind.ANTHROPIC_MESSAGES, base_url,
                               "scripted-model", KEY_ENV)  # fmt: skip
    return ProfileRepository(store).add(profile)


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Yield to the loop (Qt and asyncio both run) until ``condition()`` is true."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        await asyncio.sleep(0.01)


class Approvals:
    """An injected approval prompt: records requests, answers from a script."""

    def __init__(self, *answers: ApprovalDecision) -> None:
        self.answers = list(answers)
        self.requests = []

    async def __call__(self, parent, request):
        self.requests.append(request)
        return self.answers.pop(0)


def make_view(qtbot, store: RegistryStore, **kw) -> PlaygroundView:
    """A shown Playground view at 1280×800, closed with the test."""
    view = PlaygroundView(store, **kw)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    return view
