"""The curse of dimensionality, computed: where the volume of a cube goes, and how distances
between random points concentrate as the dimension d grows.

Volume. In the unit cube [0, 1]^d the inner cube of side 1 − ε (a margin of ε/2 on every side)
holds the share (1 − ε)^d of the volume; the thin shell near the boundary holds 1 − (1 − ε)^d,
which tends to 1 as d → ∞: in high dimensions almost every point is near the boundary.

Distances. For N random points, the relative contrast of a query point's distances to the others,
(D_max − D_min) / D_min, tends to 0 as d grows: the nearest and the farthest neighbour end up
almost equally far, and "nearest" stops meaning much.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# The dimensions of the concentration experiment: from a line to a few thousand axes.
DEFAULT_DIMENSIONS: tuple[int, ...] = (1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
DEFAULT_POINTS = 200
MAX_POINTS = 500
DEFAULT_SEED = 0


def inner_cube_share(eps: float, d: int | np.ndarray) -> float | np.ndarray:
    """(1 − ε)^d: the share of [0, 1]^d's volume inside the inner cube of side 1 − ε."""
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"ε must be in [0, 1], got {eps}")
    return np.power(1.0 - eps, d)


def shell_share(eps: float, d: int | np.ndarray) -> float | np.ndarray:
    """1 − (1 − ε)^d: the share within the thin boundary layer."""
    return 1.0 - inner_cube_share(eps, d)


def half_shell_dimension(eps: float) -> float:
    """The d at which the boundary layer holds half the volume: (1 − ε)^d = 1/2."""
    if not 0.0 < eps < 1.0:
        raise ValueError(f"ε must be strictly between 0 and 1, got {eps}")
    return math.log(0.5) / math.log1p(-eps)


def pairwise_distances(points: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of ``points`` [N, d] → [N, N] (zero diagonal)."""
    x = np.asarray(points, dtype=np.float64)
    squared_norms = np.einsum("ij,ij->i", x, x)  # (N,)
    # ‖a − b‖² = ‖a‖² + ‖b‖² − 2 a·b: one matrix product instead of N² vector differences.
    squared = squared_norms[:, None] + squared_norms[None, :] - 2.0 * (x @ x.T)  # (N, N)
    np.maximum(squared, 0.0, out=squared)  # rounding can push a tiny distance below zero
    np.fill_diagonal(squared, 0.0)
    return np.sqrt(squared)


def relative_contrast(distances: np.ndarray) -> np.ndarray:
    """Per query point i: (max_j D_ij − min_j D_ij) / min_j D_ij over the other points j ≠ i.

    ``distances`` is a square [N, N] matrix; the result is [N]. Infinite when a point has a
    duplicate (D_min = 0)."""
    d = np.asarray(distances, dtype=np.float64)
    n = d.shape[0]
    if d.shape != (n, n) or n < 3:
        raise ValueError(f"need a square distance matrix of at least 3 points, got {d.shape}")
    others = ~np.eye(n, dtype=bool)
    off = d[others].reshape(n, n - 1)  # (N, N−1) each row without its own zero
    d_min, d_max = off.min(axis=1), off.max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d_min > 0, (d_max - d_min) / d_min, np.inf)


@dataclass(frozen=True)
class ContrastRow:
    """One dimension of the experiment."""

    d: int
    contrast_median: float  # median over query points of (D_max − D_min) / D_min
    contrast_mean: float  # the mean: pulled up by the few points with a near-twin at small d
    contrast_min: float
    contrast_max: float
    distance_mean: float  # the typical distance, which grows like √(d/6) in the unit cube
    distance_std: float

    @property
    def spread(self) -> float:
        """Std / mean of all pairwise distances: how wide their histogram is, relative to its
        centre."""
        return self.distance_std / self.distance_mean


def random_points(n_points: int, d: int, seed: int) -> np.ndarray:
    """N points drawn uniformly from [0, 1]^d; the same (n_points, d, seed), the same points."""
    rng = np.random.default_rng([seed, d])
    return rng.random((n_points, d))


def contrast_at(d: int, n_points: int = DEFAULT_POINTS, seed: int = DEFAULT_SEED) -> ContrastRow:
    if d < 1:
        raise ValueError(f"d must be at least 1, got {d}")
    if not 3 <= n_points <= MAX_POINTS:
        raise ValueError(f"the number of points must be between 3 and {MAX_POINTS}, got {n_points}")
    distances = pairwise_distances(random_points(n_points, d, seed))  # (N, N)
    contrast = relative_contrast(distances)  # (N,)
    pairs = distances[np.triu_indices(n_points, k=1)]  # each unordered pair once
    return ContrastRow(
        d=d,
        contrast_median=float(np.median(contrast)),
        contrast_mean=float(contrast.mean()),
        contrast_min=float(contrast.min()),
        contrast_max=float(contrast.max()),
        distance_mean=float(pairs.mean()),
        distance_std=float(pairs.std()),
    )


def concentration_experiment(
    dimensions: Sequence[int] = DEFAULT_DIMENSIONS,
    n_points: int = DEFAULT_POINTS,
    seed: int = DEFAULT_SEED,
    on_progress: Callable[[int, int, int], None] | None = None,
) -> list[ContrastRow]:
    """The relative contrast for every d in ``dimensions``; ``on_progress(done, total, d)`` is
    called after each dimension so a page can move its progress bar."""
    rows = []
    for done, d in enumerate(dimensions, start=1):
        rows.append(contrast_at(d, n_points, seed))
        if on_progress is not None:
            on_progress(done, len(dimensions), d)
    return rows


def normalised_distances(n_points: int, d: int, seed: int = DEFAULT_SEED) -> np.ndarray:
    """Every pairwise distance divided by their mean: a histogram of these narrows as d grows."""
    distances = pairwise_distances(random_points(n_points, d, seed))
    pairs = distances[np.triu_indices(n_points, k=1)]
    return pairs / pairs.mean()


def distance_histogram(
    n_points: int, d: int, seed: int = DEFAULT_SEED, bins: int = 40, upper: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    """(bin centres, density) of the pairwise distances divided by their mean, over [0, upper]:
    a curve that narrows around 1 as d grows. Densities integrate to 1 over the range."""
    values = normalised_distances(n_points, d, seed)
    density, edges = np.histogram(values, bins=bins, range=(0.0, upper), density=True)
    return (edges[:-1] + edges[1:]) / 2, density


def set_contrast(points: np.ndarray) -> float:
    """(max − min) / min over all pairs of distinct rows: 0 when every pair is equally far."""
    distances = pairwise_distances(points)
    pairs = distances[np.triu_indices(distances.shape[0], k=1)]
    if pairs.size == 0:
        raise ValueError("need at least two points")
    smallest = pairs.min()
    return float((pairs.max() - smallest) / smallest) if smallest > 0 else math.inf
