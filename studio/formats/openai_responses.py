"""OpenAI Responses API tools: ``[{"type": "function", "name", "description", "parameters"}]``.

Built-in tools (web search, file search …) carry another ``type`` and are
skipped on import with a note.
"""

from __future__ import annotations

from studio.formats.openai_layout import FunctionLayout

NAME = "openai-responses"
LABEL = "OpenAI Responses tools"
_LAYOUT = FunctionLayout(LABEL)

export_tool = _LAYOUT.export_tool
export_registry = _LAYOUT.export_registry
import_tools = _LAYOUT.import_tools
