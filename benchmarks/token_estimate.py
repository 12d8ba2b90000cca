"""Calibration of the offline token estimate against the exact o200k_base tokenizer.

Run: ``python benchmarks/token_estimate.py [--worst 8] [--min-tokens 8]``
(needs the ``exact-tokens`` extra: ``pip install '.[exact-tokens]'``).

Compares :func:`studio.contract.tokens.estimate_tokens` with o200k_base counts
(bpe-openai) on realistic texts:

- the example registries in ``resources/examples/*.json``: every description
  block, error meaning and hint, parameter description and rendered
  description; each tool's model-facing schema and its exported definition in
  every provider format (compact JSON, as requests carry it), and the tool
  documents as stored (indented JSON);
- generated tools of ``benchmarks/lint_scale.py`` (mixed English and Chinese);
- English prose (the README's paragraphs) and Chinese prose (below).

Texts are grouped by kind (English prose, Chinese prose, mixed prose, JSON) by
their content. Per kind it prints the mean signed and mean absolute error in
percent of the exact count, the token-weighted bias (sum of estimates over sum
of exact counts) and the worst cases among texts of at least ``--min-tokens``
exact tokens (a 2-token text off by one is 50 % off and says little).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from studio.contract import parse_registry, render_description, tool_to_dict  # noqa: E402
from studio.contract.tokens import estimate_tokens  # noqa: E402
from studio.formats import export_tool  # noqa: E402

FORMATS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")

CHINESE_PROSE = (
    "差旅报销助手帮助员工查询报销制度、查找自己的发票、提交报销申请并跟踪工单进度。"
    "员工身份始终来自登录会话，模型不能填写或修改它。",
    "出租车费用每次上限为八十元，超出部分需要部门负责人审批。发票 INV-102 金额为 118.5 元，"
    "比制度第 4.2 条规定的上限高出 38.5 元，因此需要在申请中说明原因。",
    "查询发票时请提供开始日期和结束日期，格式为年-月-日，时间跨度不能超过三十一天。"
    "如果用户只说“上周”，请先换算成具体日期再调用工具。",
    "创建报销工单是写操作，需要用户确认一次。每次调用都必须带幂等键，"
    "同一个幂等键重复提交不会生成第二张工单；超时的调用结果未知，应先按幂等键查询，而不是直接重试。",
    "当用户询问“我的报销到哪一步了”或“申请提交了吗”时，使用工单查询工具，"
    "不要用发票查询工具。工单编号形如 R-55821。",
    "本工具只返回与查询最相关的前五条制度条款，每条包含条款编号、标题、正文和金额上限。"
    "如果结果为空，请换一种说法重新查询，或者直接告诉用户没有找到相关规定。",
    "在灰度发布期间，一部分会话会使用新版本的工具定义，其余会话继续使用稳定版本。"
    "如果新版本的调用成功率明显下降，可以一键回滚，所有操作都会记录在频道日志中。",
    "参数说明要写清楚单位、格式和取值范围，例如金额以人民币元为单位，保留两位小数；"
    "类别只能是出租车、酒店、火车或机票之一。",
    "模型经常把相似的工具混淆，所以每个工具的使用说明都应该写明什么时候用、什么时候不用，"
    "以及应该改用哪个兄弟工具。",
    "如果接口返回错误码 POLICY_UNAVAILABLE，说明制度服务暂时不可用，可以重试一次；"
    "再次失败时请如实告诉用户现在无法读取制度。",
)

_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef\u3000-\u303f]"
)


@dataclass(frozen=True)
class Sample:
    kind: str
    source: str
    text: str


def kind_of(text: str) -> str:
    """JSON, Chinese prose (mostly CJK), mixed prose (some CJK) or English prose."""
    stripped = text.lstrip()
    if stripped[:1] in "{[":
        try:
            json.loads(text)
            return "JSON"
        except ValueError:
            pass
    visible = [c for c in text if not c.isspace()]
    cjk = len(_CJK.findall(text))
    share = cjk / len(visible) if visible else 0.0
    if share >= 0.5:
        return "Chinese prose"
    if cjk:
        return "mixed prose"
    return "English prose"


def _add(out: list[Sample], source: str, text: str) -> None:
    if text and text.strip():
        out.append(Sample(kind_of(text), source, text))


def registry_samples(registry, label: str) -> list[Sample]:  # type: ignore[no-untyped-def]
    from studio.lint.rules.cost import model_schema

    out: list[Sample] = []
    template = registry.settings.description_template
    _add(out, f"{label} registry description", registry.description)
    for tool in registry.tools:
        where = f"{label}/{tool.name}"
        for field in ("summary", "usage", "preconditions", "returns", "description"):
            _add(out, f"{where} {field}", getattr(tool, field))
        for i, err in enumerate(tool.errors):
            _add(out, f"{where} errors[{i}].meaning", err.meaning)
            _add(out, f"{where} errors[{i}].hint", err.hint)
        for name, prop in (tool.parameters.get("properties") or {}).items():
            if isinstance(prop, dict) and isinstance(prop.get("description"), str):
                _add(out, f"{where} parameter {name}", prop["description"])
        _add(out, f"{where} rendered description", render_description(tool, template))
        compact = (",", ":")
        _add(out, f"{where} model schema", json.dumps(model_schema(tool), separators=compact))
        for fmt in FORMATS:
            value, _notes = export_tool(tool, fmt, registry.settings)
            text = json.dumps(value, ensure_ascii=False, separators=compact)
            _add(out, f"{where} export {fmt}", text)
        doc = json.dumps(tool_to_dict(tool), ensure_ascii=False, indent=2)
        _add(out, f"{where} document (indented)", doc)
    return out


def readme_paragraphs() -> list[Sample]:
    """The README's prose paragraphs (no code blocks, headings, tables or images)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    out: list[Sample] = []
    for i, para in enumerate(re.split(r"\n\s*\n", text)):
        para = para.strip()
        if not para or para[0] in "#|!":
            continue
        _add(out, f"README paragraph {i}", para)
    return out


