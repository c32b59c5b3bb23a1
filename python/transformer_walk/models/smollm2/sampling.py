"""Choosing the next token from the logits: greedy, temperature, top-k, top-p (nucleus).

Given the logits z [V] of the last position:

    temperature = 0     greedy: the arg max (the lowest id among equal scores)
    temperature T > 0   p = softmax(z / T): T < 1 sharpens the distribution, T > 1 flattens it
    top_k = k           keep the k most probable tokens, renormalise
    top_p = p           keep the fewest most probable tokens whose probabilities sum to ≥ p
                        (always at least the best one), renormalise

applied in that order (Hugging Face's and llama2.c's: the temperature first, so top-p cuts the
distribution actually sampled from), then one draw from a seeded ``numpy.random.Generator``:
the same seed gives the same tokens. Computed in float64, since z / T for a small T is large.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.checks import is_int


def _is_real(value: object) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def softmax64(logits: np.ndarray) -> np.ndarray:
    """softmax in float64 (the probabilities the candidates show)."""
    z = logits.astype(np.float64)
    z = np.exp(z - z.max())
    return z / z.sum()


@dataclass(frozen=True)
class Sampler:
    """A checked sampling rule (``Sampler.make``) and its random generator's seed."""

    temperature: float = 0.0
    top_k: int | None = None
    top_p: float | None = None
    seed: int | None = None

    @classmethod
    def make(
        cls,
        temperature: object = 0.0,
        top_k: object = None,
        top_p: object = None,
        seed: object = None,
    ) -> Sampler:
        """Check the arguments: TypeError for a wrong type, ValueError for a value out of range
        (a negative, NaN or infinite temperature; top_k < 1; top_p outside (0, 1]; a negative
        seed), each naming the argument and what it accepts."""
        if not _is_real(temperature):
            raise TypeError(f"temperature must be a number, got {type(temperature).__name__}")
        t = float(temperature)  # type: ignore[arg-type]
        if not (math.isfinite(t) and t >= 0):
            raise ValueError(
                f"temperature must be a finite number ≥ 0 (0 = greedy), got {temperature!r}"
            )
        k: int | None = None
        if top_k is not None:
            if not is_int(top_k):
                raise TypeError(f"top_k must be an int or None, got {type(top_k).__name__}")
            k = int(top_k)
            if k < 1:
                raise ValueError(f"top_k must be at least 1 (or None for no cut), got {k}")
        p: float | None = None
        if top_p is not None:
            if not _is_real(top_p):
                raise TypeError(f"top_p must be a number or None, got {type(top_p).__name__}")
            p = float(top_p)  # type: ignore[arg-type]
            if not 0 < p <= 1:  # NaN fails both comparisons
                raise ValueError(f"top_p must be in (0, 1] (or None for no cut), got {top_p!r}")
        s: int | None = None
        if seed is not None:
            if not is_int(seed):
                raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
            s = int(seed)
            if s < 0:
                raise ValueError(f"seed must be ≥ 0, got {s}")
        return cls(t, k, p, s)

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0

    def rng(self) -> np.random.Generator:
        """A fresh generator for one generation: seeded, or from the OS's entropy."""
        return np.random.default_rng(self.seed)

    def distribution(self, logits: np.ndarray) -> np.ndarray:
        """The probabilities [V] float64 a token is drawn from (one-hot at the arg max when
        greedy); every cut token has exactly 0."""
        if self.greedy:
            probs = np.zeros(logits.shape, np.float64)
            probs[int(np.argmax(logits))] = 1.0
            return probs
        probs = softmax64(logits.astype(np.float64) / self.temperature)
        if self.top_k is not None and self.top_k < probs.size:
            # The k-th largest probability; ties at the edge are broken by id, as the sort is.
            order = np.argsort(-probs, kind="stable")
            probs[order[self.top_k :]] = 0.0
        if self.top_p is not None and self.top_p < 1.0:
            order = np.argsort(-probs, kind="stable")
            cumulative = np.cumsum(probs[order])
            total = cumulative[-1]
            # The fewest best tokens that reach top_p of the (possibly top-k cut) mass.
            keep = int(np.searchsorted(cumulative, self.top_p * total, side="left")) + 1
            probs[order[keep:]] = 0.0
        return probs / probs.sum()

    def choose(self, logits: np.ndarray, rng: np.random.Generator) -> tuple[int, np.ndarray]:
        """The next token's id and the distribution it was drawn from. Greedy draws nothing
        (the generator is not advanced)."""
        probs = self.distribution(logits)
        if self.greedy:
            return int(np.argmax(probs)), probs
        cumulative = np.cumsum(probs)
        u = rng.random() * cumulative[-1]
        # The first token whose cumulative probability passes u: u < total, so there is one,
        # and never a token of probability 0 (its cumulative equals the one before it).
        return int(np.searchsorted(cumulative, u, side="right")), probs
