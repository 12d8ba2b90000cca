"""Catalogue tokens with and without progressive disclosure (issue #18).

Counts the example skill (resources/examples/skills/travel-reimbursement) with
the exact ``o200k_base`` tokenizer when ``bpe-openai`` is installed (else the
studio's offline estimate), then the issue's scale: 20 skills whose catalogue
lines are like the example's and whose bodies are ~2,000 tokens.

Run: ``.venv/bin/python benchmarks/skills_catalogue.py``.
"""

from __future__ import annotations

from pathlib import Path

from studio.contract.token_count import token_counter
from studio.skills import with_body, with_front_matter
from studio.skills.catalogue import catalogue_cost
from studio.skills.package import read_skill_folder

EXAMPLE = Path(__file__).resolve().parents[1] / "resources/examples/skills/travel-reimbursement"


def main() -> None:
    count, method = token_counter("openai")
    skill = read_skill_folder(EXAMPLE)
    one = catalogue_cost([skill], count)
    print(f"counted with {method}")
    print(
        f"example: catalogue {one.resident} tokens resident (line {one.per_skill[0][1]}), "
        f"body {one.bodies} on demand; {one.without_disclosure} with the body in context"
    )
    body = skill.body
    while count(body) < 2_000:
        body += skill.body
    many = [
        with_body(with_front_matter(skill, name=f"travel-reimbursement-{i}"), body)
        for i in range(20)
    ]
    twenty = catalogue_cost(many, count)
    print(
        f"20 skills, bodies ~{twenty.bodies // 20} tokens: {twenty.resident} resident with "
        f"progressive disclosure, {twenty.without_disclosure} without "
        f"({twenty.without_disclosure / twenty.resident:.0f}x)"
    )


if __name__ == "__main__":
    main()
