"""The three backends compute the same things (docs/api.md), and the right things.

Three kinds of test:

- *agreement*: for every unordered pair of backends (python/numpy, python/rust, numpy/rust),
  hypothesis draws inputs — shapes with empty dimensions, 0-d ids, 2-D to 4-D attention, n ≠ m,
  -inf / +inf / NaN / ±1e4, fully masked rows, broadcast masks, non-contiguous layouts, float32
  and float64 — and the two results must have the same dtype, shape, NaN positions and values;
- *reference*: every backend against a naive attention written below with plain NumPy loops;
- *properties and worked examples*: softmax sums to 1 and never overflows, one-hot times a
  table is the lookup, the numbers for "his" of the article "从词向量到 Transformer".

Tolerances are per dtype (float32: rtol 1e-5, atol 1e-6; float64: 1e-12) — loose enough for
summation order and a last-bit difference in exp, far too tight for a wrong mask, a transposed
key matrix or a missing scale. Inputs to attention are drawn on a grid of quarters so that dot
products are exact in both precisions; where scores get large (a ±1e4 mask) the scale is a power
of two, so every backend sees bit-identical scores and the comparison stays meaningful.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from transformer_walk.core import contract, get_backend

from conftest import BACKEND_NAMES, BACKEND_PAIRS

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

FLOAT_DTYPES = [np.dtype(np.float32), np.dtype(np.float64)]
INT_DTYPES = [
    np.dtype(t)
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
]
TOL = {
    np.dtype(np.float32): {"rtol": 1e-5, "atol": 1e-6},
    np.dtype(np.float64): {"rtol": 1e-12, "atol": 1e-12},
}
INF, NAN = math.inf, math.nan


# --- helpers ------------------------------------------------------------------------------------


def _arrays_in(args: tuple, kwargs: dict) -> list[np.ndarray]:
    return [a for a in (*args, *kwargs.values()) if isinstance(a, np.ndarray)]


def call(name: str, fn: str, *args: Any, **kwargs: Any) -> np.ndarray:
    """Call ``fn`` of backend ``name`` and check what every call must satisfy.

    No warning at all (-inf and NaN are expected values, not accidents), a new C-contiguous
    ndarray that shares no memory with the inputs, and inputs left exactly as they were.
    """
    inputs = _arrays_in(args, kwargs)
    before = [a.copy() for a in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = getattr(get_backend(name), fn)(*args, **kwargs)
    assert type(out) is np.ndarray
    assert out.flags.c_contiguous
    for a, b in zip(inputs, before, strict=True):
        assert not np.may_share_memory(out, a), "the result must be a new array"
        np.testing.assert_array_equal(a, b, err_msg="an input was modified", strict=True)
    return out


def assert_agree(actual: np.ndarray, expected: np.ndarray, **tol: float) -> None:
    """Same dtype and shape, NaN in exactly the same places, values within the dtype's tolerance."""
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(
        np.isnan(actual), np.isnan(expected), err_msg="NaN positions differ"
    )
    np.testing.assert_allclose(actual, expected, **{**TOL[actual.dtype], **tol})


LAYOUTS = ["C", "F", "strided", "reversed", "swapped"]


def relayout(x: np.ndarray, kind: str) -> np.ndarray:
    """The same values as ``x`` in another memory layout (a view when it can be)."""
    if x.ndim == 0 or kind == "C":
        return x
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "strided":  # every other element of a larger buffer, along every axis
        every_other = tuple(slice(None, None, 2) for _ in x.shape)
        big = np.zeros(tuple(2 * s for s in x.shape), dtype=x.dtype)
        big[every_other] = x
        return big[every_other]
    if kind == "reversed":  # negative strides along every axis
        rev = tuple(slice(None, None, -1) for _ in x.shape)
        return x[rev].copy()[rev]
    if kind == "swapped" and x.ndim >= 2:  # a transposed view of a C-contiguous array
        return np.swapaxes(np.swapaxes(x, -1, -2).copy(), -1, -2)
    return x[::-1].copy()[::-1]


dtypes = st.sampled_from(FLOAT_DTYPES)
layouts = st.sampled_from(LAYOUTS)

