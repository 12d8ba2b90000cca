"""A loopback "model" server that picks tools by reading their descriptions.

A real HTTP server on 127.0.0.1 speaking OpenAI Chat Completions
(``POST /v1/chat/completions``) and Anthropic Messages (``POST /v1/messages``),
streamed (SSE) and not, as the studio's providers use them. It is not a mock
returning a fixed answer: it scores every tool it is sent by the overlap
between the user's words and the tool's name + description (English words and
Chinese character bigrams), so a registry version whose descriptions say what
users say wins *through the whole stack*. It:

- abstains (plain text) when no tool overlaps the prompt;
- asks a question when a required parameter cannot be read from the prompt;
- fills arguments from the prompt (numbers, dates, ids matching a pattern,
  enum values, the prompt itself for free text);
- with seeded, per-request noise: shuffles close scores, sends malformed JSON
  arguments, camelCase argument names, numbers as strings, Chinese enum words;
- after tool results, answers from them (a grounded summary), or, for a
  failed call, says it failed.

Every answer is a pure function of the request (and the seed), so re-sending
a request gets the same answer. ``GET /stats`` reports what it received (for
tests that run the studio in a subprocess); ``python loopback_model.py``
serves until killed (the benchmark runs it so).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_NUMBER = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?(?![\w-])")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_STOP_WORDS = (
    "the and for can what how this that with you your are not from all one use when who "
    "does did was were has have had will would could should may any its into out our their "
    "them then than there here about also only just get got give me my is it in on of to a "
    "an or be do if by at as so no yes please want need"
)
_STOP = frozenset(_STOP_WORDS.split())
# The few words a bilingual model knows without being told (enum words in Chinese).
_LEXICON = {
    "打车": "taxi", "出租车": "taxi", "的士": "taxi", "酒店": "hotel", "住宿": "hotel",
    "火车": "train", "高铁": "train", "机票": "flight", "飞机": "flight",
}  # fmt: skip
_FREE_TEXT = ("query", "q", "text", "keyword", "reason", "question", "message", "search")


def features(text: str) -> set[str]:
    """English words (3+ letters, no stop words, plural ``s`` dropped) and CJK bigrams."""
    lowered = text.lower().replace("_", " ")
    out = {w.removesuffix("s") for w in _WORD.findall(lowered) if len(w) > 2 and w not in _STOP}
    for run in _CJK.findall(lowered):
        if len(run) == 1:
            out.add(run)
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    for word, value in _LEXICON.items():
        if word in lowered:
            out.add(value)
    return out


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the model answers: text, or one tool call with its arguments text."""

    text: str = ""
    tool: str = ""
    arguments: str = ""


@dataclass(frozen=True, slots=True)
class Behaviour:
    """The model's temperament (all rates are per request, seeded by its content).

    Attributes:
        seed: Mixed into every decision.
        noise: Score noise added to each tool's overlap (0 = always the best overlap).
        malformed_rate: Share of calls whose arguments are not valid JSON.
        alias_rate: Share of calls with a camelCase name, a number as a string or
            a Chinese enum word (what the runtime's pipeline repairs).
        delay_ms: Time "thinking" before answering.
        hallucinate_rate: Share of answers after tool results that state a made-up
            ticket and amount, success or not (what grounding must catch).
    """

    seed: int = 7
    noise: float = 0.6
    malformed_rate: float = 0.05
    alias_rate: float = 0.35
    delay_ms: float = 0.0
    hallucinate_rate: float = 0.0


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def _unanchored(pattern: str) -> str:
    return pattern.removeprefix("^").removesuffix("$")


_TODAY = datetime.date(2026, 11, 30)


def _periods(today: datetime.date) -> dict[tuple[str, ...], tuple[datetime.date, datetime.date]]:
    """Relative periods a model resolves against today: words → (first day, last day)."""
    month_start = today.replace(day=1)
    last_month_end = month_start - datetime.timedelta(days=1)
    day = datetime.timedelta(days=1)
    return {
        ("yesterday", "昨天"): (today - day, today - day),
        ("last week", "上周", "上星期"): (today - 7 * day, today - day),
        ("last month", "上个月", "上月"): (last_month_end.replace(day=1), last_month_end),
        ("this month", "这个月", "本月", "11月"): (month_start, today),
    }


def _relative_date(name: str, lowered: str) -> str | None:
    """A start or end date for a relative period in the prompt (as of the server's today)."""
    for words, (first, last) in _periods(_TODAY).items():
        if any(w in lowered for w in words):
            return (last if "end" in name or name in ("to", "until") else first).isoformat()
    return None


