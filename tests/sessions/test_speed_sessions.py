"""Issue 16: the fast paths of ``sessions import``/``check`` change no value and no error.

``sessions check FILE`` without a registry must not open (or import) the database;
the importers' orjson loader must give exactly what the safe loader gives (values,
and the same refusals); imported messages stored via orjson must decode to the
same values as json.dumps would have stored.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from registry_db.sessions import _dumps, _dumps_fast
from studio.formats.base import FormatError, load_json
from studio.sessions.importers.base import parse_json
from studio.sessions.pairing import _is_json_object

ROOT = Path(__file__).resolve().parents[2]

HOSTILE_AND_ODD = [
    '{"a": 1, "a": 2}',
    "[12345678901234567890123]",
    "[-9223372036854775809]",
    "[18446744073709551615]",
    "[9223372036854775807, -9223372036854775808]",
    "[1e400]",
    "[-1e400]",
    "[NaN, Infinity, -Infinity]",
    '"\\ud800"',
    '{"k\\udfff": 1}',
    '"\\ud83d\\ude00 好"',
    "[" * 101 + "]" * 101,
    "[" * 100 + "]" * 100,
    '{"a":' * 150 + "1" + "}" * 150,
    "[" * 2000 + "]" * 2000,
    '"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
    "[1.5e-400, -0, 0.1, 1E5]",
    '{"a": "x\ty"}',
    "\ufeff{}",
    " [1] ",
    "[1]\x00",
    "",
    "{",
    '{"x": [1, 2,]}',
    '"1234567890123456789012345"',
]


def _outcome(load, text: str) -> tuple[str, object]:
    try:
        value = load(text)
    except FormatError as exc:
        return (
            "error",
            (str(exc), exc.line, exc.column, exc.path, getattr(exc, "malformed", None)),
        )
    return ("value", json.dumps(value, sort_keys=True))  # NaN-safe comparison


@pytest.mark.parametrize("text", HOSTILE_AND_ODD)
def test_fast_loader_gives_the_safe_loaders_value_or_error(text: str) -> None:
    assert _outcome(parse_json, text) == _outcome(lambda t: load_json(t, ""), text)


@pytest.mark.parametrize(
    "value",
    [
        {"role": "user", "parts": [{"type": "text", "text": "好 \n\t\x01 \u2028"}]},
        {"n": 2**70, "m": -(2**63) - 1},
        {"f": [0.1, 1e16, 1e-7, -0.0, 5e-324, 1.7976931348623157e308]},
        {"nan": float("nan"), "inf": float("inf")},
        {"null": None, "t": True},
        {1: "int key"},
    ],
)
def test_stored_message_text_decodes_to_the_same_value(value: object) -> None:
    fast, slow = json.loads(_dumps_fast(value)), json.loads(_dumps(value))
    assert repr(fast) == repr(slow)  # repr: NaN != NaN, but reprs match
    if isinstance(value, dict) and "nan" in value:
        assert math.isnan(fast["nan"])


def test_lone_surrogate_still_refused_when_stored() -> None:
    text = _dumps_fast({"text": "\ud800"})
    with pytest.raises(UnicodeEncodeError):
        text.encode("utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [('{"a": 1}', True), ("[1]", False), ('{"a": NaN}', True), ("{", False), ('"{}"', False),
     ('{"s": "\\ud800"}', True), ('{"n": 123456789012345678901234567890}', True)],
)  # fmt: skip
def test_pairing_argument_check_unchanged(text: str, expected: bool) -> None:
    assert _is_json_object(text) is expected


def test_check_of_a_file_opens_no_database(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(
        json.dumps({"model": "m", "messages": [{"role": "user", "content": "你好"}]}) + "\n",
        encoding="utf-8",
    )
    db = tmp_path / "never.sqlite3"
    code = (
        "import sys\n"
        "from studio.cli import main\n"
        f"rc = main(['sessions', 'check', {str(log)!r}, '--db', {str(db)!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('registry_db', 'sqlite_utils'))\n"
        "print('RC', rc, 'LOADED', loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert "RC 0 LOADED []" in done.stdout, done.stdout + done.stderr
    assert not db.exists()
