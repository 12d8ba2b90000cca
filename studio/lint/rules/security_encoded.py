"""Encoded payloads: base64, hex, ``\\x``/``\\u`` escapes and percent-encoding in prose.

A blob is decoded every way it can be; when the result reads as prose (words,
or Chinese) or as a shell command line it is an instruction smuggled past
review (an error). A long blob
that decodes to nothing readable is a warning. Identifiers
(``analysis_api_AnalysisApi_retrieve_2``), hex digests, ids and cursors are not
blobs.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

import re2  # type: ignore[import-untyped]

from studio.lint.model import Severity
from studio.lint.rules.security_re2 import seen

_RUN_BREAKS = str.maketrans("\t\n\f\r", "    ")
"""RE2's ``\\s`` (tab, line feed, form feed, carriage return), each made a space."""


def long_run(value: str) -> bool:
    """True when ``value`` holds 24 characters in a row that are not RE2's ``\\s``: an
    encoded blob has no whitespace, so it lies inside such a run.

    RE2's ``\\S{24}`` answered this with a DFA that counts up to 24 along every run
    of text, its states rebuilt in each process (~18 µs a tool's text); a split does
    it in ~2 µs.
    """
    return len(value) >= 24 and max(map(len, value.translate(_RUN_BREAKS).split(" "))) >= 24


_BLOB = re.compile(
    r"(?<![\w+/-])(?:[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_-]{24,}={0,2}|[A-Z2-7]{24,}={0,6})(?![\w+/=-])"
    r"|(?:\\x[0-9a-fA-F]{2}){8,}|(?:\\u[0-9a-fA-F]{4}){6,}|(?:%[0-9a-fA-F]{2}){8,}"
)
_IDENT_PART = re.compile(r"[A-Za-z][a-z]*(?:[A-Z][a-z]+)*[A-Z]*\d*|\d+")
_HEX = re.compile(r"(?:0x)?([0-9a-fA-F]{2})+")


def _identifier_like(blob: str) -> bool:
    """``analysis_api_AnalysisApi_retrieve_analysis_2``: words joined by ``_`` or ``-``."""
    parts = re.split(r"[_-]+", blob)
    return len(parts) >= 3 and all(_IDENT_PART.fullmatch(p) for p in parts if p)


