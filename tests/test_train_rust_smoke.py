"""rust_core's training kernels against NumPy formulas written here, and their error texts
(the training spec's check order and messages, word for word)."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

# The compiled module itself: the package re-exports only the Backend Protocol's kernels
# (tests/test_backend_protocol.py), which do not list the training kernels yet.
rc: Any = pytest.importorskip("rust_core._rust_core")
if not hasattr(rc, "linear_backward"):
    pytest.skip("rust_core is built without the training kernels", allow_module_level=True)

DTYPES = [np.float32, np.float64]


def allclose(got: Any, want: Any, dtype: Any) -> None:
    """`got` within float32's or float64's tolerance of the float64 `want`."""
    rtol, atol = (2e-4, 2e-5) if dtype == np.float32 else (1e-10, 1e-12)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def rng_array(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def raises(exc: type[BaseException], text: str, f: Any, *args: Any, **kwargs: Any) -> None:
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        f(*args, **kwargs)


# -------------------------------------------------------------------------------------------------
# Values


@pytest.mark.parametrize("dtype", DTYPES)
def test_linear_backward(dtype: Any) -> None:
    x = rng_array((2, 5, 7), dtype, 1)
    w = rng_array((3, 7), dtype, 2)
    gy = rng_array((2, 5, 3), dtype, 3)
    gx, gw, gb = rc.linear_backward(x, w, gy)
    x64, w64, gy64 = (a.astype(np.float64).reshape(-1, a.shape[-1]) for a in (x, w, gy))
    assert gx.dtype == dtype and gx.shape == x.shape
    allclose(gx, (gy64 @ w64).reshape(x.shape), dtype)
    allclose(gw, gy64.T @ x64, dtype)
    allclose(gb, gy64.sum(0), dtype)
    assert rc.linear_backward(x, w, gy, bias=False)[2] is None
    # Any layout in: a transposed weight view, Fortran-ordered x.
    wt = np.ascontiguousarray(w.T).T
    gx2, gw2, _ = rc.linear_backward(np.asfortranarray(x), wt, gy)
    np.testing.assert_array_equal(gx2, gx)
    np.testing.assert_array_equal(gw2, gw)


@pytest.mark.parametrize("dtype", DTYPES)
def test_layer_norm_backward(dtype: Any) -> None:
    x = rng_array((4, 6), dtype, 4) * 3 + 1
    gamma = rng_array((6,), dtype, 5)
    gy = rng_array((4, 6), dtype, 6)
    eps = 1e-5
    gx, gg, gb = rc.layer_norm_backward(x, gamma, gy, eps=eps)
    x64, g64, gy64 = (a.astype(np.float64) for a in (x, gamma, gy))
    mean = x64.mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(x64.var(-1, keepdims=True) + eps)
    xhat = (x64 - mean) * rstd
    g = gy64 * g64
    want = rstd * (g - g.mean(-1, keepdims=True) - xhat * (g * xhat).mean(-1, keepdims=True))
    allclose(gx, want, dtype)
    allclose(gg, (gy64 * xhat).sum(0), dtype)
    allclose(gb, gy64.sum(0), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gelu_and_relu_backward(dtype: Any) -> None:
    x = np.linspace(-6, 6, 97).astype(dtype).reshape(1, 97)
    x[0, 48] = 0
    gy = rng_array(x.shape, dtype, 7)
    x64, gy64 = x.astype(np.float64), gy.astype(np.float64)
    cdf = 0.5 * (1 + erf(x64 / np.sqrt(2)))
    pdf = np.exp(-0.5 * x64**2) / np.sqrt(2 * np.pi)
    allclose(rc.gelu_backward(x, gy), gy64 * (cdf + x64 * pdf), dtype)
    np.testing.assert_array_equal(rc.relu_backward(x, gy), np.where(x > 0, gy, 0).astype(dtype))
    assert rc.relu_backward(x, gy)[0, 48] == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross_entropy(dtype: Any) -> None:
    logits = rng_array((6, 5), dtype, 8) * 3
    targets = np.array([0, 4, -100, 2, 2, 1], dtype=np.int32)
    loss, grad = rc.cross_entropy(logits, targets)
    assert isinstance(loss, float) and grad.dtype == dtype
    l64 = logits.astype(np.float64)
    keep = targets != -100
    lse = np.log(np.exp(l64 - l64.max(1, keepdims=True)).sum(1)) + l64.max(1)
    rows = np.nonzero(keep)[0]
    want_loss = (lse[rows] - l64[rows, targets[rows]]).mean()
    soft = np.exp(l64 - lse[:, None])
    onehot = np.zeros_like(l64)
    onehot[rows, targets[rows]] = 1
    want_grad = np.where(keep[:, None], soft - onehot, 0) / keep.sum()
    assert loss == pytest.approx(want_loss, rel=1e-6 if dtype == np.float32 else 1e-12)
    allclose(grad, want_grad, dtype)
    # A custom ignore_index; every row ignored: nan and zeros; no rows at all.
    loss2, grad2 = rc.cross_entropy(logits, np.array([0, 4, 3, 2, 2, 1], np.uint8), ignore_index=2)
    assert np.all(grad2[3:5] == 0) and math.isfinite(loss2)
    loss3, grad3 = rc.cross_entropy(logits[:2], np.array([-100, -100]))
    assert math.isnan(loss3) and np.all(grad3 == 0)
    loss4, grad4 = rc.cross_entropy(np.zeros((0, 3), dtype), np.zeros(0, np.int64))
    assert math.isnan(loss4) and grad4.shape == (0, 3)


@pytest.mark.parametrize("dtype", DTYPES)
def test_embedding_backward(dtype: Any) -> None:
    ids = np.array([[1, 3], [1, 1]], dtype=np.int16)
    grad_out = rng_array((2, 2, 4), dtype, 9)
    got = rc.embedding_backward(ids, grad_out, 5)
    want = np.zeros((5, 4))
    np.add.at(want, ids.reshape(-1), grad_out.reshape(-1, 4).astype(np.float64))
    assert got.dtype == dtype and got.shape == (5, 4)
    allclose(got, want, dtype)
    got0 = rc.embedding_backward(np.int64(2), grad_out[0, 0], 3)
    np.testing.assert_array_equal(got0[2], grad_out[0, 0])
    assert np.all(got0[:2] == 0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_adamw_step_matches_the_spec_formula_bit_for_bit(dtype: Any) -> None:
    p = rng_array((3, 50), dtype, 10)
    m, v = np.zeros_like(p), np.zeros_like(p)
    p2, m2, v2 = p.copy(), m.copy(), v.copy()
    lr, b1, b2, eps, wd = 1e-2, 0.9, 0.999, 1e-8, 0.01
    for step in range(1, 5):
        g = rng_array(p.shape, dtype, 20 + step)
        assert rc.adamw_step(p, g, m, v, step=step, lr=lr) is None
        p2 *= 1 - lr * wd
        m2[...] = b1 * m2 + (1 - b1) * g
        v2[...] = b2 * v2 + (1 - b2) * g * g
        bc1, bc2 = 1 - b1**step, 1 - b2**step
        p2 -= (lr / bc1) * m2 / (np.sqrt(v2) / math.sqrt(bc2) + eps)
        np.testing.assert_array_equal(p, p2)
        np.testing.assert_array_equal(m, m2)
        np.testing.assert_array_equal(v, v2)


# -------------------------------------------------------------------------------------------------
# Errors, in the spec's order


def test_linear_backward_errors() -> None:
    f32 = np.zeros((2, 3), np.float32)
    raises(
        TypeError,
        "x has dtype int64; expected float32 or float64",
        rc.linear_backward,
        np.zeros((2, 3), np.int64),
        f32,
        f32,
    )
    raises(
        TypeError,
        "grad_y has dtype float64 but x has dtype float32; all inputs of one call "
        "must share one dtype",
        rc.linear_backward,
        f32,
        f32,
        np.zeros(2),
    )
    raises(
        ValueError,
        "x must have at least 1 dimension [..., d], got shape ()",
        rc.linear_backward,
        np.float32(1),
        f32,
        f32,
    )
    raises(
        ValueError,
        "weight must be 2-D [out, in], got shape (3,)",
        rc.linear_backward,
        f32,
        np.zeros(3, np.float32),
        f32,
    )
    raises(
        ValueError,
        "x has shape (2, 3) and weight has shape (4, 2): x's last dimension must "
        "equal weight's second (in)",
        rc.linear_backward,
        f32,
        np.zeros((4, 2), np.float32),
        f32,
    )
    raises(
        ValueError,
        "grad_y has shape (2, 3); expected (2, 4), the shape of the forward's output",
        rc.linear_backward,
        f32,
        np.zeros((4, 3), np.float32),
        f32,
    )


def test_layer_norm_backward_errors() -> None:
    x = np.zeros((2, 3))
    with pytest.raises(TypeError):
        rc.layer_norm_backward(x, np.ones(3), x, eps="a")
    raises(
        ValueError,
        "x must have at least 1 dimension [..., d], got shape ()",
        rc.layer_norm_backward,
        np.float64(1),
        np.ones(3),
        x,
    )
    raises(
        ValueError,
        "gamma has shape (2,); expected (3,) to match x of shape (2, 3)",
        rc.layer_norm_backward,
        x,
        np.ones(2),
        x,
    )
    raises(
        ValueError,
        "grad_y has shape (3,); expected (2, 3), the shape of the forward's output",
        rc.layer_norm_backward,
        x,
        np.ones(3),
        np.ones(3),
    )
    raises(
        ValueError,
        "eps must be a finite number >= 0, got -1.0",
        rc.layer_norm_backward,
        x,
        np.ones(3),
        x,
        eps=-1,
    )


def test_activation_backward_errors() -> None:
    for f in (rc.gelu_backward, rc.relu_backward):
        raises(
            TypeError,
            "grad_y has dtype float32 but x has dtype float64; all inputs of one "
            "call must share one dtype",
            f,
            np.zeros(3),
            np.zeros(3, np.float32),
        )
        raises(
            ValueError,
            "grad_y has shape (1, 3); expected (3,), the shape of the forward's output",
            f,
            np.zeros(3),
            np.zeros((1, 3)),
        )


def test_cross_entropy_errors() -> None:
    logits = np.zeros((2, 3))
    raises(
        ValueError,
        f"ignore_index must fit in a signed 64-bit integer, got {2**70}",
        rc.cross_entropy,
        logits,
        [0, 1],
        ignore_index=2**70,
    )
    with pytest.raises(TypeError):
        rc.cross_entropy(logits, [0, 1], ignore_index=1.5)
    raises(
        TypeError,
        "logits has dtype int64; expected float32 or float64",
        rc.cross_entropy,
        np.zeros((2, 3), np.int64),
        [0, 1],
    )
    raises(
        TypeError,
        "targets has dtype float64; expected an integer dtype",
        rc.cross_entropy,
        logits,
        [0.0, 1.0],
    )
    raises(
        ValueError, "logits must be 2-D [N, C], got shape (3,)", rc.cross_entropy, np.zeros(3), [0]
    )
    raises(
        ValueError,
        "targets has shape (3,); expected (2,) to match logits of shape (2, 3)",
        rc.cross_entropy,
        logits,
        [0, 1, 2],
    )
    raises(
        IndexError, "target 3 is out of range for 3 classes", rc.cross_entropy, logits, [-100, 3]
    )
    raises(IndexError, "target -1 is out of range for 3 classes", rc.cross_entropy, logits, [-1, 3])


def test_embedding_backward_errors() -> None:
    g = np.zeros((2, 4))
    raises(
        ValueError,
        f"vocab_size must fit in a signed 64-bit integer, got {2**64}",
        rc.embedding_backward,
        [0, 1],
        g,
        2**64,
    )
    raises(
        TypeError,
        "ids has dtype float64; expected an integer dtype",
        rc.embedding_backward,
        [0.0, 1.0],
        g,
        3,
    )
    raises(
        TypeError,
        "grad_out has dtype int64; expected float32 or float64",
        rc.embedding_backward,
        [0, 1],
        np.zeros((2, 4), np.int64),
        3,
    )
    raises(ValueError, "vocab_size must be at least 1, got 0", rc.embedding_backward, [0, 1], g, 0)
    raises(
        ValueError,
        "grad_out has shape (2, 4) and ids has shape (3,): grad_out must be [*ids.shape, d]",
        rc.embedding_backward,
        [0, 1, 2],
        g,
        3,
    )
    raises(
        IndexError,
        "id 5 is out of range for a vocabulary of size 3",
        rc.embedding_backward,
        [5, -1],
        g,
        3,
    )


def test_adamw_step_errors() -> None:
    def arrays() -> list[np.ndarray]:
        return [np.zeros(4) for _ in range(4)]

    p, g, m, v = arrays()
    raises(
        ValueError,
        f"step must fit in a signed 64-bit integer, got {2**63}",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=2**63,
        lr="not a number",
    )
    with pytest.raises(TypeError):
        rc.adamw_step(p, g, m, v, step=1, lr="x")
    raises(
        TypeError,
        "exp_avg has dtype float32 but param has dtype float64; all inputs of one "
        "call must share one dtype",
        rc.adamw_step,
        p,
        g,
        m.astype(np.float32),
        v,
        step=1,
        lr=1,
    )
    raises(
        ValueError,
        "exp_avg_sq has shape (5,) and param has shape (4,): they must have the same shape",
        rc.adamw_step,
        p,
        g,
        m,
        np.zeros(5),
        step=1,
        lr=1,
    )
    e50 = (
        "{} must be a C-contiguous, writeable NumPy array in native byte order, as adamw_step "
        "updates it in place"
    )
    raises(ValueError, e50.format("param"), rc.adamw_step, [0.0] * 4, g, m, v, step=1, lr=1)
    ro = np.zeros(4)
    ro.flags.writeable = False
    raises(ValueError, e50.format("exp_avg"), rc.adamw_step, p, g, ro, v, step=1, lr=1)
    raises(
        ValueError, e50.format("exp_avg_sq"), rc.adamw_step, p, g, m, np.zeros(8)[::2], step=1, lr=1
    )
    raises(
        ValueError, e50.format("param"), rc.adamw_step, np.zeros(4, ">f8"), g, m, v, step=1, lr=1
    )
    # grad may be any layout or a list.
    rc.adamw_step(p, np.zeros(8)[::2], m, v, step=1, lr=1)
    rc.adamw_step(p, [0.0] * 4, m, v, step=1, lr=1)
    raises(
        ValueError,
        "param and exp_avg share memory; adamw_step needs four separate arrays",
        rc.adamw_step,
        p,
        g,
        p,
        v,
        step=1,
        lr=1,
    )
    big = np.zeros(8)
    raises(
        ValueError,
        "grad and exp_avg_sq share memory; adamw_step needs four separate arrays",
        rc.adamw_step,
        p,
        big[::2],
        m,
        big[4:],
        step=1,
        lr=1,
    )
    raises(ValueError, "step must be at least 1, got 0", rc.adamw_step, p, g, m, v, step=0, lr=-1)
    raises(
        ValueError,
        "lr must be a finite number >= 0, got -1.0",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=1,
        lr=-1,
        beta1=2,
    )
    raises(
        ValueError,
        "beta1 must be in [0, 1), got 1.0",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=1,
        lr=1,
        beta1=1,
    )
    raises(
        ValueError,
        "beta2 must be in [0, 1), got nan",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=1,
        lr=1,
        beta2=float("nan"),
    )
    raises(
        ValueError,
        "eps must be a finite number >= 0, got inf",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=1,
        lr=1,
        eps=float("inf"),
    )
    raises(
        ValueError,
        "weight_decay must be a finite number >= 0, got -0.5",
        rc.adamw_step,
        p,
        g,
        m,
        v,
        step=1,
        lr=1,
        weight_decay=-0.5,
    )
