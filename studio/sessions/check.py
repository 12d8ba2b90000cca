"""Everything wrong with one session: pairing, suspicious patterns, and (optionally) a version.

:func:`check_session` is what ``studio sessions check`` prints and what the
session browser counts; :class:`SessionCheck` flattens the three analyses
into :class:`Finding` rows ordered by position, for lists and replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studio.contract import Registry
from studio.runtime.context import SessionContext
from studio.sessions.model import Message
from studio.sessions.pairing import PairingReport, Position, analyse_pairing
from studio.sessions.revalidate import PASSES, RevalidationReport, revalidate
from studio.sessions.suspicious import SuspiciousFinding, find_suspicious


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of any analysis, with its position.

    Attributes:
        source: ``pairing``, ``suspicious`` or ``revalidation``.
        kind: The analysis' kind (``call-without-result``, ``duplicate-write``, ``fails`` …).
        provider_errors: For pairing rules a provider enforces, its error message.
    """

    source: str
    kind: str
    position: Position
    call_id: str
    message: str
    provider_errors: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "kind": self.kind, "position": str(self.position),
                "message_index": self.position.message, "part_index": self.position.part,
                "call_id": self.call_id, "message": self.message,
                "provider_errors": dict(self.provider_errors)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class SessionCheck:
    pairing: PairingReport
    suspicious: tuple[SuspiciousFinding, ...]
    revalidation: RevalidationReport | None = None

    @property
    def findings(self) -> tuple[Finding, ...]:
        out = [Finding("pairing", p.kind.value, p.position, p.call_id, p.message, p.provider_errors)
               for p in self.pairing.problems]  # fmt: skip
        out += [Finding("suspicious", s.kind.value, s.position, s.call_id, s.message, {})
                for s in self.suspicious]  # fmt: skip
        if self.revalidation is not None:
            out += [
                Finding("revalidation", r.status, r.position, r.call_id,
                        f"{r.tool}: {r.status}" + (f" — {r.reason}" if r.reason else ""), {})
                for r in self.revalidation.rows if r.status != PASSES
            ]  # fmt: skip
        out.sort(key=lambda f: (f.position.message, f.position.part or 0))
        return tuple(out)

    @property
    def problem_count(self) -> int:
        return len(self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "problems": self.problem_count,
            "findings": [f.to_dict() for f in self.findings],
            "pairs": len(self.pairing.pairs),
            "revalidation": self.revalidation.to_dict() if self.revalidation else None,
        }

    def format_text(self) -> str:
        lines = []
        for f in self.findings:
            lines.append(f"{f.position}: {f.source} {f.kind}: {f.message}")
            for provider, error in f.provider_errors.items():
                lines.append(f"    {provider}: {error}")
        if self.revalidation is not None:
            rv = self.revalidation
            lines.append(f"re-validation against {rv.registry} {rv.version}: {rv.summary()}")
        lines.append(f"{self.problem_count} problem(s), {len(self.pairing.pairs)} call(s)")
        return "\n".join(lines)


def check_session(
    messages: Sequence[Message],
    registry: Registry | None = None,
    *,
    version: str = "draft",
    context: SessionContext | None = None,
    recorded_prepared: Mapping[str, Any] | None = None,
) -> SessionCheck:
    """Pairing analysis, suspicious patterns and, with a registry, re-validation."""
    report = None
    if registry is not None:
        report = revalidate(messages, registry, version=version, context=context,
                            recorded_prepared=recorded_prepared)  # fmt: skip
    return SessionCheck(
        analyse_pairing(messages), tuple(find_suspicious(messages, registry)), report
    )
