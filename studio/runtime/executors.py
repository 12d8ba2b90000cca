"""Executors run prepared tool calls; :func:`execute_with_policy` adds timeout and retry.

Two executors: :class:`MockExecutor` (canned responses chosen by argument
matchers, with injectable latency and failures) and :class:`HttpExecutor`
(URL/method/header/body templates against allow-listed base URLs; header
values may read ``{env:NAME}`` so credentials are never stored; every value
read that way is a secret of the call, redacted from whatever the call
returns or raises). Both raise
:class:`ExecutorFailure` for failures the policy may retry; the policy turns
everything into an :class:`ExecutionOutcome` (DESIGN §5 step 10).

Retry policy: reads are retried up to the tool's ``max_attempts`` with
exponential backoff and full jitter, waiting at least what Retry-After asks.
Writes are never retried: a timed-out write has an unknown outcome
(``status: "UNKNOWN"``) to be looked up by its idempotency key.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import re
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import quote, unquote

import httpx

from studio.contract import RiskTier, ToolContract
from studio.providers.retry import backoff_delay, retry_after_seconds
from studio.runtime.mocks import MockBehaviour, MockToolSpec
from studio.runtime.results import ToolError

# is_secret_header: the one credential-header predicate (editor, checks, storage, snapshot).
from studio.sessions.redact import Secrets, is_secret_header


@dataclass(frozen=True, slots=True)
class ExecutionRequest:
    """One attempt's input."""

    tool: ToolContract
    arguments: dict[str, Any]
    call_id: str = ""
    session_id: str = ""
    idempotency_key: str = ""
    attempt: int = 1


