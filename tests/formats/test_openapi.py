"""OpenAPI import (issue #17): real public documents become contracts and HTTP targets."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import pytest

from registry_db import RegistryStore
from registry_db.executors import ExecutorStore
from studio.cli import main
from studio.formats import FormatError, files, import_path, import_text, openapi_load
from studio.formats.openapi import (
    ImportOptions,
    import_openapi,
    import_openapi_text,
    list_operations,
    read_document,
    snake,
)
from studio.lint import lint_registry
from studio.lint.config import LintConfig
from studio.lint.model import all_rules
from studio.runtime.http_targets import check_target, target_from_dict

DATA = Path(__file__).parent.parent / "data" / "openapi"
DOCUMENTS = sorted(p.name for p in DATA.iterdir() if p.suffix in (".json", ".yaml"))


@functools.cache
def _document(name: str) -> dict:
    """The parsed document (parsing Okta's 2 MB of YAML once, not in every test)."""
    return read_document(files.read_text(DATA / name, name), name)


def load(name: str, **options):
    # A deep copy: the importer must not see what another test's import did to it.
    document = copy.deepcopy(_document(name))
    return import_openapi(document, name, options=ImportOptions(**options) if options else None)


def tools_by_name(imported):
    return {t.name: t for t in imported.result.registry.tools}


def test_petstore_30_operations_become_contracts_with_targets() -> None:
    imported = load("petstore-3.0.yaml")
    tools = tools_by_name(imported)
    assert list(tools) == ["list_pets", "create_pets", "show_pet_by_id"]
    show = tools["show_pet_by_id"]
    assert show.summary == "Info for a specific pet"
    assert show.parameters["required"] == ["petId"]
    assert show.risk.value == "read" and tools["create_pets"].risk.value == "write"
    assert show.meta["openapi"] == {"operationId": "showPetById", "method": "GET",
                                    "path": "/pets/{petId}"}  # fmt: skip
    assert imported.targets["show_pet_by_id"] == {
        "method": "GET", "url": "http://petstore.swagger.io/v1/pets/{petId}", "headers": {}
    }  # fmt: skip
    assert imported.targets["list_pets"]["url"].endswith("/pets?limit={limit}")
    assert imported.targets["create_pets"]["body"] == {"id": "{id}", "name": "{name}",
                                                       "tag": "{tag}"}  # fmt: skip
    assert imported.allowed_base_urls == ["http://petstore.swagger.io/v1"]
    assert tools["list_pets"].parameters["properties"]["limit"]["maximum"] == 100
    notes = [str(n) for n in imported.result.notes]
    assert any("'showPetById' imported as 'show_pet_by_id'" in n for n in notes)
    assert any("[guessed]" in n and "'write' guessed from the HTTP method POST" in n for n in notes)
    assert any("response is array" in n for n in notes)


def test_petstore_expanded_merges_all_of_and_keeps_the_object_response() -> None:
    imported = load("petstore-expanded-3.0.json")
    tools = tools_by_name(imported)
    assert set(tools) == {"find_pets", "add_pet", "find_pet_by_id", "delete_pet"}
    assert tools["delete_pet"].risk.value == "destructive"
    # Pet is allOf [NewPet, {id}]: one plain object for the model.
    out = tools["find_pet_by_id"].output_schema
    assert out is not None and out["type"] == "object" and "allOf" not in out
    assert {"id", "name", "tag"} <= set(out["properties"])
    assert imported.targets["find_pets"]["url"].endswith("/pets?tags={tags}&limit={limit}")


def test_openapi_31_document_with_security_schemes_and_path_parameters() -> None:
    imported = load("tictactoe-3.1.yaml")
    tools = tools_by_name(imported)
    assert "get_square" in tools and "put_square" in tools
    put = tools["put_square"]
    assert set(put.parameters["properties"]) >= {"row", "column"}
    target = imported.targets["put_square"]
    assert target["url"] == "/board/{row}/{column}" and target["method"] == "PUT"
    assert target["headers"] == {
        "progressUrl": "{progressUrl}",  # a header parameter
        "Authorization": "Bearer {env:TIC_TAC_TOE_BEARER_HTTP_AUTHENTICATION}",
    }
    assert imported.targets["get_board"]["headers"] == {
        "api-key": "{env:TIC_TAC_TOE_DEFAULT_API_KEY}"
    }
    assert any("relative" in n.message for n in imported.result.notes)


def test_webhooks_and_callbacks_are_noted_lost() -> None:
    hooks = load("webhook-example-3.1.json")
    assert hooks.result.registry.tools == ()
    assert any(n.path == "webhooks" and n.kind == "lost" for n in hooks.result.notes)
    callbacks = load("callback-example-3.0.yaml")
    assert any("callback" in n.message and n.kind == "lost" for n in callbacks.result.notes)


def test_twilio_form_bodies_and_basic_auth() -> None:
    imported = load("twilio_verify_v2.json")
    assert len(imported.result.registry.tools) == 57
    create = imported.targets["create_verification"]
    assert create["method"] == "POST"
    assert create["url"] == "https://verify.twilio.com/v2/Services/{ServiceSid}/Verifications"
    assert create["headers"]["Authorization"].startswith("Basic {env:")
    assert create["body"]["To"] == "{To}"
    assert any("form-urlencoded" in n.message and n.kind == "guessed"
               for n in imported.result.notes)  # fmt: skip


def test_a_large_document_imports_every_operation() -> None:
    imported = load("okta-management-2026.06.2.yaml")
    registry = imported.result.registry
    assert len(registry.tools) == 732
    assert len(imported.targets) == 732
    assert imported.allowed_base_urls == ["https://subdomain.okta.com"]
    tools = tools_by_name(imported)
    for name, stored in imported.targets.items():
        problems = check_target(target_from_dict(stored), tools[name], imported.allowed_base_urls)
        assert not [p for p in problems if p.severity == "error"], (name, problems)
        for value in stored["headers"].values():
            assert "{env:" in value or value.startswith("{"), (name, value)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_imported_registry_lints_without_schema_errors(name: str) -> None:
    # Only the schema rules run: the others (similar pairs among Okta's 732
    # tools above all) say nothing about the import and took most of the time.
    others = frozenset(r.id for r in all_rules() if not r.id.startswith("schema"))
    report = lint_registry(load(name).result.registry, config=LintConfig(disabled=others))
    errors = [f for f in report.findings
              if f.rule_id.startswith("schema") and f.severity == "error"]  # fmt: skip
    assert errors == []


def test_filters_tags_paths_and_deprecated() -> None:
    assert len(load("okta-management-2026.06.2.yaml", include_tags=("Application",))
               .result.registry.tools) == 7  # fmt: skip
    pets = load("petstore-expanded-3.0.json", include_paths=("/pets/*",)).result.registry
    assert {t.name for t in pets.tools} == {"find_pet_by_id", "delete_pet"}
    text = json.dumps({
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "getA", "deprecated": True, "responses": {}},
                         "post": {"operationId": "postA", "responses": {}}}},
    })  # fmt: skip
    kept = import_openapi_text(text, "t.json", options=ImportOptions(exclude_deprecated=True))
    assert [t.name for t in kept.result.registry.tools] == ["post_a"]
    ops = list_operations(read_document(text, "t.json"))
    assert [(o.method, o.path, o.deprecated) for o in ops] == [("GET", "/a", True),
                                                               ("POST", "/a", False)]  # fmt: skip


