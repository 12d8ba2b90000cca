"""HTTP targets as stored per registry, checked and previewed for the editor.

A target's JSON form (what :mod:`registry_db.executors` stores)::

    {"method": "GET",
     "url": "https://api.example/tickets/{ticket_id}?employee={employee_id}",
     "headers": {"Authorization": "Bearer {env:TICKETS_API_TOKEN}"},
     "body": {"ids": "{invoice_ids}", "note": "claimed by {employee_id}"}}

Placeholders: ``{name}`` is a tool argument (injected ones included) or one of
the built-ins ``{idempotency_key}``, ``{tool}``, ``{call_id}``. In the URL the
value is percent-encoded; in the body a string that is exactly ``"{name}"``
takes the argument's JSON value. ``{env:NAME}`` is allowed in header values
only: the variable is read when the call is made, so secrets never enter the
database, snapshots or events. :func:`check_target` says what is wrong and
where; :func:`preview_request` renders a target for sample arguments.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from studio.contract import RiskTier, ToolContract
from studio.runtime.executors import (
    ExecutorFailure,
    HttpTarget,
    build_http_request,
    is_secret_header,
    template_values,
    url_allowed,
)
from studio.sessions.redact import literal_credential

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
BUILTIN_PLACEHOLDERS = {
    "idempotency_key": "the call's idempotency key (writes; also sent as Idempotency-Key)",
    "tool": "the tool's name",
    "call_id": "the model's tool call id",
}
SAMPLE_IDEMPOTENCY_KEY = "sample-session:3:{tool}:9f2c41d0"
_TOKEN = re.compile(r"\{([^{}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class HttpTargetError(ValueError):
    """A stored target that does not follow the JSON form."""


@dataclass(frozen=True, slots=True)
class TemplateProblem:
    """One thing wrong with a template.

    Attributes:
        where: ``method``, ``url``, ``headers.<Name>``, ``body`` or ``allowed``.
        message: What is wrong, in a sentence.
        severity: ``error`` (the target is refused) or ``warning``.
    """

    where: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def target_to_dict(target: HttpTarget) -> dict[str, Any]:
    """The JSON form of ``target`` (no ``body`` key when it has none)."""
    out: dict[str, Any] = {
        "method": target.method.upper(),
        "url": target.url,
        "headers": dict(target.headers),
    }
    if target.body is not None:
        out["body"] = target.body
    return out


def target_from_dict(data: Any) -> HttpTarget:
    """The target of a JSON form; raises HttpTargetError naming the bad field."""
    if not isinstance(data, Mapping):
        raise HttpTargetError("an HTTP target is an object with url, method, headers, body")
    url, method = data.get("url", ""), data.get("method", "POST")
    if not isinstance(url, str) or not isinstance(method, str):
        raise HttpTargetError("url and method must be strings")
    headers = data.get("headers") or {}
    if not isinstance(headers, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    ):
        raise HttpTargetError("headers must map names to string templates")
    return HttpTarget(url, method.upper(), dict(headers), data.get("body"))


class ConfiguredTargetError(HttpTargetError):
    """A tool set to the http executor whose target is missing, unreadable or wrong.

    Attributes:
        tool: The tool.
        kind: ``missing`` (no URL), ``unreadable`` (the stored form does not
            load) or ``invalid`` (:func:`check_target` found an error).
    """

    def __init__(self, tool: str, kind: str, message: str) -> None:
        super().__init__(message)
        self.tool = tool
        self.kind = kind


def configured_targets(
    choices: Iterable[tuple[str, str, Mapping[str, Any] | None]],
    tools: Mapping[str, ToolContract],
    allowed: Sequence[str],
) -> dict[str, HttpTarget]:
    """The checked HTTP targets of the tools whose executor is ``http``.

    Args:
        choices: ``(tool, executor, target as stored)`` per tool; tools on
            ``mock`` are skipped.
        tools: The registry's tools by name (for the placeholder checks).
        allowed: The allowed base URLs.

    Raises:
        ConfiguredTargetError: for the first tool whose target cannot be used.
    """
    targets: dict[str, HttpTarget] = {}
    for name, executor, stored in choices:
        if executor != "http":
            continue
        if not (stored or {}).get("url"):
            raise ConfiguredTargetError(name, "missing", f"Give an HTTP target for {name}")
        try:
            target = target_from_dict(stored)
        except HttpTargetError as exc:
            raise ConfiguredTargetError(
                name, "unreadable", f"The HTTP target of {name} does not load: {exc}"
            ) from exc
        errors = [
            p for p in check_target(target, tools.get(name), allowed) if p.severity == "error"
        ]
        if errors:
            raise ConfiguredTargetError(name, "invalid", f"HTTP target of {name}: {errors[0]}")
        targets[name] = target
    return targets


def placeholder_names(tool: ToolContract | None) -> dict[str, str]:
    """Every ``{name}`` a target of ``tool`` may use → what it stands for."""
    names: dict[str, str] = {}
    if tool is not None:
        injected = tool.injected_properties()
        properties = tool.parameters.get("properties") or {}
        required = set(tool.parameters.get("required") or ())
        for name, schema in properties.items():
            kind = schema.get("type", "any") if isinstance(schema, dict) else "any"
            if name in injected:
                names[name] = f"{kind}, injected from {injected[name]}"
            else:
                names[name] = f"{kind}, {'required' if name in required else 'optional'}"
    for name, meaning in BUILTIN_PLACEHOLDERS.items():
        names.setdefault(name, meaning)  # a parameter of the same name wins
    return names


def _tokens(template: str) -> Iterator[str]:
    for m in _TOKEN.finditer(template):
        yield m.group(1)


def _check_placeholders(
    where: str, template: str, known: Mapping[str, str], tool: str, *, env: bool
) -> list[TemplateProblem]:
    problems = []
    for token in _tokens(template):
        if token.startswith("env:"):
            if not env:
                problems.append(TemplateProblem(
                    where, f"{{{token}}}: environment variables may be used in header values "
                    "only (a secret here would be recorded in request snapshots)",
                ))  # fmt: skip
            elif not _NAME.fullmatch(token[4:]):
                problems.append(TemplateProblem(
                    where, f"{{{token}}}: an environment variable name is letters, digits "
                    "and _ (e.g. {env:TICKETS_API_TOKEN})",
                ))  # fmt: skip
            continue
        if not _NAME.fullmatch(token):
            problems.append(TemplateProblem(
                where, f"{{{token}}} is not a placeholder: a placeholder is {{parameter}} "
                "(letters, digits, _), or {env:NAME} in headers",
            ))  # fmt: skip
        elif token not in known:
            builtins = [k for k, d in known.items() if BUILTIN_PLACEHOLDERS.get(k) == d]
            names = ", ".join(k for k in known if k not in builtins) or "none"
            problems.append(TemplateProblem(
                where, f"{{{token}}} is not a parameter of {tool} (parameters: {names}; "
                f"built-ins: {', '.join(builtins)})",
            ))  # fmt: skip
    return problems


def _body_strings(body: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(body, str):
        yield path, body
    elif isinstance(body, dict):
        for key, value in body.items():
            yield from _body_strings(value, f"{path}.{key}")
    elif isinstance(body, list):
        for i, value in enumerate(body):
            yield from _body_strings(value, f"{path}[{i}]")


def _check_url(
    url: str, allowed: Sequence[str], known: Mapping[str, str], tool: str
) -> list[TemplateProblem]:
    if not url.strip():
        return [TemplateProblem("url", "give the URL template, e.g. https://api.example/x/{id}")]
    problems = _check_placeholders("url", url, known, tool, env=False)
    first = url.find("{")
    static = url if first < 0 else url[:first]
    parts = urlsplit(static)
    if parts.scheme not in ("http", "https"):
        problems.append(TemplateProblem("url", "must start with http:// or https://"))
    elif first >= 0 and "/" not in static[len(parts.scheme) + 3 :]:
        problems.append(TemplateProblem(
            "url", "the scheme and host must be fixed text; placeholders belong in the path "
            "or the query",
        ))  # fmt: skip
    bases = [u.strip() for u in allowed if u.strip()]
    if not bases:
        problems.append(TemplateProblem(
            "allowed", "no allowed base URL: add the API's base URL (e.g. https://api.example) "
            "so calls may go there",
        ))  # fmt: skip
    elif parts.scheme in ("http", "https") and not url_allowed(static, bases):
        # The fixed text decides: whatever the arguments, the call stays under a base.
        shown = static + ("…" if first >= 0 else "")
        problems.append(TemplateProblem(
            "url", f"{shown} is outside the allowed base URLs ({', '.join(bases)})"
        ))  # fmt: skip
    return problems


def check_target(
    target: HttpTarget, tool: ToolContract | None, allowed: Sequence[str]
) -> list[TemplateProblem]:
    """Everything wrong with ``target`` for ``tool``, errors first.

    Args:
        target: The templates as edited.
        tool: The tool they serve (None: only built-in placeholders are known).
        allowed: The registry's allowed base URLs.
    """
    known = placeholder_names(tool)
    name = tool.name if tool else "the tool"
    problems: list[TemplateProblem] = []
    method = target.method.upper()
    if method not in METHODS:
        problems.append(TemplateProblem("method", f"{target.method!r} is not one of "
                                                  f"{', '.join(METHODS)}"))  # fmt: skip
    problems += _check_url(target.url, allowed, known, name)
    for header, value in target.headers.items():
        where = f"headers.{header or '(no name)'}"
        if not _HEADER_NAME.fullmatch(header):
            problems.append(TemplateProblem(where, "a header name is letters, digits and "
                                                   "-_.!#$%&'*+^`|~ without spaces"))  # fmt: skip
        if "\n" in value or "\r" in value:
            problems.append(TemplateProblem(where, "a header value is one line"))
        problems += _check_placeholders(where, value, known, name, env=True)
        if literal_credential(header, value):
            shape = "" if is_secret_header(header) else " (the value looks like a token)"
            problems.append(TemplateProblem(
                where, f"would store a credential in the database{shape}; reference an "
                f"environment variable instead, e.g. Bearer {{env:{_env_suggestion(name)}}}",
            ))  # fmt: skip
    if target.body is not None:
        for path, text in _body_strings(target.body, "body"):
            problems += _check_placeholders(path, text, known, name, env=False)
        if method in ("GET", "DELETE"):
            problems.append(TemplateProblem(
                "body", f"{method} requests usually carry no body; many servers ignore it",
                "warning",
            ))  # fmt: skip
    elif method in ("GET", "DELETE") and tool is not None:
        used = {t for t in _tokens(target.url)} | {t for v in target.headers.values()
                                                   for t in _tokens(v)}  # fmt: skip
        sent = [p for p in (tool.parameters.get("properties") or {}) if p in used]
        if (tool.parameters.get("properties") or {}) and not sent:
            problems.append(TemplateProblem(
                "url", f"no argument reaches the server: a {method} has no body, so name "
                "parameters in the URL, e.g. ?from={start_date}",
                "warning",
            ))  # fmt: skip
    problems.sort(key=lambda p: p.severity != "error")
    return problems


def _env_suggestion(tool: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "_", tool).strip("_").upper() or "API"
    return f"{stem}_TOKEN"


def env_references(target: HttpTarget) -> list[str]:
    """The environment variables the target's headers read, in order, without repeats."""
    names: list[str] = []
    for value in target.headers.values():
        for token in _tokens(value):
            if token.startswith("env:") and token[4:] not in names:
                names.append(token[4:])
    return names


