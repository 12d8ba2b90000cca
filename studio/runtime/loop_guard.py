"""The loop guard: stops a run that goes in circles (DESIGN §5).

It watches tool calls in order and trips on: more executions than the cap;
the same (tool, canonical args) a third time; the same error code twice in a
row; or A-B-A-B oscillation. The first trip asks the model to change approach
(``note``); any trip after that ends the run as ``partial`` (``stop``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_MAX_TOOL_CALLS = 20
CHANGE_APPROACH_NOTE = (
    "The runtime noticed a loop ({detail}). Do not repeat this call: change approach, "
    "use what you already have, or ask the user for what is missing."
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A trip of the guard: ``action`` is ``note`` or ``stop``."""

    reason: str
    detail: str
    action: str

    @property
    def note(self) -> str:
        return CHANGE_APPROACH_NOTE.format(detail=self.detail)


@dataclass(slots=True)
class LoopGuard:
    """Tracks one run's tool calls. Call :meth:`before_call` then :meth:`after_call`."""

    max_tool_calls: int = DEFAULT_MAX_TOOL_CALLS
    repeat_limit: int = 3
    executions: int = 0
    noted: bool = False
    _seen: dict[tuple[str, str], int] = field(default_factory=dict)
    _history: list[tuple[str, str]] = field(default_factory=list)
    _last_error: str = ""

    def _trip(self, reason: str, detail: str) -> Verdict:
        action = "stop" if self.noted else "note"
        self.noted = True
        return Verdict(reason, detail, action)

    def before_call(self, signature: tuple[str, str], *, executes: bool = True) -> Verdict | None:
        """Record a call about to run; a verdict when it trips the guard.

        Args:
            signature: (tool name, canonical arguments hash).
            executes: False for calls the pipeline rejected (they do not count
                against the execution cap, but do count as repeats).
        """
        self._seen[signature] = self._seen.get(signature, 0) + 1
        self._history.append(signature)
        if executes:
            self.executions += 1
            if self.executions > self.max_tool_calls:
                return self._trip(
                    "max_tool_calls", f"more than {self.max_tool_calls} tool executions"
                )
        count = self._seen[signature]
        if count >= self.repeat_limit:
            return self._trip(
                "repeated_call", f"{signature[0]} called {count} times with the same arguments"
            )
        h = self._history
        if len(h) >= 4 and h[-1] == h[-3] and h[-2] == h[-4] and h[-1] != h[-2]:
            return self._trip("oscillation", f"alternating between {h[-2][0]} and {h[-1][0]}")
        return None

    def after_call(self, error_code: str) -> Verdict | None:
        """Record a call's outcome (empty ``error_code`` for success)."""
        previous, self._last_error = self._last_error, error_code
        if error_code and error_code == previous:
            return self._trip("repeated_error", f"error {error_code} twice in a row")
        return None
