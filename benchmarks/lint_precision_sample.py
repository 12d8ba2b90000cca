"""Error-level findings on real, benign tools: how many tools get one, and a sample to judge.

Run: ``python benchmarks/lint_precision_sample.py [--seed 11] [--size 40] [--show]``

Issue #11 ("Done means"): on the benign corpus, the share of tools with at
least one error, and a seeded sample of 40 error-level findings judged by hand
(precision per error-level rule ≥ 85 %). The judgments and their reasons are in
``docs/lint-precision.md``; :data:`JUDGED` holds the verdicts so the script can
print per-rule precision for the sample it draws.

The tools: every record of ``tests/data/security/benign.jsonl`` (BFCL,
ToolBench/RapidAPI, ToolAlpaca, popular MCP servers, authored hard negatives),
each ``group`` imported as one registry through the OpenAI importer as a user
would import it (names normalised; a tool the importer refuses is left out and
counted), plus the public OpenAPI documents of ``tests/data/openapi`` imported
as they are. Each registry is linted whole (profile ``openai``, default
configuration), so pair rules see the tool's real siblings.

The sample is stratified: the error-level findings of each rule are shuffled
with the seed and the rule id, then rules take turns (in rule-id order) giving one finding
each until ``--size`` are drawn, so every error-level rule is judged at least
once when there are no more rules than the sample size. A pair finding counts
for both of its tools in the share of tools with an error.
"""

# Long lines: the finding keys and verdicts of JUDGED are data, kept one per line to grep.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.formats import FormatError, import_path, import_text  # noqa: E402
from studio.lint import Finding, Severity, lint_registry  # noqa: E402
from studio.lint.engine import finding_tools  # noqa: E402

BENIGN = ROOT / "tests" / "data" / "security" / "benign.jsonl"
OPENAPI = ROOT / "tests" / "data" / "openapi"
TARGET_PRECISION = 0.85

