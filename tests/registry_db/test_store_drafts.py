"""Draft edits: ordering, optimistic concurrency, duplicate names, replace and import."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from registry_db import (
    AlreadyExistsError,
    ConflictError,
    DeleteTool,
    DuplicateNameError,
    RegistryStore,
    UpsertTool,
)
from studio.contract import Registry, RegistrySettings, ToolContract

MakeTool = Callable[..., ToolContract]
NAMES = ["search_policy", "query_invoices", "query_tickets", "create_reimbursement_ticket"]


@pytest.fixture
def travel(store: RegistryStore, make_tool: MakeTool) -> RegistryStore:
    """A store whose ``travel`` registry has the four example tools, in order."""
    store.create_registry("travel", "Travel reimbursement")
    store.save_draft("travel", [UpsertTool(make_tool(n)) for n in NAMES])
    return store


def _names(store: RegistryStore) -> list[str]:
    return [d.tool.name for d in store.draft_tools("travel")]


def test_insert_appends_in_order_and_round_trips(travel: RegistryStore, make_tool: MakeTool):
    drafts = travel.draft_tools("travel")
    assert [d.tool.name for d in drafts] == NAMES
    assert [d.position for d in drafts] == [0, 1, 2, 3]
    assert all(d.revision == 1 for d in drafts)
    assert drafts[1].tool == make_tool("query_invoices")
    assert travel.get_registry("travel").draft_revision == 1


def test_save_result_lists_upserts_in_change_order(travel: RegistryStore, make_tool: MakeTool):
    first = travel.draft_tools("travel")[0]
    result = travel.save_draft(
        "travel",
        [
            UpsertTool(make_tool("get_budget")),
            DeleteTool(first.id, first.revision),
            UpsertTool(make_tool("search_policy_v2"), first.id + 1, 1),
        ],
    )
    assert result.draft_revision == 2
    assert [t.tool.name for t in result.tools] == ["get_budget", "search_policy_v2"]
    assert [t.revision for t in result.tools] == [1, 2]
    stored = {d.id: d for d in travel.draft_tools("travel")}
    for saved in result.tools:
        assert stored[saved.id] == saved


def test_positions_insert_and_move(travel: RegistryStore, make_tool: MakeTool) -> None:
    travel.save_draft("travel", [UpsertTool(make_tool("get_budget"), position=0)])
    assert _names(travel)[0] == "get_budget"
    last = travel.draft_tools("travel")[-1]
    travel.save_draft("travel", [UpsertTool(last.tool, last.id, last.revision, position=1)])
    assert _names(travel) == ["get_budget", "create_reimbursement_ticket", *NAMES[:3]]
    assert [d.position for d in travel.draft_tools("travel")] == [0, 1, 2, 3, 4]
    far = travel.save_draft("travel", [UpsertTool(make_tool("send_mail"), position=99)])
    assert far.tools[0].position == 5


def test_moving_a_tool_leaves_other_revisions_alone(travel: RegistryStore) -> None:
    last = travel.draft_tools("travel")[-1]
    travel.save_draft("travel", [UpsertTool(last.tool, last.id, last.revision, position=0)])
    revisions = {d.tool.name: d.revision for d in travel.draft_tools("travel")}
    assert revisions == {**dict.fromkeys(NAMES, 1), "create_reimbursement_ticket": 2}


def test_stale_edit_from_another_store_is_refused(
    travel: RegistryStore, other_store: RegistryStore, make_tool: MakeTool
) -> None:
    mine = travel.draft_tools("travel")[1]
    theirs = other_store.draft_tools("travel")[1]
    other_store.save_draft(
        "travel", [UpsertTool(make_tool("query_invoices", title="Theirs"), theirs.id, 1)]
    )
    with pytest.raises(ConflictError) as caught:
        travel.save_draft(
            "travel", [UpsertTool(make_tool("query_invoices", title="Mine"), mine.id, 1)]
        )
    assert str(caught.value) == (
        "query_invoices was changed elsewhere (revision 2, your edit was based on 1);"
        " reload before saving"
    )
    assert (caught.value.tool_id, caught.value.stored_revision) == (mine.id, 2)
    assert travel.draft_tools("travel")[1].tool.title == "Theirs"


def test_conflict_writes_nothing_of_the_save(travel: RegistryStore, make_tool: MakeTool):
    drafts = travel.draft_tools("travel")
    before = travel.get_registry("travel").draft_revision
    with pytest.raises(ConflictError):
        travel.save_draft(
            "travel",
            [
                UpsertTool(make_tool("get_budget")),
                DeleteTool(drafts[0].id, drafts[0].revision),
                UpsertTool(make_tool("query_tickets", title="x"), drafts[2].id, 7),
            ],
        )
    assert travel.draft_tools("travel") == drafts
    assert travel.get_registry("travel").draft_revision == before


def test_delete_conflicts(
    travel: RegistryStore, other_store: RegistryStore, make_tool: MakeTool
) -> None:
    target = travel.draft_tools("travel")[2]
    other_store.save_draft(
        "travel", [UpsertTool(make_tool("query_tickets", usage="u"), target.id, 1)]
    )
    with pytest.raises(ConflictError, match="query_tickets was changed elsewhere"):
        travel.save_draft("travel", [DeleteTool(target.id, target.revision)])
    other_store.save_draft("travel", [DeleteTool(target.id, 2)])
    with pytest.raises(ConflictError, match=f"tool #{target.id} was deleted elsewhere"):
        travel.save_draft("travel", [DeleteTool(target.id, 2)])
    with pytest.raises(ConflictError, match="query_tickets was deleted elsewhere") as caught:
        travel.save_draft("travel", [UpsertTool(target.tool, target.id, 2)])
    assert caught.value.stored_revision is None


def test_base_draft_revision_detects_additions_elsewhere(
    travel: RegistryStore, other_store: RegistryStore, make_tool: MakeTool
) -> None:
    seen = travel.get_registry("travel").draft_revision
    other_store.save_draft("travel", [UpsertTool(make_tool("get_budget"))])
    with pytest.raises(ConflictError, match="registry travel was changed elsewhere"):
        travel.save_draft("travel", [UpsertTool(make_tool("send_mail"))], base_draft_revision=seen)
    result = travel.save_draft(
        "travel", [UpsertTool(make_tool("send_mail"))], base_draft_revision=seen + 1
    )
    assert result.draft_revision == seen + 2


def test_edit_without_base_revision_or_twice_is_a_programming_error(
    travel: RegistryStore,
) -> None:
    first = travel.draft_tools("travel")[0]
    with pytest.raises(ValueError, match="base_revision"):
        travel.save_draft("travel", [UpsertTool(first.tool, first.id)])
    with pytest.raises(ValueError, match="twice"):
        travel.save_draft("travel", [UpsertTool(first.tool, first.id, 1), DeleteTool(first.id, 1)])


def test_duplicate_names_are_refused(travel: RegistryStore, make_tool: MakeTool) -> None:
    with pytest.raises(DuplicateNameError, match="two tools named 'query_tickets'"):
        travel.save_draft("travel", [UpsertTool(make_tool("query_tickets"))])
    first = travel.draft_tools("travel")[0]
    with pytest.raises(DuplicateNameError):
        travel.save_draft("travel", [UpsertTool(make_tool("query_invoices"), first.id, 1)])
    assert _names(travel) == NAMES


def test_names_can_be_swapped_and_freed_in_one_save(
    travel: RegistryStore, make_tool: MakeTool
) -> None:
    a, b, c, _ = travel.draft_tools("travel")
    travel.save_draft(
        "travel",
        [
            UpsertTool(make_tool(b.tool.name), a.id, 1),
            UpsertTool(make_tool(a.tool.name), b.id, 1),
            DeleteTool(c.id, 1),
            UpsertTool(make_tool(c.tool.name, title="reborn")),
        ],
    )
    assert _names(travel) == [NAMES[1], NAMES[0], NAMES[3], NAMES[2]]


def test_empty_save_changes_nothing(travel: RegistryStore) -> None:
    assert travel.save_draft("travel", []).draft_revision == 1
    assert travel.get_registry("travel").draft_revision == 1


def test_replace_draft_keeps_ids_of_unchanged_tools(travel: RegistryStore, make_tool: MakeTool):
    before = {d.tool.name: d for d in travel.draft_tools("travel")}
    new = Registry(
        name="ignored",
        title="T2",
        description="D2",
        settings=RegistrySettings(verbs=("query",)),
        tools=(make_tool("query_tickets"), make_tool("search_policy", usage="new"), make_tool("x")),
    )
    travel.replace_draft("travel", new)
    drafts = travel.draft_tools("travel")
    assert [d.tool for d in drafts] == list(new.tools)
    assert drafts[0].id == before["query_tickets"].id and drafts[0].revision == 1
    assert drafts[1].id == before["search_policy"].id and drafts[1].revision == 2
    info = travel.get_registry("travel")
    assert (info.title, info.description, info.settings) == ("T2", "D2", new.settings)
    assert info.draft_revision == 2
    assert travel.draft_registry("travel") == Registry(
        "travel", "T2", "D2", new.settings, new.tools
    )


def test_replace_draft_with_duplicates_changes_nothing(
    travel: RegistryStore, make_tool: MakeTool
) -> None:
    before = travel.draft_registry("travel")
    bad = Registry(name="travel", title="Bad", tools=(make_tool("x"), make_tool("x")))
    with pytest.raises(DuplicateNameError):
        travel.replace_draft("travel", bad)
    assert travel.draft_registry("travel") == before


def test_import_new_and_replace(travel: RegistryStore, make_tool: MakeTool) -> None:
    orders = Registry(name="orders", title="Orders", tools=(make_tool("get_order"),))
    info = travel.import_registry(orders)
    assert (info.name, info.tool_count, info.draft_revision) == ("orders", 1, 1)
    assert travel.draft_registry("orders") == orders

    published = travel.publish("travel")
    again = Registry(name="travel", title="Imported", tools=(make_tool("query_invoices"),))
    with pytest.raises(AlreadyExistsError):
        travel.import_registry(again)
    assert _names(travel) == NAMES
    info = travel.import_registry(again, replace_draft=True)
    assert (info.title, info.tool_count, info.version_count) == ("Imported", 1, 1)
    assert travel.draft_registry("travel") == again
    kept = travel.load_version("travel", 1)
    assert kept.info == published
    assert [t.name for t in kept.registry.tools] == NAMES
