"""Listing the tools of a live MCP server with the official SDK (``mcp`` 2.x).

One function does the work, :func:`list_server_tools`: start the server (stdio) or
reach it (streamable HTTP), let the SDK negotiate the protocol era (``server/discover``
of 2026-07-28, else the 2025-11-25 ``initialize`` handshake), page through
``tools/list`` and hand back the tools in their wire form. Every failure becomes a
:class:`PullError` whose message is one sentence a user can act on: command not
found, exited with code N (last lines of stderr), timed out after N s, HTTP 401,
not an MCP endpoint, protocol version refused.

Secrets: header and environment values may be ``{env:NAME}`` references; they are
read from the environment when the connection opens and never leave this module
(:meth:`StdioTarget.describe` and :meth:`HttpTarget.describe` keep the references).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import IO, Any, TextIO, cast

import anyio
import httpx2
import mcp.client.stdio as sdk_stdio
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import ListToolsRequest, PaginatedRequestParams
from pydantic import TypeAdapter, ValidationError

Progress = Callable[[str], None]
"""Receives one line per phase: starting, connecting, listing page N."""

ERA_STATELESS = "2026-07-28 (stateless: server/discover)"
ERA_HANDSHAKE = "2025-11-25 (initialize handshake)"
MODERN_VERSIONS = ("2026-07-28",)
MAX_PAGES = 10_000
"""A server whose cursor never ends is cut off here rather than listed forever."""
STDERR_TAIL_LINES = 5

_RAW_PAGE: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
_ENV_REF = re.compile(r"\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class PullError(Exception):
    """The server could not be listed; the message is one sentence for the user.

    Attributes:
        stderr: The last lines the server wrote to stderr (stdio only), for the GUI.
    """

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


def expand_env(value: str, environ: Mapping[str, str] | None = None) -> str:
    """``value`` with every ``{env:NAME}`` replaced by the variable's value.

    Raises:
        PullError: naming the first variable that is not set.
    """
    env = os.environ if environ is None else environ

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            raise PullError(
                f"environment variable {name} is not set (referenced as {{env:{name}}})"
            )
        return env[name]

    return _ENV_REF.sub(one, value)


@dataclass(frozen=True)
class StdioTarget:
    """A server started as a subprocess and spoken to over its stdin and stdout.

    Attributes:
        command: The executable.
        args: Its arguments.
        env: ``(NAME, value)`` pairs set for the server on top of the SDK's safe
            default environment. A value may hold ``{env:OTHER}``; a value of None
            passes our own ``NAME`` through.
        cwd: Working directory, or None for ours.
    """

    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str | None], ...] = ()
    cwd: str | None = None

    @classmethod
    def parse(cls, command_line: str, env: list[str] | tuple[str, ...] = ()) -> StdioTarget:
        """A target from a shell-like command line and ``NAME=VALUE`` / ``NAME`` items.

        Raises:
            PullError: an empty command line or a malformed environment item.
        """
        try:
            words = shlex.split(command_line)
        except ValueError as exc:
            raise PullError(f"cannot read the command line: {exc}") from None
        if not words:
            raise PullError("the command line is empty")
        pairs: list[tuple[str, str | None]] = []
        for item in env:
            name, sep, value = item.partition("=")
            if not _ENV_NAME.fullmatch(name):
                raise PullError(f"--env expects NAME=VALUE or NAME, not {item!r}")
            pairs.append((name, value if sep else None))
        return cls(words[0], tuple(words[1:]), tuple(pairs))

    def environment(self, environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The variables to set for the server, references read now."""
        env = os.environ if environ is None else environ
        out: dict[str, str] = {}
        for name, value in self.env:
            if value is None:
                if name not in env:
                    raise PullError(f"environment variable {name} is not set (passed with --env)")
                out[name] = env[name]
            else:
                out[name] = expand_env(value, env)
        return out

    def describe(self) -> dict[str, Any]:
        """The target as stored with an import: no secret values, only names and references."""
        from studio.sessions.redact import literal_credential

        env = {
            name: value
            if value is not None and not literal_credential(name, value)
            else f"{{env:{name}}}"
            for name, value in self.env
        }
        out: dict[str, Any] = {
            "transport": "stdio",
            "command": self.command,
            "args": list(self.args),
        }
        if env:
            out["env"] = env
        return out

    def label(self) -> str:
        return shlex.join([self.command, *self.args])


