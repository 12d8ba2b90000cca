"""Conversation cards for skills and delegations (issue #18): what was loaded, what an agent did.

A ``load_skill`` result is shown as "Skill loaded: NAME" with the instructions
the model read (and the files it was told about); a ``delegate_to_<agent>``
call shows the task's states as they stream in (submitted → working →
input-required → completed), and its result the final state, the agent's
messages, the artifacts (as data) and any instruction-like text flagged. An
input-required result says how to answer: type the answer and Run — the
Playground continues that conversation (:func:`pending_question`).
Pure functions over the model's items: testable without a view.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from studio.runtime.results import parse_result_content
from studio.skills.catalogue import LOAD_SKILL
from studio.ui.playground.card_html import MAX_BODY_CHARS, escape
from studio.ui.playground.conversation_model import CallAudit, ConversationItem

DELEGATE_PREFIX = "delegate_to_"
"""As :data:`studio.runtime.capabilities.DELEGATE_PREFIX` (not imported: that pulls A2A in)."""
INTERRUPTED = ("input-required", "auth-required")


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("CapabilityCards", text)


def is_capability(name: str) -> bool:
    """``load_skill`` or a delegation: the cards this module draws."""
    return name == LOAD_SKILL or name.startswith(DELEGATE_PREFIX)


def _find(value: Any, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """The first dict (depth first) holding all ``keys``: results arrive wrapped as data."""
    if isinstance(value, dict):
        if all(k in value for k in keys):
            return value
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return None
    for child in children:
        found = _find(child, keys)
        if found is not None:
            return found
    return None


def result_body(content: str, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """The capability's body inside a tool result's text, or None."""
    data: Any = None
    with contextlib.suppress(ValueError):
        data = parse_result_content(content)
    if data is None:
        with contextlib.suppress(ValueError):
            data = json.loads(content)
    if isinstance(data, str):
        with contextlib.suppress(ValueError):
            data = json.loads(data)
    return _find(data, keys)


def _muted(text: str, dark: bool) -> str:
    colour = "#9aa0a6" if dark else "#5f6368"
    return f'<div style="color:{colour}">{escape(text)}</div>'


def _pre(text: str) -> str:
    if len(text) > MAX_BODY_CHARS:
        text = text[:MAX_BODY_CHARS] + "\n…"
    return f"<pre>{escape(text)}</pre>"


def skill_result_html(item: ConversationItem, dark: bool) -> str | None:
    """The "Skill loaded: NAME" card: the instructions the model read (None: not a skill body)."""
    body = result_body(item.text, ("name", "instructions"))
    if body is None:
        return None
    files = [str(f) for f in body.get("files") or ()]
    parts = [
        f"<b>{escape(_tr('Skill loaded: %1').replace('%1', str(body['name'])))}</b>",
        _muted(_tr("What it told the model:"), dark),
        _pre(str(body["instructions"])),
    ]
    if files:
        listed = _tr("Files (scripts are listed, not run): %1").replace("%1", ", ".join(files))
        parts.append(_muted(listed, dark))
    return "".join(parts)


def delegation_result_html(item: ConversationItem, dark: bool) -> str | None:
    """The task's final state, messages, artifacts and flags (None: not a delegation body)."""
    body = result_body(item.text, ("agent", "state"))
    if body is None:
        return None
    states = " → ".join(str(s) for s in body.get("states") or ()) or str(body["state"])
    parts = [
        f"<b>{escape(str(body['agent']))}: {escape(str(body['state']))}</b>",
        _muted(_tr("Task states: %1").replace("%1", states), dark),
    ]
    messages = [str(m) for m in body.get("messages") or ()]
    if messages:
        parts.append(_pre("\n".join(messages)))
    artifacts = body.get("artifacts") or ()
    if artifacts:
        parts.append(_muted(_tr("Artifacts (untrusted data):"), dark))
        parts.append(_pre(json.dumps(artifacts, ensure_ascii=False, indent=1)))
    for flag in body.get("untrusted_instructions") or ():
        bg, fg = ("#4a1f22", "#ffb4ab") if dark else ("#fde7e9", "#8c1d18")
        parts.append(
            f'<table width="100%" cellpadding="4" style="background:{bg};color:{fg}"><tr><td>'
            f"⚠ {escape(str(flag))}</td></tr></table>"
        )
    if body["state"] in INTERRUPTED:
        hint = _tr("The agent needs your answer: type it and press Run — it continues here.")
        parts.append(f"<p><b>{escape(hint)}</b></p>")
    return "".join(parts)


