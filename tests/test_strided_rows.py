"""swiglu, silu and rope read arrays whose rows are contiguous where they lie — gate and up as
the two halves of one [n, 2·d_ff] product, q and k as heads of column blocks of one Q·K·V
product — with the results of C-ordered copies, bit for bit, and NumPy's to rounding."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.models.heads import split_heads

from conftest import HAVE_RUST

pytestmark = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")


@pytest.fixture(scope="module")
def rust():
    import rust_core

    return rust_core


@pytest.mark.parametrize("n", [1, 3, 357])
def test_swiglu_and_silu_of_the_halves_of_one_product(rust, n) -> None:
    rng = np.random.default_rng(n)
    both = rng.standard_normal((n, 2 * 1536), dtype=np.float32)  # (n, 2·d_ff): [gate, up]
    gate, up = both[:, :1536], both[:, 1536:]
    assert n == 1 or not gate.flags.c_contiguous
    copies = np.ascontiguousarray(gate), np.ascontiguousarray(up)
    np.testing.assert_array_equal(rust.swiglu(gate, up), rust.swiglu(*copies))
    np.testing.assert_array_equal(rust.silu(up), rust.silu(copies[1]))
    np.testing.assert_allclose(
        rust.swiglu(gate, up), get_backend("numpy").swiglu(gate, up), rtol=2e-6, atol=1e-6
    )


@pytest.mark.parametrize("n", [1, 5, 130])
def test_rope_of_heads_of_a_fused_qkv_product(rust, n) -> None:
    rng = np.random.default_rng(n)
    h, h_kv, d = 9, 3, 64
    qkv = rng.standard_normal((n, (h + 2 * h_kv) * d), dtype=np.float32)
    q = split_heads(qkv[:, : h * d], h)  # (h, n, d), rows (h + 2·h_kv)·d apart
    k = split_heads(qkv[:, h * d : (h + h_kv) * d], h_kv)
    positions = np.arange(7, 7 + n)
    for x in (q, k):
        want = rust.rope(np.ascontiguousarray(x), positions, 10000.0)
        np.testing.assert_array_equal(rust.rope(x, positions, 10000.0), want)
        numpy_rope = get_backend("numpy").rope(x, positions, 10000.0)
        np.testing.assert_allclose(want, numpy_rope, rtol=1e-6, atol=1e-6)
