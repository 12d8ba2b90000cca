"""Train the learned poisoning detector and measure it leave-one-batch-out.

Run: ``python benchmarks/train_security_model.py [--lobo] [--probe NAME] [--write]``

Why: the rules of ``studio/lint/rules/security*.py`` were tuned batch after
batch and found about half of each fresh batch at first sight. This script
trains the linear model of :mod:`studio.lint.rules.security_learned` (hashed
character 1–4-grams and Latin word uni- and bigrams of the normalised text,
logistic regression by full-batch Adam in numpy, fixed seed, no scikit-learn)
and estimates first-sight recall honestly: ``--lobo`` trains once per batch
(``heldout_*.jsonl``) without that batch and scores it (the model alone and
combined with the rules; the rules were tuned on those batches, so their share
of the combination is optimistic). ``--probe NAME`` scores a probe batch
(``probe_*.jsonl``) with the final model; probe files are opened only when
named, and never trained or calibrated on. ``--write`` writes
``resources/lint/security_model.npz`` (the same bytes for the same corpus and
seed) and prints its SHA-256.

Training data (``tests/data/security``): positives are the poisoned tools of
``poisoned.jsonl`` (split ``tune``) and of the batches; negatives are the
benign tools of ``benign.jsonl`` and of ``train_*.jsonl`` (API documentation;
split ``tune``, two thirds each; the other third calibrates the thresholds)
and the batches' benign look-alikes, each group weighted by its share
(:data:`SHARES`). A poisoned tool is one positive (its whole text), plus, in a
second round, its best scoring slot or sentence (multiple-instance learning:
which sentence is the attack is not labelled). Every slot and sentence of a
benign tool is a negative. Thresholds: warning where WARNING_FP of the real
calibration tools score higher, error where ERROR_FP do (and no more than
ERROR_FP_HARD of the API calibration tools). The decision is the score of the
tool's whole text (sentences alone are short, and short texts score
erratically: "Never logs passwords." would be an error); the best sentence is
what the message quotes. The ``heldout`` splits are never trained or
calibrated on: the false-positive rates are reported there.
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
    features,
    scale,
    spans,
    tool_text,
)

_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
SEED = 20261201
BITS = 17
ITERATIONS = 250
L2 = 2e-6
RATE = 0.05
WARNING_FP = 0.002
ERROR_FP = 0.001
ERROR_FP_HARD = 0.01


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
            features(value[a:b], BITS) for a, b in zip(starts, ends, strict=True)
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
    for path in sorted(CORPUS.glob("train_*.jsonl")):
        for r in load(path.name, "all"):
            tag = "hard:heldout" if r["split"] == "heldout" else "hard:tune"
            if tag == "hard:tune" and _split_third(r):
                tag = "hard:calibrate"
            out.append(Sample(r, r.get("label") == "poisoned", tag))
    # Only the batches by name: a new batch is scored first (--probe NAME), and
    # probe files (probe_*.jsonl) are never opened unless named with --probe.
    for stem in TRAINED_BATCHES:
        out.extend(batch(stem))
    return out


TRAINED_BATCHES = tuple(f"heldout_2026-12{s}" for s in ("", *"bcdefghij"))
"""The batches trained on (and left out one at a time by --lobo). A batch added
later is first scored once with ``--probe`` and its number recorded, then added."""


def batch(stem: str) -> list[Sample]:
    """The records of one batch file, tagged with its name."""
    with (CORPUS / f"{stem}.jsonl").open(encoding="utf-8") as handle:
        recs = [json.loads(line) for line in handle if line.strip()]
    return [Sample(r, r.get("label") == "poisoned", stem) for r in recs]


def _matrix(rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """COO rows, columns and values (counts / sqrt(n-grams)) of the given spans.

    Repeated features of a row are merged into one entry with their count
    (a third fewer entries to walk in each of the fit's iterations).
    """
    r = np.concatenate([np.full(len(x), i, dtype=np.int64) for i, x in enumerate(rows)])
    keys, counts = np.unique((r << BITS) | np.concatenate(rows), return_counts=True)
    factor = np.array([scale(len(x)) for x in rows])
    r = keys >> BITS
    return r, keys & ((1 << BITS) - 1), counts * factor[r]


SHARES = {"poisoned": 0.5, "en": 0.15, "zh": 0.1, "api": 0.05, "look": 0.2}
"""Share of the training weight per group of rows (each group's rows weigh alike).

Half on poisoned rows; the benign half split between real tools in English,
real tools in Chinese (2 % of them, or the model learns "Chinese → poisoned":
half the poisoned tools are Chinese), API documentation (``train_*.jsonl``:
the attacks' topic words used benignly) and the batches' benign look-alikes
(written to resemble the attacks, in the batches' own templates).
"""


def group_of(sample: Sample) -> str:
    """Which :data:`SHARES` group a sample's rows belong to."""
    if sample.poisoned:
        return "poisoned"
    if sample.batch.startswith("heldout_"):
        return "look"
    if sample.batch.startswith("hard:"):
        return "api"
    return "zh" if _CJK.search(json.dumps(sample.rec["tool"], ensure_ascii=False)) else "en"


def _fit(
    rows: list[np.ndarray], labels: np.ndarray, groups: list[str], seed: int
) -> tuple[np.ndarray, float]:
    """Logistic regression (L2) by full-batch Adam, each group weighted by its share."""
    rng = np.random.default_rng(seed)
    r, c, v = _matrix(rows)
    size = 1 << BITS
    w = rng.normal(0.0, 1e-4, size)
    b = 0.0
    counts = {g: groups.count(g) for g in SHARES}
    sw = np.array([SHARES[g] / max(counts[g], 1) for g in groups])
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
    return np.array([w[x].sum() * scale(len(x)) + b for x in sample.spans])


CALIBRATION = ("benign:calibrate", "hard:calibrate")
"""Never trained on: the thresholds come from these tools' scores."""


def train(samples: list[Sample], seed: int = SEED) -> Model:
    """A model trained on ``samples`` and calibrated on the :data:`CALIBRATION` ones."""
    train_set = [s for s in samples if s.spans and s.batch not in CALIBRATION]
    rows: list[np.ndarray] = []
    labels: list[int] = []
    groups: list[str] = []
    for s in train_set:
        group = group_of(s)
        if s.poisoned:
            rows.append(s.spans[s.whole])
            labels.append(1)
            groups.append(group)
        else:
            rows.extend(s.spans)
            labels.extend([0] * len(s.spans))
            groups.extend([group] * len(s.spans))
    w, b = _fit(rows, np.array(labels, dtype=float), groups, seed)
    # Round two: the best scoring span of each poisoned tool is a positive too.
    for s in train_set:
        if s.poisoned and len(s.spans) > 1:
            scores = _span_scores(s, w, b)
            scores[s.whole] = -np.inf
            rows.append(s.spans[int(np.argmax(scores))])
            labels.append(1)
            groups.append("poisoned")
    w, b = _fit(rows, np.array(labels, dtype=float), groups, seed)
    w16 = w.astype(np.float16).astype(np.float64)
    return Model(w16.astype(np.float32), float(b), BITS, *thresholds(samples, w16, b))


def thresholds(samples: list[Sample], w: np.ndarray, b: float) -> tuple[float, float]:
    """Warning and error thresholds from the calibration tools' scores.

    Warning: WARNING_FP of the real benign calibration tools score higher.
    Error: ERROR_FP of them, and no more than ERROR_FP_HARD of the hard
    negatives' calibration third (API documentation full of the attacks'
    topic words), whichever is higher.
    """
    real = [
        _span_scores(s, w, b)[s.whole] for s in samples if s.batch == "benign:calibrate" and s.spans
    ]
    hard = [
        _span_scores(s, w, b)[s.whole] for s in samples if s.batch == "hard:calibrate" and s.spans
    ]
    warning = float(np.quantile(real, 1 - WARNING_FP))
    error = float(np.quantile(real, 1 - ERROR_FP))
    if hard:
        error = max(error, float(np.quantile(hard, 1 - ERROR_FP_HARD)))
    return warning, max(error, warning)


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


HELD_OUT = ("poisoned:heldout", "benign:heldout", "hard:heldout")
"""Never trained or calibrated on: the false-positive and recall numbers are reported here."""


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
    trainable = [s for s in samples if s.batch not in HELD_OUT]
    batches = list(TRAINED_BATCHES)
    if args.lobo:
        pooled: list[tuple[Model, list[Sample]]] = []
        for name in batches:
            model = train([s for s in trainable if s.batch != name])
            held = [s for s in samples if s.batch == name]
            pooled.append((model, held))
            print("\n".join(table(f"LOBO {name}", model, held, not args.no_rules)), flush=True)
        # Pooled: each sample scored by the model that did not see its batch.
        print("\n".join(_pooled_table(pooled, not args.no_rules)))
    final = train(trainable)
    print(f"thresholds: warning {final.warning:.3f}, error {final.error:.3f}")
    for title, tags in (
        ("final model: poisoned.jsonl / benign.jsonl heldout", HELD_OUT[:2]),
        ("final model: train_*.jsonl heldout (API documentation)", HELD_OUT[2:]),
    ):
        held = [s for s in samples if s.batch in tags]
        print("\n".join(table(title, final, held, not args.no_rules)))
    for name in args.probe:
        print("\n".join(table(f"FIRST SIGHT {name}", final, batch(name), not args.no_rules)))
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
