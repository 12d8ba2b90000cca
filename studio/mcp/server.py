"""A registry version served as an MCP server (issue #13, part 3; DESIGN §9).

Built on the SDK's low-level :class:`mcp.server.lowlevel.Server`, which serves
both protocol eras (the 2025-11-25 ``initialize`` handshake and the stateless
2026-07-28 revision with ``server/discover``) over stdio and streamable HTTP.

- ``tools/list``: the version's tools as the MCP export renders them
  (:mod:`studio.formats.mcp`; injected properties hidden, ``x-`` keys
  stripped), in the registry's order, rendered once per version. ``ttlMs`` /
  ``cacheScope`` follow immutability: a pinned version is public and
  cacheable for a day, a channel is private and short-lived (its version
  depends on the caller and may move).
- ``tools/call``: through :class:`studio.runtime.single_call.CallSession`,
  i.e. the runtime's pipeline, risk gate, write ledger, executors and result
  shaping; failures are ``isError`` results carrying the studio's structured
  error; an unknown tool is a JSON-RPC error (-32602), as MCP asks.
- Every MCP session is a studio session (source ``mcp``) and every call an
  outcome row. With a channel, the caller's subject picks the version by the
  release's sticky bucketing (:func:`studio.release.channels.choose_channel`).
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError, NoBackChannelError
from mcp_types import SERVER_INFO_META_KEY
from mcp_types import methods as mcp_methods
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from registry_db.channels import STABLE
from registry_db.sessions import SessionStore
from registry_db.store import RegistryStore
from studio.contract import Registry
from studio.contract.audience import Audience, for_audience
from studio.formats import export_tool
from studio.mcp import server_heap
from studio.mcp.skills import read_skill_resource, skill_prompt, skill_prompts, skill_resources
from studio.release.channels import choose_channel
from studio.release.resolve import VersionCache, serving_channels
from studio.runtime.context import SessionContext
from studio.runtime.executors import Executor, MockExecutor
from studio.runtime.loop import RunConfig
from studio.runtime.pipeline import ArgumentPipeline, validator_for
from studio.runtime.policy import ApprovalDecision, ApprovalRequest, Approver, auto_approver
from studio.runtime.results import SYSTEM_FAULT_INSTRUCTION, ToolError, result_content
from studio.runtime.single_call import CallResult, CallSession, no_confirmation
from studio.sessions.library import SOURCE_MCP

PINNED_TTL_MS = 86_400_000
"""A pinned version never changes: clients may keep its tool list for a day."""
CHANNEL_TTL_MS = 10_000
"""A channel may move (promote, rollback, share change): ten seconds."""
CHANNEL_REFRESH_SECONDS = 1.0
IDLE_SESSION_SECONDS = 30 * 60
SWEEP_EVERY_SECONDS = 1.0
"""A session-less (2026-07-28) caller's studio session ends after this long without a call."""
TURN_META_KEY = "studio/turn"
"""Optional ``_meta`` key of ``tools/call``: the request the call serves (identical writes
of one turn are one intent, answered once); without it the whole session is one turn."""


def credential_hash(token: str) -> str:
    """The subject of a bearer token: the first 32 hex digits of its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling, as the transport established it.

    Attributes:
        key: Which studio session the call belongs to (the MCP session id, the
            stdio connection, or the subject for session-less callers).
        subject: Bucketing subject for channels (None: stable).
        context: The session context of this caller (injected values, role, scenario).
        transport: ``stdio`` or ``http``.
    """

    key: str
    subject: str | None = None
    context: SessionContext | None = None
    transport: str = "stdio"


