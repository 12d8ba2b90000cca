"""Write ``tests/data/security/train_openapi.jsonl``: benign hard negatives from real API docs.

Run: ``python benchmarks/make_security_negatives.py``

Why: the learned poisoning detector (:mod:`studio.lint.rules.security_learned`)
read topic words — admin, credentials, tokens, "ignore", "never" — as attacks,
because the only benign texts using them were a few hundred look-alikes. Real
API references use those words all the time and benignly: Okta's management
API (732 operations about users, admins, keys, tokens, sessions, device
"jailbreak" flags) and Twilio Verify (codes, secrets, factors). Each operation
is imported with the studio's own OpenAPI importer (so the text is what a
registry would hold), its schema trimmed to the text the linter reads, and
given a stable split by a hash of its name: two thirds ``tune`` (trained on),
one third ``heldout`` (false positives measured there, never trained on).
"""

from __future__ import annotations

import json
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studio.formats.openapi import import_openapi_text

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    ("okta-management-2026.06.2.yaml", "okta-management-openapi-spec@fdda229e (Apache-2.0)"),
    ("twilio_verify_v2.json", "twilio-oai@d50069b4 (MIT)"),
    ("petstore-expanded-3.0.json", "learn.openapis.org@cff6533c (CC-BY-4.0)"),
    ("tictactoe-3.1.yaml", "learn.openapis.org@cff6533c (CC-BY-4.0)"),
)
OUT = ROOT / "tests" / "data" / "security" / "train_openapi.jsonl"
MAX_DEPTH = 4
_KEEP = ("type", "description", "title", "enum", "default", "items", "properties", "required")


def trim(schema: Any, depth: int = 0) -> Any:
    """The parts of a schema the linter reads as text (descriptions, enums, defaults)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key in _KEEP:
        if key not in schema:
            continue
        value = schema[key]
        if key == "properties" and isinstance(value, dict):
            if depth >= MAX_DEPTH:
                continue
            value = {k: trim(v, depth + 1) for k, v in value.items()}
        elif key == "items":
            value = trim(value, depth + 1)
        elif key == "description" and isinstance(value, str):
            value = value[:1500]
        out[key] = value
    return out


def split_of(name: str) -> str:
    """A stable third of the operations is held out (never trained on)."""
    return "heldout" if zlib.crc32(name.encode()) % 3 == 0 else "tune"


def records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for file, source in SOURCES:
        path = ROOT / "tests" / "data" / "openapi" / file
        imported = import_openapi_text(path.read_text(encoding="utf-8"), file)
        registry = imported.result.registry
        for tool in registry.tools:
            doc: dict[str, Any] = {"name": tool.name}
            for field in ("summary", "description", "usage", "returns"):
                value = getattr(tool, field)
                if value:
                    doc[field] = value
            doc["parameters"] = trim(tool.parameters)
            out.append(
                {
                    "id": f"openapi-{registry.name}-{tool.name}",
                    "source": source,
                    "group": f"openapi-{registry.name}",
                    "split": split_of(f"{registry.name}/{tool.name}"),
                    "label": "benign",
                    "lang": "en",
                    "tool": doc,
                }
            )
    return out


def main() -> int:
    recs = records()
    with OUT.open("w", encoding="utf-8") as handle:
        for rec in recs:
            handle.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
    held = sum(r["split"] == "heldout" for r in recs)
    print(f"wrote {OUT} ({len(recs)} records, {held} heldout, {OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
