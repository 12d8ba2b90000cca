"""OpenAPI 3.0 / 3.1 import: each operation becomes a contract and its HTTP target.

What an operation becomes (issue #17):

- **name**: ``operationId`` in snake case (``listPets`` → ``list_pets``), else
  a verb from the method and the path's words (``GET /pets/{id}`` →
  ``get_pets_by_id``); a rename is noted and the original kept in the tool's
  ``meta`` (``{"openapi": {"operationId", "method", "path"}}``).
- **summary / usage** from ``summary`` and ``description``; **tags** kept.
- **parameters**: one object schema merging path, query and header
  parameters and the JSON body's properties. Property names are made
  placeholder-safe (``X-Request-Id`` → ``x_request_id``); a clash between
  places is resolved by prefixing the later one with its place
  (``body_id``), noted. ``required`` is carried over, ``readOnly``
  properties are left out, enums and formats kept. Cookie parameters,
  multipart and XML bodies and callbacks cannot be expressed: noted ``lost``.
- **examples**: parameter and body examples as example calls.
- **output_schema**: the first 2xx JSON response, when it is an object.
- **risk**: GET/HEAD read, POST/PUT/PATCH write, DELETE destructive (a guess, noted).
- **HTTP target** (:mod:`studio.runtime.http_targets` form): method, URL from
  the first server (variables at their defaults) and the path, query
  parameters in the URL, header parameters and security schemes as headers
  (credentials as ``{env:NAME}``, never a literal), the body template; the
  server's base URL is the allow-list.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import jsonschema_rs

from studio.contract import ContractError, Problem, Registry, parse_tool
from studio.contract.model import NAME_PATTERN
from studio.contract.risk import guess_risk
from studio.formats.base import FormatError, ImportResult, Note, kind_of
from studio.formats.openapi_load import load_document
from studio.formats.openapi_schema import Refs

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_IMPORTED = ("GET", "PUT", "POST", "DELETE", "PATCH", "HEAD")
_VERBS = {"GET": "get", "HEAD": "head", "POST": "create", "PUT": "replace", "PATCH": "update",
          "DELETE": "delete"}  # fmt: skip
_NAME_RE = re.compile(NAME_PATTERN)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_PATH_PARAM = re.compile(r"\{([^{}]+)\}")
_SERVER_VAR = re.compile(r"\{([^{}]+)\}")
_JSON_TYPES = re.compile(r"^application/([\w.-]+\+)?json\b|^\*/\*$|^application/\*$")


@dataclass(frozen=True)
class ImportOptions:
    """Which operations to import and where their targets point.

    Attributes:
        include_tags: Keep operations with one of these tags (none: all).
        include_paths: Keep operations whose path matches one of these globs.
        exclude_deprecated: Leave deprecated operations out.
        base_url: Use this base URL instead of the document's first server.
        operations: Keep only these ``(METHOD, path)`` pairs (the picker's choice).
    """

    include_tags: tuple[str, ...] = ()
    include_paths: tuple[str, ...] = ()
    exclude_deprecated: bool = False
    base_url: str | None = None
    operations: frozenset[tuple[str, str]] | None = None


@dataclass(frozen=True)
class Operation:
    """One operation of the document, as the picker lists it."""

    method: str
    path: str
    operation_id: str
    summary: str
    tags: tuple[str, ...]
    deprecated: bool
    where: str


@dataclass
class OpenApiImport:
    """An import: the registry, notes, and the HTTP target of every tool.

    Attributes:
        targets: Tool name → target in the JSON form of
            :func:`studio.runtime.http_targets.target_to_dict`.
        allowed_base_urls: The base URLs the targets use (the allow-list).
    """

    result: ImportResult
    targets: dict[str, dict[str, Any]] = field(default_factory=dict)
    allowed_base_urls: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=list)
    """Where each imported operation is (``paths['/pets'].get``), in document order."""

    def notes_by_operation(self) -> dict[str, list[Note]]:
        """The notes grouped per operation (key: its ``where``); ``""`` holds the document's."""
        return group_notes(self.result.notes, self.operations)


def _operation_of(path: str, operations: set[str]) -> str:
    """The operation ``path`` lies in ("" for none): its prefix ending at a ``.`` or ``[``."""
    if path in operations:
        return path
    for i, char in enumerate(path):
        if char in ".[" and path[:i] in operations:
            return path[:i]
    return ""


def group_notes(notes: list[Note], operations: list[str]) -> dict[str, list[Note]]:
    """``notes`` per operation, operations in ``operations`` order; document notes under ``""``.

    A reviewer reads an import one operation at a time (the picker's preview,
    the import report): the rename, the risk guess, what a body lost and the
    ``$ref`` notes an operation's schemas caused sit together.
    """
    groups: dict[str, list[Note]] = {"": []}
    groups.update((where, []) for where in operations)
    known = set(operations)
    for note in notes:
        groups[_operation_of(note.path, known)].append(note)
    return {k: v for k, v in groups.items() if v}


def read_document(text: str, source: str) -> dict[str, Any]:
    """Decode and check an OpenAPI 3.x document (JSON or YAML).

    Raises:
        FormatError: not a document, Swagger 2.0, or another version.
    """
    data = load_document(text, source)
    check_document(data, source)
    return data


def check_document(data: Any, source: str) -> None:
    """Refuse what is not an OpenAPI 3.0/3.1 document, saying what it is."""
    if not isinstance(data, dict):
        raise FormatError(f"{source}: an OpenAPI document is an object, not {kind_of(data)}")
    if "swagger" in data:
        raise FormatError(
            f"{source}: Swagger {data.get('swagger')} is not supported; convert it to "
            "OpenAPI 3 first (e.g. swagger2openapi)"
        )
    version = data.get("openapi")
    if not isinstance(version, str) or not re.match(r"3\.[01]\.", version + "."):
        raise FormatError(f"{source}: openapi: expected 3.0.x or 3.1.x, not {version!r}")
    if not isinstance(data.get("paths", {}), dict):
        raise FormatError(f"{source}: paths: must be an object, not {kind_of(data['paths'])}")


def list_operations(data: dict[str, Any], source: str = "") -> list[Operation]:
    """Every importable operation, in document order (for the picker)."""
    refs = Refs(data, source, _version(data))
    ops = []
    for path, method, op, where in _walk(data, refs):
        ops.append(
            Operation(
                method,
                path,
                str(op.get("operationId") or ""),
                str(op.get("summary") or ""),
                _tags(op),
                op.get("deprecated") is True,
                where,
            )
        )
    return ops


def import_openapi_text(
    text: str, source: str, *, name: str | None = None, options: ImportOptions | None = None
) -> OpenApiImport:
    """Import an OpenAPI document given as text (see :func:`import_openapi`)."""
    return import_openapi(read_document(text, source), source, name=name, options=options)


def import_openapi(
    data: dict[str, Any],
    source: str,
    *,
    name: str | None = None,
    options: ImportOptions | None = None,
) -> OpenApiImport:
    """Every selected operation of ``data`` as a contract with its HTTP target.

    Args:
        data: The decoded document (:func:`read_document`).
        source: The file name, for messages.
        name: Registry name; else the slug of ``info.title``.
        options: Filters and the base URL.

    Raises:
        FormatError: listing every problem (remote or broken ``$ref``, a
            contract that does not validate), each with its place.
    """
    check_document(data, source)
    options = options or ImportOptions()
    refs = Refs(data, source, _version(data))
    builder = _Builder(data, source, refs, options)
    for path, method, op, where in _walk(data, refs, builder.notes):
        if _selected(path, method, op, options):
            try:
                builder.add(path, method, op, where)
            except (AttributeError, TypeError, KeyError, IndexError) as exc:
                # A field of a type no check above foresaw: the operation, not a traceback.
                builder.problems.append(Problem(where, f"a field has a type the importer cannot "
                                                f"read ({type(exc).__name__}: {exc})"))  # fmt: skip
    if not builder.tools and not builder.problems:
        builder.notes.append(Note("paths", "no operation matched; the registry is empty", "info"))
    if builder.problems:
        raise FormatError.from_problems(builder.problems, source)
    info: dict[str, Any] = data["info"] if isinstance(data.get("info"), dict) else {}
    title = str(info.get("title") or "")
    registry = Registry(
        name=name or _slug(title) or "openapi", title=title, tools=tuple(builder.tools)
    )
    notes = builder.notes + _dedupe(refs.notes)
    if isinstance(data.get("webhooks"), dict) and data["webhooks"]:
        notes.append(
            Note("webhooks", "webhooks describe calls to you, not tools; not imported", "lost")
        )
    # The document's notes first, then each operation's together (group_notes).
    grouped = group_notes(notes, builder.operations)
    notes = [n for group in grouped.values() for n in group]
    return OpenApiImport(
        ImportResult(registry, notes, "openapi"),
        builder.targets,
        [builder.base_url] if builder.base_url else [],
        builder.operations,
    )


def _version(data: dict[str, Any]) -> str:
    return "3.1" if str(data.get("openapi", "")).startswith("3.1") else "3.0"


def _walk(
    data: dict[str, Any], refs: Refs, notes: list[Note] | None = None
) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """Every operation as (path, METHOD, operation, where); what is not an object is
    skipped with a note in ``notes`` (a ``null`` operation would otherwise vanish)."""
    skipped = [] if notes is None else notes
    for path, item in (data.get("paths") or {}).items():
        where = f"paths[{path!r}]"
        item = refs.deref(item, where)
        if not isinstance(item, dict):
            skipped.append(Note(where, f"a path item must be an object, not {kind_of(item)}; "
                                "skipped", "lost"))  # fmt: skip
            continue
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                yield path, method.upper(), {**op, "_item": item}, f"{where}.{method}"
            elif method in item:
                skipped.append(Note(f"{where}.{method}", "an operation must be an object, not "
                                    f"{kind_of(op)}; skipped", "lost"))  # fmt: skip


def _tags(op: dict[str, Any]) -> tuple[str, ...]:
    """The operation's tags that are strings (``tags: 5`` is no tags)."""
    tags = op.get("tags")
    return tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else ()


def _selected(path: str, method: str, op: dict[str, Any], options: ImportOptions) -> bool:
    if options.operations is not None and (method, path) not in options.operations:
        return False
    if options.exclude_deprecated and op.get("deprecated") is True:
        return False
    if options.include_tags and not set(_tags(op)) & set(options.include_tags):
        return False
    return not options.include_paths or any(
        fnmatch.fnmatchcase(path, glob) for glob in options.include_paths
    )


def _slug(text: str) -> str:
    return _NON_WORD.sub("-", text).strip("-").lower()[:64]


def snake(text: str) -> str:
    """``listPets`` → ``list_pets``; ``repos/get-content`` → ``repos_get_content``."""
    return _NON_WORD.sub("_", _CAMEL.sub("_", text)).strip("_").lower()


def identifier(text: str) -> str:
    """A placeholder-safe property name (letters, digits, ``_``; not starting with a digit)."""
    name = snake(text) if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text) else text
    if not name or name[0].isdigit():
        name = "p_" + name
    return name


