"""Composite views (editor, panels)."""
