"""Changes of skills and remote agents between two versions (issue #18).

Skills and agents are chosen by their descriptions like tools, so the same
taxonomy applies: a changed description or body is **behavioural** (the model
routes or acts differently), a removed skill or agent is **breaking** (a
conversation or eval that loads it fails), an added one is **compatible**.
Descriptions and bodies get the tools' CJK-aware word diff, shown in the
change's message as ``[-old-]{+new+}`` so a terminal diff says what moved.
The changes are registry-level (``tool`` is None; ``path`` is
``skills.<name>.description``, ``agents.<name>.card.skills`` …).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from studio.agents.model import RemoteAgent
from studio.contract.model import Registry
from studio.diff.model import Change, ChangeClass, WordOp
from studio.diff.tool_diff import word_diff
from studio.skills.model import Skill

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA

SHOWN_CHARS = 240
"""How much of a word diff a message quotes (bodies can be long)."""


def render_word_diff(ops: tuple[WordOp, ...], limit: int = SHOWN_CHARS) -> str:
    """``[-removed-]{+added+}`` marks over the changed words, with a little context."""
    out: list[str] = []
    for op in ops:
        if op.op == "equal":
            text = op.before
            out.append(text if len(text) <= 24 else f"{text[:10]}…{text[-10:]}")
            continue
        if op.before:
            out.append(f"[-{op.before}-]")
        if op.after:
            out.append(f"{{+{op.after}+}}")
    shown = "".join(out).replace("\n", "⏎")
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _text_change(rule: str, klass: ChangeClass, path: str, what: str, a: str, b: str) -> Change:
    return Change(rule, klass, None, path, a, b, f"{what}: {render_word_diff(word_diff(a, b))}")


def _skill_changes(a: Skill, b: Skill) -> list[Change]:
    if a.text == b.text and a.files == b.files:
        return []
    base = f"skills.{b.name}"
    out: list[Change] = []
    if a.description != b.description:
        out.append(
            _text_change(
                "skill.description-changed", H, f"{base}.description",
                f"skill {b.name}: description (how the model chooses it)", a.description,
                b.description,
            )
        )  # fmt: skip
    if a.body != b.body:
        out.append(
            _text_change(
                "skill.body-changed", H, f"{base}.body",
                f"skill {b.name}: body (what the model follows once loaded)", a.body, b.body,
            )
        )  # fmt: skip
    if a.allowed_tools != b.allowed_tools:
        gone = sorted(set(a.allowed_tools) - set(b.allowed_tools))
        klass = H if gone else C
        out.append(
            Change(
                "skill.allowed-tools-changed", klass, None, f"{base}.allowed-tools",
                list(a.allowed_tools), list(b.allowed_tools),
                f"skill {b.name}: allowed-tools {' '.join(a.allowed_tools) or '—'} → "
                f"{' '.join(b.allowed_tools) or '—'}",
            )
        )  # fmt: skip
    other_a = {k: v for k, v in a.front_matter.items() if k not in ("description", "allowed-tools")}
    other_b = {k: v for k, v in b.front_matter.items() if k not in ("description", "allowed-tools")}
    if other_a != other_b:
        out.append(
            Change(
                "skill.front-matter-changed", M, None, f"{base}.front_matter", other_a, other_b,
                f"skill {b.name}: other front matter (license, metadata…)",
            )
        )  # fmt: skip
    files_a, files_b = dict(a.files), dict(b.files)
    for rel in sorted(files_a.keys() | files_b.keys()):
        if files_a.get(rel) == files_b.get(rel):
            continue
        state = "added" if rel not in files_a else "removed" if rel not in files_b else "changed"
        klass = H if rel.startswith("scripts/") or state == "removed" else C
        out.append(
            Change(
                f"skill.file-{state}", klass, None, f"{base}.files[{rel!r}]",
                rel if rel in files_a else None, rel if rel in files_b else None,
                f"skill {b.name}: {rel} {state}",
            )
        )  # fmt: skip
    return out


def _agent_changes(a: RemoteAgent, b: RemoteAgent) -> list[Change]:
    if a.card == b.card:
        return []
    base = f"agents.{b.name}"
    out: list[Change] = []
    if a.description != b.description:
        out.append(
            _text_change(
                "agent.description-changed", H, f"{base}.card.description",
                f"remote agent {b.name}: description", a.description, b.description,
            )
        )  # fmt: skip
    skills_a = {s.id: s for s in a.skills}
    skills_b = {s.id: s for s in b.skills}
    for sid in sorted(skills_a.keys() - skills_b.keys()):
        out.append(Change("agent.skill-removed", B, None, f"{base}.card.skills", sid, None,
                          f"remote agent {b.name}: skill {sid} no longer offered"))  # fmt: skip
    for sid in sorted(skills_b.keys() - skills_a.keys()):
        out.append(Change("agent.skill-added", C, None, f"{base}.card.skills", None, sid,
                          f"remote agent {b.name}: new skill {sid}"))  # fmt: skip
    for sid in sorted(skills_a.keys() & skills_b.keys()):
        if skills_a[sid] != skills_b[sid]:
            out.append(
                _text_change(
                    "agent.skill-changed", H, f"{base}.card.skills.{sid}",
                    f"remote agent {b.name}: skill {sid}", skills_a[sid].description,
                    skills_b[sid].description,
                )
            )  # fmt: skip
    if a.url != b.url:
        out.append(Change("agent.endpoint-changed", H, None, f"{base}.card.url", a.url, b.url,
                          f"remote agent {b.name}: endpoint {a.url} → {b.url}"))  # fmt: skip
    if a.security_schemes != b.security_schemes:
        out.append(
            Change(
                "agent.security-changed", B, None, f"{base}.card.securitySchemes",
                dict(a.security_schemes), dict(b.security_schemes),
                f"remote agent {b.name}: security schemes changed; callers' credentials may "
                "no longer be accepted",
            )
        )  # fmt: skip
    if not out and a.card != b.card:
        out.append(Change("agent.card-changed", M, None, f"{base}.card", None, None,
                          f"remote agent {b.name}: other card fields"))  # fmt: skip
    return out


def skill_changes(a: Registry, b: Registry) -> list[Change]:
    """Every change of the skills and remote agents going from ``a`` to ``b``."""
    return [
        *_named_changes(
            "skill", a.skills, b.skills, _skill_changes,
            added="new skill {} (the model may now load it)",
            removed="skill {} removed; conversations that load it fail",
        ),
        *_named_changes(
            "agent", a.agents, b.agents, _agent_changes,
            added="new remote agent {}",
            removed="remote agent {} removed; delegations to it fail",
        ),
    ]  # fmt: skip


_Item = TypeVar("_Item", Skill, RemoteAgent)


def _named_changes(
    kind: str,
    before: Sequence[_Item],
    after: Sequence[_Item],
    item_changes: Callable[[_Item, _Item], list[Change]],
    *,
    added: str,
    removed: str,
) -> list[Change]:
    """``<kind>.added`` and the item's own changes in ``after``'s order, then ``<kind>.removed``.

    Items are matched by name; ``added`` and ``removed`` are messages with ``{}``
    for the name.
    """
    out: list[Change] = []
    old_by_name = {x.name: x for x in before}
    new_names = {x.name for x in after}
    for item in after:
        old = old_by_name.get(item.name)
        if old is None:
            path = f"{kind}s.{item.name}"
            out.append(Change(f"{kind}.added", C, None, path, None, item.name,
                              added.format(item.name)))  # fmt: skip
        else:
            out.extend(item_changes(old, item))
    for item in before:
        if item.name not in new_names:
            path = f"{kind}s.{item.name}"
            out.append(Change(f"{kind}.removed", B, None, path, item.name, None,
                              removed.format(item.name)))  # fmt: skip
    return out