def collect(generated: int) -> list[Sample]:
    samples: list[Sample] = []
    for path in sorted((ROOT / "resources" / "examples").glob("*.json")):
        registry = parse_registry(json.loads(path.read_text(encoding="utf-8")))
        samples += registry_samples(registry, path.stem)
    if generated:
        from lint_scale import generated_registry

        samples += registry_samples(generated_registry(generated, seed=3), "generated")
    samples += readme_paragraphs()
    samples += [Sample(kind_of(t), f"Chinese prose {i}", t) for i, t in enumerate(CHINESE_PROSE)]
    return samples


@dataclass(frozen=True)
class Row:
    sample: Sample
    estimate: int
    exact: int

    @property
    def error(self) -> float:
        """Signed error of the estimate, in percent of the exact count."""
        return (self.estimate - self.exact) / self.exact * 100


def summarise(rows: list[Row], worst: int, min_tokens: int) -> None:
    kinds = ("English prose", "Chinese prose", "mixed prose", "JSON")
    header = (
        f"{'kind':<14} {'texts':>5} {'tokens':>7}  {'mean signed':>11} {'mean abs':>8} "
        f"{'median':>7} {'p90 abs':>7} {'weighted':>8}"
    )
    print(header)
    print("-" * len(header))
    for kind in (*kinds, "all"):
        group = [r for r in rows if kind == "all" or r.sample.kind == kind]
        if not group:
            continue
        errors = [r.error for r in group]
        absolute = sorted(abs(e) for e in errors)
        p90 = absolute[min(len(absolute) - 1, int(0.9 * len(absolute)))]
        exact = sum(r.exact for r in group)
        weighted = (sum(r.estimate for r in group) / exact - 1) * 100
        print(
            f"{kind:<14} {len(group):>5} {exact:>7}  {statistics.fmean(errors):>+10.1f}% "
            f"{statistics.fmean(absolute):>7.1f}% {statistics.median(errors):>+6.1f}% "
            f"{p90:>6.1f}% {weighted:>+7.1f}%"
        )
    print(
        "\nmean signed/abs: per text; median: signed; weighted: sum(estimate)/sum(exact) - 1 "
        "(what a registry total is off by)."
    )
    for kind in kinds:
        big = [r for r in rows if r.sample.kind == kind and r.exact >= min_tokens]
        if not big:
            continue
        big.sort(key=lambda r: abs(r.error), reverse=True)
        print(f"\nworst {kind} (of {len(big)} texts with ≥ {min_tokens} tokens):")
        for r in big[:worst]:
            preview = r.sample.text.replace("\n", "⏎")
            preview = preview if len(preview) <= 60 else preview[:57] + "…"
            print(
                f"  {r.error:+6.1f}%  est {r.estimate:>5} exact {r.exact:>5}  "
                f"{r.sample.source}: {preview}"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worst", type=int, default=6, help="worst cases shown per kind")
    ap.add_argument("--min-tokens", type=int, default=8, help="smallest text in worst cases")
    ap.add_argument("--generated", type=int, default=40, help="generated tools to include")
    args = ap.parse_args(argv)
    try:
        import bpe_openai
    except ImportError:
        print("bpe-openai is not installed: pip install '.[exact-tokens]'", file=sys.stderr)
        return 2
    encode = bpe_openai.get_encoding("o200k_base").encode_ordinary
    rows = []
    for sample in collect(args.generated):
        exact = len(encode(sample.text))
        if exact:
            rows.append(Row(sample, estimate_tokens(sample.text), exact))
    print(
        f"estimate_tokens vs o200k_base (bpe-openai {bpe_openai.__version__}), {len(rows)} texts\n"
    )
    summarise(rows, args.worst, args.min_tokens)
    return 0


if __name__ == "__main__":
    sys.exit(main())
