"""Child process of test_crash_safety: edits and publishes until it is killed.

Usage: ``python crash_child.py DB_PATH SEED``. Prints ``ready`` once the store
is open. Every draft change stamps *all* tools with the same marker, the
registry's draft revision after the change (``m<revision>`` in the title), and
keeps the tool count at :data:`TOOL_COUNT`, so a half-applied change is visible.
"""

from __future__ import annotations

import random
import sys

from registry_db import DeleteTool, RegistryStore, UpsertTool
from studio.contract import Registry, ToolContract

REGISTRY = "crash"
TOOL_COUNT = 40


def make_tool(name: str, marker: int) -> ToolContract:
    """A tool of some bulk, so that transactions take long enough to be interrupted."""
    properties = {
        f"field_{i}": {"type": "string", "description": f"Field {i} of {name}. " * 4}
        for i in range(12)
    }
    return ToolContract(
        name=name,
        title=f"m{marker}",
        summary=f"Tool {name} stamped with marker {marker}.",
        parameters={"type": "object", "properties": properties},
    )


def edit_once(store: RegistryStore, rng: random.Random, serial: int) -> None:
    """One multi-tool change: a save (update all, delete one, add one) or a full replace."""
    info = store.get_registry(REGISTRY)
    marker = info.draft_revision + 1
    drafts = store.draft_tools(REGISTRY)
    if len(drafts) != TOOL_COUNT or rng.random() < 0.2:
        tools = tuple(make_tool(f"query_t{serial}_{i}", marker) for i in range(TOOL_COUNT))
        store.replace_draft(
            REGISTRY, Registry(name=REGISTRY, tools=tools), base_draft_revision=marker - 1
        )
        return
    victim = rng.randrange(len(drafts))
    changes: list[UpsertTool | DeleteTool] = []
    for index, draft in enumerate(drafts):
        if index == victim:
            changes.append(DeleteTool(draft.id, draft.revision))
        else:
            tool = make_tool(draft.tool.name, marker)
            changes.append(UpsertTool(tool, draft.id, draft.revision))
    changes.append(UpsertTool(make_tool(f"query_n{serial}", marker), position=victim))
    store.save_draft(REGISTRY, changes, base_draft_revision=marker - 1)


def main(db_path: str, seed: int) -> None:
    """Edit and publish in a loop until killed."""
    rng = random.Random(seed)
    store = RegistryStore.open(db_path)
    print("ready", flush=True)
    serial = seed * 1_000_000
    while True:
        serial += 1
        if rng.random() < 0.25:
            store.publish(REGISTRY, notes=f"publish {serial}")
        else:
            edit_once(store, rng, serial)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
