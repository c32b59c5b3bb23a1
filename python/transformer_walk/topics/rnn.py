"""A small tanh RNN over the toy embeddings, and how strongly its first input still moves h_t.

The recurrence is eq. (9) of “From word vectors to Transformer” in row-vector form (the convention
of the whole road: a token is a row x_t, so weights multiply from the right):

    h_t = tanh(x_t W_x + h_{t−1} W_h + b),   h_0 = 0.

How much does x_1 still matter at step t? By the chain rule, with column-vector Jacobians
(J[a, b] = ∂h_t[a] / ∂h_{t−1}[b]):

    ∂h_1/∂x_1     = diag(1 − h_1²) W_xᵀ
    ∂h_s/∂h_{s−1} = diag(1 − h_s²) W_hᵀ                       (tanh′(u) = 1 − tanh(u)²)
    ∂h_t/∂x_1     = ∂h_t/∂h_{t−1} · … · ∂h_2/∂h_1 · ∂h_1/∂x_1

The product of t − 1 recurrent Jacobians shrinks or grows roughly geometrically: that is the
vanishing / exploding gradient of §8.2. The RNN is not a backend function: it is computed here
with NumPy, on embeddings that the toy model looked up through the chosen backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RNNWeights:
    W_x: np.ndarray  # [d_in, d_h]
    W_h: np.ndarray  # [d_h, d_h]
    b: np.ndarray  # [d_h]

    @property
    def spectral_radius(self) -> float:
        """ρ(W_h) = the largest |eigenvalue|: the recurrent weights' scale."""
        return float(np.max(np.abs(np.linalg.eigvals(self.W_h))))


def init_weights(d_in: int, d_h: int, *, seed: int, spectral_radius: float) -> RNNWeights:
    """Seeded Gaussian weights; W_h is rescaled so that its spectral radius is the given one.

    W_x has variance 1/d_in, so x_t W_x has entries of about unit size; b = 0.
    """
    if d_in < 1 or d_h < 1:
        raise ValueError("the input and hidden sizes must be at least 1")
    if not spectral_radius > 0:
        raise ValueError("the spectral radius must be positive")
    rng = np.random.default_rng([seed, 9000])  # 9000: a stream no toy-model weight uses
    W_x = rng.standard_normal((d_in, d_h)) / math.sqrt(d_in)
    W_0 = rng.standard_normal((d_h, d_h)) / math.sqrt(d_h)
    rho_0 = float(np.max(np.abs(np.linalg.eigvals(W_0))))
    W_h = W_0 * (spectral_radius / rho_0)
    return RNNWeights(W_x=W_x, W_h=W_h, b=np.zeros(d_h))


def run_rnn(x: np.ndarray, weights: RNNWeights) -> np.ndarray:
    """h_1 … h_T for inputs x [T, d_in] → [T, d_h]. Each step needs the previous one: no
    parallelism across time."""
    T = x.shape[0]
    h = np.zeros(weights.W_h.shape[0])  # h_0
    states = np.empty((T, h.shape[0]))
    for t in range(T):
        h = np.tanh(x[t] @ weights.W_x + h @ weights.W_h + weights.b)
        states[t] = h
    return states


@dataclass(frozen=True)
class Sensitivity:
    """‖∂h_t/∂x_1‖₂ for t = 1 … T, kept as log10 so that neither 1e-400 nor 1e+400 is lost."""

    log10_norms: np.ndarray  # [T]
    step_factors: np.ndarray  # [T − 1] ‖∂h_t/∂x_1‖ / ‖∂h_{t−1}/∂x_1‖

    @property
    def norms(self) -> np.ndarray:
        """The norms themselves (0 or inf where they leave the float64 range)."""
        with np.errstate(over="ignore", under="ignore"):
            return np.power(10.0, self.log10_norms)

    @property
    def mean_factor(self) -> float | None:
        """Geometric mean of the per-step factors: < 1 vanishes, > 1 explodes. None for T = 1."""
        if self.log10_norms.size < 2 or not np.isfinite(self.log10_norms[0]):
            return None
        steps = self.log10_norms.size - 1
        return float(10.0 ** ((self.log10_norms[-1] - self.log10_norms[0]) / steps))


FACTOR_BAND = 0.05  # a mean factor within 1 ± this counts as close to 1, per step
DECADES = 1.0  # ... but a chain that grows or shrinks tenfold or more in all is not "steady"


def sensitivity_verdict(sens: Sensitivity) -> str:
    """What the sensitivity curve shows: "one_step" (no chain yet), "vanish", "explode" or
    "steady". A factor close to 1 per step can still compound: 1.03 over 400 steps is 1.4e5, so
    the whole chain's change (first step to last, in decades) decides too."""
    factor = sens.mean_factor
    if factor is None:
        return "one_step"
    decades = float(sens.log10_norms[-1] - sens.log10_norms[0])
    if factor < 1 - FACTOR_BAND or decades <= -DECADES:
        return "vanish"
    if factor > 1 + FACTOR_BAND or decades >= DECADES:
        return "explode"
    return "steady"


def jacobian_first_input(states: np.ndarray, weights: RNNWeights, t: int) -> np.ndarray:
    """∂h_t/∂x_1 [d_h, d_in] (t counts from 1), the plain product — for checks and small t."""
    J = np.diag(1.0 - states[0] ** 2) @ weights.W_x.T  # (d_h, d_in)
    for s in range(1, t):
        J = np.diag(1.0 - states[s] ** 2) @ weights.W_h.T @ J  # (d_h, d_h) @ (d_h, d_in)
    return J


def sensitivity_to_first(
    states: np.ndarray, weights: RNNWeights, *, squash: bool = True
) -> Sensitivity:
    """‖∂h_t/∂x_1‖₂ (the largest singular value) for every t, by the chain rule.

    ``squash=False`` drops the tanh slopes diag(1 − h²) and keeps only the weights:
    ‖(W_hᵀ)^(t−1) W_xᵀ‖, the reference that grows or shrinks like ρ^(t−1). The running product is
    renormalised at every step and its scale carried as a logarithm, so long chains neither
    underflow to 0 nor overflow to inf.
    """
    T = states.shape[0]

    def slope(s: int) -> np.ndarray:
        return np.diag(1.0 - states[s] ** 2) if squash else np.eye(states.shape[1])

    J = slope(0) @ weights.W_x.T  # (d_h, d_in)
    log_scale = 0.0
    logs: list[float] = []
    for s in range(T):
        if s > 0:
            J = slope(s) @ weights.W_h.T @ J  # (d_h, d_h) @ (d_h, d_h) @ (d_h, d_in)
        norm = float(np.linalg.norm(J, 2))
        if norm == 0.0:  # exactly saturated: no signal passes any more
            logs.extend([-math.inf] * (T - s))
            break
        log_scale += math.log10(norm)
        logs.append(log_scale)
        J = J / norm
    log10_norms = np.array(logs)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        factors = np.power(10.0, np.diff(log10_norms))
    return Sensitivity(log10_norms=log10_norms, step_factors=factors)


def repeat_to_length(x: np.ndarray, tokens: list[str], steps: int) -> tuple[np.ndarray, list[str]]:
    """The sentence's rows, repeated in order until there are ``steps`` of them (at least n)."""
    n = x.shape[0]
    T = max(n, steps)
    order = [t % n for t in range(T)]
    return x[order], [tokens[i] for i in order]  # (T, d_in)
