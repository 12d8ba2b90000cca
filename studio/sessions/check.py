"""Everything wrong with one session: pairing, suspicious patterns, and (optionally) a version.

:func:`check_session` is what ``studio sessions check`` prints and what the
session browser counts; :class:`SessionCheck` flattens the three analyses
into :class:`Finding` rows ordered by position, for lists and replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from studio.sessions.model import Message, ToolCallPart
from studio.sessions.pairing import PairingReport, Position, analyse_pairing
from studio.sessions.suspicious import SuspiciousFinding, find_suspicious

if TYPE_CHECKING:  # re-validation (the argument pipeline, the validators) only with a registry
    from studio.contract import Registry
    from studio.runtime.context import SessionContext
    from studio.sessions.revalidate import RevalidationReport


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of any analysis, with its position.

    Attributes:
        source: ``pairing``, ``suspicious`` or ``revalidation``.
        kind: The analysis' kind (``call-without-result``, ``duplicate-write``, ``fails`` …).
        provider_errors: For pairing rules a provider enforces, its error message.
        original_id: The call id as the user's file has it (differs from
            ``call_id`` when the importer renumbered a reused id).
        origin: Where the message is in the user's file (``line 12 $.messages[7]``);
            empty when the session was not imported from a file.
    """

    source: str
    kind: str
    position: Position
    call_id: str
    message: str
    provider_errors: Mapping[str, str]
    original_id: str = ""
    origin: str = ""

    @property
    def where(self) -> str:
        """The position, and where it is in the file when that differs."""
        return f"{self.position} ({self.origin})" if self.origin else str(self.position)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "kind": self.kind, "position": str(self.position),
                "message_index": self.position.message, "part_index": self.position.part,
                "origin": self.origin, "call_id": self.call_id,
                "original_id": self.original_id or self.call_id, "message": self.message,
                "provider_errors": dict(self.provider_errors)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class SessionCheck:
    """The analyses of one session.

    Attributes:
        original_ids: Renumbered call id → the id in the user's file.
        origins: Per message, where it is in the user's file (may be empty): its
            text, or an importer's :class:`~studio.sessions.importers.Origin`
            (worded by ``str`` where a finding names it).
        risk_guessed: True when write tools were told by their name's verb
            (no registry, or tools it does not know).
    """

    pairing: PairingReport
    suspicious: tuple[SuspiciousFinding, ...]
    revalidation: RevalidationReport | None = None
    original_ids: Mapping[str, str] = field(default_factory=dict)
    origins: Sequence[object] = ()
    risk_guessed: bool = False

    def _finding(self, source: str, kind: str, position: Position, call_id: str, message: str,
                 provider_errors: Mapping[str, str]) -> Finding:  # fmt: skip
        original = self.original_ids.get(call_id, "")
        if original and original != call_id and f"{original!r} (renumbered" not in message:
            message = message.replace(repr(call_id), f"{original!r} (renumbered {call_id!r})")
        at = position.message
        origin = str(self.origins[at]) if at < len(self.origins) else ""
        return Finding(source, kind, position, call_id, message, provider_errors,
                       original or call_id, origin)  # fmt: skip

    @property
    def findings(self) -> tuple[Finding, ...]:
        f = self._finding
        out = [f("pairing", p.kind.value, p.position, p.call_id, p.message, p.provider_errors)
               for p in self.pairing.problems]  # fmt: skip
        out += [f("suspicious", s.kind.value, s.position, s.call_id, s.message, {})
                for s in self.suspicious]  # fmt: skip
        if self.revalidation is not None:
            from studio.sessions.revalidate import PASSES  # loaded with the report

            out += [
                f("revalidation", r.status, r.position, r.call_id,
                  f"{r.tool}: {r.status}" + (f" — {r.reason}" if r.reason else ""), {})
                for r in self.revalidation.rows if r.status != PASSES
            ]  # fmt: skip
        out.sort(key=lambda x: (x.position.message, x.position.part or 0))
        return tuple(out)

    @property
    def first_problem(self) -> Position | None:
        """Where the first problem is (the viewer opens a session there)."""
        found = self.findings
        return found[0].position if found else None

    @property
    def problem_count(self) -> int:
        return len(self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "problems": self.problem_count,
            "findings": [f.to_dict() for f in self.findings],
            "pairs": len(self.pairing.pairs),
            "risk_guessed_from_names": self.risk_guessed,
            "revalidation": self.revalidation.to_dict() if self.revalidation else None,
        }

    def format_text(self) -> str:
        lines = []
        for f in self.findings:
            lines.append(f"{f.where}: {f.source} {f.kind}: {f.message}")
            for provider, error in f.provider_errors.items():
                lines.append(f"    {provider}: {error}")
        if self.revalidation is not None:
            rv = self.revalidation
            lines.append(f"re-validation against {rv.registry} {rv.version}: {rv.summary()}")
        if self.risk_guessed and self.suspicious:
            lines.append("note: write tools were told by their names' verbs (create, update, "
                         "send …); pass --registry for their risk tiers")  # fmt: skip
        lines.append(f"{self.problem_count} problem(s), {len(self.pairing.pairs)} call(s)")
        return "\n".join(lines)


def check_session(
    messages: Sequence[Message],
    registry: Registry | None = None,
    *,
    version: str = "draft",
    context: SessionContext | None = None,
    recorded_prepared: Mapping[str, Any] | None = None,
    origins: Sequence[Any] = (),
) -> SessionCheck:
    """Pairing analysis, suspicious patterns and, with a registry, re-validation.

    Args:
        origins: Per message, where it is in the user's file (an importer's
            :class:`~studio.sessions.importers.Origin` or its text); findings
            name it beside the position.
    """
    report = None
    if registry is not None:
        from studio.sessions.revalidate import revalidate

        report = revalidate(messages, registry, version=version, context=context,
                            recorded_prepared=recorded_prepared)  # fmt: skip
    names: set[str] = set()
    renumbered: dict[str, str] = {}  # original_ids(), in the same pass over the parts
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                names.add(part.name)
                if "original_id" in part.extra:
                    renumbered.setdefault(part.id, str(part.extra["original_id"]))
    guessed = registry is None or any(registry.tool(n) is None for n in names)
    # The origins are worded only where a finding names one (SessionCheck._finding).
    return SessionCheck(
        analyse_pairing(messages), tuple(find_suspicious(messages, registry)), report,
        renumbered, tuple(origins), guessed and bool(names),
    )  # fmt: skip


def original_ids(messages: Sequence[Message]) -> dict[str, str]:
    """Renumbered call id → the id the user's file has (from ``extra["original_id"]``)."""
    out: dict[str, str] = {}
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and "original_id" in part.extra:
                out.setdefault(part.id, str(part.extra["original_id"]))
    return out
