"""The training kernels (docs/api.md, E43–E53): each gradient against central finite differences of
its forward in float64, the backends against each other in float32 and float64, adamw_step
against an independent loop of torch's formula, and every error word for word.

Every case runs on every backend (``conftest.BACKEND_NAMES``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from transformer_walk.core import contract, get_backend

from conftest import BACKEND_NAMES, HAVE_RUST

F32, F64 = np.float32, np.float64

#: Every backend implements the training kernels (pytest params, rust skipped where unbuilt).
TRAIN_BACKENDS = BACKEND_NAMES
#: Their plain names, for tests that compare them within one case.
TRAIN_BACKEND_IDS = ("python", "numpy", "rust") if HAVE_RUST else ("python", "numpy")

#: The forwards the finite differences are taken of (the NumPy lane, itself tested elsewhere).
FWD = get_backend("numpy")


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def numeric_grad(f: Callable[[], float], x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """∂f/∂x by central differences, one element at a time (x is changed and restored)."""
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + h
        up = f()
        x[idx] = old - h
        down = f()
        x[idx] = old
        grad[idx] = (up - down) / (2 * h)
    return grad


def close(actual: Any, expected: Any, tol: float = 1e-6) -> None:
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


def check_result(arr: np.ndarray, dtype: Any, shape: tuple[int, ...]) -> None:
    """A new native C-contiguous array of the expected dtype and shape."""
    assert isinstance(arr, np.ndarray)
    assert arr.dtype == np.dtype(dtype) and arr.dtype.isnative
    assert arr.shape == shape
    assert arr.flags.c_contiguous


# --- finite-difference gradient checks (float64) ----------------------------------------------


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize("bias", [True, False])
def test_linear_backward_gradcheck(backend_name: str, bias: bool) -> None:
    r = rng(1)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=5)
    gy = r.normal(size=(2, 3, 5))

    def loss() -> float:
        return float(np.sum(FWD.linear(x, w, b if bias else None) * gy))

    gx, gw, gb = get_backend(backend_name).linear_backward(x, w, gy, bias=bias)
    check_result(gx, F64, x.shape)
    check_result(gw, F64, w.shape)
    close(gx, numeric_grad(loss, x))
    close(gw, numeric_grad(loss, w))
    if bias:
        assert gb is not None
        check_result(gb, F64, (5,))
        close(gb, numeric_grad(loss, b))
    else:
        assert gb is None


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_linear_backward_one_row_and_views(backend_name: str) -> None:
    """A 1-D x (no leading dims) and transposed, non-contiguous inputs."""
    r = rng(2)
    x, w, gy = r.normal(size=4), r.normal(size=(4, 3)).T, r.normal(size=(6,))[::2]
    gx, gw, gb = get_backend(backend_name).linear_backward(x, w, gy)
    close(gx, gy @ w)
    close(gw, np.outer(gy, x))
    close(gb, gy)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_layer_norm_backward_gradcheck(backend_name: str) -> None:
    r = rng(3)
    x, gamma, beta = r.normal(size=(2, 3, 5)), r.normal(size=5), r.normal(size=5)
    gy = r.normal(size=x.shape)

    def loss() -> float:
        return float(np.sum(FWD.layer_norm(x, gamma, beta, eps=1e-3) * gy))

    gx, gg, gb = get_backend(backend_name).layer_norm_backward(x, gamma, gy, eps=1e-3)
    check_result(gx, F64, x.shape)
    close(gx, numeric_grad(loss, x), 1e-5)
    close(gg, numeric_grad(loss, gamma), 1e-5)
    close(gb, numeric_grad(loss, beta), 1e-5)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_layer_norm_backward_empty_rows(backend_name: str) -> None:
    """d = 0 and no rows: empty gradients of the right shapes (zero sums for gamma and beta)."""
    b = get_backend(backend_name)
    gx, gg, gb = b.layer_norm_backward(np.zeros((2, 0)), np.zeros(0), np.zeros((2, 0)))
    assert gx.shape == (2, 0) and gg.shape == (0,) and gb.shape == (0,)
    gx, gg, gb = b.layer_norm_backward(np.zeros((0, 3)), np.ones(3), np.zeros((0, 3)))
    assert gx.shape == (0, 3)
    np.testing.assert_array_equal(gg, np.zeros(3))
    np.testing.assert_array_equal(gb, np.zeros(3))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_gelu_backward_gradcheck(backend_name: str) -> None:
    r = rng(4)
    x, gy = r.normal(size=(3, 4)) * 2, r.normal(size=(3, 4))

    def loss() -> float:
        return float(np.sum(FWD.gelu(x) * gy))

    gx = get_backend(backend_name).gelu_backward(x, gy)
    check_result(gx, F64, x.shape)
    close(gx, numeric_grad(loss, x))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_relu_backward_gradcheck(backend_name: str) -> None:
    r = rng(5)
    x = r.normal(size=(3, 4))
    x[np.abs(x) < 0.01] = 0.5  # away from the kink, where differences are one-sided
    gy = r.normal(size=(3, 4))

    def loss() -> float:
        return float(np.sum(np.maximum(x, 0) * gy))

    gx = get_backend(backend_name).relu_backward(x, gy)
    check_result(gx, F64, x.shape)
    close(gx, numeric_grad(loss, x))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_relu_backward_at_zero_and_nan(backend_name: str) -> None:
    x = np.array([-1.0, 0.0, -0.0, 2.0, np.nan])
    gx = get_backend(backend_name).relu_backward(x, np.full(5, 3.0))
    np.testing.assert_array_equal(gx, [0.0, 0.0, 0.0, 3.0, 0.0])


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_elementwise_backward_keeps_0d(backend_name: str) -> None:
    b = get_backend(backend_name)
    check_result(b.gelu_backward(np.float64(0.5), np.float64(2.0)), F64, ())
    check_result(b.relu_backward(np.float32(0.5), np.float32(2.0)), F32, ())


def bool_mask_with_dead_row(n: int, m: int) -> np.ndarray:
    mask = rng(9).random((n, m)) > 0.3
    mask[:, 0] = True
    mask[1] = False  # query 1 may attend to nothing
    return mask


#: (id, q shape, k shape, v shape, keyword arguments, a function making views of q, k, v)
ATTENTION_CASES = [
    ("plain", (2, 3, 4), (2, 5, 4), (2, 5, 3), {}),
    ("causal", (2, 4, 3), (2, 4, 3), (2, 4, 2), {"causal": True}),
    ("causal-n<m", (3, 3), (5, 3), (5, 2), {"causal": True, "scale": 0.7}),
    (
        "bool-mask-dead-row",
        (2, 4, 3),
        (2, 5, 3),
        (2, 5, 2),
        {"mask": bool_mask_with_dead_row(4, 5)},
    ),
    ("float-mask", (2, 3, 4), (2, 5, 4), (2, 5, 3), {"mask": rng(8).normal(size=(1, 3, 5))}),
    ("float-mask-neg-inf", (3, 2), (4, 2), (4, 3), {"mask": np.array([0, -np.inf, 1, 0.5])}),
    ("grouped-query", (2, 4, 3, 2), (2, 2, 5, 2), (2, 2, 5, 3), {"causal": True}),
    (
        "grouped-one-kv-head",
        (3, 2, 4),
        (1, 4, 4),
        (1, 4, 2),
        {"mask": bool_mask_with_dead_row(2, 4)},
    ),
]


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize(
    ("shapes", "kwargs"), [pytest.param(c[1:4], c[4], id=c[0]) for c in ATTENTION_CASES]
)
def test_attention_backward_gradcheck(
    backend_name: str, shapes: tuple[tuple[int, ...], ...], kwargs: dict
) -> None:
    r = rng(10)
    q, k, v = (r.normal(size=s) for s in shapes)
    go = r.normal(size=(*q.shape[:-1], v.shape[-1]))

    def loss() -> float:
        return float(np.sum(FWD.attention(q, k, v, **kwargs) * go))

    gq, gk, gv = get_backend(backend_name).attention_backward(q, k, v, go, **kwargs)
    for grad, arr in ((gq, q), (gk, k), (gv, v)):
        check_result(grad, F64, arr.shape)
    close(gq, numeric_grad(loss, q))
    close(gk, numeric_grad(loss, k))
    close(gv, numeric_grad(loss, v))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_attention_backward_dead_row_is_zero(backend_name: str) -> None:
    """A query that may attend to nothing: zero gradients, and nothing from it in grad_k, grad_v
    (its grad_out row is huge, so any leak would show)."""
    r = rng(11)
    q, k, v = r.normal(size=(3, 2)), r.normal(size=(4, 2)), r.normal(size=(4, 2))
    mask = np.ones((3, 4), bool)
    mask[1] = False
    go = r.normal(size=(3, 2))
    b = get_backend(backend_name)
    gq, gk, gv = b.attention_backward(q, k, v, go, mask=mask)
    go_dead = go.copy()
    go_dead[1] = [1e30, np.inf]
    gq2, gk2, gv2 = b.attention_backward(q, k, v, go_dead, mask=mask)
    np.testing.assert_array_equal(gq[1], 0.0)
    np.testing.assert_array_equal(gq2, gq)
    np.testing.assert_array_equal(gk2, gk)
    np.testing.assert_array_equal(gv2, gv)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_attention_backward_non_contiguous(backend_name: str) -> None:
    """Strided, transposed and byte-swapped inputs give their contiguous copies' gradients."""
    r = rng(12)
    q_base, k_base = r.normal(size=(2, 3, 8)), r.normal(size=(2, 4, 5)).transpose(0, 2, 1)
    q, k = q_base[..., ::2], k_base[..., :4]  # (2, 3, 4) with stride 2, (2, 5, 4) transposed
    v = r.normal(size=(2, 5, 3)).astype(">f8")
    go = r.normal(size=(2, 6, 3))[:, ::2]
    b = get_backend(backend_name)
    got = b.attention_backward(q, k, v, go, causal=True)
    want = b.attention_backward(*(np.ascontiguousarray(a, F64) for a in (q, k, v, go)), causal=True)
    for g, w, a in zip(got, want, (q, k, v), strict=True):
        check_result(g, F64, a.shape)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_cross_entropy_gradcheck(backend_name: str) -> None:
    r = rng(13)
    logits = r.normal(size=(5, 4)) * 3
    targets = np.array([1, -100, 3, 0, -100], np.int32)

    def loss() -> float:
        lse = np.log(np.sum(np.exp(logits), axis=1))
        counted = targets != -100
        return float(np.mean(lse[counted] - logits[counted, targets[counted]]))

    value, grad = get_backend(backend_name).cross_entropy(logits, targets)
    assert type(value) is float
    check_result(grad, F64, logits.shape)
    assert value == pytest.approx(loss(), rel=1e-12)
    close(grad, numeric_grad(loss, logits))
    np.testing.assert_array_equal(grad[[1, 4]], 0.0)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint64, np.int64])
