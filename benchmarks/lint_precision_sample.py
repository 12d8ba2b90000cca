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
    # Drawn after the ambiguity and risk precision work (2026-12-02, seed 11).
    "toolbench-bulk_whatsapp_validator|ambiguity-near-duplicate|is_a_business_free_for_bulk_whatsapp_validator|usage": (
        True,
        'is_a_business_free and is_a_business: the same check ("return `true` if the number is a Whatsapp for Business account"); only the name says "free".',
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_groups|summary": (
        True,
        'list_groups and list_user_groups share the summary "List all groups"; only the usage says one is of a user.',
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_custom_aaguid|usage": (
        True,
        '"Replace" / "Update a custom AAGUID": PUT and PATCH the summaries do not tell apart.',
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|calc_Simple_Interest|usage": (
        True,
        '"Compute simple interest." / "Calculates simple interest.": one function twice.',
    ),
    "toolbench-comfyfood|duplicate-tool|get_all_recipes_3_for_comfyfood|": (
        True,
        'get_all_recipes_2 and _3: the same description ("return more recipes") and parameters.',
    ),
    "okta-admin-management-api|param-credential-not-injected|create_user|parameters.properties.credentials": (
        True,
        "The credentials object holds the new user's password (and recovery answer): the model would handle it.",
    ),
    "mt_travel_booking|risk-destructive-not-marked|cancel_booking|risk": (
        True,
        "Cancelling a booking cannot be undone.",
    ),
    "desktop-commander|sec-tool-shadowing|interact_with_process|description": (
        True,
        '"ALWAYS use this instead of the analysis tool" and orders about start_process: shadowing another tool.',
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|court_case_search|usage": (
        True,
        "Both retrieve a court case's details by docket number and location.",
    ),
    "toolbench-target|duplicate-tool|products_v2_list_recommended_for_target|": (
        True,
        'v2 and the deprecated tool: the same description ("List more products to consider") and parameters.',
    ),
    "own|param-credential-not-injected|creds_param_tool|parameters.properties.password": (
        True,
        "A password argument the model fills.",
    ),
    "BFCL_v4_live_multiple|risk-destructive-not-marked|calendar_event_delete|risk": (
        True,
        '"Cancels and deletes a specific event": a delete tiered write.',
    ),
    "firecrawl|sec-promotional-language|firecrawl_scrape|description": (
        True,
        '"you should always default to using this tool for any web scraping needs".',
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_identity_provider_key|usage": (
        True,
        "get_identity_provider_key and get_identity_provider_signing_key have the same usage word for word.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_ssf_stream|usage": (
        True,
        '"Replace" / "Update an SSF stream": PUT and PATCH.',
    ),
    "BFCL_v4_live_multiple|ambiguity-near-duplicate|CustomDashboardsApi_get_custom_dashboard|usage": (
        True,
        "The same function under its API class prefix and without it.",
    ),
    "BFCL_v4_irrelevance|ambiguity-toolset-size||": (
        True,
        "233 tools in one registry: over OpenAI's 128-tool limit.",
    ),
    "toolalpaca-AviationAPI|desc-no-purpose|preferred_routes_search__preferred_routes|description": (
        True,
        "No description at all.",
    ),
    "cisco-benign-cisco_azure_tools-py|param-credential-not-injected|azure_delete_nsg_rule|parameters.properties.api_token": (
        True,
        "An api_token argument the model fills.",
    ),
    "mt_memory_kv|risk-destructive-not-marked|core_memory_clear|risk": (
        True,
        '"This operation is irreversible." on a tool tiered write.',
    ),
    "BFCL_v4_simple_javascript|risk-mutating-verb-on-read|maybeAddJsSyntheticRestParameter|risk": (
        True,
        '"It modifies the parameters array directly": a change tiered read.',
    ),
    "BFCL_v4_live_multiple|schema-enum-type-mismatch|get_sensor_readings_history_by_interval|parameters.properties.models.enum": (
        True,
        "Enum of strings on an array-typed property (belongs under items).",
    ),
    "BFCL_v4_live_irrelevance|schema-invalid-default|get_sensor_alerts|parameters.properties.startingAfter.default": (
        True,
        "`default: null` on a non-nullable string.",
    ),
}
"""Verdicts of the drawn samples (seed 11, before and after the precision work) by
:func:`key`: (true positive, why), as in the write-up."""

