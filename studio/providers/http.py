"""HTTP plumbing shared by the provider clients: client construction, retries, redaction.

A :class:`ProviderHTTP` wraps one ``httpx.AsyncClient`` (borrowed or owned)
and opens responses with the retry policy of DESIGN §5: 429, 5xx and 529
answers and transport errors are retried with exponential backoff and full
jitter, a ``Retry-After`` header wins over the computed wait, other 4xx
answers are never retried. Retries happen only before the first byte of a
body is handed out: once a stream is being consumed, a failure surfaces.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx

from studio.providers.base import ModelRequest, ProviderError
from studio.providers.retry import RETRYABLE_STATUSES, backoff_delay, retry_after_seconds
from studio.sessions.redact import Secrets, is_secret_header

log = logging.getLogger(__name__)

SECRET_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})
"""Header names whose values never leave the client (snapshots, logs, events)."""

Sleep = Callable[[float], Awaitable[None]]
ErrorParser = Callable[[int, bytes], ProviderError]


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``headers`` with credential values (Authorization, x-api-key, …) as ``***``."""
    return {
        k: ("***" if k.lower() in SECRET_HEADERS or is_secret_header(k, v) else v)
        for k, v in headers.items()
    }


def redact_error(error: ProviderError, secrets: Secrets) -> ProviderError:
    """``error`` with ``secrets`` replaced in its message and body (itself when none occurs)."""
    message, body = secrets.text(error.message), secrets.text(error.body)
    if (message, body) == (error.message, error.body):
        return error
    return ProviderError(
        message, status=error.status, type=error.type, body=body,
        retryable=error.retryable, code=error.code,
    )  # fmt: skip


def make_timeout(
    connect: float = 10.0, read: float = 120.0, write: float = 30.0, pool: float = 10.0
) -> httpx.Timeout:
    """Timeouts for model calls: ``read`` is the longest silence tolerated mid-stream."""
    return httpx.Timeout(connect=connect, read=read, write=write, pool=pool)


DEFAULT_TIMEOUT = make_timeout()


