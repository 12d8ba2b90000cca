"""OpenAPI import benchmark: a 1,000-operation document imports in ≤ 2 s (issue #17).

Run: ``python benchmarks/openapi_import.py [--operations 1000] [--repeat 3] [--yaml]``

The generated document is shaped like a real API: 250 resources, each with
list/create/get/update/delete operations, shared component schemas reached
through ``$ref`` (an ``allOf`` extension, a nested address, an enum), path,
query and header parameters, JSON bodies, 2xx object responses, bearer
security. Timed: text → :class:`~studio.formats.openapi.OpenApiImport`
(decoding, ``$ref`` resolution, conversion, every contract validated, every
target built). Also timed, for information: the real Okta Management document
committed under ``tests/data/openapi`` (732 operations, 2.3 MB of YAML).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studio.formats import files
from studio.formats.openapi import import_openapi_text

TARGET_SECONDS = 2.0
OKTA = Path(__file__).resolve().parents[1] / "tests/data/openapi/okta-management-2026.06.2.yaml"


def _components() -> dict[str, Any]:
    return {
        "schemas": {
            "Address": {"type": "object", "required": ["city"], "properties": {
                "street": {"type": "string"}, "city": {"type": "string"},
                "country": {"type": "string", "enum": ["FR", "DE", "CN", "US"]}}},
            "Base": {"type": "object", "properties": {
                "id": {"type": "string", "readOnly": True},
                "created": {"type": "string", "format": "date-time", "readOnly": True},
                "note": {"type": "string", "nullable": True}}},
            "Status": {"type": "string", "enum": ["open", "closed", "pending"]},
        },
        "parameters": {
            "Limit": {"name": "limit", "in": "query",
                      "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
            "RequestId": {"name": "X-Request-Id", "in": "header", "schema": {"type": "string"}},
        },
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    }  # fmt: skip


def _resource(i: int, schemas: dict[str, Any]) -> dict[str, Any]:
    noun = f"widget{i}"
    schemas[f"Widget{i}"] = {"allOf": [{"$ref": "#/components/schemas/Base"}, {
        "type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "maxLength": 80, "example": f"w{i}"},
            "status": {"$ref": "#/components/schemas/Status"},
            "address": {"$ref": "#/components/schemas/Address"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "weight": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}}]}  # fmt: skip
    ref = {"$ref": f"#/components/schemas/Widget{i}"}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": ref}}}}
    body = {"required": True, "content": {"application/json": {"schema": ref}}}
    item_id = {"name": f"{noun}Id", "in": "path", "required": True, "schema": {"type": "string"}}
    common = [{"$ref": "#/components/parameters/RequestId"}]
    return {
        f"/{noun}s": {
            "get": {"operationId": f"list{noun.title()}s", "summary": f"List {noun}s",
                    "tags": [f"group{i % 20}"],
                    "parameters": [{"$ref": "#/components/parameters/Limit"}, *common,
                                   {"name": "status", "in": "query",
                                    "schema": {"$ref": "#/components/schemas/Status"}}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"type": "object", "properties": {
                            "items": {"type": "array", "items": ref}}}}}}}},
            "post": {"operationId": f"create{noun.title()}", "summary": f"Create a {noun}",
                     "tags": [f"group{i % 20}"], "parameters": common, "requestBody": body,
                     "responses": {"201": ok["200"]}},
        },
        f"/{noun}s/{{{noun}Id}}": {
            "parameters": [item_id],
            "get": {"operationId": f"get{noun.title()}", "description": f"One {noun} by id.",
                    "responses": ok},
            "patch": {"operationId": f"update{noun.title()}", "requestBody": body,
                      "responses": ok},
            "delete": {"summary": f"Delete a {noun}",
                       "responses": {"204": {"description": "gone"}}},
        },
    }  # fmt: skip


def make_document(operations: int) -> dict[str, Any]:
    """A document of ``operations`` operations (a multiple of 5)."""
    components = _components()
    paths: dict[str, Any] = {}
    for i in range(operations // 5):
        paths.update(_resource(i, components["schemas"]))
    return {
        "openapi": "3.0.3",
        "info": {"title": "Benchmark API", "version": "1.0"},
        "servers": [{"url": "https://api.bench.example/v1"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": components,
    }


def _time(text: str, source: str, repeat: int) -> tuple[list[float], int]:
    times, tools = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        imported = import_openapi_text(text, source)
        times.append(time.perf_counter() - start)
        tools = len(imported.result.registry.tools)
    return times, tools


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--yaml", action="store_true", help="time the document as YAML too")
    args = parser.parse_args()

    document = make_document(args.operations)
    text = json.dumps(document)
    import_openapi_text(json.dumps(make_document(10)), "warmup.json")
    times, tools = _time(text, "bench.json", args.repeat)
    best, median = min(times), statistics.median(times)
    verdict = "OK" if median <= TARGET_SECONDS else "SLOW"
    print(f"generated JSON, {args.operations} operations ({len(text) / 1e6:.1f} MB): "
          f"{tools} tools, median {median:.2f} s, best {best:.2f} s "
          f"(target ≤ {TARGET_SECONDS} s) {verdict}")  # fmt: skip
    if args.yaml:
        import yaml

        yaml_text = yaml.safe_dump(document, sort_keys=False)
        ytimes, _ = _time(yaml_text, "bench.yaml", args.repeat)
        print(f"generated YAML, same document: median {statistics.median(ytimes):.2f} s")
    if OKTA.exists():
        okta = files.read_text(OKTA, OKTA.name)
        otimes, otools = _time(okta, OKTA.name, args.repeat)
        print(f"Okta Management (YAML, 2.3 MB): {otools} tools, "
              f"median {statistics.median(otimes):.2f} s")  # fmt: skip
    return 0 if verdict == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
