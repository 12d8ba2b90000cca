"""Export then import, for every format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.contract import Registry, RiskTier, registry_hash, render_description, tool_to_dict
from studio.formats import FormatError, export_registry, import_path, import_text, write_export
from studio.formats.schema import clean_schema

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")
EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "travel-reimbursement.json"


def _without(schema: Any, keys: set[str]) -> Any:
    """``schema`` minus keywords Gemini cannot express (names under properties kept)."""
    if isinstance(schema, dict):
        return {
            k: (
                {n: _without(s, keys) for n, s in v.items()}
                if k == "properties"
                else _without(v, keys)
            )
            for k, v in schema.items()
            if k not in keys
        }
    return schema


def _expected_schema(params: dict, fmt: str) -> dict:
    cleaned, _ = clean_schema(params)
    if fmt == "gemini":
        return _without(cleaned, {"additionalProperties", "exclusiveMinimum"})
    return cleaned


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_provider_round_trip_keeps_names_schemas_and_rendered_text(travel: Registry, fmt: str):
    exported = export_registry(travel, fmt)
    back = import_text(exported.text, name="again")

    assert back.format == fmt
    assert back.registry.name == "again"
    assert [t.name for t in back.registry.tools] == [t.name for t in travel.tools]
    for original, imported in zip(travel.tools, back.registry.tools, strict=True):
        assert imported.parameters == _expected_schema(original.parameters, fmt)
        assert imported.description == render_description(
            original, travel.settings.description_template
        )
        assert not imported.has_blocks()


@pytest.mark.parametrize("fmt", PROVIDERS)
def test_provider_round_trip_of_cjk_registry(cjk_registry: Registry, fmt: str):
    back = import_text(export_registry(cjk_registry, fmt).text)
    tool = back.registry.tools[0]
    assert tool.description == "按客户编号查询客户信息。不要用于查询发票。"
    assert list(tool.parameters["properties"]) == ["客户编号", "城市"]


def test_exports_are_readable_utf8_json(cjk_registry: Registry):
    text = export_registry(cjk_registry, "openai").text
    assert "客户编号" in text  # ensure_ascii=False
    assert text.endswith("\n")
    assert json.loads(text)[0]["function"]["name"] == "query_customer"


def test_mcp_round_trip_restores_risk_and_title(travel: Registry):
    back = import_text(export_registry(travel, "mcp").text).registry
    assert [t.risk for t in back.tools] == [t.risk for t in travel.tools]
    assert back.tool("create_reimbursement_ticket").title == "File a reimbursement claim"
    assert back.tool("create_reimbursement_ticket").execution.idempotency.required


def test_other_providers_guess_the_risk_tier_from_the_verb(travel: Registry):
    back = import_text(export_registry(travel, "openai").text).registry
    assert [t.risk for t in back.tools] == [t.risk for t in travel.tools]
    assert RiskTier.WRITE in {t.risk for t in back.tools}  # not everything read


@pytest.mark.parametrize("fixture", ["travel", "cjk_registry"])
def test_studio_round_trip_keeps_the_hash(fixture: str, request: pytest.FixtureRequest):
    registry: Registry = request.getfixturevalue(fixture)
    exported = export_registry(registry, "studio")
    assert exported.notes == []
    back = import_text(exported.text)
    assert back.format == "studio"
    assert registry_hash(back.registry) == registry_hash(registry)


def test_studio_round_trip_of_the_shipped_example(tmp_path: Path):
    original = import_path(EXAMPLE).registry
    out = tmp_path / "again.json"
    write_export(export_registry(original, "studio"), out)
    assert registry_hash(import_path(out).registry) == registry_hash(original)


@pytest.mark.parametrize("fixture", ["travel", "cjk_registry"])
def test_dir_round_trip_keeps_the_hash(fixture: str, request: pytest.FixtureRequest, tmp_path):
    registry: Registry = request.getfixturevalue(fixture)
    out = tmp_path / "reg"
    write_export(export_registry(registry, "dir"), out)
    back = import_path(out)
    assert back.format == "dir"
    assert back.registry.name == registry.name
    assert registry_hash(back.registry) == registry_hash(registry)


def test_dir_layout_is_git_friendly(travel: Registry, tmp_path: Path):
    result = export_registry(travel, "dir")
    assert result.text is None
    assert sorted(result.files) == sorted(
        ["registry.json"] + [f"tools/{t.name}.json" for t in travel.tools]
    )
    write_export(result, tmp_path / "reg")
    raw = (tmp_path / "reg" / "tools" / "query_invoices.json").read_bytes()
    assert raw.endswith(b"}\n") and b"\r\n" not in raw
    doc = json.loads(raw)
    assert list(doc) == list(tool_to_dict(travel.tools[1]))
    assert raw.decode() == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    manifest = json.loads((tmp_path / "reg" / "registry.json").read_text("utf-8"))
    assert manifest["tools"] == [t.name for t in travel.tools]


def test_dir_re_export_removes_files_of_deleted_tools(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    write_export(export_registry(travel, "dir"), out)
    (out / "README.md").write_text("kept")
    smaller = Registry(name=travel.name, tools=travel.tools[:2])
    write_export(export_registry(smaller, "dir"), out)
    assert sorted(p.name for p in (out / "tools").iterdir()) == [
        "query_invoices.json",
        "search_policy.json",
    ]
    assert (out / "README.md").read_text() == "kept"
    assert registry_hash(import_path(out).registry) == registry_hash(smaller)


def test_dir_export_is_byte_stable(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    write_export(export_registry(travel, "dir"), out)
    first = {p: p.read_bytes() for p in out.rglob("*.json")}
    write_export(export_registry(import_path(out).registry, "dir"), out)
    assert {p: p.read_bytes() for p in out.rglob("*.json")} == first


def test_dir_refuses_a_foreign_non_empty_folder(travel: Registry, tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FormatError, match="not a registry folder"):
        write_export(export_registry(travel, "dir"), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_dir_import_names_the_file_with_a_problem(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    write_export(export_registry(travel, "dir"), out)
    path = out / "tools" / "query_tickets.json"
    doc = json.loads(path.read_text("utf-8"))
    doc["parameters"]["properties"]["ticket_id"]["type"] = "date"
    path.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(FormatError) as info:
        import_path(out)
    assert "tools/query_tickets.json: parameters.properties.ticket_id.type" in str(info.value)
    assert info.value.problems[0].path == "tools[2].parameters.properties.ticket_id.type"


def test_dir_import_notes_unlisted_tool_files(travel: Registry, tmp_path: Path):
    out = tmp_path / "reg"
    write_export(export_registry(travel, "dir"), out)
    (out / "tools" / "stray.json").write_text("{}")
    notes = import_path(out).notes
    assert [(n.path, n.kind) for n in notes] == [("tools/stray.json", "lost")]


def test_text_export_writes_a_file(travel: Registry, tmp_path: Path):
    out = tmp_path / "sub" / "tools.json"
    write_export(export_registry(travel, "anthropic"), out)
    assert json.loads(out.read_text("utf-8"))[0]["name"] == "search_policy"
