"""The curse-of-dimensionality experiments: volume shares, distances, relative contrast."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.topics.dimensionality import (
    DEFAULT_DIMENSIONS,
    concentration_experiment,
    contrast_at,
    distance_histogram,
    half_shell_dimension,
    inner_cube_share,
    pairwise_distances,
    random_points,
    relative_contrast,
    set_contrast,
    shell_share,
)


def test_inner_cube_share_is_one_minus_eps_to_the_d() -> None:
    assert inner_cube_share(0.05, 384) == pytest.approx(0.95**384, rel=1e-12)
    assert inner_cube_share(0.1, 1) == pytest.approx(0.9)
    assert inner_cube_share(0.0, 10_000) == 1.0
    d = np.array([1, 2, 10, 100])
    np.testing.assert_allclose(inner_cube_share(0.2, d) + shell_share(0.2, d), 1.0)
    # The share falls with d, towards 0.
    shares = inner_cube_share(0.01, np.array([1, 10, 100, 1000, 10_000]))
    assert np.all(np.diff(shares) < 0) and shares[-1] < 1e-40


def test_inner_cube_share_matches_a_monte_carlo_count() -> None:
    # Independent check: the share of uniform points whose every coordinate is within the margin.
    rng = np.random.default_rng(1)
    eps, d = 0.1, 5
    x = rng.random((200_000, d))
    inside = np.all((x > eps / 2) & (x < 1 - eps / 2), axis=1).mean()
    assert inside == pytest.approx(inner_cube_share(eps, d), abs=0.005)


def test_half_shell_dimension() -> None:
    for eps in (0.01, 0.05, 0.3):
        d_half = half_shell_dimension(eps)
        assert (1 - eps) ** d_half == pytest.approx(0.5)
    assert half_shell_dimension(0.05) == pytest.approx(13.51, abs=0.01)
    with pytest.raises(ValueError):
        half_shell_dimension(0.0)
    with pytest.raises(ValueError):
        inner_cube_share(1.5, 3)


def test_pairwise_distances_match_a_direct_computation() -> None:
    points = np.random.default_rng(0).normal(size=(7, 5))
    direct = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    got = pairwise_distances(points)
    np.testing.assert_allclose(got, direct, atol=1e-12)
    assert np.all(np.diag(got) == 0)
    np.testing.assert_array_equal(got, got.T)


def test_relative_contrast_by_hand() -> None:
    # Points 0, 1, 3 on a line. From 0: nearest 1, farthest 3 → 2. From 1: 1 and 2 → 1.
    # From 3: 2 and 3 → 0.5.
    points = np.array([[0.0], [1.0], [3.0]])
    np.testing.assert_allclose(relative_contrast(pairwise_distances(points)), [2.0, 1.0, 0.5])
    assert set_contrast(points) == pytest.approx(2.0)  # all pairs: (3 − 1) / 1


def test_a_duplicate_point_gives_an_infinite_contrast() -> None:
    points = np.array([[0.0], [0.0], [2.0]])
    assert math.isinf(relative_contrast(pairwise_distances(points))[0])
    with pytest.raises(ValueError):
        relative_contrast(np.zeros((2, 2)))


def test_one_hot_vectors_are_all_root_two_apart() -> None:
    one_hot = np.eye(6)
    distances = pairwise_distances(one_hot)
    off = distances[~np.eye(6, dtype=bool)]
    np.testing.assert_allclose(off, math.sqrt(2), rtol=0, atol=1e-15)
    assert set_contrast(one_hot) == pytest.approx(0.0, abs=1e-12)


def test_random_points_are_seeded_and_in_the_cube() -> None:
    a, b = random_points(50, 8, seed=3), random_points(50, 8, seed=3)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, random_points(50, 8, seed=4))
    assert a.shape == (50, 8) and a.min() >= 0 and a.max() < 1


def test_distances_concentrate_as_d_grows() -> None:
    seen = []
    rows = concentration_experiment(
        (2, 10, 100, 1000), n_points=150, seed=0, on_progress=lambda *a: seen.append(a)
    )
    assert seen == [(1, 4, 2), (2, 4, 10), (3, 4, 100), (4, 4, 1000)]
    medians = [r.contrast_median for r in rows]
    spreads = [r.spread for r in rows]
    assert all(a > b for a, b in zip(medians, medians[1:], strict=False)), medians
    assert all(a > b for a, b in zip(spreads, spreads[1:], strict=False)), spreads
    assert medians[0] > 5 and medians[-1] < 0.2
    for r in rows:
        assert r.contrast_min <= r.contrast_median <= r.contrast_max
    # In the unit cube the typical distance grows like √(d/6).
    assert rows[-1].distance_mean == pytest.approx(math.sqrt(1000 / 6), rel=0.01)


def test_contrast_at_validates_its_arguments() -> None:
    with pytest.raises(ValueError):
        contrast_at(0)
    with pytest.raises(ValueError):
        contrast_at(5, n_points=2)
    with pytest.raises(ValueError):
        contrast_at(5, n_points=10_000)


def test_the_default_experiment_is_quick_and_ordered() -> None:
    assert list(DEFAULT_DIMENSIONS) == sorted(DEFAULT_DIMENSIONS)
    assert DEFAULT_DIMENSIONS[0] == 1 and DEFAULT_DIMENSIONS[-1] >= 1000


def test_distance_histogram_is_a_density_that_narrows() -> None:
    centres, low = distance_histogram(100, 2, seed=0)
    _, high = distance_histogram(100, 2000, seed=0)
    width = centres[1] - centres[0]
    assert low.sum() * width == pytest.approx(1.0, abs=0.02)  # distances ÷ mean stay below 2
    assert high.sum() * width == pytest.approx(1.0, abs=1e-9)
    assert high.max() > 5 * low.max()  # a tall narrow spike around 1
    assert abs(centres[np.argmax(high)] - 1.0) < 0.05
