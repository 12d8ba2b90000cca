"""OpenAPI import: risk from guess_risk(method=…), and notes grouped per operation (#17)."""

from __future__ import annotations

import json

from studio.formats.base import Note
from studio.formats.openapi import group_notes, import_openapi_text

DOC = {
    "openapi": "3.1.0",
    "info": {"title": "Claims", "version": "1"},
    "servers": [{"url": "https://claims.example.com/v1"}],
    "paths": {
        "/claims": {
            "get": {"operationId": "listClaims", "summary": "List claims",
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": {"type": "array"}}}}}},
            "post": {"operationId": "createClaim", "summary": "File a claim",
                     "parameters": [{"name": "sid", "in": "cookie",
                                     "schema": {"type": "string"}}],
                     "responses": {"201": {"description": "made"}}},
        },
        "/claims/{id}": {
            "delete": {"operationId": "deleteClaim", "summary": "删除报销单",
                       "parameters": [{"name": "id", "in": "path", "required": True,
                                       "schema": {"type": "string"}}],
                       "responses": {"204": {"description": "gone"}}},
        },
    },
    "webhooks": {"claimFiled": {"post": {"responses": {"200": {"description": "ok"}}}}},
}  # fmt: skip


def test_risk_is_guessed_from_the_method_with_the_shared_note() -> None:
    imported = import_openapi_text(json.dumps(DOC), "claims.json")
    risks = {t.name: t.risk.value for t in imported.result.registry.tools}
    assert risks == {"list_claims": "read", "create_claim": "write", "delete_claim": "destructive"}
    notes = [str(n) for n in imported.result.notes]
    assert any("'destructive' guessed from the HTTP method DELETE" in n for n in notes)


def test_notes_come_grouped_per_operation() -> None:
    imported = import_openapi_text(json.dumps(DOC), "claims.json")
    groups = imported.notes_by_operation()
    assert list(groups) == [
        "", "paths['/claims'].get", "paths['/claims'].post", "paths['/claims/{id}'].delete",
    ]  # fmt: skip
    assert any("webhooks" in n.path for n in groups[""])
    post = [n.message for n in groups["paths['/claims'].post"]]
    assert any("cookie" in m for m in post) and any("guessed from" in m for m in post)
    # The flat list reads the same way: each operation's notes are contiguous.
    order = [k for k, v in groups.items() for _ in v]
    flat = [
        next(k for k, v in groups.items() if any(n is m for m in v)) for n in imported.result.notes
    ]
    assert flat == order


def test_group_notes_keeps_a_path_with_dots_apart() -> None:
    ops = ["paths['/a.b'].get", "paths['/a'].get"]
    notes = [
        Note("paths['/a'].get.parameters[0]", "x", "info"),
        Note("paths['/a.b'].get", "y", "info"),
        Note("servers", "z", "lost"),
    ]
    groups = group_notes(notes, ops)
    assert [n.message for n in groups["paths['/a.b'].get"]] == ["y"]
    assert [n.message for n in groups["paths['/a'].get"]] == ["x"]
    assert [n.message for n in groups[""]] == ["z"]
