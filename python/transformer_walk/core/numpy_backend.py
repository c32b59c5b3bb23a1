"""The ``"numpy"`` backend: the rust_core API as idiomatic, vectorised NumPy.

Every function validates its inputs with ``contract`` (same checks, order and messages as
``rust_core``), then computes in the dtype of its input: float32 stays float32. IEEE special
values (-inf scores from masks, NaN) are part of the contract, so the arithmetic runs under
``np.errstate(all="ignore")`` — they are expected, not worth a warning. Results are new
C-contiguous arrays; inputs are never modified, but for ``adamw_step``'s, which it updates in
place.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
from scipy import special

from transformer_walk.core import contract

_threads = contract.ThreadCount()


def embedding_lookup(table: Any, ids: Any) -> np.ndarray:
    """Rows ``ids`` of ``table`` [V, d] → ``[*ids.shape, d]``."""
    table, ids = contract.validate_embedding_lookup(table, ids)
    # Ids are known to be in [0, V), so they fit in intp; take() copies into a new array.
    return np.ascontiguousarray(np.take(table, ids.astype(np.intp), axis=0))


def one_hot(ids: Any, vocab_size: int, dtype: Any = np.float32) -> np.ndarray:
    """``[*ids.shape, vocab_size]`` with a single 1 per row, at column ``ids[...]``."""
    ids, vocab_size, dtype = contract.validate_one_hot(ids, vocab_size, dtype)
    flat = ids.reshape(-1).astype(np.intp)
    out = np.zeros((flat.size, vocab_size), dtype=dtype)
    out[np.arange(flat.size), flat] = 1
    return out.reshape(*ids.shape, vocab_size)


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """The stable softmax of docs/api.md along ``axis``, without validation.

    Subtracting each slice's maximum keeps exp() from overflowing at ±1e4. A slice whose
    maximum is -inf (all entries -inf, e.g. a fully masked query) is shifted by 0 instead, so
    its exponentials are all exactly 0 and the result is 0 rather than 0/0. NaN needs no
    special case: max() propagates it, and x - NaN poisons the whole slice; a +inf maximum
    gives inf - inf = NaN in the same way.
    """
    if x.size == 0:
        return np.zeros(x.shape, dtype=x.dtype)
    with np.errstate(all="ignore"):
        mx = np.max(x, axis=axis, keepdims=True)
        shift = np.where(np.isneginf(mx), np.zeros_like(mx), mx)
        e = np.exp(x - shift)
        total = np.sum(e, axis=axis, keepdims=True)
        # total is 0 only for all -inf slices (any other slice has an exp(0) = 1 term).
        out = np.divide(e, total, out=np.zeros_like(e), where=total != 0)
    return np.ascontiguousarray(out)


def softmax(x: Any, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax of ``x`` along ``axis``; same shape and dtype as ``x``."""
    x, axis = contract.validate_softmax(x, axis)
    return _softmax(x, axis)


def _repeat_kv(a: contract.AttentionInputs, kv: np.ndarray) -> np.ndarray:
    """k or v with each key/value head repeated ``group`` times along axis -3, as Hugging Face's
    ``repeat_kv``: query head j then meets key/value head j // group."""
    return kv if a.group == 1 else np.repeat(kv, a.group, axis=-3)


def _weights(a: contract.AttentionInputs) -> np.ndarray:
    """softmax(q kᵀ · scale + mask) with the causal rule, as a [..., n, m] array."""
    neg_inf = np.array(-np.inf, dtype=a.dtype)
    k = _repeat_kv(a, a.k)  # (..., h_kv, m, d_k) → (..., h, m, d_k)
    with np.errstate(all="ignore"):
        scores = np.matmul(a.q, np.swapaxes(k, -1, -2)) * a.dtype.type(a.scale)
        if a.mask is not None:
            if a.mask.dtype == np.bool_:
                # The contract's bool mask *adds* 0 or -inf (so a NaN score stays NaN).
                scores = scores + np.where(a.mask, np.zeros((), a.dtype), neg_inf)
            else:
                scores = scores + a.mask
        if a.causal:
            # Query i sees keys j <= i: the lower triangle of an n x m matrix, top-left aligned
            # like torch.tril(ones(n, m)). Causal *sets* the other scores to -inf.
            scores = np.where(np.tri(a.n, a.m, dtype=bool), scores, neg_inf)
    return _softmax(scores.astype(a.dtype, copy=False), axis=-1)


