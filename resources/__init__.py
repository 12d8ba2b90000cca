"""Bundled resources: icons, styles, example registries and recorded sessions."""