def _readable(raw: bytes, min_words: int = 4, min_cjk: int = 4) -> str | None:
    """``raw`` as text when it reads as prose (letters and spaces, or CJK), else None."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    cjk = sum("\u4e00" <= c <= "\u9fff" for c in decoded)
    if len(decoded) < 8 and cjk < min(3, min_cjk):
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in decoded)
    letters = sum(c.isalpha() for c in decoded)
    if printable < 0.95 * len(decoded):
        return None
    # Chinese prose carries numbers (a phone number, a date) and stays prose.
    if letters < (0.3 if cjk >= min_cjk else 0.5) * len(decoded.replace(" ", "")):
        return None
    # Prose: four words or more, or a run of Chinese (an encoded "/g/x:Acme Inc" id is not).
    words = [w for w in decoded.split() if sum(c.isalpha() for c in w) >= 2]
    if len(words) < min_words and cjk < min_cjk:
        return None
    return decoded


_SHELL = re.compile(
    r"\b(?:curl|wget|bash|sh|zsh|powershell|pwsh|iex|nc|ncat|rm|chmod|python3?|perl|eval|base64)"
    r"\b[^\n]{0,120}(?:\|\s*(?:ba|z)?sh\b|\|\s*iex\b|://|&&|;\s*\w|>\s*/|-rf\b)",
)
"""A shell command line (``curl -s https://… | sh``): too few words to read as prose,
but an order all the same once decoded and run."""


def _shell(raw: bytes) -> str | None:
    """``raw`` as text when it is a printable shell command line, else None."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not decoded or any(not (c.isprintable() or c in "\n\t") for c in decoded):
        return None
    return decoded if _SHELL.search(decoded) else None


def _decode(blob: str) -> str | None:
    if blob.startswith("\\x"):
        # Escaped bytes in a description are obfuscation by themselves: any word counts.
        raw = bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-fA-F]{2})", blob))
        return _readable(raw, min_words=1, min_cjk=3)
    if blob.startswith("\\u"):
        # \u escapes of plain letters: nobody writes "reveal" as \u0072\u0065… but to hide it.
        chars = "".join(chr(int(h, 16)) for h in re.findall(r"\\u([0-9a-fA-F]{4})", blob))
        return _readable(chars.encode("utf-8", "replace"), min_words=1)
    if blob.startswith("%"):
        # Percent-encoding of a whole phrase (a URL encodes a few reserved characters,
        # or a short Chinese query, never "ignore all previous instructions").
        raw = bytes(int(h, 16) for h in re.findall(r"%([0-9a-fA-F]{2})", blob))
        return _readable(raw, min_words=3, min_cjk=8)
    candidates = []
    core = blob[2:] if blob[:2] in ("0x", "0X") else blob
    if len(core) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in core):
        candidates.append(binascii.unhexlify(core))
    padded = blob + "=" * (-len(blob) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            candidates.append(decode(padded))
        except (binascii.Error, ValueError):
            continue
    if _BASE32.fullmatch(blob):
        try:
            core32 = blob.rstrip("=")
            candidates.append(base64.b32decode(core32 + "=" * (-len(core32) % 8)))
        except (binascii.Error, ValueError):
            pass
    if _BASE58.fullmatch(blob):
        candidates.append(_base58(blob))
    if len(blob) >= _BIG_NUMBER_MIN and blob.isalnum() and blob.isascii():
        candidates += _big_number_bytes(blob)
    candidates = [_gunzip(raw) if raw[:2] in _COMPRESSED else raw for raw in candidates]
    candidates += [wide for raw in candidates if (wide := _utf16(raw))]
    for raw in candidates:
        found = _readable(raw) or _shell(raw)
        if found:
            return found
    return None


def _utf16(raw: bytes) -> bytes | None:
    """``raw`` as UTF-8 when it is UTF-16LE text (PowerShell's ``-EncodedCommand`` takes
    base64 of UTF-16LE: every other byte of Latin text is zero), else None."""
    if len(raw) < 16 or len(raw) % 2 or raw[1::2].count(0) < 0.9 * (len(raw) // 2):
        return None
    try:
        return raw.decode("utf-16-le").encode("utf-8")
    except UnicodeDecodeError:
        return None


_BASE32 = re.compile(r"[A-Z2-7]{16,}=*")
_BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58 = re.compile(f"[{_BASE58_ALPHABET}]{{24,400}}")


_BIG_NUMBER_MIN = 40
"""Base36 and base62 runs are read from this length (ids and slugs in those alphabets are
shorter; a sentence is longer)."""
_BASE62_ALPHABETS = (
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
)


def _big_number_bytes(blob: str) -> list[bytes]:
    """``blob`` read as one big number in base62 (both alphabet orders in use) and, when it
    has no capital letter, in base36: the bytes of each reading (text written as a number
    in these bases is as plain to a model as base64)."""
    out = []
    bases = [(62, a) for a in _BASE62_ALPHABETS]
    if not any(c.isupper() for c in blob):
        bases.append((36, _BASE62_ALPHABETS[1][:36]))
    for base, alphabet in bases:
        number = 0
        for c in blob:
            number = number * base + alphabet.index(c)
        out.append(number.to_bytes((number.bit_length() + 7) // 8, "big"))
    return out


def _base58(blob: str) -> bytes:
    """``blob`` decoded as Base58 (Bitcoin's alphabet: no 0, O, I or l)."""
    number = 0
    for c in blob:
        number = number * 58 + _BASE58_ALPHABET.index(c)
    return number.to_bytes((number.bit_length() + 7) // 8, "big")


_COMPRESSED = frozenset((b"\x1f\x8b", b"\x78\x9c", b"\x78\x01", b"\x78\xda", b"\x78\x5e"))
"""The first bytes of gzip and of zlib streams (the default, fastest and best levels)."""


def _gunzip(raw: bytes) -> bytes:
    """``raw`` decompressed when it is gzip or zlib data (base64 or hex of a compressed
    stream hides text twice)."""
    import gzip
    import zlib

    try:
        if raw[:2] == b"\x1f\x8b":
            return gzip.decompress(raw)[:4096]
        return zlib.decompressobj().decompress(raw, 4096)
    except (OSError, EOFError, zlib.error):
        return raw


def _looks_encoded(blob: str) -> bool:
    if all(c in "0123456789abcdefABCDEFx" for c in blob):
        return False  # a hash or an id in hex: no prose hides in it (decoded above)
    kinds = sum(
        (
            any(c.isupper() for c in blob),
            any(c.islower() for c in blob),
            any(c.isdigit() for c in blob),
        )
    )
    return kinds >= 3 or (kinds >= 2 and any(c in "+/=" for c in blob))


_BLOB_SEEN = re2.compile(
    r"[A-Za-z0-9+/=_-]{24,}|(?:\\x[0-9a-fA-F]{2}){8,}|(?:\\u[0-9a-fA-F]{4}){6,}"
    r"|(?:%[0-9a-fA-F]{2}){8,}"
)
"""Runs that may hold a :data:`_BLOB` (RE2: a first look without look-behinds)."""


def has_blob(value: str) -> bool:
    """True when ``value`` may hold a blob that is not an identifier (a first look)."""
    return OTHER_SEEN.in_text(value) or any(
        not _identifier_like(m.group()) for m in _BLOB_SEEN.finditer(value)
    )


_OPAQUE_BLOB = 100
"""Length from which a blob that decodes to nothing readable is still worth a warning
(shorter ones are ids, cursors and sample tokens, which real APIs document)."""


# Encodings that are not base64-like runs: each a pattern of its text and a decoder.
# Text written in them is unreadable to a reviewer and plain to the model, which
# decodes Ascii85, Morse, binary octets, character codes, quoted-printable bytes and
# numeric character references as easily as base64.
_MORSE_TABLE = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g",
    "....": "h", "..": "i", ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n",
    "---": "o", ".--.": "p", "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u",
    "...-": "v", ".--": "w", "-..-": "x", "-.--": "y", "--..": "z", "-----": "0",
    ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5", "-....": "6",
    "--...": "7", "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",", "-....-": "-",
    ".--.-.": "@", "-..-.": "/", "---...": ":", "..--..": "?", "-.--.": "(", "-.--.-": ")",
}  # fmt: skip
_OTHER = re.compile(
    r"(?P<a85><~[!-u\s]{10,}?~>)"
    r"|(?P<bits>(?<![01])(?:[01]{8}[ \t]+){5,}[01]{8}(?![01]))"
    r"|(?P<morse>(?<![\w.-])(?:[.-]{1,6}[ \t]+(?:/[ \t]+)?){9,}[.-]{1,6}(?![\w.-]))"
    r"|(?P<codes>(?<![\d,])(?:\d{2,6}[ \t]*,[ \t]*){7,}\d{2,6}(?![\d,]))"
    r"|(?P<qp>(?:=[0-9A-F]{2}){6,})"
    r"|(?P<entities>(?:&#(?:x[0-9a-fA-F]{2,6}|[0-9]{2,7});){6,})"
    r"|(?P<octal>(?:\\[0-3][0-7]{2}){6,})"
    r"|(?P<bytelist>(?<![\w])(?:0x[0-9a-fA-F]{2}[ \t]*,[ \t]*){7,}0x[0-9a-fA-F]{2}(?![\w]))"
    r"|(?P<hexdump>(?<![\w])(?:[0-9a-fA-F]{2}[ \t]+){7,}[0-9a-fA-F]{2}(?![\w])"
    r"(?:[ \t]*\n[ \t]*(?:[0-9a-fA-F]{4,8}:?[ \t]+)?"
    r"(?:[0-9a-fA-F]{2}[ \t]+)*[0-9a-fA-F]{2}(?![\w]))*)"
    r"|(?P<braille>[\u2801-\u28ff]+(?:[ \t]+[\u2801-\u28ff]+){3,})"
    r"|(?P<nato>(?:\b(?i:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?"
    r"|kilo|lima|mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey"
    r"|x-?ray|yankee|zulu)\b[ \t]*(?:/[ \t]*)?){12,})"
    r"|(?P<bacon>(?<![\w])(?:[AB]{5}[ \t]+){7,}[AB]{5}(?![\w]))"
    r"|(?P<css>(?:\\[0-9a-fA-F]{2,6}[ \t]?){6,})"
    r"|(?P<ucode>(?:U\+[0-9A-Fa-f]{4,6}[ \t,，、]*){6,})"
    r"|(?P<dotted>(?<![\d.])(?:\d{1,3}\.){11,}\d{1,3}(?![\d.]))"
    r"|(?P<b45>(?<![\w$%*+./:-])(?=[0-9A-Z $%*+./:-]*[$%*])[0-9A-Z$%*+./:-]{40,}(?![\w$%*+./:-]))"
    r"|(?P<z85>(?<!\S)(?=\S*[\]\[{}@#%$^&<>?!])(?:[0-9a-zA-Z.:+=^!/*?&<>()\[\]{}@%$#-]{5}){8,}(?!\S))"
    r"|(?P<mime>=\?[\w.:-]{2,24}\?[BbQq]\?[^?\s]{8,}\?=)"
    r"|(?P<uu>(?m:^begin [0-7]{3,4} [^\n]{1,80}\n(?:[^\n]{1,62}\n){1,40}?[`+ ]?\n?end$))"
)
_OTHER_HINT = (
    r"<~|[01]{8}[ \t]+[01]{8}|[.-]{1,6}[ \t]+[.-]{1,6}[ \t]+[.-]|\d{2,6},[ \t]*\d{2,6},"
    r"|=[0-9A-F]{2}=[0-9A-F]{2}|&#|\\[0-3][0-7]{2}\\[0-3][0-7]{2}|0x[0-9a-fA-F]{2},[ \t]*0x"
    r"|[0-9a-fA-F]{2}[ \t]+[0-9a-fA-F]{2}[ \t]+[0-9a-fA-F]{2}[ \t]+[0-9a-fA-F]{2}"
    r"|[\x{2801}-\x{28ff}]|[AB]{5}[ \t]+[AB]{5}[ \t]+[AB]{5}|\\[0-9a-fA-F]{4}[ \t]?\\[0-9a-fA-F]"
    r"|U\+[0-9A-Fa-f]{4}|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\.\d"
    r"|[0-9A-Z]{2}[$%*][0-9A-Z]{2}|[0-9A-Za-z][\]\[{}@#%$^&<>?!()*/+=:.-]{1,2}[0-9A-Za-z]{1,6}[\]\[{}@#%$^&<>?!][0-9A-Za-z]"
    r"|(?i:oscar|tango|sierra|echo|romeo|delta|alfa|alpha|lima)[ \t]+(?i:[a-z]+)[ \t]+(?i:oscar"
    r"|tango|sierra|echo|romeo|delta|alfa|alpha|lima|india|hotel|mike|november|golf|papa)"
    r"|=\?[\w.:-]{2,24}\?[BbQq]\?|begin [0-7]{3}"
)
OTHER_SEEN = seen(_OTHER_HINT)
"""Every match of :data:`_OTHER` contains one of these (a first look)."""


_BRAILLE = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵", "abcdefghijklmnopqrstuvwxyz", strict=True))
_NATO = {
    w: w[0]
    for w in (  # noqa: SIM905 - a word list reads better as prose
        "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima "
        "mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu"
    ).split()
}
_B45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def _base45(body: str) -> bytes:
    """``body`` decoded as Base45 (RFC 9285, the EU vaccination certificates' QR text)."""
    out = bytearray()
    for i in range(0, len(body), 3):
        chunk = [_B45.index(c) for c in body[i : i + 3]]
        n = sum(v * 45**k for k, v in enumerate(chunk))
        out += n.to_bytes(2 if len(chunk) == 3 else 1, "big")
    return bytes(out)


def _z85(body: str) -> bytes:
    """``body`` decoded as Z85 (ZeroMQ's printable Ascii85)."""
    out = bytearray()
    for i in range(0, len(body) - len(body) % 5, 5):
        n = 0
        for c in body[i : i + 5]:
            n = n * 85 + _Z85.index(c)
        out += n.to_bytes(4, "big")
    return bytes(out)


def _encoded_word(body: str) -> bytes:
    """A MIME encoded-word (RFC 2047, ``=?GB2312?B?…?=``) decoded in its own charset, as
    UTF-8: a mail header's way to carry any text, and Chinese in GB2312 or Big5 is not
    UTF-8 (an unknown charset raises ``LookupError``, read as nothing)."""
    import quopri

    charset, kind, text = body[2:-2].split("?", 2)
    if kind in "Bb":
        data = base64.b64decode(text + "=" * (-len(text) % 4))
    else:
        data = quopri.decodestring(text.replace("_", " ").encode(), header=True)
    try:
        return data.decode(charset.split("*")[0]).encode("utf-8")
    except (LookupError, UnicodeDecodeError):
        return data


_XX = "+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_XX_TO_UU = str.maketrans(_XX, "".join(chr(32 + i) for i in range(64)))


def _uudecoded(body: str) -> str | None:
    """The text of a ``begin 644 name`` … ``end`` block, uuencoded or xxencoded (the same
    frame, two alphabets), when it reads as prose."""
    lines = body.split("\n")[1:-1]
    for table in (None, _XX_TO_UU):
        raw = bytearray()
        try:
            for line in lines:
                line = line.translate(table) if table else line
                if line.strip("`+ "):
                    raw += binascii.a2b_uu(line)
        except (binascii.Error, ValueError):
            continue
        found = _readable(bytes(raw), min_words=3, min_cjk=4) or _shell(bytes(raw))
        if found:
            return found
    return None


def _decode_other(kind: str, body: str) -> str | None:
    """The text of an Ascii85, binary, Morse, character-code, quoted-printable or
    character-reference run when it reads as prose, else None."""
    import html
    import quopri

    raw: bytes
    try:
        if kind == "a85":
            raw = base64.a85decode(body, adobe=True)
        elif kind == "bits":
            raw = bytes(int(b, 2) for b in body.split())
        elif kind == "morse":
            words = body.replace("/", " / ").split()
            raw = "".join(" " if w == "/" else _MORSE_TABLE.get(w, "?") for w in words).encode()
        elif kind == "codes":
            raw = "".join(chr(int(n)) for n in re.findall(r"\d+", body)).encode("utf-8", "replace")
        elif kind == "qp":
            raw = quopri.decodestring(body.encode())
        elif kind == "octal":
            raw = bytes(int(o, 8) for o in re.findall(r"\\([0-7]{3})", body))
        elif kind == "bytelist":
            raw = bytes(int(h, 16) for h in re.findall(r"0x([0-9a-fA-F]{2})", body))
        elif kind == "hexdump":  # offsets (4-8 digits) dropped, the byte pairs kept
            raw = bytes(int(t, 16) for t in body.split() if len(t) == 2)
        elif kind == "braille":
            raw = " ".join(
                "".join(_BRAILLE.get(c, "?") for c in word) for word in body.split()
            ).encode()
        elif kind == "nato":
            raw = "".join(
                " " if w == "/" else _NATO.get(w.lower().replace("-", ""), "?")
                for w in body.replace("/", " / ").split()
            ).encode()
        elif kind == "bacon":  # no word breaks: unreadable by eye, plain to the model
            return None
        elif kind == "css":
            raw = "".join(
                chr(int(h, 16)) for h in re.findall(r"\\([0-9a-fA-F]{2,6})", body)
            ).encode("utf-8", "replace")
        elif kind == "ucode":
            raw = "".join(
                chr(int(h, 16)) for h in re.findall(r"U\+([0-9A-Fa-f]{4,6})", body)
            ).encode("utf-8", "replace")
        elif kind == "dotted":
            raw = bytes(int(n) for n in body.split("."))
        elif kind == "b45":
            raw = _base45(body)
        elif kind == "z85":
            raw = _z85(body)
        elif kind == "mime":
            raw = _encoded_word(body)
        elif kind == "uu":
            return _uudecoded(body)
        else:
            raw = html.unescape(body).encode("utf-8")
    except (ValueError, OverflowError):
        return None
    if kind in ("octal", "bytelist", "css", "ucode", "dotted"):
        # Escaped bytes in prose, like ``\\x`` escapes, are obfuscation by themselves.
        return _readable(raw, min_words=1, min_cjk=3) or _shell(raw)
    return _readable(raw, min_words=3, min_cjk=4) or _shell(raw)


def encoded(value: str, sample: Callable[[str], bool] | None = None) -> tuple[Severity, str] | None:
    """The worst encoded payload in ``value`` (raw text): its severity and what it is.

    ``sample``: ``value`` is an example value, and this tells whether decoded
    text gives orders. An example is data, and real APIs show encoded data in
    them (a key's modulus, a certificate, "This is an example state value." in
    base64), so only a decoded order is reported there.
    """
    worst: tuple[Severity, str] | None = None
    if OTHER_SEEN.in_text(value):
        for match in _OTHER.finditer(value):
            kind = match.lastgroup or ""
            decoded = _decode_other(kind, match.group())
            if decoded is not None and (sample is None or sample(decoded)):
                short = " ".join(decoded.split())[:60]
                return Severity.ERROR, f"an encoded text ({_KINDS[kind]}, reads {short!r})"
            if kind in _OPAQUE_KINDS and sample is None and worst is None:
                # A cipher without word breaks (Bacon's) or a Braille run in prose: no
                # reviewer reads it, and no documentation writes text that way.
                worst = Severity.WARNING, f"a text in {_OPAQUE_KINDS[kind]}"
    for match in _BLOB.finditer(value):
        blob = match.group()
        if _identifier_like(blob):
            continue
        decoded = _decode(blob)
        if decoded is not None and (sample is None or sample(decoded)):
            short = " ".join(decoded.split())[:60]
            return Severity.ERROR, f"an encoded text ({len(blob)} characters, reads {short!r})"
        if sample is not None:
            continue
        if worst is None and len(blob) >= _OPAQUE_BLOB and _looks_encoded(blob):
            worst = Severity.WARNING, f"a {len(blob)}-character base64-like blob"
    return worst


_OPAQUE_KINDS = {"bacon": "Bacon's cipher", "braille": "Braille"}
_KINDS = {
    "a85": "Ascii85",
    "bits": "binary octets",
    "morse": "Morse code",
    "codes": "character codes",
    "qp": "quoted-printable",
    "entities": "character references",
    "octal": "octal escapes",
    "bytelist": "a byte array",
    "hexdump": "a hex dump",
    "braille": "Braille",
    "nato": "spelling alphabet",
    "css": "CSS escapes",
    "ucode": "code points",
    "dotted": "decimal bytes",
    "b45": "Base45",
    "z85": "Z85",
    "mime": "a MIME encoded-word",
    "uu": "uuencode",
}


ROT13_LABEL = re.compile(
    r"\brot[- ]?(?P<rot>\d{1,2})\b|\brotated? (?:by )?(?P<rotated>\d{1,2})\b"
    r"|\b(?:caesar|shift(?:ed)?)\b[^.\n\d]{0,12}?(?P<shift>\d{1,2})\b"
    r"|(?:轮换|旋转|移位|偏移|凯撒)[^。\n\d]{0,6}?(?P<zh>\d{1,2})",
    re.IGNORECASE,
)
"""Text that says it is shifted ("Hidden setup, ROT13: …", "Example (shift 3)", "以下内容经
ROT13 处理", "凯撒移位 3"), and by how many letters."""
_SHIFT_HINT = r"(?i:rot|caesar|shift|atbash)|轮换|旋转|移位|偏移|凯撒|埃特巴什"
SHIFT_SEEN = seen(_SHIFT_HINT)
"""Every match of :data:`ROT13_LABEL` contains one of these (a first look)."""
_MARK_SEEN = seen(f"{_OTHER_HINT}|{_SHIFT_HINT}")
"""Another encoding's mark or a shift label, in one DFA pass."""


def encoding_hint(value: str) -> bool:
    """One first look for all of this module's payloads: a long run (:func:`long_run`),
    another encoding's mark or a shift label."""
    return long_run(value) or _MARK_SEEN.in_text(value)


_ATBASH_LABEL = re.compile(r"\batbash\b|埃特巴什", re.IGNORECASE)
"""A text that says its letters are mirrored (a→z, b→y: the Atbash cipher)."""


def shift_labelled(value: str) -> bool:
    """True when ``value`` says its letters are shifted (ROT13, Caesar) or mirrored (Atbash)."""
    return ROT13_LABEL.search(value) is not None or _ATBASH_LABEL.search(value) is not None


def _atbash(value: str) -> str:
    """``value`` with its Latin letters mirrored back (Atbash is its own inverse)."""

    def mirror(c: str) -> str:
        base = 65 if c.isupper() else 97
        return chr(25 - (ord(c) - base) + base)

    return "".join(mirror(c) if c.isascii() and c.isalpha() else c for c in value)


def _shifted(value: str, n: int) -> str:
    """``value`` with its Latin letters shifted back by ``n`` (a Caesar cipher undone)."""

    def back(c: str) -> str:
        base = 65 if c.isupper() else 97
        return chr((ord(c) - base - n) % 26 + base)

    return "".join(back(c) if c.isascii() and c.isalpha() else c for c in value)


def rot13_payload(value: str, gives_orders: Callable[[str], bool]) -> str | None:
    """The decoding of ``value`` when ``value`` says it is shifted (ROT13, a Caesar shift
    of n) and the decoding gives orders (read like any other text), else None.

    A shift hides words from a reviewer, not from the model, which reads it fluently;
    a cipher tool's own description decodes to gibberish and stays quiet.
    """
    label = ROT13_LABEL.search(value)
    if not label:
        if _ATBASH_LABEL.search(value):
            mirrored = _atbash(value)
            return mirrored if gives_orders(mirrored) else None
        return None
    n = int(next(g for g in label.groups() if g)) % 26
    if not n:
        return None
    decoded = _shifted(value, n)
    return decoded if gives_orders(decoded) else None
