"""Syntax highlighting of JSON text, driven by Pygments' ``JsonLexer`` tokens."""

from __future__ import annotations

from pygments.token import Comment, Error, Keyword, Name, Number, Punctuation, String, _TokenType
from PySide6.QtGui import (
    QColor,
    QFont,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

# (token type, colour on a light background, colour on a dark background, bold)
_STYLES: tuple[tuple[_TokenType, str, str, bool], ...] = (
    (Name.Tag, "#1a4f9c", "#8cc4ff", False),
    (String, "#a3301c", "#f0a77e", False),
    (Number, "#0b7a5a", "#9fdcb7", False),
    (Keyword.Constant, "#7b2fa8", "#d7a6f5", True),
    (Punctuation, "#5f6368", "#a6adb4", False),
    (Comment, "#6a737d", "#8b949e", False),
    (Error, "#d93025", "#ff7b72", False),
)


def is_dark(palette: QPalette) -> bool:
    """True when the palette's text background is dark (lightness below half)."""
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


class JsonHighlighter(QSyntaxHighlighter):
    """Colours keys, strings, numbers, constants and punctuation of JSON.

    Each text block (line) is lexed on its own: JSON strings cannot span lines,
    so a line's tokens do not depend on the lines before it.

    Args:
        document: The text document to highlight.
        dark: Pick colours for a dark background (see :func:`is_dark`).
    """

    def __init__(self, document: QTextDocument, dark: bool = False) -> None:
        super().__init__(document)
        # Here, not at the top: the lexer registry costs ~10-25 ms to import, and
        # the editor imports this module (for is_dark) before the first paint.
        from pygments.lexers import JsonLexer

        self._lexer = JsonLexer()
        self._formats: list[tuple[_TokenType, QTextCharFormat]] = []
        self.set_dark(dark)

    def set_dark(self, dark: bool) -> None:
        """Switch between the light-background and dark-background colours."""
        self.dark = dark
        self._formats = []
        for token, light_colour, dark_colour, bold in _STYLES:
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(dark_colour if dark else light_colour))
            if bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            if token is Error:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                fmt.setUnderlineColor(QColor(dark_colour if dark else light_colour))
            self._formats.append((token, fmt))
        self.rehighlight()

    def format_for(self, token: _TokenType) -> QTextCharFormat | None:
        """The character format used for ``token`` (None: left unformatted)."""
        for styled, fmt in self._formats:
            if token in styled:
                return fmt
        return None

    def highlightBlock(self, text: str) -> None:
        # Qt positions count UTF-16 code units; Python indexes count code points.
        wide = any(ord(ch) > 0xFFFF for ch in text)
        for index, token, value in self._lexer.get_tokens_unprocessed(text):
            fmt = self.format_for(token)
            if fmt is None:
                continue
            start, length = index, len(value)
            if wide:
                start = len(text[:index].encode("utf-16-le")) // 2
                length = len(value.encode("utf-16-le")) // 2
            self.setFormat(start, length, fmt)