class ExecutorFailure(Exception):
    """A failed attempt: ``retryable`` failures may be retried (reads only)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        status: int | None = None,
        body: str = "",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.body = body


class Executor(Protocol):
    name: str

    def snapshot(self, request: ExecutionRequest) -> dict[str, Any]:
        """What will be sent, for the ``tool_call.executing`` event (no secrets)."""
        ...

    async def execute(self, request: ExecutionRequest) -> Any:
        """The response body (JSON value); raises ExecutorFailure or TimeoutError."""
        ...


# ---------------------------------------------------------------------------- mock


class MockExecutor:
    """Canned responses per tool (see :mod:`studio.runtime.mocks` for the spec format).

    Failures with ``times: n`` apply to the first n matching calls, so a
    retried read can fail once and then succeed.
    """

    name = "mock"

    def __init__(
        self,
        specs: Mapping[str, MockToolSpec],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.specs = dict(specs)
        self.calls: list[ExecutionRequest] = []
        self._hits: dict[int, int] = {}
        self._sleep = sleep

    def snapshot(self, request: ExecutionRequest) -> dict[str, Any]:
        return {
            "executor": "mock",
            "tool": request.tool.name,
            "arguments": request.arguments,
            "idempotency_key": request.idempotency_key,
            "attempt": request.attempt,
        }

    def _choose(self, request: ExecutionRequest) -> MockBehaviour:
        spec = self.specs.get(request.tool.name)
        if spec is None:
            raise ExecutorFailure(
                "NO_MOCK_RESPONSE",
                f"no mock response is configured for {request.tool.name}",
                status=501,
            )
        for behaviour in spec.responses:
            if not behaviour.matches(request.arguments):
                continue
            used = self._hits.get(id(behaviour), 0)
            if behaviour.times is not None and used >= behaviour.times:
                continue
            self._hits[id(behaviour)] = used + 1
            return behaviour
        if spec.default is not None:
            return spec.default
        raise ExecutorFailure(
            "NO_MOCK_RESPONSE",
            f"no mock response of {request.tool.name} matches these arguments",
            status=404,
        )

    async def execute(self, request: ExecutionRequest) -> Any:
        self.calls.append(request)
        behaviour = self._choose(request)
        if behaviour.latency_ms:
            await self._sleep(behaviour.latency_ms / 1000)
        fail = behaviour.fail
        if fail == "timeout":
            # Sleeps until the policy's timeout cancels it, like a hung upstream.
            await asyncio.sleep(3600)
        if fail == "429":
            retry_after = None if behaviour.retry_after is None else float(behaviour.retry_after)
            raise ExecutorFailure(
                "RATE_LIMITED", "429 Too Many Requests", retryable=True,
                retry_after=retry_after, status=429,
            )  # fmt: skip
        if fail == "500":
            raise ExecutorFailure(
                "UPSTREAM_ERROR", "500 Internal Server Error", retryable=True, status=500
            )
        if fail == "malformed":
            raise ExecutorFailure(
                "MALFORMED_RESPONSE",
                "the tool answered with a body that is not valid JSON",
                status=200,
                body='{"ok": tru',
            )
        if behaviour.status >= 400:
            raise ExecutorFailure(
                str(behaviour.error_code or f"HTTP_{behaviour.status}"),
                json.dumps(behaviour.body, ensure_ascii=False),
                retryable=behaviour.status >= 500,
                status=behaviour.status,
            )
        return behaviour.render(request.arguments, request.idempotency_key)


# ---------------------------------------------------------------------------- http

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Header values may also name an environment variable, ``{env:NAME}``, so a
# secret (an Authorization value) is read when the call is made and never
# stored. One pattern for both keeps substitution single-pass: an argument
# whose value is ``{env:HOME}`` stays that text and is never expanded.
_HEADER_PLACEHOLDER = re.compile(r"\{(?:env:([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*))\}")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _fill(template: str, values: Mapping[str, Any]) -> str:
    return _PLACEHOLDER.sub(lambda m: _text(values.get(m.group(1), "")), template)


def _dot_segment_inside(text: str) -> bool:
    """True when ``text``, decoded as a server might, holds a ``.``/``..`` path segment.

    Decoded up to three times (double-encoding), NFKC-normalised (fullwidth
    and other unicode dots become ``.``), split at ``/`` and ``\\``; a piece of
    dots only (spaces around them ignored) is a dot-segment.
    """
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    text = unicodedata.normalize("NFKC", text)
    return any(p.strip() and not p.strip().strip(".") for p in re.split(r"[/\\]", text))


def _fill_url(template: str, values: Mapping[str, Any]) -> str:
    """The URL of ``template``: every value percent-encoded, with no separator left.

    In the path (before the first ``?`` or ``#``), ``.`` is encoded too, so a
    value can never form a dot-segment that would be normalised out of the
    allowed base (``/docs/{id}`` with ``id=..``), whatever text surrounds it;
    a value that a server decoding the path would read as one is refused.
    """
    query_at = min((i for i in (template.find("?"), template.find("#")) if i >= 0),
                   default=len(template))  # fmt: skip

    def sub(m: re.Match[str]) -> str:
        text = _text(values.get(m.group(1), ""))
        if m.start() >= query_at:
            return quote(text, safe="")
        if _dot_segment_inside(text):
            raise ExecutorFailure(
                "URL_NOT_ALLOWED",
                f"the value of {m.group(1)} ({text!r}) would be read as a '.' or '..' path "
                "segment, stepping out of the URL it belongs to; give the identifier itself",
            )
        return quote(text, safe="").replace(".", "%2E")

    path, query = template[:query_at], template[query_at:]
    return _PLACEHOLDER.sub(sub, path) + _fill_query(query, values, sub)


def _fill_query(query: str, values: Mapping[str, Any], fill: Callable[[re.Match[str]], str]) -> str:
    """The query (and fragment) of a URL template, filled.

    A pair whose value is exactly one placeholder (``limit={limit}``) follows
    the argument: left out when the model did not give it (or gave null), and
    repeated for each element of a list (``tags=a&tags=b``), as OpenAPI's
    default form style sends them. Other pairs are filled as written.
    """
    if not query.startswith("?"):
        return _PLACEHOLDER.sub(fill, query)
    rest, hash_, fragment = query[1:].partition("#")
    pairs: list[str] = []
    for pair in rest.split("&"):
        key, eq, value = pair.partition("=")
        whole = _PLACEHOLDER.fullmatch(value) if eq else None
        if whole is None:
            pairs.append(_PLACEHOLDER.sub(fill, pair))
            continue
        given = values.get(whole.group(1))
        if given is None:
            continue
        for item in given if isinstance(given, list) else [given]:
            pairs.append(f"{key}={quote(_text(item), safe='')}")
    filled = "&".join(p for p in pairs if p)
    tail = hash_ + _PLACEHOLDER.sub(fill, fragment)
    return (f"?{filled}" if filled else "") + tail


def as_sent(url: str) -> str | None:
    """``url`` exactly as httpx sends it (dot-segments resolved, characters encoded), or None."""
    try:
        return str(httpx.URL(url))
    except (httpx.InvalidURL, TypeError, ValueError):
        return None


def _fill_header(
    name: str,
    template: str,
    values: Mapping[str, Any],
    environ: Mapping[str, str] | None,
    secrets: Secrets | None = None,
) -> str:
    """A header value; ``environ`` None keeps ``{env:NAME}`` as written (for snapshots).

    Every environment value read is added to ``secrets``.
    """

    def sub(m: re.Match[str]) -> str:
        env_name, arg = m.group(1), m.group(2)
        if env_name is None:
            # A line break from an argument would end the header early.
            return re.sub(r"[\r\n]+", " ", _text(values.get(arg, "")))
        if environ is None:
            return m.group(0)
        value = environ.get(env_name)
        if not value:
            raise ExecutorFailure(
                "MISSING_SECRET",
                f"header {name} needs the environment variable ${env_name}, which is not set",
            )
        if secrets is not None:
            secrets.add(value)
        return value

    return _HEADER_PLACEHOLDER.sub(sub, template)


def _fill_body(template: Any, values: Mapping[str, Any]) -> Any:
    """A body template: a string that is exactly ``"{arg}"`` takes the argument's JSON value."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole:
            return values.get(whole.group(1))
        return _fill(template, values)
    if isinstance(template, dict):
        # A member that is exactly one placeholder the model did not give is left
        # out (an optional property), not sent as null.
        return {k: _fill_body(v, values) for k, v in template.items() if not _absent(v, values)}
    if isinstance(template, list):
        return [_fill_body(v, values) for v in template]
    return template


def _absent(template: Any, values: Mapping[str, Any]) -> bool:
    whole = _PLACEHOLDER.fullmatch(template) if isinstance(template, str) else None
    return whole is not None and whole.group(1) not in values


@dataclass(frozen=True, slots=True)
class HttpTarget:
    """How one tool maps to an HTTP call.

    Attributes:
        url: Absolute URL template, e.g. ``https://api.example/invoices?from={start_date}``.
        body: JSON body template (``None``: the arguments themselves for POST/PUT/PATCH).
    """

    url: str
    method: str = "POST"
    headers: Mapping[str, str] = field(default_factory=dict)
    body: Any = None


def _parsed(url: str) -> httpx.URL | None:
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError):
        return None
    return parsed if parsed.scheme in ("http", "https") and parsed.host else None


