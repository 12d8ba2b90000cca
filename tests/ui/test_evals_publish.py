"""The publish dialog's eval gate: the draft against its parent, beside the review.

Against the loopback model (it picks tools by their descriptions), a draft
whose descriptions went terse is significantly worse than its parent: the
section says the CLI gate would refuse it, and the result goes into the
version's review as ``studio publish --require-evals`` stores it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from registry_db import RegistryStore, seed_examples
from studio.ui.dialogs.publish_dialog import PublishDialog, PublishRequest
from studio.ui.diff.sides import publish_baseline
from studio.ui.evals.publish_section import PublishEvals, default_set, parent_number
from tests.evals.loopback_model import Behaviour, LoopbackModel
from tests.ui.test_evals_helpers import REGISTRY, add_profile, add_terse_version


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-loop")


@pytest.fixture
def server() -> Iterator[LoopbackModel]:
    with LoopbackModel(Behaviour(seed=3)) as model:
        yield model


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RegistryStore]:
    s = RegistryStore.open(tmp_path / "studio.sqlite3")
    seed_examples(s)
    s.terse = add_terse_version(s)  # type: ignore[attr-defined]  # terse version, rich draft
    yield s
    s.close()


def dialog_for(qtbot, store: RegistryStore, published: list[PublishRequest]) -> PublishDialog:
    def publish(request: PublishRequest):
        published.append(request)
        return store.publish(REGISTRY, notes=request.notes, semver=request.semver,
                             review=request.review)  # fmt: skip

    dialog = PublishDialog(REGISTRY, 4, publish, baseline=publish_baseline(store, REGISTRY),
                           author="alice", evals=PublishEvals(store, REGISTRY))  # fmt: skip
    qtbot.addWidget(dialog)
    return dialog


def test_a_worse_draft_is_flagged_and_the_result_is_stored_with_the_version(
    loop, qtbot, store: RegistryStore, server: LoopbackModel
) -> None:
    profile = add_profile(store, server)
    rich = store.publish(REGISTRY, notes="rich descriptions").number
    store.replace_draft(REGISTRY, store.load_version(REGISTRY, int(store.terse)).registry)
    published: list[PublishRequest] = []
    dialog = dialog_for(qtbot, store, published)
    section = dialog.eval_section
    assert section is not None and section.parent_version == rich
    assert section.set_combo.currentText() == "core"
    assert section.profile_combo.currentData() == profile and section.run_button.isEnabled()
    assert section.review_record() is None  # not run: nothing added to the review

    async def go() -> None:
        task = section.start()
        assert task is not None
        await task

    loop.run_until_complete(go())
    text = section.status.text()
    assert "worse" in text and "would refuse" in text and "broken:" in text
    assert f"{REGISTRY}@draft vs {REGISTRY}@{rich}" in text
    dialog.notes_edit.setPlainText("terse on purpose")
    dialog.acknowledge_all()
    dialog.accept()
    review = published[0].review
    assert review is not None and review["evals"]["verdict"] == "worse"
    assert review["evals"]["passed"] is False and review["evals"]["set"] == "core"
    assert store.list_versions(REGISTRY)[-1].review["evals"]["run_id"] == section.result.run_id


def test_a_better_draft_passes_and_nothing_published_disables_the_section(
    loop, qtbot, store: RegistryStore, server: LoopbackModel
) -> None:
    add_profile(store, server)
    dialog = dialog_for(qtbot, store, [])
    section = dialog.eval_section

    async def go() -> None:
        await section.start()

    loop.run_until_complete(go())
    assert section.result.passed and "better" in section.status.text()
    # A registry never published has no parent: the section says so, nothing runs.
    fresh = PublishDialog("order-service", 1, lambda r: None,  # type: ignore[arg-type]
                          baseline=publish_baseline(store, "order-service"),
                          evals=PublishEvals(store, "order-service"))  # fmt: skip
    qtbot.addWidget(fresh)
    assert not fresh.eval_section.run_button.isEnabled()
    assert "Nothing published yet" in fresh.eval_section.status.text()
    assert default_set(["a", "core"]) == "core" and default_set(["b", "a"]) == "b"
    assert parent_number("stable (v3)") == 3 and parent_number("nothing") is None