CURRENT_CALLER: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "studio_mcp_caller", default=None
)
"""Set by the HTTP endpoint for each request; the SDK carries it to the handlers."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """How calls are run.

    Attributes:
        context: The session context every caller gets (``--context``).
        approve: ``none``, ``write`` or ``all`` (as ``studio run --approve``); None: ask
            through elicitation where the client supports it, else refuse with
            ``CONFIRM_REQUIRED``.
        phrases: Destructive tool → the phrase the policy types for it.
        executors: ``configured`` (the Playground's executor per tool) or ``mock``.
    """

    context: SessionContext = field(default_factory=SessionContext)
    approve: str | None = None
    phrases: Mapping[str, str] = field(default_factory=dict)
    executors: str = "configured"
    audience: Audience | None = None
    """``--role/--scenario``: only the tools that audience may call are listed and
    callable (issue #17); None serves every tool."""


@dataclass
class ServedVersion:
    """One version ready to serve: its document, rendered tool list and executors."""

    number: int
    registry: Registry
    tools: list[types.Tool]
    output_schemas: dict[str, dict[str, Any]]
    mock: Executor
    executors: dict[str, Executor]
    input_schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    pipeline: ArgumentPipeline | None = None
    """Compiled once per version; every session shares its compiled tools."""


class ServedRegistry:
    """A registry served at one version (``version``) or through a channel (``channel``).

    Args:
        store: The open database.
        name: Registry name.
        version: A pinned version number.
        channel: A channel name: ``stable`` buckets each caller across the live
            channels (canary share included); another channel serves its version.
        options: Context, approval policy and executors.
    """

    def __init__(
        self,
        store: RegistryStore,
        name: str,
        *,
        version: int | None = None,
        channel: str | None = None,
        options: ServeOptions | None = None,
        cache: VersionCache | None = None,
        deferred_writes: bool = False,
    ) -> None:
        self.store = store
        self.deferred_writes = deferred_writes
        self.name = name
        self.pinned = version
        self.channel = None if version is not None else (channel or STABLE)
        self.options = options or ServeOptions()
        self.cache = cache or VersionCache()
        self.sessions = SessionStore.for_store(store)
        self._versions: dict[int, ServedVersion] = {}
        self._channels: tuple[float, list[Any]] = (0.0, [])
        self._lock = threading.Lock()
        self.book: dict[tuple[str, int], CallSession] = {}
        self._used: dict[tuple[str, int], float] = {}
        self._swept = float("-inf")
        self._creating = threading.Lock()
        if version is not None:
            self.version(version)  # fail early on a missing version
        else:
            self.target(None)

    # ------------------------------------------------------------------ versions

    def target(self, subject: str | None) -> tuple[str, int]:
        """(channel, version number) serving ``subject``."""
        if self.pinned is not None:
            return "", self.pinned
        at, channels = self._channels
        now = time.monotonic()
        if now - at > CHANNEL_REFRESH_SECONDS:
            with self.store.lock:
                channels = serving_channels(self.store, self.name)
            self._channels = (now, channels)
        if self.channel == STABLE:
            name = choose_channel(channels, subject)
        else:
            name = self.channel or STABLE
        for c in channels:
            if c.name == name and c.version is not None:
                return name, c.version
        raise MCPError(types.INVALID_PARAMS, f"{self.name} has no live channel {name!r}")

    def version(self, number: int) -> ServedVersion:
        served = self._versions.get(number)
        if served is None:
            with self._lock:
                served = self._versions.get(number) or self._load(number)
                self._versions[number] = served
            server_heap.settle()  # immutable for the process's life (see server_heap)
        return served

    def _load(self, number: int) -> ServedVersion:
        registry = self.cache.version(self.store, self.name, number).registry
        if self.options.audience is not None:
            # A tool outside the audience is neither listed nor callable (unknown tool).
            registry = for_audience(registry, self.options.audience)
        tools, schemas = [], {}
        for contract in registry.tools:
            entry, _ = export_tool(contract, "mcp", registry.settings)
            schema = entry.get("outputSchema") or getattr(contract, "output_schema", None)
            if isinstance(schema, dict):
                entry["outputSchema"] = schema
                schemas[contract.name] = schema
            tools.append(types.Tool.model_validate(entry, by_name=False))
        mock, executors = build_executors(self.store, self.name, registry, self.options.executors)
        inputs = {t.name: t.input_schema for t in tools}
        pipeline = ArgumentPipeline(registry, self.options.context)
        return ServedVersion(number, registry, tools, schemas, mock, executors, inputs, pipeline)

    def list_result(self, subject: str | None) -> types.ListToolsResult:
        """The tool list serving ``subject``; ``_meta`` names the registry, version and channel."""
        channel, number = self.target(subject)
        served = self.version(number)
        meta = {"studio/registry": self.name, "studio/version": number}
        if self.pinned is not None:
            return types.ListToolsResult(tools=served.tools, ttl_ms=PINNED_TTL_MS,
                                         cache_scope="public", _meta=meta)  # fmt: skip
        meta["studio/channel"] = channel
        return types.ListToolsResult(tools=served.tools, ttl_ms=CHANNEL_TTL_MS,
                                     cache_scope="private", _meta=meta)  # fmt: skip

    # ------------------------------------------------------------------ sessions

    def session_for(self, caller: Caller, meta: Mapping[str, Any]) -> tuple[CallSession, int]:
        """The studio session of ``caller`` at the version serving it (created on first use)."""
        self.sweep()
        channel, number = self.target(caller.subject)
        key = (caller.key, number)
        session = self.book.get(key)
        if session is None:
            with self._creating:  # two first calls of one caller on two threads: one session
                session = self.book.get(key)
                if session is None:
                    session = self._new_session(caller, meta, channel, number)
                    self.book[key] = session
        self._used[key] = time.monotonic()
        return session, number

    async def session_for_call(
        self, caller: Caller, meta: Mapping[str, Any]
    ) -> tuple[CallSession, int]:
        """:meth:`session_for` from the event loop: a first call's session is made on a thread.

        Creating a session commits its row (a synchronous write that waits for
        the store's lock, which the recording thread holds while it commits):
        on the event loop, 50 clients arriving together stalled every request
        for the time of 50 commits. Only that caller's own first call waits now.
        """
        _, number = self.target(caller.subject)
        if (caller.key, number) in self.book:
            return self.session_for(caller, meta)
        return await asyncio.to_thread(self.session_for, caller, meta)

    def _new_session(
        self, caller: Caller, meta: Mapping[str, Any], channel: str, number: int
    ) -> CallSession:
        """A new recorded session for ``caller`` at version ``number`` (commits its row)."""
        served = self.version(number)
        context = _overlay(self.options.context, caller.context)
        config = RunConfig(
            served.registry, version=str(number), context=context, mock=served.mock,
            executors=served.executors, confirmation_phrases=dict(self.options.phrases),
            # One retry-jitter source per session, not one seeded from urandom per call.
            rng=random.Random(),
        )  # fmt: skip
        info = {"transport": caller.transport, "channel": channel, **meta}
        title = f"MCP {meta.get('client') or caller.transport}: {self.name} v{number}"
        session = CallSession(config, sessions=self.sessions, source=SOURCE_MCP,
                              title=title, meta=info, deferred=self.deferred_writes,
                              compiled=served.pipeline)  # fmt: skip
        return session

    def sweep(self, idle: float = IDLE_SESSION_SECONDS) -> None:
        """Close sessions unused for ``idle`` seconds.

        Called on every call, it walks the sessions at most once a second (it
        walked all of them per call: with 50 clients, 50 checks per request);
        an idle session is closed at most a second later than its deadline.
        """
        now = time.monotonic()
        if now - self._swept < SWEEP_EVERY_SECONDS:
            return
        self._swept = now
        for key, used in list(self._used.items()):
            session = self.book.get(key)
            if session is not None and not session.in_flight and now - used > idle:
                self.close_session(key)

    def close_session(self, key: tuple[str, int], status: str = "") -> None:
        session = self.book.pop(key, None)
        self._used.pop(key, None)
        if session is not None:
            session.close(status)

    def close_caller(self, caller_key: str, status: str = "") -> None:
        for key in [k for k in self.book if k[0] == caller_key]:
            self.close_session(key, status)

    def close_all(self, status: str = "") -> None:
        for key in list(self.book):
            self.close_session(key, status)

    # ------------------------------------------------------------------ approvals

    def approver(self, ctx: Any, params: types.CallToolRequestParams) -> Approver:
        """The policy's approver, else asking the user through the client, else refusal.

        A 2025-11-25 client that declared elicitation is asked with an
        ``elicitation/create`` request; a 2026-07-28 one gets the question as
        an ``InputRequiredResult`` (the call runs when it comes back answered).
        """
        if self.options.approve is not None:
            return auto_approver(self.options.approve, self.options.phrases)
        caps = ctx.session.client_capabilities
        if caps is not None and caps.elicitation is not None:
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                return _round_trip_approver(params)
            if ctx.session.can_send_request:
                return _elicit_approver(ctx)
        return no_confirmation(
            "this client cannot be asked (no elicitation) and the server has no approval "
            "policy (--approve)"
        )


def _overlay(base: SessionContext, own: SessionContext | None) -> SessionContext:
    """``base`` with a credential's own role, scenario and values on top."""
    if own is None:
        return base
    return SessionContext(own.role or base.role, own.scenario or base.scenario,
                          {**base.values, **own.values})  # fmt: skip


CONFIRM_INPUT = "studio/confirm"
"""The ``input_requests`` key of the confirmation asked in a 2026-07-28 round trip."""


class InputNeeded(Exception):
    """The call waits for the user's answer to ``request`` (2026-07-28 round trip)."""

    def __init__(self, request: types.ElicitRequest) -> None:
        super().__init__("input required")
        self.request = request


def _confirmation_form(request: ApprovalRequest) -> tuple[str, dict[str, Any]]:
    """The question and form for a risky call: a yes/no, or the phrase to type."""
    args = json.dumps(request.arguments, ensure_ascii=False)
    if request.phrase:
        message = (f"{request.tool} is destructive and cannot be undone. Arguments: {args}. "
                   f"Type {request.phrase!r} to run it.")  # fmt: skip
        return message, {
            "type": "object",
            "properties": {"phrase": {"type": "string", "title": "Confirmation phrase"}},
            "required": ["phrase"],
        }
    message = f"Run {request.tool} ({request.risk.value})? Arguments: {args}"
    return message, {
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "title": "Run it"}},
        "required": ["confirm"],
    }