def _origin(url: httpx.URL) -> tuple[str, str, int]:
    # httpx drops a default port only when the scheme was written in lower case.
    return url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80)


def _path(url: httpx.URL) -> bytes:
    return url.raw_path.partition(b"?")[0]


def url_allowed(url: str, allowed_base_urls: Sequence[str]) -> bool:
    """True when ``url`` is http(s) and equals or lies under one of the allowed base URLs.

    Both are compared as httpx sends them (dot-segments resolved, default
    ports dropped, host lower-cased): same scheme, host and port, and the
    base's path segments begin the URL's path (``/api/docs`` allows
    ``/api/docs`` and ``/api/docs/x``, not ``/api/docsevil``).
    """
    sent = _parsed(url)
    if sent is None:
        return False
    path = _path(sent)
    for base_url in allowed_base_urls:
        base = _parsed(base_url) if base_url.strip() else None
        if base is None or _origin(sent) != _origin(base):
            continue
        prefix = _path(base).rstrip(b"/")
        if path == prefix or path.startswith(prefix + b"/"):
            return True
    return False


def template_values(
    arguments: Mapping[str, Any],
    tool: ToolContract,
    *,
    idempotency_key: str = "",
    call_id: str = "",
) -> dict[str, Any]:
    """The names a target's templates may use: the arguments plus three built-ins.

    A built-in (``idempotency_key``, ``tool``, ``call_id``) wins over an argument
    of the same name unless the tool declares that parameter: query_tickets'
    own ``idempotency_key`` (the key to look up) is what its templates mean.
    """
    declared = set(tool.parameters.get("properties") or {})
    builtins = {"idempotency_key": idempotency_key, "tool": tool.name, "call_id": call_id}
    values = {**arguments, **{k: v for k, v in builtins.items() if k not in declared}}
    for name in declared & builtins.keys():
        values.setdefault(name, builtins[name])
    return values


