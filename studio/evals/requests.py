"""The provider request an eval case becomes, its cache key, and cached answers.

The request is built exactly as the playground's runtime builds one
(:func:`studio.runtime.loop.tool_specs` exports the variant's tools; the case's
system prompt, earlier turns and user turn make the messages; the profile's
parameters), so what is measured is what production sends. The cache key is
the SHA-256 of the exact body the provider client would post (model, params,
messages, tools) with the provider kind and endpoint, plus the repetition: the
k-th sample of one request is cached separately, so repetitions stay
independent samples while a re-run of the same variant sends nothing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from studio.evals.model import EvalCase
from studio.providers.base import ModelParams, ModelRequest, ToolSpec, TurnCompleted, Usage
from studio.sessions.model import Message, Role, TextPart, message_from_dict, message_to_dict

_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}


def case_messages(case: EvalCase) -> tuple[Message, ...]:
    """The case's earlier turns, then its user turn."""
    history = [Message(_ROLES[t.role], (TextPart(t.content),)) for t in case.turns]
    return (*history, Message(Role.USER, (TextPart(case.user),)))


def case_request(case: EvalCase, tools: tuple[ToolSpec, ...], params: ModelParams) -> ModelRequest:
    """The one-turn request for ``case`` with the variant's exported ``tools``."""
    return ModelRequest(case_messages(case), tools, case.system, params)


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def tools_digest(tools: Any) -> str:
    """SHA-256 (hex) of a body's ``tools`` member (computed once per variant by the runner)."""
    return hashlib.sha256(_canonical(tools)).hexdigest()


def cache_key(
    kind: str, url: str, body: dict[str, Any], repetition: int, tools_sha: str | None = None
) -> str:
    """SHA-256 (hex) of the exact request: provider kind, endpoint, body, sample index.

    The body's ``tools`` enter through their own digest (``tools_sha``, computed
    here when not given), so the runner hashes a variant's tools once instead
    of once per case; any change to a tool still changes the key.
    """
    rest = {k: v for k, v in body.items() if k != "tools"}
    digest = tools_sha if tools_sha is not None else tools_digest(body.get("tools"))
    head = _canonical({"kind": kind, "url": url, "sample": repetition, "tools": digest})
    return hashlib.sha256(head + b"\n" + _canonical(rest)).hexdigest()


def encode_answer(completed: TurnCompleted) -> str:
    """The parts of an answer the scores need, as JSON (the request is not kept)."""
    usage = completed.usage
    return json.dumps(
        {
            "message": message_to_dict(completed.message),
            "stop": completed.stop_reason,
            "usage": [usage.input_tokens, usage.output_tokens],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode_answer(text: str) -> TurnCompleted:
    """Inverse of :func:`encode_answer`."""
    data = json.loads(text)
    tokens_in, tokens_out = data.get("usage") or [None, None]
    return TurnCompleted(message_from_dict(data["message"]), data.get("stop", ""),
                         Usage(tokens_in, tokens_out))  # fmt: skip
