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

A name that spells the *contents* of a system's secret file is the same order without
the verb: ``full_text_of_etc_shadow_and_ssh_config``, ``contents_of_id_rsa``, ``助记词全文``
(a content word, ``of``, then the file; a key or a kubeconfig a tool takes as input,
``private_key_content``, stays quiet).
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
_CONTENT_WORDS = frozenset(("content", "contents", "text", "body", "dump", "copy"))
_SYSTEM_SECRETS = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "shadow passwd sudoers ssh rsa ed25519 env dotenv keychain netrc npmrc pgpass wallet "
        "mnemonic"
    ).split()
)
_MIN_WORDS = 4
_ZH = re.compile(
    r"(?:读取|读出|复制|拷贝|导出|抓取)[^,，。]{0,12}?"
    r"(?:凭证|凭据|私钥|密钥|令牌|密码|\.env|ssh|cookie|钱包|助记词)"
    r"|(?:shadow|passwd|\.ssh|id_rsa|\.env|助记词|钱包)[^,，。]{0,8}?(?:的)?(?:全文|完整内容|原文|内容)",
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
    if verb is not None and not _SECRET_SOURCES.isdisjoint(words[verb + 1 :]):
        return True
    # The contents of a secret file: "full_text_of_etc_shadow", a content word, "of", a file.
    of = next((i for i, w in enumerate(words) if w == "of" and words[i - 1] in _CONTENT_WORDS), 0)
    return of > 0 and not _SYSTEM_SECRETS.isdisjoint(words[of + 1 :])
