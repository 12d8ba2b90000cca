"""A small client for agent runtimes: which tools does this subject get?

Two ways to resolve, with the same answer:

- against the server (``StudioClient.resolve``), which caches each response by
  its ETag and revalidates with ``If-None-Match`` (a 304 reuses the cache);
- locally from a :class:`Snapshot` (every live channel with its salt, share
  and tools, from ``GET /v1/registries/{name}/snapshot``), using the same
  bucketing as the server, so no request per session is needed.

Example::

    with StudioClient("http://127.0.0.1:8765", token=token) as client:
        tools = client.resolve("travel-reimbursement", subject=user_id).tools
        snapshot = client.snapshot("travel-reimbursement", fmt="anthropic")
        tools = snapshot.resolve(user_id).tools  # no request
        client.report([{"registry": ..., "version": 3, "tool": ..., "status": "ok"}])
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from studio.release.channels import choose_channel


class ClientError(Exception):
    """The server refused a request (``status``) or could not be reached (status 0)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}" if status else message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class ClientResolution:
    """The version a subject gets, with its tools in the requested format."""

    registry: str
    channel: str
    version: int
    semver: str | None
    content_hash: str
    format: str
    tools: Any

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> ClientResolution:
        """From the resolve endpoint's JSON body."""
        return cls(doc["registry"], doc["channel"], int(doc["version"]), doc.get("semver"),
                   doc["content_hash"], doc["format"], doc["tools"])  # fmt: skip


@dataclass(frozen=True, slots=True)
class SnapshotChannel:
    """One live channel of a snapshot."""

    name: str
    version: int | None
    share: int
    salt: str
    semver: str | None
    content_hash: str
    tools: Any


@dataclass(frozen=True, slots=True)
class Snapshot:
    """All a runtime needs to resolve subjects without asking the server."""

    registry: str
    format: str
    channels: tuple[SnapshotChannel, ...]

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Snapshot:
        """From the snapshot endpoint's JSON body."""
        channels = tuple(
            SnapshotChannel(
                c["name"],
                c["version"],
                int(c["share"]),
                c["salt"],
                c.get("semver"),
                c["content_hash"],
                c["tools"],
            )
            for c in doc["channels"]
        )
        return cls(doc["registry"], doc["format"], channels)

    def resolve(self, subject: str | None = None) -> ClientResolution:
        """The channel and tools for ``subject``, exactly as the server would choose."""
        name = choose_channel(self.channels, subject)
        chosen = next(c for c in self.channels if c.name == name)
        assert chosen.version is not None
        return ClientResolution(self.registry, chosen.name, chosen.version, chosen.semver,
                                chosen.content_hash, self.format, chosen.tools)  # fmt: skip


class StudioClient:
    """Resolve registries and report outcomes against a ``studio serve`` server.

    Args:
        base_url: The server's URL, e.g. ``http://127.0.0.1:8765``.
        token: Bearer token for :meth:`report`.
        http: An httpx client to use (tests inject one); closed by :meth:`close`
            only when the client created it.
        timeout: Seconds per request for a client created here.
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        http: httpx.Client | None = None,
        timeout: float = 5.0,
    ) -> None:
        self._own = http is None
        self._http = http or httpx.Client(base_url=base_url, timeout=timeout)
        self._base = base_url.rstrip("/")
        self._token = token
        self._etags: dict[str, tuple[str, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self.not_modified = 0
        """How many responses were 304 and came from the cache (for callers' metrics)."""

    def close(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._own:
            self._http.close()

    def __enter__(self) -> StudioClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _get(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        url = f"{self._base}{path}"
        key = str(httpx.URL(url, params=params))
        with self._lock:
            cached = self._etags.get(key)
        headers = {"If-None-Match": cached[0]} if cached else {}
        try:
            response = self._http.get(url, params=params, headers=headers)
        except httpx.HTTPError as exc:
            raise ClientError(0, f"{url}: {exc}") from exc
        if response.status_code == 304 and cached is not None:
            with self._lock:
                self.not_modified += 1
            return cached[1]
        data = self._json(response)
        etag = response.headers.get("etag")
        if etag:
            with self._lock:
                self._etags[key] = (etag, data)
        return data

    @staticmethod
    def _json(response: httpx.Response) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.status_code >= 400 or not isinstance(data, dict):
            message = response.text[:200]
            if isinstance(data, dict) and isinstance(data.get("error"), dict):
                message = str(data["error"].get("message", message))
            raise ClientError(response.status_code, message)
        return data

    def resolve(
        self, registry: str, subject: str | None = None, fmt: str = "openai"
    ) -> ClientResolution:
        """Ask the server which version ``subject`` gets (cached by ETag)."""
        params = {"format": fmt}
        if subject:
            params["subject"] = subject
        doc = self._get(f"/v1/registries/{quote(registry, safe='')}/resolve", params)
        return ClientResolution.from_document(doc)

    def snapshot(self, registry: str, fmt: str = "openai") -> Snapshot:
        """Fetch a snapshot to resolve locally (cached by ETag)."""
        doc = self._get(f"/v1/registries/{quote(registry, safe='')}/snapshot", {"format": fmt})
        return Snapshot.from_document(doc)

    def version(self, registry: str, number: int, fmt: str = "openai") -> dict[str, Any]:
        """One published version's metadata and tools (cached by ETag)."""
        path = f"/v1/registries/{quote(registry, safe='')}/versions/{int(number)}"
        return self._get(path, {"format": fmt})

    def report(self, outcomes: Sequence[Mapping[str, Any]]) -> int:
        """Send tool-call outcomes; returns how many the server stored."""
        if not self._token:
            raise ClientError(0, "reporting outcomes needs the server's bearer token")
        try:
            response = self._http.post(
                f"{self._base}/v1/outcomes",
                json={"outcomes": [dict(o) for o in outcomes]},
                headers={"Authorization": f"Bearer {self._token}"},
            )
        except httpx.HTTPError as exc:
            raise ClientError(0, f"{self._base}: {exc}") from exc
        return int(self._json(response).get("accepted", 0))
