"""Train the learned poisoning detector and measure it leave-one-batch-out.

Run: ``python benchmarks/train_security_model.py [--lobo] [--probe FILE] [--write]``

Why: the rules of ``studio/lint/rules/security*.py`` were tuned batch after
batch and found about half of each fresh batch at first sight. This script
trains the linear model of :mod:`studio.lint.rules.security_learned` (hashed
character 1–4-grams of the normalised text, logistic regression by full-batch
Adam in numpy, fixed seed, no scikit-learn) and estimates first-sight recall
honestly: ``--lobo`` trains once per batch without that batch and scores it
(the model alone and combined with the rules; the rules were tuned on batches
a–j, so their share of the combination is optimistic there and honest on
probe k). ``--probe`` scores a never-seen batch with the shipped model once.
``--write`` writes ``resources/lint/security_model.npz`` (the same bytes for
the same corpus and seed) and prints its SHA-256.

Training data (``tests/data/security``): positives are the poisoned tools of
``poisoned.jsonl`` (split ``tune``) and of the batches; negatives are the
benign tools of ``benign.jsonl`` (split ``tune``, two thirds; the other third
calibrates the thresholds) and the batches' benign look-alikes. A poisoned
tool is one positive (its whole text), plus, in a second round, its best
scoring slot or sentence (multiple-instance learning: which sentence is the
attack is not labelled). Every slot and sentence of a benign tool is a
negative. Thresholds: warning where 0.5 % of calibration tools score higher,
error where 0.1 % do. The decision is the score of the tool's whole text
(sentences alone are short, and short texts score erratically: "Never logs
passwords." would be an error); the best sentence is what the message
quotes. ``benign.jsonl``'s ``heldout`` split is never trained or calibrated on:
the false-positive rate is reported there.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.security_recall import (
    CORPUS,
    _context,
    language,
    load,
    security_rules,
    to_tool,
    worst,
)
from studio.contract import ToolContract
from studio.lint.model import Severity
from studio.lint.rules._common import tool_texts
from studio.lint.rules.security_learned import (
    MODEL_PATH,
    Model,
    codes_of,
    hashed,
    spans,
    tool_text,
)

_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
SEED = 20261201
BITS = 17
ITERATIONS = 250
L2 = 2e-6
RATE = 0.05
WARNING_FP = 0.005
ERROR_FP = 0.001


class Sample:
    """One tool of the corpus: its spans' hashed n-grams, label, batch and record."""

    def __init__(self, rec: dict[str, Any], poisoned: bool, batch: str) -> None:
        self.rec = rec
        self.poisoned = poisoned
        self.batch = batch
        tool = to_tool(rec["tool"])
        self.tool = tool
        value = tool_text(tool_texts(tool))
        starts, ends = spans(value)
        self.spans: list[np.ndarray] = [
            np.concatenate(hashed(codes_of(value[a:b]), BITS))
            for a, b in zip(starts, ends, strict=True)
        ]
        # The whole text is the last span (or the only one).
        self.whole = len(self.spans) - 1


def _split_third(rec: dict[str, Any]) -> bool:
    """True for the benign tune records kept for calibration (a stable third)."""
    key = f"{rec['id']}".encode()
    return zlib.crc32(key) % 3 == 0


