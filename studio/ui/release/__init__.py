"""The Release mode of the main window: channels, log, simulator, guard metrics, charts."""

from studio.ui.release.prompts import CanaryRequest, ReleasePrompts
from studio.ui.release.release_view import ReleaseView

__all__ = ["CanaryRequest", "ReleasePrompts", "ReleaseView"]