JUDGED: dict[str, tuple[bool, str]] = {
    "okta-admin-management-api|ambiguity-cloned-block|list_authorization_server_policy_rules|summary": (
        True,
        'Same summary "List all policy rules" as list_policy_rules; the authorization-server variant does not say so.',
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_captcha_instance|usage": (
        True,
        '"Replace" / "Update a CAPTCHA instance": PUT and PATCH with one-word summaries; only the usage hints "partially".',
    ),
    "toolbench-bulk_whatsapp_validator|ambiguity-near-duplicate|about_info_free_for_bulk_whatsapp_validator|usage": (
        False,
        'The descriptions differ after the boilerplate ("About info" vs "true if the number is a business").',
    ),
    "BFCL_v4_simple_python|ambiguity-toolset-size||": (
        True,
        "165 tools in one registry: over OpenAI's 128-tool limit.",
    ),
    "toolalpaca-AviationAPI|desc-no-purpose|schemas_components|description": (
        True,
        "No description at all.",
    ),
    "toolbench-movies_tv_shows_database|duplicate-tool|tly_added_tv_series_by_release_date_for_movies_tv_shows_database|": (
        True,
        'Word-for-word copied description and parameters ("return tv series results…") under "recently added" and "airing today".',
    ),
    "BFCL_v4_live_multiple|name-unique|GET_PARCEL_STATE|name": (
        True,
        "GET_PARCEL_STATE and get_parcel_state differ only in case.",
    ),
    "okta-admin-management-api|param-credential-not-injected|create_authorization_server|parameters.properties.credentials": (
        False,
        '"credentials" is the signing-key configuration object (rotationMode, use), not a secret.',
    ),
    "toolbench-mbox_migrator|risk-destructive-not-marked|terminate_for_mbox_migrator|risk": (
        False,
        "Ends a migration job after it succeeded; nothing is lost, not destructive.",
    ),
    "BFCL_v4_live_irrelevance|risk-mutating-verb-on-read|views_publish|risk": (
        True,
        '"Publish a view": a state change tiered read.',
    ),
    "BFCL_v4_live_simple|schema-enum-type-mismatch|extract_parameters_v1|parameters.properties.metrics.enum": (
        True,
        "Enum of strings on an array-typed property: the enum belongs under items.",
    ),
    "BFCL_v4_live_multiple|schema-invalid-default|get_sensor_alerts|parameters.properties.sensorSerial.default": (
        True,
        "default null on a property typed string (not nullable).",
    ),
    "okta-admin-management-api|sec-base64-blob|verify_ssf_stream|parameters.properties.state.examples[0]": (
        False,
        'A base64 example value that reads "This is an example state value."; benign data, not a payload.',
    ),
    "okta-admin-management-api|sec-data-gathering|replace_authenticator_method|parameters.properties.body.oneOf[5].properties.settings.properties.hardwareProtected.description": (
        False,
        '"stores the private key on a hardware component" describes an authenticator property.',
    ),
    "okta-admin-management-api|sec-exfiltration|replace_event_hook|parameters.properties.channel.properties.config.properties.headers.description": (
        False,
        "Documents which headers the event hook sends to the customer's own endpoint.",
    ),
    "okta-admin-management-api|sec-hidden-instructions|list_log_events|usage": (
        False,
        '"[System Log query](…)" is a Markdown link, not a directive marker.',
    ),
    "toolbench-measurement_units_converter|sec-invisible-unicode|measurements_for_measurement_units_converter|description": (
        True,
        "Two U+200B characters are really in the description.",
    ),
    "okta-admin-management-api|sec-privilege-parameter|replace_device_assurance_policy|parameters.properties.body.oneOf[3].properties.jailbreak": (
        False,
        '"jailbreak" is Okta\'s device-posture flag (is the device jailbroken), not a privilege switch.',
    ),
    "firecrawl|sec-promotional-language|firecrawl_search|description": (
        True,
        '"you should always default to using this tool for any web search needs": coercive ranking.',
    ),
    "okta-admin-management-api|sec-tool-shadowing|create_policy|parameters.properties.body.oneOf[1].properties.settings.properties.authenticators.items.properties.enroll.properties.autoEnroll.description": (
        False,
        '"autoEnroll can only be set to false when…" is a constraint between properties, not an order about another tool.',
    ),
    "toolbench-indian_fuel|ambiguity-cloned-block|fuel_data_for_indian_fuel|description": (
        False,
        'Both tools have only the template "This is the subfunction for tool indian_fuel…": nothing was copied but boilerplate; the names differ.',
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_org_settings|usage": (
        True,
        '"Replace" / "Update the Org general settings": PUT and PATCH that the summaries do not tell apart.',
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|triangle_area|usage": (
        True,
        "triangle_area and calculate_triangle_area: the same function twice.",
    ),
    "BFCL_v4_live_multiple|ambiguity-toolset-size||": (
        True,
        "323 tools in one registry: over OpenAI's 128-tool limit.",
    ),
    "toolalpaca-AviationAPI|desc-no-purpose|weather_metar__preferred_routes|description": (
        True,
        "No description at all.",
    ),
    "toolbench-nowyapi|duplicate-tool|rereer_for_nowyapi|": (
        True,
        "rereer_for_nowyapi and rereer_copy_for_nowyapi: a literal copy.",
    ),
    "BFCL_v4_multiple|name-unique|calculate_BMI|name": (
        True,
        "calculate_BMI and calculate_bmi differ only in case.",
    ),
    "okta-admin-management-api|param-credential-not-injected|upload_identity_source_data_for_delete|parameters.properties.sessionId": (
        False,
        '"The ID of the identity source session" (a bulk-import session), not an auth session id.',
    ),
    "mt_trading_bot|risk-destructive-not-marked|cancel_order|risk": (
        True,
        "Cancelling a stock order cannot be undone; should ask for confirmation.",
    ),
    "BFCL_v4_live_irrelevance|risk-mutating-verb-on-read|views_update|risk": (
        True,
        '"Update an existing view": a state change tiered read.',
    ),
    "BFCL_v4_live_irrelevance|schema-enum-type-mismatch|Homes_2_FindHomeByArea|parameters.properties.has_garage.enum": (
        True,
        'Enum ["True", "False", "dontcare"] on a boolean.',
    ),
    "BFCL_v4_live_multiple|schema-invalid-default|transformers_pipeline|parameters.properties.tokenizer.default": (
        True,
        "default null on a property typed string.",
    ),
    "okta-admin-management-api|sec-data-gathering|replace_application|parameters.properties.body.oneOf[4].properties.settings.properties.oauthClient.properties.consent_method.description": (
        False,
        "Describes OAuth consent behaviour of a client setting; no order to gather anything.",
    ),
    "okta-admin-management-api|sec-exfiltration|enroll_factor|usage": (
        False,
        "A rate-limit documentation link, not an exfiltration destination.",
    ),
    "okta-admin-management-api|sec-privilege-parameter|create_device_assurance_policy|parameters.properties.body.oneOf[3].properties.jailbreak": (
        False,
        '"jailbreak" device-posture flag again.',
    ),
    "desktop-commander|sec-promotional-language|interact_with_process|description": (
        True,
        '"ALWAYS use this instead of the analysis tool…": coercive ranking against another tool.',
    ),
    "okta-admin-management-api|sec-tool-shadowing|replace_authenticator_method|parameters.properties.body.oneOf[5].properties.settings.properties.rpId.properties.enabled.description": (
        False,
        '"It can only be set to true once the validationStatus…" is a constraint, not an order about a tool.',
    ),
    "okta-admin-management-api|ambiguity-cloned-block|add_jwk|summary": (
        True,
        'add_jwk and add_o_auth2_resource_server_json_web_key share the summary "Add a JSON Web Key".',
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_user|usage": (
        True,
        '"Replace a user" / "Update a user": PUT and PATCH the summaries do not tell apart.',
    ),
    "toolbench-spotify|ambiguity-near-duplicate|artist_singles_for_spotify|usage": (
        False,
        '"Get artist singles" vs "Get one or more artists" after the boilerplate: they differ.',
    ),
}
"""Verdicts of the drawn sample (seed 11) by :func:`key`: (true positive, why), as in the write-up."""


