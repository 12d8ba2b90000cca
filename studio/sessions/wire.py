"""Internal messages in each provider's wire shape, for convert and repair (DESIGN §6).

:func:`to_wire` writes one conversation as the request document of a
provider — ``openai`` (Chat Completions ``messages``), ``openai-responses``
(``input`` items), ``anthropic`` (``system`` + ``messages``) or ``gemini``
(``systemInstruction`` + ``contents``) — and lists, as notes, what the
target cannot carry. :func:`from_wire` reads such a document back with the
session importers. Ids are mapped, not invented: ``tool_call_id`` ↔
``call_id`` ↔ ``tool_use_id`` ↔ ``functionResponse.id``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from studio.providers.anthropic import to_anthropic_messages
from studio.providers.openai_chat import to_openai_messages
from studio.sessions.importers import import_sessions
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart

WIRE_FORMATS: tuple[str, ...] = ("openai", "openai-responses", "anthropic", "gemini")


def to_wire(
    messages: Sequence[Message], fmt: str, notes: list[str] | None = None
) -> dict[str, Any]:
    """The conversation as a request document of ``fmt``.

    Args:
        messages: Internal messages (system messages included).
        fmt: One of :data:`WIRE_FORMATS`.
        notes: Receives a line for everything the target cannot carry.

    Raises:
        ValueError: for an unknown format.
    """
    notes = notes if notes is not None else []
    _note_losses(messages, fmt, notes)
    if fmt == "openai":
        return {"messages": _openai_messages(messages)}
    if fmt == "anthropic":
        wire, system = _anthropic_messages(messages, notes)
        # A system key (even empty) marks the Messages API shape for detection.
        return {"system": system, "messages": wire}
    if fmt == "openai-responses":
        return {"input": _responses_items(messages)}
    if fmt == "gemini":
        return _gemini_document(messages, notes)
    raise ValueError(f"unknown wire format {fmt!r}; use {', '.join(WIRE_FORMATS)}")


def from_wire(document: Any, fmt: str = "auto") -> list[Message]:
    """Internal messages of one wire document (read by the session importers).

    Raises:
        ValueError: the document holds no readable conversation.
    """
    outcome = import_sessions(json.dumps(document, ensure_ascii=False), fmt, file_name="wire")
    if not outcome.sessions:
        detail = "; ".join(str(e) for e in outcome.errors[:3]) or "no messages"
        raise ValueError(f"not a {fmt} conversation: {detail}")
    return outcome.sessions[0].messages


def arguments_text(arguments: str | dict[str, Any]) -> str:
    """Arguments as the JSON string OpenAI formats carry."""
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, ensure_ascii=False)


def arguments_object(arguments: str | dict[str, Any]) -> dict[str, Any] | None:
    """Arguments as the object Anthropic and Gemini carry (None: not a JSON object)."""
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# ---------------------------------------------------------------------- images


def media_of(message: Message) -> tuple[list[dict[str, str]], int]:
    """The images of a message in a provider-neutral form, and how many other parts it has.

    An image is ``{"mime", "data"}`` (base64) or ``{"url"}`` (and ``mime`` when known),
    read from whichever importer kept it: OpenAI ``image_url`` / Responses
    ``input_image`` (``extra["content_parts"]``), Anthropic ``image`` blocks
    (``extra["blocks"]``), Gemini ``inlineData`` / ``fileData`` (``extra["parts"]``).
    """
    images: list[dict[str, str]] = []
    other = 0
    for key in ("content_parts", "blocks", "parts"):
        for entry in message.extra.get(key) or ():
            part = entry.get("part") or entry.get("block") if isinstance(entry, dict) else None
            image = _image(part) if isinstance(part, dict) else None
            if image is not None:
                images.append(image)
            elif part is not None:
                other += 1
    return images, other + len(message.extra.get("items") or ())


def _image(part: dict[str, Any]) -> dict[str, str] | None:
    kind = part.get("type")
    if kind in ("image_url", "input_image"):
        url = part.get("image_url")
        url = url.get("url") if isinstance(url, dict) else url
        return _from_url(url) if isinstance(url, str) else None
    if kind == "image" and isinstance(part.get("source"), dict):
        source = part["source"]
        if source.get("type") == "base64" and isinstance(source.get("data"), str):
            return {"mime": str(source.get("media_type", "")), "data": source["data"]}
        if source.get("type") == "url" and isinstance(source.get("url"), str):
            return {"url": source["url"]}
        return None
    inline = part.get("inlineData") or part.get("inline_data")
    if isinstance(inline, dict) and isinstance(inline.get("data"), str):
        return {"mime": str(inline.get("mimeType", "")), "data": inline["data"]}
    file = part.get("fileData") or part.get("file_data")
    if isinstance(file, dict) and isinstance(file.get("fileUri"), str):
        out = {"url": file["fileUri"]}
        if file.get("mimeType"):
            out["mime"] = str(file["mimeType"])
        return out
    return None


def _from_url(url: str) -> dict[str, str]:
    head, sep, data = url.partition(",")
    if url.startswith("data:") and sep and head.endswith(";base64"):
        return {"mime": head[5:-7], "data": data}
    return {"url": url}


def _url(image: dict[str, str]) -> str:
    return image.get("url") or f"data:{image.get('mime', '')};base64,{image.get('data', '')}"


def _image_part(image: dict[str, str], fmt: str) -> dict[str, Any]:
    """One image as ``fmt`` carries it in a user message."""
    if fmt == "openai":
        return {"type": "image_url", "image_url": {"url": _url(image)}}
    if fmt == "openai-responses":
        return {"type": "input_image", "image_url": _url(image)}
    if fmt == "anthropic":
        if "url" in image:
            return {"type": "image", "source": {"type": "url", "url": image["url"]}}
        source = {"type": "base64", "media_type": image["mime"], "data": image["data"]}
        return {"type": "image", "source": source}
    if "url" in image:
        file = {"fileUri": image["url"], **({"mimeType": image["mime"]} if "mime" in image else {})}
        return {"fileData": file}
    return {"inlineData": {"mimeType": image["mime"], "data": image["data"]}}


def _user_images(message: Message, fmt: str) -> list[dict[str, Any]]:
    if message.role is not Role.USER:
        return []
    return [_image_part(i, fmt) for i in media_of(message)[0]]


def _openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Chat Completions messages (the providers' converter), user images as content parts."""
    out: list[dict[str, Any]] = []
    for message in messages:
        entries = to_openai_messages((message,))
        images = _user_images(message, "openai")
        if images:
            if not entries or entries[-1]["role"] != "user":
                entries.append({"role": "user", "content": ""})
            text = entries[-1]["content"]
            entries[-1]["content"] = ([{"type": "text", "text": text}] if text else []) + images
        out.extend(entries)
    return out