def delegation_updates_html(audit: CallAudit, dark: bool) -> str:
    """The states streamed so far for a running delegation ("" when none arrived)."""
    if not audit.updates:
        return ""
    rows = [
        f"<li><b>{escape(state)}</b>{(' — ' + escape(text[:200])) if text else ''}</li>"
        for state, text in audit.updates
    ]
    head = _muted(_tr("Remote agent, streaming:"), dark)
    return head + '<ul style="margin-left:12px; -qt-list-indent:0">' + "".join(rows) + "</ul>"


def capability_html(item: ConversationItem, audit: CallAudit, dark: bool) -> str | None:
    """The card for a skill or delegation row, or None to draw it as any other row."""
    if item.live:
        return None
    if item.kind == "result":
        if item.name == LOAD_SKILL:
            return skill_result_html(item, dark)
        return delegation_result_html(item, dark)
    if item.kind == "call" and item.name.startswith(DELEGATE_PREFIX) and audit.updates:
        from studio.ui.playground.card_html import call_html

        return call_html(item, audit, dark) + delegation_updates_html(audit, dark)
    return None


def pending_question(items: list[ConversationItem]) -> tuple[str, str] | None:
    """(agent, its question) when the conversation's last delegation waits for the user."""
    for item in reversed(items):
        if item.kind != "result" or not item.name.startswith(DELEGATE_PREFIX):
            continue
        body = result_body(item.text, ("agent", "state"))
        if body is None or body["state"] not in INTERRUPTED:
            return None
        messages = [str(m) for m in body.get("messages") or ()]
        return str(body["agent"]), (messages[-1] if messages else "")
    return None


def apply_agent_update(model: Any, agent: str, state: str, text: str) -> bool:
    """Add a streamed state to the running ``delegate_to_<agent>`` call's card; False: none runs."""
    from studio.runtime.capabilities import delegate_tool_name

    tool = delegate_tool_name(_AgentName(agent))  # type: ignore[arg-type]
    running = [
        item
        for item in model.items()
        if item.kind == "call" and item.name == tool and not model.audit_of(item.call_id).completed
    ]
    if not running:
        return False
    call_id = running[-1].call_id
    model.audit.setdefault(call_id, CallAudit()).updates.append((state, text))
    for row in model.rows_of(call_id):
        model.item(row).version += 1
        index = model.index(row)
        model.dataChanged.emit(index, index)
    return True


class _AgentName:
    """Just enough of a RemoteAgent for :func:`delegate_tool_name`."""

    def __init__(self, name: str) -> None:
        self.name = name


def with_draft_capabilities(store: Any, registry: Any) -> Any:
    """The editor's working copy (tools only) with the draft's skills and agents added.

    The tool editor's workspace knows tools; skills and agents are saved into
    the draft by the Skills & agents mode. Only their rows are read, not the tools.
    """
    if registry.skills or registry.agents:
        return registry
    import dataclasses

    from registry_db.skills import read_draft_agents, read_draft_skills

    with store.lock:
        row = store.connection.execute(
            "SELECT id FROM registries WHERE name = ?", (registry.name,)
        ).fetchone()
        if row is None:
            return registry
        skills = read_draft_skills(store.connection, int(row[0]))
        agents = read_draft_agents(store.connection, int(row[0]))
    if not skills and not agents:
        return registry
    return dataclasses.replace(registry, skills=skills, agents=agents)
