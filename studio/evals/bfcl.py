"""Import of Berkeley Function Calling Leaderboard (BFCL) data as eval cases and tools.

BFCL ships one JSON-Lines file of questions per category
(``BFCL_v3_simple.json``: ``{"id", "question": [[{"role", "content"}…]],
"function": [{name, description, parameters}]}``) and, for the categories
with an answer, a ground-truth file of the same name under ``possible_answer/``
(``{"id", "ground_truth": [{"tool.name": {"param": [accepted values…]}}]}``,
where ``""`` among the accepted values means the parameter may be left out).

Each question becomes a case: ``simple`` and ``multiple`` expect the one call
of their ground truth (``parallel`` ones expect all of them, in any order),
``irrelevance`` expects no tool. A parameter with one accepted value becomes an
``equals`` matcher, several become ``one_of``; a parameter that may be left out
is not checked (the runtime fills defaults anyway); an object value is matched
key by key. BFCL's own checker also forgives case and punctuation in strings;
these matchers are exact.

The functions become the registry's tools (dots in names, which the providers
refuse, become ``_`` as BFCL's own handlers do; ``dict``/``float``/``tuple``
become ``object``/``number``/``array``). Note that a case then sees every tool
of the registry, not only the two or three its question came with: a harder,
closer-to-production selection task than BFCL's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from studio.contract import join_path
from studio.evals.model import CaseError, EvalCase, parse_case
from studio.formats.base import FormatError, load_json

_TYPES = {"dict": "object", "float": "number", "tuple": "array", "double": "number",
          "long": "integer", "int": "integer", "bool": "boolean", "str": "string",
          "list": "array", "String": "string", "Boolean": "boolean"}  # fmt: skip
_NAME = re.compile(r"[^A-Za-z0-9_-]")
_CATEGORY = re.compile(r"^(.*?)_\d+(?:-\d+)*$")


class BfclError(ValueError):
    """A BFCL file that cannot be read; the message says which file, line and what."""


@dataclass(frozen=True, slots=True)
class BfclImport:
    """What a pair of BFCL files gives: cases, tools (OpenAI form), and what was left out."""

    cases: list[EvalCase] = field(default_factory=list)
    tools: list[dict[str, Any]] = field(default_factory=list)
    categories: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def tool_name(name: str) -> str:
    """A BFCL function name as a provider accepts it (``math.factorial`` → ``math_factorial``)."""
    return _NAME.sub("_", name)


def _schema(value: Any) -> Any:
    """BFCL's Python-flavoured schema as JSON Schema."""
    if isinstance(value, list):
        return [_schema(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, sub in value.items():
        if key == "type" and isinstance(sub, str):
            if sub == "any":
                continue
            out[key] = _TYPES.get(sub, sub)
        elif key == "properties" and isinstance(sub, dict):
            out[key] = {name: _schema(s) for name, s in sub.items()}
        elif key == "optional":
            continue  # a BFCL marker, not JSON Schema
        else:
            out[key] = _schema(sub)
    return out


def _lines(text: str, source: str) -> list[dict[str, Any]]:
    """The objects of a JSON-Lines file (a JSON array is read too)."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:  # the importers' loader: depth, huge integers, lone surrogates
            items = load_json(text, source)
        except FormatError as exc:
            raise BfclError(str(exc)) from None
        if not isinstance(items, list):
            raise BfclError(f"{source}: expected a JSON array of questions or JSON Lines")
        rows = list(enumerate(items, 1))
    else:
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append((number, load_json(line, "")))
            except FormatError as exc:
                column = f" at column {exc.column}" if exc.column else ""
                raise BfclError(
                    f"{source}: line {number}: not JSON ({exc.detail}{column})"
                ) from None
    out = []
    for number, item in rows:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise BfclError(f"{source}: line {number}: expected an object with an id")
        out.append(item)
    return out


def _is_message(value: Any) -> bool:
    """A question turn: an object whose role and content (when present) are strings."""
    return isinstance(value, dict) and all(
        isinstance(value.get(k, ""), str) for k in ("role", "content")
    )


def _category(case_id: str) -> str:
    match = _CATEGORY.match(case_id)
    return match.group(1) if match else case_id


def _matchers(path: str, accepted: Any, out: dict[str, Any]) -> None:
    """Matchers for one ground-truth parameter (see the module docstring)."""
    if not isinstance(accepted, list):
        return
    values = [v for v in accepted if v != ""]
    if not values or len(values) < len(accepted):
        return  # may be left out: not checked
    if len(values) == 1 and isinstance(values[0], dict):
        for key, sub in values[0].items():
            _matchers(join_path(path, key), sub, out)
        return
    if any(isinstance(v, dict) for v in values):
        out[path] = {"present": True}
    elif len(values) == 1:
        out[path] = {"equals": values[0]}
    else:
        out[path] = {"one_of": values}


def _expected_calls(truth: Any, source: str, case_id: str) -> list[dict[str, Any]]:
    if not isinstance(truth, list) or not truth:
        raise BfclError(f"{source}: {case_id}: ground_truth must be a non-empty list of calls")
    calls = []
    for entry in truth:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise BfclError(f"{source}: {case_id}: each ground_truth call is {{name: {{…}}}}")
        [(name, params)] = entry.items()
        if not isinstance(params, dict | None):
            raise BfclError(
                f"{source}: {case_id}: ground_truth {name}: parameters must be an object"
            )
        args: dict[str, Any] = {}
        for param, accepted in (params or {}).items():
            _matchers(join_path("", param), accepted, args)
        call: dict[str, Any] = {"tool": tool_name(name)}
        if args:
            call["args"] = args
        calls.append(call)
    return calls


def _case(item: dict[str, Any], truth: Any, source: str, category: str) -> dict[str, Any]:
    case_id = item["id"]
    question = item.get("question")
    turns = question[0] if isinstance(question, list) and question else None
    if not isinstance(turns, list) or not turns or not all(_is_message(m) for m in turns):
        raise BfclError(f"{source}: {case_id}: question must be [[{{role, content}}, …]]")
    system = "\n\n".join(str(m.get("content", "")) for m in turns if m.get("role") == "system")
    talk = [m for m in turns if m.get("role") in ("user", "assistant")]
    if not talk or talk[-1].get("role") != "user":
        raise BfclError(f"{source}: {case_id}: the question must end with a user message")
    data: dict[str, Any] = {"id": case_id, "tags": ["bfcl", f"bfcl:{category}", "en"]}
    if system:
        data["system"] = system
    earlier = [{"role": m["role"], "content": str(m.get("content", ""))} for m in talk[:-1]]
    if earlier:
        data["turns"] = earlier
    data["user"] = str(talk[-1].get("content", ""))
    if truth is None:
        data["expect"] = {"kind": "no_tool"}
    else:
        calls = _expected_calls(truth, source, case_id)
        if len(calls) == 1:
            data["expect"] = {"kind": "tool", "calls": calls}
        else:
            data["expect"] = {"kind": "tools", "calls": calls, "order": "set"}
    data["note"] = f"BFCL {case_id}"
    return data


def read_bfcl(
    questions: str,
    answers: str | None = None,
    *,
    questions_source: str = "questions",
    answers_source: str = "answers",
) -> BfclImport:
    """Cases and tools from a BFCL question file and its ground truth.

    Args:
        questions: The text of ``BFCL_v3_<category>.json``.
        answers: The text of ``possible_answer/BFCL_v3_<category>.json``; needed by
            every category except those whose name contains ``irrelevance``.
        questions_source / answers_source: File names for the messages.

    Raises:
        BfclError: a file does not read, a question has no ground truth, a case
            does not validate (with the case id and the JSON path).
    """
    items = _lines(questions, questions_source)
    if not items:
        raise BfclError(f"{questions_source}: no questions in the file")
    truths = {a["id"]: a.get("ground_truth") for a in _lines(answers, answers_source)} if (
        answers) else {}  # fmt: skip
    tools: dict[str, dict[str, Any]] = {}
    cases: list[EvalCase] = []
    notes: list[str] = []
    categories: list[str] = []
    for item in items:
        category = _category(item["id"])
        if category not in categories:
            categories.append(category)
        functions = item.get("function") or []
        if not isinstance(functions, list):
            raise BfclError(f"{questions_source}: {item['id']}: function must be a list")
        for function in functions:
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise BfclError(f"{questions_source}: {item['id']}: a function without a name")
            name = tool_name(function["name"])
            parameters = _schema(function.get("parameters") or {"type": "object"})
            description = str(function.get("description", ""))
            spec = {"name": name, "description": description, "parameters": parameters}
            if name in tools and tools[name] != spec:
                notes.append(f"{item['id']}: {name} differs from an earlier definition; "
                             "the first one is kept")  # fmt: skip
            tools.setdefault(name, spec)
        if "irrelevance" in category:
            truth = None
        elif item["id"] in truths:
            truth = truths[item["id"]]
        else:
            where = "its possible_answer file (--answers)" if not answers else answers_source
            raise BfclError(f"{questions_source}: {item['id']}: no ground truth in {where}")
        data = _case(item, truth, questions_source, category)
        if truth is None and "irrelevance" not in category:  # not "expects no tool"
            raise BfclError(f"{answers_source}: {item['id']}: ground_truth is missing")
        own = {tool_name(f["name"]) for f in functions}
        stray = [c["tool"] for c in data["expect"].get("calls", []) if c["tool"] not in own]
        if stray:
            raise BfclError(f"{answers_source}: {item['id']}: ground_truth calls {stray[0]!r}, "
                            "which is not among the question's functions")  # fmt: skip
        try:
            cases.append(parse_case(data))
        except CaseError as exc:
            raise BfclError(f"{questions_source}: {item['id']}: {exc}") from None
    openai_tools = [{"type": "function", "function": t} for t in tools.values()]
    return BfclImport(cases, openai_tools, tuple(categories), notes)
