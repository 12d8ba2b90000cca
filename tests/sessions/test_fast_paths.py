"""Issue 16: the sessions fast paths build the same objects and find the same digit runs.

The importers and the pairing analysis build messages, parts, origins, positions
and pairs through their slots instead of the frozen dataclasses' ``__init__``;
the objects must be equal (and hash equal) to the ones the constructors build.
The long-number test of the JSON loader is a bytes translate instead of a regex;
it must answer as the regex did.
"""

from __future__ import annotations

import random
import re

from studio.sessions.importers.base import Origin, _new_origin, has_long_number
from studio.sessions.model import (
    Message,
    Role,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    new_message,
    new_text_part,
    new_tool_call,
    new_tool_result,
)
from studio.sessions.pairing import Pair, Position, _pair, _position


def test_fast_constructors_build_equal_objects() -> None:
    text, call = new_text_part("好 hi"), new_tool_call("c1", "send_mail", '{"to": "x"}', {"a": 1})
    result = new_tool_result("c1", "ok", True, "send_mail", {})
    pairs = [
        (text, TextPart("好 hi")),
        (call, ToolCallPart("c1", "send_mail", '{"to": "x"}', {"a": 1})),
        (result, ToolResultPart("c1", "ok", True, "send_mail", {})),
        (new_message(Role.TOOL, (result,), {"k": 2}), Message(Role.TOOL, (result,), {"k": 2})),
        (_new_origin("$.messages[3]", 4), Origin("$.messages[3]", 4)),
        (_position(3, 1), Position(3, 1)),
        (_pair("c1", Position(2, 0), None), Pair("c1", Position(2, 0), None)),
    ]
    for fast, slow in pairs:
        assert fast == slow and repr(fast) == repr(slow)
        if not isinstance(fast, Message | ToolCallPart | ToolResultPart):  # dict fields
            assert hash(fast) == hash(slow)
    assert text.kind == "text" and call.kind == "tool_call" and result.kind == "tool_result"


_REGEX = re.compile(r"[0-9]{19}")


def test_long_number_test_answers_as_the_regex() -> None:
    rng = random.Random(16)
    alphabet = "0123456789" * 6 + ' ,.-e[]{}"a好\ud800٣'  # ٣: a digit to \d, not to [0-9]
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        assert has_long_number(text) == (_REGEX.search(text) is not None), text
    assert has_long_number("x" + "9" * 19) and not has_long_number("1" * 18 + "a" + "1" * 18)
