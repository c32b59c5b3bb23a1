"""The tanh RNN of the RNN/CNN page: the recurrence, and ‖∂h_t/∂x_1‖ by the chain rule."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.topics import rnn


def _inputs(n: int = 6, d: int = 5, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, d))


@pytest.mark.parametrize("rho", [0.1, 0.9, 1.0, 2.5])
def test_w_h_has_exactly_the_requested_spectral_radius(rho: float) -> None:
    weights = rnn.init_weights(5, 7, seed=0, spectral_radius=rho)
    assert weights.W_x.shape == (5, 7) and weights.W_h.shape == (7, 7)
    assert max(abs(np.linalg.eigvals(weights.W_h))) == pytest.approx(rho, rel=1e-9)
    assert weights.spectral_radius == pytest.approx(rho, rel=1e-9)


def test_weights_are_seeded() -> None:
    a = rnn.init_weights(4, 4, seed=1, spectral_radius=1.0)
    b = rnn.init_weights(4, 4, seed=1, spectral_radius=1.0)
    c = rnn.init_weights(4, 4, seed=2, spectral_radius=1.0)
    np.testing.assert_array_equal(a.W_h, b.W_h)
    assert not np.allclose(a.W_h, c.W_h)


@pytest.mark.parametrize("kwargs", [{"spectral_radius": 0.0}, {"spectral_radius": -1.0}])
def test_bad_spectral_radius_is_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        rnn.init_weights(3, 3, seed=0, **kwargs)


def test_run_is_the_recurrence_step_by_step() -> None:
    x = _inputs()
    w = rnn.init_weights(5, 4, seed=0, spectral_radius=1.3)
    states = rnn.run_rnn(x, w)
    h = np.zeros(4)
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ w.W_x + h @ w.W_h + w.b)
        np.testing.assert_allclose(states[t], h, atol=1e-12)


def test_a_state_depends_only_on_earlier_tokens() -> None:
    x = _inputs()
    w = rnn.init_weights(5, 4, seed=0, spectral_radius=1.0)
    changed = x.copy()
    changed[3] += 1.0
    a, b = rnn.run_rnn(x, w), rnn.run_rnn(changed, w)
    np.testing.assert_array_equal(a[:3], b[:3])
    assert np.all(np.abs(a[3:] - b[3:]).max(axis=1) > 0)


@pytest.mark.parametrize("t", [1, 2, 4, 6])
def test_chain_rule_jacobian_matches_finite_differences(t: int) -> None:
    x = _inputs()
    w = rnn.init_weights(5, 4, seed=0, spectral_radius=1.5)
    states = rnn.run_rnn(x, w)
    analytic = rnn.jacobian_first_input(states, w, t)  # (d_h, d_in)
    eps = 1e-6
    numeric = np.empty_like(analytic)
    for b in range(x.shape[1]):
        up, down = x.copy(), x.copy()
        up[0, b] += eps
        down[0, b] -= eps
        numeric[:, b] = (rnn.run_rnn(up, w)[t - 1] - rnn.run_rnn(down, w)[t - 1]) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, atol=1e-7)


def test_sensitivity_is_the_spectral_norm_of_the_jacobian() -> None:
    x = _inputs(n=8)
    w = rnn.init_weights(5, 4, seed=0, spectral_radius=0.8)
    states = rnn.run_rnn(x, w)
    sens = rnn.sensitivity_to_first(states, w)
    expected = [np.linalg.norm(rnn.jacobian_first_input(states, w, t), 2) for t in range(1, 9)]
    np.testing.assert_allclose(sens.norms, expected, rtol=1e-10)
    np.testing.assert_allclose(sens.step_factors, np.array(expected[1:]) / expected[:-1])


def test_small_radius_vanishes() -> None:
    x, _ = rnn.repeat_to_length(_inputs(n=4), ["a", "b", "c", "d"], 60)
    small = rnn.init_weights(5, 8, seed=0, spectral_radius=0.5)
    vanish = rnn.sensitivity_to_first(rnn.run_rnn(x, small), small)
    assert vanish.mean_factor is not None and vanish.mean_factor < 0.8
    assert vanish.log10_norms[-1] < vanish.log10_norms[0] - 10


@pytest.mark.parametrize("rho", [0.5, 1.0, 1.5, 3.0])
def test_without_the_tanh_slope_the_trend_is_the_spectral_radius(rho: float) -> None:
    x = _inputs(n=300)
    w = rnn.init_weights(5, 8, seed=0, spectral_radius=rho)
    ref = rnn.sensitivity_to_first(rnn.run_rnn(x, w), w, squash=False)
    assert ref.mean_factor == pytest.approx(rho, rel=0.05)  # ‖A^t‖^(1/t) → ρ(A)
    expected = np.linalg.norm(np.linalg.matrix_power(w.W_h.T, 9) @ w.W_x.T, 2)
    assert ref.norms[9] == pytest.approx(expected, rel=1e-9)


def test_the_tanh_slope_only_shrinks_each_step() -> None:
    """diag(1 − h²) has entries in (0, 1], so the squashed chain is never above ‖W_h‖ per step."""
    x = _inputs(n=30)
    w = rnn.init_weights(5, 8, seed=0, spectral_radius=2.0)
    sens = rnn.sensitivity_to_first(rnn.run_rnn(x, w), w)
    assert np.all(sens.step_factors <= np.linalg.norm(w.W_h, 2) + 1e-12)


def test_a_large_radius_explodes_on_the_running_example() -> None:
    from transformer_walk.models.toy import ToyConfig, ToyTransformer

    trace = ToyTransformer(ToyConfig(), "numpy").run("Tom loves his dog")
    x, _ = rnn.repeat_to_length(trace.embeddings, trace.tokens, 40)
    w = rnn.init_weights(8, 8, seed=0, spectral_radius=5.0)
    sens = rnn.sensitivity_to_first(rnn.run_rnn(x, w), w)
    assert sens.mean_factor is not None and sens.mean_factor > 1.1
    assert sens.log10_norms[-1] > sens.log10_norms[0] + 2


def test_long_chains_keep_their_scale_below_float64() -> None:
    """400 steps at ρ = 0.1 shrink far below 1e-308; the logarithm keeps the number."""
    x, _ = rnn.repeat_to_length(_inputs(n=5), list("abcde"), 400)
    w = rnn.init_weights(5, 8, seed=0, spectral_radius=0.1)
    sens = rnn.sensitivity_to_first(rnn.run_rnn(x, w), w)
    assert np.all(np.isfinite(sens.log10_norms))
    assert sens.log10_norms[-1] < -330
    assert np.all(np.diff(sens.log10_norms) < 0)
    assert sens.norms[-1] == 0.0  # honestly outside float64


def test_mean_factor_needs_two_steps() -> None:
    w = rnn.init_weights(5, 4, seed=0, spectral_radius=1.0)
    sens = rnn.sensitivity_to_first(rnn.run_rnn(_inputs(n=1), w), w)
    assert sens.mean_factor is None
    assert math.isfinite(sens.log10_norms[0])


def test_repeat_to_length() -> None:
    x = np.arange(6.0).reshape(3, 2)
    rows, tokens = rnn.repeat_to_length(x, ["a", "b", "c"], 7)
    assert tokens == ["a", "b", "c", "a", "b", "c", "a"]
    np.testing.assert_array_equal(rows[3], x[0])
    rows, tokens = rnn.repeat_to_length(x, ["a", "b", "c"], 2)  # never shorter than the sentence
    assert tokens == ["a", "b", "c"] and rows.shape == (3, 2)


@pytest.mark.parametrize(
    ("factor", "steps", "verdict"),
    [
        (1.0, 10, "steady"),
        (1.049, 10, "steady"),  # within the band, and 10 steps grow it only 1.6×
        (1.051, 10, "explode"),
        (0.951, 10, "steady"),
        (0.949, 10, "vanish"),
        (1.03, 400, "explode"),  # close to 1 per step, yet 1.4e5 over the chain
        (0.99, 400, "vanish"),  # 0.018 over the chain
        (0.995, 150, "steady"),  # 0.47 over the chain
        (1.01, 200, "steady"),  # 7.3×: under tenfold
        (1.01, 250, "explode"),  # 12×
    ],
)
def test_the_verdict_reads_the_factor_and_the_whole_chain(
    factor: float, steps: int, verdict: str
) -> None:
    from transformer_walk.topics.rnn import Sensitivity, sensitivity_verdict

    logs = np.log10(factor) * np.arange(steps + 1)  # ‖∂h_t/∂x_1‖ = factor^(t−1)
    sens = Sensitivity(log10_norms=logs, step_factors=np.full(steps, factor))
    assert sensitivity_verdict(sens) == verdict
    one = Sensitivity(log10_norms=np.zeros(1), step_factors=np.zeros(0))
    assert sensitivity_verdict(one) == "one_step"