def _fill(name: str, schema: dict[str, Any], prompt: str, required: bool, used: set[str]) -> Any:
    """A value for one parameter read from the prompt, or None when there is none."""
    kind = schema.get("type")
    lowered = prompt.lower()
    mentioned = bool(features(name) & features(prompt))
    if "enum" in schema:
        for value in schema["enum"]:
            if isinstance(value, str) and (value.lower() in lowered or value in features(prompt)):
                return value
        return None
    if kind == "array":
        items = schema.get("items") or {}
        if "pattern" in items:
            found = re.findall(_unanchored(items["pattern"]), prompt)
            return list(dict.fromkeys(found)) or None
        return None
    if kind in ("number", "integer"):
        if not (required or any(w in name for w in ("amount", "total", "price", "count"))):
            return None
        for number in _NUMBER.findall(prompt):
            if number not in used:
                used.add(number)
                return float(number) if "." in number or kind == "number" else int(number)
        return None
    if kind == "boolean":
        return None
    if kind != "string":
        return None
    if schema.get("format") == "date" or "date" in name:
        for date in _DATE.findall(prompt):
            if date not in used:
                used.add(date)
                return date
        return _relative_date(name, lowered)
    if "pattern" in schema:
        if not (required or mentioned):
            return None
        match = re.search(_unanchored(schema["pattern"]), prompt)
        return match.group(0) if match else None
    if required or name in _FREE_TEXT:
        return prompt if required else None
    return None


def _arguments(tool: Tool, prompt: str, rng: random.Random, b: Behaviour) -> tuple[str, str]:
    """(arguments JSON text, missing required parameter or "")."""
    properties = tool.schema.get("properties") or {}
    required = set(tool.schema.get("required") or [])
    args: dict[str, Any] = {}
    used: set[str] = set()
    for name, schema in properties.items():
        if not isinstance(schema, dict):
            continue
        value = _fill(name, schema, prompt, name in required, used)
        if value is None:
            if name in required:
                return "", name
            continue
        args[name] = value
    if args and rng.random() < b.alias_rate:
        name = rng.choice(sorted(args))
        value = args[name]
        schema = properties[name]
        if isinstance(value, int | float) and not isinstance(value, bool):
            args[name] = str(value)  # the pipeline coerces it back
        elif "enum" in schema:
            chinese = [w for w, v in _LEXICON.items() if v == value and w in prompt]
            args[name] = chinese[0] if chinese else value.upper()
        elif "_" in name:
            args[_camel(name)] = args.pop(name)
    text = json.dumps(args, ensure_ascii=False)
    if rng.random() < b.malformed_rate:
        text = text.replace('"', "'", 2)[:-1] if len(text) > 2 else "{"
    return text, ""


def _grounded_answer(results: list[str]) -> str:
    """A summary that only repeats what the tool results say."""
    facts: list[str] = []
    for content in results:
        if (
            content.startswith("[SYSTEM_FAULT]")
            or '"ok": false' in content
            or '"ok":false' in content
        ):
            return "The call failed, so nothing was done. 调用失败。Shall I try again?"
        facts += re.findall(r"[A-Z]+-\d+|\d+(?:\.\d+)?", content)[:6]
    return "Here is what I found: " + ", ".join(dict.fromkeys(facts)) + "." if facts else "Done."


def decide(
    prompt: str, tools: list[Tool], tool_results: list[str], b: Behaviour, salt: str
) -> Decision:
    """The model's answer to a conversation whose last user words are ``prompt``.

    Each tool scores the IDF-weighted overlap of the prompt's features with its
    name (counted twice) and description, plus seeded noise; below 1.0 the
    model answers without a tool.
    """
    rng = random.Random(hashlib.sha256(f"{b.seed}|{salt}".encode()).digest())
    if tool_results:
        if rng.random() < b.hallucinate_rate:
            return Decision(text="Done: ticket R-99999 was filed for 999.")
        return Decision(text=_grounded_answer(tool_results))
    asked = features(prompt)
    described = [(t, features(t.name), features(f"{t.name} {t.description}")) for t in tools]
    frequency: dict[str, int] = {}
    for _, _, feats in described:
        for f in feats & asked:
            frequency[f] = frequency.get(f, 0) + 1
    best: tuple[float, Tool] | None = None
    for tool, named, feats in described:
        score = sum(
            math.log(1 + len(tools) / frequency[f]) * (2 if f in named else 1)
            for f in feats & asked
        )
        if score < 1.0:
            continue
        score += rng.uniform(0.0, b.noise)
        if best is None or score > best[0]:
            best = (score, tool)
    if best is None:
        return Decision(text="I can answer that without a tool: 我可以直接回答。")
    tool = best[1]
    arguments, missing = _arguments(tool, prompt, rng, b)
    if missing:
        return Decision(text=f"Which {missing} do you mean? 请告诉我 {missing}？")
    return Decision(tool=tool.name, arguments=arguments)


