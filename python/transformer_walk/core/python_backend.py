"""The ``"python"`` backend: the rust_core API computed with Python floats, lists and ``math``.

This is the slow, obviously-correct lane: the arithmetic is plain loops over Python lists that a
learner can read line by line next to docs/api.md. NumPy is used only at the edges — to read
and validate the inputs (``contract``), to turn them into nested lists (``tolist``), and to
build the result array (``np.array(..., dtype=...)`` and ``reshape``), or, for ``adamw_step``,
to write the new values back into the caller's arrays. Python floats are IEEE doubles, so float32
inputs are computed in double precision and rounded once, at the end (``adamw_step`` rounds every
operation instead, to give float32's own bits).
"""

from __future__ import annotations

import math
import struct
from contextlib import AbstractContextManager
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
    # k [batch / group, m, d_k]: query batch b (head j) reads key/value batch b // group (head
    # j // group), grouped-query attention without copying the shared heads.
    ks = a.k.reshape(batch // a.group, a.m, a.d_k).tolist()
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
                s = _dot(qs[b][i], ks[b // a.group][j]) * a.scale
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
    vs = a.v.reshape(batch // a.group, a.m, d_v).tolist()
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
                    [
                        sum((w * vs[b // a.group][j][t] for j, w in enumerate(row)), 0.0)
                        for t in range(d_v)
                    ]
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


def linear(x: Any, weight: Any, bias: Any = None, *, weight_t: Any = None) -> np.ndarray:
    """``x · weightᵀ + bias``: x [..., in], weight [out, in] → [..., out], row by row.
    ``weight_t`` (weight's transpose, for rust_core's products) is checked, not read."""
    x, weight, bias = contract.validate_linear(x, weight, bias, weight_t)
    lead, n_out = x.shape[:-1], weight.shape[0]
    w_rows = weight.tolist()  # out rows of length in
    b = bias.tolist() if bias is not None else [0.0] * n_out
    x_rows = x.reshape(math.prod(lead), x.shape[-1]).tolist()  # (..., in) → (rows, in)
    out = [[_dot(row, w) + b_o for w, b_o in zip(w_rows, b, strict=True)] for row in x_rows]
    return _to_array(out, x.dtype, (*lead, n_out))


def half_linear(x: Any, weight: Any, bias: Any = None) -> np.ndarray:
    """``x · float32(weight)ᵀ + bias`` for a float16 weight [out, in], row by row in Python floats
    (each float16 is one exactly)."""
    x, weight, bias = contract.validate_half_linear(x, weight, bias)
    return linear(x, weight.astype(np.float32), bias)


def layer_norm(
    x: Any, gamma: Any, beta: Any, eps: float = 1e-5, *, residual: Any = None
) -> np.ndarray:
    """``(x − mean) / √(var + eps) · gamma + beta`` over each row (biased variance), of x +
    residual when given (the sum in x's dtype)."""
    x, gamma, beta, eps = contract.validate_layer_norm(x, gamma, beta, eps, residual)
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


def gelu(x: Any, *, bias: Any = None) -> np.ndarray:
    """``0.5 · z · (1 + erf(z / √2))`` for every element of z = x (+ bias along the rows, in x's
    dtype)."""
    x = contract.validate_gelu(x, bias)  # x + bias, when given
    values = [0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in x.reshape(-1).tolist()]
    return _to_array(values, x.dtype, x.shape)


def rms_norm(x: Any, weight: Any, eps: float = 1e-5) -> np.ndarray:
    """``x / √(mean(x²) + eps) · weight`` over each row."""
    x, weight, eps = contract.validate_rms_norm(x, weight, eps)
    d = x.shape[-1]
    if d == 0:
        return np.zeros(x.shape, dtype=x.dtype)
    w = weight.tolist()
    out = []
    for row in x.reshape(-1, d).tolist():
        root = math.sqrt(math.fsum(v * v for v in row) / d + eps)
        # eps = 0 and a row of zeros: 1/0, which IEEE (and the other backends) call inf.
        inv = 1.0 / root if root else math.inf
        out.append([v * inv * w_j for v, w_j in zip(row, w, strict=True)])
    return _to_array(out, x.dtype, x.shape)


def _silu(v: float) -> float:
    """v · σ(v) from e = exp(−|v|) ≤ 1 (no overflow); silu(−inf) = −0.0, its limit."""
    if v == -math.inf:
        return -0.0
    e = math.exp(-abs(v)) if not math.isnan(v) else math.nan
    return (v if v >= 0 else v * e) / (1.0 + e)


def silu(x: Any) -> np.ndarray:
    """``x · σ(x)`` for every element."""
    x = contract.validate_silu(x)
    return _to_array([_silu(v) for v in x.reshape(-1).tolist()], x.dtype, x.shape)


def swiglu(gate: Any, up: Any) -> np.ndarray:
    """``silu(gate) · up`` for every pair of elements."""
    gate, up = contract.validate_swiglu(gate, up)
    pairs = zip(gate.reshape(-1).tolist(), up.reshape(-1).tolist(), strict=True)
    return _to_array([_silu(g) * u for g, u in pairs], gate.dtype, gate.shape)


def rope(x: Any, positions: Any, base: float = 10000.0) -> np.ndarray:
    """Rotate pair (a, b) = (x[2i], x[2i+1]) of row t by θ = positions[t] · base^(−2i/d):
    (a cos θ − b sin θ, a sin θ + b cos θ)."""
    x, positions, base = contract.validate_rope(x, positions, base)
    n, d = x.shape[-2], x.shape[-1]
    freqs = [base ** (-(2 * i) / d) for i in range(d // 2)]
    angles = [[(math.cos(p * f), math.sin(p * f)) for f in freqs] for p in positions.tolist()]
    out = []
    for r, row in enumerate(x.reshape(-1, d).tolist() if d else [[]] * math.prod(x.shape[:-1])):
        rotated = []
        for (a, b), (c, s) in zip(
            zip(row[0::2], row[1::2], strict=True), angles[r % n], strict=True
        ):
            rotated += [a * c - b * s, a * s + b * c]
        out.append(rotated)
    return _to_array(out, x.dtype, x.shape)


def _half(bits: int) -> float:
    """An IEEE half-precision number, from its 16 bits: sign, 5-bit exponent, 10-bit fraction."""
    sign = -1.0 if bits >> 15 else 1.0
    exponent, fraction = (bits >> 10) & 0x1F, bits & 0x3FF
    if exponent == 0x1F:
        return sign * math.inf if fraction == 0 else math.nan
    if exponent == 0:  # zero or subnormal: fraction · 2^−24
        return sign * math.ldexp(fraction, -24)
    return sign * math.ldexp(1024 + fraction, exponent - 25)


def _block_values(kind: str, block: list[int]) -> list[float]:
    """The 32 values of one GGML block (its bytes, little-endian): Q8_0 = d · q; Q4_1 =
    d · nibble + m, the low nibbles first, then the high ones."""
    d = _half(block[0] | block[1] << 8)
    if kind == "q8_0":
        return [d * (q - 256 if q >= 128 else q) for q in block[2:34]]
    m = _half(block[2] | block[3] << 8)
    qs = block[4:20]
    # d · q + m is exact in a Python float (two halves' products and sums span at most 51 bits),
    # so rounding it to float32 at the end gives exactly float32's d · q + m.
    return [d * (q & 0x0F) + m for q in qs] + [d * (q >> 4) + m for q in qs]


def _dequantized_rows(data: np.ndarray, kind: str, k: int) -> list[list[float]]:
    """The rows of k values that ``data`` holds, block by block."""
    block_bytes = contract.QUANT_BLOCK_BYTES[kind]
    raw = data.reshape(-1).tolist()  # edge: the bytes as a list of ints
    values: list[float] = []
    for start in range(0, len(raw), block_bytes):
        values += _block_values(kind, raw[start : start + block_bytes])
    return [values[r : r + k] for r in range(0, len(values), k)] if k else []


def dequantize(data: Any, kind: str, shape: Any) -> np.ndarray:
    """The float32 array of ``shape`` that the GGML blocks in ``data`` hold."""
    data, kind, shape = contract.validate_dequantize(data, kind, shape)
    return _to_array(_dequantized_rows(data, kind, shape[-1]), np.dtype(np.float32), shape)


def _f32(v: float) -> float:
    """``v`` rounded to the nearest float32 (ties to even), as a Python float."""
    return float(struct.unpack("<f", struct.pack("<f", v))[0])


def _rounded_activations(row: list[float]) -> list[float]:
    """x̂: each block of 32 values of ``row`` rounded to 16 bits — d = max|x| / 32767 and
    x̂ = d · round(x / d) (ties to even), d and x / d rounded to float32 as the other backends
    compute them; a block holding NaN or ±inf all NaN. d · q is kept exact (the others round it
    to float32 in their float products: half an ulp, inside the product's bound)."""
    out: list[float] = []
    levels = contract.ACTIVATION_LEVELS
    for start in range(0, len(row), contract.QUANT_BLOCK):
        block = row[start : start + contract.QUANT_BLOCK]
        if not all(math.isfinite(v) for v in block):
            out += [math.nan] * len(block)
            continue
        d = _f32(max(abs(v) for v in block) / levels)
        if d > 0:  # d · q is exact in a Python float (24 bits times 16)
            out += [d * round(min(max(_f32(v / d), -levels), levels)) for v in block]
        else:
            out += [0.0] * len(block)
    return out


def quantized_linear(x: Any, data: Any, kind: str, shape: Any) -> np.ndarray:
    """``x̂ · Wᵀ`` with W = dequantize(data, kind, shape) [out, in] and x̂ = x rounded to 16 bits per
    block of 32, row by row (in Python floats, where the other backends round each product's
    terms to float32: a difference of at most a few ε · Σ|x̂||w|)."""
    x, data, kind, shape = contract.validate_quantized_linear(x, data, kind, shape)
    n_out, d_in = shape
    w_rows = _dequantized_rows(data, kind, d_in) if n_out and d_in else [[]] * n_out
    lead = x.shape[:-1]
    x_rows = x.reshape(math.prod(lead), d_in).tolist()  # (..., in) → (rows, in)
    x_hat = [_rounded_activations(row) for row in x_rows]
    out = [[_dot(row, w) for w in w_rows] for row in x_hat]
    return _to_array(out, np.dtype(np.float32), (*lead, n_out))


def _softplus(x: float) -> float:
    """log(1 + eˣ) without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _sigmoid(x: float) -> float:
    """σ(x) = 1 / (1 + e⁻ˣ) without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def skipgram_sgd(
    table: Any, output_table: Any, pairs: Any, learning_rates: Any, batch_size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """word2vec's skip-gram SGD: each step takes the next ``batch_size`` rows [c, o, n_1 … n_k] of
    ``pairs``, sums every pair's gradient of softplus(−u_o·e_c) + Σ_j softplus(u_nj·e_c) from the
    vectors as they were, then moves E and U by −rate × those sums. → (E, U, each step's loss)."""
    table, output_table, pairs, learning_rates, batch_size = contract.validate_skipgram_sgd(
        table, output_table, pairs, learning_rates, batch_size
    )
    E, U, rows = table.tolist(), output_table.tolist(), pairs.tolist()
    d = table.shape[1]
    losses = []
    for step, rate in enumerate(learning_rates.tolist()):
        batch = rows[step * batch_size : (step + 1) * batch_size]
        grad_e: list[list[float]] = []  # one per row of the batch, for its centre
        grad_u: dict[int, list[float]] = {}  # per output vector the batch touched
        loss = 0.0
        for c, *targets in batch:
            e = E[c]
            g = [0.0] * d
            for j, t in enumerate(targets):
                s = sum(a * b for a, b in zip(e, U[t], strict=True))
                if j == 0:  # the context: ∂/∂s softplus(−s) = σ(s) − 1
                    loss, slope = loss + _softplus(-s), _sigmoid(s) - 1.0
                else:  # a negative: ∂/∂s softplus(s) = σ(s)
                    loss, slope = loss + _softplus(s), _sigmoid(s)
                g = [gi + slope * u for gi, u in zip(g, U[t], strict=True)]
                row = grad_u.setdefault(t, [0.0] * d)
                grad_u[t] = [gi + slope * x for gi, x in zip(row, e, strict=True)]
            grad_e.append(g)
        for (c, *_), g in zip(batch, grad_e, strict=True):
            E[c] = [w - rate * gi for w, gi in zip(E[c], g, strict=True)]
        for t, g in grad_u.items():
            U[t] = [w - rate * gi for w, gi in zip(U[t], g, strict=True)]
        losses.append(loss)
    return (
        _to_array(E, table.dtype, table.shape),
        _to_array(U, table.dtype, table.shape),
        _to_array(losses, table.dtype, (len(losses),)),
    )


# --- training -----------------------------------------------------------------------------------


def linear_backward(
    x: Any, weight: Any, grad_y: Any, *, bias: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Gradients of ``y = x · Wᵀ + b``, row by row: grad_x[r] = Σ_o grad_y[r, o] W[o],
    grad_W[o] = Σ_r grad_y[r, o] x[r], grad_b[o] = Σ_r grad_y[r, o]."""
    x, weight, grad_y = contract.validate_linear_backward(x, weight, grad_y)
    n_out, n_in = weight.shape
    w_rows = weight.tolist()  # out rows of length in
    rows = math.prod(x.shape[:-1])  # not reshape(-1, …): it cannot infer rows when in or out is 0
    x_rows = x.reshape(rows, n_in).tolist()  # (..., in) → (rows, in)
    g_rows = grad_y.reshape(rows, n_out).tolist()  # (..., out) → (rows, out)
    w_cols = [list(col) for col in zip(*w_rows, strict=True)] if n_out else [[]] * n_in
    grad_x = [[_dot(g, col) for col in w_cols] for g in g_rows]
    grad_w = [[0.0] * n_in for _ in range(n_out)]
    for g, row in zip(g_rows, x_rows, strict=True):
        for o, g_o in enumerate(g):
            grad_w[o] = [acc + g_o * v for acc, v in zip(grad_w[o], row, strict=True)]
    grad_b = [math.fsum(g[o] for g in g_rows) for o in range(n_out)] if bias else None
    return (
        _to_array(grad_x, x.dtype, x.shape),
        _to_array(grad_w, x.dtype, weight.shape),
        None if grad_b is None else _to_array(grad_b, x.dtype, (n_out,)),
    )


def _layer_norm_row_backward(
    row: list[float], dy: list[float], g: list[float], eps: float
) -> tuple[list[float], list[float]]:
    """One row of layer_norm's backward: (grad_x, x̂). With r = 1/√(var + eps), x̂ = (x − mean) · r
    and ĝ = grad_y · gamma, grad_x = r · (ĝ − mean(ĝ) − x̂ · mean(ĝ · x̂))."""
    d = len(row)
    mean = math.fsum(row) / d
    root = math.sqrt(math.fsum((v - mean) ** 2 for v in row) / d + eps)
    r = 1.0 / root if root else math.inf  # IEEE's 1/0, as in layer_norm
    x_hat = [(v - mean) * r for v in row]
    g_hat = [a * b for a, b in zip(dy, g, strict=True)]
    mean_g = math.fsum(g_hat) / d
    mean_gx = math.fsum(a * b for a, b in zip(g_hat, x_hat, strict=True)) / d
    grad = [r * (gh - mean_g - xh * mean_gx) for gh, xh in zip(g_hat, x_hat, strict=True)]
    return grad, x_hat


def layer_norm_backward(
    x: Any, gamma: Any, grad_y: Any, eps: float = 1e-5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradients of layer_norm, row by row: grad_x, then Σ grad_y · x̂ and Σ grad_y over the rows."""
    x, gamma, grad_y, eps = contract.validate_layer_norm_backward(x, gamma, grad_y, eps)
    d = x.shape[-1]
    if d == 0:
        return np.zeros(x.shape, dtype=x.dtype), *(np.zeros((0,), dtype=x.dtype),) * 2
    g = gamma.tolist()
    grad_x, grad_gamma, grad_beta = [], [0.0] * d, [0.0] * d
    for row, dy in zip(x.reshape(-1, d).tolist(), grad_y.reshape(-1, d).tolist(), strict=True):
        grad, x_hat = _layer_norm_row_backward(row, dy, g, eps)
        grad_x.append(grad)
        grad_gamma = [acc + a * b for acc, a, b in zip(grad_gamma, dy, x_hat, strict=True)]
        grad_beta = [acc + a for acc, a in zip(grad_beta, dy, strict=True)]
    return (
        _to_array(grad_x, x.dtype, x.shape),
        _to_array(grad_gamma, x.dtype, (d,)),
        _to_array(grad_beta, x.dtype, (d,)),
    )


def _gelu_slope(v: float) -> float:
    """GELU'(v) = Φ(v) + v · φ(v), Φ and φ the standard normal CDF and density."""
    cdf = 0.5 * (1.0 + math.erf(v / math.sqrt(2.0)))
    pdf = math.exp(-0.5 * v * v) / math.sqrt(2.0 * math.pi)
    return cdf + v * pdf


def gelu_backward(x: Any, grad_y: Any) -> np.ndarray:
    """``grad_y · (Φ(x) + x · φ(x))`` for every element."""
    x, grad_y = contract.validate_gelu_backward(x, grad_y)
    pairs = zip(x.reshape(-1).tolist(), grad_y.reshape(-1).tolist(), strict=True)
    return _to_array([g * _gelu_slope(v) for v, g in pairs], x.dtype, x.shape)


def relu_backward(x: Any, grad_y: Any) -> np.ndarray:
    """``grad_y`` where x > 0, else 0, for every element."""
    x, grad_y = contract.validate_gelu_backward(x, grad_y)
    pairs = zip(x.reshape(-1).tolist(), grad_y.reshape(-1).tolist(), strict=True)
    return _to_array([g if v > 0 else 0.0 for v, g in pairs], x.dtype, x.shape)


def _zeros(rows: int, cols: int) -> list[list[float]]:
    return [[0.0] * cols for _ in range(rows)]


def attention_backward(
    q: Any,
    k: Any,
    v: Any,
    grad_out: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradients of attention, query by query: with a_i the weights and dp_ij = grad_out_i · v_j,
    ds_ij = a_ij (dp_ij − Σ_j' a_ij' dp_ij'); grad_q_i = scale Σ_j ds_ij k_j,
    grad_k_j += scale · ds_ij q_i and grad_v_j += a_ij grad_out_i (into the shared key/value head
    with grouped-query attention)."""
    a, grad_out = contract.validate_attention_backward(q, k, v, grad_out, mask, causal, scale)
    assert a.v is not None
    batch, d_v = math.prod(a.lead), a.v.shape[-1]
    qs = a.q.reshape(batch, a.n, a.d_k).tolist()
    ks = a.k.reshape(batch // a.group, a.m, a.d_k).tolist()
    vs = a.v.reshape(batch // a.group, a.m, d_v).tolist()
    dzs = grad_out.reshape(batch, a.n, d_v).tolist()
    grad_q = [_zeros(a.n, a.d_k) for _ in range(batch)]
    grad_k = [_zeros(a.m, a.d_k) for _ in range(batch // a.group)]
    grad_v = [_zeros(a.m, d_v) for _ in range(batch // a.group)]
    for b, rows in enumerate(_weight_rows(a)):
        kv = b // a.group  # the key/value head query batch b reads
        for i, row in enumerate(rows):
            if all(w == 0.0 for w in row):
                continue  # attends to nothing: its output is 0 whatever q, k, v are
            dz = dzs[b][i]
            dp = [_dot(dz, vs[kv][j]) for j in range(a.m)]
            centre = _dot(row, dp)
            ds = [w * (p - centre) * a.scale for w, p in zip(row, dp, strict=True)]
            for j, (w, s) in enumerate(zip(row, ds, strict=True)):
                grad_q[b][i] = [
                    acc + s * kk for acc, kk in zip(grad_q[b][i], ks[kv][j], strict=True)
                ]
                grad_k[kv][j] = [
                    acc + s * qq for acc, qq in zip(grad_k[kv][j], qs[b][i], strict=True)
                ]
                grad_v[kv][j] = [acc + w * g for acc, g in zip(grad_v[kv][j], dz, strict=True)]
    return (
        _to_array(grad_q, a.dtype, a.q.shape),
        _to_array(grad_k, a.dtype, a.k.shape),
        _to_array(grad_v, a.dtype, a.v.shape),
    )


def _logsumexp(row: list[float]) -> float:
    """log Σ exp(row), shifted by the maximum so that nothing overflows; an infinite maximum is
    the result itself (an all −inf row gives −inf)."""
    if any(math.isnan(z) for z in row):
        return math.nan
    mx = max(row)
    if math.isinf(mx):
        return mx
    return mx + math.log(math.fsum(math.exp(z - mx) for z in row))


def _log_softmax_undefined(row: list[float]) -> bool:
    """Whether torch's log_softmax, x − max − log Σ exp(x − max), is NaN for the whole row
    without a NaN in it: a +inf entry (inf − inf) or only −inf entries (−inf − −inf)."""
    return any(z == math.inf for z in row) or all(z == -math.inf for z in row)


def cross_entropy(
    logits: Any, targets: Any, *, ignore_index: int = -100
) -> tuple[float, np.ndarray]:
    """Mean over the counted rows (target ≠ ignore_index) of logsumexp(row) − row[target], and
    its gradient (softmax(row) − onehot(target)) / count, row by row; ignored rows get 0, and
    with no counted row the loss is NaN. A counted row holding +inf or only −inf makes the loss
    and its gradient row NaN, as torch's cross_entropy does."""
    logits, targets, ignore = contract.validate_cross_entropy(logits, targets, ignore_index)
    n, c = logits.shape
    rows, ts = logits.tolist(), targets.tolist()
    count = sum(1 for t in ts if t != ignore)
    grad = _zeros(n, c)
    if count == 0:
        return math.nan, _to_array(grad, logits.dtype, (n, c))
    losses = []
    for r, (row, t) in enumerate(zip(rows, ts, strict=True)):
        if t == ignore:
            continue
        if _log_softmax_undefined(row):
            losses.append(math.nan)
            grad[r] = [math.nan] * c
            continue
        losses.append(_logsumexp(row) - row[t])
        grad[r] = [p / count for p in _softmax_slice(row)]
        grad[r][t] -= 1.0 / count
    # Rounded once to the logits' dtype, as the other backends compute it in that dtype.
    loss = float(np.array(math.fsum(losses) / count, dtype=logits.dtype))
    return loss, _to_array(grad, logits.dtype, (n, c))


def embedding_backward(ids: Any, grad_out: Any, vocab_size: int) -> np.ndarray:
    """``[vocab_size, d]``: each row of grad_out added to the row of its id (repeats add up)."""
    ids, grad_out, vocab_size = contract.validate_embedding_backward(ids, grad_out, vocab_size)
    d = grad_out.shape[-1]
    table = _zeros(vocab_size, d)
    # Edge: the grad rows as lists, one per id (a 0-d ids is one id with one row).
    flat_ids = ids.reshape(-1).tolist()
    grad_rows = grad_out.reshape(len(flat_ids), d).tolist()  # d may be 0: the rows given
    for i, row in zip(flat_ids, grad_rows, strict=True):
        table[i] = [acc + g for acc, g in zip(table[i], row, strict=True)]
    return _to_array(table, grad_out.dtype, (vocab_size, d))


def _f32_or_inf(v: float) -> float:
    """``_f32``, with IEEE's overflow to ±inf where ``struct`` raises (a value that rounds beyond
    float32's largest)."""
    try:
        return _f32(v)
    except OverflowError:
        return math.copysign(math.inf, v)


def _sqrt(v: float) -> float:
    """IEEE's square root: NaN below zero (and for NaN), where ``math.sqrt`` raises."""
    return math.sqrt(v) if v >= 0 else math.nan


def _divide(a: float, b: float, r: Any) -> float:
    """IEEE's a / b, rounded by ``r``: ±inf or NaN for b = 0, where Python's ``/`` raises."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return float(r(a / b))


def adamw_step(
    param: Any,
    grad: Any,
    exp_avg: Any,
    exp_avg_sq: Any,
    *,
    step: int,
    lr: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 0.01,
) -> None:
    """One step of torch.optim.AdamW (foreach=False), element by element, written back in place.

    Python floats are doubles, so for float32 every operation is rounded to float32 (``_f32``):
    that is what float32 arithmetic is (each of +, −, ×, ÷ and √ of doubles rounded once to float32
    is the float32 operation's exact result), so this lane gives NumPy's float32 bits.
    """
    a = contract.validate_adamw_step(
        param, grad, exp_avg, exp_avg_sq,
        step=step, lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay,
    )  # fmt: skip
    r = _f32_or_inf if a.param.dtype == np.float32 else float
    # The scalars, computed in float64 and then rounded once to the arrays' dtype.
    s = a.scalars()
    decay, b1, c1 = r(s.decay), r(s.beta1), r(s.rest1)
    b2, c2, e = r(s.beta2), r(s.rest2), r(s.eps)
    step_size, root_bc2 = r(s.step_size), r(s.root_bc2)
    ps, ms, vs = (arr.reshape(-1).tolist() for arr in (a.param, a.exp_avg, a.exp_avg_sq))
    for idx, g in enumerate(a.grad.reshape(-1).tolist()):
        m = r(r(b1 * ms[idx]) + r(c1 * g))
        v = r(r(b2 * vs[idx]) + r(r(c2 * g) * g))
        denom = r(r(r(_sqrt(v)) / root_bc2) + e)
        p = r(ps[idx] * decay)
        ps[idx], ms[idx], vs[idx] = r(p - _divide(r(step_size * m), denom, r)), m, v
    # Edge: write the new values back into the caller's arrays (checked C-contiguous).
    a.param[...] = np.array(ps, dtype=a.param.dtype).reshape(a.param.shape)
    a.exp_avg[...] = np.array(ms, dtype=a.param.dtype).reshape(a.param.shape)
    a.exp_avg_sq[...] = np.array(vs, dtype=a.param.dtype).reshape(a.param.shape)


def set_num_threads(n: int) -> None:
    """Set the thread count this backend reports (it always computes on one thread)."""
    _threads.set(n)


def on_this_thread() -> AbstractContextManager[None]:
    """``with on_this_thread():`` this thread's ``get_num_threads()`` reads 1 inside the block,
    as rust_core's does (it always computes on one thread)."""
    return _threads.on_this_thread()


def get_num_threads() -> int:
    """The thread count set by ``set_num_threads``, or the default (see ``contract``)."""
    return _threads.get()


__all__ = [
    "adamw_step",
    "attention",
    "attention_backward",
    "attention_weights",
    "attention_with_weights",
    "cross_entropy",
    "dequantize",
    "embedding_backward",
    "embedding_lookup",
    "gelu",
    "gelu_backward",
    "get_num_threads",
    "half_linear",
    "layer_norm",
    "layer_norm_backward",
    "linear",
    "linear_backward",
    "on_this_thread",
    "one_hot",
    "quantized_linear",
    "relu_backward",
    "rms_norm",
    "rope",
    "set_num_threads",
    "silu",
    "skipgram_sgd",
    "softmax",
    "swiglu",
]