def attention_weights(
    q: Any, k: Any, *, mask: Any = None, causal: bool = False, scale: float | None = None
) -> np.ndarray:
    """The [..., n, m] attention probabilities softmax(q kᵀ · scale + mask)."""
    a = contract.validate_attention(q, k, None, mask, causal, scale, with_v=False)
    return _weights(a)


def _output(a: contract.AttentionInputs, weights: np.ndarray) -> np.ndarray:
    """weights · v, [..., n, m] @ [..., m, d_v] → [..., n, d_v]."""
    assert a.v is not None
    with np.errstate(all="ignore"):
        out = np.matmul(weights, _repeat_kv(a, a.v))  # (..., h, n, m) @ (..., h, m, d_v)
    # A query that may attend to nothing (all-zero weights) outputs zeros — even where v holds
    # inf or NaN, for which 0 · v would be NaN.
    attends_to_nothing = ~np.any(weights != 0, axis=-1, keepdims=True)
    return np.ascontiguousarray(np.where(attends_to_nothing, np.zeros((), a.dtype), out))


def attention(
    q: Any,
    k: Any,
    v: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> np.ndarray:
    """Scaled dot-product attention: softmax(q kᵀ · scale + mask) v → [..., n, d_v]."""
    a = contract.validate_attention(q, k, v, mask, causal, scale, with_v=True)
    return _output(a, _weights(a))


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
    weights = _weights(a)
    return _output(a, weights), weights


def linear(x: Any, weight: Any, bias: Any = None, *, weight_t: Any = None) -> np.ndarray:
    """``x · weightᵀ + bias``: x [..., in], weight [out, in] (PyTorch's layout) → [..., out].
    ``weight_t`` (weight's transpose, for rust_core's products) is checked, not read."""
    x, weight, bias = contract.validate_linear(x, weight, bias, weight_t)
    with np.errstate(all="ignore"):  # NaN and ±inf inputs are values, not accidents
        out = np.matmul(x, weight.T)  # (..., in) @ (in, out) → (..., out)
        if bias is not None:
            out += bias
    return np.ascontiguousarray(out)


def half_linear(x: Any, weight: Any, bias: Any = None) -> np.ndarray:
    """``x · float32(weight)ᵀ + bias`` for a float16 weight [out, in]: NumPy's way is to widen W."""
    x, weight, bias = contract.validate_half_linear(x, weight, bias)
    return linear(x, weight.astype(np.float32), bias)  # every float16 is a float32 exactly


def layer_norm(
    x: Any, gamma: Any, beta: Any, eps: float = 1e-5, *, residual: Any = None
) -> np.ndarray:
    """``(x − mean) / √(var + eps) · gamma + beta`` over the last axis (biased variance), of x +
    residual when given (the sum in x's dtype)."""
    x, gamma, beta, eps = contract.validate_layer_norm(x, gamma, beta, eps, residual)
    if x.shape[-1] == 0:
        return np.zeros(x.shape, dtype=x.dtype)
    with np.errstate(all="ignore"):
        mean = x.mean(-1, keepdims=True)
        centred = x - mean
        var = np.mean(centred * centred, axis=-1, keepdims=True)
        out = centred / np.sqrt(var + x.dtype.type(eps)) * gamma + beta
    return np.ascontiguousarray(out.astype(x.dtype, copy=False))


def gelu(x: Any, *, bias: Any = None) -> np.ndarray:
    """``0.5 · z · (1 + erf(z / √2))``, elementwise, for z = x (+ bias along the rows, in x's
    dtype). NumPy has no erf; SciPy's ufunc is the
    vectorised one (and computes in the input's precision)."""
    x = contract.validate_gelu(x, bias)  # x + bias, when given
    with np.errstate(all="ignore"):
        out = x * x.dtype.type(0.5) * (1 + special.erf(x * x.dtype.type(1 / math.sqrt(2.0))))
    # Not np.ascontiguousarray, which turns a 0-d x into shape (1,): GELU keeps x's shape.
    return np.asarray(out, dtype=x.dtype, order="C")


def rms_norm(x: Any, weight: Any, eps: float = 1e-5) -> np.ndarray:
    """``x / √(mean(x²) + eps) · weight`` over the last axis (Llama's RMSNorm)."""
    x, weight, eps = contract.validate_rms_norm(x, weight, eps)
    if x.shape[-1] == 0:
        return np.zeros(x.shape, dtype=x.dtype)
    with np.errstate(all="ignore"):
        mean_square = np.mean(x * x, axis=-1, keepdims=True)
        out = x * (1 / np.sqrt(mean_square + x.dtype.type(eps))) * weight
    return np.ascontiguousarray(out.astype(x.dtype, copy=False))


def _silu(x: np.ndarray) -> np.ndarray:
    """x · σ(x) from e = exp(−|x|) ≤ 1, so nothing overflows: x / (1 + e) for x ≥ 0 and
    x · e / (1 + e) below; silu(−inf) is −0.0, its limit (x · 0 would be NaN)."""
    with np.errstate(all="ignore"):
        e = np.exp(-np.abs(x))
        out = np.where(x >= 0, x, x * e) / (1 + e)
        return np.where(np.isneginf(x), x.dtype.type(-0.0), out).astype(x.dtype, copy=False)


def silu(x: Any) -> np.ndarray:
    """``x · σ(x)``, elementwise."""
    x = contract.validate_silu(x)
    return np.asarray(_silu(x), dtype=x.dtype, order="C")


def swiglu(gate: Any, up: Any) -> np.ndarray:
    """``silu(gate) · up``, elementwise (the gated FFN of Llama)."""
    gate, up = contract.validate_swiglu(gate, up)
    with np.errstate(all="ignore"):
        out = _silu(gate) * up
    return np.asarray(out, dtype=gate.dtype, order="C")


def rope(x: Any, positions: Any, base: float = 10000.0) -> np.ndarray:
    """Rotate each adjacent pair (x[2i], x[2i+1]) of row t by θ = positions[t] · base^(−2i/d),
    computed (angle and rotation) in float64 and rounded once to x's dtype."""
    x, positions, base = contract.validate_rope(x, positions, base)
    d = x.shape[-1]
    freqs = base ** (-(2 * np.arange(d // 2)) / d)  # (d/2,)
    theta = positions.astype(np.float64)[:, None] * freqs  # (n, d/2)
    cos, sin = np.cos(theta), np.sin(theta)
    pairs = x.astype(np.float64).reshape(*x.shape[:-1], d // 2, 2)  # (..., n, d) → (..., n, d/2, 2)
    a, b = pairs[..., 0], pairs[..., 1]
    with np.errstate(all="ignore"):
        out = np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1)  # (..., n, d/2, 2)
    return np.ascontiguousarray(out.reshape(x.shape).astype(x.dtype))  # → (..., n, d)


def _dequantize(data: np.ndarray, kind: str, shape: tuple[int, ...]) -> np.ndarray:
    """The float32 values of whole GGML blocks, all at once (see contract.QUANT_BLOCK_BYTES)."""
    block_bytes = contract.QUANT_BLOCK_BYTES[kind]
    blocks = data.reshape(-1, block_bytes)  # (any shape) → (blocks, bytes per block)
    d = blocks[:, 0:2].copy().view("<f2").astype(np.float32)  # (blocks, 1)
    with np.errstate(all="ignore"):  # an inf or NaN scale is a value (inf · 0 = NaN), as in GGML
        if kind == "q8_0":
            q = blocks[:, 2:].copy().view(np.int8).astype(np.float32)  # (blocks, 32)
            values = d * q
        else:
            m = blocks[:, 2:4].copy().view("<f2").astype(np.float32)  # (blocks, 1)
            qs = blocks[:, 4:]  # (blocks, 16): value j in the low nibble, j + 16 in the high one
            q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32)  # (blocks, 32)
            values = d * q + m
    return values.reshape(shape)  # (blocks, 32) → shape


def dequantize(data: Any, kind: str, shape: Any) -> np.ndarray:
    """The float32 array of ``shape`` that the GGML blocks in ``data`` hold."""
    data, kind, shape = contract.validate_dequantize(data, kind, shape)
    return np.ascontiguousarray(_dequantize(data, kind, shape))


def _rounded_activations(x: np.ndarray) -> np.ndarray:
    """x̂: each block of 32 values of x rounded to 16 bits — d = max|x| / 32767, x̂ = d · round(x / d)
    (ties to even); a block holding NaN or ±inf all NaN."""
    blocks = x.reshape(*x.shape[:-1], -1, contract.QUANT_BLOCK)  # (..., in) → (..., in/32, 32)
    levels = contract.ACTIVATION_LEVELS
    with np.errstate(all="ignore"):
        d = np.max(np.abs(blocks), axis=-1, keepdims=True) / np.float32(levels)  # (..., in/32, 1)
        # q as float32 (NaN where d = 0); + 0 makes a −0 from rint +0, as in rust_core
        steps = np.rint(np.clip(blocks / d, -levels, levels)) + np.float32(0)
        x_hat = np.where(d > 0, d * steps, np.float32(0))
        x_hat = np.where(np.isfinite(d), x_hat, np.float32(np.nan))
    return x_hat.reshape(x.shape)  # (..., in/32, 32) → (..., in)


def quantized_linear(x: Any, data: Any, kind: str, shape: Any) -> np.ndarray:
    """``x̂ · Wᵀ`` with W = dequantize(data, kind, shape) [out, in] and x̂ = x rounded to 16 bits
    per block of 32: NumPy's way is to expand W."""
    x, data, kind, shape = contract.validate_quantized_linear(x, data, kind, shape)
    weight = _dequantize(data, kind, shape)  # (out, in) float32
    x_hat = _rounded_activations(x) if x.size else x
    with np.errstate(all="ignore"):
        out = np.matmul(x_hat, weight.T)  # (..., in) @ (in, out) → (..., out)
    return np.ascontiguousarray(out)


def _skipgram_step(E: np.ndarray, U: np.ndarray, rows: np.ndarray, rate: Any) -> Any:
    """One SGD step, in place, on a batch of rows [B, 2 + k] (centre, context, negatives);
    returns the batch's summed loss before the step.

    Written with dense products over the (small) vocabulary instead of gathering a [B, k, d] block
    of output vectors and scattering its gradient back row by row: the coefficient of every output
    vector in every pair's gradient goes into one [B, V] matrix A, and then ∂L/∂e_c = A·U and
    ∂L/∂U = Aᵀ·e, two matrix products (4–5× faster per step than the scatter). A word that occurs
    twice in a batch (as a centre, or as a context and a negative) gets both updates."""
    B, V = len(rows), U.shape[0]
    c, targets = rows[:, 0], rows[:, 1:]  # (B,), (B, 1 + k): the context, then the negatives
    b = np.arange(B)
    e = E[c]  # (B, d)
    scores = e @ U.T  # (B, V): every centre against every output vector
    s = scores[b[:, None], targets]  # (B, 1 + k): s_pos, then s_neg
    signs = np.ones(s.shape[1], dtype=s.dtype)  # (1 + k,)
    signs[0] = -1
    # −log σ(s_pos) − Σ log σ(−s_neg) = Σ log(1 + e^{−s_pos}) + Σ log(1 + e^{s_neg})
    loss = np.logaddexp(0, s * signs).sum()
    # ∂L/∂s_pos = σ(s_pos) − 1,  ∂L/∂s_neg = σ(s_neg), gathered into A [B, V] (repeats summed)
    slopes = 0.5 * (1 + np.tanh(0.5 * s))  # (B, 1 + k): σ(s) without overflow warnings
    slopes[:, 0] -= 1
    cells = (b[:, None] * V + targets).reshape(-1)  # (B·(1 + k),)
    A = np.bincount(cells, weights=slopes.reshape(-1), minlength=B * V)  # (B·V,) float64
    A = A.astype(E.dtype, copy=False).reshape(B, V)  # (B, V)
    grad_e = A @ U  # (B, d): Σ_v A[b, v] u_v
    grad_U = A.T @ e  # (V, d): Σ_b A[b, v] e_b
    centres = np.zeros((E.shape[0], B), dtype=E.dtype)  # (V, B): column b is the one-hot of c[b]
    centres[c, b] = 1
    E -= rate * (centres @ grad_e)  # a centre that occurs twice gets both updates
    U -= rate * grad_U
    return loss


def skipgram_sgd(
    table: Any, output_table: Any, pairs: Any, learning_rates: Any, batch_size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """word2vec's skip-gram SGD, one vectorised step per batch of ``batch_size`` rows of
    ``pairs`` [P, 2 + k] → (E, U, each step's loss before its update)."""
    table, output_table, pairs, learning_rates, batch = contract.validate_skipgram_sgd(
        table, output_table, pairs, learning_rates, batch_size
    )
    E, U = table.copy(), output_table.copy()  # (V, d) each: updated in place, step by step
    ids = pairs.astype(np.intp)  # (P, 2 + k): checked to be in [0, V)
    losses = np.empty(len(learning_rates), dtype=table.dtype)  # (steps,)
    with np.errstate(all="ignore"):
        for step, rate in enumerate(learning_rates):
            losses[step] = _skipgram_step(E, U, ids[step * batch : (step + 1) * batch], rate)
    return E, U, losses


# --- training -----------------------------------------------------------------------------------


def linear_backward(
    x: Any, weight: Any, grad_y: Any, *, bias: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Gradients of ``y = x · Wᵀ + b``: (grad_y · W, Σ grad_yᵀ · x, Σ grad_y) over every row."""
    x, weight, grad_y = contract.validate_linear_backward(x, weight, grad_y)
    n_out, n_in = weight.shape
    rows = math.prod(x.shape[:-1])  # not reshape(-1, …): it cannot infer rows when in or out is 0
    x_rows = x.reshape(rows, n_in)  # (..., in) → (rows, in)
    g_rows = grad_y.reshape(rows, n_out)  # (..., out) → (rows, out)
    with np.errstate(all="ignore"):
        grad_x = np.matmul(grad_y, weight)  # (..., out) @ (out, in) → (..., in)
        grad_w = np.matmul(g_rows.T, x_rows)  # (out, rows) @ (rows, in) → (out, in)
        grad_b = g_rows.sum(axis=0) if bias else None  # (out,)
    return (
        np.ascontiguousarray(grad_x, dtype=x.dtype),
        np.ascontiguousarray(grad_w, dtype=x.dtype),
        None if grad_b is None else np.ascontiguousarray(grad_b, dtype=x.dtype),
    )


def layer_norm_backward(
    x: Any, gamma: Any, grad_y: Any, eps: float = 1e-5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradients of layer_norm over the last axis: with x̂ = (x − mean) · r, r = 1/√(var + eps),
    grad_x = r · (ĝ − mean(ĝ) − x̂ · mean(ĝ · x̂)) for ĝ = grad_y · gamma."""
    x, gamma, grad_y, eps = contract.validate_layer_norm_backward(x, gamma, grad_y, eps)
    d = x.shape[-1]
    lead = tuple(range(x.ndim - 1))  # the axes summed for gamma's and beta's gradients
    if d == 0:
        empty = np.zeros((0,), dtype=x.dtype)
        return np.zeros(x.shape, dtype=x.dtype), empty, empty.copy()
    with np.errstate(all="ignore"):
        mean = x.mean(-1, keepdims=True)
        centred = x - mean
        rstd = 1 / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + x.dtype.type(eps))
        x_hat = centred * rstd
        g_hat = grad_y * gamma
        grad_x = rstd * (
            g_hat
            - g_hat.mean(-1, keepdims=True)
            - x_hat * np.mean(g_hat * x_hat, axis=-1, keepdims=True)
        )
        grad_gamma = np.sum(grad_y * x_hat, axis=lead)
        grad_beta = np.sum(grad_y, axis=lead)
    return (
        np.ascontiguousarray(grad_x, dtype=x.dtype),
        np.ascontiguousarray(grad_gamma, dtype=x.dtype),
        np.ascontiguousarray(grad_beta, dtype=x.dtype),
    )


def gelu_backward(x: Any, grad_y: Any) -> np.ndarray:
    """``grad_y · (Φ(x) + x · φ(x))``: the derivative of the exact-erf GELU, elementwise."""
    x, grad_y = contract.validate_gelu_backward(x, grad_y)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        cdf = t(0.5) * (1 + special.erf(x * t(1 / math.sqrt(2.0))))
        pdf = np.exp(t(-0.5) * x * x) * t(1 / math.sqrt(2 * math.pi))
        out = grad_y * (cdf + x * pdf)
    return np.asarray(out, dtype=x.dtype, order="C")


def relu_backward(x: Any, grad_y: Any) -> np.ndarray:
    """``grad_y`` where x > 0, else 0 (also at x = 0 and where x is NaN), elementwise."""
    x, grad_y = contract.validate_gelu_backward(x, grad_y)
    return np.asarray(np.where(x > 0, grad_y, np.zeros((), x.dtype)), dtype=x.dtype, order="C")


def _sum_groups(a: contract.AttentionInputs, grad: np.ndarray) -> np.ndarray:
    """Undo ``_repeat_kv``: the gradients of the ``group`` query heads that read one key/value
    head, (..., h, m, d) → (..., h_kv, m, d), summed."""
    if a.group == 1:
        return grad
    *lead, h, m, d = grad.shape
    return grad.reshape(*lead, h // a.group, a.group, m, d).sum(axis=-3)


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
    """Gradients of attention: with P the weights and dP = grad_out · vᵀ, the scores' gradient is
    dS = P ⊙ (dP − rowsum(P ⊙ dP)); then grad_q = dS · k · scale, grad_k = dSᵀ · q · scale and
    grad_v = Pᵀ · grad_out, summed over the query heads that share a key/value head."""
    a, grad_out = contract.validate_attention_backward(q, k, v, grad_out, mask, causal, scale)
    assert a.v is not None
    weights = _weights(a)  # (..., h, n, m)
    # A query that may attend to nothing has output 0 whatever q, k, v are: no gradient flows
    # through it (not even a NaN from an inf in grad_out times a zero weight).
    attends = np.any(weights != 0, axis=-1, keepdims=True)  # (..., h, n, 1)
    dz = np.where(attends, grad_out, np.zeros((), a.dtype))
    k_rep, v_rep = _repeat_kv(a, a.k), _repeat_kv(a, a.v)  # (..., h, m, d_k), (..., h, m, d_v)
    with np.errstate(all="ignore"):
        s = a.dtype.type(a.scale)  # inf for a scale beyond float32, as the forward reads it
        d_weights = np.matmul(dz, np.swapaxes(v_rep, -1, -2))  # (..., h, n, m)
        d_scores = weights * (d_weights - np.sum(weights * d_weights, axis=-1, keepdims=True))
        d_scores = np.where(attends, d_scores, np.zeros((), a.dtype))  # 0 · (inf in v) is NaN
        grad_q = np.matmul(d_scores, k_rep) * s  # (..., h, n, d_k)
        # The dead query's zero row of d_scores times an inf in k (or its inf in q) is NaN.
        grad_q = np.where(attends, grad_q, np.zeros((), a.dtype))
        q_live = np.where(attends, a.q, np.zeros((), a.dtype))
        grad_k = np.matmul(np.swapaxes(d_scores, -1, -2), q_live) * s  # (..., h, m, d_k)
        grad_v = np.matmul(np.swapaxes(weights, -1, -2), dz)  # (..., h, m, d_v)
    return (
        np.ascontiguousarray(grad_q, dtype=a.dtype),
        np.ascontiguousarray(_sum_groups(a, grad_k), dtype=a.dtype),
        np.ascontiguousarray(_sum_groups(a, grad_v), dtype=a.dtype),
    )


def cross_entropy(
    logits: Any, targets: Any, *, ignore_index: int = -100
) -> tuple[float, np.ndarray]:
    """Mean over the counted rows of logsumexp(row) − row[target], and its gradient
    (softmax(row) − onehot(target)) / count; ignored rows get 0, and no counted row gives NaN.
    A counted row holding +inf or only −inf makes the loss and its gradient row NaN, as torch."""
    logits, targets, ignore = contract.validate_cross_entropy(logits, targets, ignore_index)
    counted = ~contract.is_ignored(targets, ignore)  # (N,)
    count = int(counted.sum())
    grad = np.zeros(logits.shape, dtype=logits.dtype)
    if count == 0:
        return math.nan, grad
    rows = np.flatnonzero(counted)
    z = logits[rows]  # (count, C)
    t = targets[rows].astype(np.intp)  # in [0, C): checked
    with np.errstate(all="ignore"):
        probs = _softmax(z, axis=-1)
        mx = np.max(z, axis=-1, keepdims=True)
        shift = np.where(np.isfinite(mx), mx, np.zeros_like(mx))
        lse = np.log(np.sum(np.exp(z - shift), axis=-1)) + shift[:, 0]  # (count,)
        # As torch's log_softmax, x − max − log Σ exp(x − max): a row holding +inf (inf − inf)
        # or only −inf (−inf − −inf) is NaN, its loss and its whole gradient row.
        undefined = np.isposinf(z).any(axis=-1) | np.isneginf(z).all(axis=-1)  # (count,)
        lse = np.where(undefined, np.nan, lse)
        probs = np.where(undefined[:, None], np.nan, probs)
        loss = np.sum(lse - z[np.arange(len(rows)), t]) / logits.dtype.type(count)
        probs[np.arange(len(rows)), t] -= 1
        grad[rows] = probs / logits.dtype.type(count)
    return float(loss), grad


def embedding_backward(ids: Any, grad_out: Any, vocab_size: int) -> np.ndarray:
    """``[vocab_size, d]``: row v sums the rows of grad_out whose id is v (0 for ids not met)."""
    ids, grad_out, vocab_size = contract.validate_embedding_backward(ids, grad_out, vocab_size)
    d = grad_out.shape[-1]
    out = np.zeros((vocab_size, d), dtype=grad_out.dtype)
    # add.at, not out[ids] += …, so that a repeated id accumulates every one of its rows.
    with np.errstate(all="ignore"):
        flat_ids = ids.reshape(-1).astype(np.intp)  # (rows,)
        np.add.at(out, flat_ids, grad_out.reshape(flat_ids.size, d))  # d may be 0: rows given
    return out


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
    """One step of torch.optim.AdamW (foreach=False), in place on param, exp_avg, exp_avg_sq."""
    a = contract.validate_adamw_step(
        param, grad, exp_avg, exp_avg_sq,
        step=step, lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay,
    )  # fmt: skip
    t = a.param.dtype.type  # the scalars are computed in float64, then used in the arrays' dtype
    s = a.scalars()
    p, m, v, g = a.param, a.exp_avg, a.exp_avg_sq, a.grad  # the caller's arrays, and grad
    with np.errstate(all="ignore"):
        p *= t(s.decay)
        m *= t(s.beta1)
        m += t(s.rest1) * g
        v *= t(s.beta2)
        v += t(s.rest2) * g * g
        p -= t(s.step_size) * m / (np.sqrt(v) / t(s.root_bc2) + t(s.eps))


def set_num_threads(n: int) -> None:
    """Set the thread count this backend reports (NumPy itself is not re-configured)."""
    _threads.set(n)


def on_this_thread() -> AbstractContextManager[None]:
    """``with on_this_thread():`` this thread's ``get_num_threads()`` reads 1 inside the block,
    as rust_core's does (NumPy's BLAS keeps its own threads)."""
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
