"""Data gathering by a parameter's name: ``content_from_reading_aws_credentials_file``.

A model fills every parameter it is shown and reads a name as an instruction
(CyberArk's full-schema poisoning): a property whose *name* is a sentence that
reads a secret source orders the model to read it and pass it in, with no
description at all.

A name is reported when it spells a reading verb (read, reading, dump, cat,
copy, paste, 读取…), a secret source (credentials, ssh, id_rsa, .env,
kubeconfig, keychain, cookies, wallet, 凭证, 私钥…) and is a phrase of four words
or more, the verb first. Ordinary fields stay quiet: ``aws_credentials_file``
(a path), ``credentials_file_content`` (three words, no verb), ``read_only``,
``cookie_consent_read_at`` (the verb after its object: a timestamp).
"""

from __future__ import annotations

import re

from studio.lint.text import split_identifier

_READ_WORDS = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "read reading dump dumped cat copy copied paste pasted grab grabbed extract extracted "
        "harvest collect collected"
    ).split()
)
_SECRET_SOURCES = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "credentials credential ssh rsa ed25519 env dotenv kubeconfig keychain keyring cookies "
        "cookie wallet mnemonic passwd shadow netrc npmrc pgpass secrets"
    ).split()
)
_MIN_WORDS = 4
_ZH = re.compile(
    r"(?:读取|读出|复制|拷贝|导出|抓取)[^,，。]{0,12}?"
    r"(?:凭证|凭据|私钥|密钥|令牌|密码|\.env|ssh|cookie|钱包|助记词)",
    re.IGNORECASE,
)


def gathering_name(name: str) -> bool:
    """True when a property name is a sentence that reads a secret source."""
    if _ZH.search(name):
        return True
    words = [w.lower() for w in split_identifier(name)]
    if len(words) < _MIN_WORDS:
        return False
    # A sentence: the verb, then what it reads ("cookie_consent_read_at" is a timestamp).
    verb = next((i for i, w in enumerate(words) if w in _READ_WORDS), None)
    return verb is not None and not _SECRET_SOURCES.isdisjoint(words[verb + 1 :])
