"""What each provider receives for the selected tool, and what it costs."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.contract import Registry, RegistrySettings, ToolContract, render_description
from studio.contract.audience import Audience, audiences, for_audience

# The formats and the token counting are imported by the first (debounced)
# refresh, which runs after the window's first paint (issue #16).

Exporter = Callable[[ToolContract, str, RegistrySettings], tuple[Any, list[Any]]]
RegistrySource = Callable[[], Registry | None]

# Labels marked for translation here, translated where the combo is filled.
PROVIDERS: tuple[tuple[str, str], ...] = (
    ("openai", str(QT_TRANSLATE_NOOP("PreviewWidget", "OpenAI chat (tools)"))),
    ("openai-responses", str(QT_TRANSLATE_NOOP("PreviewWidget", "OpenAI Responses"))),
    ("anthropic", str(QT_TRANSLATE_NOOP("PreviewWidget", "Anthropic messages"))),
    ("mcp", str(QT_TRANSLATE_NOOP("PreviewWidget", "MCP tools/list entry"))),
    ("gemini", str(QT_TRANSLATE_NOOP("PreviewWidget", "Gemini function declaration"))),
)

DEBOUNCE_MS = 150


class PreviewWidget(QWidget):
    """Read-only preview of one tool as a provider sees it.

    Shows the provider JSON (exactly what :func:`studio.formats.export_tool`
    produces), the description rendered with the registry's template, the
    export's loss notes and the tokens of that JSON (compact, as requests carry
    it): o200k_base tokens for the OpenAI formats when bpe-openai is installed,
    else the offline estimate, labelled as such. Updates are debounced so typing
    in the editor does not re-export on every key.

    The tokenizer is never loaded on the GUI thread: until a background load
    has finished, the label shows the estimate and is refreshed afterwards.

    Args:
        parent: The owning widget.
        exporter: ``export_tool``; injectable for tests.
    """

    tokenizerSettled = Signal()
    """A background tokenizer load finished (emitted from that thread; queued here)."""

    def __init__(self, parent: QWidget | None = None, *, exporter: Exporter | None = None) -> None:
        super().__init__(parent)
        self.tokenizerSettled.connect(self._on_tokenizer_settled)
        self._export = exporter or _export_tool
        self._tool: ToolContract | None = None
        self._settings = RegistrySettings()
        self._registry_source: RegistrySource | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)

        self.provider_combo = QComboBox()
        for fmt, label in PROVIDERS:
            self.provider_combo.addItem(QCoreApplication.translate("PreviewWidget", label), fmt)
        self.provider_combo.setToolTip(self.tr("Which provider's request to preview"))
        self.provider_combo.currentIndexChanged.connect(self.refresh)
        # "This tool", or the whole set one (role, scenario) is sent (issue #17).
        self.audience_combo = QComboBox()
        self.audience_combo.setObjectName("previewAudience")
        self.audience_combo.addItem(self.tr("Selected tool"), None)
        self.audience_combo.setToolTip(
            self.tr("Preview the selected tool, or every tool a role in a scenario is sent")
        )
        self.audience_combo.currentIndexChanged.connect(self.refresh)
        self.audience_label = QLabel()
        self.audience_label.setObjectName("previewAudienceCount")
        self.audience_label.setWordWrap(True)
        self.audience_label.hide()
        self.tokens_label = QLabel(self.tr("≈ 0 tokens"))
        self.tokens_label.setToolTip(
            self.tr("Estimated tokens of the provider JSON (an offline heuristic, not a tokenizer)")
        )
        self.tokens_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.tokens_label.setObjectName("previewTokens")

        self.json_view = QPlainTextEdit(readOnly=True)
        self.json_view.setFont(mono)
        self.json_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.json_view.setPlaceholderText(self.tr("Select a tool to see what the model receives."))

        self.description_view = QPlainTextEdit(readOnly=True)
        self.description_view.setFont(mono)
        self.description_view.setPlaceholderText(self.tr("The description the model sees."))

        self.notes_list = QListWidget()
        self.notes_list.setWordWrap(True)
        self.notes_list.setToolTip(self.tr("What this provider's format cannot express"))

        # Two rows: beside the combo in a narrow preview the count was cut off.
        header = QVBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setSpacing(2)
        header.addWidget(self.provider_combo)
        header.addWidget(self.audience_combo)
        header.addWidget(self.audience_label)
        header.addWidget(self.tokens_label)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(_titled(self.tr("Request JSON"), self.json_view))
        splitter.addWidget(_titled(self.tr("Rendered description"), self.description_view))
        splitter.addWidget(_titled(self.tr("Loss notes"), self.notes_list))
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setStretchFactor(2, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(header)
        layout.addWidget(splitter, 1)

    # ------------------------------------------------------------------ API

    def current_format(self) -> str:
        return str(self.provider_combo.currentData())

    def set_format(self, fmt: str) -> None:
        """Show provider ``fmt`` (``openai``, ``anthropic``, ``mcp``…)."""
        index = self.provider_combo.findData(fmt)
        if index >= 0:
            self.provider_combo.setCurrentIndex(index)

    def set_registry_source(self, source: RegistrySource | None) -> None:
        """Where the audience choices and sets come from (the open registry's working copy)."""
        self._registry_source = source
        self._timer.start()

    def current_audience(self) -> Audience | None:
        """The chosen (role, scenario), or None for the selected tool alone."""
        data = self.audience_combo.currentData()
        return Audience(*data) if data else None

    def set_audience(self, audience: Audience | None) -> None:
        """Show the set ``audience`` is sent (None: the selected tool); refreshes now."""
        self._fill_audiences(self._registry())
        key = [audience.role, audience.scenario] if audience else None
        for i in range(self.audience_combo.count()):
            if self.audience_combo.itemData(i) == key:
                self.audience_combo.setCurrentIndex(i)
        self.refresh()

    def set_tool(self, tool: ToolContract | None, settings: RegistrySettings | None = None) -> None:
        """Preview ``tool`` soon (debounced); None clears the preview."""
        self._tool = tool
        if settings is not None:
            self._settings = settings
        self._timer.start()

    def postpone(self) -> bool:
        """Stop a pending (debounced) update without applying it; True when one was pending.

        The main window does so between its first show and first paint, then
        calls :meth:`schedule`: the first paint never waits for an export.
        """
        pending = self._timer.isActive()
        self._timer.stop()
        return pending

    def schedule(self) -> None:
        """Update soon (debounced), as a new tool does."""
        self._timer.start()

    def flush(self) -> None:
        """Apply a pending update now (tests, and before a screenshot)."""
        if self._timer.isActive():
            self._timer.stop()
            self.refresh()

    def refresh(self) -> None:
        """Re-export the current tool for the chosen provider."""
        self._timer.stop()
        self.notes_list.clear()
        registry = self._registry()
        self._fill_audiences(registry)
        audience = self.current_audience()
        self.audience_label.setVisible(audience is not None)
        if audience is not None and registry is not None:
            self._show_audience(registry, audience)
            return
        tool = self._tool
        if tool is None:
            self.json_view.clear()
            self.description_view.clear()
            self.tokens_label.setText(self.tr("≈ 0 tokens"))
            return
        self.description_view.setPlainText(
            render_description(tool, self._settings.description_template)
        )
        try:
            value, notes = self._export(tool, self.current_format(), self._settings)
        except Exception as exc:  # an unfinished edit must not break the preview
            self.json_view.setPlainText(self.tr("Cannot export this tool yet:") + f"\n{exc}")
            self.tokens_label.setText(self.tr("≈ — tokens"))
            return
        self.json_view.setPlainText(json.dumps(value, ensure_ascii=False, indent=2))
        # Requests carry compact JSON, so the count ignores the indentation shown.
        compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        self._show_tokens(compact)
        for note in notes:
            self.notes_list.addItem(_note_line(note))
        if not notes:
            self.notes_list.addItem(
                self.tr("No loss notes: this format carries the whole contract.")
            )

    def _registry(self) -> Registry | None:
        if self._registry_source is None:
            return None
        try:
            return self._registry_source()
        except Exception:  # a closing document must not break the preview
            return None

    def _fill_audiences(self, registry: Registry | None) -> None:
        """The audience choices of ``registry``, keeping the current one when it still exists."""
        wanted = [[a.role, a.scenario] for a in audiences(registry)] if registry else []
        have = [self.audience_combo.itemData(i) for i in range(1, self.audience_combo.count())]
        if wanted == have:
            return
        current = self.audience_combo.currentData()
        self.audience_combo.blockSignals(True)
        while self.audience_combo.count() > 1:
            self.audience_combo.removeItem(1)
        for role, scenario in wanted:
            label = self.tr("Sent to {role} in {scenario}").format(
                role=role or self.tr("(any role)"), scenario=scenario or self.tr("(any scenario)")
            )
            self.audience_combo.addItem(label, [role, scenario])
        index = self.audience_combo.findData(current) if current else 0
        self.audience_combo.setCurrentIndex(max(index, 0))
        self.audience_combo.blockSignals(False)

    def _show_audience(self, registry: Registry, audience: Audience) -> None:
        """The tools block a request for ``audience`` carries: only the permitted tools."""
        from studio.formats import export_registry

        permitted = for_audience(registry, audience)
        self.audience_label.setText(
            self.tr("{sent} of {total} tools are sent to {role} in {scenario}").format(
                sent=len(permitted.tools),
                total=len(registry.tools),
                role=audience.role or self.tr("(any role)"),
                scenario=audience.scenario or self.tr("(any scenario)"),
            )
        )
        self.description_view.setPlainText("\n".join(t.name for t in permitted.tools))
        try:
            result = export_registry(permitted, self.current_format())
            value = json.loads(result.text or "null")
        except Exception as exc:  # an unfinished edit must not break the preview
            self.json_view.setPlainText(self.tr("Cannot export these tools yet:") + f"\n{exc}")
            self.tokens_label.setText(self.tr("≈ — tokens"))
            return
        self.json_view.setPlainText(json.dumps(value, ensure_ascii=False, indent=2))
        self._show_tokens(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        for note in result.notes:
            self.notes_list.addItem(_note_line(note))
        if not result.notes:
            self.notes_list.addItem(
                self.tr("No loss notes: this format carries the whole contract.")
            )

    def _show_tokens(self, compact: str) -> None:
        from studio.contract.token_count import (
            ESTIMATE,
            encoding_for,
            exact_settled,
            preload,
            token_counter,
        )
        from studio.contract.tokens import estimate_tokens

        fmt = self.current_format()
        encoding = encoding_for(fmt)
        loading = not exact_settled(fmt)
        if loading:
            tokens, method = estimate_tokens(compact), ESTIMATE
            preload(fmt, self._emit_settled)  # refreshes again once loaded
        else:  # nothing left to load: counting cannot block
            count, method = token_counter(fmt)
            tokens = count(compact)
        if method == ESTIMATE:
            shown = self.tr("≈ {count} tokens (estimate)").format(count=tokens)
        else:
            shown = self.tr("{count} tokens ({method})").format(count=tokens, method=method)
        self.tokens_label.setText(shown)
        estimate_tip = self.tr(
            "Estimated tokens of the provider JSON (an offline heuristic, not a tokenizer)"
        )
        if method != ESTIMATE:
            tip = self.tr(
                "{method} tokens of this JSON (compact): exact for this text, but OpenAI "
                "renders tool definitions in its own internal format, so the billed count "
                "differs somewhat. The lint's per-tool figure counts the name, description "
                "and parameters plus a fixed wrapper allowance instead of this JSON."
            ).format(method=method)
        elif encoding is None:
            tip = self.tr("{tip}; there is no offline tokenizer for this provider's models").format(
                tip=estimate_tip
            )
        elif loading:
            tip = self.tr("{tip}; loading the {encoding} tokenizer…").format(
                tip=estimate_tip, encoding=encoding
            )
        else:
            tip = self.tr(
                "{tip}; install the exact-tokens extra (bpe-openai) for {encoding}"
            ).format(tip=estimate_tip, encoding=encoding)
        self.tokens_label.setToolTip(tip)

    def _emit_settled(self) -> None:
        """Called on the loading thread: hand over to the GUI thread (a queued signal)."""
        with contextlib.suppress(RuntimeError):  # the widget was deleted meanwhile
            self.tokenizerSettled.emit()

    def _on_tokenizer_settled(self) -> None:
        if self._tool is not None and not self._timer.isActive():
            self.refresh()


def _export_tool(tool: ToolContract, fmt: str, settings: RegistrySettings) -> tuple[Any, list[Any]]:
    """:func:`studio.formats.export_tool`, imported on the first preview."""
    from studio.formats import export_tool

    return export_tool(tool, fmt, settings)


def _note_line(note: Any) -> str:
    """A loss note (a ``studio.formats.Note``) as one line in the UI language:
    ``[Lost] path: message``."""
    from studio.ui.dialogs.notes_dialog import kind_label  # imports the formats: after paint
    from studio.ui.i18n import note_message

    where = f"{note.path}: " if note.path else ""
    return f"[{kind_label(note.kind)}] {where}{note_message(note.message)}"


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 4, 0, 0)
    layout.setSpacing(2)
    label = QLabel(title)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box
