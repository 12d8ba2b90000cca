"""Serving published registries to agent runtimes over HTTP (DESIGN §2, issue #6).

Starlette on uvicorn. Endpoints: ``GET /v1/registries/{name}/resolve``,
``GET /v1/registries/{name}/snapshot``, ``GET /v1/registries/{name}/versions/{n}``,
``POST /v1/outcomes`` (bearer token), ``GET /healthz`` and ``GET /openapi.json``.
"""

from studio.server.app import create_app
from studio.server.run import (
    DEFAULT_HOST,
    DEFAULT_LIMITS,
    DEFAULT_PORT,
    ServerLimits,
    ServerThread,
    bind_socket,
    read_token_file,
    serve,
)

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_LIMITS",
    "DEFAULT_PORT",
    "ServerLimits",
    "ServerThread",
    "bind_socket",
    "create_app",
    "read_token_file",
    "serve",
]