@dataclass(frozen=True, slots=True)
class RequestPreview:
    """What a target sends for some arguments (header secrets stay ``{env:NAME}``).

    Attributes:
        error: Why nothing would be sent (a URL outside the allow-list…), or "".
        env_set: Each referenced environment variable → whether it is set now.
    """

    method: str = ""
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    error: str = ""
    env_set: dict[str, bool] = field(default_factory=dict)


def preview_request(
    target: HttpTarget,
    tool: ToolContract,
    arguments: Mapping[str, Any],
    allowed: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
) -> RequestPreview:
    """Render ``target`` for ``arguments`` as the executor would (never raises)."""
    environ = os.environ if environ is None else environ
    writes = tool.risk is not RiskTier.READ or tool.execution.idempotency.required
    key = SAMPLE_IDEMPOTENCY_KEY.format(tool=tool.name) if writes else ""
    values = template_values(arguments, tool, idempotency_key=key, call_id="call_sample1")
    env_set = {name: bool(environ.get(name)) for name in env_references(target)}
    try:
        method, url, headers, body = build_http_request(
            target, values, allowed, environ=None, default_body=dict(arguments),
            idempotency_key=key,
        )  # fmt: skip
    except ExecutorFailure as exc:
        return RequestPreview(error=exc.message, env_set=env_set)
    return RequestPreview(method, url, headers, body, "", env_set)


def sample_arguments(
    tool: ToolContract, context: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Plausible arguments for previews: the tool's examples, then schema hints.

    Examples come first (later examples only add keys), injected properties
    take the session context's value, and any other property gets its
    default, first enum value, first ``examples`` entry or a typed stand-in.
    """
    args: dict[str, Any] = {}
    for example in tool.examples:
        for key, value in example.arguments.items():
            args.setdefault(key, value)
    context = context or {}
    injected = tool.injected_properties()
    for name, schema in (tool.parameters.get("properties") or {}).items():
        if name in injected:
            path = injected[name].removeprefix("session.")
            args[name] = context.get(path, args.get(name, f"<{path}>"))
        elif name not in args and isinstance(schema, dict):
            args[name] = _stand_in(name, schema)
    return args


def _stand_in(name: str, schema: Mapping[str, Any]) -> Any:
    if "default" in schema:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    if schema.get("examples"):
        return schema["examples"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "integer":
        return max(1, int(schema.get("minimum", 1)))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return False
    if kind == "array":
        item = schema.get("items")
        return [_stand_in(name, item)] if isinstance(item, Mapping) else []
    if kind == "object":
        return {}
    if schema.get("format") == "date":
        return "2024-05-01"
    return f"<{name}>"
