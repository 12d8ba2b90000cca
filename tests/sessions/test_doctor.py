"""Issue #14 §2: repair, convert and trim, checked by the scripted servers that enforce each
provider's rules (tests/providers/scripted_server.py) and by the studio's own pairing check."""

from __future__ import annotations

import json
import string

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.sessions.doctor import NO_RESULT, convert, repair, safe_cut_points, trim
from studio.sessions.model import Message, Role, TextPart, ToolCallPart, ToolResultPart
from studio.sessions.pairing import analyse_pairing
from studio.sessions.wire import WIRE_FORMATS, from_wire, to_wire
from tests.providers.scripted_server import (
    ScriptedServer,
    Turn,
    validate_anthropic,
    validate_openai,
)
from tests.sessions.helpers import TICKET, assistant, call, results, system, user

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ANTHROPIC_HEADERS = {"anthropic-version": "2023-06-01"}


def server_error(messages: list[Message], provider: str) -> str | None:
    """What the scripted server (the provider's rules) says of this history, or None."""
    doc = to_wire(messages, provider)
    if provider == "openai":
        return validate_openai({"model": "m", **doc})
    body = {"model": "m", "max_tokens": 64, "messages": doc["messages"]}
    if doc.get("system"):
        body["system"] = doc["system"]
    return validate_anthropic(body, ANTHROPIC_HEADERS)


def _invoices(id_: str) -> ToolCallPart:
    return call(id_, "query_invoices", {"start_date": "2026-11-01", "end_date": "2026-11-30"})


BROKEN = {
    "unanswered": [user("file it"), assistant(_invoices("c1"), call("c2", "search_policy", {})),
                   results(("c1", "[]")), user("and?")],
    "orphan": [user("hi"), results(("zz", "stray")), assistant(text="hello")],
    "late result": [user("q"), assistant(_invoices("c1")), user("wait"), results(("c1", "[]")),
                    assistant(text="done")],
    "reused id": [user("q"), assistant(_invoices("c1")), results(("c1", "[]")),
                  assistant(call("c1", "create_reimbursement_ticket", TICKET)),
                  results(("c1", '{"ticket": "R-55821"}'))],
    "text before results": [user("q"), assistant(_invoices("c1")),
                            Message(Role.USER, (TextPart("also this"),
                                                ToolResultPart("c1", "[]")))],
    "invalid arguments": [user("q"), assistant(call("c1", "query_invoices", "{'a': 1,}")),
                          results(("c1", "[]"))],
    "duplicate result": [user("q"), assistant(_invoices("c1")), results(("c1", "[]")),
                         results(("c1", "[]")), assistant(text="ok")],
}  # fmt: skip


@pytest.mark.parametrize("provider", WIRE_FORMATS)
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_repair_makes_each_broken_history_valid(name: str, provider: str) -> None:
    history = BROKEN[name]
    assert analyse_pairing(history).problems  # broken to begin with
    fixed = repair(history, provider)
    assert fixed.changes and analyse_pairing(fixed.messages).problems == ()
    if provider in ("openai", "anthropic"):
        assert server_error(fixed.messages, provider) is None
    again = repair(fixed.messages, provider)
    assert again.changes == [] and again.messages == fixed.messages


def test_the_scripted_servers_refuse_before_and_accept_after_over_loopback() -> None:
    history = BROKEN["unanswered"]
    fixed = repair(history, "anthropic").messages
    with ScriptedServer([Turn(text="ok"), Turn(text="ok")]) as server:
        doc = to_wire(history, "anthropic")
        body = {"model": "m", "max_tokens": 64, "messages": doc["messages"]}
        refused = httpx.post(f"{server.base_url}/v1/messages", json=body,
                             headers=ANTHROPIC_HEADERS)  # fmt: skip
        assert refused.status_code == 400 and "tool_result" in refused.text
        body["messages"] = to_wire(fixed, "anthropic")["messages"]
        ok = httpx.post(f"{server.base_url}/v1/messages", json=body, headers=ANTHROPIC_HEADERS)
        assert ok.status_code == 200
        body = {"model": "m", "messages": to_wire(repair(history).messages, "openai")["messages"]}
        assert httpx.post(f"{server.base_url}/v1/chat/completions", json=body).status_code == 200


