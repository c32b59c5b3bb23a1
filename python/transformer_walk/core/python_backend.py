"""The ``"python"`` backend: the rust_core API computed with Python floats, lists and ``math``.

This is the slow, obviously-correct lane: the arithmetic is plain loops over Python lists that a
learner can read line by line next to docs/api.md. NumPy is used only at the edges — to read
and validate the inputs (``contract``), to turn them into nested lists (``tolist``), and to
build the result array (``np.array(..., dtype=...)`` and ``reshape``). Python floats are IEEE
doubles, so float32 inputs are computed in double precision and rounded once, at the end.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from transformer_walk.core import contract

_threads = contract.ThreadCount()


def _to_array(values: list[Any], dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """Build the result: nested lists of Python floats → a new C-contiguous array."""
    return np.array(values, dtype=dtype).reshape(shape)


def embedding_lookup(table: Any, ids: Any) -> np.ndarray:
    """Rows ``ids`` of ``table`` [V, d] → ``[*ids.shape, d]``."""
    table, ids = contract.validate_embedding_lookup(table, ids)
    d = table.shape[1]
    # Only the rows asked for cross the edge into Python lists: converting all of a
    # 30,522 × 384 table would cost half a second and half a gigabyte for three ids.
    picked = [table[i].tolist() for i in ids.reshape(-1).tolist()]
    return _to_array(picked, table.dtype, (*ids.shape, d))


def one_hot(ids: Any, vocab_size: int, dtype: Any = np.float32) -> np.ndarray:
    """``[*ids.shape, vocab_size]`` with a single 1 per row, at column ``ids[...]``."""
    ids, vocab_size, dtype = contract.validate_one_hot(ids, vocab_size, dtype)
    rows = []
    for i in ids.reshape(-1).tolist():
        row = [0.0] * vocab_size
        row[i] = 1.0
        rows.append(row)
    return _to_array(rows, dtype, (*ids.shape, vocab_size))


def _softmax_slice(xs: list[float]) -> list[float]:
    """docs/api.md's softmax of one slice, step by step.

    1. an empty slice stays empty; 2. any NaN makes the whole slice NaN; 3. if the maximum is
    -inf (every entry is -inf) the slice is all zeros; 4. otherwise exp(x - max), divided by
    the sum. Subtracting the maximum keeps every exponent <= 0, so math.exp never overflows
    (and a +inf entry gives inf - inf = NaN, as the contract says).
    """
    if not xs:
        return []
    if any(math.isnan(x) for x in xs):
        return [math.nan] * len(xs)
    mx = max(xs)
    if mx == -math.inf:
        return [0.0] * len(xs)
    es = [math.exp(x - mx) for x in xs]
    total = sum(es)
    return [e / total for e in es]


def softmax(x: Any, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax of ``x`` along ``axis``; same shape and dtype as ``x``."""
    x, axis = contract.validate_softmax(x, axis)
    # Edge: move the axis last and flatten to a list of slices (layout only, no arithmetic).
    moved = np.moveaxis(x, axis, -1)
    length = moved.shape[-1]
    count = math.prod(moved.shape[:-1])
    slices = moved.reshape(count, length).tolist()
    result = _to_array([_softmax_slice(s) for s in slices], x.dtype, moved.shape)
    return np.ascontiguousarray(np.moveaxis(result, -1, axis))


def _dot(a: list[float], b: list[float]) -> float:
    """Σ a_t b_t over Python floats (0.0 for empty vectors, i.e. d_k = 0)."""
    return sum((x * y for x, y in zip(a, b, strict=True)), 0.0)


def _weight_rows(a: contract.AttentionInputs) -> list[list[list[float]]]:
    """The attention weights as nested lists [batch][i][j], batch = the flattened leading dims.

    For each query i and key j: s_ij = (q_i · k_j) · scale + mask_ij, where a bool mask adds
    0 (True) or -inf (False) and a float mask adds its value; causal then *sets* s_ij = -inf
    for j > i. Each row is then softmax-ed by ``_softmax_slice``.
    """
    batch = math.prod(a.lead)
    qs = a.q.reshape(batch, a.n, a.d_k).tolist()
    ks = a.k.reshape(batch, a.m, a.d_k).tolist()
    masks = None
    if a.mask is not None:
        # Edge: broadcast the mask to the scores' shape (stride tricks only, no arithmetic).
        masks = np.broadcast_to(a.mask, a.scores_shape).reshape(batch, a.n, a.m).tolist()
    weights = []
    for b in range(batch):
        rows = []
        for i in range(a.n):
            scores = []
            for j in range(a.m):
                s = _dot(qs[b][i], ks[b][j]) * a.scale
                if masks is not None:
                    mask_ij = masks[b][i][j]
                    if isinstance(mask_ij, bool):
                        mask_ij = 0.0 if mask_ij else -math.inf
                    s = s + mask_ij
                if a.causal and j > i:
                    s = -math.inf
                scores.append(s)
            rows.append(_softmax_slice(scores))
        weights.append(rows)
    return weights


