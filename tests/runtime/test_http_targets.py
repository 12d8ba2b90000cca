"""HTTP targets: stored form, checks, previews, env references; mock spec checks."""

from __future__ import annotations

import asyncio

import pytest

from studio.runtime import ExecutionRequest, HttpExecutor, HttpTarget, execute_with_policy
from studio.runtime.http_targets import (
    HttpTargetError,
    check_target,
    is_secret_header,
    placeholder_names,
    preview_request,
    sample_arguments,
    target_from_dict,
    target_to_dict,
)
from studio.runtime.mock_checks import check_tool_spec, choose_response
from studio.runtime.mocks import example_mocks
from tests.runtime.helpers import travel_registry
from tests.runtime.tool_api_server import ToolApiServer

ALLOWED = ["https://api.example"]


def tool(name: str):
    return travel_registry().tool(name)


def errors(problems):
    return [str(p) for p in problems if p.severity == "error"]


def warnings(problems):
    return [str(p) for p in problems if p.severity == "warning"]


def test_the_json_form_round_trips_and_bad_shapes_are_named():
    target = HttpTarget("https://api.example/t/{ticket_id}", "get", {"X-Tenant": "acme"})
    data = target_to_dict(target)
    assert data == {"method": "GET", "url": target.url, "headers": {"X-Tenant": "acme"}}
    assert target_from_dict(data) == HttpTarget(target.url, "GET", {"X-Tenant": "acme"})
    with_body = HttpTarget("https://api.example/t", "POST", {}, {"ids": "{invoice_ids}"})
    assert target_from_dict(target_to_dict(with_body)) == with_body
    with pytest.raises(HttpTargetError, match="headers"):
        target_from_dict({"url": "https://x", "headers": {"A": 1}})
    with pytest.raises(HttpTargetError, match="object"):
        target_from_dict(["https://x"])


def test_a_valid_target_has_no_problems():
    target = HttpTarget(
        "https://api.example/tickets/{ticket_id}?status={status}",
        "GET",
        {"Authorization": "Bearer {env:TICKETS_TOKEN}", "X-Call": "{call_id}"},
    )
    assert check_target(target, tool("query_tickets"), ALLOWED) == []


def test_unknown_placeholders_and_env_outside_headers_are_named():
    target = HttpTarget(
        "https://api.example/tickets/{ticket}",
        "POST",
        {"X-Who": "{employe_id}"},
        {"amount": "{amount}", "token": "{env:SECRET}", "n": "{bad name}"},
    )
    found = errors(check_target(target, tool("create_reimbursement_ticket"), ALLOWED))
    assert any(
        e.startswith("url: {ticket} is not a parameter of create_reimbursement_ticket")
        and "invoice_ids" in e
        for e in found
    )
    assert any(e.startswith("headers.X-Who: {employe_id} is not a parameter") for e in found)
    assert any(e.startswith("body.token: {env:SECRET}: environment variables may be used in "
                            "header values only") for e in found)  # fmt: skip
    assert any(e.startswith("body.n: {bad name} is not a placeholder") for e in found)
    assert len(found) == 4, found


def test_allow_list_host_and_scheme_problems():
    t = tool("query_tickets")
    outside = check_target(HttpTarget("https://evil.example/t/{ticket_id}", "GET"), t, ALLOWED)
    assert errors(outside) == [
        "url: https://evil.example/t/… is outside the allowed base URLs (https://api.example)"
    ]
    # A prefix that only looks like the base is outside too.
    assert errors(check_target(HttpTarget("https://api.example.evil/x", "GET"), t, ALLOWED))
    host = check_target(HttpTarget("https://{ticket_id}.example/x", "GET"), t, ALLOWED)
    assert any("scheme and host must be fixed text" in e for e in errors(host))
    assert any("http:// or https://" in e for e in errors(check_target(
        HttpTarget("ftp://api.example/x", "GET"), t, ALLOWED)))  # fmt: skip
    none = check_target(HttpTarget("https://api.example/x/{ticket_id}", "GET"), t, [])
    assert errors(none) == [
        "allowed: no allowed base URL: add the API's base URL (e.g. https://api.example) "
        "so calls may go there"
    ]
    assert errors(check_target(HttpTarget("", "GET"), t, ALLOWED))[0].startswith("url: give")
    assert errors(check_target(HttpTarget("https://api.example/x", "FETCH"), t, ALLOWED)) == [
        "method: 'FETCH' is not one of GET, POST, PUT, PATCH, DELETE"
    ]


