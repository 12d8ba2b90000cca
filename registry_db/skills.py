"""Draft skills and remote agents (issue #18): their own table beside ``draft_tools``.

Rows hold each item's registry-document JSON (:func:`studio.skills.document.skill_to_dict`,
:func:`studio.agents.model.agent_to_dict`), so ``SKILL.md`` and the folder's
files come back byte for byte and a card comes back key for key.
Functions taking a connection run inside the caller's transaction; the
``*_draft_*`` functions taking a store open their own and bump the draft
revision like any other draft edit (an editor holding an older revision then
gets a conflict instead of overwriting).

Publishing adds ``skills``/``agents`` to the version's document only when the
draft has some (:func:`extend_version_document`), so the documents and hashes of
tools-only registries are what they were before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from registry_db.connection import utc_now, write_transaction
from registry_db.errors import NotFoundError
from studio.agents.model import RemoteAgent, agent_to_dict, parse_agent_dict
from studio.contract.canonical import canonical_json
from studio.skills.document import parse_skill_dict, skill_to_dict
from studio.skills.model import Skill
from studio.skills.spec import usable_name

if TYPE_CHECKING:
    from registry_db.store import RegistryStore

SKILL = "skill"
AGENT = "agent"

_SELECT = (
    "SELECT document_json FROM draft_capabilities"
    " WHERE registry_id = ? AND kind = ? ORDER BY position, name"
)


def _dump(document: dict[str, object]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def read_draft_skills(conn: sqlite3.Connection, registry_id: int) -> tuple[Skill, ...]:
    """The draft's skills in order."""
    rows = conn.execute(_SELECT, (registry_id, SKILL)).fetchall()
    return tuple(parse_skill_dict(json.loads(doc)) for (doc,) in rows)


def read_draft_agents(conn: sqlite3.Connection, registry_id: int) -> tuple[RemoteAgent, ...]:
    """The draft's remote agents in order."""
    rows = conn.execute(_SELECT, (registry_id, AGENT)).fetchall()
    return tuple(parse_agent_dict(json.loads(doc)) for (doc,) in rows)


def _replace(
    conn: sqlite3.Connection, registry_id: int, kind: str, docs: list[dict[str, object]], now: str
) -> None:
    conn.execute(
        "DELETE FROM draft_capabilities WHERE registry_id = ? AND kind = ?", (registry_id, kind)
    )
    conn.executemany(
        "INSERT INTO draft_capabilities"
        " (registry_id, kind, name, position, document_json, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(registry_id, kind, d["name"], i, _dump(d), now) for i, d in enumerate(docs)],
    )


def replace_capabilities(
    conn: sqlite3.Connection,
    registry_id: int,
    skills: Sequence[Skill],
    agents: Sequence[RemoteAgent],
    now: str,
) -> None:
    """Make the draft's skills and agents exactly these (inside the caller's transaction).

    Raises:
        ValueError: a skill name that is empty or could leave its folder (``..``, ``/``).
    """
    for skill in skills:
        if not usable_name(skill.name):
            raise ValueError(f"{skill.name!r} is not a usable skill name (empty, '/', or '..')")
    _replace(conn, registry_id, SKILL, [skill_to_dict(s) for s in skills], now)
    _replace(conn, registry_id, AGENT, [agent_to_dict(a) for a in agents], now)


def extend_version_document(
    conn: sqlite3.Connection, registry_id: int, canonical: bytes, document: str
) -> tuple[bytes, str]:
    """Add the draft's skills and agents to a version's canonical and authored documents.

    Return:
        The two unchanged when the draft has neither (the common, tools-only case).
    """
    skills = [json.loads(d) for (d,) in conn.execute(_SELECT, (registry_id, SKILL))]
    agents = [json.loads(d) for (d,) in conn.execute(_SELECT, (registry_id, AGENT))]
    if not skills and not agents:
        return canonical, document
    whole = json.loads(canonical)
    tail = ""
    if skills:
        whole["skills"] = skills
        tail += ',"skills":' + _dump_list(skills)
    if agents:
        whole["agents"] = agents
        tail += ',"agents":' + _dump_list(agents)
    assert document.endswith("}")
    return canonical_json(whole), document[:-1] + tail + "}"


def _dump_list(items: list[dict[str, object]]) -> str:
    return "[" + ",".join(_dump(i) for i in items) + "]"


# --------------------------------------------------------------------------- store level


def _registry_id(conn: sqlite3.Connection, name: str) -> int:
    row = conn.execute("SELECT id FROM registries WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise NotFoundError(f"registry {name!r} does not exist")
    return int(row[0])


def _bump(conn: sqlite3.Connection, registry_id: int, now: str) -> None:
    conn.execute(
        "UPDATE registries SET draft_revision = draft_revision + 1, updated_at = ? WHERE id = ?",
        (now, registry_id),
    )


def save_draft_skills(
    store: RegistryStore,
    registry: str,
    *,
    skills: Sequence[Skill] = (),
    agents: Sequence[RemoteAgent] = (),
    remove: Sequence[str] = (),
) -> None:
    """Add or replace skills and agents in a draft by name (others kept), and remove some by name.

    Raises:
        NotFoundError: no such registry.
    """
    conn = store.connection
    with store.lock, write_transaction(conn):
        registry_id = _registry_id(conn, registry)
        now = utc_now()
        current_skills = {s.name: s for s in read_draft_skills(conn, registry_id)}
        current_agents = {a.name: a for a in read_draft_agents(conn, registry_id)}
        for name in remove:
            current_skills.pop(name, None)
            current_agents.pop(name, None)
        current_skills.update({s.name: s for s in skills})
        current_agents.update({a.name: a for a in agents})
        replace_capabilities(
            conn, registry_id, list(current_skills.values()), list(current_agents.values()), now
        )
        _bump(conn, registry_id, now)
