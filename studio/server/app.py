"""The serving API: resolve, versions, snapshots and outcome reports over HTTP.

Every error is a JSON body ``{"error": {"status": N, "message": "..."}}``;
malformed requests get a 4xx naming what was wrong, never a 500. Reads run
on the event loop (short SQLite reads; the store serialises them); outcome
writes go to a worker thread since they may wait for the write lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from registry_db.channels import Channel
from registry_db.errors import NotFoundError, StoreError
from registry_db.sessions import SessionStore
from registry_db.store import RegistryStore
from studio.formats import FormatError
from studio.mcp import server_heap
from studio.release.channels import choose_channel
from studio.release.resolve import (
    SERVING_FORMATS,
    AudienceQuery,
    VersionCache,
    serving_channels,
    skill_body_document,
    skill_catalogue,
    snapshot_document,
)
from studio.server.fast_resolve import RenderedResolve, ResolveFastPath, etag_matches
from studio.server.openapi import openapi_document
from studio.server.outcomes import MAX_BODY_BYTES, OutcomeError, parse_outcomes

DEFAULT_FORMAT = "openai"
DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a client has to send an outcome body (408 after)."""
MAX_SUBJECT_CHARS = 256
RESOLVE_CACHE_CONTROL = "private, no-cache"
VERSION_CACHE_CONTROL = "public, max-age=86400, immutable"


