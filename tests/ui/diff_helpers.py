"""A real SQLite store with order-service v1 and a draft that breaks two things."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

from registry_db import DeleteTool, RegistryStore, UpsertTool
from studio.contract import parse_registry

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "order-service.json"
TOOL = "update_order_status"


def edit_tool(store: RegistryStore, name: str, **fields: object) -> None:
    """Save a change of ``name``'s fields in the draft."""
    row = next(t for t in store.draft_tools("order-service") if t.tool.name == name)
    store.save_draft(
        "order-service", [UpsertTool(replace(row.tool, **fields), row.id, row.revision)]
    )


def seed_order_service(path: Path) -> RegistryStore:
    """order-service v1 (status has an enum), then nothing changed in the draft yet."""
    store = RegistryStore.open(path)
    store.import_registry(parse_registry(json.loads(EXAMPLE.read_text(encoding="utf-8"))))
    row = next(t for t in store.draft_tools("order-service") if t.tool.name == TOOL)
    params = copy.deepcopy(row.tool.parameters)
    params["properties"]["status"]["enum"] = ["pending", "paid", "shipped", "cancelled"]
    edit_tool(store, TOOL, parameters=params)
    store.publish("order-service", notes="first", semver="1.0.0", author="tester")
    return store


def break_the_draft(store: RegistryStore) -> None:
    """Remove enum value 'cancelled', add required 'reason', reword the description (CJK)."""
    row = next(t for t in store.draft_tools("order-service") if t.tool.name == TOOL)
    params = copy.deepcopy(row.tool.parameters)
    params["properties"]["status"]["enum"] = ["pending", "paid", "shipped"]
    params["properties"]["reason"] = {"type": "string", "description": "Why the status changes."}
    params["required"].append("reason")
    edit_tool(
        store, TOOL, parameters=params, description="Change the status of an order 更新订单状态."
    )


def rename_tool(store: RegistryStore, old: str, new: str) -> None:
    """Delete ``old`` and add a copy called ``new`` with a different summary."""
    row = next(t for t in store.draft_tools("order-service") if t.tool.name == old)
    store.save_draft(
        "order-service",
        [
            DeleteTool(row.id, row.revision),
            UpsertTool(replace(row.tool, name=new, description="Sends a message to someone.")),
        ],
    )