def _env_prefix(title: str) -> str:
    """``Okta Admin Management API`` → ``OKTA_ADMIN_MANAGEMENT_API`` (whole words, ≤ 32)."""
    prefix = ""
    for word in snake(title).upper().split("_"):
        if len(prefix) + len(word) + 1 > 32:
            break
        prefix = f"{prefix}_{word}" if prefix else word
    return prefix or "API"


def _example_fits(params: dict[str, Any], arguments: dict[str, Any]) -> bool:
    try:
        return bool(jsonschema_rs.validator_for(params).is_valid(arguments))
    except (ValueError, TypeError, OverflowError):
        return False


def _dedupe(notes: list[Note]) -> list[Note]:
    return list(dict.fromkeys(notes))


class _Builder:
    """Turns operations into tool documents and targets, gathering notes and problems."""

    def __init__(
        self, data: dict[str, Any], source: str, refs: Refs, options: ImportOptions
    ) -> None:
        self.data = data
        self.source = source
        self.refs = refs
        self.tools: list[Any] = []
        self.targets: dict[str, dict[str, Any]] = {}
        self.notes: list[Note] = []
        self.operations: list[str] = []
        self.problems: list[Problem] = []
        self._names: dict[str, str] = {}
        if options.base_url and urlsplit(options.base_url).scheme not in ("http", "https"):
            # Every target's URL starts with it, and it joins the allowed base URLs.
            raise FormatError(
                f"--base-url {options.base_url!r}: must be an http:// or https:// URL"
            )
        self.base_url = options.base_url.rstrip("/") if options.base_url else self._server_url()
        components = data.get("components")
        schemes = components.get("securitySchemes") if isinstance(components, dict) else None
        self.schemes = schemes if isinstance(schemes, dict) else {}
        info: dict[str, Any] = data["info"] if isinstance(data.get("info"), dict) else {}
        self.env_prefix = _env_prefix(str(info.get("title") or ""))

    def note(self, where: str, message: str, kind: str = "info") -> None:
        self.notes.append(Note(where, message, kind))  # type: ignore[arg-type]

    def _server_url(self) -> str:
        servers = self.data.get("servers")
        if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
            self.note(
                "servers", "no server; target URLs are relative until a base URL is given", "lost"
            )
            return ""
        server = servers[0]
        variables = server.get("variables") or {}

        def default(m: re.Match[str]) -> str:
            var = variables.get(m.group(1))
            return str(var.get("default", m.group(0))) if isinstance(var, dict) else m.group(0)

        raw = server.get("url")
        if not isinstance(raw, str) or not isinstance(variables, dict):
            what = "url must be a string" if not isinstance(raw, str) else "variables: not a map"
            self.note("servers[0]", f"{what}; target URLs are relative until a base URL is given",
                      "lost")  # fmt: skip
            return ""
        url = _SERVER_VAR.sub(default, raw).rstrip("/")
        if variables:
            self.note("servers[0]", f"server variables set to their defaults: {url}", "guessed")
        scheme = urlsplit(url).scheme
        if not scheme:
            self.note("servers[0]", f"server URL {url!r} is relative; give a base URL", "lost")
        elif scheme not in ("http", "https"):
            self.note("servers[0]", f"server URL {url!r} is not http(s); not used", "lost")
            return ""
        return url

    # ------------------------------------------------------------------ one operation

    def add(self, path: str, method: str, op: dict[str, Any], where: str) -> None:
        item = op.pop("_item")
        self.operations.append(where)
        name = self._name(path, method, op, where)
        if name is None:
            return
        props: dict[str, Any] = {}
        required: list[str] = []
        places: dict[str, str] = {}
        query: list[tuple[str, str]] = []
        headers: dict[str, str] = {}
        url_path = path
        examples: dict[str, Any] = {}
        for param, pwhere in self._parameters(item, op, where):
            loc, raw = param.get("in"), str(param.get("name", ""))
            if loc == "cookie":
                self.note(
                    pwhere, f"cookie parameter {raw!r} cannot be sent by the HTTP executor", "lost"
                )
                continue
            if loc not in ("path", "query", "header"):
                continue
            if loc == "header" and raw.lower() in ("accept", "content-type", "authorization"):
                continue  # OpenAPI ignores these as parameters
            prop = self._prop_name(raw, loc, props, pwhere)
            schema = self._param_schema(param, pwhere)
            props[prop] = schema
            places[prop] = loc
            if param.get("required") is True or loc == "path":
                required.append(prop)
            if "example" in param:
                examples[prop] = param["example"]
            elif isinstance(param.get("examples"), dict) and param["examples"]:
                first = next(iter(param["examples"].values()))
                if isinstance(first, dict) and "value" in first:  # a $ref'd example is skipped
                    examples[prop] = first["value"]
            if loc == "path":
                url_path = url_path.replace("{" + raw + "}", "{" + prop + "}")
            elif loc == "query":
                query.append((raw, prop))
            else:
                headers[raw] = "{" + prop + "}"
        body = self._body(op, where, props, places, required, examples)
        callbacks = op.get("callbacks")
        for cb in callbacks if isinstance(callbacks, dict) else {}:
            self.note(
                f"{where}.callbacks", f"callback {cb!r} cannot be expressed as a tool", "lost"
            )
        headers.update(self._security(op, where))
        url = self.base_url + url_path
        if query:
            url += "?" + "&".join(f"{raw}={{{prop}}}" for raw, prop in query)
        target: dict[str, Any] = {"method": method, "url": url, "headers": headers}
        if body is not None:
            target["body"] = body
        params: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            params["required"] = list(dict.fromkeys(required))
        doc = self._tool_doc(name, path, method, op, where, params, examples)
        try:
            self.tools.append(parse_tool(doc, where))
        except ContractError as exc:
            self.problems.extend(exc.problems)
            return
        self.targets[name] = target

    def _name(self, path: str, method: str, op: dict[str, Any], where: str) -> str | None:
        op_id = op.get("operationId")
        if isinstance(op_id, str) and op_id:
            name = snake(op_id)
        else:
            words = [snake(s) for s in path.split("/") if s and not s.startswith("{")]
            params = [snake(s[1:-1]) for s in path.split("/") if s.startswith("{")]
            verb = _VERBS.get(method, method.lower())
            if method == "GET" and not path.rstrip("/").endswith("}"):
                verb = "list"
            name = "_".join([verb, *words] + (["by", *params[-1:]] if params else []))
        name = name[:64].strip("_") or method.lower()
        base, n = name, 2
        while name in self._names:
            suffix = f"_{n}"
            name = base[: 64 - len(suffix)] + suffix
            n += 1
        if not _NAME_RE.fullmatch(name):
            self.problems.append(Problem(where, f"cannot make a tool name of {op_id!r}"))
            return None
        original = op_id if isinstance(op_id, str) and op_id else f"{method} {path}"
        if name != original:
            self.note(where, f"{original!r} imported as {name!r}", "info")
        self._names[name] = where
        return name

    def _parameters(
        self, item: dict[str, Any], op: dict[str, Any], where: str
    ) -> list[tuple[dict[str, Any], str]]:
        merged: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
        for level, owner in (("", item), ("", op)):
            listed = owner.get("parameters") or []
            lwhere = f"{where}.parameters" if owner is op else f"{where}(path item).parameters"
            if not isinstance(listed, list):
                self.note(lwhere, f"must be an array, not {kind_of(listed)}; ignored", "lost")
                continue
            for i, raw in enumerate(listed):
                pwhere = f"{lwhere}[{i}]"
                param = self.refs.deref(raw, pwhere)
                if isinstance(param, dict):
                    merged[(str(param.get("in")), str(param.get("name")))] = (param, pwhere + level)
                else:
                    self.note(pwhere, f"a parameter must be an object, not {kind_of(param)}; "
                              "skipped", "lost")  # fmt: skip
        return list(merged.values())

    def _param_schema(self, param: dict[str, Any], where: str) -> dict[str, Any]:
        raw = param.get("schema")
        if raw is None and isinstance(param.get("content"), dict):
            media: Any = next(iter(param["content"].values()), {}) or {}
            raw = media.get("schema") if isinstance(media, dict) else None
        if raw is not None and not isinstance(raw, dict | bool):
            self.note(f"{where}.schema", f"must be an object, not {kind_of(raw)}; any value is "
                      "accepted", "lost")  # fmt: skip
        schema = dict(self.refs.schema(raw or {}, where, "input"))
        if param.get("description") and "description" not in schema:
            schema["description"] = str(param["description"])
        if param.get("deprecated") is True:
            schema["deprecated"] = True
        return schema

    def _prop_name(self, raw: str, loc: str, props: dict[str, Any], where: str) -> str:
        prop = identifier(raw)
        if prop != raw:
            self.note(where, f"{loc} parameter {raw!r} is the property {prop!r}", "info")
        if prop in props:
            renamed = f"{loc}_{prop}"
            n = 2
            while renamed in props:
                renamed = f"{loc}_{prop}_{n}"
                n += 1
            self.note(
                where, f"{loc} parameter {raw!r} clashes with another; named {renamed!r}", "guessed"
            )
            prop = renamed
        return prop

    def _body(
        self,
        op: dict[str, Any],
        where: str,
        props: dict[str, Any],
        places: dict[str, str],
        required: list[str],
        examples: dict[str, Any],
    ) -> Any:
        raw = op.get("requestBody")
        if raw is None:
            return None
        bwhere = f"{where}.requestBody"
        body = self.refs.deref(raw, bwhere)
        content = body.get("content") if isinstance(body, dict) else None
        if not isinstance(content, dict) or not content:
            return None
        media_type = next((m for m in content if _JSON_TYPES.match(m.lower())), None)
        form = next(
            (m for m in content if m.lower().startswith("application/x-www-form-urlencoded")), None
        )
        if media_type is None and form is not None:
            media_type = form
            self.note(bwhere, f"{form} body: the HTTP executor sends it as JSON", "guessed")
        if media_type is None:
            kinds = ", ".join(content)
            self.note(
                bwhere, f"body of type {kinds} cannot be expressed (multipart, XML …)", "lost"
            )
            return None
        media = content[media_type] or {}
        if not isinstance(media, dict):
            self.note(f"{bwhere}.content", f"{media_type} must be an object, not "
                      f"{kind_of(media)}; any body is accepted", "lost")  # fmt: skip
            media = {}
        schema = self.refs.schema(media.get("schema") or {}, bwhere, "input")
        body_required = isinstance(body, dict) and body.get("required") is True
        example = media.get("example")
        if example is None and isinstance(media.get("examples"), dict):
            first = next(iter(media["examples"].values()), None)
            try:
                first = self.refs.deref(first, bwhere)
            except FormatError as exc:  # only an example: note it, import the rest
                self.note(bwhere, f"example not used: {exc.detail}", "lost")
                first = None
            if isinstance(first, dict):
                example = first.get("value")
        fields = schema.get("properties")
        composite = any(k in schema for k in ("oneOf", "anyOf", "allOf", "$ref"))
        if (
            isinstance(fields, dict)
            and fields
            and not composite
            and schema.get("type", "object") == "object"
        ):
            template: dict[str, str] = {}
            for field_name, field_schema in fields.items():
                prop = identifier(field_name)
                if prop in props:
                    renamed = f"body_{prop}"
                    self.note(bwhere, f"body property {field_name!r} clashes with a {places[prop]} "
                              f"parameter; named {renamed!r}", "guessed")  # fmt: skip
                    prop = renamed
                props[prop] = field_schema
                places[prop] = "body"
                template[field_name] = "{" + prop + "}"
                if body_required and field_name in (schema.get("required") or ()):
                    required.append(prop)
            if isinstance(example, dict):
                examples.update({identifier(k): v for k, v in example.items() if k in fields})
            return template
        prop = "body" if "body" not in props else "request_body"
        props[prop] = schema
        places[prop] = "body"
        if body_required:
            required.append(prop)
        if example is not None:
            examples[prop] = example
        return "{" + prop + "}"

    def _security(self, op: dict[str, Any], where: str) -> dict[str, str]:
        requirements = op.get("security", self.data.get("security"))
        if not isinstance(requirements, list) or not requirements:
            return {}
        first = requirements[0] if isinstance(requirements[0], dict) else {}
        headers: dict[str, str] = {}
        for scheme_name in first:
            scheme = self.refs.deref(self.schemes.get(scheme_name), f"{where}.security")
            if not isinstance(scheme, dict):
                continue
            env = f"{self.env_prefix}_{snake(scheme_name).upper()}"
            kind, where_in = scheme.get("type"), scheme.get("in")
            if kind == "apiKey" and where_in == "header" and scheme.get("name"):
                headers[str(scheme["name"])] = f"{{env:{env}}}"
            elif kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
                headers["Authorization"] = f"Basic {{env:{env}}}"
            elif kind in ("http", "oauth2", "openIdConnect"):
                headers["Authorization"] = f"Bearer {{env:{env}}}"
            else:
                self.note(
                    f"{where}.security",
                    f"security scheme {scheme_name!r} ({kind} in {where_in}) cannot be sent "
                    "without a literal credential in the URL or a cookie; left out",
                    "lost",
                )
        return headers

    def _output(self, op: dict[str, Any], where: str) -> tuple[dict[str, Any] | None, str]:
        responses = op.get("responses") or {}
        if not isinstance(responses, dict):
            self.note(f"{where}.responses", f"must be an object, not {kind_of(responses)}; "
                      "no output schema", "lost")  # fmt: skip
            return None, ""
        for code, raw in responses.items():
            if not str(code).startswith("2"):
                continue
            rwhere = f"{where}.responses[{code!r}]"
            response = self.refs.deref(raw, rwhere)
            if not isinstance(response, dict):
                continue
            text = str(response.get("description") or "")
            content = response.get("content") or {}
            content = content if isinstance(content, dict) else {}
            media_type = next((m for m in content if _JSON_TYPES.match(m.lower())), None)
            if media_type is None:
                return None, text
            media = content[media_type] if isinstance(content[media_type], dict) else {}
            schema = self.refs.schema(media.get("schema") or {}, rwhere, "output")
            if schema.get("type") == "object" or (
                "type" not in schema and isinstance(schema.get("properties"), dict)
            ):
                return {"type": "object", **schema}, text
            if schema:
                self.note(rwhere, f"the response is {schema.get('type', 'not an object')}; "
                          "an output schema must be an object, so none is set", "lost")  # fmt: skip
            return None, text
        return None, ""

    def _tool_doc(
        self,
        name: str,
        path: str,
        method: str,
        op: dict[str, Any],
        where: str,
        params: dict[str, Any],
        examples: dict[str, Any],
    ) -> dict[str, Any]:
        summary = str(op.get("summary") or "").strip()
        description = str(op.get("description") or "").strip()
        if not summary and description:
            summary = description.split("\n", 1)[0].strip()
        tier, why = guess_risk(name, description or summary, method=method)
        risk = tier.value
        self.note(where, why or f"risk {risk!r} guessed from {method}", "guessed")
        output, returns = self._output(op, where)
        doc: dict[str, Any] = {
            "name": name,
            "summary": summary,
            "usage": description if description != summary else "",
            "returns": returns,
            "parameters": params,
            "risk": risk,
            "execution": {"timeout_tier": "read" if risk == "read" else "write"},
            "tags": list(_tags(op)),
            "meta": {
                "openapi": {
                    "operationId": str(op.get("operationId") or ""),
                    "method": method,
                    "path": path,
                }
            },
        }
        if output is not None:
            doc["output_schema"] = output
        if examples and _example_fits(params, examples):
            doc["examples"] = [
                {"description": f"example call of {method} {path}", "arguments": examples}
            ]
        elif examples:
            self.note(where, "the document's examples do not make a whole valid call; "
                      "no example call kept", "lost")  # fmt: skip
        if op.get("deprecated") is True:
            doc["deprecated"] = {"replacement": "", "reason": "deprecated in the OpenAPI document"}
        return doc