def _decision(request: ApprovalRequest, answer: types.ElicitResult) -> ApprovalDecision:
    if answer.action != "accept":
        return ApprovalDecision(False, reason=f"the user chose {answer.action}")
    content = answer.content or {}
    if request.phrase:
        return ApprovalDecision(True, phrase=str(content.get("phrase", "")))
    if content.get("confirm") is True:
        return ApprovalDecision(True)
    return ApprovalDecision(False, reason="the user did not confirm")


def _elicit_approver(ctx: Any) -> Approver:
    """Ask the user with an ``elicitation/create`` request (2025-11-25 sessions)."""

    async def ask(request: ApprovalRequest) -> ApprovalDecision:
        message, schema = _confirmation_form(request)
        try:
            answer = await ctx.session.elicit_form(
                message, schema, related_request_id=ctx.request_id
            )
        except NoBackChannelError:
            return ApprovalDecision(False, reason="CONFIRM_REQUIRED: the client cannot be asked")
        return _decision(request, answer)

    return ask


def _round_trip_approver(params: types.CallToolRequestParams) -> Approver:
    """Decide from the answer the call came back with, else ask for it (2026-07-28).

    The first round records nothing: :class:`InputNeeded` leaves the call
    before it is written, and the retry (same tool, same arguments, the
    answer in ``input_responses``) runs and records the whole call.
    """

    async def ask(request: ApprovalRequest) -> ApprovalDecision:
        answer = (params.input_responses or {}).get(CONFIRM_INPUT)
        if isinstance(answer, types.ElicitResult):
            return _decision(request, answer)
        message, schema = _confirmation_form(request)
        form = types.ElicitRequestFormParams(message=message, requested_schema=schema)
        raise InputNeeded(types.ElicitRequest(params=form))

    return ask


