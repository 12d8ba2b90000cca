"""The body of each conversation card as HTML (laid out by a QTextDocument in the delegate).

Kept apart from painting so the text a card shows — arguments as sent and as
prepared with the differences marked, pipeline changes, result, pairing
flags with the provider errors — can be tested without a view.
"""

from __future__ import annotations

import contextlib
import json
from html import escape as _html_escape
from typing import Any

from PySide6.QtCore import QCoreApplication

from studio.runtime.results import SYSTEM_FAULT_MARKER, is_system_fault, parse_result_content
from studio.ui.playground.conversation_model import CallAudit, ConversationItem

PROVIDER_NAMES = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini"}
MAX_BODY_CHARS = 1500


def escape(text: str) -> str:
    """Escape for element content (quotes stay readable)."""
    return _html_escape(text, quote=False)


def _colours(dark: bool) -> dict[str, str]:
    if dark:
        return {
            "added": "#1f4d2b", "changed": "#5a4a12", "removed": "#5c2326",
            "muted": "#9aa0a6", "flag_bg": "#4a1f22", "flag_fg": "#ffb4ab",
        }  # fmt: skip
    return {
        "added": "#d5f5dd", "changed": "#fff0b3", "removed": "#ffd9d9",
        "muted": "#5f6368", "flag_bg": "#fde7e9", "flag_fg": "#8c1d18",
    }  # fmt: skip


def parse_arguments(raw: Any) -> Any:
    """The model's arguments as JSON when they parse, else the raw string."""
    if isinstance(raw, str):
        try:
            return json.loads(raw) if raw.strip() else {}
        except ValueError:
            return raw
    return raw


def argument_diff(sent: Any, prepared: Any) -> dict[str, str]:
    """Top-level key → ``added``/``changed``/``removed`` between sent and prepared arguments."""
    if not isinstance(sent, dict) or not isinstance(prepared, dict):
        return {}
    diff: dict[str, str] = {}
    for key, value in prepared.items():
        if key not in sent:
            diff[key] = "added"
        elif sent[key] != value:
            diff[key] = "changed"
    for key in sent:
        if key not in prepared:
            diff[key] = "removed"
    return diff


def _json_lines(value: Any, marks: dict[str, str], colours: dict[str, str], side: str) -> str:
    """``value`` as pretty JSON, one top-level key per line, marked lines highlighted."""
    if not isinstance(value, dict):
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return f"<pre>{escape(text[:MAX_BODY_CHARS])}</pre>"
    lines = ["{"]
    keys = list(value)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        line = escape(f'  "{key}": {json.dumps(value[key], ensure_ascii=False)}{comma}')
        mark = marks.get(key, "")
        if side == "sent" and mark in ("removed", "changed"):
            line = f'<span style="background:{colours["removed"]}">{line}</span>'
        elif side == "prepared" and mark in ("added", "changed"):
            line = f'<span style="background:{colours[mark]}">{line}</span>'
        lines.append(line)
    lines.append("}")
    return "<pre>" + "\n".join(lines) + "</pre>"


def _changes(prepared: dict[str, Any]) -> list[str]:
    out = []
    for step in prepared.get("steps") or ():
        for change in step.get("changes") or ():
            reason = change.get("reason") or change.get("action", "")
            out.append(f"{step.get('name', '')}: {change.get('path', '')} — {reason}")
    return out


def _label(text: str, colours: dict[str, str]) -> str:
    return f'<div style="color:{colours["muted"]}">{escape(text)}</div>'


def _flags(item: ConversationItem, colours: dict[str, str]) -> str:
    out = []
    for problem in item.problems:
        rows = [f"<b>⚠ {escape(problem.kind.value)}</b>: {escape(problem.message)}"]
        for provider, error in problem.provider_errors.items():
            name = PROVIDER_NAMES.get(provider, provider)
            said = QCoreApplication.translate("ConversationCard", "{name} would answer:").format(
                name=name
            )
            rows.append(f"<i>{escape(said)}</i> {escape(error)}")
        out.append(
            f'<table width="100%" cellpadding="4" style="background:{colours["flag_bg"]};'
            f'color:{colours["flag_fg"]}"><tr><td>' + "<br>".join(rows) + "</td></tr></table>"
        )
    return "".join(out)


