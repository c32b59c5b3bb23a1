"""The key/value cache on its own (no model file needed): growth keeps what was cached, and
``truncate`` brings it back to an earlier length so the same step can be timed again."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.models.smollm2 import KVCache


def _rows(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.standard_normal((3, n, 4)).astype(np.float32)  # (h_kv, n, d_head)


def test_growing_keeps_every_cached_position() -> None:
    rng = np.random.default_rng(0)
    cache = KVCache(n_layers=2, h_kv=3, d_head=4)
    first, second = _rows(rng, 60), _rows(rng, 10)  # 70 > the first reserve of 64
    for layer in cache.layers:
        layer.append(first, first)
        k, v = layer.append(second, -second)
        np.testing.assert_array_equal(k, np.concatenate([first, second], axis=1))
        np.testing.assert_array_equal(v, np.concatenate([first, -second], axis=1))
    assert cache.length == 70
    assert cache.nbytes == 2 * 2 * 3 * 70 * 4 * 4  # layers · (k, v) · h_kv · n · d_head · 4 B


def test_truncate_forgets_the_later_positions_only() -> None:
    rng = np.random.default_rng(1)
    cache = KVCache(n_layers=2, h_kv=3, d_head=4)
    prefix, step, other = _rows(rng, 5), _rows(rng, 1), _rows(rng, 1)
    for layer in cache.layers:
        layer.append(prefix, prefix)
        layer.append(step, step)
    cache.truncate(5)
    assert cache.length == 5 and cache.nbytes == 2 * 2 * 3 * 5 * 4 * 4
    k, _ = cache.layers[0].append(other, other)  # the step taken again, with other numbers
    np.testing.assert_array_equal(k, np.concatenate([prefix, other], axis=1))
    for bad in (-1, 7):
        with pytest.raises(ValueError, match="length must be in 0 … 6"):
            cache.truncate(bad)
