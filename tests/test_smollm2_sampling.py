"""The sampling rules on logits written by hand: greedy, temperature, top-k, top-p, the seed, and
clear errors for bad arguments. No model needed (the model's own generations are checked in
test_smollm2_generate.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.models.smollm2 import Sampler

# Ten tokens; 7 is best, then 2, then 9: softmax 0.51, 0.19, 0.11, …
LOGITS = np.array([0.0, -1.0, 2.0, 0.5, -3.0, 0.1, 1.0, 3.0, -0.5, 1.5], dtype=np.float32)


def probs(logits: np.ndarray, t: float = 1.0) -> np.ndarray:
    z = np.exp((logits.astype(np.float64) - logits.max()) / t)
    return z / z.sum()


def test_greedy_is_the_arg_max_and_draws_nothing() -> None:
    s = Sampler.make()
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    token, dist = s.choose(LOGITS, rng)
    assert token == 7 and dist[7] == 1.0 and dist.sum() == 1.0
    assert rng.bit_generator.state == state  # the generator was not advanced
    tie = np.array([1.0, 5.0, 5.0], np.float32)
    assert s.choose(tie, rng)[0] == 1  # ties: the lowest id


def test_temperature_reshapes_the_softmax() -> None:
    for t in (0.5, 1.0, 2.0):
        np.testing.assert_allclose(Sampler.make(t).distribution(LOGITS), probs(LOGITS, t))
    sharp = Sampler.make(0.25).distribution(LOGITS)
    flat = Sampler.make(4.0).distribution(LOGITS)
    assert sharp[7] > probs(LOGITS)[7] > flat[7] > 0.1  # < 1 sharpens, > 1 flattens


def test_top_k_keeps_the_k_best() -> None:
    d = Sampler.make(1.0, top_k=3).distribution(LOGITS)
    assert set(np.flatnonzero(d)) == {7, 2, 9}
    kept = probs(LOGITS)[[7, 2, 9]]
    np.testing.assert_allclose(d[[7, 2, 9]], kept / kept.sum())
    assert np.count_nonzero(Sampler.make(1.0, top_k=100).distribution(LOGITS)) == 10


def test_top_p_keeps_the_fewest_that_reach_p() -> None:
    p = probs(LOGITS)
    order = np.argsort(-p)
    cumulative = np.cumsum(p[order])
    for top_p in (0.3, 0.5, 0.8, 0.95):
        d = Sampler.make(1.0, top_p=top_p).distribution(LOGITS)
        k = int(np.argmax(cumulative >= top_p)) + 1  # the fewest whose mass reaches top_p
        assert set(np.flatnonzero(d)) == set(order[:k].tolist()), top_p
        assert cumulative[k - 1] >= top_p and (k == 1 or cumulative[k - 2] < top_p)
    assert set(np.flatnonzero(Sampler.make(1.0, top_p=1e-9).distribution(LOGITS))) == {7}


def test_top_k_then_top_p() -> None:
    """top_p cuts the mass that top_k left: of 7, 2, 9 (0.51, 0.19, 0.11 → 0.63, 0.23, 0.14)
    top_p = 0.7 keeps 7 and 2."""
    d = Sampler.make(1.0, top_k=3, top_p=0.7).distribution(LOGITS)
    assert set(np.flatnonzero(d)) == {7, 2}


def test_draws_follow_the_distribution() -> None:
    s = Sampler.make(1.0, top_k=4)
    rng = np.random.default_rng(1234)
    draws = np.array([s.choose(LOGITS, rng)[0] for _ in range(20_000)])
    expected = s.distribution(LOGITS)
    counts = np.bincount(draws, minlength=10) / len(draws)
    assert set(np.flatnonzero(counts)) == set(np.flatnonzero(expected))  # never a cut token
    np.testing.assert_allclose(counts, expected, atol=0.015)  # ~4 standard errors


def test_the_seed_repeats_the_draws() -> None:
    s = Sampler.make(1.5, seed=7)
    a = [s.choose(LOGITS, rng)[0] for rng in [s.rng()] for _ in range(50)]
    b = [s.choose(LOGITS, rng)[0] for rng in [s.rng()] for _ in range(50)]
    c = [s.choose(LOGITS, rng)[0] for rng in [Sampler.make(1.5, seed=8).rng()] for _ in range(50)]
    assert a == b and a != c


def test_a_tiny_temperature_is_greedy() -> None:
    """z / T for T = 1e-4 is 10⁴ apart: float64 holds it, and all the mass is on the best."""
    d = Sampler.make(1e-4, seed=0).distribution(LOGITS)
    assert d[7] == 1.0 and math.isclose(d.sum(), 1.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"temperature": -0.1}, ValueError, "temperature must be a finite number ≥ 0"),
        ({"temperature": float("nan")}, ValueError, "temperature must be a finite number"),
        ({"temperature": float("inf")}, ValueError, "temperature must be a finite number"),
        ({"temperature": "0.5"}, TypeError, "temperature must be a number, got str"),
        ({"temperature": True}, TypeError, "temperature must be a number, got bool"),
        ({"top_k": 0}, ValueError, "top_k must be at least 1"),
        ({"top_k": -5}, ValueError, "top_k must be at least 1"),
        ({"top_k": 2.0}, TypeError, "top_k must be an int or None, got float"),
        ({"top_p": 0.0}, ValueError, r"top_p must be in \(0, 1\]"),
        ({"top_p": 1.5}, ValueError, r"top_p must be in \(0, 1\]"),
        ({"top_p": float("nan")}, ValueError, r"top_p must be in \(0, 1\]"),
        ({"top_p": "all"}, TypeError, "top_p must be a number or None"),
        ({"seed": -1}, ValueError, "seed must be ≥ 0"),
        ({"seed": 1.5}, TypeError, "seed must be an int or None"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        Sampler.make(**kwargs)