def doc(paths: dict, components: dict | None = None, version: str = "3.0.3") -> str:
    return json.dumps({"openapi": version, "info": {"title": "Test API", "version": "1"},
                       "servers": [{"url": "https://api.test/v1"}],
                       "paths": paths, "components": components or {}})  # fmt: skip


def test_clashes_read_only_cookies_multipart_and_names_without_operation_id() -> None:
    text = doc(
        {"/items/{id}": {
            "patch": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "X-Request-Id", "in": "header", "schema": {"type": "string"}},
                    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
                ],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["name"],
                    "properties": {"id": {"type": "string", "readOnly": True},
                                   "name": {"type": "string", "nullable": True,
                                            "enum": ["a", "b"]},
                                   "owner": {"type": "string"}}}}}},
                "responses": {"200": {"description": "ok"}},
            },
            "put": {"requestBody": {"content": {"multipart/form-data": {"schema": {}}}},
                    "responses": {}},
        }}
    )  # fmt: skip
    imported = import_openapi_text(text, "t.json")
    tools = tools_by_name(imported)
    patch = tools["update_items_by_id"]
    props = patch.parameters["properties"]
    assert set(props) == {"id", "x_request_id", "name", "owner"}  # readOnly id left out
    assert props["name"]["type"] == ["string", "null"] and None in props["name"]["enum"]
    assert patch.parameters["required"] == ["id", "name"]
    target = imported.targets["update_items_by_id"]
    assert target["headers"] == {"X-Request-Id": "{x_request_id}"}
    assert target["body"] == {"name": "{name}", "owner": "{owner}"}
    notes = [str(n) for n in imported.result.notes]
    assert any("cookie parameter 'session'" in n for n in notes)
    assert any("multipart/form-data" in n and "[lost]" in n for n in notes)
    assert any("'PATCH /items/{id}' imported as 'update_items_by_id'" in n for n in notes)


def test_parameter_and_body_examples_make_one_example_call() -> None:
    text = doc({"/items/{id}": {"put": {
        "operationId": "replaceItem",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}, "examples": {"a": {"value": "it-1"}}}],
        "requestBody": {"content": {"application/json": {
            "schema": {"type": "object", "properties": {"name": {"type": "string"}}},
            "example": {"name": "lamp"}}}},
        "responses": {},
    }}})  # fmt: skip
    tool = import_openapi_text(text, "t.json").result.registry.tools[0]
    assert [e.arguments for e in tool.examples] == [{"id": "it-1", "name": "lamp"}]