def test_literal_credentials_are_refused_and_env_references_suggested():
    t = tool("query_tickets")
    for header in ("Authorization", "X-Api-Key", "X-Auth-Token", "Cookie"):
        assert is_secret_header(header)
        found = errors(check_target(
            HttpTarget("https://api.example/t", "GET", {header: "Bearer abc123"}), t, ALLOWED
        ))  # fmt: skip
        assert found == [
            f"headers.{header}: would store a credential in the database; reference an "
            "environment variable instead, e.g. Bearer {env:QUERY_TICKETS_TOKEN}"
        ]
    assert not is_secret_header("X-Tenant")


def test_warnings_do_not_block():
    t = tool("query_invoices")
    silent = check_target(HttpTarget("https://api.example/invoices", "GET"), t, ALLOWED)
    assert errors(silent) == [] and "no argument reaches the server" in warnings(silent)[0]
    body = check_target(HttpTarget("https://api.example/i", "GET", {}, {"a": 1}), t, ALLOWED)
    assert warnings(body) == ["body: GET requests usually carry no body; many servers ignore it"]


def test_placeholders_list_parameters_injected_and_builtins():
    names = placeholder_names(tool("create_reimbursement_ticket"))
    assert names["invoice_ids"] == "array, required"
    assert "injected from session.employee_id" in names["employee_id"]
    assert {"idempotency_key", "tool", "call_id"} <= set(names)


def test_sample_arguments_use_examples_context_and_schema():
    args = sample_arguments(tool("create_reimbursement_ticket"), {"employee_id": "E-1001"})
    assert args["invoice_ids"] == ["INV-102"] and args["amount"] == 118.5
    assert args["employee_id"] == "E-1001"
    invoices = sample_arguments(tool("query_invoices"))
    assert invoices["category"] == "taxi" and invoices["start_date"] == "2024-05-01"


def test_preview_renders_like_the_executor_and_keeps_secrets_as_references():
    t = tool("create_reimbursement_ticket")
    target = HttpTarget(
        "https://api.example/employees/{employee_id}/tickets",
        "POST",
        {"Authorization": "Bearer {env:TICKETS_TOKEN}"},
        {"ids": "{invoice_ids}", "note": "{amount} CNY"},
    )
    args = sample_arguments(t, {"employee_id": "E 1001"})
    preview = preview_request(target, t, args, ALLOWED, environ={"TICKETS_TOKEN": "s3cret"})
    assert preview.error == ""
    assert preview.method == "POST"
    assert preview.url == "https://api.example/employees/E%201001/tickets"
    assert preview.headers["Authorization"] == "Bearer {env:TICKETS_TOKEN}"
    assert preview.headers["Idempotency-Key"].startswith("sample-session:")
    assert preview.body == {"ids": ["INV-102"], "note": "118.5 CNY"}
    assert preview.env_set == {"TICKETS_TOKEN": True}
    outside = preview_request(HttpTarget("https://other.example/x"), t, args, ALLOWED, environ={})
    assert outside.error.startswith("https://other.example/x is outside the allowed base URLs")


def test_env_reference_reaches_the_server_but_never_the_snapshot(monkeypatch):
    monkeypatch.setenv("TICKETS_TEST_TOKEN", "s3cret-value")
    t = tool("query_tickets")
    with ToolApiServer({"/tickets/R-55821": {"tickets": [{"ticket_id": "R-55821"}]}}) as api:
        target = HttpTarget(
            api.base_url + "/tickets/{ticket_id}",
            "GET",
            {"Authorization": "Bearer {env:TICKETS_TEST_TOKEN}", "X-Echo": "{ticket_id}"},
        )
        executor = HttpExecutor({t.name: target}, [api.base_url])
        request = ExecutionRequest(t, {"ticket_id": "R-55821"})

        async def go():
            try:
                return await execute_with_policy(executor, request)
            finally:
                await executor.aclose()

        outcome = asyncio.run(go())
    assert outcome.status == "ok" and outcome.body["tickets"][0]["ticket_id"] == "R-55821"
    sent = api.requests[0]
    assert sent.headers["Authorization"] == "Bearer s3cret-value"
    assert sent.headers["X-Echo"] == "R-55821"
    snapshot = executor.snapshot(request)
    assert "s3cret" not in repr(snapshot)


def test_an_unset_variable_is_a_structured_error_and_arguments_never_expand_env():
    t = tool("query_tickets")
    target = HttpTarget("https://api.example/t", "GET",
                        {"X-Token": "{env:TICKETS_UNSET_VAR}", "X-Arg": "{ticket_id}"})  # fmt: skip
    executor = HttpExecutor({t.name: target}, ALLOWED, environ={})
    outcome = asyncio.run(execute_with_policy(executor, ExecutionRequest(t, {})))
    assert outcome.error.code == "MISSING_SECRET"
    assert "$TICKETS_UNSET_VAR" in outcome.error.message and outcome.error.retryable is False
    # An argument whose value looks like a reference stays text.
    sneaky_target = HttpTarget("https://api.example/t", "GET", {"X-Arg": "{ticket_id}"})
    sneaky = HttpExecutor({t.name: sneaky_target}, ALLOWED, environ={"HOME": "/root"})
    _, _, headers, _ = sneaky._build(ExecutionRequest(t, {"ticket_id": "{env:HOME}\r\nX: y"}))
    assert headers["X-Arg"] == "{env:HOME} X: y"


