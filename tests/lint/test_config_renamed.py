"""A stored lint configuration that names a renamed rule keeps working."""

from studio.lint.config import RENAMED_RULES, LintConfig, known_rule_ids


def test_renamed_rule_ids_point_at_registered_rules() -> None:
    known = known_rule_ids()
    for old, new in RENAMED_RULES.items():
        assert old not in known
        assert new in known


def test_old_rule_id_in_rules_and_suppressions_maps_to_the_new_one() -> None:
    config, problems = LintConfig.from_dict(
        {
            "rules": {"sec-secret-reference": {"severity": "info"}},
            "suppressions": [
                {"rule_id": "sec-secret-reference", "tool": "search_policy", "reason": "reviewed"}
            ],
        }
    )
    assert problems == []
    assert config.severity_for("sec-data-gathering") is not None
    assert config.suppressions[0].rule_id == "sec-data-gathering"
