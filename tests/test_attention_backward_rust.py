"""rust_core's ``attention_backward``: the gradients of ``attention`` against a NumPy reference
that materialises the weights, against central finite differences of rust_core's own forward,
and its checks (attention's, then grad_out's E1/E2, E43) with their messages.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conftest import HAVE_RUST

if not HAVE_RUST:
    pytest.skip("rust_core is not built", allow_module_level=True)

import rust_core as rc  # noqa: E402

if not hasattr(rc, "attention_backward"):
    pytest.skip("rust_core predates attention_backward", allow_module_level=True)


def reference(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    grad_out: np.ndarray,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grad_q, grad_k, grad_v) in float64 by the textbook formulas over the whole P."""
    q, k, v, g = (np.asarray(a, np.float64) for a in (q, k, v, grad_out))
    if scale is None:  # attention's default; 1 when d_k = 0
        scale = 1 / np.sqrt(q.shape[-1]) if q.shape[-1] else 1.0
    group = q.shape[-3] // k.shape[-3] if q.ndim >= 3 and k.shape[-3] else 1
    kk, vv = (np.repeat(a, group, axis=-3) for a in (k, v)) if group > 1 else (k, v)
    s = q @ np.swapaxes(kk, -1, -2) * scale
    if mask is not None:
        mask = np.asarray(mask)
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    n, m = s.shape[-2:]
    if causal:
        s = np.where(np.triu(np.ones((n, m), bool), 1), -np.inf, s)
    top = s.max(-1, keepdims=True, initial=-np.inf)
    dead = np.isneginf(top)
    e = np.exp(s - np.where(dead, 0, top))
    p = np.where(dead, 0, e / np.where(dead, 1, e.sum(-1, keepdims=True)))
    dp = g @ np.swapaxes(vv, -1, -2)
    ds = p * (dp - (p * dp).sum(-1, keepdims=True))
    gq = scale * ds @ kk
    gk = scale * np.swapaxes(ds, -1, -2) @ q
    gv = np.swapaxes(p, -1, -2) @ g
    if group > 1:
        gk = gk.reshape(*k.shape[:-2], group, *k.shape[-2:]).sum(-3)
        gv = gv.reshape(*v.shape[:-2], group, *v.shape[-2:]).sum(-3)
    return gq, gk, gv


def test_float64_matches_finite_differences_of_attention() -> None:
    rng = np.random.default_rng(0)
    q = rng.standard_normal((2, 4, 3, 5))
    k = rng.standard_normal((2, 2, 4, 5))  # grouped: 4 query heads over 2
    v = rng.standard_normal((2, 2, 4, 3))
    g = rng.standard_normal((2, 4, 3, 3))
    mask = rng.standard_normal((3, 4))
    mask[1, 0] = -np.inf
    kw: dict[str, Any] = {"mask": mask, "causal": True, "scale": 0.8}
    grads = rc.attention_backward(q, k, v, g, **kw)

    def loss(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> float:
        return float((rc.attention(q, k, v, **kw) * g).sum())

    h = 1e-6
    for which, grad in enumerate(grads):
        for idx in np.ndindex(grad.shape):
            plus = [q.copy(), k.copy(), v.copy()]
            minus = [q.copy(), k.copy(), v.copy()]
            plus[which][idx] += h
            minus[which][idx] -= h
            numeric = (loss(*plus) - loss(*minus)) / (2 * h)
            assert abs(numeric - grad[idx]) < 1e-7, (which, idx)
    for got, want in zip(grads, reference(q, k, v, g, **kw), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "variant", ["plain", "causal", "bool mask", "float mask", "grouped", "views"]
)
def test_float32_agrees_with_the_reference(variant: str) -> None:
    rng = np.random.default_rng(1)
    shape = (2, 4, 100, 32)
    q, k, v, g = (rng.standard_normal(shape).astype(np.float32) for _ in range(4))
    kw: dict[str, Any] = {}
    if variant == "causal":
        kw["causal"] = True
    elif variant == "bool mask":
        allow = rng.random((100, 100)) > 0.3
        allow[7] = False  # query 7 attends to nothing
        kw["mask"] = allow
    elif variant == "float mask":
        add = rng.standard_normal((4, 1, 100)).astype(np.float32)
        add[add > 1.5] = -np.inf
        kw["mask"] = add
    elif variant == "grouped":
        k, v = k[:, :2], v[:, :2]
        kw["causal"] = True
    elif variant == "views":
        q = np.ascontiguousarray(q.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
        kv = np.concatenate([k, v], axis=-1)
        k, v = kv[..., :32], kv[..., 32:]
    grads = rc.attention_backward(q, k, v, g, **kw)
    for got, want, arg in zip(grads, reference(q, k, v, g, **kw), (q, k, v), strict=True):
        assert got.dtype == np.float32 and got.flags.c_contiguous and got.shape == arg.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * np.abs(want).max())
    if variant == "bool mask":
        assert (grads[0][:, :, 7] == 0).all()


@pytest.mark.parametrize(
    "shapes",
    [
        ((3, 4), (5, 4), (5, 2)),
        ((0, 4), (5, 4), (5, 2)),
        ((3, 4), (0, 4), (0, 2)),
        ((3, 0), (5, 0), (5, 2)),
        ((3, 4), (5, 4), (5, 0)),
        ((0, 2, 3, 4), (0, 1, 5, 4), (0, 1, 5, 2)),
        ((2, 0, 3, 4), (2, 0, 5, 4), (2, 0, 5, 2)),
        # keys beyond what a task keeps between its passes (recomputed), grouped
        ((1, 2, 130, 8), (1, 1, 2100, 8), (1, 1, 2100, 4)),
    ],
)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_edge_shapes(
    shapes: tuple[tuple[int, ...], ...], causal: bool, dtype: type[np.floating[Any]]
) -> None:
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal(s).astype(dtype) for s in shapes)
    g = rng.standard_normal((*shapes[0][:-1], shapes[2][-1])).astype(dtype)
    grads = rc.attention_backward(q, k, v, g, causal=causal)
    tol = 1e-12 if dtype == np.float64 else 3e-5
    for got, want, arg in zip(grads, reference(q, k, v, g, causal=causal), (q, k, v), strict=True):
        assert got.shape == arg.shape and got.dtype == dtype
        np.testing.assert_allclose(
            got, want, rtol=0, atol=tol * max(1.0, np.abs(want).max(initial=0))
        )


