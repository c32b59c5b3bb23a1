"""Queries, keys and values whose rows are contiguous are read in place by rust_core, whatever
the strides of their other axes — a key/value cache's first positions (k[:, :end] of a
[h_kv, capacity, d] array), the heads of a fused Q·K·V product, broadcast batches — with the
results of contiguous copies, bit for bit, on every entry point; other layouts (negative strides,
columns not adjacent) are copied first and give the same too."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import HAVE_RUST

pytestmark = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")


@pytest.fixture(scope="module")
def rust():
    import rust_core

    return rust_core


@pytest.mark.parametrize("end", [2, 37, 100])
@pytest.mark.parametrize(("h", "h_kv", "n"), [(9, 3, 1), (9, 3, 5), (4, 4, 3)])
def test_a_cache_prefix_is_read_as_its_copy(rust, end, h, h_kv, n) -> None:
    rng = np.random.default_rng(end + h + n)
    k_cache = rng.standard_normal((h_kv, 100, 64), dtype=np.float32)  # (h_kv, capacity, d)
    v_cache = rng.standard_normal((h_kv, 100, 48), dtype=np.float32)
    q = rng.standard_normal((h, n, 64), dtype=np.float32)
    k, v = k_cache[:, :end], v_cache[:, :end]  # views, not C-contiguous
    kc, vc = np.ascontiguousarray(k), np.ascontiguousarray(v)
    mask = np.tri(n, end, k=end - n, dtype=bool)  # n new queries after end − n cached keys
    for kwargs in ({}, {"mask": mask}):
        np.testing.assert_array_equal(rust.attention(q, k, v, **kwargs),
                                      rust.attention(q, kc, vc, **kwargs))  # fmt: skip
        np.testing.assert_array_equal(rust.attention_weights(q, k, **kwargs),
                                      rust.attention_weights(q, kc, **kwargs))  # fmt: skip
        for a, b in zip(rust.attention_with_weights(q, k, v, **kwargs),
                        rust.attention_with_weights(q, kc, vc, **kwargs), strict=True):  # fmt: skip
            np.testing.assert_array_equal(a, b)


def test_leading_axes_that_step_evenly_are_read_in_place(rust) -> None:
    rng = np.random.default_rng(1)
    cache = rng.standard_normal((2, 3, 50, 16), dtype=np.float32)  # (B, h_kv, capacity, d)
    q = rng.standard_normal((2, 6, 5, 16), dtype=np.float32)
    k = cache[:, :, :20]
    np.testing.assert_array_equal(rust.attention(q, k, k),
                                  rust.attention(q, np.ascontiguousarray(k),
                                                 np.ascontiguousarray(k)))  # fmt: skip


@pytest.mark.parametrize(
    "view",
    [
        lambda a: a[:, ::2],  # rows not adjacent: read in place
        lambda a: np.broadcast_to(a[:1], a.shape),  # a zero stride between batches: in place
        lambda a: a.transpose(1, 0, 2)[:3],  # batches interleaved with rows: in place
        lambda a: a[:, :, ::2],  # columns not adjacent: copied
        lambda a: a[::-1],  # a negative stride: copied
    ],
)
@pytest.mark.parametrize("operand", ["q", "k", "v"])
def test_every_layout_agrees_with_its_copy(rust, view, operand) -> None:
    rng = np.random.default_rng(2)
    viewed = view(rng.standard_normal((3, 40, 32), dtype=np.float32))
    q, k, v = (
        viewed if name == operand else rng.standard_normal(viewed.shape, dtype=np.float32)
        for name in "qkv"
    )
    copies = [np.ascontiguousarray(a) for a in (q, k, v)]
    np.testing.assert_array_equal(rust.attention(q, k, v), rust.attention(*copies))
    np.testing.assert_array_equal(rust.attention_weights(q, k),
                                  rust.attention_weights(*copies[:2]))  # fmt: skip
    for a, b in zip(rust.attention_with_weights(q, k, v, causal=True),
                    rust.attention_with_weights(*copies, causal=True), strict=True):  # fmt: skip
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(("batch", "n", "h", "d_k"), [(1, 1, 2, 4), (2, 5, 3, 8), (3, 130, 12, 32)])
@pytest.mark.parametrize("masked", [False, True])
def test_heads_of_a_fused_qkv_product_are_read_in_place(rust, batch, n, h, d_k, masked) -> None:
    """MiniLM's self-attention: Q, K, V are column blocks of one [B, n, 3·d_model] product, and
    each is split into heads as a view [B, h, n, d_k] with rows 3·d_model apart."""
    from transformer_walk.models.heads import split_heads

    rng = np.random.default_rng(batch * n)
    d_model = h * d_k
    qkv = rng.standard_normal((batch, n, 3 * d_model), dtype=np.float32)
    q, k, v = (split_heads(qkv[..., i * d_model : (i + 1) * d_model], h) for i in range(3))
    assert n == 1 or (not q.flags.c_contiguous and q.strides[-2] == 3 * d_model * 4)
    copies = [np.ascontiguousarray(a) for a in (q, k, v)]
    mask = None
    if masked:
        mask = (np.arange(n) < max(1, n - 2))[None, None, None, :]  # (1, 1, 1, n): padding
    np.testing.assert_array_equal(rust.attention(q, k, v, mask=mask),
                                  rust.attention(*copies, mask=mask))  # fmt: skip
    for a, b in zip(rust.attention_with_weights(q, k, v, mask=mask),
                    rust.attention_with_weights(*copies, mask=mask), strict=True):  # fmt: skip
        np.testing.assert_array_equal(a, b)


def test_the_model_cache_hands_its_views_over(rust) -> None:
    """SmolLM2's LayerCache returns exactly such views: k[:, :end] of [h_kv, capacity, d]."""
    from transformer_walk.models.smollm2.cache import LayerCache

    cache = LayerCache(3, 64, capacity=64)
    rng = np.random.default_rng(3)
    keys, values = cache.append(*(rng.standard_normal((2, 3, 10, 64), dtype=np.float32)))
    assert not keys.flags.c_contiguous and keys.strides[-2:] == (64 * 4, 4)


def test_arrays_numpy_calls_contiguous_with_odd_strides(rust) -> None:
    """Found by the property tests: size-1 and empty axes may carry any stride and still be
    C-contiguous to NumPy; such arrays are read like any other."""
    from numpy.lib.stride_tricks import as_strided

    data = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    odd = as_strided(data, shape=(2, 1, 1), strides=(4, 4, 4))
    np.testing.assert_array_equal(
        rust.attention(odd, odd, odd, scale=0.5), np.ones((2, 1, 1)) * [[[1]], [[2]]]
    )
    empty_q = as_strided(data, shape=(0, 0), strides=(0, 0))
    empty_k = as_strided(data, shape=(1, 0), strides=(0, 0))
    assert rust.attention(empty_q, empty_k, np.array([[-4.0]], np.float32)).shape == (0, 1)
