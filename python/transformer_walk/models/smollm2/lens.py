"""What each layer would say: the logit lens, read from the scores of every residual stream.

The model's last step reads the residual stream after all L layers through the final RMSNorm
and the output layer. The logit lens applies the same two steps to the stream after l layers,
l = 0 … L (0: the embeddings alone), as if the model stopped there. Intermediate layers were
never trained to be read this way, so an early layer's "prediction" says what that stream
already points to, not what the layer means (the lens is a reading, not the model's mechanism).

These are the NumPy steps on rows of scores [rows, V]; ``SmolLM2.lens`` computes the scores
(``SmolLM2.read_out``) a block of rows at a time, so that all of them never sit in memory at
once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def best_first(logits: np.ndarray, k: int) -> np.ndarray:
    """The ids of the ``k`` best-scored tokens of each row of ``logits`` [n, V], best first,
    equal scores by lower id: [n, k] int64."""
    n, vocab = logits.shape
    if k >= vocab:
        top = np.broadcast_to(np.arange(vocab), (n, vocab))
    else:
        top = np.argpartition(-logits, k - 1, axis=-1)[:, :k]  # [n, k], unordered
    out = np.empty((n, min(k, vocab)), np.int64)
    for row in range(n):  # lexsort sorts by the last key first: the score, then the id
        ids = top[row]
        out[row] = ids[np.lexsort((ids, -logits[row, ids]))]
    return out


def ranks(logits: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """Where ``tokens`` [n] stand in the rows of ``logits`` [n, V] in ``best_first``'s order
    (0: the best): the tokens scored higher, plus those scored the same with a lower id."""
    rows = np.arange(len(tokens))
    score = logits[rows, tokens][:, None]  # [n, 1]
    ids = np.arange(logits.shape[-1])
    tied_before = (logits == score) & (ids[None, :] < tokens[:, None])
    return ((logits > score) | tied_before).sum(axis=-1).astype(np.int64)


@dataclass(frozen=True)
class Reading:
    """Rows of residual streams read through the final norm and the output layer."""

    top_ids: np.ndarray  # [rows, k] int64, best first
    top_probs: np.ndarray  # [rows, k] float64
    chosen_rank: np.ndarray  # [rows] int64: where the model's own choice stands (0: the top)
    chosen_prob: np.ndarray  # [rows] float64: its probability


def read_rows(logits: np.ndarray, probs: np.ndarray, k: int, chosen: np.ndarray) -> Reading:
    """``logits`` [rows, V] and their softmax ``probs`` (float64) → the top ``k`` of each row
    and where ``chosen`` [rows] stands in it. Probabilities stay float64: in float32 a top
    probability of 1 − 1e-9 would read exactly 1."""
    top = best_first(logits, k)  # [rows, k]
    rows = np.arange(logits.shape[0])
    return Reading(
        top_ids=top,
        top_probs=np.take_along_axis(probs, top, axis=-1),
        chosen_rank=ranks(logits, chosen),
        chosen_prob=probs[rows, chosen],
    )


def joined(parts: list[Reading]) -> Reading:
    """Readings of consecutive row blocks as one."""
    return Reading(
        *(np.concatenate([getattr(r, f) for r in parts]) for f in Reading.__dataclass_fields__)
    )


@dataclass(frozen=True)
class LogitLens:
    """``SmolLM2.lens``: the residual streams l = 0 … L read at the chosen positions.

    Row L is the model's own reading: its top ids and probabilities are those of its logits."""

    text: str
    tokens: list[str]  # [n] every token's text
    ids: np.ndarray  # [n] int64
    positions: np.ndarray  # [m] int64: the positions read, in order
    top_ids: np.ndarray  # [L + 1, m, k] int64, best first (equal scores: lower id first)
    top_probs: np.ndarray  # [L + 1, m, k] float64
    chosen: np.ndarray  # [m] int64: the model's own top-1 after each position read
    chosen_rank: np.ndarray  # [L + 1, m] int64: its rank at each layer (0: the top)
    chosen_prob: np.ndarray  # [L + 1, m] float64: its probability at each layer

    @classmethod
    def of(
        cls, text: str, tokens: list[str], ids: np.ndarray, positions: np.ndarray,
        inner: Reading, last: Reading,
    ) -> LogitLens:  # fmt: skip
        """``inner``: layers 0 … L − 1's rows, layer by layer ([L·m] rows); ``last``: layer L's
        ([m] rows), whose top-1 is the model's choice."""
        m = len(positions)

        def layers(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            # [L·m, …] → [L, m, …], then layer L's [m, …] after them → [L + 1, m, …]
            return np.concatenate([a.reshape(-1, m, *a.shape[1:]), b[None]])

        return cls(
            text=text, tokens=tokens, ids=ids, positions=positions,
            top_ids=layers(inner.top_ids, last.top_ids),
            top_probs=layers(inner.top_probs, last.top_probs),
            chosen=last.top_ids[:, 0],
            chosen_rank=layers(inner.chosen_rank, last.chosen_rank),
            chosen_prob=layers(inner.chosen_prob, last.chosen_prob),
        )  # fmt: skip

    def first_top(self, column: int) -> int:
        """The first layer from which the model's choice at ``positions[column]`` stays the top
        token up to the last (L at the latest, since the choice is layer L's top)."""
        rank = self.chosen_rank[:, column]
        above = np.flatnonzero(rank != 0)  # layers where it is not the top
        return 0 if above.size == 0 else int(above[-1]) + 1