def test_cross_entropy_target_dtypes_and_ignore_index(backend_name: str, dtype: Any) -> None:
    """Any integer dtype; ignore_index picks which rows count (-100 can never be a uint8)."""
    logits = rng(14).normal(size=(3, 4))
    b = get_backend(backend_name)
    loss, grad = b.cross_entropy(logits, np.array([2, 3, 2], dtype), ignore_index=2)
    ref_loss, ref_grad = b.cross_entropy(logits[1:2], np.array([3]))
    assert loss == pytest.approx(ref_loss, rel=1e-12)
    close(grad[1:2], ref_grad)
    np.testing.assert_array_equal(grad[[0, 2]], 0.0)
    b.cross_entropy(logits, np.array([0, 1, 3], dtype))  # the default -100 ignores nothing


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize("dtype", [F32, F64])
def test_cross_entropy_nothing_counted_is_nan(backend_name: str, dtype: Any) -> None:
    b = get_backend(backend_name)
    loss, grad = b.cross_entropy(np.ones((2, 3), dtype), np.array([-100, -100]))
    assert type(loss) is float and math.isnan(loss)
    check_result(grad, dtype, (2, 3))
    np.testing.assert_array_equal(grad, 0.0)
    loss, grad = b.cross_entropy(np.zeros((0, 3), dtype), np.zeros(0, np.int64))  # N = 0
    assert math.isnan(loss)
    check_result(grad, dtype, (0, 3))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_embedding_backward_gradcheck(backend_name: str) -> None:
    r = rng(15)
    table = r.normal(size=(6, 3))
    ids = np.array([[1, 4, 1], [0, 1, 5]], np.uint16)  # id 1 three times, 2 and 3 never
    go = r.normal(size=(2, 3, 3))

    def loss() -> float:
        return float(np.sum(FWD.embedding_lookup(table, ids) * go))

    grad = get_backend(backend_name).embedding_backward(ids, go, 6)
    check_result(grad, F64, (6, 3))
    close(grad, numeric_grad(loss, table))
    close(grad[1], go[0, 0] + go[0, 2] + go[1, 1])
    np.testing.assert_array_equal(grad[[2, 3]], 0.0)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_embedding_backward_0d_and_empty_ids(backend_name: str) -> None:
    b = get_backend(backend_name)
    grad = b.embedding_backward(np.int8(2), np.array([1.0, 2.0], F32), 3)
    check_result(grad, F32, (3, 2))
    np.testing.assert_array_equal(grad, [[0, 0], [0, 0], [1, 2]])
    grad = b.embedding_backward(np.zeros((0, 2), np.int64), np.zeros((0, 2, 4)), 2)
    check_result(grad, F64, (2, 4))
    np.testing.assert_array_equal(grad, 0.0)