def build_executors(
    store: RegistryStore, name: str, registry: Registry, mode: str
) -> tuple[Executor, dict[str, Executor]]:
    """The mock executor and the per-tool executors, as ``studio run`` configures them.

    Mocks are the registry's stored mock responses (the bundled examples' on
    first use); ``configured`` adds the http executor for the tools set to
    http in the Playground.

    Raises:
        ValueError: a mock spec or a configured HTTP target is invalid.
    """
    from registry_db.executors import ExecutorStore
    from studio.runtime import HttpExecutor
    from studio.runtime.http_targets import configured_targets
    from studio.runtime.mocks import example_mocks, parse_mocks

    sessions = SessionStore.for_store(store)
    specs = sessions.mock_specs(name)
    if not specs:
        document = example_mocks(name)
        if document is not None:
            specs = {"": document.get("context", {}), **document.get("tools", {})}
    mocks = parse_mocks({"tools": {k: v for k, v in specs.items() if k}})
    mock = MockExecutor(mocks.tools)
    if mode != "configured":
        return mock, {}
    settings = ExecutorStore.for_store(store).settings(name)
    choices = ((t.tool, t.executor, t.http) for t in settings.tools.values())
    targets = configured_targets(
        choices, {t.name: t for t in registry.tools}, settings.allowed_base_urls
    )
    if not targets:
        return mock, {}
    http = HttpExecutor(targets, list(settings.allowed_base_urls))
    return mock, dict.fromkeys(targets, http)


