"""The review stored with a published version (Qt-free).

Shape (``review_json`` of the version)::

    {"format": "tool-registry-studio/review@1",
     "against": "stable (v3)", "counts": {"breaking": 2, ...},
     "semver": {"level": "major", "reasons": ["schema.required-added", ...]},
     "acknowledged": [{"rule_id": ..., "tool": ..., "path": ...}, ...],
     "acknowledged_by": "alice"}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication

from studio.diff import CLASS_ORDER, Change, ChangeClass, RegistryDiff
from studio.ui.diff.diff_models import class_word, semver_word

REVIEW_FORMAT = "tool-registry-studio/review@1"


def breaking_changes(diff: RegistryDiff) -> list[Change]:
    """The changes an author must acknowledge, in report order."""
    return [c for c in diff.changes if c.klass is ChangeClass.BREAKING]


def change_key(change: Change) -> dict[str, Any]:
    """How an acknowledged change is stored: rule id, tool and path."""
    return {"rule_id": change.rule_id, "tool": change.tool, "path": change.path}


def build_review(
    diff: RegistryDiff, acknowledged: Iterable[Change], acknowledged_by: str
) -> dict[str, Any]:
    """The review document for a version published after looking at ``diff``."""
    return {
        "format": REVIEW_FORMAT,
        "against": diff.a_label,
        "counts": {k.value: diff.counts[k] for k in CLASS_ORDER},
        "semver": {"level": diff.semver.level, "reasons": list(diff.semver.reasons)},
        "acknowledged": [change_key(c) for c in acknowledged],
        "acknowledged_by": acknowledged_by,
    }


def review_summary(review: dict[str, Any] | None) -> str:
    """One short line for the version list: ``major · breaking ack'd: 2``."""
    if not review:
        return ""
    level = (review.get("semver") or {}).get("level", "")
    acked = len(review.get("acknowledged") or [])
    parts = [semver_word(str(level))] if level else []
    if acked:
        parts.append(
            QCoreApplication.translate("ReviewSummary", "breaking ack'd: {count}").format(
                count=acked
            )
        )
    return " · ".join(parts)


def review_tooltip(review: dict[str, Any] | None) -> str:
    """The review spelled out: baseline, counts, reasons and acknowledgements."""
    if not review:
        return QCoreApplication.translate(
            "ReviewSummary", "Published without a review (e.g. from the command line)."
        )
    counts = review.get("counts") or {}
    semver = review.get("semver") or {}
    lines = [
        QCoreApplication.translate("ReviewSummary", "Reviewed against {against}").format(
            against=review.get("against", "?")
        ),
        ", ".join(f"{counts.get(k.value, 0)} {class_word(k)}" for k in CLASS_ORDER),
        QCoreApplication.translate("ReviewSummary", "Suggested {level}: {reasons}").format(
            level=semver_word(str(semver.get("level", "?"))),
            reasons=", ".join(semver.get("reasons") or []) or "—",
        ),
    ]
    acked = review.get("acknowledged") or []
    if acked:
        who = review.get("acknowledged_by") or QCoreApplication.translate(
            "ReviewSummary", "unknown"
        )
        lines.append(
            QCoreApplication.translate(
                "ReviewSummary", "Breaking changes acknowledged by {who}:"
            ).format(who=who)
        )
        lines += [f"  {a['rule_id']} {a.get('tool') or ''} {a.get('path') or ''}" for a in acked]
    return "\n".join(lines)