@dataclass(frozen=True)
class Drawn:
    """One error-level finding of the sample, with where it comes from."""

    registry: str
    finding: Finding
    text: str
    """The tool's description (for judging), shortened."""


def key(registry: str, f: Finding) -> str:
    """A stable name of a finding: registry, rule, tool and path."""
    return f"{registry}|{f.rule_id}|{f.tool or ''}|{f.path}"


def registries() -> tuple[list, int, int]:
    """The benign registries (one per corpus group, then the OpenAPI documents).

    Also how many tools the importer refused, and how many repeated a name
    already in their group (BFCL repeats functions across questions; the
    first is kept, as the importer keeps one tool per name).
    """
    groups: dict[str, list[dict]] = defaultdict(list)
    for line in BENIGN.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            groups[rec["group"]].append(rec["tool"])
    out = []
    refused = repeated = 0
    for group, tools in groups.items():
        accepted = []
        seen: set[str] = set()
        for tool in tools:
            name_key = re.sub(r"[^a-zA-Z0-9_-]", "_", str(tool.get("name", "")))[:64]
            if name_key in seen:
                repeated += 1
                continue
            wrapped = {"type": "function", "function": tool}
            try:
                import_text(json.dumps([wrapped]), "openai")
            except FormatError:
                refused += 1
                continue
            seen.add(name_key)
            accepted.append(wrapped)
        if not accepted:
            continue
        name = "".join(c if c.isalnum() or c in "-_" else "-" for c in group)[:60]
        try:
            out.append(import_text(json.dumps(accepted), "openai", name=name).registry)
        except FormatError:  # two tools the importer names alike: one by one is not a registry
            refused += len(accepted)
    for path in sorted(OPENAPI.iterdir()):
        if path.suffix in (".json", ".yaml", ".yml"):
            try:
                reg = import_path(path, "openapi").registry
            except FormatError:
                continue
            if reg.tools:
                out.append(reg)
    return out, refused, repeated


