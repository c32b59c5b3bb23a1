"""linear, layer_norm and gelu: every backend against an independent reference, the exact error
messages of docs/api.md (E17–E21, E29), layer_norm's residual and gelu's bias against the separate
sums, and sizes that take the multi-threaded path."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transformer_walk.core import get_backend

from conftest import BACKEND_NAMES, HAVE_RUST

TOL = {np.float32: dict(rtol=2e-5, atol=2e-5), np.float64: dict(rtol=1e-12, atol=1e-12)}


def ref_linear(x, w, b):
    """Plain loops in float64: y[r, o] = Σ_i x[r, i] · w[o, i] + b[o]."""
    lead, d_in, d_out = x.shape[:-1], x.shape[-1], w.shape[0]
    rows = x.reshape(math.prod(lead), d_in).astype(np.float64)  # (..., in) → (rows, in)
    out = np.zeros((rows.shape[0], d_out))
    for r in range(rows.shape[0]):
        for o in range(d_out):
            out[r, o] = sum(rows[r, i] * float(w[o, i]) for i in range(d_in))
    return out.reshape(*lead, d_out) + (0 if b is None else b.astype(np.float64))


def ref_layer_norm(x, g, b, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(-1, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps) * g + b


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(max_examples=25, deadline=None)
@given(
    lead=st.lists(st.integers(0, 3), min_size=0, max_size=2),
    d_in=st.integers(0, 9),
    d_out=st.integers(0, 7),
    with_bias=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_linear_matches_the_reference(backend, dtype, lead, d_in, d_out, with_bias, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((*lead, d_in)).astype(dtype)
    w = rng.standard_normal((d_out, d_in)).astype(dtype)
    b = rng.standard_normal(d_out).astype(dtype) if with_bias else None
    got = get_backend(backend).linear(x, w, b)
    assert got.dtype == dtype and got.shape == (*lead, d_out) and got.flags.c_contiguous
    np.testing.assert_allclose(got, ref_linear(x, w, b), **TOL[dtype])


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(max_examples=25, deadline=None)
@given(
    lead=st.lists(st.integers(0, 3), min_size=0, max_size=2),
    d=st.integers(1, 12),
    eps=st.sampled_from([1e-12, 1e-5, 0.1]),
    offset=st.sampled_from([0.0, 100.0]),
    seed=st.integers(0, 2**16),
)
def test_layer_norm_matches_the_reference(backend, dtype, lead, d, eps, offset, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((*lead, d)) + offset).astype(dtype)
    g, b = rng.standard_normal(d).astype(dtype), rng.standard_normal(d).astype(dtype)
    got = get_backend(backend).layer_norm(x, g, b, eps)
    assert got.dtype == dtype and got.shape == x.shape
    want = ref_layer_norm(x, g, b, eps)
    if dtype == np.float64:
        np.testing.assert_allclose(got, want, **TOL[dtype])
        return
    # float32 loses ε·|mean| to rounding when it subtracts the mean, which the division by the
    # standard deviation magnifies: e.g. d = 2 around 100 with the two values 1e-4 apart. The
    # bound is that condition number (|mean| / std) times a few ε, per row, plus 1e-4.
    x64 = x.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # constant rows: both give beta
        cond = np.abs(x64.mean(-1, keepdims=True)) / x64.std(-1, keepdims=True)
    cond = np.nan_to_num(cond, nan=np.inf)
    bound = 1e-4 + 8 * np.finfo(np.float32).eps * cond * np.abs(g).max()
    assert np.all(np.abs(got - want) <= bound + 1e-4 * np.abs(want))


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_gelu_exact_values(backend):
    x = np.array([-3.0, -1.0, 0.0, 0.5, 1.0, 10.0])
    want = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x]
    got = get_backend(backend).gelu(x)
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-16)
    assert got[4] == pytest.approx(0.8413447460685429, rel=1e-15)  # Φ(1)
    got32 = get_backend(backend).gelu(x.astype(np.float32))
    assert got32.dtype == np.float32
    # The documented float32 bound (rust_core's vectorised erf): within 2·ε·|x| of the truth.
    bound = 2 * np.finfo(np.float32).eps * np.abs(x)
    assert np.all(np.abs(got32 - np.array(want)) <= bound), got32 - np.array(want)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(max_examples=20, deadline=None)
@given(
    lead=st.lists(st.integers(0, 3), min_size=0, max_size=2),
    d=st.integers(1, 12),
    seed=st.integers(0, 2**16),
)
def test_the_residual_and_the_bias_are_the_separate_sums(backend, dtype, lead, d, seed):
    """layer_norm(x, …, residual=r) is layer_norm(x + r, …) and gelu(x, bias=b) is gelu(x + b),
    bit for bit: the sum is formed in x's dtype, as NumPy forms it."""
    rng = np.random.default_rng(seed)
    x, r = (rng.standard_normal((*lead, d)).astype(dtype) for _ in range(2))
    g, beta, b = (rng.standard_normal(d).astype(dtype) for _ in range(3))
    be = get_backend(backend)
    fused = be.layer_norm(x, g, beta, 1e-5, residual=r)
    assert fused.dtype == dtype and fused.shape == x.shape
    np.testing.assert_array_equal(fused, be.layer_norm(x + r, g, beta, 1e-5))
    biased = be.gelu(x, bias=b)
    assert biased.dtype == dtype and biased.shape == x.shape
    np.testing.assert_array_equal(biased, be.gelu(x + b))
    np.testing.assert_array_equal(be.gelu(x, bias=None), be.gelu(x))


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_rust_fused_sums_on_threaded_sizes():
    """MiniLM's sizes (many parts on two threads, rows of 384 and 1536) give the same numbers
    fused as the sums computed first."""
    import rust_core

    rng = np.random.default_rng(5)
    before = rust_core.get_num_threads()
    try:
        rust_core.set_num_threads(2)
        for d in (384, 1536):
            x, r = (rng.standard_normal((3, 100, d)).astype(np.float32) for _ in range(2))
            g, beta = rng.standard_normal(d).astype(np.float32), np.zeros(d, np.float32)
            np.testing.assert_array_equal(
                rust_core.layer_norm(x, g, beta, 1e-12, residual=r),
                rust_core.layer_norm(x + r, g, beta, 1e-12),
            )
            np.testing.assert_array_equal(rust_core.gelu(x, bias=g), rust_core.gelu(x + g))
    finally:
        rust_core.set_num_threads(before)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_non_contiguous_inputs(backend):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 10))[:, ::2]  # (6, 5), strided
    w = rng.standard_normal((5, 3)).T  # (3, 5), transposed
    b = rng.standard_normal(6)[::2]
    be = get_backend(backend)
    np.testing.assert_allclose(be.linear(x, w, b), ref_linear(x, w, b), rtol=1e-12, atol=1e-12)
    g, beta = rng.standard_normal(10)[::2], rng.standard_normal(5)
    np.testing.assert_allclose(
        be.layer_norm(x, g, beta, 1e-5), ref_layer_norm(x, g, beta, 1e-5), rtol=1e-12, atol=1e-12
    )


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rust_threaded_sizes_equal_numpy_and_one_thread(dtype):
    """BERT-sized calls (above the pool threshold): 1 thread and 2 threads agree bitwise. The
    second product's weight rows are over 4 KB long, so each block of them is transposed before
    the product (its 383 × 1030 leaves edges of the 8 × 8 tiles and uneven blocks)."""
    rust, numpy = get_backend("rust"), get_backend("numpy")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 130, 384)).astype(dtype)
    w = rng.standard_normal((1536, 384)).astype(dtype)
    b, g, beta = (rng.standard_normal(n).astype(dtype) for n in (1536, 384, 384))
    x_long = rng.standard_normal((3, 130, 1030)).astype(dtype)
    w_long, b_long = (rng.standard_normal(shape).astype(dtype) for shape in ((383, 1030), 383))
    before = rust.get_num_threads()
    try:
        results = []
        for threads in (1, 2):
            rust.set_num_threads(threads)
            results.append((rust.linear(x, w, b), rust.layer_norm(x, g, beta, 1e-12), rust.gelu(x),
                            rust.linear(x_long, w_long, b_long)))  # fmt: skip
    finally:
        rust.set_num_threads(before)
    for a, c in zip(*results, strict=True):
        np.testing.assert_array_equal(a, c)
    tol = dict(rtol=1e-4, atol=2e-4) if dtype == np.float32 else dict(rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(results[0][0], numpy.linear(x, w, b), **tol)
    np.testing.assert_allclose(results[0][1], numpy.layer_norm(x, g, beta, 1e-12), **tol)
    np.testing.assert_allclose(results[0][2], numpy.gelu(x), **tol)
    np.testing.assert_allclose(results[0][3], numpy.linear(x_long, w_long, b_long), **tol)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows", [1, 5, 128, 129, 300])
def test_linear_with_weight_t_is_the_same_product(backend, dtype, rows):
    """``weight_t`` (weight's transpose by rows) changes where rust_core's products read the
    weights, not what they compute: within float rounding of the product without it, on both
    sides of the few-row kernel's 128 rows, with a weight above the 128 KB that the threads
    split by columns, and the same bits on one thread and two. The other backends compute from
    ``weight``, whatever ``weight_t`` holds."""
    if backend == "python" and rows > 5:
        pytest.skip("the pure-Python product of 384 × 200 weights takes seconds a call")
    be = get_backend(backend)
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, 384)).astype(dtype)
    w, b = rng.standard_normal((200, 384)).astype(dtype), rng.standard_normal(200).astype(dtype)
    w_t = np.ascontiguousarray(w.T)
    want = be.linear(x, w, b)
    np.testing.assert_allclose(be.linear(x, w, b, weight_t=w_t), want, **TOL[dtype])
    # A weight_t that is not weight's transpose shows which one the product read.
    other = be.linear(x, w, b, weight_t=np.zeros_like(w_t))
    if backend != "rust":
        np.testing.assert_array_equal(other, want)
        return
    if dtype == np.float32 and rows <= 128 and be.simd_level() != "baseline":
        np.testing.assert_array_equal(other, want)  # the few-row kernel reads weight
    else:
        np.testing.assert_array_equal(other, np.broadcast_to(b, other.shape))
    before = be.get_num_threads()
    try:
        be.set_num_threads(1)
        one = be.linear(x, w, b, weight_t=w_t)
        be.set_num_threads(2)
        np.testing.assert_array_equal(be.linear(x, w, b, weight_t=w_t), one)
    finally:
        be.set_num_threads(before)


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_sums_longer_than_512_give_the_same_bits_on_any_thread_count():
    """gemm cuts a sum of more than 512 terms by the shape of the block it is handed, and the
    thread count sets the blocks: rust_core hands it pieces of at most 512 and never makes a part
    small enough for gemm's other kernels (one row, at most 256 outputs), so the bits stay put.
    A float64 linear (no few-row kernel) of 4 rows, a weight split by rows, a 3-row one whose
    parts by columns would hold at most 256 outputs, and linear_backward's three results: grad_x
    summing over 600 outputs in parts of single rows, grad_weight over 1000 rows with a last part
    of one row."""
    rng = np.random.default_rng(5)

    def normal(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)

    x64, w64 = normal(4, 768, dtype=np.float64), normal(256, 768, dtype=np.float64)
    x, w, x3, w3 = normal(300, 768), normal(20, 768), normal(3, 768), normal(300, 768)
    xa, wa, ga = normal(3, 64), normal(600, 64), normal(3, 600)
    xb, wb, gb = normal(1000, 64), normal(64, 64), normal(1000, 64)
    rust = get_backend("rust")
    calls = {
        "float64 linear": lambda: rust.linear(x64, w64),
        "linear split by rows": lambda: rust.linear(x, w),
        "3-row linear": lambda: rust.linear(x3.astype(np.float64), w3.astype(np.float64)),
        "linear_backward over 600 outputs": lambda: rust.linear_backward(xa, wa, ga),
        "linear_backward over 1000 rows": lambda: rust.linear_backward(xb, wb, gb),
    }
    before = rust.get_num_threads()
    try:
        for name, call in calls.items():
            rust.set_num_threads(1)
            one = call()
            for threads in (2, 3, 4, 5, 6, 8):
                rust.set_num_threads(threads)
                got = call()
                pairs = zip(
                    *((r,) if isinstance(r, np.ndarray) else r for r in (got, one)), strict=True
                )
                for a, b in pairs:
                    np.testing.assert_array_equal(a, b, err_msg=f"{name}, {threads} threads")
    finally:
        rust.set_num_threads(before)