@dataclass(frozen=True)
class HttpTarget:
    """A server reached over streamable HTTP.

    Attributes:
        url: The MCP endpoint.
        headers: ``(name, value)`` pairs; values may hold ``{env:NAME}``.
    """

    url: str
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, url: str, headers: list[str] | tuple[str, ...] = ()) -> HttpTarget:
        """A target from a URL and ``"Name: value"`` items.

        Raises:
            PullError: a URL that is not http(s), a malformed header, or a credential
                written literally (it must be an ``{env:NAME}`` reference, never stored).
        """
        from studio.sessions.redact import literal_credential

        if not re.match(r"(?i)^https?://[^/\s]+", url):
            raise PullError(f"{url!r} is not an http:// or https:// URL")
        pairs: list[tuple[str, str]] = []
        for item in headers:
            name, sep, value = item.partition(":")
            name, value = name.strip(), value.strip()
            if not sep or not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", name):
                raise PullError(f"--header expects 'Name: value', not {item!r}")
            if literal_credential(name, value):
                raise PullError(
                    f"header {name} holds a credential written out; reference an environment "
                    f"variable instead, e.g. '{name}: Bearer {{env:MCP_TOKEN}}' (secrets are never "
                    "stored)"
                )
            pairs.append((name, value))
        return cls(url, tuple(pairs))

    def resolved_headers(self, environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The headers to send, references read now."""
        return {name: expand_env(value, environ) for name, value in self.headers}

    def describe(self) -> dict[str, Any]:
        """The target as stored with an import (header values are templates, never secrets)."""
        out: dict[str, Any] = {"transport": "streamable-http", "url": _strip_userinfo(self.url)}
        if self.headers:
            out["headers"] = dict(self.headers)
        return out

    def label(self) -> str:
        return _strip_userinfo(self.url)


Target = StdioTarget | HttpTarget


@dataclass(frozen=True)
class ServerListing:
    """What a live server listed.

    Attributes:
        tools: Each tool in its wire form (``inputSchema``, ``_meta`` …), in listed order.
        server_name: ``serverInfo.name`` ("" when the server does not identify itself).
        server_version: ``serverInfo.version``.
        protocol_version: The negotiated revision (``2026-07-28``, ``2025-11-25`` …).
        era: :data:`ERA_STATELESS` or :data:`ERA_HANDSHAKE`.
        pages: How many ``tools/list`` pages were read.
        ttl_ms: The first page's cache hint (2026-07-28), if any.
        cache_scope: Its ``cacheScope``, if any.
        target: :meth:`StdioTarget.describe` / :meth:`HttpTarget.describe`.
    """

    tools: tuple[dict[str, Any], ...]
    server_name: str
    server_version: str
    protocol_version: str
    era: str
    pages: int
    ttl_ms: int | None = None
    cache_scope: str | None = None
    target: dict[str, Any] = field(default_factory=dict)

    def source(self) -> dict[str, Any]:
        """What an import keeps of where it came from (no secrets)."""
        out: dict[str, Any] = {
            "server": {"name": self.server_name, "version": self.server_version},
            "protocol_version": self.protocol_version,
            "era": self.era,
            **self.target,
        }
        return out


async def list_server_tools(
    target: Target,
    *,
    timeout: float = 30.0,
    progress: Progress | None = None,
    environ: Mapping[str, str] | None = None,
    mode: str = "auto",
) -> ServerListing:
    """Connect to a server, page through ``tools/list`` and close the connection.

    Args:
        target: Where the server is.
        timeout: Seconds for the whole pull (start, handshake and every page).
        progress: Receives a line per phase.
        environ: Where ``{env:NAME}`` references are read (default: ``os.environ``).
        mode: The SDK's ``Client`` mode: ``auto`` (discover, fall back to initialize),
            ``legacy`` (initialize only) or a modern version string.

    Raises:
        PullError: one sentence saying what went wrong.
    """
    report = progress or (lambda _line: None)
    # A pinned modern version is reached through discovery, so the server's identity
    # (server/discover) is known; a server that answers with another era is refused.
    required = mode if mode in MODERN_VERSIONS else None
    if required is not None:
        mode = "auto"
    with _stderr_capture() as stderr:
        spawned: list[Any] = []
        try:
            garbled: list[str] = []
            with anyio.fail_after(timeout), anyio.CancelScope() as stop:
                handler = _garbled_handler(garbled, stop)
                async with _connect(
                    target, stderr, spawned, environ, mode, report, handler
                ) as client:
                    if required is not None and client.protocol_version != required:
                        raise PullError(
                            f"protocol version refused: the server speaks "
                            f"{client.protocol_version}, not {required}"
                        )
                    return await _list(client, target, report)
            raise PullError(f"the server sent a message that is not valid MCP: {garbled[0]}")
        except PullError:
            raise
        except TimeoutError:
            raise _failure(
                target,
                PullError(f"timed out after {timeout:g} s"),
                stderr,
                spawned,
            ) from None
        except BaseException as exc:  # ExceptionGroups from the SDK's task groups included
            if isinstance(exc, KeyboardInterrupt | SystemExit | anyio.get_cancelled_exc_class()):
                raise
            # Our own sentence (raised inside the SDK's task groups, so wrapped) stands as
            # it is: the server exited because we closed it, not on its own.
            ours = next((e for e in _leaves(exc) if isinstance(e, PullError)), None)
            if ours is not None:
                raise ours from None
            raise _failure(target, _explain(exc, target), stderr, spawned) from None


# ---------------------------------------------------------------------------- connecting

_spawned: ContextVar[list[Any] | None] = ContextVar("studio_mcp_spawned", default=None)

# The SDK logs a message it cannot parse with a traceback and then waits for an answer
# that never comes; a pull stops at once and says so in one sentence instead.
logging.getLogger("mcp").addHandler(logging.NullHandler())


def _garbled_handler(seen: list[str], stop: anyio.CancelScope) -> Any:
    """A message handler that notes what the server sent that is not MCP and stops the pull."""

    async def handler(message: Any) -> None:
        if isinstance(message, Exception):
            text = " ".join(str(message).split())
            # pydantic's "1 validation error for union[…] Invalid JSON: <why> [type=…]"
            why = re.search(r"Invalid JSON: (.*?)(?: \[type=|$)", text)
            seen.append((f"invalid JSON ({why.group(1)})" if why else text)[:200])
            stop.cancel()
            return
        await anyio.lowlevel.checkpoint()

    return handler


_original_spawn = sdk_stdio._create_platform_compatible_process


async def _recording_spawn(*args: Any, **kwargs: Any) -> Any:
    process = await _original_spawn(*args, **kwargs)
    box = _spawned.get()
    if box is not None:
        box.append(process)
    return process


# The SDK's stdio transport does not expose the server process, so its exit code (what
# "exited with code 3" needs) would be lost. The wrapper only records the process for
# the pull that started it (a ContextVar, so concurrent pulls do not mix); spawning is
# unchanged.
sdk_stdio._create_platform_compatible_process = _recording_spawn


@contextlib.asynccontextmanager
async def _connect(
    target: Target,
    stderr: IO[str],
    spawned: list[Any],
    environ: Mapping[str, str] | None,
    mode: str,
    report: Progress,
    message_handler: Any = None,
) -> AsyncIterator[Client]:
    if isinstance(target, StdioTarget):
        if shutil.which(target.command) is None:
            raise PullError(f"command not found: {target.command}")
        params = StdioServerParameters(
            command=target.command,
            args=list(target.args),
            env=target.environment(environ) or None,
            cwd=target.cwd,
        )
        report(f"starting {target.label()}")
        token = _spawned.set(spawned)
        try:
            transport = sdk_stdio.stdio_client(params, errlog=cast(TextIO, stderr))
            async with Client(
                transport, mode=mode, cache=None, message_handler=message_handler
            ) as client:
                report("connected")
                yield client
        finally:
            _spawned.reset(token)
        return
    headers = target.resolved_headers(environ)
    report(f"connecting to {target.label()}")
    statuses: list[httpx2.Response] = []

    async def remember(response: httpx2.Response) -> None:
        statuses.append(response)

    async with httpx2.AsyncClient(
        headers=headers,
        timeout=httpx2.Timeout(30.0, read=300.0),
        event_hooks={"response": [remember]},
    ) as http:
        try:
            async with Client(
                streamable_http_client(target.url, http_client=http),
                mode=mode,
                cache=None,
                message_handler=message_handler,
            ) as client:
                report("connected")
                yield client
        except BaseException as exc:
            failure = _http_failure(statuses)
            if failure is not None and not isinstance(exc, anyio.get_cancelled_exc_class()):
                raise failure from None
            raise


async def _list(client: Client, target: Target, report: Progress) -> ServerListing:
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    pages = 0
    ttl_ms: int | None = None
    cache_scope: str | None = None
    while True:
        pages += 1
        report(f"listing page {pages}")
        # The raw page, not the SDK's typed ListToolsResult: the typed one drops fields
        # it does not know (which the import must report, not lose silently) and, at
        # 2026-07-28, whole tools with an invalid x-mcp-header. The SDK still checks the
        # page against the negotiated protocol version.
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        # (send_request's result type is bound to models; a TypeAdapter works at run time.)
        page = await client.session.send_request(
            ListToolsRequest(params=params),
            _RAW_PAGE,  # type: ignore[type-var]
        )
        if pages == 1:
            ttl = page.get("ttlMs")
            ttl_ms = ttl if isinstance(ttl, int) else None
            cache_scope = _text(page.get("cacheScope"))
        listed = page.get("tools")
        if not isinstance(listed, list):
            raise PullError(f"page {pages} of tools/list holds no tools array")
        tools.extend(t for t in listed if isinstance(t, dict))
        next_cursor = page.get("nextCursor")
        cursor = next_cursor if isinstance(next_cursor, str) and next_cursor else None
        if cursor is None:
            break
        if pages >= MAX_PAGES:
            raise PullError(f"tools/list still had more pages after {MAX_PAGES}; stopped")
    info = client.server_info
    version = client.protocol_version
    return ServerListing(
        tools=tuple(tools),
        server_name=info.name if info is not None else "",
        server_version=info.version if info is not None else "",
        protocol_version=version,
        era=ERA_STATELESS if version in MODERN_VERSIONS else ERA_HANDSHAKE,
        pages=pages,
        ttl_ms=ttl_ms,
        cache_scope=cache_scope,
        target=target.describe(),
    )


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "value", value))


# ---------------------------------------------------------------------------- failures


@contextlib.contextmanager
def _stderr_capture() -> Iterator[IO[str]]:
    # A real file: the server process writes to its descriptor directly.
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as file:
        yield file


def _stderr_tail(stderr: IO[str]) -> str:
    try:
        stderr.flush()
        stderr.seek(0)
        lines = [line.rstrip() for line in stderr.read().splitlines() if line.strip()]
    except (OSError, ValueError):
        return ""
    return "\n".join(lines[-STDERR_TAIL_LINES:])


def _failure(target: Target, error: PullError, stderr: IO[str], spawned: list[Any]) -> PullError:
    """``error`` with what the process tells: its exit code and the end of its stderr."""
    if not isinstance(target, StdioTarget):
        return error
    tail = _stderr_tail(stderr)
    code = next((p.returncode for p in spawned if p.returncode is not None), None)
    message = str(error)
    if code is not None and not message.startswith("timed out"):
        message = f"{target.command} exited with code {code} before listing its tools"
    if tail:
        message += " (last lines of stderr: " + " | ".join(tail.splitlines()) + ")"
    return PullError(_one_line(message), tail)


def _http_failure(statuses: list[httpx2.Response]) -> PullError | None:
    for response in reversed(statuses):
        code = response.status_code
        if code in (401, 403):
            reason = "unauthorized" if code == 401 else "forbidden"
            return PullError(
                f"HTTP {code} ({reason}): the server refused the credentials; check the "
                "Authorization header"
            )
        if code in (404, 405) or (
            code < 300 and not _mcp_content_type(response.headers.get("content-type", ""))
        ):
            kind = response.headers.get("content-type", "").split(";")[0] or "no content type"
            return PullError(
                f"not an MCP endpoint: {response.request.url} answered HTTP {code} ({kind})"
            )
        if code >= 500:
            return PullError(f"the server failed with HTTP {code}")
    return None


def _mcp_content_type(value: str) -> bool:
    value = value.lower()
    return value.startswith(("application/json", "text/event-stream")) or not value


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in _leaves(sub)]
    return [exc]


def _explain(exc: BaseException, target: Target) -> PullError:
    """One sentence for an exception raised while connecting or listing."""
    leaves = _leaves(exc)
    for leaf in leaves:
        if isinstance(leaf, PullError):
            return leaf
    leaf = leaves[0] if leaves else exc
    if isinstance(leaf, FileNotFoundError) and isinstance(target, StdioTarget):
        return PullError(f"command not found: {target.command}")
    if isinstance(leaf, PermissionError) and isinstance(target, StdioTarget):
        return PullError(f"{target.command} cannot be executed (permission denied)")
    if isinstance(leaf, httpx2.ConnectError):
        return PullError(f"cannot connect to {target.label()}: {_one_line(str(leaf)) or 'refused'}")
    if isinstance(leaf, httpx2.TimeoutException):
        return PullError(f"timed out waiting for {target.label()}")
    if isinstance(leaf, MCPError):
        message = leaf.message
        if leaf.code == -32022 or "protocol version" in message.lower():
            return PullError(f"protocol version refused: {_one_line(message)}")
        if leaf.code == -32601:
            return PullError(
                f"not an MCP endpoint: the server does not know tools/list ({message})"
            )
        if "connection closed" in message.lower() or "closed" in message.lower():
            return PullError("the server closed the connection before listing its tools")
        return PullError(f"the server answered with an error: {_one_line(message)} ({leaf.code})")
    if isinstance(leaf, ValidationError):
        errors = leaf.errors()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        why = errors[0]["msg"] if errors else ""
        return PullError(
            f"the server's answer is not valid MCP ({leaf.error_count()} problem(s), first at "
            f"{where or 'the top'}: {why})"
        )
    if isinstance(leaf, anyio.ClosedResourceError | anyio.BrokenResourceError | EOFError):
        return PullError("the server closed the connection before listing its tools")
    return PullError(_one_line(f"{type(leaf).__name__}: {leaf}"))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _strip_userinfo(url: str) -> str:
    return re.sub(r"(?i)^(https?://)[^/@\s]*@", r"\1", url)
