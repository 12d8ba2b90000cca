"""A real A2A server (the sample expense-audit agent, a2a-sdk) on 127.0.0.1 for tests."""

from __future__ import annotations

from studio.agents.expense_audit import serving as running_agent

__all__ = ["running_agent"]
