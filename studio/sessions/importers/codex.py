"""OpenAI Codex CLI rollouts: ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Each line is ``{"timestamp", "type", "payload"}``:

- ``session_meta``: the session (``id``, ``cwd``, ``cli_version``,
  ``instructions`` — read as the system prompt);
- ``turn_context``: per turn, the ``model`` (and sandbox settings);
- ``response_item``: a Responses API item — ``message``, ``reasoning``,
  ``function_call`` / ``function_call_output`` and ``custom_tool_call`` /
  ``custom_tool_call_output`` (free-form input such as a patch), paired by
  ``call_id``; ``local_shell_call`` too. Read with the Responses importer;
  a custom call's free-form ``input`` becomes the argument ``{"input": …}``
  (marked ``extra["custom"]``);
- ``event_msg``: what the UI showed (it repeats the items); only
  ``token_count`` is read, for the usage totals;
- ``compacted``: a summary that replaced earlier history; kept as a user
  message, as Codex sends it.
"""

from __future__ import annotations

import json
from typing import Any

from studio.sessions.importers.base import Conversation, Reader, Rejected, renumber_ids
from studio.sessions.importers.openai_responses import _Builder, _read_item
from studio.sessions.model import Role, TextPart

_LINE_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg",
                         "compacted"})  # fmt: skip
_SESSION_KEYS = ("id", "cwd", "cli_version", "originator", "model_provider", "source")


def looks_like(items: list[Any]) -> bool:
    """Whether a list of JSONL entries is a Codex rollout."""
    return any(
        isinstance(e, dict)
        and str(e.get("type")) in _LINE_TYPES
        and isinstance(e.get("payload"), dict)
        for e in items[:50]
    ) and any(isinstance(e, dict) and e.get("type") == "response_item" for e in items)


def read(data: Any, reader: Reader) -> Conversation:
    if not isinstance(data, list):
        raise Rejected("$", "expected the lines of a Codex rollout file")
    builder = _Builder()
    meta: dict[str, Any] = {}
    for i, path, line in reader.each(data, "$"):
        if not isinstance(line, dict) or not isinstance(line.get("payload"), dict):
            continue
        payload = line["payload"]
        at_line = reader.item_lines[i] if i < len(reader.item_lines) else reader.line
        builder.at = (f"{path}.payload", at_line)
        kind = line.get("type")
        try:
            if kind == "session_meta":
                _session_meta(payload, meta, builder)
            elif kind == "turn_context" and isinstance(payload.get("model"), str):
                meta.setdefault("model", payload["model"])
            elif kind == "response_item":
                _read_item(_as_responses_item(payload), f"{path}.payload", reader, builder)
            elif kind == "compacted" and isinstance(payload.get("message"), str):
                builder.add(Role.USER, TextPart(payload["message"]), {"compacted": True}, new=True)
            elif kind == "event_msg" and payload.get("type") == "token_count":
                _usage(payload, meta)
        except Rejected as exc:
            reader.reject(exc)
    messages = renumber_ids(builder.finish(), reader)
    # Codex opens with injected context (<environment_context>, <user_instructions>).
    title = next((m.text for m in messages if m.role is Role.USER and m.text.strip()
                  and not m.text.lstrip().startswith("<")), "")  # fmt: skip
    title = " ".join(title.split())
    return Conversation(messages, [], meta, builder.origins, title[:79] + "…" * (len(title) > 79))


def _session_meta(payload: dict[str, Any], meta: dict[str, Any], builder: _Builder) -> None:
    for key in _SESSION_KEYS:
        if key in payload and isinstance(payload[key], str | int | float | bool):
            meta.setdefault(f"codex_{key}" if key in ("id", "source") else key, payload[key])
    instructions = payload.get("instructions")
    if isinstance(instructions, str) and instructions:
        builder.add(Role.SYSTEM, TextPart(instructions), {"from": "instructions"})


def _as_responses_item(payload: dict[str, Any]) -> dict[str, Any]:
    """A Codex item in the shape the Responses importer reads."""
    kind = payload.get("type")
    if kind == "custom_tool_call":
        item = {k: v for k, v in payload.items() if k not in ("type", "input")}
        item.update(type="function_call", custom=True,
                    arguments=json.dumps({"input": payload.get("input", "")}))  # fmt: skip
        return item
    if kind == "custom_tool_call_output":
        return {**payload, "type": "function_call_output", "custom": True}
    if kind == "local_shell_call":
        item = {k: v for k, v in payload.items() if k not in ("type", "action")}
        item.update(type="function_call", name="local_shell",
                    arguments=json.dumps(payload.get("action") or {}))  # fmt: skip
        return item
    return payload


def _usage(payload: dict[str, Any], meta: dict[str, Any]) -> None:
    info = payload.get("info")
    total = info.get("total_token_usage") if isinstance(info, dict) else None
    if isinstance(total, dict):
        meta["usage"] = {k: v for k, v in total.items() if isinstance(v, int)}
