"""The whole pipeline (“From word vectors to Transformer” §36) as a list of stops read off one toy
trace, and its diagram.

Each stop names the trace array it shows, that array's live shape, the formula that made it and
the stage of Representation → Interaction → Aggregation (§33–34) it belongs to. Pure functions:
the Whole-pipeline page renders them; nothing here recomputes the model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.app.views.labels import shape_label
from transformer_walk.models.toy import Trace

# Representation: each token on its own becomes a vector; interaction: positions are compared;
# aggregation: what the comparisons chose is gathered; "token" stops act on each row alone.
STAGES: tuple[str, ...] = ("representation", "interaction", "aggregation", "token")

STAGE_COLOURS: dict[str, str] = {
    "representation": "#dbeafe",
    "interaction": "#fde68a",
    "aggregation": "#bbf7d0",
    "token": "#e5e7eb",
}


@dataclass(frozen=True)
class Stop:
    key: str  # stable id, also the DOT node name
    array: np.ndarray | None  # the numbers behind the stop (None for the raw text)
    shape: tuple[int, ...]
    shape_text: str  # "[n, d_model] = [4, 8]"
    formula: str  # LaTeX
    stage: str


def _stop(key: str, array: np.ndarray, symbols: str, formula: str, stage: str) -> Stop:
    shape = tuple(int(s) for s in array.shape)
    return Stop(key, array, shape, f"[{symbols}] = {shape_label(shape)}", formula, stage)


# The formula beside each stop's numbers, in the articles' notation.
FORMULAS: dict[str, str] = {
    "text": r"\text{raw text}",
    "tokens": r"\text{tokenize}(\text{text})",
    "ids": r"\text{id}(t_i) \in \{0, \ldots, V-1\}",
    "one_hot": r"X_{\text{one-hot}}[i, \text{id}_i] = 1",
    "embeddings": r"X_{\text{one-hot}}\,E",
    "positions": r"X = X_{\text{one-hot}}E + PE",
    "qkv": r"Q = XW^Q,\ K = XW^K,\ V = XW^V",
    "heads": r"Q \to [Q_1, \ldots, Q_h],\ d_k = d_{\text{model}}/h",
    "weights": r"A_i = \operatorname{softmax}\!\left(\frac{Q_iK_i^{\mathsf T}}{\sqrt{d_k}}\right)",
    "head_out": r"\operatorname{head}_i = A_i V_i",
    "concat": r"\operatorname{Concat}(\operatorname{head}_1, \ldots, \operatorname{head}_h)",
    "w_o": r"\operatorname{Concat}(\ldots)\,W^O",
    "norm1": r"\operatorname{LN}(X + \operatorname{MultiHead}(X))",
    "ffn": r"\max(0,\ xW_1 + b_1)",
    "norm2": r"\operatorname{LN}(x + \max(0, xW_1 + b_1)W_2 + b_2)",
    "output": r"\text{after all } L \text{ blocks}",
}


def pipeline_stops(trace: Trace, block: int = 0, text_size: str | None = None) -> list[Stop]:
    """Text → … → contextual output, the inside of block ``block`` (0-based) shown in full."""
    b = trace.blocks[block]
    rep, inter, agg, tok = STAGES
    # (key, array, shape in symbols, stage), in the order the model runs them
    chain: list[tuple[str, np.ndarray, str, str]] = [
        ("tokens", np.array(trace.tokens, dtype=object), "n", rep),
        ("ids", trace.ids, "n", rep),
        ("one_hot", trace.one_hot, "n, V", rep),
        ("embeddings", trace.embeddings, "n, d_model", rep),
        ("positions", trace.x0, "n, d_model", rep),
        ("qkv", b.Q, "n, d_model", rep),
        ("heads", b.q_heads, "h, n, d_k", rep),
        ("weights", b.weights, "h, n, n", inter),
        ("head_out", b.head_out, "h, n, d_k", agg),
        ("concat", b.concat, "n, d_model", agg),
        ("w_o", b.attn_out, "n, d_model", agg),
        ("norm1", b.norm1, "n, d_model", tok),
        ("ffn", b.ffn_hidden, "n, d_ff", tok),
        ("norm2", b.out, "n, d_model", tok),
        ("output", trace.output, "n, d_model", tok),
    ]
    count = len(trace.text)  # ``text_size`` says "17 characters" in the page's language
    size = text_size if text_size is not None else f"{count} chars"
    text = Stop("text", None, (count,), size, FORMULAS["text"], rep)
    return [text] + [_stop(key, a, sym, FORMULAS[key], stage) for key, a, sym, stage in chain]


def as_matrix(array: np.ndarray, head: int = 0) -> np.ndarray:
    """A stop's numbers as one 2-D matrix: a 1-D array becomes one row, a per-head array
    [h, n, ·] gives head ``head``'s [n, ·]."""
    if array.ndim == 1:
        return array[None, :]  # (n,) → (1, n)
    if array.ndim == 3:
        return array[head]  # (h, n, ·) → (n, ·)
    return array


def used_columns(one_hot: np.ndarray) -> np.ndarray:
    """The vocabulary columns that hold a 1 somewhere (ascending): the rest of [n, V] is zeros."""
    return np.flatnonzero(one_hot.any(axis=0))


def _escape(label: str) -> str:
    return label.replace("\\", "\\\\").replace('"', '\\"')


def pipeline_dot(
    stops: list[Stop], labels: dict[str, str], selected: str | None = None, layers: int = 1
) -> str:
    """A top-to-bottom Graphviz DOT chain: each node its label and live shape, coloured by stage;
    the selected stop outlined; the block's stops boxed, with "× L" when there are L blocks."""
    lines = [
        "digraph pipeline {",
        "  rankdir=TB; nodesep=0.2; ranksep=0.18;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11, '
        'margin="0.12,0.04"];',
        '  edge [arrowsize=0.6, color="#6b7280"];',
    ]
    in_block = {"qkv", "heads", "weights", "head_out", "concat", "w_o", "norm1", "ffn", "norm2"}

    def node(stop: Stop) -> str:
        width = ', penwidth=3, color="#dc2626"' if stop.key == selected else ""
        text = _escape(labels[stop.key]) + "\\n" + _escape(stop.shape_text)  # DOT's line break
        return f'    {stop.key} [label="{text}", fillcolor="{STAGE_COLOURS[stop.stage]}"{width}];'

    lines += [node(s) for s in stops if s.key not in in_block]
    lines.append("  subgraph cluster_block {")
    lines.append(
        f'    label="{_escape(labels["block"])} × {layers}"; style=dashed; color="#9ca3af";'
    )
    lines.append('    fontname="Helvetica"; fontsize=11;')
    lines += [node(s) for s in stops if s.key in in_block]
    lines.append("  }")
    lines += [f"  {a.key} -> {b.key};" for a, b in zip(stops, stops[1:], strict=False)]
    lines.append("}")
    return "\n".join(lines)