def build_http_request(
    target: HttpTarget,
    values: Mapping[str, Any],
    allowed_base_urls: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
    default_body: Any = None,
    idempotency_key: str = "",
    secrets: Secrets | None = None,
) -> tuple[str, str, dict[str, str], Any]:
    """Render ``target`` with ``values`` into ``(method, url, headers, body)``.

    The URL is the one httpx sends (see :func:`as_sent`); the allow-list is
    checked on it, so what is checked, sent and recorded is one string.

    Args:
        target: The templates.
        values: See :func:`template_values`.
        allowed_base_urls: A rendered URL outside these is refused.
        environ: Where ``{env:NAME}`` header references are read; None leaves them
            unresolved (what snapshots and previews show).
        default_body: The body of a POST/PUT/PATCH whose target has none (the arguments).
        idempotency_key: Sent as ``Idempotency-Key`` unless a template sets that header.
        secrets: Collects the environment values read (the call's secrets).

    Raises:
        ExecutorFailure: ``URL_NOT_ALLOWED`` (outside the allow-list, or a path
            value that reads as a dot-segment), or ``MISSING_SECRET`` for an
            unset variable.
    """
    rendered = _fill_url(target.url, values)
    url = as_sent(rendered)
    if url is None or not url_allowed(url, allowed_base_urls):
        shown = ", ".join(u.rstrip("/") for u in allowed_base_urls) or "none"
        raise ExecutorFailure(
            "URL_NOT_ALLOWED", f"{url or rendered} is outside the allowed base URLs ({shown})"
        )
    headers = {k: _fill_header(k, v, values, environ, secrets) for k, v in target.headers.items()}
    if idempotency_key:
        headers.setdefault("Idempotency-Key", idempotency_key)
    method = target.method.upper()
    body = _fill_body(target.body, values) if target.body is not None else None
    if body is None and method in ("POST", "PUT", "PATCH"):
        body = default_body
    return method, url, headers, body