def build_http_client(
    *,
    timeout: httpx.Timeout | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> httpx.AsyncClient:
    """The ``httpx.AsyncClient`` the providers use when none is injected."""
    return httpx.AsyncClient(timeout=timeout or DEFAULT_TIMEOUT, transport=transport)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How a provider retries.

    Attributes:
        max_retries: Retries after the first attempt (0 disables retrying).
        base: Ceiling of the first backoff wait, seconds.
        cap: Largest backoff ceiling, seconds.
        max_retry_after: A ``Retry-After`` longer than this is not waited for;
            the error surfaces instead (the user may rather switch profiles).
    """

    max_retries: int = 2
    base: float = 0.5
    cap: float = 20.0
    max_retry_after: float = 60.0


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """Told to ``on_retry`` before each wait: which attempt failed, how, and the wait."""

    attempt: int
    delay: float
    error: ProviderError
    retry_after: float | None


def transport_error(exc: httpx.TransportError) -> ProviderError:
    """A ProviderError (no status, retryable) for a connection or timeout failure."""
    kind = "timeout" if isinstance(exc, httpx.TimeoutException) else "connection_error"
    detail = str(exc) or type(exc).__name__
    return ProviderError(f"{type(exc).__name__}: {detail}", type=kind, retryable=True)


class ProviderHTTP:
    """Sends provider requests with retries; owns the AsyncClient unless one was injected.

    Args:
        http: An AsyncClient to borrow (not closed by :meth:`aclose`).
        timeout: Timeouts of the owned client (ignored when ``http`` is given).
        transport: Transport of the owned client (ignored when ``http`` is given).
        retry: The retry policy.
        sleep: Awaitable sleep (inject a recorder in tests).
        rng: Random source of the jitter.
        clock: Current time, for ``Retry-After`` dates.
        on_retry: Called before each retry wait.
    """

    def __init__(
        self,
        http: httpx.AsyncClient | None = None,
        *,
        timeout: httpx.Timeout | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
        on_retry: Callable[[RetryNotice], None] | None = None,
    ) -> None:
        self._owned = http is None
        self.client = (
            http if http is not None else build_http_client(timeout=timeout, transport=transport)
        )
        self.retry = retry or RetryPolicy()
        self._sleep: Sleep = sleep or asyncio.sleep
        self._rng = rng or random.Random()
        self._clock = clock or (lambda: datetime.now(UTC))
        self._on_retry = on_retry

    async def aclose(self) -> None:
        """Close the AsyncClient if this object created it."""
        if self._owned:
            await self.client.aclose()

    def _delay(self, attempt: int, error: ProviderError, header: str | None) -> float | None:
        """Seconds to wait before retrying, or None when the error must surface."""
        if not error.retryable or attempt >= self.retry.max_retries:
            return None
        after = retry_after_seconds(header, self._clock())
        if after is not None:
            if after > self.retry.max_retry_after:
                return None
            delay = after
        else:
            delay = backoff_delay(attempt, self.retry.base, self.retry.cap, self._rng)
        if self._on_retry is not None:
            self._on_retry(RetryNotice(attempt, delay, error, after))
        log.info("retrying after %.2fs: %s", delay, error)
        return delay

    @asynccontextmanager
    async def open(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str],
        json: Any = None,
        parse_error: ErrorParser,
    ) -> AsyncIterator[httpx.Response]:
        """Open a streaming response with a 2xx status, retrying as the policy says.

        The response is closed when the block exits, also on cancellation, so
        an abandoned stream frees its connection and the server sees it close.

        Raises:
            ProviderError: the last error when retries are exhausted or not allowed,
                and any raised inside the block; the credentials of ``headers`` (the
                API key) are redacted from them, since a server or proxy may echo them.
        """
        secrets = Secrets.from_headers(headers)
        try:
            opened = self._open(
                method, url, headers=headers, json=json, parse_error=parse_error, secrets=secrets
            )
            async with opened as response:
                yield response
            return
        except ProviderError as exc:
            redacted = redact_error(exc, secrets)
            if redacted is exc:
                raise
            cause = exc.__cause__
        # Raised outside the handler so the original (with the secret) is not its context.
        raise redacted from cause

    @asynccontextmanager
    async def _open(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str],
        json: Any,
        parse_error: ErrorParser,
        secrets: Secrets,
    ) -> AsyncIterator[httpx.Response]:
        attempt = 0
        while True:
            request = self.client.build_request(method, url, headers=dict(headers), json=json)
            header: str | None = None
            try:
                response = await self.client.send(request, stream=True)
            except httpx.TransportError as exc:
                error = redact_error(transport_error(exc), secrets)
                delay = self._delay(attempt, error, None)
                if delay is None:
                    raise error from exc
            else:
                if response.is_success:
                    try:
                        yield response
                    finally:
                        await response.aclose()
                    return
                try:
                    body = await response.aread()
                except httpx.TransportError:
                    body = b""
                finally:
                    await response.aclose()
                error = redact_error(parse_error(response.status_code, body), secrets)
                header = response.headers.get("retry-after")
                ms = response.headers.get("retry-after-ms")
                if header is None and ms is not None:
                    try:
                        header = str(float(ms) / 1000)
                    except ValueError:
                        header = None
                delay = self._delay(attempt, error, header)
                if delay is None:
                    raise error
            await self._sleep(delay)
            attempt += 1


def status_error(
    status: int, body: bytes, *, message: str, type: str = "", code: str = ""
) -> ProviderError:
    """A ProviderError for an HTTP status, retryable when the status says so."""
    text = body.decode("utf-8", "replace")
    return ProviderError(
        message or text or f"HTTP {status}",
        status=status,
        type=type,
        body=text,
        retryable=status in RETRYABLE_STATUSES,
        code=code,
    )


class HTTPModelClient:
    """What both provider clients share: endpoint, key, headers and the HTTP layer.

    Args:
        base_url: The API root (``https://api.openai.com/v1``, ``http://localhost:11434/v1``,
            ``https://api.anthropic.com``).
        model: The model name sent with each request.
        api_key: The secret; it goes into headers only, never into bodies or snapshots.
        http: An AsyncClient to borrow (tests, a shared pool); otherwise one is owned.
        max_retries: Retries after the first attempt on 429/5xx/transport errors.
        timeout: Timeouts of the owned client.
        transport: Transport of the owned client (``httpx.MockTransport`` in unit tests).
        retry: A full retry policy (overrides ``max_retries``).
        extra_headers: Sent with every request (e.g. OpenRouter's ``HTTP-Referer``).
        sleep, rng, clock, on_retry: see :class:`ProviderHTTP`.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None,
        *,
        http: httpx.AsyncClient | None = None,
        max_retries: int = 2,
        timeout: httpx.Timeout | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        extra_headers: Mapping[str, str] | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], datetime] | None = None,
        on_retry: Callable[[RetryNotice], None] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = api_key
        self.extra_headers = dict(extra_headers or {})
        self.http = ProviderHTTP(
            http,
            timeout=timeout,
            transport=transport,
            retry=retry or RetryPolicy(max_retries=max_retries),
            sleep=sleep,
            rng=rng,
            clock=clock,
            on_retry=on_retry,
        )

    def __repr__(self) -> str:
        # Never show the key, not even in a debugger or a log line.
        return f"{type(self).__name__}({self.base_url!r}, {self.model!r})"

    @property
    def secrets(self) -> Secrets:
        """The run's secrets this client knows: the API key and every credential header."""
        return Secrets([self._api_key]) | Secrets.from_headers(self.headers())

    @property
    def url(self) -> str:
        """The endpoint a model request is posted to."""
        raise NotImplementedError

    def headers(self) -> dict[str, str]:
        """Request headers, secrets included (never logged: see :meth:`snapshot`)."""
        raise NotImplementedError

    def build_body(self, request: ModelRequest) -> dict[str, Any]:
        """The vendor request body for ``request``."""
        raise NotImplementedError

    def snapshot(self, request: ModelRequest) -> dict[str, Any]:
        """What would be sent, secrets redacted (for ``model.request`` events)."""
        return {
            "method": "POST",
            "url": self.url,
            "headers": redact_headers(self.headers()),
            "body": self.build_body(request),
        }

    async def aclose(self) -> None:
        """Close the owned AsyncClient (a borrowed one stays open)."""
        await self.http.aclose()

    async def __aenter__(self) -> HTTPModelClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


async def read_json(response: httpx.Response) -> dict[str, Any]:
    """The body of a non-streamed answer as a JSON object, or an ``invalid_response`` error."""
    raw = await response.aread()
    try:
        data = json.loads(raw)
    except ValueError as exc:
        text = raw.decode("utf-8", "replace")
        raise ProviderError(
            f"the response is not JSON: {text[:200]}", type="invalid_response", body=text
        ) from exc
    if not isinstance(data, dict):
        raise ProviderError("the response is not a JSON object", type="invalid_response")
    return data
