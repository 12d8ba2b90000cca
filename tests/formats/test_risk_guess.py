"""Imports say what they guessed: the risk tier from the verb, method or annotations (#11.4)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.contract import RiskTier
from studio.contract.risk import UNKNOWN_NOTE, guess_risk
from studio.formats import import_text
from studio.sessions.suspicious import is_write_tool

SCHEMA = {"type": "object", "properties": {}}


def _openai(name: str, description: str) -> dict[str, Any]:
    function = {"name": name, "description": description, "parameters": SCHEMA}
    return {"type": "function", "function": function}


def _responses(name: str, description: str) -> dict[str, Any]:
    return {"type": "function", "name": name, "description": description, "parameters": SCHEMA}


def _anthropic(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "input_schema": SCHEMA}


def _gemini(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": {"type": "OBJECT"}}


def _mcp(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": SCHEMA}


FORMATS = {
    "openai": (_openai, lambda tools: tools, "tools[{i}].function"),
    "openai-responses": (_responses, lambda tools: tools, "tools[{i}]"),
    "anthropic": (_anthropic, lambda tools: tools, "tools[{i}]"),
    "gemini": (_gemini, lambda tools: {"functionDeclarations": tools}, "functionDeclarations[{i}]"),
    "mcp": (_mcp, lambda tools: {"tools": tools}, "tools[{i}].annotations"),
}

TOOLS = [
    ("create_reimbursement_ticket", "", RiskTier.WRITE, "'create'"),
    ("query_invoices", "", RiskTier.READ, "'query'"),
    ("searchPolicy", "", RiskTier.READ, "'search'"),
    ("delete_ticket", "", RiskTier.DESTRUCTIVE, "'delete'"),
    ("ticket_status", "Gets the status of a ticket.", RiskTier.READ, "'gets' the description"),
    ("reimbursement", "Use this tool to send a claim.", RiskTier.WRITE, "'send'"),
    ("frobnicate", "", RiskTier.WRITE, UNKNOWN_NOTE),
]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_notes_each_risk_guess(fmt: str):
    entry, wrap, where = FORMATS[fmt]
    data = wrap([entry(name, description) for name, description, _, _ in TOOLS])
    result = import_text(json.dumps(data), fmt)
    risks = {t.name: t.risk for t in result.registry.tools}
    assert risks == {name: risk for name, _, risk, _ in TOOLS}
    guesses = {n.path: n.message for n in result.notes if "risk tier" in n.message}
    assert len(guesses) == len(TOOLS)  # one note per tool, none silent
    for i, (_, _, risk, evidence) in enumerate(TOOLS):
        note = guesses[where.format(i=i)]
        if evidence == UNKNOWN_NOTE:
            assert note.startswith(UNKNOWN_NOTE)
        else:
            assert note.startswith(f"risk tier {risk.value!r} guessed from the verb {evidence}")
    assert all(n.kind == "guessed" for n in result.notes if "risk tier" in n.message)


def test_unknown_is_write_never_silently_read():
    tier, note = guess_risk("frobnicate")
    assert tier is RiskTier.WRITE and note == UNKNOWN_NOTE


def test_the_cli_import_report_shows_the_guesses(tmp_path, capsys):
    from studio.cli import main

    src = tmp_path / "tools.json"
    src.write_text(json.dumps([_openai("create_x", ""), _openai("query_x", ""), _openai("x", "")]))
    code = main(["import", str(src), "--db", str(tmp_path / "s.db"), "--registry", "r"])
    out = capsys.readouterr()
    assert code == 0, out.err
    text = out.out + out.err
    assert "risk tier 'write' guessed from the verb 'create'" in text
    assert "risk tier 'read' guessed from the verb 'query'" in text
    assert UNKNOWN_NOTE in text


@pytest.mark.parametrize(
    ("method", "risk"),
    [("GET", RiskTier.READ), ("head", RiskTier.READ), ("POST", RiskTier.WRITE),
     ("PATCH", RiskTier.WRITE), ("DELETE", RiskTier.DESTRUCTIVE)],
)  # fmt: skip
def test_the_http_method_decides_before_the_verb(method: str, risk: RiskTier):
    tier, note = guess_risk("query_x", method=method)
    assert tier is risk
    assert note is not None and method.upper() in note


def test_explicit_mcp_hints_are_no_guess_and_false_hints_rule_a_tier_out():
    assert guess_risk("create_x", annotations={"readOnlyHint": True}) == (RiskTier.READ, None)
    tier, note = guess_risk("delete_x", annotations={"destructiveHint": True})
    assert (tier, note) == (RiskTier.DESTRUCTIVE, None)
    tier, note = guess_risk("get_x", annotations={"readOnlyHint": False})
    assert tier is RiskTier.WRITE and note is not None and "readOnlyHint is false" in note
    tier, note = guess_risk("delete_x", annotations={"destructiveHint": False})
    assert tier is RiskTier.WRITE and note is not None


def test_chinese_description_verbs_count():
    assert guess_risk("x", "查询发票")[0] is RiskTier.READ
    assert guess_risk("x", "删除工单")[0] is RiskTier.DESTRUCTIVE


def test_sessions_tell_writes_by_the_same_verb_classes():
    assert is_write_tool("createTicket") and is_write_tool("transfer_funds")
    assert is_write_tool("delete_ticket") and is_write_tool("upsert_row")
    assert not is_write_tool("query_invoices") and not is_write_tool("calculate_tax")
    assert not is_write_tool("frobnicate")  # unknown: no evidence of a side effect
