"""What the Block page derives from a toy trace: the stages of a block in order, their shapes and
row statistics, and how a token changes from block to block. Pure functions over ``model.Trace``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.app.views.labels import shape_label
from transformer_walk.models.toy import BlockTrace, Trace

#: The stages of a block in the order they are computed, per norm placement (BlockTrace fields).
#: Post-LN: LN after each residual. Pre-LN: LN before each sub-layer; the residual stream itself
#: is never normalised inside the block (resid2 is the output).
STAGES: dict[str, tuple[str, ...]] = {
    "post": ("x_in", "attn_out", "resid1", "norm1", "ffn_hidden", "ffn_out", "resid2", "out"),
    "pre": ("x_in", "attn_in", "attn_out", "resid1", "norm1", "ffn_hidden", "ffn_out", "out"),
}

#: How each stage is computed, in the articles' notation, per norm placement.
FORMULAS: dict[str, dict[str, str]] = {
    "post": {
        "x_in": r"X",
        "attn_out": r"\operatorname{MultiHead}(X)",
        "resid1": r"R_1 = X + \operatorname{MultiHead}(X)",
        "norm1": r"N_1 = \operatorname{LN}(R_1)",
        "ffn_hidden": r"H = \max(0,\ N_1 W_1 + b_1)",
        "ffn_out": r"F = H W_2 + b_2",
        "resid2": r"R_2 = N_1 + F",
        "out": r"\operatorname{LN}(R_2)",
    },
    "pre": {
        "x_in": r"X",
        "attn_in": r"\operatorname{LN}(X)",
        "attn_out": r"\operatorname{MultiHead}(\operatorname{LN}(X))",
        "resid1": r"R_1 = X + \operatorname{MultiHead}(\operatorname{LN}(X))",
        "norm1": r"N_1 = \operatorname{LN}(R_1)",
        "ffn_hidden": r"H = \max(0,\ N_1 W_1 + b_1)",
        "ffn_out": r"F = H W_2 + b_2",
        "out": r"R_2 = R_1 + F",
    },
}

#: The same, as plain text for tables (which do not render LaTeX).
PLAIN_FORMULAS: dict[str, dict[str, str]] = {
    "post": {
        "x_in": "X", "attn_out": "MHA(X)", "resid1": "R₁ = X + MHA(X)", "norm1": "N₁ = LN(R₁)",
        "ffn_hidden": "H = max(0, N₁W₁ + b₁)", "ffn_out": "F = HW₂ + b₂", "resid2": "R₂ = N₁ + F",
        "out": "LN(R₂)",
    },
    "pre": {
        "x_in": "X", "attn_in": "LN(X)", "attn_out": "MHA(LN(X))", "resid1": "R₁ = X + MHA(LN(X))",
        "norm1": "N₁ = LN(R₁)", "ffn_hidden": "H = max(0, N₁W₁ + b₁)", "ffn_out": "F = HW₂ + b₂",
        "out": "R₂ = R₁ + F",
    },
}  # fmt: skip

#: Stages that are the output of a LayerNorm: rows with mean 0 and variance ≈ 1.
NORMALISED: dict[str, frozenset[str]] = {
    "post": frozenset({"norm1", "out"}),
    "pre": frozenset({"attn_in", "norm1"}),
}


def stage_array(block: BlockTrace, stage: str) -> np.ndarray:
    return getattr(block, stage)


@dataclass(frozen=True)
class RowStats:
    """Mean and variance over the feature axis of each token's row (what LayerNorm resets)."""

    mean: np.ndarray  # [n]
    var: np.ndarray  # [n]

    @classmethod
    def of(cls, x: np.ndarray) -> RowStats:
        return cls(mean=x.mean(axis=-1), var=x.var(axis=-1))  # (n, d) → (n,) each


@dataclass(frozen=True)
class StageSummary:
    stage: str
    shape: tuple[int, ...]
    stats: RowStats
    normalised: bool  # produced by a LayerNorm


def stage_summaries(block: BlockTrace, norm: str) -> list[StageSummary]:
    """Every stage of ``block`` in order, with its shape and per-row statistics."""
    return [
        StageSummary(
            stage=s,
            shape=stage_array(block, s).shape,
            stats=RowStats.of(stage_array(block, s)),
            normalised=s in NORMALISED[norm],
        )
        for s in STAGES[norm]
    ]


