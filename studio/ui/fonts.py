"""Chinese text needs a CJK font: warn once when a registry has some and no font can show it.

On a Debian machine without ``fonts-noto-cjk`` Qt draws every Chinese
character as a box; the user saw boxes and no reason. The check is cheap
(Qt's font database knows which families cover Simplified Chinese), and the
warning names the package to install.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import islice

from PySide6.QtGui import QFontDatabase

FONT_PACKAGE = "fonts-noto-cjk"


@cache
def _cjk() -> re.Pattern[str]:
    """CJK Unified Ideographs (and extension A), kana, Hangul and CJK punctuation.

    Compiled on the first text that is not ASCII (~3 ms): the start of a
    studio on an English registry never needs it.
    """
    return re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


def has_cjk(texts: Iterable[str], limit: int = 20_000) -> bool:
    """True when any of the first ``limit`` texts holds a CJK character."""
    return any(_cjk().search(text) for text in islice(texts, limit) if text and not text.isascii())


def cjk_font_available() -> bool:
    """True when some installed font family covers Simplified Chinese."""
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


class CjkFontCheck:
    """Says once per session that Chinese text will show as boxes.

    Args:
        font_available: Asked once, on the first registry with CJK text
            (tests pass a stub).
    """

    def __init__(self, font_available: Callable[[], bool] = cjk_font_available) -> None:
        self._font_available = font_available
        self.warned = False

    def needs_warning(self, texts: Iterable[str]) -> bool:
        """True the first time ``texts`` hold CJK and no font covers it; False after."""
        if self.warned or not has_cjk(texts):
            return False
        if self._font_available():
            return False
        self.warned = True
        return True
