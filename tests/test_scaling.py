"""Scaling helpers: Var(q·k) ≈ d_k, entropy, the softmax Jacobian, saturation on every backend."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.topics import scaling


def test_variance_of_q_dot_k_grows_like_d_k() -> None:
    result = scaling.dot_variance(samples=4000, seed=0)
    assert result.d_ks == scaling.D_KS == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
    ratio = result.unscaled / np.array(result.d_ks)
    assert np.all((ratio > 0.85) & (ratio < 1.15)), ratio
    assert np.all((result.scaled > 0.85) & (result.scaled < 1.15))
    assert result.unscaled[-1] > 500 * result.unscaled[0]


def test_variance_is_seeded() -> None:
    a = scaling.dot_variance((1, 8), samples=100, seed=3)
    b = scaling.dot_variance((1, 8), samples=100, seed=3)
    c = scaling.dot_variance((1, 8), samples=100, seed=4)
    np.testing.assert_array_equal(a.unscaled, b.unscaled)
    assert not np.allclose(a.unscaled, c.unscaled)


def test_variance_needs_two_samples() -> None:
    with pytest.raises(ValueError):
        scaling.dot_variance((4,), samples=1)


def test_entropy() -> None:
    assert scaling.entropy(np.full(5, 0.2)) == pytest.approx(math.log(5))
    assert scaling.entropy(np.array([0.0, 1.0, 0.0])) == 0.0
    p = np.array([0.5, 0.25, 0.25])
    assert scaling.entropy(p) == pytest.approx(-(p * np.log(p)).sum())


def test_softmax_jacobian_norm_matches_the_matrix() -> None:
    rng = np.random.default_rng(0)
    for _ in range(5):
        p = rng.dirichlet(np.ones(6))
        J = np.diag(p) - np.outer(p, p)  # ∂α_i/∂s_j
        assert scaling.softmax_jacobian_norm(p) == pytest.approx(np.linalg.norm(J), rel=1e-10)
    assert scaling.softmax_jacobian_norm(np.array([0.0, 1.0, 0.0])) == 0.0


def test_unscaled_softmax_saturates_and_scaled_does_not() -> None:
    result = scaling.saturation(get_backend("numpy").softmax, n_keys=8, trials=300, seed=0)
    off, on = result.max_weight["unscaled"], result.max_weight["scaled"]
    assert off[-1] > 0.95 and on[-1] < 0.6
    assert off[-1] > off[0] + 0.3
    assert np.ptp(on) < 0.1  # the same shape at every d_k
    assert result.entropy["unscaled"][-1] < 0.2 < result.entropy["scaled"][-1]
    assert result.jacobian["unscaled"][-1] < 0.3 * result.jacobian["scaled"][-1]
    # d_k = 1: dividing by √1 changes nothing.
    assert off[0] == pytest.approx(on[0])


@pytest.mark.parametrize("name", ["python", "rust"])
def test_saturation_agrees_across_backends(name: str) -> None:
    try:
        softmax = get_backend(name).softmax
    except ImportError:
        pytest.skip(f"{name} backend not importable")
    ref = scaling.saturation(get_backend("numpy").softmax, n_keys=4, trials=20, seed=1)
    got = scaling.saturation(softmax, n_keys=4, trials=20, seed=1)
    for mode in scaling.MODES:
        np.testing.assert_allclose(got.max_weight[mode], ref.max_weight[mode], atol=1e-12)
        np.testing.assert_allclose(got.entropy[mode], ref.entropy[mode], atol=1e-12)


def test_row_stats() -> None:
    weights = np.array([[1.0, 0.0], [0.5, 0.5]])
    stats = scaling.row_stats(weights)
    assert stats.max_weight == 1.0
    assert stats.mean_max == pytest.approx(0.75)
    assert stats.mean_entropy == pytest.approx(math.log(2) / 2)
    assert stats.max_entropy == pytest.approx(math.log(2))