def mock_context(store: RegistryStore, name: str) -> SessionContext:
    """The suggested context stored with the registry's mocks (the examples' on first use)."""
    from studio.runtime.mocks import example_mocks

    specs = SessionStore.for_store(store).mock_specs(name)
    if not specs:
        document = example_mocks(name)
        specs = {"": document.get("context", {})} if document is not None else {}
    return SessionContext.from_dict(specs.get("", {}))


def call_result(
    served: ServedVersion, outcome: CallResult, structured_ok: bool = True
) -> types.CallToolResult:
    """The MCP result of a call: its content, and ``structuredContent`` when declared.

    A tool with an ``outputSchema`` returns its response body as
    ``structuredContent`` after checking it against the schema; a body that
    does not match is an ``isError`` result naming the mismatch.
    """
    schema = served.output_schemas.get(outcome.tool)
    structured = None
    result, content = outcome.result, outcome.content
    if schema is not None and outcome.ok:
        body = outcome.body
        problems = []
        if isinstance(body, dict):
            _, validator = validator_for(schema)
            problems = [e.message for e in validator.iter_errors(body)][:3]
        else:
            problems = [f"the result is {type(body).__name__}, not an object"]
        if problems:
            error = ToolError(
                "OUTPUT_SCHEMA_MISMATCH",
                f"{outcome.tool} answered with a result that does not match its output "
                f"schema: {'; '.join(problems)}",
                retryable=False,
                hint="Tell the user the tool returned malformed data; do not use it.",
            )
            result = error.to_result()
            content = result_content(result)
        else:
            structured = body
    ok = result.get("ok") is True
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=content)],
        structured_content=structured,
        is_error=not ok,
    )