def test_a_query_that_attends_to_nothing_adds_nothing() -> None:
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((1, 6, 4)) for _ in range(3))
    g = rng.standard_normal((1, 6, 4))
    g[0, 2] = np.inf  # its grad_out row is infinite: still no contribution
    allow = np.ones((6, 6), bool)
    allow[2] = False
    gq, gk, gv = rc.attention_backward(q, k, v, g, mask=allow)
    assert (gq[0, 2] == 0).all()
    assert np.isfinite(gk).all() and np.isfinite(gv).all()
    g[0, 2] = 0
    for got, want in zip((gq, gk, gv), reference(q, k, v, g, mask=allow), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


F32 = np.float32
Q, K, V = np.zeros((2, 3, 4), F32), np.zeros((2, 5, 4), F32), np.zeros((2, 5, 6), F32)
G = np.zeros((2, 3, 6), F32)


@pytest.mark.parametrize(
    ("args", "kw", "error", "message"),
    [
        (
            (Q, K, V, G.astype(np.int64)),
            {},
            TypeError,
            "grad_out has dtype int64; expected float32 or float64",
        ),
        (
            (Q, K, V, G.astype(np.float64)),
            {},
            TypeError,
            "grad_out has dtype float64 but q has dtype float32; "
            "all inputs of one call must share one dtype",
        ),
        (
            (Q, K, V, np.zeros((2, 3, 4), F32)),
            {},
            ValueError,
            "grad_out has shape (2, 3, 4); expected (2, 3, 6), the shape of the forward's output",
        ),
        (
            (Q, K, V, np.zeros(6, F32)),
            {},
            ValueError,
            "grad_out has shape (6,); expected (2, 3, 6), the shape of the forward's output",
        ),
        # attention's checks come first, whatever grad_out is.
        (
            (Q.astype(np.int64), K, V, "not an array"),
            {},
            TypeError,
            "q has dtype int64; expected float32 or float64",
        ),
        (
            (Q, K[..., :3], V, G.astype(np.int64)),
            {},
            ValueError,
            "q has shape (2, 3, 4) and k has shape (2, 5, 3): their last dimensions (d_k) differ",
        ),
        (
            (Q, K, V, G.astype(np.int64)),
            {"mask": np.zeros((3, 5), np.int64)},
            TypeError,
            "mask has dtype int64; expected bool or a float dtype",
        ),
        (
            (Q, K, V, G.astype(np.int64)),
            {"scale": float("inf")},
            ValueError,
            "scale must be a finite number, got inf",
        ),
    ],
)
def test_errors(args: tuple[Any, ...], kw: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error) as info:
        rc.attention_backward(*args, **kw)
    assert str(info.value) == message


def test_memory_is_checked_as_attention_checks_it() -> None:
    # attention's E23 for its result [..., n, d_v] (grad_out's shape) comes before grad_out's E1.
    q = np.broadcast_to(F32(0), (1 << 20, 1))
    v = np.broadcast_to(F32(0), (1, 1 << 20))
    with pytest.raises(MemoryError, match=r"^the result of shape \(1048576, 1048576\)"):
        rc.attention_backward(q, np.zeros((1, 1), F32), v, np.zeros(1, np.int64))