def test_repair_lists_what_where_and_why() -> None:
    fixed = repair(BROKEN["unanswered"], "openai")
    (change,) = fixed.changes
    assert (change.action, str(change.position), change.call_id) == (
        "add-result", "messages[1].parts[1]", "c2",
    )  # fmt: skip
    synthetic = fixed.messages[2].tool_results[1]
    assert synthetic.is_error and json.loads(synthetic.content) == json.loads(NO_RESULT)
    reused = repair(BROKEN["reused id"], "anthropic")
    assert [c.action for c in reused.changes] == ["re-id", "re-id"]
    assert reused.messages[3].tool_calls[0].id == reused.messages[4].tool_results[0].id == "c1_r1"


def test_a_valid_history_is_not_changed() -> None:
    history = [system("s"), user("q"), assistant(_invoices("c1"), _invoices("c2")),
               results(("c1", "[]"), ("c2", "[]")), assistant(text="none")]  # fmt: skip
    for provider in WIRE_FORMATS:
        fixed = repair(history, provider)
        assert fixed.changes == [] and fixed.messages == history


# ---------------------------------------------------------------------- convert

_TEXT = st.text(alphabet=string.ascii_letters + " äß中", min_size=1, max_size=12).filter(
    lambda t: t.strip() == t and t != ""
)


_IMAGES = [
    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    {"type": "image_url", "image_url": {"url": "https://example.com/INV-102.png"}},
]


@st.composite
def valid_histories(draw: st.DrawFn) -> list[Message]:
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message(Role.SYSTEM, (TextPart(draw(_TEXT)),)))
    for turn in range(draw(st.integers(1, 4))):
        images = draw(st.lists(st.sampled_from(_IMAGES), max_size=2))
        extra = {"content_parts": [{"index": i + 1, "part": p} for i, p in enumerate(images)]}
        out.append(Message(Role.USER, (TextPart(draw(_TEXT)),), extra if images else {}))
        calls = draw(st.integers(0, 3))
        if calls:
            text = draw(st.one_of(st.just(""), _TEXT))
            parts = [
                ToolCallPart(
                    f"call_{turn}_{i}",
                    draw(st.sampled_from(["query_invoices", "search_policy"])),
                    {"q": draw(_TEXT)},
                )
                for i in range(calls)
            ]
            out.append(Message(Role.ASSISTANT, ((TextPart(text),) if text else ()) + tuple(parts)))
            out.append(Message(Role.TOOL, tuple(
                ToolResultPart(p.id, draw(_TEXT)) for p in parts)))  # fmt: skip
        out.append(Message(Role.ASSISTANT, (TextPart(draw(_TEXT)),)))
    return out


@SETTINGS
@given(valid_histories(), st.sampled_from(WIRE_FORMATS), st.sampled_from(WIRE_FORMATS))
def test_convert_and_back_is_the_identity(history: list[Message], a: str, b: str) -> None:
    doc_a = convert(history, a).document
    doc_b = convert(from_wire(doc_a, a), b).document
    assert convert(from_wire(doc_b, b), a).document == doc_a
    assert analyse_pairing(from_wire(doc_b, b)).problems == ()


def test_convert_carries_a_receipt_image_to_every_provider() -> None:
    receipt = Message(Role.USER, (TextPart("my taxi receipt"),),
                      {"content_parts": [{"index": 1, "part": _IMAGES[0]}]})  # fmt: skip
    shapes = {
        "openai": lambda d: d["messages"][0]["content"][1]["image_url"]["url"],
        "openai-responses": lambda d: d["input"][0]["content"][1]["image_url"],
        "anthropic": lambda d: d["messages"][0]["content"][1]["source"]["media_type"],
        "gemini": lambda d: d["contents"][0]["parts"][1]["inlineData"]["mimeType"],
    }
    for fmt, pick in shapes.items():
        result = convert([receipt], fmt)
        assert "png" in pick(result.document) and result.notes == []


def test_convert_keeps_parallel_calls_and_maps_ids() -> None:
    history = [user("q"), assistant(_invoices("call_1"), _invoices("call_2")),
               results(("call_1", "[]"), ("call_2", "[]"), error=True)]  # fmt: skip
    anthropic = convert(history, "anthropic").document["messages"]
    assert [b["id"] for b in anthropic[1]["content"]] == ["call_1", "call_2"]
    assert [b["tool_use_id"] for b in anthropic[2]["content"]] == ["call_1", "call_2"]
    responses = convert(history, "openai-responses")
    assert [i["call_id"] for i in responses.document["input"][1:]] == ["call_1", "call_2"] * 2
    assert any("no error flag" in n for n in responses.notes)
    gemini = convert(history, "gemini").document["contents"]
    assert [p["functionResponse"]["id"] for p in gemini[2]["parts"]] == ["call_1", "call_2"]


