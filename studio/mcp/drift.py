"""Drift: what a live MCP server lists now against the version that was pinned.

Both sides are compared as an MCP client sees them: the pinned version goes through
the MCP export and back (:func:`studio.mcp.mapping.mcp_view`), the live listing
through the same import, so studio-only fields (permissions, aliases, timeouts) never
count as drift. The comparison is the ordinary version diff (breaking / behavioural /
compatible / metadata), with its word diff of every changed description: the classic
"rug pull" is a description that changes after it was approved. The security rules of
the linter run on the live descriptions too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from studio.contract import Registry
from studio.diff import RegistryDiff, diff_registries, to_json, to_text
from studio.diff.model import ToolStatus
from studio.lint.model import Finding
from studio.mcp.client import ServerListing
from studio.mcp.mapping import SOURCE_KEY, mcp_view, registry_from_listing

SECURITY_CATEGORY = "security"


@dataclass(frozen=True)
class DriftReport:
    """The result of one drift check.

    Attributes:
        diff: Pinned (A) → live (B), as the version diff reports it.
        security: Security findings on the live tools (errors and warnings).
        server_changes: Lines about the server itself (name, version, protocol).
        pinned_label: How the pinned side is named (``v3``, ``stable (v3)``).
        pinned_view: The pinned version as an MCP client sees it (A of the diff).
        live: The live tools as a registry (B of the diff).
    """

    diff: RegistryDiff
    security: tuple[Finding, ...]
    server_changes: tuple[str, ...]
    pinned_label: str
    pinned_view: Registry
    live: Registry

    @property
    def drifted(self) -> bool:
        """True when any tool changed, appeared or disappeared."""
        return any(t.status is not ToolStatus.UNCHANGED for t in self.diff.tools)

    def changed_tools(self) -> list[str]:
        """Names of the tools that differ (live names; pinned names for removed tools)."""
        return [t.name for t in self.diff.tools if t.status is not ToolStatus.UNCHANGED]

    def to_text(self) -> str:
        """The report for a terminal or a CI log."""
        head = (
            f"DRIFT: {len(self.changed_tools())} tool(s) differ from {self.pinned_label}: "
            + ", ".join(self.changed_tools())
            if self.drifted
            else f"no drift: the live server lists what {self.pinned_label} pinned"
        )
        lines = [head]
        lines += [f"server: {line}" for line in self.server_changes]
        text = "\n".join(lines) + "\n"
        if self.drifted:
            text += "\n" + to_text(self.diff)
        if self.security:
            text += "\nsecurity findings on the live descriptions:\n"
            text += "".join(
                f"  {f.severity.value:<8} {f.rule_id} {f.tool or '(registry)'} {f.message}\n"
                for f in self.security
            )
        return text

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (the diff in the shape of ``studio diff --format json``)."""
        return {
            "drift": self.drifted,
            "changed_tools": self.changed_tools(),
            "server_changes": list(self.server_changes),
            "diff": to_json(self.diff),
            "security": [
                {
                    "rule_id": f.rule_id,
                    "severity": f.severity.value,
                    "tool": f.tool,
                    "path": f.path,
                    "message": f.message,
                }
                for f in self.security
            ],
        }


def check_drift(
    pinned: Registry,
    listing: ServerListing,
    *,
    pinned_label: str = "pinned",
    lint_profile: str = "openai",
) -> DriftReport:
    """Compare a live listing with a pinned registry version.

    Args:
        pinned: The pinned version.
        listing: What the server lists now.
        pinned_label: How the pinned side is named in the report.
        lint_profile: Profile for the security rules on the live tools.

    Raises:
        studio.formats.FormatError: the live listing holds a tool the contract cannot hold.
    """
    live = registry_from_listing(listing, name=pinned.name).registry
    a = mcp_view(pinned)
    # Registry metadata (title, where it was pulled from) is not what drift is about;
    # the server's identity is reported on its own lines.
    b = replace(live, title=a.title, description=a.description, settings=a.settings)
    diff = diff_registries(a, b, a_label=pinned_label, b_label="live", lint_profile=None)
    return DriftReport(
        diff=diff,
        security=_security_findings(live, lint_profile),
        server_changes=tuple(_server_changes(pinned, listing)),
        pinned_label=pinned_label,
        pinned_view=a,
        live=b,
    )


def _security_findings(live: Registry, profile: str) -> tuple[Finding, ...]:
    from studio.lint import Severity, lint_registry

    report = lint_registry(live, profile=profile)
    return tuple(
        f
        for f in report.findings
        if f.category == SECURITY_CATEGORY and f.severity is not Severity.INFO
    )


def _server_changes(pinned: Registry, listing: ServerListing) -> list[str]:
    source = pinned.settings.extra.get(SOURCE_KEY)
    if not isinstance(source, dict):
        return [f"{listing.server_name} {listing.server_version} over {listing.era}"]
    server = source.get("server")
    if not isinstance(server, dict):
        server = {}
    out = []
    before = f"{server.get('name', '')} {server.get('version', '')}".strip()
    after = f"{listing.server_name} {listing.server_version}".strip()
    if before != after:
        out.append(f"{before or '(unnamed)'} → {after or '(unnamed)'}")
    if source.get("protocol_version") != listing.protocol_version:
        out.append(f"protocol {source.get('protocol_version')} → {listing.protocol_version}")
    return out