def attention_weights(
    q: Any, k: Any, *, mask: Any = None, causal: bool = False, scale: float | None = None
) -> np.ndarray:
    """The [..., n, m] attention probabilities softmax(q kᵀ · scale + mask)."""
    a = contract.validate_attention(q, k, None, mask, causal, scale, with_v=False)
    return _to_array(_weight_rows(a), a.dtype, a.scores_shape)


def _weighted_sums(a: contract.AttentionInputs, weights: list[list[list[float]]]) -> np.ndarray:
    """z_i = Σ_j a_ij v_j for every query, from the weights of ``_weight_rows``, → [..., n, d_v]."""
    assert a.v is not None
    batch = math.prod(a.lead)
    d_v = a.v.shape[-1]
    vs = a.v.reshape(batch, a.m, d_v).tolist()
    out = []
    for b, rows in enumerate(weights):
        z_rows = []
        for row in rows:
            if all(w == 0.0 for w in row):
                # A query that may attend to nothing outputs zeros (even for an inf or NaN v,
                # where 0 * v would be NaN).
                z_rows.append([0.0] * d_v)
            else:
                z_rows.append(
                    [sum((w * vs[b][j][t] for j, w in enumerate(row)), 0.0) for t in range(d_v)]
                )
        out.append(z_rows)
    return _to_array(out, a.dtype, (*a.lead, a.n, d_v))


def attention(
    q: Any,
    k: Any,
    v: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> np.ndarray:
    """Scaled dot-product attention: z_i = Σ_j a_ij v_j → [..., n, d_v]."""
    a = contract.validate_attention(q, k, v, mask, causal, scale, with_v=True)
    return _weighted_sums(a, _weight_rows(a))


def attention_with_weights(
    q: Any,
    k: Any,
    v: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(attention(...), attention_weights(...))`` from one computation of the weights."""
    a = contract.validate_attention(q, k, v, mask, causal, scale, with_v=True, with_weights=True)
    weights = _weight_rows(a)
    return _weighted_sums(a, weights), _to_array(weights, a.dtype, a.scores_shape)


def linear(x: Any, weight: Any, bias: Any = None) -> np.ndarray:
    """``x · weightᵀ + bias``: x [..., in], weight [out, in] → [..., out], row by row."""
    x, weight, bias = contract.validate_linear(x, weight, bias)
    lead, n_out = x.shape[:-1], weight.shape[0]
    w_rows = weight.tolist()  # out rows of length in
    b = bias.tolist() if bias is not None else [0.0] * n_out
    x_rows = x.reshape(math.prod(lead), x.shape[-1]).tolist()  # (..., in) → (rows, in)
    out = [[_dot(row, w) + b_o for w, b_o in zip(w_rows, b, strict=True)] for row in x_rows]
    return _to_array(out, x.dtype, (*lead, n_out))


def layer_norm(x: Any, gamma: Any, beta: Any, eps: float = 1e-5) -> np.ndarray:
    """``(x − mean) / √(var + eps) · gamma + beta`` over each row (biased variance)."""
    x, gamma, beta, eps = contract.validate_layer_norm(x, gamma, beta, eps)
    d = x.shape[-1]
    if d == 0:
        return np.zeros(x.shape, dtype=x.dtype)
    g, b = gamma.tolist(), beta.tolist()
    out = []
    for row in x.reshape(-1, d).tolist():
        mean = math.fsum(row) / d
        var = math.fsum((v - mean) ** 2 for v in row) / d
        root = math.sqrt(var + eps)
        # eps = 0 and a constant row: 1/0. IEEE (and the other backends) say inf, and then
        # 0 · inf = NaN for every entry; Python's float division would raise instead.
        inv = 1.0 / root if root else math.inf
        out.append([(v - mean) * inv * g_j + b_j for v, g_j, b_j in zip(row, g, b, strict=True)])
    return _to_array(out, x.dtype, x.shape)


def gelu(x: Any) -> np.ndarray:
    """``0.5 · x · (1 + erf(x / √2))`` for every element."""
    x = contract.validate_gelu(x)
    values = [0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in x.reshape(-1).tolist()]
    return _to_array(values, x.dtype, x.shape)


def set_num_threads(n: int) -> None:
    """Set the thread count this backend reports (it always computes on one thread)."""
    _threads.set(n)


def get_num_threads() -> int:
    """The thread count set by ``set_num_threads``, or the default (see ``contract``)."""
    return _threads.get()


__all__ = [
    "attention",
    "attention_weights",
    "attention_with_weights",
    "embedding_lookup",
    "gelu",
    "get_num_threads",
    "layer_norm",
    "linear",
    "one_hot",
    "set_num_threads",
    "softmax",
]
