"""Cases still missing for the tools the linter finds confusable (issue #12 part 2).

The linter's ambiguity index lists the pairs of tools a model may mix up
(:func:`studio.lint.engine.similar_pairs`). An eval set *distinguishes* a pair
when it has a case that expects one tool of the pair and not the other, in
each direction: a case for ``query_invoices`` that does not also expect
``query_tickets``, and one the other way round. A pair without such cases is
a gap: a description edit could make the model swap the two and no eval would
notice. The checklist names each gap and the direction missing, so the next
case to write is obvious.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studio.contract import Registry
from studio.evals.model import EvalCase


@dataclass(frozen=True, slots=True)
class PairCoverage:
    """How well a set covers one confusable pair.

    Attributes:
        a, b: The two tools (registry order).
        score: The linter's similarity of their descriptions (0–1).
        why: What makes them confusable, in words.
        a_cases: Ids of cases expecting ``a`` and not ``b``.
        b_cases: Ids of cases expecting ``b`` and not ``a``.
    """

    a: str
    b: str
    score: float
    why: str
    a_cases: tuple[str, ...]
    b_cases: tuple[str, ...]

    @property
    def covered(self) -> bool:
        return bool(self.a_cases and self.b_cases)

    def gap(self) -> str:
        """What is missing, in one sentence ("" when covered)."""
        if self.covered:
            return ""
        if not self.a_cases and not self.b_cases:
            return f"no case distinguishes {self.a} from {self.b}"
        missing, other = (self.a, self.b) if not self.a_cases else (self.b, self.a)
        return f"no case expects {missing} rather than {other}"


def _expects(case: EvalCase) -> set[str]:
    return set(case.expect.tools) if case.expect.kind in ("tool", "tools") else set()


def pair_coverage(registry: Registry, cases: Sequence[EvalCase]) -> list[PairCoverage]:
    """Every confusable pair of ``registry`` with the cases that tell it apart.

    Gaps come first, then the covered pairs, each group by descending similarity.
    """
    from studio.lint.engine import lint_registry, similar_pairs  # the linter, on use

    report = lint_registry(registry)
    expected = [(c.id, _expects(c)) for c in cases]  # once, not once per pair
    out = []
    for pair in similar_pairs(report):
        a_cases = tuple(i for i, tools in expected if pair.a in tools and pair.b not in tools)
        b_cases = tuple(i for i, tools in expected if pair.b in tools and pair.a not in tools)
        out.append(PairCoverage(pair.a, pair.b, pair.score, _why(pair), a_cases, b_cases))
    return sorted(out, key=lambda p: (p.covered, -p.score, p.a, p.b))


def _why(pair: object) -> str:
    reasons = []
    if getattr(pair, "near_duplicate", False):
        reasons.append("near-duplicate descriptions")
    if getattr(pair, "confusable_names", False):
        reasons.append("confusable names")
    shared = getattr(pair, "shared_terms", ())
    if shared:
        reasons.append("shared terms: " + ", ".join(shared[:4]))
    return "; ".join(reasons) or "similar descriptions"