def _anthropic_messages(
    messages: Sequence[Message], notes: list[str]
) -> tuple[list[dict[str, Any]], str]:
    """Messages API messages (the providers' converter), user images as blocks after text."""
    out: list[dict[str, Any]] = []
    system: list[str] = []
    for message in messages:
        images = _user_images(message, "anthropic")
        wire, text = to_anthropic_messages((message,), [] if images else notes)
        if text:
            system.append(text)
        if images:
            if not wire:
                wire = [{"role": "user", "content": []}]
            wire[-1]["content"].extend(images)
        for entry in wire:
            if out and out[-1]["role"] == entry["role"]:
                out[-1]["content"].extend(entry["content"])  # consecutive user turns: one
            else:
                out.append(entry)
    for entry in out:
        if entry["role"] == "user":
            entry["content"].sort(key=lambda b: b["type"] != "tool_result")
    return out, "\n\n".join(system)


def _note_losses(messages: Sequence[Message], fmt: str, notes: list[str]) -> None:
    for mi, message in enumerate(messages):
        images, other = media_of(message)
        if other:
            notes.append(
                f"messages[{mi}]: {other} non-text part(s) (thinking, audio, "
                f"files, items) are not carried to {fmt}"
            )
        if images and message.role is not Role.USER:
            notes.append(
                f"messages[{mi}]: {len(images)} image(s) outside a user message "
                f"are not carried to {fmt}"
            )
        for part in message.parts:
            if (
                isinstance(part, ToolResultPart)
                and part.is_error
                and fmt
                in (
                    "openai",
                    "openai-responses",
                )
            ):
                notes.append(
                    f"messages[{mi}]: result {part.id} is an error; {fmt} has no "
                    "error flag, the content says so only if it does"
                )
            if (
                isinstance(part, ToolCallPart)
                and "thoughtSignature" in part.extra
                and fmt != "gemini"
            ):
                notes.append(
                    f"messages[{mi}]: call {part.id}: Gemini's thoughtSignature "
                    f"is not carried to {fmt}"
                )


