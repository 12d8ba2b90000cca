"""Diff of two registry versions: tools added, removed, renamed and changed.

A tool missing from B and a tool new in B may be one tool renamed. Each such
pair gets a similarity score (name, rendered description and parameter set,
weighted 0.3 / 0.4 / 0.3); pairs at or over :data:`RENAME_THRESHOLD` are taken
best first. The caller can confirm a pair the detector missed and reject one
it found (the GUI asks the reviewer).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import Any

from studio.contract.model import (
    INJECTION_OPAQUE_LISTS,
    INJECTION_OPAQUE_MAPS,
    INJECTION_OPAQUE_SINGLES,
    INJECTION_TRANSPARENT,
    MAX_INJECTED_DEPTH,
    Registry,
    RegistrySettings,
    ToolContract,
)
from studio.contract.render import render_description
from studio.diff.model import (
    Change,
    ChangeClass,
    LintDelta,
    LintItem,
    RegistryDiff,
    RenameCandidate,
    TokenDelta,
    ToolDiff,
    ToolStatus,
    count_changes,
)
from studio.diff.semver import suggest_semver
from studio.diff.skills import skill_changes
from studio.diff.tool_diff import diff_tool
from studio.lint.text import split_identifier, tokenize

RENAME_THRESHOLD = 0.6
WEIGHTS = (0.3, 0.4, 0.3)
# Above this many removed × added pairs, only pairs sharing a rare term are scored.
_BRUTE_FORCE_PAIRS = 10_000
_RARE_TERM_MAX_TOOLS = 20

B = ChangeClass.BREAKING
H = ChangeClass.BEHAVIOURAL
C = ChangeClass.COMPATIBLE
M = ChangeClass.METADATA

RenamePairs = Mapping[str, str] | Iterable[tuple[str, str]]


def diff_registries(
    a: Registry,
    b: Registry,
    *,
    confirmed_renames: Mapping[str, str] | None = None,
    rejected_renames: RenamePairs | None = None,
    lint_profile: str | None = "openai",
    a_label: str = "A",
    b_label: str = "B",
    token_profile: str | None = None,
) -> RegistryDiff:
    """Everything that changes for a model and its callers going from ``a`` to ``b``.

    Args:
        a: The old version.
        b: The new version.
        confirmed_renames: Old name → new name pairs to treat as renames
            whatever their score.
        rejected_renames: Pairs (old, new) never to treat as renames.
        lint_profile: Profile to lint both sides with for the lint delta;
            None skips linting (the token delta is computed either way).
        a_label: How A is named in reports (``v3``, ``draft``, ``stable (v3)``).
        b_label: How B is named.
        token_profile: The target the token delta counts for (it selects the
            method, see :func:`studio.contract.token_count.token_method`);
            default: ``lint_profile``, and the offline estimate when both are None.

    Return:
        The diff: per-tool changes, counts per class, semver suggestion,
        lint delta and token delta.

    Raises:
        ValueError: a confirmed rename names a tool that is not removed in A
            and added in B, or an old or new name twice.
    """
    by_a = {t.name: t for t in a.tools}
    by_b = {t.name: t for t in b.tools}
    removed = [t for t in a.tools if t.name not in by_b]
    added = [t for t in b.tools if t.name not in by_a]
    candidates = detect_renames(
        removed, added, a.settings, b.settings,
        confirmed=confirmed_renames or {}, rejected=_pairs(rejected_renames),
    )  # fmt: skip
    accepted = {c.old: c for c in candidates if c.accepted}
    by_new = {c.new: c for c in accepted.values()}

    tools: list[ToolDiff] = []
    for tool in b.tools:
        if tool.name in by_a:
            changes, blocks = diff_tool(by_a[tool.name], tool, a.settings, b.settings)
            status = ToolStatus.CHANGED if changes or blocks else ToolStatus.UNCHANGED
            tools.append(ToolDiff(tool.name, tool.name, status, _order(changes), tuple(blocks)))
        elif tool.name in by_new:
            cand = by_new[tool.name]
            changes, blocks = diff_tool(by_a[cand.old], tool, a.settings, b.settings)
            renamed = Change(
                "tool.renamed", B, tool.name, "name", cand.old, tool.name,
                f"renamed from {cand.old} (similarity {cand.score:.2f}); callers using the "
                "old name fail",
            )  # fmt: skip
            tools.append(
                ToolDiff(
                    tool.name, cand.old, ToolStatus.RENAMED, (renamed, *_order(changes)),
                    tuple(blocks), cand.score,
                )
            )  # fmt: skip
        else:
            change = Change(
                "tool.added", C, tool.name, "", None, tool.name,
                "new tool (additive; the model may now choose it)",
            )  # fmt: skip
            tools.append(ToolDiff(tool.name, None, ToolStatus.ADDED, (change,)))
    for tool in removed:
        if tool.name in accepted:
            continue
        change = Change(
            "tool.removed", B, tool.name, "", tool.name, None,
            "tool removed; callers and conversations that use it fail",
        )  # fmt: skip
        tools.append(ToolDiff(tool.name, tool.name, ToolStatus.REMOVED, (change,)))

    registry_changes = tuple(_registry_changes(a, b))
    everything = registry_changes + tuple(c for t in tools for c in t.changes)
    renames = {c.old: c.new for c in accepted.values()}
    return RegistryDiff(
        a_label=a_label,
        b_label=b_label,
        registry=b.name,
        tools=tuple(tools),
        registry_changes=registry_changes,
        renames=tuple(candidates),
        counts=count_changes(everything),
        semver=suggest_semver(everything),
        lint_delta=lint_delta(a, b, lint_profile, renames) if lint_profile else None,
        token_delta=token_delta(a, b, renames, token_profile or lint_profile),
        _all=everything,
    )


def _order(changes: list[Change]) -> tuple[Change, ...]:
    """Worst class first; document order within a class (sort is stable)."""
    return tuple(sorted(changes, key=lambda c: -c.klass.rank))


def _pairs(value: RenamePairs | None) -> set[tuple[str, str]]:
    if value is None:
        return set()
    if isinstance(value, Mapping):
        return set(value.items())
    return {(old, new) for old, new in value}


# ---------------------------------------------------------------------- renames


@dataclass(frozen=True, slots=True)
class _Profile:
    tool: ToolContract
    words: tuple[str, ...]
    joined: str
    terms: frozenset[str]
    params: frozenset[str]


def _profile(tool: ToolContract, settings: RegistrySettings) -> _Profile:
    words = split_identifier(tool.name)
    text = render_description(tool, settings.description_template)
    return _Profile(
        tool, words, "_".join(words), frozenset(tokenize(text)), frozenset(_param_keys(tool))
    )


def _param_keys(tool: ToolContract) -> list[str]:
    """Flattened (normalised path, type) keys of the parameters, for a Jaccard score."""
    keys: list[str] = []

    def walk(schema: Any, prefix: str) -> None:
        if not isinstance(schema, dict):
            return
        props = schema.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                norm = prefix + "_".join(split_identifier(name))
                kind = sub.get("type") if isinstance(sub, dict) else None
                keys.append(f"{norm}:{kind}")
                walk(sub, norm + ".")
        if isinstance(schema.get("items"), dict):
            walk(schema["items"], prefix + "[].")

    walk(tool.parameters, "")
    return keys


def _jaccard(a: frozenset[str], b: frozenset[str], empty: float) -> float:
    if not a and not b:
        return empty
    return len(a & b) / len(a | b)


def _score(pa: _Profile, pb: _Profile) -> tuple[float, float, float, float]:
    name = max(
        SequenceMatcher(None, pa.joined, pb.joined).ratio(),
        _jaccard(frozenset(pa.words), frozenset(pb.words), 0.0),
    )
    # No description on either side says nothing either way.
    desc = _jaccard(pa.terms, pb.terms, 0.5)
    schema = _jaccard(pa.params, pb.params, 1.0)
    total = WEIGHTS[0] * name + WEIGHTS[1] * desc + WEIGHTS[2] * schema
    return round(total, 4), round(name, 4), round(desc, 4), round(schema, 4)


def _candidate_pairs(
    removed: list[_Profile], added: list[_Profile]
) -> Iterable[tuple[_Profile, _Profile]]:
    if len(removed) * len(added) <= _BRUTE_FORCE_PAIRS:
        return ((r, n) for r in removed for n in added)
    # Many removed and added tools: only pairs sharing a term that few tools use.
    index: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(removed):
        for term in r.terms | frozenset(r.words) | r.params:
            index[term].append(i)
    pairs: list[tuple[_Profile, _Profile]] = []
    for n in added:
        seen: set[int] = set()
        for term in n.terms | frozenset(n.words) | n.params:
            hits = index.get(term, ())
            if len(hits) <= _RARE_TERM_MAX_TOOLS:
                seen.update(hits)
        pairs.extend((removed[i], n) for i in sorted(seen))
    return pairs


def detect_renames(
    removed: list[ToolContract],
    added: list[ToolContract],
    settings_a: RegistrySettings | None = None,
    settings_b: RegistrySettings | None = None,
    *,
    confirmed: Mapping[str, str] | None = None,
    rejected: set[tuple[str, str]] | None = None,
    threshold: float = RENAME_THRESHOLD,
) -> list[RenameCandidate]:
    """Pair removed tools with added ones that look like the same tool renamed.

    Args:
        removed: Tools of A missing from B.
        added: Tools of B missing from A.
        settings_a: A's settings (description template).
        settings_b: B's settings.
        confirmed: Old → new pairs accepted whatever their score.
        rejected: (old, new) pairs never accepted.
        threshold: Minimum score of a detected pair.

    Return:
        Accepted pairs (confirmed first, then detected best first) followed by
        the rejected pairs that scored over the threshold (``accepted=False``).

    Raises:
        ValueError: a confirmed pair does not name a removed and an added tool.
    """
    confirmed = dict(confirmed or {})
    rejected = rejected or set()
    pa = {t.name: _profile(t, settings_a or RegistrySettings()) for t in removed}
    pb = {t.name: _profile(t, settings_b or RegistrySettings()) for t in added}
    out: list[RenameCandidate] = []
    for old, new in confirmed.items():
        if old not in pa:
            raise ValueError(f"confirmed rename {old} → {new}: {old!r} is not removed in A")
        if new not in pb:
            raise ValueError(f"confirmed rename {old} → {new}: {new!r} is not added in B")
        if list(confirmed.values()).count(new) > 1:
            raise ValueError(f"confirmed renames name {new!r} more than once")
        out.append(RenameCandidate(old, new, *_score(pa[old], pb[new]), True, "confirmed"))
    taken_old = set(confirmed)
    taken_new = set(confirmed.values())
    scored = []
    free_a = [p for n, p in pa.items() if n not in taken_old]
    free_b = [p for n, p in pb.items() if n not in taken_new]
    for ra, nb in _candidate_pairs(free_a, free_b):
        score = _score(ra, nb)
        if score[0] >= threshold:
            scored.append((score, ra.tool.name, nb.tool.name))
    # Best first; names break ties so the result does not depend on input order.
    scored.sort(key=lambda s: (-s[0][0], s[1], s[2]))
    refused: list[RenameCandidate] = []
    for score, old, new in scored:
        if (old, new) in rejected:
            refused.append(RenameCandidate(old, new, *score, False, "rejected"))
            continue
        if old in taken_old or new in taken_new:
            continue
        taken_old.add(old)
        taken_new.add(new)
        out.append(RenameCandidate(old, new, *score, True, "detected"))
    return out + refused


# ---------------------------------------------------------------------- registry level


def _registry_changes(a: Registry, b: Registry) -> list[Change]:
    out: list[Change] = []
    if a.title != b.title:
        out.append(Change("registry.title-changed", M, None, "title", a.title, b.title, "title"))
    if a.description != b.description:
        out.append(
            Change(
                "registry.description-changed", M, None, "description", a.description,
                b.description, "registry description (not sent to the model)",
            )
        )  # fmt: skip
    sa, sb = a.settings, b.settings
    if sa.description_template != sb.description_template:
        out.append(
            Change(
                "registry.template-changed", H, None, "settings.description_template",
                sa.description_template, sb.description_template,
                "description template changed: every rendered description may read differently",
            )
        )  # fmt: skip
    if sa.verbs != sb.verbs:
        out.append(
            Change(
                "registry.verbs-changed", M, None, "settings.verbs", list(sa.verbs),
                list(sb.verbs), "verb vocabulary (lint only)",
            )
        )  # fmt: skip
    if sa.extra != sb.extra:
        out.append(
            Change(
                "registry.settings-changed", M, None, "settings.extra", sa.extra, sb.extra,
                "other settings (e.g. lint configuration)",
            )
        )  # fmt: skip
    names_a = {t.name for t in a.tools}
    common_b = [t.name for t in b.tools if t.name in names_a]
    names_b = set(common_b)
    common_a = [t.name for t in a.tools if t.name in names_b]
    if common_a != common_b:
        out.append(
            Change(
                "registry.tools-reordered", M, None, "tools", common_a, common_b,
                "tools reordered (providers receive them in this order)",
            )
        )  # fmt: skip
    out.extend(skill_changes(a, b))  # skills and remote agents (studio/diff/skills.py)
    return out


# ---------------------------------------------------------------------- deltas


def lint_delta(
    a: Registry, b: Registry, profile: str, renames: Mapping[str, str] | None = None
) -> LintDelta:
    """Findings added and fixed from ``a`` to ``b``, linted with the same profile.

    Findings match by (rule id, tool, path); a renamed tool's findings in A
    count under its new name. Repeated keys pair up in order. Findings of
    tools removed in B are reported as ``gone``, not as fixed.
    """
    from studio.lint import lint_registry

    renames = renames or {}
    before = lint_registry(a, profile=profile).findings
    after = lint_registry(_share_unchanged(a, b), profile=profile).findings

    def item(f: Any, tool: str | None) -> LintItem:
        return LintItem(f.rule_id, str(f.severity), tool, f.path, f.message)

    old: dict[tuple, list[LintItem]] = defaultdict(list)
    for f in before:
        tool = renames.get(f.tool, f.tool) if f.tool else f.tool
        old[(f.rule_id, tool, f.path)].append(item(f, tool))
    new: dict[tuple, list[LintItem]] = defaultdict(list)
    for f in after:
        new[(f.rule_id, f.tool, f.path)].append(item(f, f.tool))
    added = [i for key, items in new.items() for i in items[len(old.get(key, ())) :]]
    resolved = [i for key, items in old.items() for i in items[len(new.get(key, ())) :]]
    present = {t.name for t in b.tools}
    fixed = [i for i in resolved if i.tool is None or i.tool in present]
    gone = [i for i in resolved if not (i.tool is None or i.tool in present)]
    return LintDelta(profile, tuple(added), tuple(fixed), len(before), len(after), tuple(gone))


def _share_unchanged(a: Registry, b: Registry) -> Registry:
    """``b`` holding A's tool object for each tool that is exactly the same in both.

    The linter caches what it derives from a tool per tool object, so a tool
    B shares with A is linted once for both sides: a 1,000-tool diff with 100
    changed lints B in about a third of the time. Exactly the same: equal, and
    the same document written as JSON (so ``1`` is not ``True`` or ``1.0`` and
    keys are in the same order), under the same settings; each A object is
    shared at most once. Anything else keeps B's own object.
    """
    from studio.contract.document import settings_to_dict, tool_to_dict

    def same(x: Any, y: Any) -> bool:
        try:
            return json.dumps(x, ensure_ascii=False) == json.dumps(y, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            return False

    if a.settings != b.settings or not same(
        settings_to_dict(a.settings), settings_to_dict(b.settings)
    ):
        return b
    by_a = {t.name: t for t in a.tools}
    shared: set[int] = set()
    tools: list[ToolContract] = []
    for t in b.tools:
        old = by_a.get(t.name)
        if (
            old is not None and old is not t and id(old) not in shared and old == t
            and same(tool_to_dict(old), tool_to_dict(t))
        ):  # fmt: skip
            shared.add(id(old))
            t = old
        tools.append(t)
    return replace(b, tools=tuple(tools)) if shared else b


def token_delta(
    a: Registry,
    b: Registry,
    renames: Mapping[str, str] | None = None,
    profile: str | None = None,
) -> TokenDelta:
    """Definition tokens per tool (keyed by B's name) and in total.

    Args:
        a: The old version.
        b: The new version.
        renames: Old name → new name of the accepted renames.
        profile: The target; it selects the method (``o200k_base`` for the
            openai profiles when bpe-openai is installed); None: the estimate.
    """
    from studio.contract.token_count import cached_token_counter, token_method
    from studio.lint.cache import memo
    from studio.lint.rules._common import rendered, text
    from studio.lint.rules.cost import PER_TOOL_OVERHEAD, tool_tokens

    renames = renames or {}
    method = token_method(profile)
    counter, counted_as = cached_token_counter(profile)

    def tokens(tool: ToolContract, settings: RegistrySettings) -> int:
        # Counted on sorted keys (the canonical order versions are stored in),
        # so two spellings of one schema cost the same. A tool already in
        # that order and without x- keys is counted as is, which keeps the
        # linter's per-object memo. Otherwise the model's view (sorted, x- keys
        # gone) is built in one walk: the count is the same (the counter strips
        # x- keys itself) without the counter's slower path-tracking strip.
        params = tool.parameters
        if not _keys_sorted(params) or _has_extension_keys(params):
            key = ("diff-tokens", counted_as, settings.description_template)
            return memo(tool, key, lambda: _view_tokens(tool, settings))
        return tool_tokens(tool, settings, profile)

    def _view_tokens(tool: ToolContract, settings: RegistrySettings) -> int:
        # What tool_tokens(replace(tool, parameters=view)) counts, summed here
        # directly: the view has no x- keys and no injected properties, so the
        # counter's own strip (an injected-field walk, a copy of the tool and
        # its memo) would only find nothing to do. A view whose JSON still
        # shows '"x-' (inside a string) goes the counter's way, as before.
        view = _model_view(tool.parameters)
        if view is not None:
            schema = _COMPACT.encode(view)
            if '"x-' not in schema:
                name, description = text(tool.name), rendered(tool, settings)
                return PER_TOOL_OVERHEAD + counter(name) + counter(description) + counter(schema)
            return tool_tokens(replace(tool, parameters=view), settings, profile)
        if not _keys_sorted(tool.parameters):
            tool = replace(tool, parameters=_sorted_keys(tool.parameters))
        return tool_tokens(tool, settings, profile)

    same_template = a.settings.description_template == b.settings.description_template
    old_tools = {renames.get(t.name, t.name): t for t in a.tools}
    before = {name: tokens(t, a.settings) for name, t in old_tools.items()}
    per_tool: dict[str, tuple[int, int]] = {}
    for t in b.tools:
        old = old_tools.get(t.name)
        count_before = before.pop(t.name, 0)
        # An unchanged tool costs what it cost (renders and schema are equal).
        unchanged = same_template and old is not None and (old is t or old == t)
        count_after = count_before if unchanged else tokens(t, b.settings)
        per_tool[t.name] = (count_before, count_after)
    for name, count in before.items():
        per_tool[name] = (count, 0)
    return TokenDelta(
        per_tool,
        sum(p[0] for p in per_tool.values()),
        sum(p[1] for p in per_tool.values()),
        method,
    )


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def _keys_sorted(value: Any) -> bool:
    if isinstance(value, dict):
        keys = list(value)
        return keys == sorted(keys) and all(_keys_sorted(v) for v in value.values())
    if isinstance(value, list):
        return all(_keys_sorted(v) for v in value)
    return True


def _has_extension_keys(value: Any) -> bool:
    if isinstance(value, dict):
        return any(
            (isinstance(k, str) and k.startswith("x-")) or _has_extension_keys(v)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_has_extension_keys(v) for v in value)
    return False


# What json.dumps(value, ensure_ascii=False, separators=(",", ":")) writes (the
# token counter's form), without building an encoder per call.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

_SCALARS = frozenset((str, int, float, bool, type(None)))


# The keys under which studio.contract.model.injected_fields looks for injected
# properties (their objects, and the elements of their lists, are one level down).
_ONE_LEVEL_DOWN: dict[str, type] = {
    "items": dict,
    **dict.fromkeys(INJECTION_TRANSPARENT, list),
    **dict.fromkeys(INJECTION_OPAQUE_LISTS, list),
    **dict.fromkeys(INJECTION_OPAQUE_SINGLES, dict),
}


class _NotPlain(Exception):
    """The schema has what the one-walk view cannot copy exactly (see :func:`_model_view`)."""


def _model_view(parameters: Any) -> Any:
    """``parameters`` as the model sees them, with sorted keys, in one walk.

    What the token counter would make of the sorted parameters itself
    (:func:`studio.lint.rules._common.model_parameters`: every ``x-`` key and each
    injected property, with its name in ``required``, dropped), built without
    forming a JSON path anywhere: the walk knows which objects
    :func:`studio.contract.model.injected_fields` visits (it follows the same
    keys, to the same depth), so it drops the injected properties of those
    objects as it copies them. tests/diff/test_token_view.py and
    tests/diff/test_token_delta_fast_path.py hold it equal to the linter's strip.

    Return:
        The view, or None for parameters that are not a JSON object with string
        keys, or that keep an ``x-`` property name beside an injected one (the
        caller then lets the counter do it).
    """
    if not isinstance(parameters, dict):
        return None

    # ``depth``: the depth at which injected_fields visits this value when it is
    # an object, or -1 where it does not look (under other keys, past its limit).
    def walk(value: Any, depth: int) -> Any:
        if type(value) is not dict:  # most calls are for plain dicts: one test for them
            if type(value) in _SCALARS or isinstance(value, str | int | float):
                return value
            if isinstance(value, list):
                # injected_fields looks into the objects of a list, not into lists in it.
                return [
                    v if type(v) in _SCALARS else walk(v, depth if isinstance(v, dict) else -1)
                    for v in value
                ]
            if not isinstance(value, dict):
                raise _NotPlain
        if depth > MAX_INJECTED_DEPTH:
            depth = -1
        below = depth + 1 if depth >= 0 else -1
        gone: set[str] = set()
        props = value.get("properties")
        if depth >= 0 and isinstance(props, dict):
            gone = {
                n for n, sub in props.items()
                if isinstance(sub, dict) and "x-injected" in sub and isinstance(n, str)
            }  # fmt: skip
        out: dict[str, Any] = {}
        for key in sorted(value):  # mixed key types raise TypeError, others AttributeError
            if key.startswith("x-"):
                continue
            item = value[key]
            if type(item) in _SCALARS:  # most of a schema: no call
                out[key] = item
            elif key == "properties" and isinstance(item, dict):
                if gone and any(n.startswith("x-") for n in item if n not in gone):
                    # The linter keeps these names here but drops them when it strips
                    # the view again (the counter does, seeing '"x-'): not the same.
                    raise _NotPlain
                out[key] = {
                    n: walk(item[n], below) for n in sorted(item)
                    if n not in gone and not n.startswith("x-")
                }  # fmt: skip
            elif key == "required" and gone and isinstance(item, list):
                out[key] = [walk(r, -1) for r in item if r not in gone]
            elif key in INJECTION_OPAQUE_MAPS and isinstance(item, dict):
                # A map of schemas: the map itself is no schema object.
                out[key] = {
                    n: walk(item[n], below) for n in sorted(item) if not n.startswith("x-")
                }  # fmt: skip
            elif key in _ONE_LEVEL_DOWN and isinstance(item, _ONE_LEVEL_DOWN[key]):
                out[key] = walk(item, below)
            else:
                out[key] = walk(item, -1)
        return out

    try:
        return walk(parameters, 0)
    except (_NotPlain, RecursionError, TypeError, AttributeError):
        return None
