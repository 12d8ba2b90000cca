"""The resolve endpoint's hot path: pre-rendered bytes straight onto ASGI.

``GET /v1/registries/{name}/resolve`` is what runtimes call on every
conversation, so it is answered by a pure ASGI middleware in front of
Starlette's routing, request and response objects. Per request it only
parses the query, buckets the subject (:func:`choose_channel`) and sends a
body rendered once per (registry, channel, version, format) — versions are
immutable — with its ETag (``If-None-Match`` → 304).

Everything unusual (another path or method, a bad format or subject, an
unknown registry, a storage error) is passed on untouched to the Starlette
app, which answers it exactly as before: this path adds speed, not behaviour.
Under ``studio serve`` most resolve requests do not even reach this ASGI
middleware: the HTTP protocol answers them with the same :meth:`ResolveFastPath.lookup`
(:mod:`studio.server.direct_resolve`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from registry_db.channels import STABLE
from studio.release.bucketing import in_share

if TYPE_CHECKING:
    from studio.server.app import ServingApp

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_PREFIX = "/v1/registries/"
_SUFFIX = "/resolve"
_AUDIENCE_KEYS = ("role", "scenario", "restrict")
_MAX_PLANS = 1024


@dataclass(frozen=True, slots=True)
class ChannelPlan:
    """A registry's channels as the per-request bucketing walks them.

    Exactly :func:`studio.release.channels.choose_channel` over ``channels``,
    with what does not depend on the subject done once: the live channels it
    may pick (not stable, with a version, a share above 0), in order, and
    stable's version. Rebuilt whenever the channel state cache hands back a
    new list (a channel changed).
    """

    channels: list[Any]
    live: tuple[tuple[str, int, str, int], ...]
    stable_version: int | None

    @classmethod
    def build(cls, channels: list[Any]) -> ChannelPlan:
        live = tuple(
            (c.salt, c.share, c.name, c.version)
            for c in channels
            if c.name != STABLE and c.version is not None and c.share > 0
        )
        stable = next((c.version for c in channels if c.name == STABLE), None)
        return cls(channels, live, stable)

    def choose(self, subject: str | None) -> tuple[str, int | None]:
        """(channel, version) serving ``subject``."""
        if subject:
            for salt, share, name, version in self.live:
                if in_share(salt, subject, share):
                    return name, version
        return STABLE, self.stable_version


@dataclass(frozen=True, slots=True)
class RenderedResolve:
    """One resolve answer, ready to send: the same headers Starlette's Response would set."""

    body: bytes
    etag: str
    ok_headers: list[tuple[bytes, bytes]]
    not_modified_headers: list[tuple[bytes, bytes]]

    @classmethod
    def build(cls, body: bytes, etag: str, cache_control: str) -> RenderedResolve:
        common = [(b"etag", etag.encode("latin-1")), (b"cache-control", cache_control.encode())]
        ok = [
            *common,
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/json"),
        ]
        return cls(body, etag, ok, common)


def etag_matches(header: str | None, etag: str) -> bool:
    """``If-None-Match`` (a list, ``*`` or weak tags) names ``etag``."""
    if not header:
        return False
    for candidate in header.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == etag:
            return True
    return False


def query_params(query: bytes) -> dict[str, str]:
    """The query as Starlette's ``request.query_params`` reads it (the last value wins).

    Latin-1 text split as :func:`urllib.parse.parse_qsl` with blank values
    kept; a plain query (no ``%`` or ``+``, the usual ``subject=…&format=…``)
    is split by hand, which is several times faster than ``parse_qsl``.
    """
    text = query.decode("latin-1")
    if "%" in text or "+" in text:
        return dict(parse_qsl(text, keep_blank_values=True))
    params = {}
    for field in text.split("&"):
        if field:
            name, _, value = field.partition("=")
            params[name] = value
    return params


class ResolveFastPath:
    """ASGI middleware answering well-formed resolve requests without Starlette's machinery.

    Args:
        app: The rest of the Starlette stack (everything else, and every error).
        api: The serving app whose caches, channel state and rules are used.
    """

    def __init__(self, app: ASGIApp, api: ServingApp) -> None:
        self.app = app
        self.api = api
        self._plans: dict[str, ChannelPlan] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            rendered = self.lookup(scope["path"], scope.get("query_string", b""))
            if rendered is not None:
                if_none_match = None
                for key, value in scope["headers"]:
                    if key == b"if-none-match":
                        if_none_match = value.decode("latin-1")
                        break
                if if_none_match is not None and etag_matches(if_none_match, rendered.etag):
                    await send({"type": "http.response.start", "status": 304,
                                "headers": rendered.not_modified_headers})  # fmt: skip
                    await send({"type": "http.response.body", "body": b""})
                    return
                await send({"type": "http.response.start", "status": 200,
                            "headers": rendered.ok_headers})  # fmt: skip
                await send({"type": "http.response.body", "body": rendered.body})
                return
        await self.app(scope, receive, send)

    def lookup(self, path: str, query: bytes) -> RenderedResolve | None:
        """The answer to ``GET path?query``, or None to leave the request to Starlette.

        Shared by the ASGI path above and the HTTP protocol's direct answers
        (:mod:`studio.server.direct_resolve`), so both take the same requests
        and send the same bytes.
        """
        if path.startswith(_PREFIX) and path.endswith(_SUFFIX):
            return self._rendered(path[len(_PREFIX) : -len(_SUFFIX)], query)
        return None

    def _rendered(self, name: str, query: bytes) -> RenderedResolve | None:
        """The answer for registry ``name`` and this query, or None to leave it to Starlette."""
        if not name or "/" in name:
            return None
        api = self.api
        fmt, subject = api.default_format, None
        params: dict[str, str] = {}
        if query:
            params = query_params(query)
            fmt = params.get("format", fmt)
            subject = params.get("subject") or None
        if not api.serves_format(fmt) or (
            subject is not None and len(subject) > api.max_subject_chars
        ):
            return None
        audience = None
        if params and any(key in params for key in _AUDIENCE_KEYS):
            try:
                audience = api.audience(params, fmt)  # ?role=&scenario= (issue #17)
            except Exception:
                return None
        try:
            channels = api.channels.channels(name)
        except Exception:  # unknown registry, nothing published, storage: Starlette answers
            return None
        plan = self._plans.get(name)
        if plan is None or plan.channels is not channels:
            if len(self._plans) >= _MAX_PLANS:
                self._plans.clear()
            plan = self._plans[name] = ChannelPlan.build(channels)
        channel, number = plan.choose(subject)
        if number is None:
            return None
        try:
            return api.rendered_resolve(name, channel, number, fmt, audience)
        except Exception:
            return None
