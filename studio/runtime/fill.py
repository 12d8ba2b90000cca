"""Step 5 of the argument pipeline: injected values from the session, then schema defaults.

A property marked ``x-injected`` is filled from the session context, whatever
the model sent (its value is dropped and the drop noted); a property left out
that has a ``default`` gets it. :class:`FillPlan` reads per tool, once, what
every call needs: which fields cannot be filled, where each field goes and the
words of its changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.contract.model import INJECTED_ITEMS, InjectedField
from studio.runtime.call_plan import copy_arguments
from studio.runtime.context import SessionContext
from studio.runtime.results import ToolError

__all__ = ["FillPlan"]


@dataclass(frozen=True, slots=True)
class _Injection:
    name: str
    parents: tuple[str, ...]
    source: str
    discarded: str
    root_path: str


class FillPlan:
    """What step 5 does for one tool's calls.

    Attributes:
        broken: Injected fields the runtime cannot fill (every call is refused).
        injections: The others, with where they go and the words of their notes.
        defaults: ``(property, default)`` of the root's properties with a default.
    """

    __slots__ = ("broken", "defaults", "injections")

    def __init__(
        self, injected: tuple[InjectedField, ...], defaults: tuple[tuple[str, Any], ...]
    ) -> None:
        self.broken = tuple(f for f in injected if not f.fillable)
        self.injections = tuple(
            _Injection(
                f.name,
                f.path[:-1],
                f.source,
                f"injected from {f.source}; the model may not set it",
                f"$.{f.name}",
            )
            for f in injected
        )
        self.defaults = defaults

    def apply(
        self, args: dict[str, Any], context: SessionContext, tool: str
    ) -> tuple[list[dict[str, Any]], ToolError | None]:
        """Fill ``args`` in place: the changes made, and the error that stopped it (or None)."""
        changes: list[dict[str, Any]] = []
        if self.broken:
            return changes, _broken_contract(tool, self.broken)
        for f in self.injections:
            name = f.name
            if f.parents:
                targets = _targets(args, f.parents, "$")
            else:
                targets = [(args, "$")] if isinstance(args, dict) else []
            for parent, where in targets:
                path = f.root_path if where == "$" else f"{where}.{name}"
                if name in parent:
                    changes.append(
                        {
                            "path": path,
                            "action": "discarded",
                            "from": parent.pop(name),
                            "reason": f.discarded,
                        }
                    )
                try:
                    value = context.lookup(f.source)
                except KeyError:
                    return changes, _missing_value(path.removeprefix("$."), f.source)
                parent[name] = value if type(value) is str else copy_arguments(value)
                changes.append(
                    {
                        "path": path,
                        "action": "injected",
                        "from_context": f.source,
                        "reason": "x-injected",
                    }
                )
        for name, default in self.defaults:
            if name not in args:
                args[name] = copy_arguments(default)
                changes.append(
                    {
                        "path": f"$.{name}",
                        "action": "default",
                        "to": default,
                        "reason": "schema default",
                    }
                )
        return changes, None


def _broken_contract(tool: str, broken: tuple[InjectedField, ...]) -> ToolError:
    # Fail closed: exports hide these from the model, but the runtime cannot
    # tell where they are in the arguments, so it could not drop a model value.
    where = ", ".join(f.json_path for f in broken)
    return ToolError(
        "INVALID_CONTRACT",
        f"the contract of {tool} marks {where} as x-injected where the "
        "runtime cannot fill it (it needs a context path, on a property reached "
        "through properties, items, anyOf, oneOf or allOf)",
        retryable=False,
        hint="Tell the user this tool is misconfigured and cannot be called now.",
        details={"fields": [f.json_path for f in broken]},
    )


def _missing_value(field: str, source: str) -> ToolError:
    return ToolError(
        "MISSING_CONTEXT_VALUE",
        f"{field} comes from the session context ({source}), which has no value",
        retryable=False,
        hint="Tell the user the session is missing this value; it cannot be "
        "supplied in the arguments.",
        details={"field": field, "context_path": source},
    )


def _targets(value: Any, path: tuple[str, ...], where: str) -> list[tuple[dict[str, Any], str]]:
    """The objects in ``value`` that hold the property at ``path`` + name, with their paths.

    Objects the model left out are not created: an injected field of an absent
    ``claim`` has nowhere to go (validation reports a required ``claim``).
    """
    if not path:
        return [(value, where)] if isinstance(value, dict) else []
    head, rest = path[0], path[1:]
    if head == INJECTED_ITEMS:
        if not isinstance(value, list):
            return []
        out: list[tuple[dict[str, Any], str]] = []
        for i, item in enumerate(value):
            out.extend(_targets(item, rest, f"{where}[{i}]"))
        return out
    if isinstance(value, dict) and head in value:
        return _targets(value[head], rest, f"{where}.{head}")
    return []
