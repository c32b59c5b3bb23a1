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


def test_an_even_row_has_a_small_gradient_too() -> None:
    for n in (1, 2, 4, 40):
        even = np.full(n, 1.0 / n)
        assert scaling.uniform_jacobian_norm(n) == pytest.approx(
            scaling.softmax_jacobian_norm(even), abs=1e-12
        )
    assert scaling.uniform_jacobian_norm(2) == pytest.approx(0.5)  # √(1/2 − 1/4)


def _curves(unscaled: list[float], scaled: list[float]) -> scaling.Saturation:
    d_ks = tuple(2**p for p in range(len(unscaled)))
    flat = np.full(len(d_ks), 0.5)
    return scaling.Saturation(
        d_ks=d_ks, n_keys=40, trials=1, max_weight={"unscaled": flat, "scaled": flat},
        entropy={"unscaled": flat, "scaled": flat},
        jacobian={"unscaled": np.array(unscaled), "scaled": np.array(scaled)},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("unscaled_at_4", "verdict"),
    # scaled is 0.2 at d_k = 4: a fifth below it is "smaller", a fifth above it "larger"
    [(0.159, "smaller"), (0.161, "close"), (0.2, "close"), (0.249, "close"), (0.251, "larger")],
)
def test_gradient_reading_verdicts(unscaled_at_4: float, verdict: str) -> None:
    reading = scaling.gradient_reading(
        _curves([0.1, 0.3, unscaled_at_4, 0.01], [0.21, 0.2, 0.2, 0.19]), 4
    )
    assert reading.verdict == verdict
    assert (reading.unscaled, reading.scaled) == (unscaled_at_4, 0.2)
    assert reading.rises_first and (reading.peak, reading.peak_d_k) == (0.3, 2)
    assert (reading.last, reading.last_d_k) == (0.01, 8)
    assert (reading.scaled_low, reading.scaled_high) == (0.19, 0.21)
    assert reading.uniform == pytest.approx(scaling.uniform_jacobian_norm(40))


def test_a_curve_that_only_falls_does_not_rise_first() -> None:
    reading = scaling.gradient_reading(_curves([0.4, 0.3, 0.1], [0.4, 0.4, 0.4]), 4)
    assert not reading.rises_first and reading.peak_d_k == 1 and reading.verdict == "smaller"


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