# ---------------------------------------------------------------- wire formats


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _openai_conversation(body: dict[str, Any]) -> tuple[str, list[Tool], list[str]]:
    tools = [
        Tool(t["function"]["name"], t["function"].get("description", ""),
             t["function"].get("parameters") or {})
        for t in body.get("tools") or []
    ]  # fmt: skip
    messages = body.get("messages") or []
    prompt = next(
        (_text_of(m.get("content")) for m in reversed(messages) if m["role"] == "user"), ""
    )
    results: list[str] = []
    for m in reversed(messages):
        if m.get("role") != "tool":
            break
        results.append(_text_of(m.get("content")))
    return prompt, tools, results


def _anthropic_conversation(body: dict[str, Any]) -> tuple[str, list[Tool], list[str]]:
    tools = [
        Tool(t["name"], t.get("description", ""), t.get("input_schema") or {})
        for t in body.get("tools") or []
    ]
    prompt, results = "", []
    messages = body.get("messages") or []
    for m in reversed(messages):
        if m.get("role") != "user":
            continue
        content = m.get("content")
        if isinstance(content, str):
            prompt = content
            break
        texts = [b.get("text", "") for b in content if b.get("type") == "text"]
        if texts:
            prompt = " ".join(texts)
            break
    last = messages[-1] if messages else {}
    if last.get("role") == "user" and isinstance(last.get("content"), list):
        for block in last["content"]:
            if block.get("type") == "tool_result":
                results.append(_text_of(block.get("content")))
    return prompt, tools, results


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def _openai_answer(d: Decision, body: dict[str, Any], size: int, n: int) -> tuple[Any, list[Any]]:
    """(non-streamed completion, streamed chunks)."""
    usage = {
        "prompt_tokens": _tokens("x" * size),
        "completion_tokens": _tokens(d.text + d.arguments),
    }
    call_id = f"call_{n:06d}"
    message: dict[str, Any] = {"role": "assistant", "content": d.text or None}
    finish = "stop"
    if d.tool:
        finish = "tool_calls"
        message["tool_calls"] = [
            {"id": call_id, "type": "function",
             "function": {"name": d.tool, "arguments": d.arguments}}
        ]  # fmt: skip
    full = {
        "id": f"chatcmpl-{n}", "object": "chat.completion", "model": body.get("model"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage,
    }  # fmt: skip
    chunks: list[Any] = []

    def chunk(delta: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
        return {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}  # fmt: skip

    chunks.append(chunk({"role": "assistant", "content": ""}))
    if d.text:
        half = len(d.text) // 2
        chunks += [chunk({"content": d.text[:half]}), chunk({"content": d.text[half:]})]
    if d.tool:
        half = len(d.arguments) // 2
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": call_id,
                            "type": "function",
                            "function": {"name": d.tool, "arguments": ""},
                        }
                    ]
                }
            )
        )
        for piece in (d.arguments[:half], d.arguments[half:]):
            chunks.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, finish))
    chunks.append({"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "choices": [],
                   "usage": usage})  # fmt: skip
    return full, chunks


def _anthropic_answer(
    d: Decision, body: dict[str, Any], size: int, n: int
) -> tuple[Any, list[Any]]:
    usage_in, usage_out = _tokens("x" * size), _tokens(d.text + d.arguments)
    content: list[dict[str, Any]] = []
    if d.text:
        content.append({"type": "text", "text": d.text})
    if d.tool:
        try:
            parsed = json.loads(d.arguments)
        except ValueError:
            parsed = None
        content.append({"type": "tool_use", "id": f"toolu_{n:06d}", "name": d.tool,
                        "input": parsed if isinstance(parsed, dict) else {}})  # fmt: skip
    stop = "tool_use" if d.tool else "end_turn"
    full = {
        "id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model"),
        "content": content, "stop_reason": stop,
        "usage": {"input_tokens": usage_in, "output_tokens": usage_out},
    }  # fmt: skip
    events: list[Any] = [
        {"type": "message_start", "message": {**full, "content": [], "stop_reason": None,
                                              "usage": {"input_tokens": usage_in,
                                                        "output_tokens": 1}}},
    ]  # fmt: skip
    index = 0
    if d.text:
        events += [
            {"type": "content_block_start", "index": index,
             "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": index,
             "delta": {"type": "text_delta", "text": d.text}},
            {"type": "content_block_stop", "index": index},
        ]  # fmt: skip
        index += 1
    if d.tool:
        half = len(d.arguments) // 2
        events.append({"type": "content_block_start", "index": index,
                       "content_block": {"type": "tool_use", "id": f"toolu_{n:06d}",
                                         "name": d.tool, "input": {}}})  # fmt: skip
        # The raw text streams as is, malformed or not (as a real stream can).
        for piece in (d.arguments[:half], d.arguments[half:]):
            events.append(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece},
                }
            )
        events.append({"type": "content_block_stop", "index": index})
    events += [
        {"type": "message_delta", "delta": {"stop_reason": stop},
         "usage": {"output_tokens": usage_out}},
        {"type": "message_stop"},
    ]  # fmt: skip
    return full, events