# --- the backends agree, float32 and float64 ---------------------------------------------------


def train_calls(dtype: Any) -> list[tuple[str, tuple, dict]]:
    r = rng(20)

    def a(*shape: int) -> np.ndarray:
        return r.normal(size=shape).astype(dtype)

    return [
        ("linear_backward", (a(2, 3, 4), a(5, 4), a(2, 3, 5)), {}),
        ("layer_norm_backward", (a(3, 6), a(6), a(3, 6)), {}),
        ("gelu_backward", (a(2, 5), a(2, 5)), {}),
        ("relu_backward", (a(2, 5), a(2, 5)), {}),
        ("attention_backward", (a(2, 2, 3, 4), a(2, 1, 5, 4), a(2, 1, 5, 3), a(2, 2, 3, 3)),
         {"causal": True}),
        ("attention_backward", (a(3, 4), a(5, 4), a(5, 2), a(3, 2)),
         {"mask": bool_mask_with_dead_row(3, 5)}),
        ("cross_entropy", (a(4, 5) * 3, np.array([0, 4, -100, 2])), {}),
        ("embedding_backward", (np.array([[0, 2], [2, 2]]), a(2, 2, 3), 4), {}),
    ]  # fmt: skip


@pytest.mark.parametrize("dtype", [F32, F64])
def test_python_and_numpy_agree(dtype: Any) -> None:
    tol = 2e-5 if dtype == F32 else 1e-12
    for fn, args, kwargs in train_calls(dtype):
        p = getattr(get_backend("python"), fn)(*args, **kwargs)
        n = getattr(get_backend("numpy"), fn)(*args, **kwargs)
        for x, y in zip(
            p if isinstance(p, tuple) else (p,), n if isinstance(n, tuple) else (n,), strict=True
        ):
            if isinstance(x, float):
                assert x == pytest.approx(y, rel=tol), fn
            else:
                assert x.dtype == y.dtype == np.dtype(dtype), fn
                close(x, y, tol)


# --- adamw_step --------------------------------------------------------------------------------


