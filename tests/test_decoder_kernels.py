"""rms_norm, rope, silu, swiglu and grouped-query attention: every backend against an independent
NumPy formula written here, the three backends against each other, and rust_core's pool (1 and 2
threads give the same bits). The error messages are in test_errors.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transformer_walk.core import get_backend

from conftest import BACKEND_NAMES, BACKEND_PAIRS, HAVE_RUST

requires_rust = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")

FLOATS = [np.float32, np.float64]
#: Tolerances a wrong axis, a missing weight or a pair rotated the wrong way would break by far.
TOL = {np.float32: dict(rtol=2e-6, atol=2e-6), np.float64: dict(rtol=1e-13, atol=1e-13)}
PROPERTY = settings(max_examples=25, deadline=None)


def _rng(*seed: int) -> np.random.Generator:
    return np.random.default_rng(list(seed))


# --- rms_norm -----------------------------------------------------------------------------------


def ref_rms_norm(x: np.ndarray, w: np.ndarray, eps: float) -> np.ndarray:
    """x / √(mean(x²) + eps) · w in float64, with a Python sum per row."""
    x64 = x.astype(np.float64)
    out = np.empty_like(x64)
    for idx in np.ndindex(*x.shape[:-1]):
        row = x64[idx]
        rms = math.sqrt(sum(v * v for v in row) / len(row) + eps)
        out[idx] = row / rms * w
    return out


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOATS)
@PROPERTY
@given(
    lead=st.lists(st.integers(0, 3), max_size=2),
    d=st.integers(1, 12),
    eps=st.sampled_from([0.0, 1e-6, 1e-5, 0.5]),
    scale=st.sampled_from([1e-3, 1.0, 100.0]),
    seed=st.integers(0, 2**16),
)
def test_rms_norm_matches_the_formula(backend, dtype, lead, d, eps, scale, seed):
    rng = _rng(seed)
    x = (rng.standard_normal((*lead, d)) * scale).astype(dtype)
    w = rng.standard_normal(d).astype(dtype)
    got = get_backend(backend).rms_norm(x, w, eps)
    assert got.dtype == dtype and got.shape == x.shape and got.flags.c_contiguous
    np.testing.assert_allclose(got, ref_rms_norm(x, w, eps), **TOL[dtype])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_rms_norm_default_eps_and_zero_rows(backend):
    be = get_backend(backend)
    x = np.array([[3.0, 4.0], [0.0, 0.0]])
    got = be.rms_norm(x, np.array([1.0, 2.0]))  # eps = 1e-5 by default
    root = math.sqrt(12.5 + 1e-5)
    np.testing.assert_allclose(got[0], [3 / root, 8 / root], rtol=1e-15)
    np.testing.assert_array_equal(got[1], [0.0, 0.0])  # 0 / √eps
    assert np.isnan(be.rms_norm(x, np.ones(2), eps=0.0)[1]).all()  # 0 / 0, as IEEE says
    assert be.rms_norm(np.zeros((2, 0)), np.zeros(0)).shape == (2, 0)


# --- rope ---------------------------------------------------------------------------------------


def ref_rope(x: np.ndarray, positions: np.ndarray, base: float) -> np.ndarray:
    """Pairs as complex numbers a + ib, multiplied by e^{iθ}, θ = p · base^(−2i/d)."""
    d = x.shape[-1]
    pairs = x.astype(np.float64).reshape(*x.shape[:-1], d // 2, 2)  # (..., n, d) → (..., n, d/2, 2)
    z = pairs[..., 0] + 1j * pairs[..., 1]
    theta = np.outer(positions.astype(np.float64), base ** (-np.arange(0, d, 2) / d))  # (n, d/2)
    rotated = z * np.exp(1j * theta)
    out = np.stack([rotated.real, rotated.imag], axis=-1)  # (..., n, d/2, 2)
    return out.reshape(x.shape)  # → (..., n, d)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOATS)
@PROPERTY
@given(
    lead=st.lists(st.integers(0, 3), max_size=2),
    n=st.integers(0, 5),
    half=st.integers(0, 5),
    base=st.sampled_from([10000.0, 100000.0, 2.0]),
    seed=st.integers(0, 2**16),
)
def test_rope_matches_complex_rotation(backend, dtype, lead, n, half, base, seed):
    rng = _rng(seed)
    d = 2 * half
    x = rng.standard_normal((*lead, n, d)).astype(dtype)
    int_type = rng.choice([np.int8, np.uint16, np.int32, np.int64, np.uint64])
    positions = rng.integers(0, 120, size=n).astype(int_type)
    got = get_backend(backend).rope(x, positions, base=base)
    assert got.dtype == dtype and got.shape == x.shape and got.flags.c_contiguous
    np.testing.assert_allclose(got, ref_rope(x, positions, base), **TOL[dtype])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_rope_facts(backend):
    """Position 0 changes nothing; d = 2 turns by exactly p radians; rotations keep each pair's
    length; and the score of a rotated query and key depends only on their distance."""
    be = get_backend(backend)
    rng = _rng(1)
    x = rng.standard_normal((2, 3, 8))
    np.testing.assert_array_equal(be.rope(x, np.zeros(3, np.int64)), x)
    got = be.rope(np.array([[1.0, 0.0]]), np.array([2]))
    np.testing.assert_allclose(got, [[math.cos(2), math.sin(2)]], rtol=1e-15)
    rotated = be.rope(x, np.array([5, 70, 300]), base=100000.0)
    lengths = np.hypot(x[..., 0::2], x[..., 1::2])
    np.testing.assert_allclose(np.hypot(rotated[..., 0::2], rotated[..., 1::2]), lengths, 1e-13)
    q, k = rng.standard_normal((2, 1, 8))

    def score(p_q: int, p_k: int) -> float:
        return float(be.rope(q, np.array([p_q]))[0] @ be.rope(k, np.array([p_k]))[0])

    assert score(10, 7) == pytest.approx(score(103, 100), rel=1e-12)
    assert score(10, 7) != pytest.approx(score(10, 8), rel=1e-3)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_rope_float32_angles_are_float64_at_long_positions(backend):
    """At position 8191 a float32 angle θ = p · base^(−2i/d) would be off by up to 5e-4 rad; the
    contract computes it in float64, so float32 results are within a few ε of the float64 ones."""
    be = get_backend(backend)
    x = _rng(2).standard_normal((3, 64))
    positions = np.array([8191, 8192, 100_000])
    want = ref_rope(x, positions, 100000.0)
    got32 = be.rope(x.astype(np.float32), positions, base=100000.0)
    np.testing.assert_allclose(got32, want, rtol=0, atol=4 * np.finfo(np.float32).eps * 3)


# --- silu, swiglu -------------------------------------------------------------------------------


def ref_silu(x: np.ndarray) -> np.ndarray:
    """x · σ(x) in float64 with a Python loop; σ from math.exp of a non-positive argument."""
    out = np.empty(x.shape)
    for idx in np.ndindex(*x.shape):
        v = float(x[idx])
        if math.isnan(v):
            out[idx] = math.nan
        elif v >= 0:
            out[idx] = v / (1 + math.exp(-v))
        else:
            out[idx] = v * math.exp(v) / (1 + math.exp(v))
    return out


SILU_X = np.array([-1e4, -100.0, -88.0, -20.0, -1.0, -1e-3, 0.0, 1e-3, 1.0, 20.0, 90.0, 1e4])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_silu_and_swiglu_match_the_formula(backend, dtype):
    be = get_backend(backend)
    rng = _rng(3)
    x = np.concatenate([SILU_X, rng.standard_normal(40) * 6]).astype(dtype).reshape(4, 13)
    up = rng.standard_normal(x.shape).astype(dtype)
    want = ref_silu(x)
    got = be.silu(x)
    assert got.dtype == dtype and got.shape == x.shape
    # float32: within 3 ε of the true value (rust_core's vectorised exp), or 2e-36 absolute where
    # the true value is below float32's normal range.
    tol = dict(rtol=3 * np.finfo(np.float32).eps, atol=2e-36) if dtype == np.float32 else TOL[dtype]
    np.testing.assert_allclose(got, want, **tol)
    np.testing.assert_allclose(be.swiglu(x, up), want * up, **tol)
    assert be.silu(np.float64(2.0)).shape == ()  # 0-d stays 0-d


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_silu_special_values(backend, dtype):
    be = get_backend(backend)
    got = be.silu(np.array([np.inf, -np.inf, np.nan, -0.0], dtype=dtype))
    assert got[0] == np.inf and np.isnan(got[2])
    assert got[1] == 0.0 and np.signbit(got[1]), "silu(-inf) is -0.0, its limit"
    assert got[3] == 0.0
    assert np.isnan(be.swiglu(np.array([-np.inf], dtype), np.array([np.inf], dtype))).all()


# --- grouped-query attention --------------------------------------------------------------------


def _gqa(rng: np.random.Generator, outer: tuple[int, ...], h: int, h_kv: int, n: int, m: int):
    q = rng.standard_normal((*outer, h, n, 8))
    k = rng.standard_normal((*outer, h_kv, m, 8))
    v = rng.standard_normal((*outer, h_kv, m, 5))
    return q, k, v


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize(
    ("outer", "h", "h_kv"), [((), 9, 3), ((2,), 4, 1), ((1, 2), 6, 2), ((), 3, 3), ((), 0, 0)]
)
@pytest.mark.parametrize("dtype", FLOATS)
def test_grouped_query_attention_is_attention_with_repeated_heads(backend, outer, h, h_kv, dtype):
    """Query head j reads key/value head j // (h / h_kv): the same numbers as repeating each
    key/value head h / h_kv times (Hugging Face's repeat_kv) and running ordinary attention."""
    be = get_backend(backend)
    rng = _rng(h, h_kv, len(outer))
    q, k, v = (a.astype(dtype) for a in _gqa(rng, outer, h, h_kv, 5, 7))
    group = h // h_kv if h_kv else 1
    k_full, v_full = np.repeat(k, group, axis=-3), np.repeat(v, group, axis=-3)
    mask = rng.random((5, 7)) < 0.7
    for kw in ({}, {"causal": True}, {"mask": mask}, {"mask": np.where(mask, 0.0, -np.inf)}):
        got = be.attention(q, k, v, **kw)
        np.testing.assert_allclose(got, be.attention(q, k_full, v_full, **kw), **TOL[dtype])
        w = be.attention_weights(q, k, **kw)
        np.testing.assert_allclose(w, be.attention_weights(q, k_full, **kw), **TOL[dtype])
        z2, w2 = be.attention_with_weights(q, k, v, **kw)
        np.testing.assert_allclose(z2, got, **TOL[dtype])
        np.testing.assert_allclose(w2, w, **TOL[dtype])
    if h_kv > 1 and h != h_kv:  # a wrong pairing (head j with kv head j % h_kv) differs
        wrong_k = np.tile(k, (*([1] * len(outer)), group, 1, 1))
        assert not np.allclose(be.attention_weights(q, k), be.attention_weights(q, wrong_k))


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
def test_grouped_query_attention_agrees_between_backends(a, b):
    rng = _rng(7)
    q, k, v = _gqa(rng, (2,), 6, 3, 4, 6)
    q32, k32, v32 = (x.astype(np.float32) for x in (q, k, v))
    for args, tol in (((q, k, v), TOL[np.float64]), ((q32, k32, v32), TOL[np.float32])):
        za = get_backend(a).attention(*args, causal=True)
        np.testing.assert_allclose(za, get_backend(b).attention(*args, causal=True), **tol)


# --- rust_core's pool ---------------------------------------------------------------------------


@requires_rust
@pytest.mark.parametrize("dtype", FLOATS)
def test_rust_threaded_sizes_equal_one_thread_and_numpy(dtype):
    """Calls above the pool's threshold: 1 and 2 threads give the same bits, and NumPy's numbers."""
    rust, numpy = get_backend("rust"), get_backend("numpy")
    rng = _rng(4)
    x = rng.standard_normal((9, 300, 576)).astype(dtype)
    w = rng.standard_normal(576).astype(dtype)
    positions = rng.integers(0, 8192, size=300)
    heads = rng.standard_normal((30, 300, 64)).astype(dtype)  # 576K numbers: on the pool
    q = rng.standard_normal((1, 9, 200, 64)).astype(dtype)
    k, v = (rng.standard_normal((1, 3, 200, 64)).astype(dtype) for _ in range(2))
    calls = [
        ("rms_norm", (x, w)),
        ("rope", (heads, positions)),
        ("silu", (x,)),
        ("swiglu", (x, x[::-1])),
        ("attention", (q, k, v)),
    ]
    before = rust.get_num_threads()
    try:
        results = []
        for threads in (1, 2):
            rust.set_num_threads(threads)
            results.append([getattr(rust, fn)(*args) for fn, args in calls])
    finally:
        rust.set_num_threads(before)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    for (fn, args), one, two in zip(calls, *results, strict=True):
        np.testing.assert_array_equal(one, two, err_msg=fn)
        # rope at positions up to 8192: one ulp of base^(-2i/d) (NumPy's pow is not libm's) moves
        # θ by up to 8192 · ε, about 2e-12 in float64.
        fn_tol = dict(rtol=1e-10, atol=1e-10) if fn == "rope" and dtype == np.float64 else tol
        np.testing.assert_allclose(one, getattr(numpy, fn)(*args), **fn_tol, err_msg=fn)
