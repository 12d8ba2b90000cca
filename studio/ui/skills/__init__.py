"""Skills and remote agents in the GUI: the panel beside the tools and the skill editor.

:class:`SkillsPanel` lists a registry's tools, skills and remote agents in one
tree; choosing a skill opens it in :class:`SkillEditorWidget` (front matter as a
form, the body as Markdown with a live preview, the folder's files; one undo
stack across all of it). The domain lives in :mod:`studio.skills` and
:mod:`studio.agents`; these widgets only adapt it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.ui.skills.editor import SkillEditorWidget
    from studio.ui.skills.panel import SkillsPanel

__all__ = ["SkillEditorWidget", "SkillsPanel"]


def __getattr__(name: str) -> Any:
    """The widgets load when first used: the main window imports only :mod:`.mode` at start."""
    if name == "SkillEditorWidget":
        from studio.ui.skills.editor import SkillEditorWidget

        return SkillEditorWidget
    if name == "SkillsPanel":
        from studio.ui.skills.panel import SkillsPanel

        return SkillsPanel
    raise AttributeError(name)
