"""Tool Registry Studio."""

__version__ = "0.1.0"
