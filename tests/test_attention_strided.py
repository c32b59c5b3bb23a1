"""Keys and values that are the first positions of a longer array — a key/value cache, k[:, :end]
of a [h_kv, capacity, d] array — are read in place by rust_core (no copy per call), with the
results of contiguous copies, bit for bit, on every entry point; other strided layouts are copied
first and give the same too."""

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
        lambda a: a[:, ::2],  # rows not adjacent
        lambda a: a[:, :, ::2],  # columns not adjacent
        lambda a: a[::-1],  # a negative stride
        lambda a: np.broadcast_to(a[:1], a.shape),  # a zero stride between batches
        lambda a: a.transpose(1, 0, 2)[:3],  # batches interleaved with rows
    ],
)
def test_other_layouts_are_copied_and_agree(rust, view) -> None:
    rng = np.random.default_rng(2)
    base = rng.standard_normal((3, 40, 32), dtype=np.float32)
    k = view(base)
    q = rng.standard_normal((k.shape[0], 4, k.shape[-1]), dtype=np.float32)
    want = rust.attention(q, np.ascontiguousarray(k), np.ascontiguousarray(k))
    np.testing.assert_array_equal(rust.attention(q, k, k), want)


def test_the_model_cache_hands_its_views_over(rust) -> None:
    """SmolLM2's LayerCache returns exactly such views: k[:, :end] of [h_kv, capacity, d]."""
    from transformer_walk.models.smollm2.cache import LayerCache

    cache = LayerCache(3, 64, capacity=64)
    rng = np.random.default_rng(3)
    keys, values = cache.append(*(rng.standard_normal((2, 3, 10, 64), dtype=np.float32)))
    assert not keys.flags.c_contiguous and keys.strides[-2:] == (64 * 4, 4)


def test_arrays_numpy_calls_contiguous_with_odd_strides(rust) -> None:
    """Found by the property tests: size-1 and empty axes may carry any stride and still be
    C-contiguous to NumPy; the keys and values of such arrays are read like any other."""
    from numpy.lib.stride_tricks import as_strided

    data = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    odd = as_strided(data, shape=(2, 1, 1), strides=(4, 4, 4))
    np.testing.assert_array_equal(
        rust.attention(odd, odd, odd, scale=0.5), np.ones((2, 1, 1)) * [[[1]], [[2]]]
    )
    empty_q = as_strided(data, shape=(0, 0), strides=(0, 0))
    empty_k = as_strided(data, shape=(1, 0), strides=(0, 0))
    assert rust.attention(empty_q, empty_k, np.array([[-4.0]], np.float32)).shape == (0, 1)
