"""The Positions page's math: sinusoidal encodings, the shuffled-words experiment, cosine matrices.

Self-attention mixes rows by content only, so without positions shuffling the words only shuffles
the output rows (permutation equivariance): MHA(PX) = P·MHA(X), and the FFN, residuals and LayerNorm
act row by row, so the whole block keeps that property. Adding PE breaks it, which is the point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.toy import Trace, positional_encoding, tokenize

#: The sinusoid's base, 10000 in PE(pos, 2i) = sin(pos / 10000^(2i / d_model)).
BASE = 10000.0

#: Rounding error of the toy block in float64, relative to the size of its outputs: sums of a few
#: hundred terms in another order differ by ~1e-15, a real change by 1e-3 or more, so 1e-9 keeps
#: the two far apart whatever the sentence's length.
ROUNDING = 1e-9


def pe_angle(pos: int, column: int, d_model: int) -> float:
    """The angle pos / 10000^(2i/d_model) of PE column ``column`` (2i or 2i+1 share it)."""
    two_i = column - column % 2
    return pos / BASE ** (two_i / d_model)


def pe_value(pos: int, column: int, d_model: int) -> float:
    """One entry of the PE matrix from the formula: sin for even columns, cos for odd ones."""
    angle = pe_angle(pos, column, d_model)
    return math.sin(angle) if column % 2 == 0 else math.cos(angle)


def wavelength(column: int, d_model: int) -> float:
    """Positions per full turn of column ``column``: 2π · 10000^(2i/d_model), from 2π to ~2π·10⁴."""
    two_i = column - column % 2
    return 2 * math.pi * BASE ** (two_i / d_model)


def seeded_permutation(n: int, seed: int) -> np.ndarray:
    """A permutation of range(n) drawn from ``seed``; never the identity when n > 1 (a shuffle that
    changes nothing would prove nothing)."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)
    if n > 1 and np.array_equal(perm, np.arange(n)):
        perm = np.roll(perm, 1)
    return perm


def permutation_matrix(perm: np.ndarray) -> np.ndarray:
    """P with P[i, perm[i]] = 1, so (P X)[i] = X[perm[i]]: [n, n]."""
    n = len(perm)
    p = np.zeros((n, n))
    p[np.arange(n), perm] = 1.0
    return p


def shuffled_text(tokens: list[str], perm: np.ndarray) -> str:
    """The tokens in the order ``perm``, joined by spaces: tokenizes back to exactly those tokens
    (word tokens never absorb a neighbour across a space): the model sees the shuffled sentence."""
    text = " ".join(tokens[int(p)] for p in perm)
    if tokenize(text) != [tokens[int(p)] for p in perm]:  # a guard, not an expected path
        raise ValueError("the shuffled tokens do not tokenize back to themselves")
    return text


@dataclass(frozen=True)
class ShuffleResult:
    """One sentence and its shuffle through the same model (positions on or off)."""

    perm: np.ndarray  # [n] shuffled position i holds original token perm[i]
    out: np.ndarray  # [n, d_model] the original sentence's outputs
    out_shuffled: np.ndarray  # [n, d_model] the shuffled sentence's outputs
    permuted_out: np.ndarray  # [n, d_model] P · out: the original outputs, rows reordered

    @property
    def difference(self) -> np.ndarray:
        """[n, d_model] out_shuffled − P · out: zero (to rounding) exactly when equivariant."""
        return self.out_shuffled - self.permuted_out

    @property
    def max_difference(self) -> float:
        return float(np.max(np.abs(self.difference), initial=0.0))

    def row_differences(self) -> np.ndarray:
        """[n] the largest |difference| of each shuffled row."""
        return np.max(np.abs(self.difference), axis=1)

    @property
    def within_rounding(self) -> bool:
        """Whether the outputs are the same rows reordered, up to float64 rounding
        (``ROUNDING`` of the outputs' size): the layer was permutation-equivariant here."""
        scale = max(1.0, float(np.max(np.abs(self.out), initial=0.0)))
        return self.max_difference <= ROUNDING * scale


def compare_shuffle(original: Trace, shuffled: Trace, perm: np.ndarray) -> ShuffleResult:
    """Lines up the two traces' outputs: out_shuffled against P · out."""
    expected_tokens = [original.tokens[int(p)] for p in perm]
    if shuffled.tokens != expected_tokens:
        raise ValueError("the shuffled trace is not the original's tokens in the order perm")
    out = original.output
    return ShuffleResult(
        perm=perm,
        out=out,
        out_shuffled=shuffled.output,
        permuted_out=permutation_matrix(perm) @ out,  # (n, n) @ (n, d_model) → (n, d_model)
    )


def cosine_matrix(rows: np.ndarray) -> np.ndarray:
    """[m, m] cosine similarity of every pair of rows of ``rows`` [m, d] (zero rows give 0)."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)  # (m, 1)
    unit = np.divide(rows, norms, out=np.zeros_like(rows, dtype=float), where=norms > 0)
    return unit @ unit.T


def sinusoidal_cosines(n: int, d_model: int) -> np.ndarray:
    """[n, n] cosines between the sinusoidal PE rows: depends (almost) only on the distance."""
    return cosine_matrix(positional_encoding(n, d_model))


def mean_cosine_by_distance(cosines: np.ndarray) -> np.ndarray:
    """[m] the mean of each diagonal k = 0..m−1 of a square cosine matrix: cosine by distance."""
    m = cosines.shape[0]
    return np.array([float(np.mean(np.diagonal(cosines, offset=k))) for k in range(m)])