def reference_adamw(
    param: np.ndarray, grad: np.ndarray, m: np.ndarray, v: np.ndarray, step: int, lr: float,
    beta1: float, beta2: float, eps: float, weight_decay: float,
) -> None:  # fmt: skip
    """torch.optim.AdamW's update (foreach=False) as an element-by-element loop over NumPy scalars
    of the arrays' dtype; the scalars computed in float64 first."""
    t = param.dtype.type
    decay, step_size = t(1 - lr * weight_decay), t(lr / (1 - beta1**step))
    root_bc2 = t(math.sqrt(1 - beta2**step))
    for i in np.ndindex(param.shape):
        param[i] = param[i] * decay
        m[i] = t(beta1) * m[i] + t(1 - beta1) * grad[i]
        v[i] = t(beta2) * v[i] + t(1 - beta2) * grad[i] * grad[i]
        param[i] = param[i] - step_size * m[i] / (np.sqrt(v[i]) / root_bc2 + t(eps))


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize("dtype", [F32, F64])
def test_adamw_step_matches_torch_formula(backend_name: str, dtype: Any) -> None:
    r = rng(30)
    param = r.normal(size=(3, 4)).astype(dtype)
    m, v = np.zeros_like(param), np.zeros_like(param)
    ref_p, ref_m, ref_v = param.copy(), m.copy(), v.copy()
    ids = (id(param), id(m), id(v))
    hyper = {"lr": 0.01, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6, "weight_decay": 0.1}
    for step in range(1, 6):
        grad = r.normal(size=(3, 4)).astype(dtype)
        before = param.copy()
        result = get_backend(backend_name).adamw_step(param, grad, m, v, step=step, **hyper)
        reference_adamw(ref_p, grad, ref_m, ref_v, step, **hyper)
        assert result is None
        assert (id(param), id(m), id(v)) == ids
        assert not np.array_equal(param, before)
        np.testing.assert_array_equal(param, ref_p)
        np.testing.assert_array_equal(m, ref_m)
        np.testing.assert_array_equal(v, ref_v)
    assert param.dtype == m.dtype == v.dtype == np.dtype(dtype)


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_adamw_step_defaults_and_grad_views(backend_name: str) -> None:
    """The documented defaults; grad may be any layout (it is only read) and is not changed."""
    r = rng(31)
    param, m, v = r.normal(size=4), r.normal(size=4) * 0.1, r.random(4)
    grad = r.normal(size=(4, 2)).T[0]  # strided
    grad_before = grad.copy()
    ref = [param.copy(), m.copy(), v.copy()]
    get_backend(backend_name).adamw_step(param, grad, m, v, step=3, lr=0.5)
    reference_adamw(ref[0], grad_before, ref[1], ref[2], 3, 0.5, 0.9, 0.999, 1e-8, 0.01)
    for got, want in zip((param, m, v), ref, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(grad, grad_before)


@pytest.mark.parametrize("dtype", [F32, F64])
def test_adamw_backends_agree_bit_for_bit(dtype: Any) -> None:
    r = rng(32)
    start = r.normal(size=7).astype(dtype)
    states = {
        name: [start.copy(), np.zeros(7, dtype), np.zeros(7, dtype)] for name in TRAIN_BACKEND_IDS
    }
    for step in range(1, 4):
        grad = r.normal(size=7).astype(dtype)
        for name in TRAIN_BACKEND_IDS:
            p, m, v = states[name]
            get_backend(name).adamw_step(p, grad, m, v, step=step, lr=0.1, weight_decay=0.5)
    first = states[TRAIN_BACKEND_IDS[0]]
    for name in TRAIN_BACKEND_IDS[1:]:
        for got, want in zip(states[name], first, strict=True):
            np.testing.assert_array_equal(got, want)


# --- errors (E43–E53, and the older rules where these functions meet them) --------------------


def arr(shape: tuple[int, ...], dtype: Any = F64) -> np.ndarray:
    return np.zeros(shape, dtype=dtype)


@dataclass
class Case:
    id: str
    fn: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    exc: type[Exception] = ValueError
    message: str = ""


FLOAT_ONLY = "expected float32 or float64"
SHARE = "all inputs of one call must share one dtype"
FORWARD = "the shape of the forward's output"
UPDATABLE = (
    "must be a C-contiguous, writeable NumPy array in native byte order, as adamw_step updates "
    "it in place"
)
SEPARATE = "share memory; adamw_step needs four separate arrays"
MEMORY = contract.machine_memory()
HUGE = 10**6


def too_big(what: str, shape: str, dtype: str) -> str:
    return (
        f"{what} of shape {shape} and dtype {dtype} would need more than this machine's "
        f"{MEMORY} bytes of memory"
    )


def read_only(shape: tuple[int, ...]) -> np.ndarray:
    a = arr(shape)
    a.flags.writeable = False
    return a


_BUFFER = arr((8,))
P3 = arr((3,))
Q, K, V = arr((2, 3, 4), F32), arr((2, 5, 4), F32), arr((2, 5, 6), F32)  # output (2, 3, 6)
LOGITS = arr((3, 4))
LR = {"step": 1, "lr": 0.1}


def adamw(param: Any = None, grad: Any = None, m: Any = None, v: Any = None, **kw: Any) -> tuple:
    """Arguments for adamw_step: fresh [3] float64 arrays unless given, step 1, lr 0.1."""
    fresh = [a if a is not None else arr((3,)) for a in (param, grad, m, v)]
    return tuple(fresh), {**LR, **kw}


# fmt: off
ERROR_CASES = [
    # E43: an upstream gradient not of the forward's output shape (no broadcasting).
    Case("E43-linear", "linear_backward", (arr((2, 3)), arr((4, 3)), arr((2, 5))),
         message=f"grad_y has shape (2, 5); expected (2, 4), {FORWARD}"),
    Case("E43-linear-1d", "linear_backward", (arr((3,)), arr((4, 3)), arr((1, 4))),
         message=f"grad_y has shape (1, 4); expected (4,), {FORWARD}"),
    Case("E43-layer-norm", "layer_norm_backward", (arr((2, 3)), arr((3,)), arr((3,))),
         message=f"grad_y has shape (3,); expected (2, 3), {FORWARD}"),
    Case("E43-gelu", "gelu_backward", (arr((2, 3)), arr((1, 3))),
         message=f"grad_y has shape (1, 3); expected (2, 3), {FORWARD}"),
    Case("E43-gelu-0d", "gelu_backward", (arr(()), arr((1,))),
         message=f"grad_y has shape (1,); expected (), {FORWARD}"),
    Case("E43-relu", "relu_backward", (arr((4,)), arr((2, 4))),
         message=f"grad_y has shape (2, 4); expected (4,), {FORWARD}"),
    Case("E43-attention", "attention_backward", (Q, K, V, arr((2, 3, 4), F32)),
         message=f"grad_out has shape (2, 3, 4); expected (2, 3, 6), {FORWARD}"),
    Case("E43-attention-grouped", "attention_backward",
         (arr((4, 3, 2)), arr((2, 5, 2)), arr((2, 5, 1)), arr((2, 3, 1))),
         message=f"grad_out has shape (2, 3, 1); expected (4, 3, 1), {FORWARD}"),
    # E44: embedding_backward's grad_out is not [*ids.shape, d].
    Case("E44-lead", "embedding_backward", (np.zeros((2, 3), int), arr((2, 4, 5)), 3),
         message="grad_out has shape (2, 4, 5) and ids has shape (2, 3): grad_out must be "
                 "[*ids.shape, d]"),
    Case("E44-no-d", "embedding_backward", (np.zeros(3, int), arr((3,)), 3),
         message="grad_out has shape (3,) and ids has shape (3,): grad_out must be "
                 "[*ids.shape, d]"),
    Case("E44-0d", "embedding_backward", (np.int64(0), arr(()), 3),
         message="grad_out has shape () and ids has shape (): grad_out must be [*ids.shape, d]"),
    # E45: targets not of an integer dtype.
    Case("E45-float", "cross_entropy", (LOGITS, np.zeros(3)), exc=TypeError,
         message="targets has dtype float64; expected an integer dtype"),
    Case("E45-bool", "cross_entropy", (LOGITS, np.zeros(3, bool)), exc=TypeError,
         message="targets has dtype bool; expected an integer dtype"),
    # E46: logits not 2-D.
    Case("E46-1d", "cross_entropy", (arr((4,)), np.zeros(4, int)),
         message="logits must be 2-D [N, C], got shape (4,)"),
    Case("E46-3d", "cross_entropy", (arr((1, 2, 3)), np.zeros(1, int)),
         message="logits must be 2-D [N, C], got shape (1, 2, 3)"),
    # E47: targets not [N].
    Case("E47-short", "cross_entropy", (LOGITS, np.zeros(2, int)),
         message="targets has shape (2,); expected (3,) to match logits of shape (3, 4)"),
    Case("E47-2d", "cross_entropy", (LOGITS, np.zeros((3, 1), int)),
         message="targets has shape (3, 1); expected (3,) to match logits of shape (3, 4)"),
    # E48: a counted target outside [0, C), the first in order.
    Case("E48-too-big", "cross_entropy", (LOGITS, np.array([0, 4, 9])), exc=IndexError,
         message="target 4 is out of range for 4 classes"),
    Case("E48-negative", "cross_entropy", (LOGITS, np.array([-100, -1, 0])), exc=IndexError,
         message="target -1 is out of range for 4 classes"),
    Case("E48-ignore-skipped", "cross_entropy", (LOGITS, np.array([7, 8, 0])),
         {"ignore_index": 7}, IndexError, "target 8 is out of range for 4 classes"),
    Case("E48-uint64", "cross_entropy", (LOGITS, np.array([0, 2**64 - 1, 0], np.uint64)),
         exc=IndexError, message=f"target {2**64 - 1} is out of range for 4 classes"),
    Case("E48-no-classes", "cross_entropy", (arr((1, 0)), np.array([0])), exc=IndexError,
         message="target 0 is out of range for 0 classes"),
    # E49: grad, exp_avg, exp_avg_sq not of param's shape (in that order).
    Case("E49-grad", "adamw_step", *adamw(grad=arr((2,))),
         message="grad has shape (2,) and param has shape (3,): they must have the same shape"),
    Case("E49-exp-avg", "adamw_step", *adamw(m=arr((3, 1))),
         message="exp_avg has shape (3, 1) and param has shape (3,): they must have the same "
                 "shape"),
    Case("E49-exp-avg-sq", "adamw_step", *adamw(v=arr(())),
         message="exp_avg_sq has shape () and param has shape (3,): they must have the same shape"),
    # E50: param, exp_avg, exp_avg_sq not updatable in place.
    Case("E50-param-list", "adamw_step", *adamw(param=[0.0, 0.0, 0.0]),
         message=f"param {UPDATABLE}"),
    Case("E50-param-swapped", "adamw_step", *adamw(param=arr((3,), ">f8")),
         message=f"param {UPDATABLE}"),
    Case("E50-exp-avg-strided", "adamw_step", *adamw(m=arr((6,))[::2]),
         message=f"exp_avg {UPDATABLE}"),
    Case("E50-exp-avg-sq-read-only", "adamw_step", *adamw(v=read_only((3,))),
         message=f"exp_avg_sq {UPDATABLE}"),
    Case("E50-param-scalar", "adamw_step", (1.0, 1.0, arr(()), arr(())), LR,
         message=f"param {UPDATABLE}"),
    # E53: two of the four arrays overlap (pairs in order).
    Case("E53-param-grad", "adamw_step", *adamw(param=P3, grad=P3),
         message=f"param and grad {SEPARATE}"),
    Case("E53-param-exp-avg-sq", "adamw_step", *adamw(param=_BUFFER[:3], v=_BUFFER[2:5]),
         message=f"param and exp_avg_sq {SEPARATE}"),
    Case("E53-grad-exp-avg", "adamw_step", *adamw(grad=_BUFFER[::3], m=_BUFFER[5:]),
         message=f"grad and exp_avg {SEPARATE}"),
    Case("E53-exp-avg-exp-avg-sq", "adamw_step", *adamw(m=_BUFFER[:3], v=_BUFFER[:3]),
         message=f"exp_avg and exp_avg_sq {SEPARATE}"),
    # E51: step < 1.
    Case("E51-zero", "adamw_step", *adamw(step=0), message="step must be at least 1, got 0"),
    Case("E51-negative", "adamw_step", *adamw(step=-3), message="step must be at least 1, got -3"),
    # E52: hyperparameters out of range.
    Case("E52-lr", "adamw_step", *adamw(lr=-0.5),
         message="lr must be a finite number >= 0, got -0.5"),
    Case("E52-lr-inf", "adamw_step", *adamw(lr=float("inf")),
         message="lr must be a finite number >= 0, got inf"),
    Case("E52-lr-int", "adamw_step", *adamw(lr=-2),
         message="lr must be a finite number >= 0, got -2.0"),
    Case("E52-beta1-one", "adamw_step", *adamw(beta1=1.0),
         message="beta1 must be in [0, 1), got 1.0"),
    Case("E52-beta1-negative", "adamw_step", *adamw(beta1=-0.1),
         message="beta1 must be in [0, 1), got -0.1"),
    Case("E52-beta2-nan", "adamw_step", *adamw(beta2=float("nan")),
         message="beta2 must be in [0, 1), got nan"),
    Case("E52-eps", "adamw_step", *adamw(eps=-1e-8),
         message="eps must be a finite number >= 0, got -1e-08"),
    Case("E52-weight-decay", "adamw_step", *adamw(weight_decay=float("nan")),
         message="weight_decay must be a finite number >= 0, got nan"),
    # The older rules, as these functions meet them.
    Case("E1-linear-grad-y", "linear_backward", (arr((2, 3)), arr((4, 3)), np.zeros((2, 4), int)),
         exc=TypeError, message=f"grad_y has dtype int64; {FLOAT_ONLY}"),
    Case("E2-linear-grad-y", "linear_backward", (arr((2, 3)), arr((4, 3)), arr((2, 4), F32)),
         exc=TypeError, message=f"grad_y has dtype float32 but x has dtype float64; {SHARE}"),
    Case("E17-linear", "linear_backward", (arr(()), arr((4, 3)), arr(())),
         message="x must have at least 1 dimension [..., d], got shape ()"),
    Case("E18-linear", "linear_backward", (arr((2, 3)), arr((3,)), arr((2, 3))),
         message="weight must be 2-D [out, in], got shape (3,)"),
    Case("E19-linear", "linear_backward", (arr((2, 3)), arr((4, 2)), arr((2, 4))),
         message="x has shape (2, 3) and weight has shape (4, 2): x's last dimension must equal "
                 "weight's second (in)"),
    Case("E2-layer-norm-grad-y", "layer_norm_backward",
         (arr((2, 3), F32), arr((3,), F32), arr((2, 3))), exc=TypeError,
         message=f"grad_y has dtype float64 but x has dtype float32; {SHARE}"),
    Case("E17-layer-norm", "layer_norm_backward", (arr(()), arr((1,)), arr(())),
         message="x must have at least 1 dimension [..., d], got shape ()"),
    Case("E20-layer-norm", "layer_norm_backward", (arr((2, 3)), arr((2,)), arr((2, 3))),
         message="gamma has shape (2,); expected (3,) to match x of shape (2, 3)"),
    Case("E21-layer-norm", "layer_norm_backward", (arr((2, 3)), arr((3,)), arr((2, 3))),
         {"eps": -1.0}, message="eps must be a finite number >= 0, got -1.0"),
    Case("E2-gelu", "gelu_backward", (arr((2,), F32), arr((2,))), exc=TypeError,
         message=f"grad_y has dtype float64 but x has dtype float32; {SHARE}"),
    Case("E1-relu-x", "relu_backward", (np.zeros(2, np.float16), arr((2,))), exc=TypeError,
         message=f"x has dtype float16; {FLOAT_ONLY}"),
    Case("E1-attention-grad-out", "attention_backward", (Q, K, V, np.zeros((2, 3, 6), int)),
         exc=TypeError, message=f"grad_out has dtype int64; {FLOAT_ONLY}"),
    Case("E2-attention-grad-out", "attention_backward", (Q, K, V, arr((2, 3, 6))),
         exc=TypeError, message=f"grad_out has dtype float64 but q has dtype float32; {SHARE}"),
    Case("E1-cross-entropy", "cross_entropy", (np.zeros((3, 4), int), np.zeros(3, int)),
         exc=TypeError, message=f"logits has dtype int64; {FLOAT_ONLY}"),
    Case("E24-ignore-index", "cross_entropy", (LOGITS, np.zeros(3, int)),
         {"ignore_index": 2**63}, message="ignore_index must fit in a signed 64-bit integer, got "
                                          f"{2**63}"),
    Case("E3-embedding", "embedding_backward", (np.zeros(2), arr((2, 3)), 3), exc=TypeError,
         message="ids has dtype float64; expected an integer dtype"),
    Case("E1-embedding", "embedding_backward", (np.zeros(2, int), np.zeros((2, 3), int), 3),
         exc=TypeError, message=f"grad_out has dtype int64; {FLOAT_ONLY}"),
    Case("E16-embedding", "embedding_backward", (np.zeros(2, int), arr((2, 3)), 0),
         message="vocab_size must be at least 1, got 0"),
    Case("E24-embedding", "embedding_backward", (np.zeros(2, int), arr((2, 3)), -(2**63) - 1),
         message=f"vocab_size must fit in a signed 64-bit integer, got {-(2**63) - 1}"),
    Case("E6-embedding", "embedding_backward", (np.array([[0, 3], [-1, 0]]), arr((2, 2, 3)), 3),
         exc=IndexError, message="id 3 is out of range for a vocabulary of size 3"),
    Case("E1-adamw-grad", "adamw_step", *adamw(grad=np.zeros(3, int)), exc=TypeError,
         message=f"grad has dtype int64; {FLOAT_ONLY}"),
    Case("E2-adamw-exp-avg-sq", "adamw_step", *adamw(v=arr((3,), F32)), exc=TypeError,
         message=f"exp_avg_sq has dtype float32 but param has dtype float64; {SHARE}"),
    Case("E24-adamw-step", "adamw_step", *adamw(step=2**63),
         message=f"step must fit in a signed 64-bit integer, got {2**63}"),
    # E23: an array the call needs would not fit in memory (the result first).
    Case("E23-linear", "linear_backward",
         (np.broadcast_to(F32(1), (HUGE, HUGE)), arr((2, HUGE), F32), arr((HUGE, 2), F32)),
         exc=MemoryError, message=too_big("the result", f"({HUGE}, {HUGE})", "float32")),
    Case("order-E43-before-E23", "gelu_backward",
         (arr((2,)), np.broadcast_to(0.0, (HUGE, HUGE))),
         message=f"grad_y has shape ({HUGE}, {HUGE}); expected (2,), {FORWARD}"),
    Case("E23-relu", "relu_backward",
         (np.broadcast_to(0.0, (HUGE, HUGE)), np.broadcast_to(0.0, (HUGE, HUGE))),
         exc=MemoryError, message=too_big("the result", f"({HUGE}, {HUGE})", "float64")),
    Case("E23-cross-entropy", "cross_entropy",
         (np.broadcast_to(F32(0), (HUGE, HUGE)), np.broadcast_to(0, (HUGE,))), exc=MemoryError,
         message=too_big("the result", f"({HUGE}, {HUGE})", "float32")),
    Case("E23-embedding", "embedding_backward", (np.array([0]), arr((1, 4)), 10**15),
         exc=MemoryError, message=too_big("the result", f"({10**15}, 4)", "float64")),
    # Two rules broken at once: the documented order decides.
    Case("order-E19-before-E43", "linear_backward", (arr((2, 3)), arr((4, 2)), arr((9,))),
         message="x has shape (2, 3) and weight has shape (4, 2): x's last dimension must equal "
                 "weight's second (in)"),
    Case("order-E2-before-E17", "linear_backward", (arr(()), arr((4, 3)), arr((), F32)),
         exc=TypeError, message=f"grad_y has dtype float32 but x has dtype float64; {SHARE}"),
    Case("order-E20-before-E43", "layer_norm_backward", (arr((2, 3)), arr((2,)), arr((9,))),
         message="gamma has shape (2,); expected (3,) to match x of shape (2, 3)"),
    Case("order-E43-before-E21", "layer_norm_backward", (arr((2, 3)), arr((3,)), arr((3,))),
         {"eps": float("nan")}, message=f"grad_y has shape (3,); expected (2, 3), {FORWARD}"),
    Case("order-eps-read-first", "layer_norm_backward", (arr((2, 3), int), arr((3,)), arr((3,))),
         {"eps": "a"}, TypeError, "must be real number, not str"),
    Case("order-E10-before-grad-out", "attention_backward",
         (Q, arr((2, 5, 3), F32), V, np.zeros(1, int)),
         message="q has shape (2, 3, 4) and k has shape (2, 5, 3): their last dimensions (d_k) "
                 "differ"),
    Case("order-E14-before-grad-out", "attention_backward", (Q, K, V, arr((1,))),
         {"scale": float("nan")}, message="scale must be a finite number, got nan"),
    Case("order-E2-before-E43-attention", "attention_backward", (Q, K, V, arr((1,))),
         exc=TypeError, message=f"grad_out has dtype float64 but q has dtype float32; {SHARE}"),
    Case("order-E24-before-E1", "cross_entropy", (np.zeros((3, 4), int), np.zeros(3)),
         {"ignore_index": -(2**63) - 1},
         message=f"ignore_index must fit in a signed 64-bit integer, got {-(2**63) - 1}"),
    Case("order-E1-before-E45", "cross_entropy", (np.zeros((3, 4), int), np.zeros(3)),
         exc=TypeError, message=f"logits has dtype int64; {FLOAT_ONLY}"),
    Case("order-E45-before-E46", "cross_entropy", (arr((3,)), np.zeros(3)), exc=TypeError,
         message="targets has dtype float64; expected an integer dtype"),
    Case("order-E46-before-E47", "cross_entropy", (arr((3,)), np.zeros(2, int)),
         message="logits must be 2-D [N, C], got shape (3,)"),
    Case("order-E47-before-E48", "cross_entropy", (LOGITS, np.array([9, 9])),
         message="targets has shape (2,); expected (3,) to match logits of shape (3, 4)"),
    Case("order-E3-before-E1", "embedding_backward", (np.zeros(2), np.zeros((2, 3), int), 3),
         exc=TypeError, message="ids has dtype float64; expected an integer dtype"),
    Case("order-E1-before-E16", "embedding_backward", (np.zeros(2, int), np.zeros(2, int), 0),
         exc=TypeError, message=f"grad_out has dtype int64; {FLOAT_ONLY}"),
    Case("order-E16-before-E44", "embedding_backward", (np.zeros(2, int), arr((5,)), 0),
         message="vocab_size must be at least 1, got 0"),
    Case("order-E44-before-E6", "embedding_backward", (np.array([7]), arr((2, 3)), 3),
         message="grad_out has shape (2, 3) and ids has shape (1,): grad_out must be "
                 "[*ids.shape, d]"),
    Case("order-step-read-first", "adamw_step", *adamw(grad=np.zeros(3, int), step=1.5),
         exc=TypeError, message="'float' object cannot be interpreted as an integer"),
    Case("order-lr-read-first", "adamw_step", *adamw(grad=np.zeros(3, int), lr="x"),
         exc=TypeError, message="must be real number, not str"),
    Case("order-E1-before-E49", "adamw_step", *adamw(m=np.zeros(2, int)), exc=TypeError,
         message=f"exp_avg has dtype int64; {FLOAT_ONLY}"),
    Case("order-E49-before-E50", "adamw_step", *adamw(param=[0.0, 0.0, 0.0], grad=arr((2,))),
         message="grad has shape (2,) and param has shape (3,): they must have the same shape"),
    Case("order-E50-before-E53", "adamw_step", *adamw(param=P3, grad=P3, m=arr((6,))[::2]),
         message=f"exp_avg {UPDATABLE}"),
    Case("order-E53-before-E51", "adamw_step", *adamw(m=P3, v=P3, step=0),
         message=f"exp_avg and exp_avg_sq {SEPARATE}"),
    Case("order-E51-before-E52", "adamw_step", *adamw(step=0, lr=-1.0),
         message="step must be at least 1, got 0"),
    Case("order-E52-lr-before-beta1", "adamw_step", *adamw(lr=-1.0, beta1=2.0),
         message="lr must be a finite number >= 0, got -1.0"),
    Case("order-E52-beta2-before-eps", "adamw_step", *adamw(beta2=1.5, eps=-1.0),
         message="beta2 must be in [0, 1), got 1.5"),
    Case("order-E52-eps-before-weight-decay", "adamw_step", *adamw(eps=-1.0, weight_decay=-1.0),
         message="eps must be a finite number >= 0, got -1.0"),
]
# fmt: on


def test_every_new_error_is_covered() -> None:
    covered = {case.id.split("-")[0] for case in ERROR_CASES}
    assert {f"E{i}" for i in range(43, 54)} <= covered


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in ERROR_CASES])
def test_error_type_and_message(backend_name: str, case: Case) -> None:
    fn = getattr(get_backend(backend_name), case.fn)
    with pytest.raises(case.exc, match=re.escape(case.message)) as info:
        fn(*case.args, **case.kwargs)
    assert type(info.value) is case.exc
    assert str(info.value) == case.message


@pytest.mark.parametrize("backend_name", TRAIN_BACKENDS)
def test_rejected_adamw_step_changes_nothing(backend_name: str) -> None:
    """Every check runs before the first write: a rejected step leaves the state as it was."""
    param, m, v = np.ones(3), np.ones(3), np.ones(3)
    with pytest.raises(ValueError):
        get_backend(backend_name).adamw_step(param, np.ones(3), m, v, step=1, lr=0.1, beta2=1.0)
    for a in (param, m, v):
        np.testing.assert_array_equal(a, 1.0)