def lint_all(regs: list) -> tuple[list[Drawn], int, int, Counter[str]]:
    """Every error-level finding; tools in all; tools with an error; error findings per rule."""
    errors: list[Drawn] = []
    tools = 0
    with_error = 0
    per_rule: Counter[str] = Counter()
    for reg in regs:
        report = lint_registry(reg, profile="openai")
        by_name = {t.name: t for t in reg.tools}
        tools += len(reg.tools)
        flagged: set[str] = set()
        for f in report.findings:
            if f.severity is not Severity.ERROR:
                continue
            per_rule[f.rule_id] += 1
            flagged.update(finding_tools(f))
            tool = by_name.get(f.tool or "")
            text = " ".join((tool.summary or tool.description or "").split()) if tool else ""
            errors.append(Drawn(reg.name, f, text[:300]))
        with_error += len(flagged)
    return errors, tools, with_error, per_rule


def draw(errors: list[Drawn], size: int, seed: int) -> list[Drawn]:
    """``size`` findings, rules taking turns (see the module docstring)."""
    by_rule: dict[str, list[Drawn]] = defaultdict(list)
    for d in errors:
        by_rule[d.finding.rule_id].append(d)
    for rule in sorted(by_rule):
        # A generator per rule, over the rule's findings in a fixed order: a change
        # in one rule's findings leaves the other rules' draws as they were.
        by_rule[rule].sort(key=lambda d: key(d.registry, d.finding))
        random.Random(f"{seed}|{rule}").shuffle(by_rule[rule])
    sample: list[Drawn] = []
    while len(sample) < size and any(by_rule.values()):
        for rule in sorted(by_rule):
            if by_rule[rule] and len(sample) < size:
                sample.append(by_rule[rule].pop())
    return sample


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", type=int, default=40)
    ap.add_argument("--show", action="store_true", help="print each drawn finding in full")
    ap.add_argument("--rule", help="list every error-level finding of this rule instead")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    regs, refused, repeated = registries()
    errors, tools, with_error, per_rule = lint_all(regs)
    print(
        f"{len(regs)} registries, {tools} tools ({refused} refused by the importer, "
        f"{repeated} repeating a name in their group); "
        f"linted in {time.perf_counter() - start:.1f} s"
    )
    print(f"tools with ≥ 1 error-level finding: {with_error} ({with_error / tools:.1%})")
    print("error-level findings per rule:")
    for rule, n in per_rule.most_common():
        print(f"  {rule:<34} {n}")
    if args.rule:
        for d in (d for d in errors if d.finding.rule_id == args.rule):
            print(f"- {key(d.registry, d.finding)}\n    {d.finding.message}\n    text: {d.text}")
        return 0
    sample = draw(errors, args.size, args.seed)
    print(f"\nsample of {len(sample)} (seed {args.seed}):")
    verdicts: dict[str, list[bool]] = defaultdict(list)
    for i, d in enumerate(sample, 1):
        f = d.finding
        judged = JUDGED.get(key(d.registry, f))
        mark = "?" if judged is None else ("TP" if judged[0] else "FP")
        if judged is not None:
            verdicts[f.rule_id].append(judged[0])
        print(f"{i:>2}. [{mark}] {key(d.registry, f)}")
        if args.show:
            print(f"    message: {f.message}")
            if f.related:
                print(f"    related: {', '.join(f.related)}")
            print(f"    text: {d.text}")
    if verdicts:
        print("\nprecision per rule (judged findings of the sample):")
        failed = False
        for rule in sorted(verdicts):
            got = verdicts[rule]
            share = sum(got) / len(got)
            failed |= share < TARGET_PRECISION
            print(f"  {rule:<34} {sum(got)}/{len(got)} = {share:.0%}")
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