CENSUS: dict[str, tuple[bool, str]] = {
    "toolbench-bulk_whatsapp_validator|ambiguity-near-duplicate|is_a_business_free_for_bulk_whatsapp_validator|usage|is_a_business_for_bulk_whatsapp_validator": (
        True,
        'The same check twice ("return `true` if the number is a Whatsapp for Business account"); only the name says "free" and the token sentence is the opening of every free tool.',
    ),
    "BFCL_v4_irrelevance|ambiguity-near-duplicate|thermodynamics_calculate_boiling_point|usage|calculate_boiling_point": (
        True,
        "One function twice: thermodynamics_calculate_boiling_point and calculate_boiling_point say the same with synonyms.",
    ),
    "BFCL_v4_live_irrelevance|ambiguity-cloned-block|EventSettingsApi_get_custom_event_specifications|description|get_custom_event_specifications": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "BFCL_v4_live_irrelevance|ambiguity-cloned-block|EventSettingsApi_get_event_specification_infos|description|get_event_specification_infos": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "BFCL_v4_live_irrelevance|risk-destructive-not-marked|user_api_delete_managed_user|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "BFCL_v4_live_irrelevance|risk-destructive-not-marked|user_api_UserApi_delete_managed_user|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "BFCL_v4_live_multiple|ambiguity-confusable-names|acl_api_add_mapping|usage|AclApi_add_mapping": (
        True,
        "One function under two spellings (acl_api / AclApi).",
    ),
    "BFCL_v4_live_multiple|ambiguity-near-duplicate|CustomDashboardsApi_get_custom_dashboard|usage|get_custom_dashboard": (
        True,
        "One function twice: CustomDashboardsApi_get_custom_dashboard and get_custom_dashboard say the same with synonyms.",
    ),
    "BFCL_v4_live_multiple|risk-destructive-not-marked|calendar_event_delete|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|triangle_area|usage|calculate_triangle_area": (
        True,
        "One function twice: triangle_area and calculate_triangle_area say the same with synonyms.",
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|history_get_event_date|usage|get_event_date": (
        True,
        "One function twice: history_get_event_date and get_event_date say the same with synonyms.",
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|calc_Compound_Interest|usage|financial_compound_interest": (
        True,
        "One function twice: calc_Compound_Interest and financial_compound_interest say the same with synonyms.",
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|calc_Simple_Interest|usage|financial_simple_interest": (
        True,
        "One function twice: calc_Simple_Interest and financial_simple_interest say the same with synonyms.",
    ),
    "BFCL_v4_multiple|duplicate-tool|unit_conversion||unit_conversion_convert": (
        True,
        "The same description and parameters under two names.",
    ),
    "BFCL_v4_multiple|ambiguity-near-duplicate|court_case_search|usage|get_case_info": (
        True,
        "One function twice: court_case_search and get_case_info say the same with synonyms.",
    ),
    "BFCL_v4_multiple|ambiguity-cloned-block|get_shortest_driving_distance|description|calculate_shortest_distance": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "BFCL_v4_parallel_multiple|ambiguity-near-duplicate|get_current_time|usage|time_zones_get_current_time": (
        True,
        "One function twice: get_current_time and time_zones_get_current_time say the same with synonyms.",
    ),
    "BFCL_v4_simple_java|risk-destructive-not-marked|TruncateTranslogAction_execute|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "mt_memory_kv|risk-destructive-not-marked|archival_memory_clear|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "mt_memory_kv|risk-destructive-not-marked|core_memory_clear|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "mt_trading_bot|risk-destructive-not-marked|cancel_order|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "mt_travel_booking|risk-destructive-not-marked|cancel_booking|risk|": (
        True,
        "Deletes, truncates, clears (irreversible, it says) or cancels an order, a booking, an event.",
    ),
    "mt_vehicle_control|duplicate-tool|get_outside_temperature_from_weather_com||get_outside_temperature_from_google": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-trackingmore_v2|ambiguity-cloned-block|packages_track_deprecated_for_trackingmore_v2|description|packages_v2_track_for_trackingmore_v2": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-misc|ambiguity-cloned-block|Transportistas_de_Argentina__offices_postcode_service_postCode|description|Transportistas_de_Argentina__offices_search_service_stateIsoCode": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-unitconversion|ambiguity-cloned-block|time_from_to_number_for_unitconversion|description|temperature_from_to_number_for_unitconversion": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-nowyapi|duplicate-tool|rereer_for_nowyapi||rereer_copy_for_nowyapi": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-zillow_base|duplicate-tool|locationsuggestions_v2_for_zillow_base||locationsuggestions_for_zillow_base": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-twitter_v4|ambiguity-confusable-names|user_tweets_replies_for_twitter_v4|usage|v2_user_tweets_replies_for_twitter_v4": (
        True,
        "The descriptions are the names: v2 and the other are not told apart.",
    ),
    "toolbench-comfyfood|duplicate-tool|get_all_recipes_3_for_comfyfood||get_all_recipes_2_for_comfyfood": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-target|duplicate-tool|products_v2_list_recommended_for_target||products_list_recommended_deprecated_for_target": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-target|ambiguity-cloned-block|products_v2_get_details_deprecated_for_target|description|products_get_details_deprecated_for_target": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-target|ambiguity-cloned-block|reviews_v2_list_for_target|description|reviews_list_deprecated_for_target": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-body_mass_index_bmi_calculator|ambiguity-cloned-block|metric_kilograms_for_body_mass_index_bmi_calculator|description|imperial_pounds_for_body_mass_index_bmi_calculator": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-n_meros_a_letras|ambiguity-cloned-block|nal_path_for_n_meros_a_letras|description|nal_query_for_n_meros_a_letras": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-movies_tv_shows_database|duplicate-tool|tly_added_tv_series_by_release_date_for_movies_tv_shows_database||get_airing_today_tv_shows_for_movies_tv_shows_database": (
        True,
        "The same description and parameters under two names.",
    ),
    "toolbench-uuid_generator|ambiguity-confusable-names|uuidv4_generator_for_uuid_generator|usage|uuidv3_generator_for_uuid_generator": (
        True,
        "The descriptions are the names (or 'Generate UUIDv4'): UUID versions 3, 4 and 5 are not told apart.",
    ),
    "toolbench-uuid_generator|ambiguity-confusable-names|uuidv4_generator_for_uuid_generator|usage|uuidv5_generator_for_uuid_generator": (
        True,
        "The descriptions are the names (or 'Generate UUIDv4'): UUID versions 3, 4 and 5 are not told apart.",
    ),
    "toolbench-uuid_generator|ambiguity-confusable-names|uuidv3_generator_for_uuid_generator|usage|uuidv5_generator_for_uuid_generator": (
        True,
        "The descriptions are the names (or 'Generate UUIDv4'): UUID versions 3, 4 and 5 are not told apart.",
    ),
    "toolbench-live_metal_prices|ambiguity-cloned-block|latest_in_chosen_currency_for_live_metal_prices|description|ected_metals_in_selected_currency_in_grams_for_live_metal_prices": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-geokeo_forward_geocoding|ambiguity-cloned-block|search_php_for_geokeo_forward_geocoding|description|reverse_php_for_geokeo_forward_geocoding": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "toolbench-numerology_api|ambiguity-cloned-block|description_for_numerology_api|description|descriptions_for_numerology_api": (
        True,
        "Names one letter apart whose only text is the generator's template: nothing tells them apart.",
    ),
    "toolbench-summery|ambiguity-cloned-block|summery_for_summery|description|summery_copy_for_summery": (
        True,
        "Word-for-word copied description under another name.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_csrs_for_application|summary|list_csrs_for_identity_provider": (
        True,
        "The same summary for two variants (list_csrs_for_application / list_csrs_for_identity_provider); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|generate_csr_for_application|summary|generate_csr_for_identity_provider": (
        True,
        "The same summary for two variants (generate_csr_for_application / generate_csr_for_identity_provider); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_csr_for_application|summary|get_csr_for_identity_provider": (
        True,
        "The same summary for two variants (get_csr_for_application / get_csr_for_identity_provider); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|revoke_csr_from_application|summary|revoke_csr_for_identity_provider": (
        True,
        "The same summary for two variants (revoke_csr_from_application / revoke_csr_for_identity_provider); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|publish_csr_from_application|summary|publish_csr_for_identity_provider": (
        True,
        "The same summary for two variants (publish_csr_from_application / publish_csr_for_identity_provider); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|add_jwk|summary|add_o_auth2_resource_server_json_web_key": (
        True,
        "The same summary for two variants (add_jwk / add_o_auth2_resource_server_json_web_key); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_features_for_application|summary|list_features": (
        True,
        "The same summary for two variants (list_features_for_application / list_features); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_feature_for_application|summary|get_feature": (
        True,
        "The same summary for two variants (get_feature_for_application / get_feature); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_custom_aaguid|usage|update_custom_aaguid": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_refresh_tokens_for_authorization_server_and_client|summary|list_refresh_tokens_for_user_and_client": (
        True,
        "The same summary for two variants (list_refresh_tokens_for_authorization_server_and_client / list_refresh_tokens_for_user_and_client); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|revoke_refresh_tokens_for_authorization_server_and_client|summary|revoke_tokens_for_user_and_client": (
        True,
        "The same summary for two variants (revoke_refresh_tokens_for_authorization_server_and_client / revoke_tokens_for_user_and_client); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_refresh_token_for_authorization_server_and_client|summary|get_refresh_token_for_user_and_client": (
        True,
        "The same summary for two variants (get_refresh_token_for_authorization_server_and_client / get_refresh_token_for_user_and_client); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_authorization_server_policies|summary|list_policies": (
        True,
        "The same summary for two variants (list_authorization_server_policies / list_policies); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|create_authorization_server_policy|summary|create_policy": (
        True,
        "The same summary for two variants (create_authorization_server_policy / create_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_authorization_server_policy|summary|get_policy": (
        True,
        "The same summary for two variants (get_authorization_server_policy / get_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_authorization_server_policy|usage|get_policy": (
        True,
        "The same usage for two variants (get_authorization_server_policy / get_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|replace_authorization_server_policy|summary|replace_policy": (
        True,
        "The same summary for two variants (replace_authorization_server_policy / replace_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|delete_authorization_server_policy|summary|delete_policy": (
        True,
        "The same summary for two variants (delete_authorization_server_policy / delete_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|delete_authorization_server_policy|usage|delete_policy": (
        True,
        "The same usage for two variants (delete_authorization_server_policy / delete_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|activate_authorization_server_policy|summary|activate_policy": (
        True,
        "The same summary for two variants (activate_authorization_server_policy / activate_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|deactivate_authorization_server_policy|summary|deactivate_policy": (
        True,
        "The same summary for two variants (deactivate_authorization_server_policy / deactivate_policy); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_authorization_server_policy_rules|summary|list_policy_rules": (
        True,
        "The same summary for two variants (list_authorization_server_policy_rules / list_policy_rules); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|create_authorization_server_policy_rule|summary|create_policy_rule": (
        True,
        "The same summary for two variants (create_authorization_server_policy_rule / create_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_authorization_server_policy_rule|summary|get_policy_rule": (
        True,
        "The same summary for two variants (get_authorization_server_policy_rule / get_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|replace_authorization_server_policy_rule|summary|replace_policy_rule": (
        True,
        "The same summary for two variants (replace_authorization_server_policy_rule / replace_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|delete_authorization_server_policy_rule|summary|delete_policy_rule": (
        True,
        "The same summary for two variants (delete_authorization_server_policy_rule / delete_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|activate_authorization_server_policy_rule|summary|activate_policy_rule": (
        True,
        "The same summary for two variants (activate_authorization_server_policy_rule / activate_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|deactivate_authorization_server_policy_rule|summary|deactivate_policy_rule": (
        True,
        "The same summary for two variants (deactivate_authorization_server_policy_rule / deactivate_policy_rule); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_captcha_instance|usage|update_captcha_instance": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|list_groups|summary|list_user_groups": (
        True,
        "The same summary for two variants (list_groups / list_user_groups); it does not say which is which.",
    ),
    "okta-admin-management-api|ambiguity-near-duplicate|replace_existing_identity_source_user|usage|update_identity_source_users": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-cloned-block|get_identity_provider_key|usage|get_identity_provider_signing_key": (
        True,
        "The same usage word for word.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_inline_hook|usage|update_inline_hook": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_user_type|usage|update_user_type": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_org_settings|usage|update_org_settings": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|risk-destructive-not-marked|bulk_remove_email_address_bounces|risk|": (
        False,
        "Removes addresses from a bounce (suppression) list: nothing the user owns is lost.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_ssf_stream|usage|update_ssf_stream": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_sms_template|usage|update_sms_template": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|ambiguity-confusable-names|replace_user|usage|update_user": (
        True,
        "PUT and PATCH (replace / update) the summaries do not tell apart.",
    ),
    "okta-admin-management-api|risk-destructive-not-marked|deactivate_user|risk|": (
        True,
        "Okta's usage itself says the deactivation is destructive and cannot be recovered.",
    ),
}
"""Every error-level finding of the ambiguity pair rules and risk-destructive-not-marked on
the corpus (2026-12-02), judged by hand: ``--rule RULE`` prints the rule's precision from it."""


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


def census_key(registry: str, f: Finding) -> str:
    """:func:`key` and the other tools of a pair finding (one tool may be in several pairs)."""
    return f"{key(registry, f)}|{','.join(f.related)}"


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
        census: list[bool] = []
        for d in (d for d in errors if d.finding.rule_id == args.rule):
            verdict = CENSUS.get(census_key(d.registry, d.finding))
            mark = "?" if verdict is None else ("TP" if verdict[0] else "FP")
            if verdict is not None:
                census.append(verdict[0])
            print(
                f"- [{mark}] {census_key(d.registry, d.finding)}\n    {d.finding.message}\n"
                f"    text: {d.text}"
            )
        if census:
            share = sum(census) / len(census)
            unjudged = sum(1 for d in errors if d.finding.rule_id == args.rule) - len(census)
            print(
                f"\ncensus: {sum(census)} of {len(census)} judged right ({share:.0%}); "
                f"{unjudged} not judged"
            )
            return 1 if share < TARGET_PRECISION else 0
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