class ApiError(Exception):
    """A request refused with ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The JSON error body every failure uses."""
    return JSONResponse(
        {"error": {"status": status, "message": message}}, status_code=status, headers=headers
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _json_with_etag(request: Request, body: str | bytes, etag: str, cache_control: str) -> Response:
    headers = {"ETag": etag, "Cache-Control": cache_control}
    if etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


class ChannelStateCache:
    """The serving channels per registry, re-read only after the database changed.

    ``PRAGMA data_version`` changes when another connection commits (``studio
    channel …`` in a shell, another studio); the connection's own
    ``total_changes`` counts writes through it (the GUI shares the connection
    with a :class:`~studio.server.ServerThread`). Together they tell whether a
    channel may have changed; any write (an outcome report too) drops the
    cache, which errs on the side of re-reading.

    ``total_changes`` is read on every call (an attribute: a write through this
    connection shows at once). The PRAGMA is a statement under the store's lock,
    ~10 µs, the largest part of a resolve request under load, so it runs at
    most once per ``recheck_seconds``: a commit of another process shows up
    within that (1 ms by default), which no client can tell from the request
    having been in flight.
    """

    def __init__(self, store: RegistryStore, recheck_seconds: float = 0.001) -> None:
        self._store = store
        self._stamp: tuple[int, int] | None = None
        self._data_version = -1
        self._checked_at = float("-inf")
        self._recheck = recheck_seconds
        self._channels: dict[str, list[Channel]] = {}

    def channels(self, registry: str) -> list[Channel]:
        """Stable first, then live channels (raises NotFoundError, NoVersionError)."""
        conn = self._store.connection
        now = time.monotonic()
        if now - self._checked_at >= self._recheck:
            with self._store.lock:
                self._data_version = conn.execute("PRAGMA data_version").fetchone()[0]
            self._checked_at = now
        stamp = (self._data_version, conn.total_changes)
        if stamp != self._stamp:
            # Stamp first, read second: a write in between changes the stamp
            # again, so the next request re-reads; nothing stale is kept.
            self._channels = {}
            self._stamp = stamp
        cached = self._channels.get(registry)
        if cached is None:
            cached = serving_channels(self._store, registry)
            self._channels[registry] = cached
        return cached


class ServingApp:
    """Request handlers bound to one store and an optional outcome token."""

    def __init__(
        self, store: RegistryStore, token: str | None, body_timeout: float = DEFAULT_BODY_TIMEOUT
    ) -> None:
        self.store = store
        self.token = token or None
        self.body_timeout = body_timeout
        self.cache = VersionCache()
        self._tools_json: dict[tuple[str, int, str, AudienceQuery | None], str] = {}
        self.channels = ChannelStateCache(store)
        # Resolve answers by (registry, channel, version, format): a version is
        # immutable, so an answer never changes; only which one a subject gets does.
        self._bodies: dict[tuple[str, str, int, str, AudienceQuery | None], RenderedResolve] = {}
        self.sessions = SessionStore.for_store(store)
        self.default_format = DEFAULT_FORMAT
        self.max_subject_chars = MAX_SUBJECT_CHARS

    def serves_format(self, fmt: str) -> bool:
        return fmt in SERVING_FORMATS

    # ------------------------------------------------------------------ helpers

    def _format(self, request: Request) -> str:
        fmt = request.query_params.get("format", DEFAULT_FORMAT)
        if fmt not in SERVING_FORMATS:
            raise ApiError(400, f"format {fmt!r} is not served; use one of "
                           f"{', '.join(SERVING_FORMATS)}")  # fmt: skip
        return fmt

    def audience(self, params: Any, fmt: str) -> AudienceQuery | None:
        """The ``?role=&scenario=&restrict=`` of a resolve request (None: everyone's tools).

        Raises:
            ApiError: a bad ``restrict``, or ``choice`` for a non-provider format.
        """
        role, scenario = params.get("role"), params.get("scenario")
        restrict = params.get("restrict")
        if role is None and scenario is None:
            if restrict is not None:
                raise ApiError(400, "restrict needs role and/or scenario")
            return None
        for label, value in (("role", role), ("scenario", scenario)):
            if value is not None and len(value) > MAX_SUBJECT_CHARS:
                raise ApiError(400, f"{label} is longer than {MAX_SUBJECT_CHARS} characters")
            if value is not None and not value.isprintable():
                # As /mcp does: a NUL, a line break or a bidi override is no role name.
                raise ApiError(400, f"{label} must be printable (no control or format characters)")
        query = AudienceQuery(role or "", scenario or "", restrict or "filter")
        try:
            query.check(fmt)
        except FormatError as exc:
            raise ApiError(400, str(exc)) from None
        return query

    def _tools_text(
        self, registry: str, number: int, fmt: str, audience: AudienceQuery | None = None
    ) -> str:
        """The ``tools`` JSON (with an audience: the members to splice after the head)."""
        key = (registry, number, fmt, audience)
        text = self._tools_json.get(key)
        if text is None:
            value = self.cache.tools(self.store, registry, number, fmt, audience)
            text = _dumps(value)[1:-1] if audience is not None else _dumps(value)
            if len(self._tools_json) > 256:
                self._tools_json.clear()
            self._tools_json[key] = text
        return text

    def _skills_text(self, registry: str, number: int) -> str:
        """``,"skills":[…]`` for a version holding skills, "" otherwise (rendered per body)."""
        document = self.cache.version(self.store, registry, number).registry
        if not document.skills:
            return ""
        return ',"skills":' + _dumps(skill_catalogue(document, registry, number))

    # ------------------------------------------------------------------ endpoints

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(openapi_document())

    async def resolve(self, request: Request) -> Response:
        name = request.path_params["name"]
        fmt = self._format(request)
        subject = request.query_params.get("subject") or None
        if subject is not None and len(subject) > MAX_SUBJECT_CHARS:
            raise ApiError(400, f"subject is longer than {MAX_SUBJECT_CHARS} characters")
        audience = self.audience(request.query_params, fmt)
        channels = self.channels.channels(name)
        channel = choose_channel(channels, subject)
        number = next(c.version for c in channels if c.name == channel)
        assert number is not None
        rendered = self.rendered_resolve(name, channel, number, fmt, audience)
        return _json_with_etag(request, rendered.body, rendered.etag, RESOLVE_CACHE_CONTROL)

    def rendered_resolve(
        self,
        name: str,
        channel: str,
        number: int,
        fmt: str,
        audience: AudienceQuery | None = None,
    ) -> RenderedResolve:
        """The resolve answer for that version in ``fmt`` (and audience), rendered once."""
        key = (name, channel, number, fmt, audience)
        cached = self._bodies.get(key)
        if cached is not None:
            return cached
        info = self.cache.version(self.store, name, number).info
        head = _dumps({
            "registry": name, "channel": channel, "version": number,
            "semver": info.semver, "content_hash": info.content_hash, "format": fmt,
        })  # fmt: skip
        skills = self._skills_text(name, number)  # the catalogue, bodies by URL (issue #18)
        if audience is None:
            body = f'{head[:-1]},"tools":{self._tools_text(name, number, fmt)}{skills}}}'.encode()
            etag = f'"{info.content_hash}|{fmt}|{channel}"'
        else:
            tools = self._tools_text(name, number, fmt, audience)
            body = f"{head[:-1]},{tools}{skills}}}".encode()
            who = _dumps([audience.role, audience.scenario, audience.restrict])
            tag = hashlib.sha256(who.encode()).hexdigest()[:16]
            etag = f'"{info.content_hash}|{fmt}|{channel}|{tag}"'
        result = RenderedResolve.build(body, etag, RESOLVE_CACHE_CONTROL)
        if len(self._bodies) >= 1024:
            self._bodies.clear()
        self._bodies[key] = result
        server_heap.settle()  # the version and its body live as long as the process
        return result

    async def version(self, request: Request) -> Response:
        name = request.path_params["name"]
        raw = request.path_params["number"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 9 or int(raw) < 1:
            raise ApiError(400, f"version must be a positive integer, not {raw!r}")
        fmt = self._format(request)
        info = self.cache.version(self.store, name, int(raw)).info
        head = _dumps({
            "registry": name, "version": info.number, "semver": info.semver,
            "content_hash": info.content_hash, "parent": info.parent_number,
            "notes": info.notes, "author": info.author, "created_at": info.created_at,
            "format": fmt,
        })  # fmt: skip
        body = f'{head[:-1]},"tools":{self._tools_text(name, info.number, fmt)}}}'
        etag = f'"{info.content_hash}|{fmt}"'
        return _json_with_etag(request, body, etag, VERSION_CACHE_CONTROL)

    async def skill(self, request: Request) -> Response:
        """One skill's body and file names: where a resolution's catalogue points."""
        name = request.path_params["name"]
        raw = request.path_params["number"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 9 or int(raw) < 1:
            raise ApiError(400, f"version must be a positive integer, not {raw!r}")
        info = self.cache.version(self.store, name, int(raw))
        doc = skill_body_document(info.registry, name, int(raw), request.path_params["skill"])
        etag = f'"{info.info.content_hash}|skill|{doc["name"]}"'
        return _json_with_etag(request, _dumps(doc), etag, VERSION_CACHE_CONTROL)

    async def snapshot(self, request: Request) -> Response:
        name = request.path_params["name"]
        fmt = self._format(request)
        doc = snapshot_document(self.store, name, fmt, cache=self.cache)
        key = _dumps([(c["name"], c["version"], c["share"], c["salt"], c["content_hash"])
                      for c in doc["channels"]])  # fmt: skip
        etag = f'"snapshot-{hashlib.sha256(key.encode()).hexdigest()[:32]}|{fmt}"'
        return _json_with_etag(request, _dumps(doc), etag, RESOLVE_CACHE_CONTROL)

    def _check_token(self, request: Request) -> None:
        if self.token is None:
            raise ApiError(403, "outcome reporting is disabled: the server has no token "
                           "(start it with --token-file)")  # fmt: skip
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        challenge = {"WWW-Authenticate": 'Bearer realm="studio"'}
        if scheme.lower() != "bearer" or not given.strip():
            raise ApiError(401, "a bearer token is required", challenge)
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            raise ApiError(401, "the bearer token is wrong", challenge)

    async def _read_body(self, request: Request) -> bytes:
        """The request body, refused (413) as soon as it is too long, and 408 when too slow.

        A chunked body has no Content-Length to check up front: the chunks are
        counted as they arrive, so a client streaming hundreds of megabytes
        costs at most ``MAX_BODY_BYTES`` of memory before it is turned away.
        """
        too_large = f"the body must be at most {MAX_BODY_BYTES} bytes"
        length = request.headers.get("content-length")
        if length is not None and (
            not length.isascii() or not length.isdigit() or int(length) > MAX_BODY_BYTES
        ):
            raise ApiError(413, too_large)
        body = bytearray()
        try:
            async with asyncio.timeout(self.body_timeout):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > MAX_BODY_BYTES:
                        raise ApiError(413, too_large)
        except TimeoutError:
            raise ApiError(408, f"the body did not arrive within {self.body_timeout:g} s") from None
        return bytes(body)

    async def outcomes(self, request: Request) -> Response:
        try:
            self._check_token(request)
            body = await self._read_body(request)
        except ApiError as exc:
            # The rest of the body is not read: close the connection rather
            # than let uvicorn read and drop it.
            exc.headers.setdefault("Connection", "close")
            raise
        try:
            rows = parse_outcomes(body)
        except OutcomeError as exc:
            raise ApiError(400, str(exc)) from exc
        latest = {r.name: r.latest_version or 0 for r in self.store.list_registries()}
        for row in rows:
            if row.registry not in latest:
                raise ApiError(422, f"unknown registry {row.registry!r}")
            # Versions are numbered 1, 2, 3… and never deleted: a number up to
            # the newest one exists.
            if int(row.version) > latest[row.registry]:
                raise ApiError(
                    422, f"{row.registry} has no version {row.version}: outcomes are "
                    "accepted for published versions only"
                )  # fmt: skip
        await run_in_threadpool(self.sessions.append_batch, "", (), (), rows)
        return JSONResponse({"accepted": len(rows)}, status_code=201)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.message, exc.headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "no such endpoint", 405: "method not allowed"}.get(
        exc.status_code, str(exc.detail)
    )
    return error_response(exc.status_code, message, dict(exc.headers or {}))


async def _not_found(request: Request, exc: Exception) -> Response:
    return error_response(404, str(exc))


async def _format_error(request: Request, exc: Exception) -> Response:
    return error_response(400, str(exc))


async def _store_error(request: Request, exc: Exception) -> Response:
    return error_response(500, f"storage error: {exc}")


async def _disconnected(request: Request, exc: Exception) -> Response:
    # Nobody reads this answer; it keeps a vanished client out of the error log.
    return error_response(400, "the client disconnected")


async def _internal(request: Request, exc: Exception) -> Response:
    return error_response(500, "internal error")


def create_app(
    store: RegistryStore,
    *,
    token: str | None = None,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    mcp: Any = None,
) -> Starlette:
    """The ASGI application serving ``store``.

    Args:
        store: Where registries, channels and outcomes live.
        token: Bearer token for ``POST /v1/outcomes`` and ``/mcp/{registry}``; None
            refuses every report.
        body_timeout: Seconds a client has to send an outcome body (or an MCP request).
        mcp: How ``/mcp/{registry}`` runs calls (a
            :class:`studio.mcp.serve_http.McpHttpOptions`); None: the defaults.
    """
    from studio.mcp.serve_http import McpEndpoint

    api = ServingApp(store, token, body_timeout)
    mcp_endpoint = McpEndpoint(
        store, token=token, options=mcp, body_timeout=body_timeout, cache=api.cache
    )
    routes = [
        Route("/healthz", api.healthz, methods=["GET"]),
        Route("/openapi.json", api.openapi, methods=["GET"]),
        Route("/v1/registries/{name}/resolve", api.resolve, methods=["GET"]),
        Route("/v1/registries/{name}/snapshot", api.snapshot, methods=["GET"]),
        Route("/v1/registries/{name}/versions/{number}", api.version, methods=["GET"]),
        Route("/v1/registries/{name}/versions/{number}/skills/{skill}", api.skill, methods=["GET"]),
        Route("/v1/outcomes", api.outcomes, methods=["POST"]),
        Route("/mcp/{registry}", mcp_endpoint, methods=["GET", "POST", "DELETE"]),
        # The same, for clients that only take URLs whose path ends in /mcp (the MCP Inspector).
        Route("/mcp/{registry}/mcp", mcp_endpoint, methods=["GET", "POST", "DELETE"]),
    ]
    handlers = {
        ApiError: _api_error,
        HTTPException: _http_error,
        NotFoundError: _not_found,
        FormatError: _format_error,
        ClientDisconnect: _disconnected,
        StoreError: _store_error,
        Exception: _internal,
    }

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await mcp_endpoint.aclose()  # ends and records the open MCP sessions

    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        lifespan=lifespan,
        # Well-formed resolve requests skip the routing (studio.server.fast_resolve).
        middleware=[Middleware(ResolveFastPath, api=api)],
    )
    app.state.api = api
    app.state.mcp = mcp_endpoint
    return app