def corpus() -> list[Sample]:
    """Every record of the corpus as a sample, tagged with the batch it belongs to."""
    out = [Sample(r, True, "poisoned:" + r["split"]) for r in load("poisoned.jsonl", "all")]
    for r in load("benign.jsonl", "all"):
        tag = "benign:heldout" if r["split"] == "heldout" else "benign:tune"
        if tag == "benign:tune" and _split_third(r):
            tag = "benign:calibrate"
        out.append(Sample(r, False, tag))
    for path in sorted(CORPUS.glob("heldout_*.jsonl")) + sorted(CORPUS.glob("probe_*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    r = json.loads(line)
                    out.append(Sample(r, r.get("label") == "poisoned", path.stem))
    return out


def _matrix(rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """COO rows, columns and values (counts / sqrt(n-grams)) of the given spans."""
    r = np.concatenate([np.full(len(x), i) for i, x in enumerate(rows)])
    c = np.concatenate(rows)
    v = np.concatenate([np.full(len(x), 1.0 / np.sqrt(max(len(x), 1))) for x in rows])
    return r, c, v


def _fit(
    rows: list[np.ndarray], labels: np.ndarray, cjk: np.ndarray, seed: int
) -> tuple[np.ndarray, float]:
    """Logistic regression (L2) by full-batch Adam, balanced by class and benign language.

    Half the weight on poisoned spans; the benign half split evenly between
    Chinese and other text, or the model learns "Chinese → poisoned" (half the
    poisoned tools are Chinese, 2 % of the benign ones).
    """
    rng = np.random.default_rng(seed)
    r, c, v = _matrix(rows)
    size = 1 << BITS
    w = rng.normal(0.0, 1e-4, size)
    b = 0.0
    pos = labels.sum()
    neg = len(labels) - pos
    neg_zh = float(((labels == 0) & cjk).sum())
    neg_en = neg - neg_zh
    sw = np.where(
        labels == 1,
        0.5 / max(pos, 1),
        np.where(cjk, 0.25 / max(neg_zh, 1), 0.25 / max(neg_en, 1)),
    )
    m_w = np.zeros(size)
    v_w = np.zeros(size)
    m_b = v_b = 0.0
    for t in range(1, ITERATIONS + 1):
        z = np.bincount(r, weights=w[c] * v, minlength=len(rows)) + b
        p = 1.0 / (1.0 + np.exp(-z))
        err = (p - labels) * sw
        g_w = np.bincount(c, weights=v * err[r], minlength=size) + L2 * w
        g_b = float(err.sum())
        m_w = 0.9 * m_w + 0.1 * g_w
        v_w = 0.999 * v_w + 0.001 * g_w * g_w
        w -= RATE * (m_w / (1 - 0.9**t)) / (np.sqrt(v_w / (1 - 0.999**t)) + 1e-8)
        m_b = 0.9 * m_b + 0.1 * g_b
        v_b = 0.999 * v_b + 0.001 * g_b * g_b
        b -= RATE * (m_b / (1 - 0.9**t)) / (np.sqrt(v_b / (1 - 0.999**t)) + 1e-8)
    return w, b


def _span_scores(sample: Sample, w: np.ndarray, b: float) -> np.ndarray:
    return np.array([w[x].sum() / np.sqrt(max(len(x), 1)) + b for x in sample.spans])


def train(samples: list[Sample], seed: int = SEED) -> Model:
    """A model trained on ``samples`` and calibrated on the ``benign:calibrate`` ones."""
    train_set = [s for s in samples if s.spans and s.batch != "benign:calibrate"]
    rows: list[np.ndarray] = []
    labels: list[int] = []
    for s in train_set:
        if s.poisoned:
            rows.append(s.spans[s.whole])
            labels.append(1)
        else:
            rows.extend(s.spans)
            labels.extend([0] * len(s.spans))
    cjk = [
        _CJK.search(json.dumps(s.rec["tool"], ensure_ascii=False)) is not None for s in train_set
    ]
    flags = [
        c
        for s, c in zip(train_set, cjk, strict=True)
        for _ in (s.spans[-1:] if s.poisoned else s.spans)
    ]
    w, b = _fit(rows, np.array(labels, dtype=float), np.array(flags, dtype=bool), seed)
    # Round two: the best scoring span of each poisoned tool is a positive too.
    for s in train_set:
        if s.poisoned and len(s.spans) > 1:
            scores = _span_scores(s, w, b)
            scores[s.whole] = -np.inf
            rows.append(s.spans[int(np.argmax(scores))])
            labels.append(1)
            flags.append(False)
    w, b = _fit(rows, np.array(labels, dtype=float), np.array(flags, dtype=bool), seed)
    w16 = w.astype(np.float16).astype(np.float64)
    calib = [
        _span_scores(s, w16, b)[s.whole]
        for s in samples
        if s.batch == "benign:calibrate" and s.spans
    ]
    warning = float(np.quantile(calib, 1 - WARNING_FP))
    error = float(np.quantile(calib, 1 - ERROR_FP))
    return Model(w16.astype(np.float32), float(b), BITS, warning, max(error, warning))


def tool_score(model: Model, sample: Sample) -> float:
    if not sample.spans:
        return -np.inf
    return float(_span_scores(sample, model.weights.astype(np.float64), model.bias)[sample.whole])


def rank(model: Model, sample: Sample) -> int:
    """The severity rank the learned detector gives a sample (0: nothing)."""
    score = tool_score(model, sample)
    if score >= model.error:
        return Severity.ERROR.rank
    if score >= model.warning:
        return Severity.WARNING.rank
    return 0


def rule_rank(sample: Sample, siblings_ctx: dict[str, Any]) -> int:
    """The severity rank the rules give a sample (in its group for benign records)."""
    cached = getattr(sample, "rule_rank", None)
    if cached is not None:
        return int(cached)
    sample.rule_rank = _rule_rank(sample, siblings_ctx["rules"])  # type: ignore[attr-defined]
    return int(sample.rule_rank)  # type: ignore[attr-defined]


def _rule_rank(sample: Sample, rules: Any) -> int:
    if sample.poisoned:
        sibs = tuple(ToolContract(name=n) for n in sample.rec.get("siblings", ()))
        return worst(sample.tool, _context((sample.tool, *sibs)), rules)[0]
    return worst(sample.tool, _context((sample.tool,)), rules)[0]


def table(name: str, model: Model, samples: list[Sample], with_rules: bool) -> list[str]:
    """Recall per category and language (model alone, and combined) and false positives."""
    ctx = {"rules": security_rules()}
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    fp: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for s in samples:
        m = rank(model, s)
        r = rule_rank(s, ctx) if with_rules else 0
        both = max(m, r)
        if s.poisoned:
            for key in (s.rec.get("category", "?"), "lang " + language(s.rec), "ALL"):
                row = acc[key]
                row[0] += 1
                row[1] += m >= Severity.WARNING.rank
                row[2] += m >= Severity.ERROR.rank
                row[3] += both >= Severity.WARNING.rank
                row[4] += both >= Severity.ERROR.rank
        else:
            for key in ("lang " + language(s.rec), "ALL"):
                fp[key][0] += 1
                fp[key][1] += m >= Severity.WARNING.rank
                fp[key][2] += both >= Severity.WARNING.rank
    lines = [f"== {name}"]
    if acc:
        lines.append(
            f"{'category / language':<22} {'n':>4} {'model w+':>9} {'model err':>9}"
            f" {'+rules w+':>9} {'+rules err':>10}"
        )
        for key in sorted(acc, key=lambda k: (k == "ALL", k.startswith("lang"), k)):
            n, a, b, c, d = acc[key]
            lines.append(
                f"{key:<22} {n:>4} {a / n:>9.1%} {b / n:>9.1%} {c / n:>9.1%} {d / n:>10.1%}"
            )
    for key, (n, a, c) in sorted(fp.items()):
        lines.append(
            f"false positives {key:<8} model {a}/{n} ({a / n:.2%})  +rules {c}/{n} ({c / n:.2%})"
        )
    return lines


def save(model: Model, path: Path = MODEL_PATH) -> str:
    """Write the model reproducibly (no timestamps in the archive) and return its SHA-256."""
    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        weights=model.weights.astype(np.float16),
        bias=np.float64(model.bias),
        bits=np.int64(model.bits),
        warning=np.float64(model.warning),
        error=np.float64(model.error),
    )
    data = buf.getvalue()
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


BATCHES_HELD_BACK = ("probe_2026-12m",)
"""Never trained on: the last probe, scored once with the shipped model."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lobo", action="store_true", help="leave-one-batch-out estimate")
    ap.add_argument("--probe", action="append", default=[], help="score a held-back batch")
    ap.add_argument("--write", action="store_true", help="write resources/lint/security_model.npz")
    ap.add_argument("--no-rules", action="store_true", help="model alone (faster)")
    args = ap.parse_args(argv)
    if args.probe and not (args.lobo or args.write):
        return _first_sight(args.probe, not args.no_rules)
    samples = corpus()
    usable = [s for s in samples if s.batch not in BATCHES_HELD_BACK]
    trainable = [s for s in usable if s.batch not in ("poisoned:heldout", "benign:heldout")]
    batches = sorted({s.batch for s in usable if s.batch.startswith(("heldout_", "probe_"))})
    if args.lobo:
        pooled: list[tuple[Model, list[Sample]]] = []
        for batch in batches:
            model = train([s for s in trainable if s.batch != batch])
            held = [s for s in usable if s.batch == batch]
            pooled.append((model, held))
            print("\n".join(table(f"LOBO {batch}", model, held, not args.no_rules)), flush=True)
        # Pooled: each sample scored by the model that did not see its batch.
        print("\n".join(_pooled_table(pooled, not args.no_rules)))
    final = train(trainable)
    print(f"thresholds: warning {final.warning:.3f}, error {final.error:.3f}")
    main_held = [s for s in usable if s.batch in ("poisoned:heldout", "benign:heldout")]
    print(
        "\n".join(
            table(
                "final model: poisoned.jsonl / benign.jsonl heldout",
                final,
                main_held,
                not args.no_rules,
            )
        )
    )
    for name in args.probe:
        held = [s for s in samples if s.batch == name]
        print("\n".join(table(f"FIRST SIGHT {name}", final, held, not args.no_rules)))
    if args.write:
        print(f"wrote {MODEL_PATH} sha256 {save(final)}")
    return 0


def _first_sight(names: list[str], with_rules: bool) -> int:
    """Score held-back batches with the shipped model (no training)."""
    from studio.lint.rules.security_learned import model

    shipped = model()
    if shipped is None:
        print(f"error: no model at {MODEL_PATH}; run with --write first", file=sys.stderr)
        return 2
    for name in names:
        path = CORPUS / f"{name}.jsonl"
        with path.open(encoding="utf-8") as handle:
            recs = [json.loads(line) for line in handle if line.strip()]
        held = [Sample(r, r.get("label") == "poisoned", name) for r in recs]
        print("\n".join(table(f"FIRST SIGHT {name} (shipped model)", shipped, held, with_rules)))
    return 0


def _pooled_table(pooled: list[tuple[Model, list[Sample]]], with_rules: bool) -> list[str]:
    lines: list[str] = []
    totals = np.zeros(5)
    fps = np.zeros(3)
    ctx = {"rules": security_rules()}
    for model, held in pooled:
        for s in held:
            m = rank(model, s)
            r = rule_rank(s, ctx) if with_rules else 0
            both = max(m, r)
            if s.poisoned:
                totals += [1, m >= 2, m >= 3, both >= 2, both >= 3]
            else:
                fps += [1, m >= 2, both >= 2]
    n = totals[0]
    lines.append(
        f"== LOBO pooled over {len(pooled)} batches: {int(n)} poisoned — model "
        f"{totals[1] / n:.1%} warning+, {totals[2] / n:.1%} error; +rules "
        f"{totals[3] / n:.1%} / {totals[4] / n:.1%}; look-alike FP model "
        f"{int(fps[1])}/{int(fps[0])}, +rules {int(fps[2])}/{int(fps[0])}"
    )
    return lines


if __name__ == "__main__":
    sys.exit(main())