class HttpExecutor:
    """Calls real HTTP endpoints; a URL outside ``allowed_base_urls`` is refused.

    Header values may reference environment variables (``Bearer {env:TOKEN}``);
    they are read from ``environ`` (default: ``os.environ``) when a call is made.
    """

    name = "http"

    def __init__(
        self,
        targets: Mapping[str, HttpTarget],
        allowed_base_urls: Sequence[str],
        *,
        client: httpx.AsyncClient | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.targets = dict(targets)
        self.allowed = [u.rstrip("/") for u in allowed_base_urls]
        self._client = client or httpx.AsyncClient()
        self._environ = environ

    async def aclose(self) -> None:
        await self._client.aclose()

    def _values(self, request: ExecutionRequest) -> dict[str, Any]:
        return template_values(
            request.arguments, request.tool,
            idempotency_key=request.idempotency_key, call_id=request.call_id,
        )  # fmt: skip

    def _build(
        self, request: ExecutionRequest, *, resolve_env: bool = True, secrets: Secrets | None = None
    ) -> tuple[str, str, dict[str, str], Any]:
        target = self.targets.get(request.tool.name)
        if target is None:
            raise ExecutorFailure(
                "NO_HTTP_TARGET", f"no HTTP target is configured for {request.tool.name}"
            )
        environ = (os.environ if self._environ is None else self._environ) if resolve_env else None
        return build_http_request(
            target, self._values(request), self.allowed, environ=environ,
            default_body=request.arguments, idempotency_key=request.idempotency_key,
            secrets=secrets,
        )  # fmt: skip

    def _allowed(self, url: str) -> bool:
        return url_allowed(url, self.allowed)

    def snapshot(self, request: ExecutionRequest) -> dict[str, Any]:
        try:
            # Secrets stay references ({env:NAME}) in what is recorded.
            method, url, headers, body = self._build(request, resolve_env=False)
        except ExecutorFailure as exc:
            return {"executor": "http", "error": exc.message}
        redacted = {k: ("***" if is_secret_header(k, v) else v) for k, v in headers.items()}
        return {"executor": "http", "method": method, "url": url, "headers": redacted,
                "body": body, "attempt": request.attempt}  # fmt: skip

    async def execute(self, request: ExecutionRequest) -> Any:
        """The response body; every ``{env:…}`` value read for the call is redacted from
        what is returned or raised (an upstream may echo the request's headers)."""
        secrets = Secrets()
        try:
            return secrets.value(await self._send(request, secrets))
        except ExecutorFailure as exc:
            if not secrets:
                raise
            failure = ExecutorFailure(
                exc.code, secrets.text(exc.message), retryable=exc.retryable,
                retry_after=exc.retry_after, status=exc.status, body=secrets.text(exc.body),
            )  # fmt: skip
        # Raised outside the handler so the original (with the secret) is not its context.
        raise failure

    async def _send(self, request: ExecutionRequest, secrets: Secrets) -> Any:
        method, url, headers, body = self._build(request, secrets=secrets)
        try:
            response = await self._client.request(
                method, url, headers=headers, json=body, timeout=None
            )
        except httpx.TransportError as exc:
            raise ExecutorFailure("TRANSPORT_ERROR", str(exc) or type(exc).__name__,
                                  retryable=True) from exc  # fmt: skip
        # Redacted before it is cut: a cut could leave part of a secret unmatched.
        text = secrets.text(response.text)
        if response.status_code == 429:
            raise ExecutorFailure(
                "RATE_LIMITED", f"429 {text[:200]}", retryable=True, status=429,
                retry_after=retry_after_seconds(response.headers.get("retry-after")),
            )  # fmt: skip
        if response.status_code >= 500:
            raise ExecutorFailure(f"HTTP_{response.status_code}", text[:500], retryable=True,
                                  status=response.status_code, body=text)  # fmt: skip
        if response.status_code >= 400:
            raise ExecutorFailure(f"HTTP_{response.status_code}", text[:500],
                                  status=response.status_code, body=text)  # fmt: skip
        if not text.strip():
            return None
        try:
            return response.json()
        except RecursionError:  # [[[…]]] deeper than json's recursion limit: a lie, not data
            raise ExecutorFailure(
                "MALFORMED_RESPONSE",
                "the tool's JSON body is nested too deeply to read",
                body=text[:500],
            ) from None
        except ValueError:
            if "json" in response.headers.get("content-type", ""):
                raise ExecutorFailure(
                    "MALFORMED_RESPONSE", "the tool's JSON body does not parse", body=text[:500]
                ) from None
            return text


# ---------------------------------------------------------------------------- policy


@dataclass(slots=True)
class ExecutionOutcome:
    """The result of executing one call under its tier's policy."""

    status: str
    """``ok``, ``error`` or ``unknown`` (a write whose outcome is not known)."""
    body: Any = None
    error: ToolError | None = None
    attempts: int = 0
    latency_ms: float = 0.0
    waits: list[float] = field(default_factory=list)


async def execute_with_policy(
    executor: Executor,
    request: ExecutionRequest,
    *,
    rng: random.Random | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    secrets: Secrets | None = None,
) -> ExecutionOutcome:
    """Run ``request`` with the tool's timeout; retry reads per policy, never writes.

    ``secrets`` are the run's (the model API key, ``client.secrets``): redacted
    from the outcome like the call's own ``{env:…}`` values, which the
    executor redacts itself.
    """
    tool = request.tool
    is_write = tool.risk is not RiskTier.READ
    policy = tool.execution.retry
    attempts = 1 if is_write else max(1, policy.max_attempts)
    timeout = tool.execution.timeout_seconds
    rng = rng or random.Random()
    started = time.perf_counter()
    outcome = ExecutionOutcome("error")
    for attempt in range(1, attempts + 1):
        outcome.attempts = attempt
        this = ExecutionRequest(
            tool, request.arguments, request.call_id, request.session_id,
            request.idempotency_key, attempt,
        )  # fmt: skip
        try:
            body = await asyncio.wait_for(executor.execute(this), timeout)
        except TimeoutError:
            if is_write:
                outcome.status = "unknown"
                outcome.error = _unknown_write(tool, request.idempotency_key, timeout)
                break
            failure = ExecutorFailure("TIMEOUT", f"no answer within {timeout:g} s",
                                      retryable=True)  # fmt: skip
        except ExecutorFailure as exc:
            failure = exc
        else:
            outcome.status, outcome.body, outcome.error = "ok", body, None
            break
        outcome.error = _failure_error(failure, attempt, attempts, is_write)
        if not failure.retryable or attempt == attempts:
            break
        wait = backoff_delay(attempt - 1, policy.backoff_base_seconds,
                             policy.backoff_cap_seconds, rng)  # fmt: skip
        if failure.retry_after is not None:
            wait = max(wait, failure.retry_after)
        outcome.waits.append(wait)
        await sleep(wait)
    outcome.latency_ms = (time.perf_counter() - started) * 1000
    if secrets:
        outcome.body = secrets.value(outcome.body)
        if outcome.error is not None:
            error = outcome.error
            outcome.error = dataclasses.replace(
                error, message=secrets.text(error.message), hint=secrets.text(error.hint),
                details=secrets.value(error.details),
            )  # fmt: skip
    return outcome


def _unknown_write(tool: ToolContract, key: str, timeout: float) -> ToolError:
    return ToolError(
        "OUTCOME_UNKNOWN",
        f"{tool.name} did not answer within {timeout:g} s; it may or may not have taken effect",
        retryable=False,
        hint=(
            f"Do not call {tool.name} again. Look the outcome up by idempotency key "
            f"{key!r} (e.g. with a query tool), then tell the user what happened."
            if key
            else f"Do not call {tool.name} again; check whether it took effect first."
        ),
        details={"idempotency_key": key},
        status="UNKNOWN",
    )


def _failure_error(failure: ExecutorFailure, attempt: int, attempts: int, write: bool) -> ToolError:
    retryable = failure.retryable and not write
    details: dict[str, Any] = {"attempts": attempt}
    if failure.status is not None:
        details["http_status"] = failure.status
    if failure.retry_after is not None:
        details["retry_after_seconds"] = failure.retry_after
    if write and failure.retryable:
        hint = "The write was not confirmed; tell the user and ask before trying again."
    elif retryable:
        hint = f"Failed after {attempt} of {attempts} attempts; try later or tell the user."
    else:
        hint = "This will not work by retrying; tell the user what failed."
    return ToolError(failure.code, failure.message, retryable=retryable, hint=hint,
                     details=details)  # fmt: skip
