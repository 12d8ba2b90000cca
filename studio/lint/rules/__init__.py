"""Lint rules, grouped by concern; importing this package registers them all."""
