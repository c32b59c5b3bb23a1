"""What the Self-attention and Multi-head pages show, selected or derived from a toy ``Trace``.

The trace holds the model's own numbers (computed on the sidebar's backend); nothing here redoes
attention. The helpers pick rows and heads out of it, check identities the pages state
(Σ_j α_ij v_j equals the head's output row, the concat is the heads side by side, rows sum to 1),
and do the small bookkeeping the pages teach: n² scores, which h divide d_model, and the 4·d_model²
parameters of the attention projections.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.app.views.labels import token_labels
from transformer_walk.models.toy import Trace
from transformer_walk.topics.attention_picks import asymmetry, most_asymmetric_pair
from transformer_walk.topics.claims import Claim, claim, position_of

# The Multi-head page's controls: small enough that every matrix still fits on the screen.
D_MODEL_MIN, D_MODEL_MAX = 2, 64
H_MAX = 16

# The original Transformer base model (Vaswani et al., 2017): chosen hyper-parameters, not limits.
BASE_D_MODEL, BASE_H = 512, 8


# --- heads and widths -------------------------------------------------------------------------


def valid_head_counts(d_model: int, max_h: int = H_MAX) -> list[int]:
    """Every h ≤ max_h that divides d_model, so that d_k = d_model / h is a whole number."""
    return [h for h in range(1, min(d_model, max_h) + 1) if d_model % h == 0]


def closest_valid_head_count(d_model: int, h: int, max_h: int = H_MAX) -> int:
    """The valid h nearest to ``h`` (the smaller one on a tie); 1 always divides."""
    return min(valid_head_counts(d_model, max_h), key=lambda v: (abs(v - h), v))


@dataclass(frozen=True)
class HeadShapes:
    """The shapes of one multi-head attention layer for n tokens."""

    n: int
    d_model: int
    h: int

    @property
    def d_k(self) -> int:
        return self.d_model // self.h

    @property
    def head(self) -> tuple[int, int]:
        return (self.n, self.d_k)

    @property
    def concat(self) -> tuple[int, int]:
        return (self.n, self.h * self.d_k)

    @property
    def w_o(self) -> tuple[int, int]:
        return (self.h * self.d_k, self.d_model)

    @property
    def out(self) -> tuple[int, int]:
        return (self.n, self.d_model)


@dataclass(frozen=True)
class ProjectionParameters:
    """Weights of W^Q, W^K, W^V, W^O (biases left out). Per head, W_i^Q is [d_model, d_k]; the
    h heads together are one [d_model, d_model] matrix, so the total does not depend on h."""

    d_model: int
    h: int

    @property
    def d_k(self) -> int:
        return self.d_model // self.h

    @property
    def per_head_matrix(self) -> int:
        return self.d_model * self.d_k  # W_i^Q (or W_i^K, W_i^V)

    @property
    def qkv(self) -> int:
        return 3 * self.h * self.per_head_matrix  # = 3 · d_model²

    @property
    def output(self) -> int:
        return self.d_model * self.d_model  # W^O

    @property
    def total(self) -> int:
        return self.qkv + self.output  # = 4 · d_model²


def attention_parameters(d_model: int) -> int:
    """4 · d_model²: the weights of W^Q, W^K, W^V and W^O of one attention layer."""
    return 4 * d_model * d_model


# --- what one head's matrix says ---------------------------------------------------------------


def layer_weights(trace: Trace, layer: int = 0) -> np.ndarray:
    """[h, n, n] the attention weights of one layer: weights[head, i, j] = α_ij."""
    return trace.blocks[layer].weights


def row_sums(weights: np.ndarray) -> np.ndarray:
    """Σ_j α_ij for every row (1 for every query that may attend to something)."""
    return weights.sum(axis=-1)


@dataclass(frozen=True)
class QueryRow:
    """Query i in one head: its weights over the keys, the value rows they blend, and the sum."""

    index: int
    weights: np.ndarray  # [n] α_ij
    values: np.ndarray  # [n, d_k] v_j of this head
    trace_output: np.ndarray  # [d_k] the head's output row i, as the model computed it

    @property
    def contributions(self) -> np.ndarray:
        return self.weights[:, None] * self.values  # (n, d_k): α_ij v_j

    @property
    def weighted_sum(self) -> np.ndarray:
        return self.contributions.sum(axis=0)  # (d_k,) z_i = Σ_j α_ij v_j

    @property
    def difference(self) -> float:
        """Largest gap between the sum worked out here and the model's own output row."""
        return float(np.max(np.abs(self.weighted_sum - self.trace_output), initial=0.0))

    @property
    def top(self) -> int:
        return int(np.argmax(self.weights))


def query_row(trace: Trace, head: int, i: int, layer: int = 0) -> QueryRow:
    block = trace.blocks[layer]
    return QueryRow(
        index=i,
        weights=block.weights[head, i],
        values=block.v_heads[head],
        trace_output=block.head_out[head, i],
    )


def upper_triangle_mass(weights: np.ndarray) -> float:
    """Σ α_ij over j > i (every head): the weight on later tokens, 0 under a causal mask."""
    n = weights.shape[-1]
    above = np.triu(np.ones((n, n), dtype=bool), k=1)
    return float(weights[..., above].sum())


