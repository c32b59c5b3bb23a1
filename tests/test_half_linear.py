"""half_linear: a float16 weight, widened to float32 — every backend against an independent
reference (plain float64 loops over the widened weights), on both sides of rust_core's few-row
limit (128 rows) and through its odd layouts. Its errors (E54 and linear's) are in
test_errors.py; tests/test_simd_levels.py runs this file again at each lower SIMD level."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_dense import ref_linear

from transformer_walk.core import get_backend

from conftest import BACKEND_NAMES

#: float32 rounding of a sum of d_in products: relative to the terms' sizes, which are ~1 here.
TOL = dict(rtol=2e-5, atol=5e-5)


def _inputs(rng: np.random.Generator, lead: tuple[int, ...], d_in: int, d_out: int, bias: bool):
    x = rng.standard_normal((*lead, d_in), dtype=np.float32)
    w = rng.standard_normal((d_out, d_in)).astype(np.float16)
    b = rng.standard_normal(d_out, dtype=np.float32) if bias else None
    return x, w, b


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@settings(max_examples=25, deadline=None)
@given(
    lead=st.lists(st.integers(0, 3), min_size=0, max_size=2),
    d_in=st.integers(0, 40),
    d_out=st.integers(0, 9),
    with_bias=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_half_linear_matches_the_reference(backend, lead, d_in, d_out, with_bias, seed):
    x, w, b = _inputs(np.random.default_rng(seed), tuple(lead), d_in, d_out, with_bias)
    got = get_backend(backend).half_linear(x, w, b)
    assert got.dtype == np.float32 and got.shape == (*lead, d_out) and got.flags.c_contiguous
    np.testing.assert_allclose(got, ref_linear(x, w, b), **TOL)


@pytest.mark.parametrize("backend", ["numpy", "rust"])
@pytest.mark.parametrize("rows", [1, 6, 127, 128, 129, 300])
def test_both_of_rust_cores_paths_match_the_reference(backend, rows):
    """Up to 128 rows rust_core reads the float16 weight in registers; from 129 it widens the
    weight to a float32 copy first. MiniLM's sizes: in 384, out 1536 (several tasks of rows)."""
    if backend == "rust":
        pytest.importorskip("rust_core")
    x, w, b = _inputs(np.random.default_rng(rows), (rows,), 384, 1536, True)
    got = get_backend(backend).half_linear(x, w, b)
    want = x.astype(np.float64) @ w.astype(np.float64).T + b  # (rows, in) @ (in, out)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_it_is_linear_over_the_widened_weight(backend):
    """Every float16 is a float32 exactly: the same product as linear on weight.astype(float32),
    up to the order of the sums."""
    be = get_backend(backend)
    x, w, b = _inputs(np.random.default_rng(3), (5,), 33, 7, True)
    np.testing.assert_allclose(
        be.half_linear(x, w, b), be.linear(x, w.astype(np.float32), b), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("lead", [(6,), (6, 40)])  # rust_core's few-row path, then its copy
def test_odd_layouts_and_byte_orders_are_read_as_their_values(backend, lead):
    be = get_backend(backend)
    x, w, b = _inputs(np.random.default_rng(4), lead, 40, 12, True)
    want = ref_linear(x, w, b)
    x_t = np.asfortranarray(x)
    w_strided = np.repeat(w, 2, axis=1)[:, ::2]  # a view with a stride of 2 halves
    assert not w_strided.flags.c_contiguous
    for args in [(x_t, w, b), (x, w_strided, b), (x.astype(">f4"), w.astype(">f2"), b)]:
        np.testing.assert_allclose(be.half_linear(*args), want, **TOL)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_float16_specials_reach_the_output(backend):
    """The largest float16, a subnormal and inf in W are their float32 values; inf and NaN
    propagate as in linear."""
    be = get_backend(backend)
    w = np.array([[65504.0, 0.0], [2.0**-24, 0.0], [np.inf, 0.0], [np.nan, 1.0]], np.float16)
    x = np.array([[1.0, 5.0]], np.float32)
    got = be.half_linear(x, w)
    assert got[0, 0] == np.float32(65504.0)
    assert got[0, 1] == np.float32(2.0**-24)
    assert got[0, 2] == np.inf
    assert np.isnan(got[0, 3])
