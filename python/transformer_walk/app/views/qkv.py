"""What the Q, K, V page shows, read from the toy model's trace and weights (no attention redone).

- ``pair_check``: the score of one (query i, key j) pair two ways — the trace's q_i · k_j and the
  bilinear form x_i W_r^Q (W_r^K)ᵀ x_jᵀ (§13) — so the learner sees they are one number.
- ``mix_check``: z_i = Σ_j α_ij v_j from the trace's weights and values, against the trace's own
  head output (§14).
- ``compare_rows``: the same weights on two sentences; which rows of Q, K, V changed (§12), the
  second one by default the first with one word changed (``one_word_changed``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.toy import BlockWeights, Trace


def head_columns(head: int, d_k: int) -> slice:
    """The columns of W^Q (and of Q) that belong to head ``head``: W_r^Q = W^Q[:, head·d_k : …]."""
    return slice(head * d_k, (head + 1) * d_k)


def matching_matrix(weights: BlockWeights, head: int, d_k: int) -> np.ndarray:
    """W_r^Q (W_r^K)ᵀ [d_model, d_model]: the learned bilinear form that scores x_i against x_j."""
    cols = head_columns(head, d_k)
    return weights.W_Q[:, cols] @ weights.W_K[:, cols].T  # (d_model, d_k) @ (d_k, d_model)


@dataclass(frozen=True)
class PairCheck:
    head: int
    i: int
    j: int
    q_i: np.ndarray  # [d_k] from the trace
    k_j: np.ndarray  # [d_k] from the trace
    dot: float  # q_i · k_j from the trace's q_heads, k_heads
    bilinear: float  # x_i W_r^Q (W_r^K)ᵀ x_jᵀ, from X and the weights alone
    score: float  # the trace's score s_ij (q·k times the scale, before softmax)
    scale: float  # 1/√d_k, or 1 when scaling is off

    @property
    def difference(self) -> float:
        return abs(self.dot - self.bilinear)

    @property
    def message_id(self) -> str:
        """What the page says of the two routes: the same number to the last bit, or apart by
        rounding (which a difference of exactly 0 is not)."""
        return "qkv.pair.identical" if self.difference == 0 else "qkv.pair.same"


def pair_check(trace: Trace, weights: BlockWeights, head: int, i: int, j: int) -> PairCheck:
    """Score the pair (i, j) of head ``head`` in the trace's first block both ways."""
    block = trace.blocks[0]
    d_k = trace.config.d_k
    x = block.attn_in  # (n, d_model): what W^Q, W^K see
    q_i, k_j = block.q_heads[head, i], block.k_heads[head, j]  # (d_k,) each
    dot = float(q_i @ k_j)
    bilinear = float(x[i] @ matching_matrix(weights, head, d_k) @ x[j])
    return PairCheck(
        head=head,
        i=i,
        j=j,
        q_i=q_i,
        k_j=k_j,
        dot=dot,
        bilinear=bilinear,
        score=float(block.scores[head, i, j]),
        scale=1.0 / np.sqrt(d_k) if trace.config.scale else 1.0,
    )


@dataclass(frozen=True)
class MixCheck:
    weights: np.ndarray  # [n] α_i· of the head
    values: np.ndarray  # [n, d_k] v_j of the head
    z_by_hand: np.ndarray  # [d_k] Σ_j α_ij v_j
    z_trace: np.ndarray  # [d_k] the trace's head output (computed by the backend's attention)

    @property
    def difference(self) -> float:
        return float(np.max(np.abs(self.z_by_hand - self.z_trace)))


def mix_check(trace: Trace, head: int, i: int) -> MixCheck:
    block = trace.blocks[0]
    alpha = block.weights[head, i]  # (n,)
    values = block.v_heads[head]  # (n, d_k)
    return MixCheck(
        weights=alpha, values=values, z_by_hand=alpha @ values, z_trace=block.head_out[head, i]
    )


@dataclass(frozen=True)
class RowChange:
    position: int
    token_a: str | None  # None: the first sentence is shorter
    token_b: str | None
    input_diff: float | None  # max |Δ| of the block's input row (None if a row is missing)
    q_diff: float | None
    k_diff: float | None
    v_diff: float | None

    @property
    def changed(self) -> bool | None:
        """Did this row of Q, K, V change? None when only one sentence has this position."""
        if self.q_diff is None:
            return None
        return max(self.q_diff, self.k_diff or 0.0, self.v_diff or 0.0) > 1e-12


def compare_rows(a: Trace, b: Trace, layer: int = 0) -> list[RowChange]:
    """Row by row, how Q, K, V of block ``layer`` differ between two runs of one model.

    Both traces must come from the same configuration (so the same W^Q, W^K, W^V)."""
    if a.config != b.config:
        raise ValueError("compare two runs of the same model: the configurations differ")
    blk_a, blk_b = a.blocks[layer], b.blocks[layer]
    rows = []
    for p in range(max(a.n, b.n)):
        both = p < a.n and p < b.n

        def diff(x: np.ndarray, y: np.ndarray, p: int = p, both: bool = both) -> float | None:
            return float(np.max(np.abs(x[p] - y[p]))) if both else None

        rows.append(
            RowChange(
                position=p,
                token_a=a.tokens[p] if p < a.n else None,
                token_b=b.tokens[p] if p < b.n else None,
                input_diff=diff(blk_a.attn_in, blk_b.attn_in),
                q_diff=diff(blk_a.Q, blk_b.Q),
                k_diff=diff(blk_a.K, blk_b.K),
                v_diff=diff(blk_a.V, blk_b.V),
            )
        )
    return rows


#: The word ``one_word_changed`` puts in, and the one it uses where that word already stands.
SWAP = ("cat", "dog")
_LAST_WORD = re.compile(r"[A-Za-z]+(?=[^A-Za-z]*$)")  # the last run of Latin letters


#: The character put in for the last Chinese character, and the one used where it already is.
SWAP_CJK = ("猫", "狗")
_LAST_CJK = re.compile(r"[\u3400-\u9fff](?=[^\u3400-\u9fff]*$)")


_LAST_NUMBER = re.compile(r"\d+(?=\D*$)")  # the last run of digits
_LAST_SYMBOL = re.compile(r"\S(?=\s*$)")  # the last character that is not a space


def one_word_changed(text: str) -> str:
    """``text`` with its last (Latin-letter) word replaced by "cat" ("dog" if it already is
    "cat"), so every other token keeps its place: "Tom loves his dog" → "Tom loves his cat".
    A text without one has its last Chinese character swapped instead (我爱我的狗 → 我爱我的猫:
    the toy reads a character a token), else its last number made one more ("1, 2, 3, 4," →
    "1, 2, 3, 5,"), else its last symbol replaced by "cat"; only an empty text gets "cat"."""
    match = _LAST_WORD.search(text)
    if match is None:
        cjk = _LAST_CJK.search(text)
        if cjk is not None:
            char = SWAP_CJK[1] if cjk.group() == SWAP_CJK[0] else SWAP_CJK[0]
            return text[: cjk.start()] + char + text[cjk.end() :]
        if (number := _LAST_NUMBER.search(text)) is not None:
            bigger = str(int(number.group()) + 1)
            return text[: number.start()] + bigger + text[number.end() :]
        if (symbol := _LAST_SYMBOL.search(text)) is not None:
            return text[: symbol.start()] + SWAP[0] + text[symbol.end() :]
        return SWAP[0]
    word = SWAP[1] if match.group().lower() == SWAP[0] else SWAP[0]
    return text[: match.start()] + word + text[match.end() :]
