"""Skills and remote agents beside the tools: one tree for a registry's draft, an editor, save.

The tree has three groups — tools, skills, remote agents — so a reviewer sees
a skill next to the tools it uses. Choosing a skill opens the
:class:`SkillEditorWidget`; choosing a remote agent shows its card (endpoint,
streaming, skills, security schemes). Save writes the edited skills into the
draft (``registry_db.skills.save_draft_skills``), which bumps the draft
revision like any other draft edit. The catalogue line at the bottom says what
progressive disclosure costs: names and descriptions resident, bodies on demand.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.agents.model import RemoteAgent
from studio.contract.model import Registry
from studio.runtime.delegate import start_chain
from studio.skills.catalogue import catalogue_cost
from studio.skills.model import Skill
from studio.ui.skills.delegation import DelegationView
from studio.ui.skills.editor import SkillEditorWidget

TOOL, SKILL, AGENT = "tool", "skill", "agent"


class SkillsPanel(QWidget):
    """A registry's tools, skills and agents in a tree, with the skill editor beside it.

    Args:
        store: The open :class:`registry_db.RegistryStore` (for load and save).
        registry: The registry's name.
    """

    saved = Signal(str)
    """The registry name, after the skills were saved into its draft."""

    def __init__(self, store: Any, registry: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.registry_name = registry
        self._registry: Registry | None = None
        self._edited: dict[str, tuple[str, Skill]] = {}
        """Original name → (name when opened, edited skill), for skills changed since a save."""
        self._current: str | None = None
        self._build()
        self.reload()

    def _build(self) -> None:
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("capabilityTree")
        self.tree.setHeaderHidden(True)
        self.tree.currentItemChanged.connect(self._on_current)
        self.catalogue = QLabel(self)
        self.catalogue.setWordWrap(True)
        self.save_button = QPushButton(self.tr("Save skills"), self)
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self.save)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.tree, 1)
        left_layout.addWidget(self.catalogue)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.save_button)
        left_layout.addLayout(row)

        self.editor = SkillEditorWidget(self)
        self.editor.skill_changed.connect(self._on_skill_changed)
        self.card_view = QTextBrowser(self)
        self.card_view.setObjectName("agentCard")
        self.delegation: DelegationView | None = None
        self.agent_page = QSplitter(Qt.Orientation.Vertical, self)
        self.agent_page.addWidget(self.card_view)
        self.placeholder = QLabel(
            self.tr("Choose a skill to edit it, or a remote agent to see its card."), self
        )
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget(self)
        self.tool_view = QTextBrowser(self)
        for widget in (self.placeholder, self.editor, self.agent_page, self.tool_view):
            self.stack.addWidget(widget)

        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(self.stack)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 4)
        split.setSizes([240, 960])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

    # ------------------------------------------------------------------ data

    def reload(self) -> None:
        """Read the draft again (unsaved skill edits are dropped)."""
        self._registry = self.store.draft_registry(self.registry_name)
        self._edited.clear()
        self.save_button.setEnabled(False)
        self._fill()

    def skills(self) -> list[Skill]:
        """The draft's skills with the unsaved edits applied."""
        assert self._registry is not None
        edited = {old: skill for old, (_, skill) in self._edited.items()}
        return [edited.get(s.name, s) for s in self._registry.skills]

    def save(self) -> None:
        """Write the edited skills into the draft."""
        from registry_db.skills import save_draft_skills

        if not self._edited:
            return
        renamed = [old for old, (_, s) in self._edited.items() if s.name != old]
        changed = [skill for _, skill in self._edited.values()]
        try:
            save_draft_skills(self.store, self.registry_name, skills=changed, remove=renamed)
        except ValueError as exc:  # a name that cannot be stored: say so, keep the edits
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, self.tr("Skills not saved"), str(exc))
            return
        current = self._current_skill_name()
        self.reload()
        if current:
            self.select(SKILL, current)
        self.saved.emit(self.registry_name)

    # ------------------------------------------------------------------ tree

    def _fill(self) -> None:
        assert self._registry is not None
        registry = self._registry
        self.tree.blockSignals(True)
        self.tree.clear()
        groups = (
            (TOOL, self.tr("Tools (%1)"), [(t.name, t.summary) for t in registry.tools]),
            (SKILL, self.tr("Skills (%1)"), [(s.name, s.description) for s in self.skills()]),
            (
                AGENT,
                self.tr("Remote agents (%1)"),
                [(a.name, a.description) for a in registry.agents],
            ),
        )
        for kind, label, rows in groups:
            group = QTreeWidgetItem(self.tree, [label.replace("%1", str(len(rows)))])
            group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            for name, tip in rows:
                item = QTreeWidgetItem(group, [name])
                item.setData(0, Qt.ItemDataRole.UserRole, (kind, name))
                item.setToolTip(0, tip)
            group.setExpanded(True)
        self.tree.blockSignals(False)
        self._show_catalogue()
        self.stack.setCurrentWidget(self.placeholder)

    def _show_catalogue(self) -> None:
        skills = self.skills()
        if not skills:
            self.catalogue.setText(self.tr("No skills in this registry."))
            return
        cost = catalogue_cost(skills)
        self.catalogue.setText(
            self.tr(
                "Catalogue: ~%1 tokens resident (names, descriptions); bodies ~%2 tokens on demand"
            )
            .replace("%1", str(cost.resident))
            .replace("%2", str(cost.bodies))
        )

    def select(self, kind: str, name: str) -> bool:
        """Make the tree's current item the ``kind`` called ``name``; False when absent."""
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for j in range(group.childCount() if group is not None else 0):
                item = group.child(j) if group is not None else None
                if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == (kind, name):
                    self.tree.setCurrentItem(item)
                    return True
        return False

    def _current_skill_name(self) -> str | None:
        skill = self.editor.skill
        return skill.name if skill is not None and self._current is not None else None

    def _on_current(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if not data or self._registry is None:
            return
        kind, name = data
        if kind == SKILL:
            skill = next(s for s in self.skills() if s.name == name)
            original = next((old for old, (_, s) in self._edited.items() if s.name == name), name)
            self._current = original
            self.editor.set_skill(skill, None)
            self.stack.setCurrentWidget(self.editor)
        elif kind == AGENT:
            agent = next(a for a in self._registry.agents if a.name == name)
            self._current = None
            self.card_view.setHtml(agent_card_html(agent, self))
            self._show_delegation(agent)
            self.stack.setCurrentWidget(self.agent_page)
        else:
            self._current = None
            tool = self._registry.tool(name)
            summary = html.escape(tool.summary if tool else "")
            self.tool_view.setHtml(f"<h3>{html.escape(name)}</h3><p>{summary}</p>")
            self.stack.setCurrentWidget(self.tool_view)

    def _show_delegation(self, agent: RemoteAgent) -> None:
        """A delegation view for ``agent`` under its card (a new one per agent chosen)."""
        if self.delegation is not None and self.delegation.agent.name == agent.name:
            return
        if self.delegation is not None:
            if self.delegation.busy:
                return  # keep the running delegation; choosing again later shows the new agent
            self.delegation.setParent(None)
            self.delegation.deleteLater()
        chain = start_chain(f"studio:{self.registry_name}")
        self.delegation = DelegationView(agent, chain, self.agent_page)
        self.agent_page.addWidget(self.delegation)
        self.agent_page.setSizes([300, 500])

    def _on_skill_changed(self, skill: Skill) -> None:
        if self._current is None:
            return
        self._edited[self._current] = (self._current, skill)
        self.save_button.setEnabled(True)
        item = self.tree.currentItem()
        if item is not None and item.text(0) != skill.name:
            item.setText(0, skill.name)
            item.setData(0, Qt.ItemDataRole.UserRole, (SKILL, skill.name))
        self._show_catalogue()


def agent_card_html(agent: RemoteAgent, widget: QWidget) -> str:
    """A remote agent's card as the panel shows it (escaped: a card is untrusted input)."""
    e = html.escape
    tr = widget.tr
    rows = [
        f"<h3>{e(agent.title or agent.name)}</h3>",
        f"<p>{e(agent.description)}</p>",
        f"<p><b>{e(tr('Endpoint'))}</b>: {e(agent.url)} ({e(agent.protocol_binding)})</p>",
        f"<p><b>{e(tr('Streaming'))}</b>: {e(tr('yes') if agent.streaming else tr('no'))} · "
        f"<b>{e(tr('Push notifications'))}</b>: "
        f"{e(tr('yes') if agent.push_notifications else tr('no'))}</p>",
    ]
    schemes = ", ".join(f"{n} ({k})" for n, k in agent.security_schemes) or tr("none")
    rows.append(f"<p><b>{e(tr('Security schemes'))}</b>: {e(schemes)}</p>")
    rows.append(f"<p><b>{e(tr('Skills'))}</b></p><ul>")
    for sk in agent.skills:
        tags = ", ".join(sk.tags)
        rows.append(
            f"<li><b>{e(sk.name or sk.id)}</b> <code>{e(sk.id)}</code> — {e(sk.description)}"
            + (f" <i>[{e(tags)}]</i>" if tags else "")
            + "</li>"
        )
    rows.append("</ul>")
    return "".join(rows)
