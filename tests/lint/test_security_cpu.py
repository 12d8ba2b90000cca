"""The security rules' cheaper first looks answer as the exact patterns do."""

from __future__ import annotations

import re

from studio.lint.rules._security_phrases import _unbounded


def test_a_loose_copy_drops_the_upper_bound_of_repeats_outside_classes() -> None:
    assert _unbounded(r"a(?:[^.;!?]|\.){0,60}?b") == r"a(?:[^.;!?]|\.)*?b"
    assert _unbounded(r"x{1,3}y{2,5}z{0,1}") == r"x+y{2,}z*"
    # Not a repeat: inside a class, escaped, a code point, an exact count.
    assert _unbounded(r"[{0,3}]\{0,3}\x{80}a{3}") == r"[{0,3}]\{0,3}\x{80}a{3}"


def test_an_unbounded_copy_matches_wherever_the_bounded_one_does() -> None:
    bounded = r"send(?:[^.]){0,5}key"
    loose = _unbounded(bounded)
    for text in ("send the key", "send api key", "send a very long way to the key", "key send"):
        if re.search(bounded, text):
            assert re.search(loose, text)