def test_the_example_mocks_check_clean_against_their_tools():
    document = example_mocks("travel-reimbursement")
    registry = travel_registry()
    for name, spec in document["tools"].items():
        assert errors(check_tool_spec(spec, registry.tool(name))) == [], name


def test_mock_checks_name_what_is_wrong_and_where():
    t = tool("query_invoices")
    spec = {
        "responses": [
            {"when": [{"path": "categry", "equals": "taxi"}], "body": {"x": "{nope}"}},
            {"when": [{"path": "category", "regex": "(taxi"}], "status": 700},
            {"body": {}},
            {"body": {"unreachable": True}},
        ],
        "default": {"fail": "boom", "retry_after": -1, "times": 0, "extra": 1},
    }
    problems = check_tool_spec(spec, t)
    assert errors(problems) == [
        "responses[1].when[0]: the regex does not compile: missing ): (taxi",
        "responses[1].status: an HTTP status is a whole number from 100 to 599",
        "default.fail: 'boom' is not one of timeout, 429, 500, malformed",
        "default.retry_after: seconds, 0 or more",
        "default.times: a whole number, 1 or more (leave it out for every match)",
    ]
    assert "responses[0].when[0]: 'categry' is not a parameter of the tool, so this never " \
           "matches" in warnings(problems)  # fmt: skip
    assert "responses[0].body: {nope} is not a parameter of the tool; it stays as written" in (
        warnings(problems)
    )
    assert any(w.startswith("responses[3]: never reached") for w in warnings(problems))
    assert any(w.startswith("default: unknown key 'extra'") for w in warnings(problems))


def test_choose_response_follows_the_runtime_order():
    spec = example_mocks("travel-reimbursement")["tools"]["query_invoices"]
    label, body = choose_response(spec, {"category": "hotel"})
    assert label == "responses[0]" and body == {"invoices": []}
    label, body = choose_response(spec, {"category": "taxi"})
    assert label == "default" and body["invoices"][0]["amount"] == 118.5
    assert choose_response({"responses": [{"when": [{"path": "a", "equals": 1}]}]}, {}) == (
        "",
        None,
    )


def test_a_declared_parameter_wins_over_the_builtin_of_the_same_name():
    # query_tickets looks tickets up by an idempotency_key argument.
    lookup = tool("query_tickets")
    target = HttpTarget("https://api.example/tickets?key={idempotency_key}&tool={tool}", "GET")
    preview = preview_request(target, lookup, {"idempotency_key": "s:1:t:abc"}, ALLOWED)
    assert preview.url == "https://api.example/tickets?key=s%3A1%3At%3Aabc&tool=query_tickets"
    assert "Idempotency-Key" not in preview.headers
    assert placeholder_names(lookup)["idempotency_key"] == "string, optional"
    # An undeclared argument cannot replace a write's key.
    write = tool("create_reimbursement_ticket")
    target = HttpTarget("https://api.example/t", "POST", {"X-Key": "{idempotency_key}"})
    executor = HttpExecutor({write.name: target}, ALLOWED, environ={})
    request = ExecutionRequest(write, {"idempotency_key": "forged"}, idempotency_key="real-key")
    _, _, headers, _ = executor._build(request)
    assert headers == {"X-Key": "real-key", "Idempotency-Key": "real-key"}


def test_optional_arguments_the_model_left_out_are_not_sent():
    from studio.runtime.executors import build_http_request

    target = HttpTarget(
        "https://api.example/pets?tags={tags}&limit={limit}&v=2#{section}",
        "POST",
        body={"name": "{name}", "tag": "{tag}", "note": "by {name}"},
    )
    allowed = ["https://api.example/"]
    _, url, _, body = build_http_request(target, {"name": "Rex", "tags": ["a b", "c"]}, allowed)
    assert url == "https://api.example/pets?tags=a%20b&tags=c&v=2#"
    assert body == {"name": "Rex", "note": "by Rex"}  # "tag" left out, not null
    _, url, _, body = build_http_request(target, {"limit": 5, "tag": None}, allowed)
    assert url == "https://api.example/pets?limit=5&v=2#"
    assert body == {"tag": None, "note": "by "}  # an explicit null is the model's to send