def test_a_body_property_clashing_with_a_parameter_is_renamed() -> None:
    text = doc({"/items/{id}": {"put": {
        "operationId": "replaceItem",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "properties": {"id": {"type": "integer"}}}}}},
        "responses": {},
    }}})  # fmt: skip
    imported = import_openapi_text(text, "t.json")
    assert imported.targets["replace_item"]["body"] == {"id": "{body_id}"}
    assert any("named 'body_id'" in n.message for n in imported.result.notes)


def test_remote_refs_are_refused_and_ref_loops_reported_with_their_path() -> None:
    remote = doc({"/a": {"get": {"parameters": [{"$ref": "common.yaml#/Limit"}],
                                 "responses": {}}}})  # fmt: skip
    with pytest.raises(FormatError, match=r"common.yaml#/Limit.*only local references"):
        import_openapi_text(remote, "t.json")
    loop = doc({"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/A"}],
                               "responses": {}}}},
               {"parameters": {"A": {"$ref": "#/components/parameters/B"},
                               "B": {"$ref": "#/components/parameters/A"}}})  # fmt: skip
    with pytest.raises(FormatError, match=r"\$ref cycle: #/components/parameters/A → .*B → .*A"):
        import_openapi_text(loop, "t.json")


def test_a_recursive_schema_is_cut_where_it_repeats_with_a_note() -> None:
    text = doc({"/nodes": {"post": {
        "operationId": "createNode",
        "requestBody": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Node"}}}},
        "responses": {}}}},
        {"schemas": {"Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}},
    )  # fmt: skip
    imported = import_openapi_text(text, "t.json")
    tool = imported.result.registry.tools[0]
    items = tool.parameters["properties"]["children"]["items"]
    assert "properties" not in items and "recursive" in items["description"]
    assert any("Node → Node" in n.message and n.kind == "lost" for n in imported.result.notes)


def test_swagger_2_and_other_versions_are_refused() -> None:
    with pytest.raises(FormatError, match=r"Swagger 2\.0 is not supported"):
        import_openapi_text('{"swagger": "2.0", "paths": {}}', "s.json")
    with pytest.raises(FormatError, match=r"expected 3\.0\.x or 3\.1\.x"):
        import_openapi_text("openapi: 4.0.0\npaths: {}\n", "s.yaml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: &a [1, 2]\n" + "".join(f"b{i}: &b{i} [*{'a' if i == 0 else f'b{i - 1}'}, "
                                    f"*{'a' if i == 0 else f'b{i - 1}'}]\n" for i in range(30)),
         "expands to more than"),
        ("x: " + "[" * 150 + "]" * 150 + "\n", "nested more than"),
        ("x: " + "9" * 5000 + "\n", "too long"),
        ('x: "\\ud800"\n', "invalid Unicode"),
        ("x: [1, 2\n", "line 2"),
        ("x: .inf\n", "not a JSON number"),
    ],
)  # fmt: skip
def test_yaml_is_held_to_the_json_limits(text: str, message: str, monkeypatch) -> None:
    monkeypatch.setattr(openapi_load, "MAX_NODES", 200_000)  # the aliases case fails sooner
    with pytest.raises(FormatError, match=message):
        read_document(text, "bad.yaml")


def test_yaml_integer_keys_and_dates_become_json() -> None:
    text = (
        "openapi: 3.0.0\ninfo: {title: t, version: 2024-01-01}\n"
        "paths:\n  /a:\n    get:\n      responses:\n        200: {}\n"
    )
    data = read_document(text, "d.yaml")
    assert data["info"]["version"] == "2024-01-01"
    assert list(data["paths"]["/a"]["get"]["responses"]) == ["200"]


def test_the_format_is_detected_and_reachable_from_the_formats_api() -> None:
    result = import_path(DATA / "petstore-3.0.yaml")
    assert result.format == "openapi" and len(result.registry.tools) == 3
    result = import_path(DATA / "petstore-expanded-3.0.json")
    assert result.format == "openapi"
    assert import_text(doc({}), "openapi").registry.name == "test-api"


def test_snake_names() -> None:
    assert snake("listPets") == "list_pets"
    assert snake("getHTTPResponse") == "get_http_response"
    assert snake("repos/get-content") == "repos_get_content"


def test_cli_import_stores_draft_and_targets_together(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "s.db")
    args = ["--db", db, "import", str(DATA / "petstore-expanded-3.0.json"), "--registry", "pets",
            "--include-tag", "nothing-has-this-tag"]  # fmt: skip
    assert main(args) == 0
    args = ["--db", db, "import", str(DATA / "petstore-expanded-3.0.json"),
            "--registry", "pets2", "--exclude-deprecated", "--executor", "http"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "imported pets2: 4 tools (openapi); 4 HTTP targets stored (executor: http)" in out
    store = RegistryStore.open(db)
    settings = ExecutorStore.for_store(store).settings("pets2")
    assert settings.allowed_base_urls == ("https://petstore.swagger.io/v2",)
    assert settings.tools["delete_pet"].executor == "http"
    assert settings.tools["delete_pet"].http["method"] == "DELETE"
    assert store.get_registry("pets2").tool_count == 4
    # Filters only make sense for OpenAPI.
    assert main(["--db", db, "import", str(tmp_path / "x.json"), "--include-tag", "a"]) == 2
