"""Per-registry lint configuration, stored with the registry.

The configuration lives in ``RegistrySettings.extra["lint"]`` as plain JSON, so
it is saved with the draft and frozen into every published version::

    {
      "rules": {"desc-no-examples": {"enabled": false},
                "naming-generic": {"severity": "error"}},
      "options": {"summary.max_cjk_chars": 16, "similarity.threshold": 0.65},
      "suppressions": [{"rule_id": "schema-everything-required", "tool": "create_order",
                        "path": "parameters", "reason": "all fields are mandatory upstream"}]
    }

Parsing never raises a traceback at the user: :meth:`LintConfig.from_dict`
keeps every valid entry and returns a problem message for each invalid one
(unknown rule id, bad severity, suppression without a reason, option of the
wrong type); :meth:`LintConfig.from_settings_strict` raises
:class:`LintConfigError` with those messages instead.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from studio.contract.model import RegistrySettings
from studio.lint.model import RULES, Finding, Severity

SETTINGS_KEY = "lint"

DEFAULT_OPTIONS: dict[str, float | int] = {
    "summary.max_cjk_chars": 20,
    "summary.max_latin_words": 12,
    "param_description.max_chars": 80,
    "toolset.max_tools": 40,
    "toolset.provider_max_tools": 128,
    "similarity.threshold": 0.6,
    "similarity.max_df_share": 0.2,
    "similarity.summary_threshold": 0.75,
    "similarity.clone_threshold": 0.9,
    "noun.max_tools": 4,
    "cost.rounds": 5,
}
"""Rule options the engine and its rules know, with their defaults.

Options not listed here are passed to rules unchecked (rule modules may read
their own); listed ones must be positive numbers.
"""

ENGINE_RULE_IDS: frozenset[str] = frozenset({"internal-rule-error", "lint-config-invalid"})
"""Findings the engine itself reports; they are valid ids in a configuration."""


class LintConfigError(ValueError):
    """An invalid lint configuration; ``problems`` holds one message per error."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True, slots=True)
