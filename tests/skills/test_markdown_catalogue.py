"""What a skill body names (via markdown-it-py) and what the catalogue costs."""

from __future__ import annotations

from pathlib import Path

from studio.skills.catalogue import catalogue_cost, catalogue_text, load_skill_result
from studio.skills.markdown import named_files, named_identifiers, render_html
from studio.skills.package import read_skill_folder

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "skills" / "travel-reimbursement"


def test_example_body_names_its_tools_and_files() -> None:
    skill = read_skill_folder(EXAMPLE)
    tools = [r.text for r in named_identifiers(skill.body)]
    assert tools == ["search_policy", "query_invoices", "create_reimbursement_ticket"]
    files = [r.text for r in named_files(skill.body)]
    assert files == ["scripts/calc_over_limit.py", "assets/over_limit_note.md"]


def test_render_escapes_raw_html() -> None:
    html = render_html("# 标题\n\n<script>alert(1)</script>\n\n`code`")
    assert "<h1>标题</h1>" in html
    assert "<script>" not in html
    assert "<code>code</code>" in html


def test_catalogue_and_load_skill() -> None:
    skill = read_skill_folder(EXAMPLE)
    text = catalogue_text([skill])
    assert "- travel-reimbursement: 处理差旅费用报销" in text
    assert skill.body not in text
    cost = catalogue_cost([skill])
    assert 0 < cost.resident < cost.without_disclosure
    assert cost.per_skill[0][0] == "travel-reimbursement"
    loaded = load_skill_result([skill], "travel-reimbursement")
    assert loaded["instructions"] == skill.body
    assert loaded["files"] == ["assets/over_limit_note.md", "scripts/calc_over_limit.py"]
    missing = load_skill_result([skill], "annual-leave")
    assert missing["error_code"] == "UNKNOWN_SKILL"
