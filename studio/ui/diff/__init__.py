"""The Diff view and the review shown when publishing (issue #6, DESIGN §7)."""
