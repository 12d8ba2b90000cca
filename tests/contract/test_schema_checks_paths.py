"""Parameter-schema problems keep their exact paths and order (paths are joined only on a problem).

And the unreachable-injection check still runs wherever ``x-injected`` hides,
though schemas without one skip that walk.
"""

from __future__ import annotations

from studio.contract.schema_checks import check_parameters


def _found(schema: object) -> list[str]:
    return [f"{p.path}: {p.message}" for p in check_parameters(schema, "tools[3].parameters")]


def test_nested_problems_in_document_order_with_quoted_and_indexed_paths() -> None:
    schema = {
        "type": "object",
        "properties": {
            "客户 编号": {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "x-aliases": ["b"]},
                    "b": {"type": "string"},
                },
                "required": ["zz"],
            },
            "lines": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "properties": {"k": {"type": "string", "x-injected": "bad path"}},
                            "required": ["k", "missing"],
                        },
                    ]
                },
            },
        },
        "required": ["lines", "gone"],
    }
    assert _found(schema) == [
        "tools[3].parameters.required[1]: 'gone' is required but not defined in properties",
        'tools[3].parameters.properties["客户 编号"].required[0]: '
        "'zz' is required but not defined in properties",
        'tools[3].parameters.properties["客户 编号"].properties.a.x-aliases[0]: '
        "alias 'b' is also a property name",
        "tools[3].parameters.properties.lines.items.anyOf[1].required[1]: "
        "'missing' is required but not defined in properties",
        "tools[3].parameters.properties.lines.items.anyOf[1].properties.k.x-injected: "
        "must be a context path such as 'session.employee_id'",
    ]


def test_injected_fields_out_of_reach_are_found_wherever_they_hide() -> None:
    hidden = {"type": "string", "x-injected": "session.user"}
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "$defs": {"who": {"type": "object", "properties": {"id": hidden}}},
        "additionalProperties": {"type": "object", "properties": {"u": hidden}},
    }
    found = _found(schema)
    assert [f.split(":")[0] for f in found] == [
        "tools[3].parameters.$defs.who.properties.id.x-injected",
        "tools[3].parameters.additionalProperties.properties.u.x-injected",
    ]
    assert all("could not fill it" in f for f in found)


def test_a_clean_schema_and_an_injected_reachable_one_have_no_problem() -> None:
    assert _found({"type": "object", "properties": {"q": {"type": "string"}}}) == []
    injected = {
        "type": "object",
        "properties": {
            "claim": {"type": "object", "properties": {"e": {"x-injected": "session.e"}}}
        },
    }
    assert _found(injected) == []