@dataclass
class Received:
    """One request as the server saw it."""

    wire: str
    prompt: str
    tools: tuple[str, ...]
    stream: bool
    digest: str
    status: int = 200
    at: float = 0.0


@dataclass
class _State:
    behaviour: Behaviour
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    fail_next: list[int] = field(default_factory=list)
    in_flight: int = 0
    retry_after: str = "0"
    max_in_flight: int = 0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: _State

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/stats":
            with self.state.lock:
                got = [r.__dict__ for r in self.state.received]
            self._send(200, {"count": len(got), "requests": got})
        elif self.path.endswith("/models"):
            self._send(200, {"data": [{"id": "loopback"}]})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        anthropic = self.path.endswith("/messages")
        if not (self.path.endswith("/chat/completions") or anthropic):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        key = self.headers.get("x-api-key") if anthropic else self.headers.get("Authorization")
        if not key:
            self._send(401, {"error": {"type": "authentication_error", "message": "no key"}})
            return
        body = json.loads(raw)
        if anthropic:
            prompt, tools, results = _anthropic_conversation(body)
        else:
            prompt, tools, results = _openai_conversation(body)
        stream = bool(body.get("stream"))
        digest = hashlib.sha256(raw).hexdigest()
        state = self.state
        with state.lock:
            n = len(state.received)
            wire = "anthropic" if anthropic else "openai"
            failing = bool(state.fail_next) and state.fail_next[0] > 0
            if failing:
                state.fail_next[0] -= 1
            names = tuple(t.name for t in tools)
            status = 429 if failing else 200
            state.received.append(
                Received(wire, prompt, names, stream, digest, status, time.monotonic())
            )
        if failing:  # a rate limit the providers retry after Retry-After
            self._send(429, {"error": {"type": "rate_limit_error", "message": "slow down"}},
                       {"Retry-After": state.retry_after})  # fmt: skip
            return
        behaviour = state.behaviour
        with state.lock:
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        try:
            if behaviour.delay_ms:
                time.sleep(behaviour.delay_ms / 1000)
        finally:
            with state.lock:
                state.in_flight -= 1
        salt = f"{prompt}|{'|'.join(f'{t.name}:{t.description}' for t in tools)}|{len(results)}"
        decision = decide(prompt, tools, results, behaviour, salt)
        answer = _anthropic_answer if anthropic else _openai_answer
        full, chunks = answer(decision, body, len(raw), n)
        if not stream:
            self._send(200, full)
            return
        lines = []
        for item in chunks:
            if anthropic:
                lines.append(
                    f"event: {item['type']}\ndata: {json.dumps(item, ensure_ascii=False)}\n\n"
                )
            else:
                lines.append(f"data: {json.dumps(item, ensure_ascii=False)}\n\n")
        if not anthropic:
            lines.append("data: [DONE]\n\n")
        data = "".join(lines).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class LoopbackModel:
    """The server on a free port of 127.0.0.1, in a daemon thread; use as a context manager.

    Attributes:
        base_url: ``http://127.0.0.1:PORT/v1`` (both wire formats live under it).
        received: Every request received, in order.
    """

    def __init__(self, behaviour: Behaviour | None = None) -> None:
        self._state = _State(behaviour or Behaviour())
        handler = type("Handler", (_Handler,), {"state": self._state})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        port = self._server.server_address[1]
        return f"http://127.0.0.1:{port}/v1"

    @property
    def received(self) -> list[Received]:
        with self._state.lock:
            return list(self._state.received)

    @property
    def max_in_flight(self) -> int:
        """The most requests the server was answering at once."""
        with self._state.lock:
            return self._state.max_in_flight

    def fail_next(self, count: int, retry_after: str = "0") -> None:
        """Answer the next ``count`` requests with 429 and this ``Retry-After``."""
        with self._state.lock:
            self._state.fail_next[:] = [count]
            self._state.retry_after = retry_after

    def start(self) -> LoopbackModel:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackModel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Serve until killed; prints ``ready BASE_URL`` once listening."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    server = LoopbackModel(Behaviour(seed=args.seed, delay_ms=args.delay_ms))
    print(f"ready {server.base_url}", flush=True)
    server._server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