def _responses_items(messages: Sequence[Message]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for message in messages:
        # Results answer the previous turn: they come before this message's text.
        for part in message.tool_results:
            items.append(
                {"type": "function_call_output", "call_id": part.id, "output": part.content}
            )
        images = _user_images(message, "openai-responses")
        if message.role is not Role.TOOL and (message.text or images or not message.parts):
            role = str(message.extra.get("role") or message.role.value)
            kind = "output_text" if message.role is Role.ASSISTANT else "input_text"
            text = [{"type": kind, "text": message.text}] if message.text or not images else []
            items.append({"type": "message", "role": role, "content": text + images})
        for call in message.tool_calls:
            items.append(
                {
                    "type": "function_call",
                    "call_id": call.id,
                    "name": call.name,
                    "arguments": arguments_text(call.arguments),
                }
            )
    return items


def _gemini_document(messages: Sequence[Message], notes: list[str]) -> dict[str, Any]:
    names = {c.id: c.name for m in messages for c in m.tool_calls}
    contents: list[dict[str, Any]] = []
    system = [m.text for m in messages if m.role is Role.SYSTEM and m.text]
    for message in messages:
        if message.role is Role.SYSTEM:
            continue
        parts: list[dict[str, Any]] = []
        for part in message.parts:
            if isinstance(part, TextPart):
                if part.text:
                    parts.append({"text": part.text})
            elif isinstance(part, ToolCallPart):
                args = arguments_object(part.arguments)
                if args is None:
                    notes.append(
                        f"call {part.id} ({part.name}): arguments are not a JSON "
                        "object; sent as {} to gemini"
                    )
                    args = {}
                entry: dict[str, Any] = {
                    "functionCall": {"id": part.id, "name": part.name, "args": args}
                }
                if "thoughtSignature" in part.extra:
                    entry["thoughtSignature"] = part.extra["thoughtSignature"]
                parts.append(entry)
            else:
                name = part.name or names.get(part.id, "")
                parts.append(
                    {
                        "functionResponse": {
                            "id": part.id,
                            "name": name,
                            "response": _gemini_response(part),
                        }
                    }
                )
        parts.extend(_user_images(message, "gemini"))
        if not parts:
            continue
        role = "model" if message.role is Role.ASSISTANT else "user"
        if contents and contents[-1]["role"] == role and role == "user":
            contents[-1]["parts"].extend(parts)  # results and the user's text: one turn
            contents[-1]["parts"].sort(key=lambda p: "functionResponse" not in p)
        else:
            contents.append({"role": role, "parts": parts})
    doc: dict[str, Any] = {"contents": contents}
    if system:
        doc["systemInstruction"] = {"parts": [{"text": "\n\n".join(system)}]}
    return doc


def _gemini_response(part: ToolResultPart) -> dict[str, Any]:
    """A result as Gemini's ``response`` object (JSON objects as they are)."""
    try:
        value = json.loads(part.content)
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value
    return {"error": part.content} if part.is_error else {"content": part.content}