def call_html(item: ConversationItem, audit: CallAudit, dark: bool) -> str:
    colours = _colours(dark)
    sent = parse_arguments(item.arguments)
    parts = []
    if item.live:
        parts.append(
            _label(QCoreApplication.translate("ConversationCard", "arguments so far"), colours)
        )
        parts.append(f"<pre>{escape(str(item.arguments)[:MAX_BODY_CHARS])}</pre>")
        return "".join(parts)
    prepared = audit.prepared
    marks = argument_diff(sent, prepared.get("arguments")) if prepared else {}
    parts.append(
        _label(QCoreApplication.translate("ConversationCard", "sent by the model"), colours)
    )
    parts.append(_json_lines(sent, marks, colours, "sent"))
    if prepared is not None:
        verdict = (
            QCoreApplication.translate("ConversationCard", "prepared by the pipeline")
            if prepared.get("ok")
            else QCoreApplication.translate("ConversationCard", "rejected by the pipeline")
        )
        parts.append(_label(verdict, colours))
        if prepared.get("ok"):
            parts.append(_json_lines(prepared.get("arguments"), marks, colours, "prepared"))
        else:
            error = prepared.get("error") or {}
            parts.append(
                f"<pre>{escape(json.dumps(error, ensure_ascii=False, indent=1)[:600])}</pre>"
            )
        changes = _changes(prepared)
        if changes:
            parts.append(
                '<ul style="margin-left:12px; -qt-list-indent:0">'
                + "".join(f"<li>{escape(c)}</li>" for c in changes)
                + "</ul>"
            )
    parts.append(_flags(item, colours))
    return "".join(parts)


def result_html(item: ConversationItem, dark: bool) -> str:
    colours = _colours(dark)
    content = item.text
    with contextlib.suppress(ValueError):  # not JSON: shown as sent
        marker = SYSTEM_FAULT_MARKER + "\n" if is_system_fault(content) else ""
        data = parse_result_content(content)
        content = marker + json.dumps(data, ensure_ascii=False, indent=1)
    if len(content) > MAX_BODY_CHARS:
        content = (
            content[:MAX_BODY_CHARS]
            + "\n"
            + QCoreApplication.translate("ConversationCard", "… (full text in the inspector)")
        )
    return f"<pre>{escape(content)}</pre>" + _flags(item, colours)


def text_html(item: ConversationItem, dark: bool) -> str:
    body = escape(item.text or ("…" if item.live else "")).replace("\n", "<br>")
    return f"<div>{body}</div>" + _flags(item, _colours(dark))


def card_html(item: ConversationItem, audit: CallAudit, dark: bool) -> str:
    """The HTML body of ``item``'s card."""
    if item.name.startswith(("load_skill", "delegate_to_")):  # skills and A2A (issue #18)
        from studio.ui.playground.capability_cards import capability_html

        special = capability_html(item, audit, dark)
        if special is not None:
            return special
    if item.kind == "call":
        return call_html(item, audit, dark)
    if item.kind == "result":
        return result_html(item, dark)
    return text_html(item, dark)


def status_text(item: ConversationItem, audit: CallAudit) -> str:
    """The short state shown in a call card's header (streaming, approval, executed…)."""
    if item.live:
        return QCoreApplication.translate("ConversationCard", "streaming…")
    if item.kind != "call":
        return ""
    if audit.completed:
        done = audit.completed
        latency = done.get("latency_ms") or 0
        return f"{done.get('status', '')} · {latency:.0f} ms"
    if audit.updates:  # a delegation's latest streamed state
        return f"a2a: {audit.updates[-1][0]}"
    if audit.executing:
        return QCoreApplication.translate("ConversationCard", "executing ({executor})").format(
            executor=audit.executing.get("executor", "")
        )
    if audit.approval and not audit.decided:
        return QCoreApplication.translate("ConversationCard", "waiting for approval")
    if audit.prepared:
        return (
            QCoreApplication.translate("ConversationCard", "prepared")
            if audit.prepared.get("ok")
            else QCoreApplication.translate("ConversationCard", "rejected")
        )
    return ""
