"""One-hot vectors, measured: their memory, their (lack of) geometry, and one-hot @ E vs a lookup.

x_i = (0, …, 0, 1, 0, …, 0) ∈ R^{|V|} has a single 1, at the token's id. Three facts follow, and
this module computes each of them rather than asserting it:

- memory: n tokens take n × |V| numbers, almost all zeros;
- no geometry: two different one-hot vectors are orthogonal, so every pair of different words has
  cosine similarity 0 (cat–dog exactly as unlike as cat–computer);
- e_i = x_iᵀ E picks row i of E, so ``one_hot(ids) @ E`` equals ``embedding_lookup(E, ids)`` —
  at the price of n × |V| × d multiply-adds where the lookup copies n × d numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

FLOAT32_BYTES = 4
# Realistic vocabularies to compare the toy's with: the example of “From word vectors to
# Transformer” and MiniLM's WordPiece.
REALISTIC_VOCABULARIES: tuple[tuple[str, int], ...] = (("article", 50_000), ("minilm", 30_522))


def one_hot_bytes(n: int, vocab_size: int, itemsize: int = FLOAT32_BYTES) -> int:
    """Memory of n one-hot rows of width |V|: n × |V| × itemsize bytes."""
    return n * vocab_size * itemsize


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """cos(u, v) = u·v / (‖u‖ ‖v‖) for every pair of rows of ``vectors`` [m, D] → [m, m]."""
    x = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(x, axis=1)  # (m,)
    dots = x @ x.T  # (m, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        cos = dots / np.outer(norms, norms)
    return np.nan_to_num(cos, nan=0.0)  # a zero row is similar to nothing


def first_occurrences(tokens: Sequence[str]) -> list[int]:
    """Positions of each distinct token's first appearance, in sentence order."""
    seen: dict[str, int] = {}
    for position, token in enumerate(tokens):
        seen.setdefault(token, position)
    return list(seen.values())


def max_off_diagonal(matrix: np.ndarray) -> float:
    m = np.asarray(matrix, dtype=np.float64)
    if m.shape[0] < 2:
        return 0.0
    return float(np.abs(m[~np.eye(m.shape[0], dtype=bool)]).max())
