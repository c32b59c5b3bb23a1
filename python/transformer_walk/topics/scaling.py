"""Why scores are divided by √d_k (§18–19), measured rather than asserted.

- ``dot_variance``: Var(q · k) for random q, k with independent unit-variance entries grows as d_k
  (each of the d_k products q_r k_r has variance 1, and variances of independent terms add), so
  dividing by √d_k brings it back to about 1.
- ``saturation``: softmax over n such scores. Unscaled, the largest weight runs to 1 and the
  entropy to 0 as d_k grows; the softmax's Jacobian diag(α) − ααᵀ then vanishes, and so do the
  gradients that W^Q and W^K would learn from. The softmax is the chosen backend's.
- ``gradient_reading``: what the gradient-size curves say at one d_k (the page's sentence about
  them is computed from it).
- ``row_stats``: the largest weight and the mean entropy of a trace's attention rows.

Random numbers come from NumPy's seeded generator (sampling is not a backend function).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

D_KS: tuple[int, ...] = tuple(2**p for p in range(11))  # 1, 2, 4, …, 1024
MODES: tuple[str, ...] = ("unscaled", "scaled")


@dataclass(frozen=True)
class Variance:
    d_ks: tuple[int, ...]
    samples: int
    unscaled: np.ndarray  # [D] measured Var(q·k)
    scaled: np.ndarray  # [D] measured Var(q·k / √d_k)


def dot_variance(d_ks: Sequence[int] = D_KS, *, samples: int = 2000, seed: int = 0) -> Variance:
    """Measured variance of q·k over ``samples`` random pairs for each d_k."""
    if samples < 2:
        raise ValueError("a variance needs at least two samples")
    rng = np.random.default_rng([seed, 19])
    raw = []
    for d_k in d_ks:
        q = rng.standard_normal((samples, d_k))
        k = rng.standard_normal((samples, d_k))
        dots = np.einsum("sd,sd->s", q, k)  # (samples,) one q·k per pair
        raw.append(dots.var(ddof=1))
    unscaled = np.array(raw)
    return Variance(
        d_ks=tuple(d_ks),
        samples=samples,
        unscaled=unscaled,
        scaled=unscaled / np.array(d_ks, dtype=float),  # Var(X / c) = Var(X) / c², c = √d_k
    )


def entropy(p: np.ndarray) -> np.ndarray:
    """−Σ α log α over the last axis, in nats (0 · log 0 = 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)


def softmax_jacobian_norm(p: np.ndarray) -> np.ndarray:
    """‖diag(α) − ααᵀ‖_F over the last axis: how much the weights still respond to the scores.

    Squared entries: (α_i − α_i²)² on the diagonal, α_i² α_j² off it; summed, that is
    Σα² − 2Σα³ + (Σα²)². It is 0 exactly when one weight is 1 (saturation)."""
    s2 = (p**2).sum(axis=-1)
    s3 = (p**3).sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2 * s3 + s2**2, 0.0))


@dataclass(frozen=True)
class Saturation:
    d_ks: tuple[int, ...]
    n_keys: int
    trials: int
    max_weight: dict[str, np.ndarray]  # mode → [D] mean of the largest weight per row
    entropy: dict[str, np.ndarray]  # mode → [D] mean entropy (nats); log n is the uniform maximum
    jacobian: dict[str, np.ndarray]  # mode → [D] mean ‖diag(α) − ααᵀ‖_F


