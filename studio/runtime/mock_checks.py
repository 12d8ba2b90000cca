"""Checks of one tool's mock spec for the editor, and which response some arguments get.

:func:`parse_tool_spec` refuses what cannot run; :func:`check_tool_spec` also
warns about what runs but surely is not meant (a matcher on a parameter the
tool does not have, a response no call can reach). A regex must run on RE2
(linear time): one that does not compile, or needs backreferences or lookaround,
is an error, so a mock that could stall a run is never saved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from studio.contract import ToolContract
from studio.contract.patterns import check_linear
from studio.runtime.http_targets import TemplateProblem
from studio.runtime.mocks import (
    FAILURES,
    MockBehaviour,
    MockSpecError,
    parse_tool_spec,
)

RESPONSE_KEYS = ("when", "body", "status", "error_code", "latency_ms", "fail", "retry_after",
                 "times")  # fmt: skip
OPERATORS = ("equals", "contains", "regex")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_FIRST_SEGMENT = re.compile(r"[^.\[\]]+")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _body_placeholders(body: Any) -> set[str]:
    if isinstance(body, str):
        return set(_PLACEHOLDER.findall(body))
    if isinstance(body, dict):
        return set().union(*(_body_placeholders(v) for v in body.values()))
    if isinstance(body, list):
        return set().union(*(_body_placeholders(v) for v in body))
    return set()


def _check_response(
    data: Any, where: str, params: set[str] | None, default: bool
) -> list[TemplateProblem]:
    if not isinstance(data, dict):
        return [TemplateProblem(where, "a response must be an object")]
    out: list[TemplateProblem] = []
    for key in data:
        if key not in RESPONSE_KEYS:
            out.append(TemplateProblem(where, f"unknown key {key!r} is ignored "
                                              f"(known: {', '.join(RESPONSE_KEYS)})",
                                       "warning"))  # fmt: skip
    when = data.get("when") or []
    if not isinstance(when, list):
        out.append(TemplateProblem(f"{where}.when", "must be a list of matchers"))
        when = []
    if default and when:
        out.append(TemplateProblem(f"{where}.when", "the default answers whatever the "
                                                    "arguments; its matchers are ignored",
                                   "warning"))  # fmt: skip
    for i, matcher in enumerate(when):
        mw = f"{where}.when[{i}]"
        if not isinstance(matcher, dict):
            out.append(TemplateProblem(mw, "a matcher is an object: {path, equals|contains|regex}"))
            continue
        ops = [op for op in OPERATORS if op in matcher]
        path = matcher.get("path")
        if not isinstance(path, str) or not path.strip():
            out.append(TemplateProblem(mw, "give the argument path, e.g. category or "
                                           "invoice_ids[0]"))  # fmt: skip
        elif params is not None:
            first = _FIRST_SEGMENT.match(path)
            if first and first.group(0) not in params:
                out.append(
                    TemplateProblem(
                        mw,
                        f"{first.group(0)!r} is not a parameter of the tool, so this never matches",
                        "warning",
                    )
                )
        if len(ops) != 1:
            out.append(TemplateProblem(mw, "needs exactly one of equals, contains, regex"))
        elif ops[0] == "regex":
            problem = check_linear(str(matcher["regex"]))
            if problem:
                out.append(TemplateProblem(mw, problem))
    status = data.get("status", 200)
    if not _is_int(status) or not 100 <= status <= 599:
        out.append(TemplateProblem(f"{where}.status", "an HTTP status is a whole number "
                                                      "from 100 to 599"))  # fmt: skip
    fail = data.get("fail", "")
    if fail and fail not in FAILURES:
        out.append(TemplateProblem(f"{where}.fail", f"{fail!r} is not one of "
                                                    f"{', '.join(FAILURES)}"))  # fmt: skip
    latency = data.get("latency_ms", 0)
    if latency is not None and (not _is_number(latency) or latency < 0):
        out.append(TemplateProblem(f"{where}.latency_ms", "milliseconds, 0 or more"))
    retry_after = data.get("retry_after")
    if retry_after is not None:
        if not _is_number(retry_after) or retry_after < 0:
            out.append(TemplateProblem(f"{where}.retry_after", "seconds, 0 or more"))
        elif fail != "429":
            out.append(
                TemplateProblem(
                    f"{where}.retry_after", "only a 429 failure sends Retry-After", "warning"
                )
            )
    times = data.get("times")
    if times is not None and (not _is_int(times) or times < 1):
        out.append(TemplateProblem(f"{where}.times", "a whole number, 1 or more (leave it "
                                                     "out for every match)"))  # fmt: skip
    error_code = data.get("error_code", "")
    if not isinstance(error_code, str):
        out.append(TemplateProblem(f"{where}.error_code", "must be text"))
    elif error_code and (not _is_int(status) or status < 400) and not fail:
        out.append(TemplateProblem(f"{where}.error_code", "is only used with a status of 400 "
                                                          "or more", "warning"))  # fmt: skip
    if params is not None:
        unknown = sorted(_body_placeholders(data.get("body")) - params - {"idempotency_key"})
        for name in unknown:
            out.append(TemplateProblem(f"{where}.body", f"{{{name}}} is not a parameter of "
                                                        "the tool; it stays as written",
                                       "warning"))  # fmt: skip
    return out


def check_tool_spec(spec: Any, tool: ToolContract | None) -> list[TemplateProblem]:
    """Errors (the spec cannot run) and warnings about one tool's mock spec, errors first."""
    if not isinstance(spec, dict):
        return [TemplateProblem("spec", 'a tool\'s mocks are an object: {"responses": [...], '
                                        '"default": {...}}')]  # fmt: skip
    params: set[str] | None = None
    if tool is not None:
        params = set(tool.parameters.get("properties") or {})
    out: list[TemplateProblem] = []
    for key in spec:
        if key not in ("responses", "default"):
            out.append(
                TemplateProblem(
                    "spec", f"unknown key {key!r} is ignored (known: responses, default)", "warning"
                )
            )
    responses = spec.get("responses") or []
    if not isinstance(responses, list):
        out.append(TemplateProblem("responses", "must be a list"))
        responses = []
    for i, response in enumerate(responses):
        out += _check_response(response, f"responses[{i}]", params, False)
        if isinstance(response, dict) and not response.get("when") and "times" not in response:
            if i + 1 < len(responses):
                out.append(TemplateProblem(
                    f"responses[{i + 1}]", f"never reached: responses[{i}] has no matcher and "
                    "answers every call", "warning",
                ))  # fmt: skip
            break
    if "default" in spec:
        out += _check_response(spec["default"], "default", params, True)
    if not any(p.severity == "error" for p in out):
        try:
            parse_tool_spec(spec)
        except (MockSpecError, ValueError, TypeError) as exc:
            out.append(TemplateProblem("spec", str(exc)))
    out.sort(key=lambda p: p.severity != "error")
    return out


def choose_response(spec: Mapping[str, Any], arguments: dict[str, Any]) -> tuple[str, Any]:
    """Which response of a valid spec answers ``arguments`` first, and its rendered body.

    ``times`` limits are not counted (this is the first call). Return:
    ``("responses[i]" | "default" | "", body)``; "" when nothing answers.
    """
    parsed = parse_tool_spec(dict(spec))
    chosen: MockBehaviour | None = None
    label = ""
    for i, behaviour in enumerate(parsed.responses):
        if behaviour.matches(arguments):
            chosen, label = behaviour, f"responses[{i}]"
            break
    if chosen is None and parsed.default is not None:
        chosen, label = parsed.default, "default"
    if chosen is None:
        return "", None
    return label, chosen.render(arguments, "sample-idempotency-key")