# ---------------------------------------------------------------------- trim


def test_trim_cuts_only_at_safe_points_and_reports_tokens() -> None:
    history = [
        system("policy"),
        *BROKEN["reused id"][:3],
        user("next"),
        assistant(_invoices("c9")),
        results(("c9", "[]" * 50)),
        assistant(text="done"),
    ]
    cut = trim(history, 80, summary="an earlier invoice search")
    assert cut.fits and cut.kept_tokens <= 80 < cut.total_tokens
    assert cut.messages[0].role is Role.SYSTEM and "earlier invoice" in cut.messages[1].text
    assert analyse_pairing(cut.messages).problems == ()
    assert history[cut.cut_at].role is Role.USER or history[cut.cut_at - 1].role is Role.TOOL


@SETTINGS
@given(valid_histories(), st.integers(1, 400))
def test_trim_never_separates_a_call_from_its_result(history: list[Message], budget: int) -> None:
    cut = trim(history, budget)
    assert analyse_pairing(cut.messages).problems == ()
    assert not any(m.role is Role.TOOL for m in cut.messages[:1])
    assert cut.kept_tokens <= budget or not cut.fits
    assert all(history[p].role is not Role.TOOL for p in safe_cut_points(history))


# ---------------------------------------------------------------------- CLI


def test_cli_repair_convert_trim(tmp_path, capsys) -> None:
    from studio.cli import main

    log = tmp_path / "broken.json"
    log.write_text(json.dumps(to_wire(BROKEN["unanswered"], "openai")))
    db, fixed = str(tmp_path / "s.db"), tmp_path / "fixed.json"
    assert main(["--db", db, "sessions", "repair", str(log), "--provider", "anthropic",
                 "--to", str(fixed)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "add-result c2" in out and "1 change(s) for anthropic" in out
    assert validate_anthropic({"max_tokens": 9, **json.loads(fixed.read_text())},
                              ANTHROPIC_HEADERS) is None  # fmt: skip
    assert main(["--db", db, "sessions", "convert", str(fixed), "--to", "gemini"]) == 0
    assert "functionResponse" in capsys.readouterr().out
    assert main(["--db", db, "sessions", "import", str(log)]) == 0
    session_id = capsys.readouterr().out.split("imported ")[1].split("\t")[0]
    assert main(["--db", db, "sessions", "trim", session_id, "--max-tokens", "40"]) == 0
    out = capsys.readouterr().out
    assert "kept " in out and f"trim of {session_id}" in out
    assert main(["--db", db, "sessions", "list", "--source", "trim"]) == 0
    assert "\t0 problems\t" in capsys.readouterr().out


@st.composite
def broken_histories(draw: st.DrawFn) -> list[Message]:
    """A valid history, then results dropped, moved, duplicated, orphaned and ids reused."""
    history = draw(valid_histories())
    out: list[Message] = []
    for message in history:
        if message.role is Role.TOOL:
            kept = tuple(p for p in message.parts if draw(st.integers(0, 3)))  # drop ~1 in 4
            if draw(st.booleans()) and kept:
                kept = kept + kept[:1]  # a duplicate result
            if kept:
                out.append(Message(Role.TOOL, kept))
            if draw(st.integers(0, 4)) == 0:
                out.append(Message(Role.TOOL, (ToolResultPart("call_stray", "?"),)))
        elif message.role is Role.ASSISTANT and message.tool_calls and draw(st.integers(0, 3)) == 0:
            reused = tuple(
                ToolCallPart("call_0_0", p.name, p.arguments) if isinstance(p, ToolCallPart) else p
                for p in message.parts
            )
            out.append(Message(Role.ASSISTANT, reused))
        else:
            out.append(message)
    if len(out) > 3 and draw(st.booleans()):  # move one message later
        i = draw(st.integers(1, len(out) - 2))
        out.insert(draw(st.integers(i + 1, len(out) - 1)), out.pop(i))
    return out


@SETTINGS
@given(broken_histories(), st.sampled_from(WIRE_FORMATS))
def test_any_repaired_history_passes_the_check_and_the_servers(
    history: list[Message], provider: str
) -> None:
    fixed = repair(history, provider)
    assert analyse_pairing(fixed.messages).problems == ()
    for server in ("openai", "anthropic"):
        assert server_error(fixed.messages, server) is None
    assert repair(fixed.messages, provider).changes == []
