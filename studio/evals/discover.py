"""Model-free discoverability: can tool search find the expected tool for each case?

With deferred tool loading (Anthropic's tool search, OpenAI's ``defer_loading``)
a model first searches the registry and only then sees a tool's schema. The
providers' BM25 variant ranks tools by their name and description; this module
does the same with the case's user turn as the query (BM25 from :mod:`bm25s`),
so a registry whose tools cannot be found shows up here, in CI, with no model
and no key.

Text is tokenized as the linter does (:func:`studio.lint.text.tokenize`):
lower-cased Latin words without function words and overlapping CJK bigrams,
so ``我上周打车的发票`` matches a description saying ``打车发票``. Tool names
also contribute their words (``query_invoices`` → ``query``, ``invoices``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studio.contract import Registry, ToolContract, render_description
from studio.evals.model import EvalCase
from studio.lint.text import split_identifier, tokenize

KS = (3, 5)


@dataclass(frozen=True, slots=True)
class CaseRank:
    """Where the expected tool of one case lands when the registry is searched.

    Attributes:
        case_id: The case.
        tool: The expected tool.
        rank: 1-based rank (ties count against the tool); None when the query
            shares no term with it (search would not return it at all).
        top: The first tools of the ranking, best first.
    """

    case_id: str
    tool: str
    rank: int | None
    top: tuple[str, ...]

    def found_within(self, k: int) -> bool:
        return self.rank is not None and self.rank <= k


@dataclass(frozen=True, slots=True)
class ToolRecall:
    """Recall@k of one tool over the cases that expect it."""

    tool: str
    cases: int
    recall: dict[int, float]
    mean_rank: float | None


@dataclass(frozen=True, slots=True)
class Discoverability:
    """The report: per case, per tool, and the tools no case finds."""

    ranks: tuple[CaseRank, ...]
    tools: tuple[ToolRecall, ...]
    unfound: tuple[str, ...]
    untested: tuple[str, ...]

    def recall(self, k: int) -> float | None:
        """Recall@k over every (case, expected tool) pair; None without any."""
        if not self.ranks:
            return None
        return sum(r.found_within(k) for r in self.ranks) / len(self.ranks)


def tool_text(tool: ToolContract, template: str | None = None, *, parameters: bool = False) -> str:
    """What tool search reads: the name, the rendered description (parameters optionally)."""
    rendered = render_description(tool, template) if template else render_description(tool)
    parts = [tool.name, rendered]
    if parameters:
        props = (tool.parameters or {}).get("properties") or {}
        for name, schema in props.items():
            if isinstance(schema, dict) and "x-injected" not in schema:
                parts.append(name)
                parts.append(str(schema.get("description", "")))
    return "\n".join(parts)


def search_tokens(text: str) -> list[str]:
    """Query and document tokens (see the module docstring)."""
    return tokenize(text)


def _document_tokens(tool: ToolContract, template: str | None, parameters: bool) -> list[str]:
    return [
        *split_identifier(tool.name),
        *search_tokens(tool_text(tool, template, parameters=parameters)),
    ]


class ToolSearch:
    """A BM25 index over a registry's tools (built once, queried per case)."""

    def __init__(self, registry: Registry, *, parameters: bool = False) -> None:
        import bm25s  # type: ignore[import-untyped]  # numpy-backed; imported only when discoverability runs

        self.names = [t.name for t in registry.tools]
        template = registry.settings.description_template or None
        corpus = [_document_tokens(t, template, parameters) for t in registry.tools]
        self._index = bm25s.BM25()
        if corpus:
            self._index.index(corpus, show_progress=False)

    def scores(self, query: str) -> list[float]:
        """BM25 score of every tool (registry order) for ``query``."""
        tokens = search_tokens(query)
        if not self.names or not tokens:
            return [0.0] * len(self.names)
        return [float(s) for s in self._index.get_scores(tokens)]

    def rank(self, query: str, tool: str) -> tuple[int | None, tuple[str, ...]]:
        """``tool``'s 1-based rank for ``query`` (None when it scores 0) and the top 5."""
        scores = self.scores(query)
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        top = tuple(self.names[i] for i in order[:5] if scores[i] > 0)
        if tool not in self.names:
            return None, top
        mine = scores[self.names.index(tool)]
        if mine <= 0:
            return None, top
        # Ties count against the tool: a search returning k results may drop it.
        return sum(s >= mine for s in scores), top


def case_query(case: EvalCase) -> str:
    """The search query of a case: its earlier user turns and the user turn."""
    return "\n".join([*(t.content for t in case.turns if t.role == "user"), case.user])


def discoverability(
    registry: Registry,
    cases: Iterable[EvalCase],
    *,
    parameters: bool = False,
    ks: Sequence[int] = KS,
) -> Discoverability:
    """Rank every case's expected tools among the registry's tools.

    Args:
        registry: The draft or version whose tools are searched.
        cases: Cases; those expecting no tool or a question are skipped.
        parameters: Also index parameter names and descriptions.
        ks: The cut-offs of recall@k.

    Return:
        Per-case ranks, per-tool recall@k and mean rank (over cases that find it),
        the tools no case finds within the largest k, and the tools no case expects.
    """
    search = ToolSearch(registry, parameters=parameters)
    ranks: list[CaseRank] = []
    for case in cases:
        if case.expect.kind not in ("tool", "tools"):
            continue
        for tool in dict.fromkeys(case.expect.tools):
            rank, top = search.rank(case_query(case), tool)
            ranks.append(CaseRank(case.id, tool, rank, top))
    tools = []
    for name in search.names:
        mine = [r for r in ranks if r.tool == name]
        if not mine:
            continue
        found = [r.rank for r in mine if r.rank is not None]
        tools.append(
            ToolRecall(
                name,
                len(mine),
                {k: sum(r.found_within(k) for r in mine) / len(mine) for k in ks},
                sum(found) / len(found) if found else None,
            )
        )
    widest = max(ks) if ks else 5
    expected = {r.tool for r in ranks}
    unfound = tuple(
        n
        for n in search.names
        if n in expected and not any(r.tool == n and r.found_within(widest) for r in ranks)
    )
    untested = tuple(n for n in search.names if n not in expected)
    return Discoverability(tuple(ranks), tuple(tools), unfound, untested)
