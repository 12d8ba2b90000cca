"""The description and schema linter."""
