"""The OpenAPI 3.1 description served at ``/openapi.json``."""

from __future__ import annotations

from functools import cache
from typing import Any

from studio.release.resolve import SERVING_FORMATS
from studio.server.outcomes import (
    MAX_BODY_BYTES,
    MAX_OUTCOMES,
    MAX_TEXT,
    MAX_VERSION,
    MAX_VERSION_DIGITS,
    RISKS,
    STATUSES,
)


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _json(ref: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


_NAME = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
_FORMAT = {
    "name": "format",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": list(SERVING_FORMATS), "default": "openai"},
}
_NOT_MODIFIED = {"description": "Not modified (If-None-Match matched the ETag)"}
_STORAGE = _error("Storage error, e.g. a stored version failed its hash check (nothing is served)")
_REQUIRED_TEXT = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
_OPTIONAL_TEXT = {"type": ["string", "null"], "maxLength": MAX_TEXT}


@cache
def openapi_document() -> dict[str, Any]:
    """The API description (built once)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tool Registry Studio serving API",
            "version": "1",
            "description": "Published tool registries for agent runtimes, with gray release.",
        },
        "paths": {
            "/healthz": {
                "get": {"summary": "Liveness", "responses": {"200": {"description": "OK"}}}
            },
            "/openapi.json": {
                "get": {"summary": "This document",
                        "responses": {"200": {"description": "The OpenAPI document"}}}
            },
            "/v1/registries/{name}/resolve": {
                "get": {
                    "summary": "The version a subject gets (stable, or canary by sticky bucket)",
                    "parameters": [
                        _NAME,
                        {"name": "subject", "in": "query", "required": False,
                         "schema": {"type": "string", "maxLength": 256},
                         "description": "User or session id; without one, stable."},
                        _FORMAT,
                        {"name": "role", "in": "query", "required": False,
                         "schema": {"type": "string", "maxLength": 256},
                         "description": "Send only the tools this role may call."},
                        {"name": "scenario", "in": "query", "required": False,
                         "schema": {"type": "string", "maxLength": 256},
                         "description": "Send only the tools this scenario may call."},
                        {"name": "restrict", "in": "query", "required": False,
                         "schema": {"type": "string", "enum": ["filter", "choice"]},
                         "description": "filter (default): only the permitted tools; choice: "
                         "every tool, the provider's allowed-tools choice restricted."},
                    ],
                    "responses": {
                        "200": _json("Resolution", "The resolution; ETag and Cache-Control set"),
                        "304": _NOT_MODIFIED,
                        "400": _error("Bad format or subject"),
                        "404": _error("No such registry, or nothing published"),
                        "500": _STORAGE,
                    },
                }
            },
            "/v1/registries/{name}/snapshot": {
                "get": {
                    "summary": "Every live channel with salt, share and tools, to resolve locally",
                    "parameters": [_NAME, _FORMAT],
                    "responses": {
                        "200": _json("Snapshot", "The snapshot; ETag set"),
                        "304": _NOT_MODIFIED,
                        "400": _error("Bad format"),
                        "404": _error("No such registry, or nothing published"),
                        "500": _STORAGE,
                    },
                }
            },
            "/v1/registries/{name}/versions/{number}": {
                "get": {
                    "summary": "One published version (immutable)",
                    "parameters": [
                        _NAME,
                        {"name": "number", "in": "path", "required": True,
                         "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999}},
                        _FORMAT,
                    ],
                    "responses": {
                        "200": _json("Version", "The version"),
                        "304": _NOT_MODIFIED,
                        "400": _error("Bad number or format"),
                        "404": _error("No such registry or version"),
                        "500": _STORAGE,
                    },
                }
            },
            "/v1/registries/{name}/versions/{number}/skills/{skill}": {"get": {
                "summary": "One skill of a version: body and file names (skills[].body)",
                "parameters": [_NAME, {"name": "number", "in": "path", "required": True,
                                       "schema": {"type": "integer", "minimum": 1}},
                               {"name": "skill", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"200": {"description": "The skill"}, "304": _NOT_MODIFIED,
                              "400": _error("Bad number"), "404": _error("No such skill"),
                              "500": _STORAGE},
            }},
            "/v1/outcomes": {
                "post": {
                    "summary": "Report tool-call outcomes (feeds the guard metrics)",
                    "security": [{"bearer": []}],
                    "requestBody": {
                        "required": True,
                        "description": f"One outcome, or a batch of up to {MAX_OUTCOMES}; "
                                       f"at most {MAX_BODY_BYTES} bytes (413 beyond, also "
                                       "for a chunked body), sent within the body timeout "
                                       "(408 after).",
                        "x-max-body-bytes": MAX_BODY_BYTES,
                        "content": {"application/json": {"schema": {"oneOf": [
                            {"$ref": "#/components/schemas/Outcome"},
                            {"type": "object", "required": ["outcomes"],
                             "additionalProperties": False,
                             "properties": {"outcomes": {
                                 "type": "array", "minItems": 1, "maxItems": MAX_OUTCOMES,
                                 "items": {"$ref": "#/components/schemas/Outcome"}}}},
                        ]}}},
                    },
                    "responses": {
                        "201": {"description": "Stored", "content": {"application/json": {
                            "schema": {"type": "object",
                                       "properties": {"accepted": {"type": "integer"}}}}}},
                        "400": _error("Malformed body"),
                        "401": _error("Missing or wrong bearer token"),
                        "403": _error("The server has no token: reporting is disabled"),
                        "408": _error("The body did not arrive within the body timeout"),
                        "413": _error(f"Body larger than {MAX_BODY_BYTES} bytes"),
                        "422": _error("Unknown registry, or a version it never published"),
                        "500": _error("Storage error"),
                    },
                }
            },
            **{path: {
                method: {
                    "summary": summary,
                    "description": "The registry served as an MCP server over streamable HTTP "
                                   "(the 2025-11-25 handshake and the 2026-07-28 revision): "
                                   "tools/list and tools/call through the runtime. Without "
                                   "version or channel, each caller is bucketed across the "
                                   "live channels by its subject.",
                    "security": [{"bearer": []}],
                    "parameters": [
                        {"name": "registry", "in": "path", "required": True,
                         "schema": {"type": "string"}},
                        {"name": "version", "in": "query",
                         "schema": {"type": "integer", "minimum": 1}},
                        {"name": "channel", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": {
                        "200": {"description": "JSON-RPC response (JSON or an SSE stream)"},
                        "400": _error("Bad version or channel"),
                        "401": _error("Missing or wrong bearer token (when the server has one)"),
                        "404": _error("No such registry, version or MCP session"),
                        "413": {"description": "Body larger than 1 MiB"},
                        "421": {"description": "Host not allowed (DNS-rebinding protection)"},
                    },
                }
                for method, summary in (
                    ("post", "Send an MCP request or notification"),
                    ("get", "Open the MCP server-to-client stream (2025-11-25 sessions)"),
                    ("delete", "End an MCP session (2025-11-25)"),
                )
            } for path in ("/mcp/{registry}", "/mcp/{registry}/mcp")},
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "additionalProperties": False,
                    "properties": {"error": {
                        "type": "object", "required": ["status", "message"],
                        "additionalProperties": False,
                        "properties": {"status": {"type": "integer"},
                                       "message": {"type": "string", "minLength": 1}}}},
                },
                "Resolution": {
                    "type": "object",
                    "properties": {
                        "registry": {"type": "string"},
                        "channel": {"type": "string"},
                        "version": {"type": "integer"},
                        "semver": {"type": ["string", "null"]},
                        "content_hash": {"type": "string"},
                        "format": {"type": "string"},
                        "tools": {"description": "The tools in the requested format"},
                        "audience": {
                            "type": "object",
                            "description": "With role/scenario: who the tools are for, the "
                            "permitted names (allowed) and the registry's tool count (of)",
                        },
                        "tool_choice": {"description": "restrict=choice, OpenAI formats"},
                        "toolConfig": {"description": "restrict=choice, Gemini"},
                        "skills": {"type": "array", "description": "The skill catalogue "
                                   "(name, description, allowed_tools, body: where to GET it)"},
                    },
                },
                "Version": {
                    "type": "object",
                    "properties": {
                        "registry": {"type": "string"}, "version": {"type": "integer"},
                        "semver": {"type": ["string", "null"]},
                        "content_hash": {"type": "string"},
                        "parent": {"type": ["integer", "null"]}, "notes": {"type": "string"},
                        "author": {"type": "string"}, "created_at": {"type": "string"},
                        "format": {"type": "string"}, "tools": {},
                    },
                },
                "Snapshot": {
                    "type": "object",
                    "properties": {
                        "registry": {"type": "string"}, "format": {"type": "string"},
                        "channels": {"type": "array", "items": {"type": "object", "properties": {
                            "name": {"type": "string"}, "version": {"type": "integer"},
                            "share": {"type": "integer"}, "salt": {"type": "string"},
                            "semver": {"type": ["string", "null"]},
                            "content_hash": {"type": "string"}, "tools": {}}}},
                    },
                },
                "Outcome": {
                    "type": "object",
                    "required": ["registry", "version", "tool", "status"],
                    "additionalProperties": False,
                    "properties": {
                        "registry": _REQUIRED_TEXT,
                        "version": {"oneOf": [
                            {"type": "integer", "minimum": 1, "maximum": MAX_VERSION},
                            {"type": "string", "pattern": "^0*[1-9][0-9]*$",
                             "maxLength": MAX_VERSION_DIGITS},
                        ], "description": "A published version of the registry (422 otherwise)"},
                        "tool": _REQUIRED_TEXT,
                        "status": {"type": "string", "enum": list(STATUSES)},
                        "error_code": _OPTIONAL_TEXT,
                        "latency_ms": {"type": "number", "minimum": 0},
                        "call_id": _OPTIONAL_TEXT,
                        "risk": {"type": ["string", "null"], "enum": ["", *RISKS, None]},
                        "idempotency_key": _OPTIONAL_TEXT,
                        "duplicate_of": {**_OPTIONAL_TEXT, "description":
                            "On a duplicate write attempt: the earlier call of the same "
                            "intent (idempotency key) that reached the tool"},
                    },
                },
            },
        },
    }  # fmt: skip