#: Quarters in [-2, 2]: products and sums of a few of them are exact in float32 and float64.
GRID = [i / 4 for i in range(-8, 9)]


# --- the naive reference ------------------------------------------------------------------------


def ref_softmax(s: np.ndarray) -> np.ndarray:
    """docs/api.md's softmax of one float64 slice."""
    if s.size == 0:
        return s.copy()
    if np.isnan(s).any():
        return np.full_like(s, np.nan)
    mx = s.max()
    if mx == -np.inf:
        return np.zeros_like(s)
    e = np.exp(s - mx)
    return e / e.sum()


def ref_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    mask: np.ndarray | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Weights and output of attention, one score at a time in float64, cast back at the end."""
    dtype = q.dtype
    lead, (n, d_k), (m, d_v) = q.shape[:-2], q.shape[-2:], v.shape[-2:]
    if scale is None:
        scale = 1 / math.sqrt(d_k) if d_k else 1.0
    if mask is not None:
        if mask.dtype != np.bool_:
            mask = mask.astype(dtype).astype(np.float64)  # "cast to the dtype of q"
        mask = np.broadcast_to(mask, (*lead, n, m))
    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    weights = np.zeros((*lead, n, m))
    out = np.zeros((*lead, n, d_v))
    with np.errstate(all="ignore"):
        for idx in np.ndindex(*lead):
            for i in range(n):
                s = np.zeros(m)
                for j in range(m):
                    s[j] = np.dot(q64[idx][i], k64[idx][j]) * scale
                    if mask is not None:
                        bias = mask[idx][i, j]
                        s[j] += (0.0 if bias else -np.inf) if mask.dtype == np.bool_ else bias
                    if causal and j > i:
                        s[j] = -np.inf
                weights[idx][i] = ref_softmax(s)
                if not weights[idx][i].any():  # attends to nothing: a zero output
                    continue
                for t in range(d_v):
                    out[idx][i, t] = sum(weights[idx][i, j] * v64[idx][j, t] for j in range(m))
        return weights.astype(dtype), out.astype(dtype)


# --- strategies ---------------------------------------------------------------------------------

softmax_elements = st.one_of(
    st.floats(-60, 60, width=32),
    st.sampled_from([-INF, -INF, INF, NAN, 1e4, -1e4, 1e4 - 0.5, 0.0]),
)


@st.composite
def attention_cases(draw: st.DrawFn, *, with_v: bool = True) -> dict[str, Any]:
    """q, k, v (or q, k), mask, causal and scale for one attention call."""
    dtype = draw(dtypes)
    lead = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    n, m, d_k, d_v = (draw(st.integers(0, 4)) for _ in range(4))
    specials = draw(st.booleans())
    qk = st.sampled_from(GRID + ([-INF, INF, NAN] if specials else []))
    q = draw(hnp.arrays(dtype, (*lead, n, d_k), elements=qk))
    k = draw(hnp.arrays(dtype, (*lead, m, d_k), elements=qk))
    v_specials = [-INF, INF, NAN] if draw(st.booleans()) else []
    v = draw(hnp.arrays(dtype, (*lead, m, d_v), elements=st.sampled_from(GRID + v_specials)))

    scores_shape = (*lead, n, m)
    mask = None
    big = False
    kind = draw(st.sampled_from(["none", "bool", "float"]))
    if kind != "none":
        ndim = draw(st.integers(0, len(scores_shape)))
        tail = scores_shape[len(scores_shape) - ndim :]
        mask_shape = tuple(draw(st.sampled_from([s, 1])) for s in tail)
        if kind == "bool":
            mask = draw(hnp.arrays(np.bool_, mask_shape))
        else:
            values = GRID + [-INF, -INF, -INF, 1e4, -1e4] + ([NAN] if specials else [])
            mask_dtype = draw(st.sampled_from([np.float16, np.float32, np.float64]))
            mask = draw(hnp.arrays(mask_dtype, mask_shape, elements=st.sampled_from(values)))
            big = bool(np.any(np.abs(mask[np.isfinite(mask)]) >= 1e4))
        if draw(st.booleans()):  # a stride-0 broadcast view, as a caller might pass
            mask = np.broadcast_to(mask, scores_shape)
        else:
            mask = relayout(mask, draw(layouts))
    # Scores near ±1e4 carry an absolute rounding error of ~1e-3 in float32 unless they are
    # exact: with a power-of-two scale they are, in every backend.
    exact_scales = [1.0, 0.5, 2.0, 0.25, 0.0]
    scale = draw(st.sampled_from(exact_scales if big else [None, None, 0.3, -0.7, *exact_scales]))
    if scale is None and big and d_k in (2, 3):
        scale = 1.0
    case = {
        "q": relayout(q, draw(layouts)),
        "k": relayout(k, draw(layouts)),
        "mask": mask,
        "causal": draw(st.booleans()),
        "scale": scale,
    }
    if with_v:
        case["v"] = relayout(v, draw(layouts))
    return case


def run_attention(name: str, case: dict[str, Any]) -> np.ndarray:
    kw = {"mask": case["mask"], "causal": case["causal"], "scale": case["scale"]}
    if "v" in case:
        return call(name, "attention", case["q"], case["k"], case["v"], **kw)
    return call(name, "attention_weights", case["q"], case["k"], **kw)


def output_tolerance(case: dict[str, Any]) -> dict[str, float]:
    """z = Σ_j a_ij v_j may cancel to ~0: its absolute error scales with Σ_j |v_j|."""
    v = case["v"]
    tol = TOL[v.dtype]
    finite = np.where(np.isfinite(v), np.abs(v), 0)
    reach = float(finite.sum(axis=-2).max()) if v.size else 0.0
    return {"rtol": tol["rtol"], "atol": tol["atol"] * max(1.0, reach)}


# --- agreement between backends -----------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
@PROPERTY
@given(data=st.data())
def test_softmax_agrees(a: str, b: str, data: st.DataObject) -> None:
    dtype = data.draw(dtypes)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=4))
    x = data.draw(hnp.arrays(dtype, shape, elements=softmax_elements))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = relayout(x, data.draw(layouts))
    ra, rb = call(a, "softmax", x, axis=axis), call(b, "softmax", x, axis=axis)
    assert ra.dtype == dtype and ra.shape == shape
    assert_agree(ra, rb)


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
@PROPERTY
@given(data=st.data())
def test_embedding_lookup_agrees(a: str, b: str, data: st.DataObject) -> None:
    dtype = data.draw(dtypes)
    vocab, d = data.draw(st.integers(1, 6)), data.draw(st.integers(0, 4))
    values = st.one_of(st.floats(-1e4, 1e4, width=32), st.sampled_from([-INF, INF, NAN]))
    table = data.draw(hnp.arrays(dtype, (vocab, d), elements=values))
    ids_shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    ids = data.draw(
        hnp.arrays(
            data.draw(st.sampled_from(INT_DTYPES)), ids_shape, elements=st.integers(0, vocab - 1)
        )
    )
    table, ids = relayout(table, data.draw(layouts)), relayout(ids, data.draw(layouts))
    ra, rb = call(a, "embedding_lookup", table, ids), call(b, "embedding_lookup", table, ids)
    assert ra.dtype == dtype and ra.shape == (*ids_shape, d)
    # A lookup copies rows: bit-exact, NaN included.
    np.testing.assert_array_equal(ra, rb, strict=True)
    np.testing.assert_array_equal(ra, table[ids.astype(np.intp)], strict=True)


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
@PROPERTY
@given(data=st.data())
def test_one_hot_agrees(a: str, b: str, data: st.DataObject) -> None:
    vocab = data.draw(st.integers(1, 6))
    ids_shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    ids = data.draw(
        hnp.arrays(
            data.draw(st.sampled_from(INT_DTYPES)), ids_shape, elements=st.integers(0, vocab - 1)
        )
    )
    ids = relayout(ids, data.draw(layouts))
    dtype = data.draw(st.sampled_from([None, *FLOAT_DTYPES]))
    kw = {} if dtype is None else {"dtype": dtype.type}
    ra, rb = call(a, "one_hot", ids, vocab, **kw), call(b, "one_hot", ids, vocab, **kw)
    expected = (ids[..., None] == np.arange(vocab)).astype(dtype or np.float32)
    np.testing.assert_array_equal(ra, rb, strict=True)
    np.testing.assert_array_equal(ra, expected, strict=True)


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
@PROPERTY
@given(case=attention_cases())
def test_attention_agrees(a: str, b: str, case: dict[str, Any]) -> None:
    ra, rb = run_attention(a, case), run_attention(b, case)
    assert ra.dtype == case["q"].dtype
    assert_agree(ra, rb, **output_tolerance(case))


@pytest.mark.parametrize(("a", "b"), BACKEND_PAIRS)
@PROPERTY
@given(case=attention_cases(with_v=False))
def test_attention_weights_agree(a: str, b: str, case: dict[str, Any]) -> None:
    ra, rb = run_attention(a, case), run_attention(b, case)
    assert ra.dtype == case["q"].dtype
    assert_agree(ra, rb)


# --- against the naive reference ----------------------------------------------------------------


@pytest.mark.parametrize("name", BACKEND_NAMES)
@PROPERTY
@given(case=attention_cases())
def test_attention_matches_naive_reference(name: str, case: dict[str, Any]) -> None:
    weights, out = ref_attention(
        case["q"], case["k"], case["v"], case["mask"], case["causal"], case["scale"]
    )
    kw = {"mask": case["mask"], "causal": case["causal"], "scale": case["scale"]}
    assert_agree(call(name, "attention_weights", case["q"], case["k"], **kw), weights)
    assert_agree(run_attention(name, case), out, **output_tolerance(case))


@pytest.mark.parametrize("name", BACKEND_NAMES)
@PROPERTY
@given(data=st.data())
def test_softmax_matches_naive_reference(name: str, data: st.DataObject) -> None:
    dtype = data.draw(dtypes)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
    x = data.draw(hnp.arrays(dtype, shape, elements=softmax_elements))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    moved = np.moveaxis(x.astype(np.float64), axis, -1)
    expected = np.zeros_like(moved)
    with np.errstate(all="ignore"):
        for idx in np.ndindex(*moved.shape[:-1]):
            expected[idx] = ref_softmax(moved[idx])
    expected = np.moveaxis(expected, -1, axis).astype(dtype)
    assert_agree(call(name, "softmax", relayout(x, data.draw(layouts)), axis=axis), expected)


# --- properties ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKEND_NAMES)
@PROPERTY
@given(data=st.data())
def test_softmax_slice_rules(name: str, data: st.DataObject) -> None:
    """Each slice: sums to 1; or is all NaN (it holds a NaN or +inf); or is all 0 (all -inf)."""
    dtype = data.draw(dtypes)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    x = data.draw(hnp.arrays(dtype, shape, elements=softmax_elements))
    y = call(name, "softmax", x)
    for idx in np.ndindex(*x.shape[:-1]):
        xs, ys = x[idx], y[idx]
        if np.isnan(xs).any() or np.isposinf(xs).any():
            assert np.isnan(ys).all()
        elif np.isneginf(xs).all():
            np.testing.assert_array_equal(ys, np.zeros_like(ys), strict=True)
        else:
            assert np.isfinite(ys).all() and (ys >= 0).all() and (ys <= 1).all()
            assert (ys[np.isneginf(xs)] == 0).all(), "-inf entries get exactly 0"
            np.testing.assert_allclose(ys.sum(dtype=np.float64), 1.0, rtol=10 * TOL[dtype]["rtol"])


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
def test_softmax_does_not_overflow(name: str, dtype: np.dtype) -> None:
    x = np.array([[1e4, -1e4, 0.0, 1e4], [-1e4, -1e4 - 1, -INF, -1e4]], dtype=dtype)
    y = call(name, "softmax", x)
    e = math.exp(-1)
    expected = np.array([[0.5, 0, 0, 0.5], [1 / (1 + e), e / (1 + e), 0, 1 / (1 + e)]])
    expected[1] /= expected[1].sum()
    assert np.isfinite(y).all()
    np.testing.assert_allclose(y, expected.astype(dtype), **TOL[dtype])


@pytest.mark.parametrize("name", BACKEND_NAMES)
@PROPERTY
@given(data=st.data())
def test_one_hot_times_table_is_the_lookup(name: str, data: st.DataObject) -> None:
    dtype = data.draw(dtypes)
    vocab, d = data.draw(st.integers(1, 6)), data.draw(st.integers(0, 4))
    table = data.draw(hnp.arrays(dtype, (vocab, d), elements=st.floats(-1e4, 1e4, width=32)))
    ids_shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
    ids = data.draw(hnp.arrays(np.int64, ids_shape, elements=st.integers(0, vocab - 1)))
    one_hot = call(name, "one_hot", ids, vocab, dtype=dtype.type)
    looked_up = call(name, "embedding_lookup", table, ids)
    np.testing.assert_array_equal(one_hot @ table, looked_up, strict=True)


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_one_hot_rows(name: str) -> None:
    ids = np.array([[3, 0], [1, 3]], dtype=np.uint16)
    y = call(name, "one_hot", ids, 4)
    assert y.dtype == np.float32 and y.shape == (2, 2, 4)
    np.testing.assert_array_equal(y.sum(axis=-1), np.ones((2, 2), np.float32))
    np.testing.assert_array_equal(y.argmax(axis=-1), ids)
    assert call(name, "one_hot", [2], 3, dtype=np.dtype(np.float64)).dtype == np.float64
    assert call(name, "one_hot", [2], 3, dtype=None).dtype == np.float32  # None: the default


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_wide_float_mask_is_cast_to_q_dtype(name: str) -> None:
    """A float64 mask holding float64's lowest value (a common "masked" marker) becomes -inf
    when cast to float32 — an exact 0 weight, and no overflow warning from the cast."""
    q = np.ones((2, 2), dtype=np.float32)
    mask = np.array([0.0, np.finfo(np.float64).min])
    w = call(name, "attention_weights", q, q, mask=mask)
    np.testing.assert_array_equal(w, np.array([[1, 0], [1, 0]], np.float32), strict=True)
    half = np.array([-1.0, 0.0], dtype=np.float16)  # float16 masks are accepted too
    expected = call(name, "softmax", np.array([[1.0, 2.0], [1.0, 2.0]], np.float32))
    assert_agree(call(name, "attention_weights", q, q, mask=half, scale=1.0), expected)


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_zero_dim_ids(name: str) -> None:
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(call(name, "embedding_lookup", table, 2), table[2], strict=True)
    np.testing.assert_array_equal(
        call(name, "embedding_lookup", table, np.uint8(3)), table[3], strict=True
    )
    np.testing.assert_array_equal(
        call(name, "one_hot", np.int8(1), 3), np.array([0, 1, 0], np.float32), strict=True
    )


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_large_unsigned_ids_and_empty_vocabulary(name: str) -> None:
    table = np.arange(6, dtype=np.float64).reshape(3, 2)
    ids = np.array([[2], [0]], dtype=np.uint64)
    np.testing.assert_array_equal(call(name, "embedding_lookup", table, ids), table[[[2], [0]]])
    empty = call(name, "embedding_lookup", np.zeros((0, 5)), np.zeros((2, 0), np.int32))
    assert empty.shape == (2, 0, 5) and empty.dtype == np.float64


# --- the worked example of the article "从词向量到 Transformer" -------------------------------

#: Scores of the query "his" against "Tom", "loves", "his", "dog" in that article.
HIS_SCORES = [2.5, 0.5, 1.0, 0.8]
HIS_V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5]]


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_worked_example_softmax(name: str) -> None:
    weights = call(name, "softmax", HIS_SCORES)
    assert weights.dtype == np.float64
    np.testing.assert_array_equal(np.round(weights, 3), [0.649, 0.088, 0.145, 0.119])


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_worked_example_z_his(name: str) -> None:
    q = np.array([HIS_SCORES])  # [1, 4]: with k = I, q·k_j is the j-th score
    z = call(name, "attention", q, np.identity(4), np.array(HIS_V), scale=1.0)
    assert z.dtype == np.float64 and z.shape == (1, 2)
    np.testing.assert_array_equal(np.round(z, 3), [[0.853, 0.292]])
    w = call(name, "attention_weights", q, np.identity(4), scale=1.0)
    np.testing.assert_allclose(w, call(name, "softmax", q), **TOL[w.dtype])


# --- attention: specific cases ------------------------------------------------------------------


def _qkv(lead: tuple[int, ...], n: int, m: int, d_k: int = 3, d_v: int = 2, dtype=np.float64):
    rng = np.random.default_rng(sum(lead) * 100 + n * 10 + m)
    q = rng.standard_normal((*lead, n, d_k)).astype(dtype)
    k = rng.standard_normal((*lead, m, d_k)).astype(dtype)
    v = rng.standard_normal((*lead, m, d_v)).astype(dtype)
    return q, k, v


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("mask_kind", ["bool", "float"])
def test_fully_masked_rows_give_zeros(name: str, dtype: np.dtype, mask_kind: str) -> None:
    q, k, v = _qkv((2,), 3, 4, dtype=dtype)
    v[:, 0, 0], v[:, 1, 1] = np.inf, np.nan  # 0 · v would be NaN: "outputs zeros" wins
    allowed = np.ones((3, 4), dtype=bool)
    allowed[1] = False  # query 1 may attend to nothing
    mask = allowed if mask_kind == "bool" else np.where(allowed, 0.0, -np.inf)
    w = call(name, "attention_weights", q, k, mask=mask)
    z = call(name, "attention", q, k, v, mask=mask)
    np.testing.assert_array_equal(w[:, 1], np.zeros((2, 4), dtype), strict=True)
    np.testing.assert_array_equal(z[:, 1], np.zeros((2, 2), dtype), strict=True)
    np.testing.assert_allclose(w[:, [0, 2]].sum(axis=-1), 1.0, rtol=1e-5)
    assert not np.isfinite(z[:, [0, 2]]).any(), "rows that weigh an inf or NaN value are not finite"


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize(("n", "m"), [(3, 5), (5, 3), (4, 4), (1, 3), (3, 1)])
def test_causal_is_top_left_aligned(name: str, n: int, m: int) -> None:
    q, k, v = _qkv((2,), n, m)
    w = call(name, "attention_weights", q, k, causal=True)
    visible = np.tril(np.ones((n, m), dtype=bool))  # as torch.tril(ones(n, m))
    assert (w[:, ~visible] == 0).all()
    assert (w[:, visible] > 0).all()
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)
    # Causal is the same as the equivalent bool mask.
    np.testing.assert_allclose(w, call(name, "attention_weights", q, k, mask=visible), rtol=1e-12)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize(
    "mask_shape",
    [(3, 5), (1, 2, 3, 5), (2, 1, 5), (5,), (1, 5), (3, 1), (), (4, 2, 3, 5), (4, 1, 1, 1)],
    ids=str,
)
def test_broadcast_masks(name: str, mask_shape: tuple[int, ...]) -> None:
    """A mask of any broadcastable shape equals the same mask written out in full."""
    q, k, v = _qkv((4, 2), 3, 5)
    rng = np.random.default_rng(len(mask_shape))
    float_mask = rng.choice([0.0, -1.0, 0.5, -np.inf], size=mask_shape)
    bool_mask = rng.random(mask_shape) < 0.6
    for mask in (float_mask, bool_mask):
        full = np.broadcast_to(mask, (4, 2, 3, 5)).copy()
        for fn, args in (("attention", (q, k, v)), ("attention_weights", (q, k))):
            got = call(name, fn, *args, mask=mask)
            assert_agree(got, call(name, fn, *args, mask=full))


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_bool_mask_adds_minus_inf_but_causal_sets_it(name: str) -> None:
    """docs/api.md: a False mask entry *contributes* -inf (so NaN + -inf stays NaN), while
    causal *sets* s_ij = -inf (so a NaN score hidden by causality disappears)."""
    q = np.array([[1.0], [1.0]])
    k = np.array([[1.0], [np.nan]])  # key 1 gives a NaN score for every query
    hidden = np.array([True, False])  # ... and is masked out for every query
    w_mask = call(name, "attention_weights", q, k, mask=hidden)
    assert np.isnan(w_mask).all()
    w_causal = call(name, "attention_weights", q, k, causal=True)
    np.testing.assert_array_equal(w_causal[0], [1.0, 0.0])
    assert np.isnan(w_causal[1]).all()


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
def test_attention_no_overflow_at_large_scores(name: str, dtype: np.dtype) -> None:
    q = np.array([[1e4], [-1e4]], dtype=dtype)
    k = np.array([[1e4], [-1e4], [0.0]], dtype=dtype)
    w = call(name, "attention_weights", q, k, scale=1.0)  # scores ±1e8
    np.testing.assert_array_equal(w, np.array([[1, 0, 0], [0, 1, 0]], dtype=dtype), strict=True)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize(
    ("lead", "n", "m", "d_k", "d_v"),
    [((), 0, 3, 2, 2), ((), 3, 0, 2, 2), ((), 3, 4, 0, 2), ((), 3, 4, 2, 0), ((0, 2), 3, 4, 2, 2)],
)
def test_attention_empty_dimensions(name: str, lead, n: int, m: int, d_k: int, d_v: int) -> None:
    q, k, v = _qkv(lead, n, m, d_k, d_v)
    z = call(name, "attention", q, k, v)
    w = call(name, "attention_weights", q, k)
    assert z.shape == (*lead, n, d_v) and w.shape == (*lead, n, m)
    if m == 0:  # no key to attend to: every output row is zero
        np.testing.assert_array_equal(z, np.zeros((*lead, n, d_v)), strict=True)
    if d_k == 0 and n and m:  # every score is 0 (scale 1): uniform weights
        np.testing.assert_allclose(w, np.full((n, m), 1 / m), rtol=1e-12)


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_default_scale_is_inverse_sqrt_dk(name: str) -> None:
    q, k, v = _qkv((2,), 3, 4, d_k=5)
    default = call(name, "attention_weights", q, k)
    explicit = call(name, "attention_weights", q, k, scale=1 / math.sqrt(5))
    np.testing.assert_allclose(default, explicit, rtol=1e-12)
    unscaled = call(name, "attention_weights", q, k, scale=1.0)
    assert not np.allclose(default, unscaled)


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_non_contiguous_and_list_inputs(name: str) -> None:
    """Transposed, negative-stride, stride-0 and list inputs give the contiguous answer."""
    q, k, v = _qkv((2, 2), 3, 4, dtype=np.float32)
    expected = call(name, "attention", q, k, v, causal=True)
    q_t = np.ascontiguousarray(np.swapaxes(q, 0, 1)).swapaxes(0, 1)
    k_r = k[::-1, :, ::-1].copy()[::-1, :, ::-1]
    v_f = np.asfortranarray(v)
    assert_agree(call(name, "attention", q_t, k_r, v_f, causal=True), expected)
    row = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    q_b = np.broadcast_to(row, (3, 3))  # stride 0
    got = call(name, "attention", q_b, k[0, 0], v[0, 0])
    assert_agree(got, call(name, "attention", np.tile(row, (3, 1)), k[0, 0], v[0, 0]))
    as_lists = call(name, "attention", q[0, 0].tolist(), k[0, 0].tolist(), v[0, 0].tolist())
    assert as_lists.dtype == np.float64  # lists go through np.asarray: float64
    np.testing.assert_allclose(as_lists, call(name, "attention", q[0, 0], k[0, 0], v[0, 0]), 1e-5)


# --- threads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BACKEND_NAMES)
def test_num_threads_round_trip(name: str) -> None:
    backend = get_backend(name)
    before = backend.get_num_threads()
    assert isinstance(before, int) and before >= 1
    try:
        for n in (1, 3, 2):
            assert backend.set_num_threads(n) is None
            assert backend.get_num_threads() == n
    finally:
        backend.set_num_threads(before)
    assert backend.get_num_threads() == before


@pytest.mark.parametrize(
    ("env", "expected"),
    [("3", 3), (" 7 ", 7), ("0", None), ("-2", None), ("two", None), ("", None), (None, None)],
)
def test_default_num_threads(monkeypatch: pytest.MonkeyPatch, env: str | None, expected) -> None:
    if env is None:
        monkeypatch.delenv(contract.NUM_THREADS_ENV, raising=False)
    else:
        monkeypatch.setenv(contract.NUM_THREADS_ENV, env)
    assert contract.default_num_threads() == (expected or os.cpu_count())
    fresh = contract.ThreadCount()
    assert fresh.get() == (expected or os.cpu_count())
