"""Gray release: channels, sticky bucketing, guard metrics, resolve(subject) → version.

DESIGN §7. Typical use::

    set_canary(store, "travel-reimbursement", version=3, share=10, why="new ticket tool")
    resolution = resolve(store, "travel-reimbursement", subject="user-42")
    report = guard_for_registry(store, "travel-reimbursement")
    if report and report.recommendation.action == "rollback":
        rollback(store, "travel-reimbursement", why=report.recommendation.reason)
"""

from registry_db.channels import (
    CANARY,
    NO_CHANNEL,
    PUBLISH,
    STABLE,
    Channel,
    ChannelError,
    ChannelEvent,
)
from studio.release.bucketing import bucket, buckets, in_share
from studio.release.channels import (
    ReleaseState,
    channel_events,
    choose_channel,
    event_change,
    promote,
    release_state,
    rollback,
    set_canary,
    set_channel,
)
from studio.release.guard import (
    Comparison,
    GuardReport,
    GuardThresholds,
    Metrics,
    Recommendation,
    guard_for_registry,
    guard_report,
    metrics_over_time,
    two_proportion_z,
)
from studio.release.resolve import (
    SERVING_FORMATS,
    NoVersionError,
    Resolution,
    VersionCache,
    export_tools,
    resolution_document,
    resolve,
    snapshot_document,
)
from studio.release.simulator import (
    Assignment,
    Simulation,
    generate_subjects,
    parse_subjects,
    simulate,
)

__all__ = [
    "CANARY",
    "NO_CHANNEL",
    "PUBLISH",
    "SERVING_FORMATS",
    "STABLE",
    "Assignment",
    "Channel",
    "ChannelError",
    "ChannelEvent",
    "Comparison",
    "GuardReport",
    "GuardThresholds",
    "Metrics",
    "NoVersionError",
    "Recommendation",
    "ReleaseState",
    "Resolution",
    "Simulation",
    "VersionCache",
    "bucket",
    "buckets",
    "channel_events",
    "choose_channel",
    "event_change",
    "export_tools",
    "generate_subjects",
    "guard_for_registry",
    "guard_report",
    "in_share",
    "metrics_over_time",
    "parse_subjects",
    "promote",
    "release_state",
    "resolution_document",
    "resolve",
    "rollback",
    "set_canary",
    "set_channel",
    "simulate",
    "snapshot_document",
    "two_proportion_z",
]