def saturation(
    softmax: Callable[..., np.ndarray],
    d_ks: Sequence[int] = D_KS,
    *,
    n_keys: int,
    trials: int = 200,
    seed: int = 0,
) -> Saturation:
    """One query against ``n_keys`` random keys, ``trials`` times per d_k, scores with and without
    ÷√d_k, all softmax-ed in one call of ``softmax`` (the backend's)."""
    if n_keys < 1 or trials < 1:
        raise ValueError("need at least one key and one trial")
    rng = np.random.default_rng([seed, 18])
    raw = np.empty((len(d_ks), trials, n_keys))
    for a, d_k in enumerate(d_ks):
        q = rng.standard_normal((trials, 1, d_k))
        k = rng.standard_normal((trials, n_keys, d_k))
        raw[a] = (q * k).sum(axis=-1)  # (trials, n_keys) q·k_j
    root = np.sqrt(np.array(d_ks, dtype=float))[:, None, None]  # (D, 1, 1)
    scores = np.stack([raw, raw / root])  # (2, D, trials, n_keys): unscaled, scaled
    flat = scores.reshape(-1, n_keys)  # (2·D·trials, n_keys): one softmax call
    weights = np.asarray(softmax(flat, axis=-1)).reshape(scores.shape)
    return Saturation(
        d_ks=tuple(d_ks),
        n_keys=n_keys,
        trials=trials,
        max_weight={m: weights[s].max(axis=-1).mean(axis=-1) for s, m in enumerate(MODES)},
        entropy={m: entropy(weights[s]).mean(axis=-1) for s, m in enumerate(MODES)},
        jacobian={m: softmax_jacobian_norm(weights[s]).mean(axis=-1) for s, m in enumerate(MODES)},
    )


def uniform_jacobian_norm(n_keys: int) -> float:
    """‖diag(α) − ααᵀ‖_F of a row spread evenly over ``n_keys`` (α = 1/n): √(1/n − 1/n²).
    Small too, like a saturated row's: the norm is largest for rows in between."""
    return math.sqrt(1.0 / n_keys - 1.0 / n_keys**2)


@dataclass(frozen=True)
class GradientReading:
    """What the gradient-size curves say at one d_k: the page's sentences about them are
    written from these numbers."""

    d_k: int
    n_keys: int
    unscaled: float  # mean ‖diag(α) − ααᵀ‖ without ÷√d_k
    scaled: float  # … with it
    verdict: str  # "smaller" / "larger": unscaled beyond a fifth from scaled; else "close"
    max_weight: float  # the unscaled rows' mean largest weight at d_k
    rises_first: bool  # the unscaled curve peaks after its first d_k …
    peak: float  # … at this height …
    peak_d_k: int  # … and this d_k
    last: float  # the unscaled curve at the largest d_k …
    last_d_k: int
    uniform: float  # the norm of an evenly spread row over the same keys
    scaled_low: float  # the scaled curve's range over every d_k
    scaled_high: float


#: Unscaled counts as "smaller" below this share of the scaled value, "larger" above its inverse:
#: a fifth, beyond the trial-to-trial spread of 200 trials (about 2%).
SMALLER_SHARE = 0.8
VERDICTS: tuple[str, ...] = ("smaller", "close", "larger")


def gradient_reading(result: Saturation, d_k: int) -> GradientReading:
    """Compare the two gradient-size curves at ``d_k`` (one of ``result.d_ks``)."""
    at = result.d_ks.index(d_k)
    off, on = result.jacobian["unscaled"], result.jacobian["scaled"]
    peak_at = int(np.argmax(off))
    if off[at] < SMALLER_SHARE * on[at]:
        verdict = "smaller"
    elif off[at] > on[at] / SMALLER_SHARE:
        verdict = "larger"
    else:
        verdict = "close"
    return GradientReading(
        d_k=d_k,
        n_keys=result.n_keys,
        unscaled=float(off[at]),
        scaled=float(on[at]),
        verdict=verdict,
        max_weight=float(result.max_weight["unscaled"][at]),
        rises_first=peak_at > 0,
        peak=float(off[peak_at]),
        peak_d_k=result.d_ks[peak_at],
        last=float(off[-1]),
        last_d_k=result.d_ks[-1],
        uniform=uniform_jacobian_norm(result.n_keys),
        scaled_low=float(on.min()),
        scaled_high=float(on.max()),
    )


@dataclass(frozen=True)
class RowStats:
    max_weight: float  # the largest weight anywhere in the head's matrix
    mean_max: float  # the mean over rows of each row's largest weight
    mean_entropy: float  # nats
    max_entropy: float  # log n: every row uniform


def row_stats(weights: np.ndarray) -> RowStats:
    """Statistics of one head's attention matrix [n, n]."""
    n = weights.shape[-1]
    return RowStats(
        max_weight=float(weights.max()),
        mean_max=float(weights.max(axis=-1).mean()),
        mean_entropy=float(entropy(weights).mean()),
        max_entropy=math.log(n),
    )