def layer_norm_pairs(block: BlockTrace, norm: str) -> list[tuple[str, str]]:
    """(input stage, output stage) of each LayerNorm inside the block, in order."""
    if norm == "pre":
        return [("x_in", "attn_in"), ("resid1", "norm1")]
    return [("resid1", "norm1"), ("resid2", "out")]


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """[n] cosine between row i of a and row i of b (0 where a row is zero)."""
    dots = np.sum(a * b, axis=1)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


@dataclass(frozen=True)
class StackView:
    """How each token's representation moves through L blocks: index 0 is the input x0."""

    cos_with_input: np.ndarray  # [L + 1, n] cos(x_l[i], x0[i])
    cos_with_previous: np.ndarray  # [L, n] cos(x_l[i], x_{l-1}[i])
    row_var: np.ndarray  # [L + 1, n] variance of each row after each block
    row_norm: np.ndarray  # [L + 1, n] Euclidean length of each row


def stack_view(trace: Trace) -> StackView:
    states = [trace.x0] + [b.out for b in trace.blocks]  # L + 1 arrays of (n, d_model)
    return StackView(
        cos_with_input=np.stack([cosine_rows(s, trace.x0) for s in states]),
        cos_with_previous=np.stack(
            [cosine_rows(b, a) for a, b in zip(states[:-1], states[1:], strict=True)]
        ),
        row_var=np.stack([s.var(axis=1) for s in states]),
        row_norm=np.stack([np.linalg.norm(s, axis=1) for s in states]),
    )


def parameter_counts(trace: Trace) -> dict[str, int]:
    """Weights of one block by part: attention 4·d², FFN 2·d·d_ff + d_ff + d (LN has none here)."""
    p = trace.blocks[0].params
    return {
        "attention": p.W_Q.size + p.W_K.size + p.W_V.size + p.W_O.size,
        "ffn": p.W_1.size + p.b_1.size + p.W_2.size + p.b_2.size,
    }


def block_diagram_dot(labels: dict[str, str], shapes: dict[str, tuple[int, ...]], norm: str) -> str:
    """Graphviz DOT of one block, top to bottom, each box with its live shape. ``labels`` maps
    the node names used here (x_in, mha, add1, ln1, ffn, add2, ln2, ln0, out) to shown text."""

    def box(name: str, shape_of: str, fill: str) -> str:
        shape = shape_label(shapes[shape_of])
        return f'{name} [label="{labels[name]}\\n{shape}", fillcolor="{fill}"];'

    attn, ffn, add, ln, io = "#dbeafe", "#dcfce7", "#fef9c3", "#fae8ff", "#f1f5f9"
    lines = [
        "digraph block {",
        "rankdir=TB; nodesep=0.3; ranksep=0.25;",
        'node [shape=box, style="rounded,filled", fontname="sans-serif", fontsize=11];',
        box("x_in", "x_in", io),
    ]
    if norm == "pre":
        lines += [
            box("ln1", "attn_in", ln), box("mha", "attn_out", attn), box("add1", "resid1", add),
            box("ln2", "norm1", ln), box("ffn", "ffn_out", ffn), box("add2", "out", add),
            box("out", "out", io),
            "x_in -> ln1 -> mha -> add1 -> ln2 -> ffn -> add2 -> out;",
            'x_in -> add1 [style=dashed, label=" +"]; add1 -> add2 [style=dashed, label=" +"];',
        ]  # fmt: skip
    else:
        lines += [
            box("mha", "attn_out", attn), box("add1", "resid1", add), box("ln1", "norm1", ln),
            box("ffn", "ffn_out", ffn), box("add2", "resid2", add), box("ln2", "out", ln),
            box("out", "out", io),
            "x_in -> mha -> add1 -> ln1 -> ffn -> add2 -> ln2 -> out;",
            'x_in -> add1 [style=dashed, label=" +"]; ln1 -> add2 [style=dashed, label=" +"];',
        ]  # fmt: skip
    lines.append("}")
    return "\n".join(lines)