ERRORS = [
    ("linear", (np.float32(1.0), np.ones((2, 3), np.float32)), {}, ValueError,
     "x must have at least 1 dimension [..., d], got shape ()"),
    ("linear", (np.ones(3), np.ones(3)), {}, ValueError,
     "weight must be 2-D [out, in], got shape (3,)"),
    ("linear", (np.ones((2, 3)), np.ones((4, 5))), {}, ValueError,
     "x has shape (2, 3) and weight has shape (4, 5): x's last dimension must equal weight's "
     "second (in)"),
    ("linear", (np.ones(3), np.ones((2, 3)), np.ones(3)), {}, ValueError,
     "bias has shape (3,); expected (2,) to match weight of shape (2, 3)"),
    ("linear", (np.ones(3), np.ones((2, 3), np.float32)), {}, TypeError,
     "weight has dtype float32 but x has dtype float64; all inputs of one call must share one "
     "dtype"),
    ("linear", (np.ones(3, np.int64), np.ones((2, 3))), {}, TypeError,
     "x has dtype int64; expected float32 or float64"),
    ("linear", (np.ones(3), np.ones((2, 3))), {"weight_t": np.ones((2, 3))}, ValueError,
     "weight_t has shape (2, 3); expected (3, 2), the transpose of weight of shape (2, 3)"),
    ("linear", (np.ones(3), np.ones((2, 3))), {"weight_t": np.ones((3, 2), np.float32)},
     TypeError, "weight_t has dtype float32 but x has dtype float64; all inputs of one call "
     "must share one dtype"),
    ("linear", (np.ones(3), np.ones((2, 3)), np.ones(3)), {"weight_t": np.ones(4)}, ValueError,
     "bias has shape (3,); expected (2,) to match weight of shape (2, 3)"),
    ("layer_norm", (np.ones(3), np.ones(2), np.ones(3)), {}, ValueError,
     "gamma has shape (2,); expected (3,) to match x of shape (3,)"),
    ("layer_norm", (np.ones((2, 3)), np.ones(3), np.ones((1, 3))), {}, ValueError,
     "beta has shape (1, 3); expected (3,) to match x of shape (2, 3)"),
    ("layer_norm", (np.ones(3), np.ones(3), np.ones(3)), {"eps": -1.0}, ValueError,
     "eps must be a finite number >= 0, got -1.0"),
    ("layer_norm", (np.ones(3), np.ones(3), np.ones(3)), {"eps": float("inf")}, ValueError,
     "eps must be a finite number >= 0, got inf"),
    ("layer_norm", (np.ones(3), np.ones(3, np.float32), np.ones(3)), {}, TypeError,
     "gamma has dtype float32 but x has dtype float64; all inputs of one call must share one "
     "dtype"),
    ("layer_norm", (np.ones((2, 3)), np.ones(3), np.ones(3)), {"residual": np.ones(3)},
     ValueError, "x has shape (2, 3) and residual has shape (3,): they must have the same shape"),
    ("layer_norm", (np.ones(3), np.ones(3), np.ones(3)), {"residual": np.ones(3, np.float32)},
     TypeError, "residual has dtype float32 but x has dtype float64; all inputs of one call must "
     "share one dtype"),
    ("gelu", (np.ones(3, bool),), {}, TypeError, "x has dtype bool; expected float32 or float64"),
    ("gelu", (np.ones((2, 3)),), {"bias": np.ones(2)}, ValueError,
     "bias has shape (2,); expected (3,) to match x of shape (2, 3)"),
    ("gelu", (np.float64(1.0),), {"bias": np.ones(1)}, ValueError,
     "x must have at least 1 dimension [..., d], got shape ()"),
    ("gelu", (np.ones(3),), {"bias": np.ones(3, np.float32)}, TypeError,
     "bias has dtype float32 but x has dtype float64; all inputs of one call must share one "
     "dtype"),
]  # fmt: skip


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize(("fn", "args", "kwargs", "exc", "message"), ERRORS)
def test_errors_name_the_problem(backend, fn, args, kwargs, exc, message):
    with pytest.raises(exc, match=re.escape(message)) as info:
        getattr(get_backend(backend), fn)(*args, **kwargs)
    assert str(info.value) == message