def build_server(served: ServedRegistry, default_caller: Caller | None = None) -> Server[Any]:
    """The low-level MCP server for ``served``.

    Args:
        served: What is served and how calls run.
        default_caller: The caller when the transport sets none (stdio).
    """

    def caller() -> Caller:
        found = CURRENT_CALLER.get() or default_caller
        if found is None:
            raise MCPError(types.INVALID_REQUEST, "no caller identity for this request")
        return found

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return served.list_result(caller().subject)

    async def call_tool(
        ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        who = caller()
        client = ctx.session.client_params
        meta = {"client": client.client_info.name if client is not None else "",
                "protocol": ctx.protocol_version}  # fmt: skip
        session, number = await served.session_for_call(who, meta)
        turn = ""
        if ctx.meta is not None:
            raw = ctx.meta.get(TURN_META_KEY) if isinstance(ctx.meta, Mapping) else None
            turn = str(raw) if raw is not None else ""
        call_id = f"mcp_{ctx.request_id}_{session.calls + 1}" if ctx.request_id is not None else ""
        try:
            outcome = await session.call(
                params.name, params.arguments if params.arguments is not None else {},
                call_id=call_id, approver=served.approver(ctx, params), turn=turn,
            )  # fmt: skip
        except InputNeeded as needed:
            return types.InputRequiredResult(input_requests={CONFIRM_INPUT: needed.request})
        if not outcome.known_tool and outcome.result.get("error_code") == "UNKNOWN_TOOL":
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}",
                           data=outcome.result)  # fmt: skip
        return call_result(served.version(number), outcome)

    def input_schema(name: str) -> Mapping[str, Any] | None:
        # For the 2026-07-28 Mcp-Param header check: without it the SDK would render
        # the whole tools/list on every tools/call to find one schema.
        who = CURRENT_CALLER.get() or default_caller
        _, number = served.target(who.subject if who is not None else None)
        return served.version(number).input_schemas.get(name)

    def served_registry() -> Registry:
        who = CURRENT_CALLER.get() or default_caller
        _, number = served.target(who.subject if who is not None else None)
        return served.version(number).registry

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=skill_prompts(served_registry()))

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> Any:
        task = (params.arguments or {}).get("task", "")
        return skill_prompt(served_registry(), params.name, task)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=skill_resources(served_registry()))

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
        return read_skill_resource(served_registry(), params.uri)

    from studio import __version__ as studio_version

    server: Server[Any] = Server(
        f"studio-{served.name}",
        version=studio_version,
        title=f"{served.name} (Tool Registry Studio)",
        instructions=SYSTEM_FAULT_INSTRUCTION,
        get_tool_input_schema=input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        # Skills as prompts and resources (studio.mcp.skills): clients that support either see them.
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    server.middleware.append(ListingCache(server, served, caller))
    return server


class ListingCache:
    """``tools/list`` in its wire form, rendered once per version, era and channel.

    The SDK validates and re-serialises every result; for a 1,000-tool version
    that is tens of milliseconds per listing. A version is immutable, so its
    listing is rendered through the SDK's own serialiser once and then served
    as is: as a middleware (one that answers without ``call_next`` owns its
    result), and as bytes for the HTTP endpoint's fast path. A listing before
    the handshake, or with a cursor, takes the normal path.
    """

    def __init__(self, server: Server[Any], served: ServedRegistry, caller: Any) -> None:
        self.server = server
        self.served = served
        self.caller = caller
        self._wire: dict[tuple[Any, ...], tuple[dict[str, Any], bytes]] = {}

    def wire(self, version: str, subject: str | None) -> tuple[dict[str, Any], bytes]:
        """The result (and its JSON) a ``tools/list`` of protocol ``version`` gets."""
        result = self.served.list_result(subject)
        meta = result.meta or {}
        key = (version, meta.get("studio/version"), meta.get("studio/channel"))
        cached = self._wire.get(key)
        if cached is None:
            dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
            wire = mcp_methods.serialize_server_result("tools/list", version, dumped)
            if version in MODERN_PROTOCOL_VERSIONS:
                wire.setdefault("resultType", "complete")
                wire["_meta"] = {**wire.get("_meta", {}),
                                 SERVER_INFO_META_KEY: self.server.server_info_stamp}  # fmt: skip
            text = json.dumps(wire, ensure_ascii=False, separators=(",", ":"))
            cached = (wire, text.encode())
            self._wire[key] = cached
            server_heap.settle()
        return cached

    def wire_bytes(self, version: str, subject: str | None) -> bytes:
        return self.wire(version, subject)[1]

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/list" or (ctx.params or {}).get("cursor") is not None:
            return await call_next(ctx)
        version = ctx.protocol_version
        if version not in MODERN_PROTOCOL_VERSIONS and ctx.session.client_params is None:
            return await call_next(ctx)  # not initialised: the SDK refuses it
        return dict(self.wire(version, self.caller().subject)[0])


def listing_cache(server: Server[Any]) -> ListingCache:
    """The :class:`ListingCache` of a server made by :func:`build_server`."""
    return next(m for m in server.middleware if isinstance(m, ListingCache))


async def serve_stdio(served: ServedRegistry, caller: Caller) -> None:
    """Serve ``served`` over stdin/stdout until the client closes the pipe.

    The studio session ends with the connection: ``completed``, or
    ``interrupted`` when the client went away during a call.
    """
    from mcp.server.stdio import stdio_server

    server = build_server(served, caller)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    except* (BrokenPipeError, ConnectionResetError):
        pass  # the client went away; its session is closed below
    finally:
        served.close_all()