def visible_keys(weights: np.ndarray, i: int) -> list[int]:
    """The keys query i actually draws on (weight > 0) in an [n, n] matrix."""
    return [int(j) for j in np.flatnonzero(weights[i] > 0)]


def score_count(n: int, h: int = 1) -> int:
    """Query–key scores one layer computes: n² per head."""
    return h * n * n


# --- multi-head ------------------------------------------------------------------------------


def query_rows_by_head(trace: Trace, i: int, layer: int = 0) -> np.ndarray:
    """[h, n] what query i's row looks like in each head."""
    return trace.blocks[layer].weights[:, i, :]


def concat_difference(trace: Trace, layer: int = 0) -> float:
    """Largest gap between the concat's column block of head i and head i's output: 0 when the
    concat is exactly the heads side by side (per token, along the features)."""
    block = trace.blocks[layer]
    h, n, d_k = block.head_out.shape
    # Split here by hand, not with the model's split_heads: this checks the model's merge_heads.
    blocks = block.concat.reshape(n, h, d_k).transpose(1, 0, 2)  # (n, d_model) → (h, n, d_k)
    return float(np.max(np.abs(blocks - block.head_out), initial=0.0))


def output_difference(trace: Trace, w_o: np.ndarray, layer: int = 0) -> float:
    """Largest gap between concat · W^O and the attention output the trace recorded."""
    block = trace.blocks[layer]
    return float(np.max(np.abs(block.concat @ w_o - block.attn_out), initial=0.0))


# --- claims -------------------------------------------------------------------------------------


def _names_positions(label: object, tokens: Sequence[str], at: int) -> bool:
    return label == token_labels(tokens, [at])[at]


def _top_weight_holds(
    said: Claim, weights: np.ndarray, tokens: Sequence[str], keys: Sequence[int] | None = None
) -> bool:
    row = np.round(np.asarray(weights, dtype=np.float64), 3)
    at = list(range(len(row))) if keys is None else list(keys)
    tied = [at[k] for k in np.flatnonzero(row == row.max())]
    named = said.fields["tokens"]
    labels = [named] if isinstance(named, str) else list(named)  # type: ignore[call-overload]
    return (
        said.fields["weight"] == f"{row.max():.3f}"
        and [position_of(label) for label in labels] == tied
        and all(_names_positions(label, tokens, p) for label, p in zip(labels, tied, strict=True))
        and said.message
        == ("self_attention.row.top_one" if len(tied) == 1 else "self_attention.row.top_tie")
        and said.fields.get("count", 1) == len(tied)
    )


@claim(_top_weight_holds)
def top_weight(
    weights: np.ndarray, tokens: Sequence[str], keys: Sequence[int] | None = None
) -> Claim | None:
    """Which key a query row weighs most, named by position and text: the one key, or every
    key tied with it at the three decimals shown. ``keys`` gives the position of each weight in
    ``tokens`` when the row covers only some of them (all of them, in order, by default)."""
    row = np.asarray(weights, dtype=np.float64)
    if row.size == 0:
        return None
    at = list(range(row.size)) if keys is None else list(keys)
    if len(at) != row.size:
        raise ValueError(f"{row.size} weights but {len(at)} key positions")
    shown = np.round(row, 3)
    tied = [at[k] for k in np.flatnonzero(shown == shown.max())]
    labels = token_labels(tokens, tied)
    fields = {"tokens": [labels[p] for p in tied], "weight": f"{shown.max():.3f}"}
    if len(tied) == 1:
        return Claim("self_attention.row.top_one", {**fields, "tokens": fields["tokens"][0]})
    return Claim("self_attention.row.top_tie", {**fields, "count": len(tied)})


def _lopsided_holds(said: Claim, weights: np.ndarray, tokens: Sequence[str]) -> bool:
    gap = asymmetry(np.asarray(weights, dtype=np.float64))
    i, j = position_of(said.fields["ti"]), position_of(said.fields["tj"])
    return (
        i != j
        and _names_positions(said.fields["ti"], tokens, i)
        and _names_positions(said.fields["tj"], tokens, j)
        and bool(np.isclose(gap[i, j], gap.max(), rtol=0, atol=1e-12))
        and said.fields["gap"] == f"{gap[i, j]:.3f}"
        and gap[i, j] >= 0.0005  # shows as more than 0.000
    )


@claim(_lopsided_holds)
def lopsided_pair(weights: np.ndarray, tokens: Sequence[str]) -> Claim | None:
    """The pair (i, j) where i draws on j more than j draws on i, by the most, named by position
    and text; nothing for one token, or when no gap shows at three decimals (a symmetric head)."""
    if len(tokens) < 2:
        return None
    i, j = most_asymmetric_pair(weights)
    gap = float(weights[i, j] - weights[j, i])
    if f"{gap:.3f}" in ("0.000", "-0.000"):
        return None
    labels = token_labels(tokens, [i, j])
    return Claim(
        "self_attention.dir.largest", {"ti": labels[i], "tj": labels[j], "gap": f"{gap:.3f}"}
    )
