"""Eval sets, scoring of answers, and model-free discoverability (DESIGN §8).

- :mod:`studio.evals.model` — cases and expectations (validated, with JSON paths);
- :mod:`studio.evals.matchers` — argument matchers by JSON path and their evaluation;
- :mod:`studio.evals.match` — scoring the calls of one answer against a case;
- :mod:`studio.evals.jsonl` — sets as JSON Lines, kept byte for byte;
- :mod:`studio.evals.store` — sets per registry in the database;
- :mod:`studio.evals.discover` — BM25 rank of the expected tool (imported on use: numpy).
"""

from studio.evals.jsonl import EvalSet, EvalSetError, build_set, check_set_name, dump_set, parse_set
from studio.evals.match import Call, CaseResult, Check, match_case
from studio.evals.matchers import KINDS, Matcher, MatchResult, evaluate
from studio.evals.model import (
    EXPECT_KINDS,
    CaseError,
    EvalCase,
    Expectation,
    ExpectedCall,
    SessionContext,
    Turn,
    case_to_json,
    dump_case,
    parse_case,
)

__all__ = [
    "EXPECT_KINDS",
    "KINDS",
    "Call",
    "CaseError",
    "CaseResult",
    "Check",
    "EvalCase",
    "EvalSet",
    "EvalSetError",
    "Expectation",
    "ExpectedCall",
    "MatchResult",
    "Matcher",
    "SessionContext",
    "Turn",
    "build_set",
    "case_to_json",
    "check_set_name",
    "dump_case",
    "dump_set",
    "evaluate",
    "match_case",
    "parse_case",
    "parse_set",
]
