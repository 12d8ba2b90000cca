"""The eval gate in the publish dialog: the draft against its parent on an eval set.

Beside the breaking-change review, the author can run the registry's default
eval set (``core`` when it has one, else the first) with a model profile:
the parent version (the version the review compares with) is A, the saved
draft is B. The run is an ordinary stored run (the Evals mode shows it, the
response cache makes a re-check of an unchanged parent free); the result is
:func:`studio.evals.gates.run_gate`'s, as ``studio publish --require-evals``
decides it, with the semver warning when a "compatible" edit broke cases.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from registry_db import NotFoundError, RegistryStore
from studio.ui.style import theme_colour

DEFAULT_SET = "core"


@dataclass(frozen=True)
class PublishEvals:
    """What the section needs: the database and the registry (tests add a client factory)."""

    store: RegistryStore
    registry: str
    client_factory: Any = None


def default_set(names: Sequence[str]) -> str | None:
    """``core`` when the registry has it, else its first set (None: no set)."""
    if DEFAULT_SET in names:
        return DEFAULT_SET
    return names[0] if names else None


def parent_number(baseline_label: str) -> int | None:
    """The version a review baseline names (``stable (v3)``, ``v4``), None for ``nothing``."""
    found = re.search(r"v(\d+)", baseline_label)
    return int(found.group(1)) if found else None


class PublishEvalSection(QWidget):
    """Set and profile choosers, Run evals, and the gate's result in words.

    Args:
        evals: The database and registry.
        baseline: The publish dialog's :class:`~studio.ui.diff.sides.PublishBaseline`.
    """

    def __init__(self, evals: PublishEvals, baseline: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from registry_db.profiles import ProfileRepository
        from studio.evals.store import EvalStore

        self.evals, self.baseline = evals, baseline
        self.parent_version = parent_number(baseline.label)
        self.result: Any = None
        self.set_name = ""
        self.profile_name = ""
        self.runner: Any = None
        self.task: asyncio.Task[None] | None = None
        heading = QLabel(self.tr("<b>Behaviour</b> — the draft against its parent on an eval set"))
        heading.setWordWrap(True)
        self.set_combo = QComboBox()
        self.set_combo.setAccessibleName(self.tr("Eval set"))
        try:
            names = [s.name for s in EvalStore(evals.store).summaries(evals.registry)]
        except NotFoundError:
            names = []
        self.set_combo.addItems(names)
        chosen = default_set(names)
        if chosen:
            self.set_combo.setCurrentText(chosen)
        self.profile_combo = QComboBox()
        self.profile_combo.setAccessibleName(self.tr("Model profile"))
        for profile in ProfileRepository(evals.store).list_profiles():
            self.profile_combo.addItem(profile.name, profile.name)
        self.run_button = QPushButton(self.tr("Run evals"))
        self.run_button.setToolTip(
            self.tr("Run the set on the parent version and on the draft, and compare them")
        )
        self.run_button.clicked.connect(self.start)
        self.status = QLabel()
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.set_combo, 1)
        row.addWidget(self.profile_combo, 1)
        row.addWidget(self.run_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(heading)
        layout.addLayout(row)
        layout.addWidget(self.status)
        why = ""
        if self.parent_version is None:
            why = self.tr("Nothing published yet: there is no parent version to compare with.")
        elif not names:
            why = self.tr("This registry has no eval set yet (add one in Evals).")
        elif self.profile_combo.count() == 0:
            why = self.tr("No model profile yet: add one in the Playground.")
        self.run_button.setEnabled(not why)
        self.status.setText(why or self.tr("Optional: not run yet."))

    def start(self) -> asyncio.Task[None] | None:
        """Start the run on the app's event loop; the status follows it."""
        from registry_db.profiles import ProfileRepository
        from studio.evals import EvalSetError
        from studio.evals.runner import EvalRunner, RunOptions
        from studio.evals.store import EvalStore
        from studio.evals.variants import VariantError, resolve_variant

        e = self.evals
        self.set_name = self.set_combo.currentText()
        self.profile_name = str(self.profile_combo.currentData() or "")
        try:
            eval_set = EvalStore(e.store).load(e.registry, self.set_name)
            base = resolve_variant(e.store, e.registry, str(self.parent_version), "A")
            draft = resolve_variant(e.store, e.registry, "draft", "B")
            profile = ProfileRepository(e.store).get(self.profile_name)
        except (NotFoundError, EvalSetError, VariantError) as exc:
            self._say(str(exc), "error_fg")
            return None
        self.runner = EvalRunner(
            e.store, e.registry, eval_set, [base, draft], [profile], RunOptions(concurrency=4),
            on_progress=self._on_progress, client_factory=e.client_factory,
        )  # fmt: skip
        self.run_button.setEnabled(False)
        self._say(self.tr("Running {set} on {a} and the draft…").format(
            set=self.set_name, a=base.label), "muted_fg")  # fmt: skip
        self.task = asyncio.get_running_loop().create_task(self._run(base.label, draft.label))
        return self.task

    def cancel(self) -> None:
        if self.runner is not None and self.task is not None and not self.task.done():
            self.runner.cancel()

    def _on_progress(self, p: Any) -> None:
        self._say(self.tr("{done} of {total} attempts…").format(done=p.done, total=p.total),
                  "muted_fg")  # fmt: skip

    async def _run(self, a_label: str, b_label: str) -> None:
        from studio.evals.gates import GateError, run_gate
        from studio.evals.runner import EvalRunError

        try:
            summary = await self.runner.run()
            sides = ((a_label, None), (b_label, None))
            self.result = run_gate(sides[0], sides[1], lambda _s: summary.attempts)  # type: ignore[arg-type]
        except (EvalRunError, GateError) as exc:
            self._say(str(exc), "error_fg")
        except Exception as exc:  # reported, not raised: the dialog must stay usable
            self._say(f"{type(exc).__name__}: {exc}", "error_fg")
        else:
            self._show_result()
        finally:
            self.run_button.setEnabled(True)

    def _show_result(self) -> None:
        from studio.evals.gates import semver_note
        from studio.evals.report import comparison_sentence

        result = self.result
        c = result.report.comparison
        lines = [html.escape(comparison_sentence(c))]
        lines.append(
            html.escape(
                self.tr("fixed {fixed}, broken {broken} of {cases} cases · run {run}").format(
                    fixed=c.fixed, broken=c.broken, cases=len(c.pairs), run=result.run_id
                )
            )
        )
        broken = [p.case_id for p in c.flips if p.status == "broken"][:5]
        if broken:
            lines.append(html.escape(self.tr("broken: {cases}").format(cases=", ".join(broken))))
        note = semver_note(result, self.baseline.diff)
        if note:
            lines.append("⚠ " + html.escape(note))
        if not result.passed:
            lines.insert(0, "<b>" + html.escape(
                self.tr("Significantly worse than the parent: `studio publish --require-evals` "
                        "would refuse this.")) + "</b>")  # fmt: skip
        self._say("<br>".join(lines), "error_fg" if not result.passed else "promote_fg", rich=True)

    def review_record(self) -> dict[str, Any] | None:
        """What goes into the version's review when the gate ran (None otherwise)."""
        if self.result is None:
            return None
        record: dict[str, Any] = self.result.review_record(self.set_name, self.profile_name)
        return record

    def _say(self, text: str, colour: str, *, rich: bool = False) -> None:
        self.status.setStyleSheet(f"color: {theme_colour(colour, self)};")
        self.status.setText(text if rich else html.escape(text))
