"""Issue 16: the content hash written by orjson is byte for byte the json.dumps text.

An imported session's id is the start of its content hash, so a conversation
imported before this change must get the same id after it (found as "already
imported", not stored twice). The fast writer is checked against the definition,
``json.dumps(document, sort_keys=True, ensure_ascii=True, separators=(",", ":"))``,
on odd values and on random documents, and the hash of every fixture log.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from studio.sessions.import_hash import canonical_text
from studio.sessions.importers import import_sessions
from studio.sessions.library import content_hash
from studio.sessions.model import message_to_dict

FIXTURES = Path(__file__).parent / "fixtures"


def _definition(value: Any) -> bytes:
    text = json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return text.encode("ascii")


ODD_VALUES: list[Any] = [
    {"b": 1, "a": {"d": [1, {"z": None, "y": True}], "c": False}},
    "".join(chr(i) for i in range(0x80)),  # every control character, DEL
    'quote " backslash \\ slash / tab \t',
    "好 é \U0001f600 \u2028",
    "\ud800 lone",
    "0.00001 e-5] null",  # strings that only look like what orjson spells apart
    [1e-4, 1e-5, 9.3e-5, 1e-7, 1.5e-9, 1e-10, 3e-11, 5e-324, -0.0, 1e15, 1e16, 1.5e300],
    [math.nan, math.inf, -math.inf],
    [2**63, 2**64, -(2**63) - 1, 10**30],
    {1: "int key", 2: "another"},
    ("a", "tuple"),
    {"k\u00e9y": 1, "key": 2, "ke": 3},
    [],
    {},
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=range(len(ODD_VALUES)))
def test_odd_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert canonical_text(value) == _definition(value)


def _random_string(rng: random.Random) -> str:
    pools = ["abc xyz", "0123456789.e-+", '\x00\x01\n\t\x1f\x7f"\\/', "好é😀", "\ud800"]
    weights = [50, 20, 10, 10, 1]
    return "".join(rng.choice(rng.choices(pools, weights)[0]) for _ in range(rng.randint(0, 12)))


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randint(0, 9 if depth < 4 else 5)
    if kind == 0:
        return _random_string(rng)
    if kind == 1:
        return rng.choice([None, True, False])
    if kind == 2:
        return rng.randint(-(2**70), 2**70) if rng.random() < 0.1 else rng.randint(-1000, 1000)
    if kind in (3, 4):
        return rng.uniform(-1, 1) * 10 ** rng.randint(-12, 20)
    if kind == 5:
        return _random_string(rng)
    if kind in (6, 7):
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_random_string(rng): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def test_random_documents_are_written_as_json_dumps_writes_them() -> None:
    rng = random.Random(16)
    for _ in range(3000):
        value = _random_value(rng)
        assert canonical_text(value) == _definition(value), value


def _hash_by_definition(session: Any) -> str:
    document = {
        "format": session.source_format,
        "messages": [message_to_dict(m) for m in session.messages],
        "tools": session.tools,
        "meta": session.meta,
        "title": session.title,
    }
    return "sha256:" + hashlib.sha256(_definition(document)).hexdigest()


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir() if p.is_file()), ids=str)
def test_the_hash_of_every_fixture_log_is_unchanged(name: str) -> None:
    outcome = import_sessions(FIXTURES / name)
    assert outcome.sessions
    for session in outcome.sessions:
        assert content_hash(session) == _hash_by_definition(session)