class Suppression:
    """A finding the team has decided to accept, with the reason why.

    Attributes:
        rule_id: The rule whose finding is accepted.
        tool: The tool concerned ("" for registry-level findings).
        reason: Why it is acceptable; required and shown in exports.
        path: Restrict to a JSON path (and everything under it); None = any.
    """

    rule_id: str
    tool: str
    reason: str
    path: str | None = None

    def matches(self, finding: Finding) -> bool:
        """True when this suppression covers ``finding``."""
        if finding.rule_id != self.rule_id or (finding.tool or "") != self.tool:
            return False
        if self.path is None or self.path == "":
            return True
        p = finding.path
        return p == self.path or p.startswith(self.path + ".") or p.startswith(self.path + "[")

    def to_dict(self) -> dict[str, str]:
        out = {"rule_id": self.rule_id, "tool": self.tool}
        if self.path:
            out["path"] = self.path
        out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class LintConfig:
    """Which rules run, how severe they are, their options and suppressions."""

    disabled: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    suppressions: tuple[Suppression, ...] = ()

    # ------------------------------------------------------------ queries

    def is_enabled(self, rule_id: str) -> bool:
        return rule_id not in self.disabled

    def severity_for(self, rule_id: str) -> Severity | None:
        """The configured severity of a rule, or None to keep the rule's own."""
        return self.severities.get(rule_id)

    def option(self, key: str, default: Any = None) -> Any:
        """An option value: configured, else the built-in default, else ``default``."""
        if key in self.options:
            return self.options[key]
        return DEFAULT_OPTIONS.get(key, default)

    def all_options(self) -> dict[str, Any]:
        """Defaults overlaid with the configured options (what rules see)."""
        return {**DEFAULT_OPTIONS, **self.options}

    def suppression_for(self, finding: Finding) -> Suppression | None:
        return next((s for s in self.suppressions if s.matches(finding)), None)

    # ------------------------------------------------------------ changes

    def with_rule(
        self, rule_id: str, *, enabled: bool | None = None, severity: Severity | None = None
    ) -> LintConfig:
        """A copy with a rule enabled/disabled and/or its severity set."""
        disabled = set(self.disabled)
        if enabled is True:
            disabled.discard(rule_id)
        elif enabled is False:
            disabled.add(rule_id)
        severities = dict(self.severities)
        if severity is not None:
            severities[rule_id] = Severity(severity)
        return dataclasses.replace(self, disabled=frozenset(disabled), severities=severities)

    def with_suppression(self, suppression: Suppression) -> LintConfig:
        """A copy with one more suppression (the reason must not be blank)."""
        if not suppression.reason.strip():
            raise LintConfigError([f"suppression of {suppression.rule_id}: reason is required"])
        return dataclasses.replace(self, suppressions=(*self.suppressions, suppression))

    def with_options(self, **options: Any) -> LintConfig:
        """A copy with options set; keys use ``_`` for the ``.`` (``summary__max``)."""
        merged = dict(self.options)
        merged.update({k.replace("__", "."): v for k, v in options.items()})
        return dataclasses.replace(self, options=merged)

    # ------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The plain-JSON form stored in ``RegistrySettings.extra["lint"]``."""
        rules: dict[str, dict[str, Any]] = {}
        for rule_id in sorted(self.disabled):
            rules.setdefault(rule_id, {})["enabled"] = False
        for rule_id, sev in sorted(self.severities.items()):
            rules.setdefault(rule_id, {})["severity"] = sev.value
        out: dict[str, Any] = {}
        if rules:
            out["rules"] = rules
        if self.options:
            out["options"] = dict(sorted(self.options.items()))
        if self.suppressions:
            out["suppressions"] = [s.to_dict() for s in self.suppressions]
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "lint") -> tuple[LintConfig, list[str]]:
        """Parse the JSON form, keeping the valid parts.

        Return:
            The configuration and a list of problem messages (empty when valid),
            each naming the offending entry (``lint.rules.foo.severity: ...``).
        """
        problems: list[str] = []
        if data is None:
            return cls(), problems
        if not isinstance(data, dict):
            return cls(), [f"{where}: must be an object, not {type(data).__name__}"]
        known = known_rule_ids()
        for key in data:
            if key not in ("rules", "options", "suppressions"):
                problems.append(f"{where}.{key}: unknown key (known: rules, options, suppressions)")
        disabled: set[str] = set()
        severities: dict[str, Severity] = {}
        rules = data.get("rules", {})
        if not isinstance(rules, dict):
            problems.append(f"{where}.rules: must be an object of rule id → settings")
            rules = {}
        for authored_id, entry in rules.items():
            at = f"{where}.rules.{authored_id}"
            rule_id = RENAMED_RULES.get(authored_id, authored_id)
            if rule_id not in known:
                problems.append(f"{at}: unknown rule id{_did_you_mean(rule_id, known)}")
                continue
            if not isinstance(entry, dict):
                problems.append(f"{at}: must be an object with 'enabled' and/or 'severity'")
                continue
            for key in entry:
                if key not in ("enabled", "severity"):
                    problems.append(f"{at}.{key}: unknown key (known: enabled, severity)")
            if "enabled" in entry:
                if isinstance(entry["enabled"], bool):
                    if not entry["enabled"]:
                        disabled.add(rule_id)
                else:
                    problems.append(f"{at}.enabled: must be true or false")
            if "severity" in entry:
                try:
                    severities[rule_id] = Severity(entry["severity"])
                except ValueError:
                    problems.append(
                        f"{at}.severity: {entry['severity']!r} is not one of error, warning, info"
                    )
        options: dict[str, Any] = {}
        raw_options = data.get("options", {})
        if not isinstance(raw_options, dict):
            problems.append(f"{where}.options: must be an object of option name → value")
            raw_options = {}
        for key, value in raw_options.items():
            if key in DEFAULT_OPTIONS and (
                isinstance(value, bool) or not isinstance(value, int | float) or value <= 0
            ):
                problems.append(f"{where}.options.{key}: must be a positive number, not {value!r}")
                continue
            options[key] = value
        suppressions: list[Suppression] = []
        raw_supp = data.get("suppressions", [])
        if not isinstance(raw_supp, list):
            problems.append(f"{where}.suppressions: must be an array")
            raw_supp = []
        for i, entry in enumerate(raw_supp):
            at = f"{where}.suppressions[{i}]"
            supp, problem = _parse_suppression(entry, at, known)
            if problem:
                problems.append(problem)
            elif supp is not None:
                suppressions.append(supp)
        config = cls(frozenset(disabled), severities, options, tuple(suppressions))
        return config, problems

    @classmethod
    def from_settings(cls, settings: RegistrySettings) -> LintConfig:
        """The configuration stored in ``settings`` (invalid entries are skipped).

        Use :meth:`problems_in` to list what was skipped, or
        :meth:`from_settings_strict` to refuse an invalid configuration.
        """
        return cls.from_dict(settings.extra.get(SETTINGS_KEY))[0]

    @classmethod
    def from_settings_strict(cls, settings: RegistrySettings) -> LintConfig:
        """Like :meth:`from_settings`, but raise :class:`LintConfigError` on any problem."""
        config, problems = cls.from_dict(settings.extra.get(SETTINGS_KEY))
        if problems:
            raise LintConfigError(problems)
        return config

    @staticmethod
    def problems_in(settings: RegistrySettings) -> list[str]:
        """What is wrong with the configuration stored in ``settings``."""
        return LintConfig.from_dict(settings.extra.get(SETTINGS_KEY))[1]

    def to_settings(self, settings: RegistrySettings) -> RegistrySettings:
        """A copy of ``settings`` holding this configuration (other extras kept)."""
        extra = dict(settings.extra)
        data = self.to_dict()
        if data:
            extra[SETTINGS_KEY] = data
        else:
            extra.pop(SETTINGS_KEY, None)
        return dataclasses.replace(settings, extra=extra)


def _parse_suppression(
    entry: Any, at: str, known: frozenset[str]
) -> tuple[Suppression | None, str | None]:
    if not isinstance(entry, dict):
        return None, f"{at}: must be an object with rule_id, tool and reason"
    rule_id = entry.get("rule_id")
    if not isinstance(rule_id, str) or not rule_id:
        return None, f"{at}.rule_id: required"
    rule_id = RENAMED_RULES.get(rule_id, rule_id)
    if rule_id not in known:
        return None, f"{at}.rule_id: unknown rule id {rule_id!r}{_did_you_mean(rule_id, known)}"
    tool = entry.get("tool", "")
    if not isinstance(tool, str):
        return None, f"{at}.tool: must be a tool name"
    path = entry.get("path")
    if path is not None and not isinstance(path, str):
        return None, f"{at}.path: must be a JSON path string"
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        return None, f"{at}.reason: a suppression needs a non-empty reason"
    for key in entry:
        if key not in ("rule_id", "tool", "path", "reason"):
            return None, f"{at}.{key}: unknown key (known: rule_id, tool, path, reason)"
    return Suppression(rule_id, tool, reason.strip(), path or None), None


RENAMED_RULES: dict[str, str] = {
    # issue #11: secret references became one family of data gathering.
    "sec-secret-reference": "sec-data-gathering",
}
"""Old rule id → its current id: a stored configuration naming an old id keeps working."""


def known_rule_ids() -> frozenset[str]:
    """Ids a configuration may name: every registered rule plus the engine's own."""
    importlib.import_module("studio.lint.rules")
    return frozenset(RULES) | ENGINE_RULE_IDS


def _did_you_mean(rule_id: str, known: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(rule_id, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
